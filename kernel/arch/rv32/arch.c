/* Ubik on RV32: new task stacks and the tick timer (TIMER of the reference MCU). Shared by
 * the guest variant (rv32-guest/): what touches the core's or the timer's privileged state
 * is in arch_impl.h. */
#include "kernel.h"
#include "bsp/mmio.h"
#include "tcb_offsets.h"

_Static_assert(__builtin_offsetof(uk_task_t, sp) == UK_TCB_SP, "tcb_offsets.h");
_Static_assert(__builtin_offsetof(uk_task_t, stack_base) == UK_TCB_STACK_BASE, "tcb_offsets.h");
_Static_assert(__builtin_offsetof(uk_task_t, name) == 4, "switch.S reads the name at 4");
_Static_assert(__builtin_offsetof(uk_task_t, delta) - __builtin_offsetof(uk_task_t, delay_node) ==
                   UK_DELAY_NODE_TO_DELTA,
               "tcb_offsets.h");
_Static_assert(UK_ASM_STACK_CANARY == UK_STACK_CANARY, "canary");

extern void uk__arch_context_start(void);

extern void uk__resume_full(void);

/* A full switch frame at the top of the stack (layout in switch.S): resumed, it returns to
 * uk__arch_context_start with s0 = fn, s1 = arg. */
UK_OTHER_FN(uk__arch_context_init)
void *uk__arch_context_init(void *stack_base, size_t stack_bytes, void (*fn)(void *), void *arg)
{
    uintptr_t top = ((uintptr_t)stack_base + stack_bytes) & ~(uintptr_t)15;
    uint32_t *frame = (uint32_t *)(top - 64);
    for (int i = 0; i < 16; i++)
        frame[i] = 0;
    frame[0] = (uint32_t)(uintptr_t)uk__resume_full;
    frame[1] = (uint32_t)(uintptr_t)uk__arch_context_start;
    frame[2] = (uint32_t)(uintptr_t)fn;
    frame[3] = (uint32_t)(uintptr_t)arg;
    return frame;
}

UK_OTHER_FN(uk__arch_task_init) void uk__arch_task_init(uk_task_t *t)
{
    t->sp = uk__arch_context_init(t->stack_base, t->stack_bytes, (void (*)(void *))uk__task_run, t);
}

UK_OTHER_FN(uk__arch_irq_stack_init) void uk__arch_irq_stack_init(uint32_t *top)
{
    uk__arch_irq_stack_set(top);
}

/* The tick: tick_hz per second of mtime, whose rate the machine gives in TIMER.MTIME_HZ.
 * A tick lasts rate / tick_hz counts, and one count more every time the remainders add up to
 * a whole count (so 32768 Hz / 1000 ticks averages 32.768, not 32). The rate is read again
 * at every tick: under timebase = "cycle" it is the core clock, which an operating-point
 * switch changes, and the period follows from the next tick on (the tick in progress when
 * the switch completes is off by at most the change). */
/* next_tick, timer_hz, tick_period and tick_rem are read (and the first written) by the
 * timer interrupt's short path in switch.S as well: global, under uk__ names. */
uint64_t uk__next_tick;
#define next_tick uk__next_tick
static uint32_t tick_hz; /* ticks per second (system.toml tick_hz) */
uint32_t uk__timer_hz;   /* mtime's rate the period was computed for */
#define timer_hz uk__timer_hz
uint32_t uk__tick_period; /* whole mtime counts per tick (at least 1) */
#define tick_period uk__tick_period
uint32_t uk__tick_rem; /* timer_hz % tick_hz: the fraction, in 1/tick_hz counts */
#define tick_rem uk__tick_rem
static uint32_t tick_frac; /* the fractions accumulated, < tick_hz */

static UK_TIME_FN(set_rate) void set_rate(uint32_t rate)
{
    timer_hz = rate;
    tick_period = rate / tick_hz;
    tick_rem = rate % tick_hz;
    if (tick_period == 0) { /* a timer slower than the tick: as fast as it can */
        tick_period = 1;
        tick_rem = 0;
    }
    tick_frac = 0;
}

/* next_tick one period on, at the rate the period was computed for. */
static inline __attribute__((always_inline)) void step(void)
{
    next_tick += tick_period;
    if (tick_rem) {
        tick_frac += tick_rem;
        if (tick_frac >= tick_hz) {
            tick_frac -= tick_hz;
            next_tick++;
        }
    }
}

/* The tick after next_tick. */
static UK_TIME_FN(advance) void advance(void)
{
    uint32_t rate = MMIO32(TIMER_MTIME_HZ);
    if (rate != timer_hz)
        set_rate(rate);
    step();
}

UK_TIME_FN(uk__arch_timer_start) void uk__arch_timer_start(uint32_t hz)
{
    tick_hz = hz ? hz : 1;
    timer_hz = 0; /* advance() reads the rate */
    uint32_t hi, lo;
    do {
        hi = MMIO32(TIMER_MTIMEH);
        lo = MMIO32(TIMER_MTIME);
    } while (hi != MMIO32(TIMER_MTIMEH));
    next_tick = (uint64_t)hi << 32 | lo;
    advance();
    uk__arch_compare_set(next_tick);
    uk__arch_timer_unmask();
}

/* Next tick, one period after the last one (not after now): ticks do not drift. The timer
 * interrupt (switch.S) masked itself; unmasked here, it fires again at once if the next tick
 * is already due, so a late tail loses no tick. Called by the tail, interrupts enabled: the
 * compare halves change under a masked timer interrupt. */
UK_TIME_FN(uk__arch_timer_ack) void uk__arch_timer_ack(void)
{
    advance();
    uk__arch_compare_move(next_tick);
    uk__arch_timer_unmask();
}

UK_SCHED_FN(uk__arch_tail_ack) void uk__arch_tail_ack(void) { uk__arch_tail_clear(); }
