/* The tick follows the timer's rate (TIMER.MTIME_HZ), never an assumed 10 MHz. Run with
 * timebase = "cycle" (machine.toml): mtime counts core cycles, 100 MHz at P0, so a 1 kHz tick
 * is 100,000 counts; after a switch to P2 (24 MHz) the rate register says 24 MHz and the tick
 * becomes 24,000 counts from the next tick on: 1 ms of simulated time either way.
 * Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t t;
static uint32_t stack[512];

/* mtime counts and core cycles across a sleep of `ticks`, started right after a tick. */
static void measure(uint32_t ticks, uint64_t *counts, uint32_t *cycles)
{
    uk_task_sleep(1); /* align with the tick */
    uint64_t m0 = bsp_timer_now();
    uint32_t c0 = bsp_cycles();
    uk_task_sleep(ticks);
    *counts = bsp_timer_now() - m0;
    *cycles = bsp_cycles() - c0;
}

/* |got - want| <= tol */
static int near(uint64_t got, uint64_t want, uint64_t tol)
{
    return got + tol >= want && got <= want + tol;
}

static void task(void *arg)
{
    (void)arg;
    bsp_counters_enable();
    CHECK_EQ(uk_tick_hz(), 1000);
    CHECK_EQ(bsp_timer_hz(), bsp_cpu_hz()); /* "cycle": the rate is the core clock */
    CHECK_EQ(bsp_timer_hz(), 100000000u);

    uint64_t counts;
    uint32_t cycles;
    uk_tick_t t0 = uk_time();
    measure(10, &counts, &cycles);
    CHECK_EQ(uk_time() - t0, 11);
    /* 10 ms at 100 MHz, give or take the wake-up path */
    CHECK(near(counts, 1000000, 2000));

    /* P2: 24 MHz. The core runs on at 100 MHz until the switch settles (10 us). */
    bsp_opp_select(2);
    while (bsp_opp_switching())
        ;
    CHECK_EQ(bsp_cpu_hz(), 24000000u);
    CHECK_EQ(bsp_timer_hz(), 24000000u);
    uk_task_sleep(2); /* the tick in progress when the switch completed may be off */
    measure(10, &counts, &cycles);
    /* 10 ms at 24 MHz: 240,000 counts (and cycles), not 1,000,000 */
    CHECK(near(counts, 240000, 2000));
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    uk_task_create(&t, "t", task, 0, 1, stack, sizeof stack);
    uk_task_activate(&t);
    uk_start();
    return 0;
}
