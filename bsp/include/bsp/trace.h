/* User markers for `ubik run --trace` (docs/observe.md, "Kernel events and markers").
 *
 * bsp_trace_marker("text") puts an instant named "text" on the running task's track;
 * bsp_trace_value(id, v) sets the trace's counter "value ID" to v. Each is one or two plain
 * stores to the RAM variable bsp__trace, which the testbed watches while it writes a trace:
 * the machine charges them as any store (with the address load, 2 to 4 instructions), and
 * without --trace nothing reads them. `text` must stay valid (a string literal). */
#ifndef BSP_TRACE_H
#define BSP_TRACE_H

#include <stdint.h>

struct bsp_trace_port {
    const char *volatile marker; /* offset 0: a marker's text */
    volatile uint32_t id;        /* offset 4: a value's id, stored before ... */
    volatile uint32_t value;     /* offset 8: ... the value (this store emits it) */
};

/* One definition per image, whichever files include this header. */
__attribute__((weak)) struct bsp_trace_port bsp__trace;

static inline void bsp_trace_marker(const char *text) { bsp__trace.marker = text; }

static inline void bsp_trace_value(uint32_t id, uint32_t value)
{
    bsp__trace.id = id;
    bsp__trace.value = value;
}

#endif
