/* Idle benchmark for `make bench` (docs/contract.md, testbed.json idle_speedup):
 * the only work is a 1 kHz machine-timer interrupt of about 100 cycles; the
 * core sleeps in `wfi` otherwise (>= 99.9 % idle at 100 MHz). The tick is a
 * fixed 10,000 mtime counts, 1 ms on the default 10 MHz timebase: fixed, not read
 * from TIMER.MTIME_HZ, so that the program stays the one measured on the Ibex RTL
 * (tests/rtl, whose timer has no rate register). Runs IDLE_MS ticks (default 100,000 = 100
 * simulated seconds), then exits 0.
 *
 * The timer entry replaces the BSP's (bsp_vector_timer) with a lean handler
 * that saves only what it uses, so the interrupt costs about 100 cycles all
 * told (entry, the mtimecmp update, a short busy loop, mret, and the wake-up
 * loop in main): about 0.1 % of the 100,000 cycles of each 1 ms at 100 MHz.
 */
#include "bsp/bsp.h"

#ifndef IDLE_MS
#define IDLE_MS 100000
#endif
#ifndef IDLE_WORK_LOOPS
#define IDLE_WORK_LOOPS 10 /* 4 cycles each: about 40 cycles of work */
#endif

#define TICK_COUNTS 10000u /* 1 ms of a 10 MHz mtime */

static volatile uint32_t ticks;
static uint32_t next_lo, next_hi; /* the mtimecmp programmed last */

__attribute__((interrupt("machine"))) void bsp_vector_timer(void)
{
    uint32_t lo = next_lo + TICK_COUNTS;
    if (lo < next_lo) { /* carry into the high word */
        MMIO32(TIMER_MTIMECMP) = 0xFFFFFFFFu;
        MMIO32(TIMER_MTIMECMPH) = ++next_hi;
    }
    MMIO32(TIMER_MTIMECMP) = lo; /* also clears the interrupt */
    next_lo = lo;

    uint32_t n = IDLE_WORK_LOOPS;
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
    ticks = ticks + 1;
}

int main(void)
{
    uint64_t first = bsp_timer_now() + TICK_COUNTS;
    next_lo = (uint32_t)first;
    next_hi = (uint32_t)(first >> 32);
    bsp_timer_set_compare(first);
    bsp_timer_irq_enable();
    bsp_irq_enable();

    while (ticks < IDLE_MS)
        bsp_wfi();

    bsp_irq_disable();
    bsp_printf("idle: %u ticks\n", (unsigned)ticks);
    return 0;
}
