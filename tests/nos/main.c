/* NOS on target: releases relative to the actual start (a job delayed once by a long job is
 * on its new grid afterwards, not trying to catch up), priority order among released jobs,
 * interrupt work polled between jobs at LOW priority (never preempting a job; after every
 * released job of higher priority), and sleeping in wfi between jobs. Self-checking. */
#include "nos.h"
#include "bsp/bsp.h"
#include "check.h"

#define US(t) ((uint32_t)((uint64_t)(t)*1000000u / bsp_timer_hz())) /* mtime counts -> us */

static uint64_t t0;
static uint32_t a_at[8], b_at[4];
static int na, nb, irq_runs, long_runs;
static uint32_t irq_at, long_end;

static uint32_t now_us(void) { return US(bsp_timer_now() - t0); }

static void busy_until(uint32_t us)
{
    while (now_us() < us) {
    }
}

/* A: every 1 ms, priority 5. */
static void job_a(void *arg)
{
    (void)arg;
    if (na < 8)
        a_at[na++] = US(nos_job_start() - t0);
}

/* B: every 2 ms, priority 3 (above A): at a common release B runs first. */
static void job_b(void *arg)
{
    (void)arg;
    if (nb < 4)
        b_at[nb++] = US(nos_job_start() - t0);
}

/* L: once at 4.2 ms, runs 1.5 ms (priority 9): delays A, B and the interrupt at 5 ms. */
static void job_long(void *arg)
{
    (void)arg;
    if (long_runs++)
        return;
    busy_until(now_us() + 1500);
    long_end = now_us();
}

static void irq_work(void *arg)
{
    (void)arg;
    irq_runs++;
    irq_at = now_us();
}

static void finish(void *arg)
{
    (void)arg;
    /* A's first runs at 0, 1, 2, 3, 4 ms (B first at 0, 2 and 4: higher priority). */
    for (int k = 0; k < 4; k++)
        CHECK(a_at[k] >= (uint32_t)k * 1000 && a_at[k] < (uint32_t)k * 1000 + 200);
    for (int k = 0; k < 3; k++) /* common releases: B (priority 3) before A (5) */
        CHECK(b_at[k] >= (uint32_t)k * 2000 && b_at[k] <= a_at[2 * k]);
    /* L ran 4.2 .. 5.7 ms; A's 5 ms release waited, then its grid moved: the next release
     * is one period after that late start, not at 6 ms. */
    CHECK(long_end >= 5700 && long_end < 5900);
    CHECK(a_at[5] >= long_end && a_at[5] < long_end + 200);
    CHECK(a_at[6] >= a_at[5] + 1000 && a_at[6] < a_at[5] + 1100);
    /* The interrupt (5 ms) waited for L (a job is never preempted), then for A's late
     * release (priority 5 is above LOW), and ran next. */
    CHECK_EQ(irq_runs, 1);
    CHECK(irq_at >= a_at[5] && irq_at < a_at[5] + 200);
    CHECK(irq_at < a_at[6]);
    bsp_exit(check_result());
}

int main(void)
{
    bsp_counters_enable();
    t0 = bsp_timer_now();
    CHECK_EQ(nos_job("a", job_a, 0, 1000, 0, 5), 0);
    CHECK_EQ(nos_job("b", job_b, 0, 2000, 0, 3), 0);
    CHECK_EQ(nos_job("long", job_long, 0, 100000, 4200, 9), 0);
    CHECK_EQ(nos_job("finish", finish, 0, 100000, 9000, 0), 0);
    CHECK_EQ(nos_irq(2, irq_work, 0), 0);
    CHECK_EQ(nos_irq(2, irq_work, 0), -1); /* taken */
    CHECK_EQ(nos_irq(15, irq_work, 0), -1);
    CHECK_EQ(nos_job("bad", 0, 0, 1000, 0, 1), -1);
    CHECK_EQ(nos_job("bad", job_a, 0, 0, 0, 1), -1);
    nos_run();
}
