/* uk_irq_disable() + uk_irq_restore(): mcycle read before and after the pair, minus the same
 * two reads with nothing in between. Both are inline (kernel/include/ubik/irq.h), so the
 * figure is the cost of the instructions they put in the caller. Output:
 *     irq_disable_restore <cycles>
 *     irq_empty <cycles> */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static inline uint32_t mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v) : : "memory");
    return v;
}

static uint32_t __attribute__((noinline)) empty_window(void)
{
    uint32_t t0 = mcycle();
    uint32_t t1 = mcycle();
    return t1 - t0;
}

static uint32_t __attribute__((noinline)) pair_window(void)
{
    uint32_t t0 = mcycle();
    unsigned key = uk_irq_disable();
    uk_irq_restore(key);
    uint32_t t1 = mcycle();
    return t1 - t0;
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    __asm__ volatile("csrs mstatus, 8" ::: "memory"); /* as in a task: interrupts enabled */
    uint32_t e = 0xFFFFFFFFu, w = 0, p;
    for (int k = 0; k < 64; k++) {
        p = empty_window();
        if (p < e)
            e = p;
    }
    for (int k = 0; k < 64; k++) {
        p = pair_window();
        if (p > w)
            w = p;
    }
    __asm__ volatile("csrc mstatus, 8" ::: "memory");
    bsp_printf("irq_empty %u\nirq_disable_restore %u\n", (unsigned)e, (unsigned)(w - e));
    return 0;
}
