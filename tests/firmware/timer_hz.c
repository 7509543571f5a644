/* TIMER.MTIME_HZ, mtime's rate (read-only): it must match how fast mtime actually counts
 * against the core clock (POWER.FREQ_HZ and mcycle), on any machine. Built three times:
 *   timer_hz        default machine: a fixed 10 MHz (EXPECT_HZ);
 *   timer_hz_32k    timer_hz_32k.machine.toml: a fixed 32768 Hz (EXPECT_HZ);
 *   timer_hz_cycle  timer_hz_cycle.machine.toml: "cycle" (EXPECT_CYCLE): the rate is the core
 *                   clock, and follows an operating-point switch.
 * Self-checking. */
#include "check.h"

#if !defined(EXPECT_CYCLE) && !defined(EXPECT_HZ)
#define EXPECT_HZ 10000000u /* the default machine */
#endif

/* mtime counts and core cycles over a busy loop of `n` iterations. */
static void measure(uint32_t n, uint64_t *counts, uint64_t *cycles)
{
    uint64_t m0 = bsp_timer_now();
    uint32_t c0 = bsp_cycles();
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
    *cycles = bsp_cycles() - c0;
    *counts = bsp_timer_now() - m0;
}

/* counts / rate == cycles / cpu_hz, to within `slack_counts` counts of quantisation. */
static void check_rate(uint32_t rate, uint32_t n)
{
    uint64_t counts, cycles;
    measure(n, &counts, &cycles);
    uint64_t want = cycles * rate / bsp_cpu_hz(); /* counts expected in that many cycles */
    uint64_t slack = want / 100 + 2;
    CHECK(counts + slack >= want && counts <= want + slack);
}

int main(void)
{
    bsp_counters_enable();
    uint32_t rate = MMIO32(TIMER_MTIME_HZ);
    CHECK_EQ(bsp_timer_hz(), rate);
#ifdef EXPECT_CYCLE
    CHECK_EQ(rate, bsp_cpu_hz());
#else
    CHECK_EQ(rate, EXPECT_HZ);
#endif
    check_rate(rate, 200000);

    /* Read-only: a write changes nothing. */
    MMIO32(TIMER_MTIME_HZ) = 12345;
    CHECK_EQ(bsp_timer_hz(), rate);

    /* The slowest operating point: a fixed rate stays, "cycle" follows the clock. */
    unsigned last = bsp_opp_count() - 1;
    bsp_opp_select(last);
    while (bsp_opp_switching())
        ;
    uint32_t after = bsp_timer_hz();
#ifdef EXPECT_CYCLE
    CHECK(bsp_cpu_hz() != rate);
    CHECK_EQ(after, bsp_cpu_hz());
#else
    CHECK_EQ(after, rate);
#endif
    check_rate(after, 50000);
    return check_result();
}
