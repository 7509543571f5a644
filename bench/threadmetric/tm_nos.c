/* Thread-Metric on NOS (issue 12): the scenarios that make sense for a non-preemptive,
 * run-to-completion executive (nos/nos.h), with the reporting method of tm_scenarios.c.
 * NOS's jobs return instead of looping and never block, so they cannot use tm_port.h's task
 * model; the same scenarios are written here as jobs:
 *   1 basic        one job, one pass of tm_basic.h's computation per run (the same code as
 *                  on every OS: the suite's self-check);
 *   2 cooperative  5 jobs of equal priority, each run counts (a run-to-completion switch is
 *                  NOS's cooperative scheduling; equal priorities run in release order);
 *   4 interrupt    a job raises the software interrupt (INTC.SET) and counts when NOS's
 *                  polled interrupt work has handled the previous one (the job runs below
 *                  the interrupt work's priority, so NOS polls the line between its runs);
 *                  the count is the interrupts handled, Thread-Metric's unit.
 * Preemption, messages, semaphores and pools do not exist in NOS: those scenarios are absent.
 * Jobs are released every microsecond (NOS times a release from the start of the previous
 * run, so a job that takes longer is released again at once). The reporter is the highest
 * priority job, every TM_PERIOD_MS; it measures mcycle between two of its runs (a run-to-
 * completion executive starts it when the running job ends: the window is still exact,
 * cycles and counts being read at the same points). Lines printed as tm_scenarios.c's. */
#include "tm_config.h"
#include "bsp/bsp.h"
#include "nos.h"
#include "tm_basic.h"

#ifndef TM_PERIOD_MS
#define TM_PERIOD_MS 20
#endif
#ifndef TM_PERIODS
#define TM_PERIODS 4
#endif
#if !defined(TM_SCENARIO) || (TM_SCENARIO != 1 && TM_SCENARIO != 2 && TM_SCENARIO != 4)
#error "tm_config.h must define TM_SCENARIO as 1 (basic), 2 (cooperative) or 4 (interrupt) on NOS"
#endif

#define TM_IRQ_LINE 5
#define WORKER_PRIO 10
#define IRQ_WORKER_PRIO 250 /* below NOS_IRQ_PRIO: the line is polled between the job's runs */

static const char *const names[] = {"?", "basic", "cooperative", "?", "interrupt"};
#define NAME names[TM_SCENARIO]

static volatile uint32_t counter[5];
static volatile uint32_t raised, handled;
static unsigned workers;

static void fail(const char *why)
{
    bsp_printf("tm %s FAIL %s\n", NAME, why);
    bsp_exit(1);
}

static void check(int ok, const char *why)
{
    if (!ok)
        fail(why);
}

static void basic_job(void *arg)
{
    (void)arg;
    tm_basic_pass(counter[0]);
    counter[0]++;
}

static void coop_job(void *arg) { counter[(uintptr_t)arg]++; }

static void irq_work(void *arg)
{
    (void)arg;
    handled++;
}

static void irq_job(void *arg)
{
    (void)arg;
    if (raised != handled)
        return; /* not yet handled: NOS polls the line before the next run */
    if (raised)
        counter[0]++;
    raised++;
    bsp_fast_irq_raise(TM_IRQ_LINE);
}

/* As tm_scenarios.c: the interrupt scenario counts the interrupts handled (Thread-Metric's
 * unit), the others the sum of the jobs' counters. */
static uint32_t total(void)
{
    if (TM_SCENARIO == 4)
        return handled;
    uint32_t s = 0;
    for (unsigned k = 0; k < workers; k++)
        s += counter[k];
    return s;
}

static void check_period(const uint32_t before[5])
{
    for (unsigned k = 0; k < workers; k++)
        check(counter[k] != before[k], "a worker did not advance");
    if (TM_SCENARIO == 2) {
        uint32_t lo = counter[0], hi = counter[0];
        for (unsigned k = 1; k < workers; k++) {
            lo = counter[k] < lo ? counter[k] : lo;
            hi = counter[k] > hi ? counter[k] : hi;
        }
        check(hi - lo <= 1, "cooperative jobs ran unevenly");
    }
    if (TM_SCENARIO == 4) {
        check(raised - handled <= 1, "lost interrupts");
        check(handled - counter[0] <= 1, "handled != counted");
    }
}

static unsigned period;
static uint32_t t0, c0, h0, before[5], sum_count, sum_cycles, sum_irqs;

static void start_window(void)
{
    for (unsigned k = 0; k < workers; k++)
        before[k] = counter[k];
    c0 = total();
    h0 = handled;
    t0 = bsp_cycles();
}

static void reporter(void *arg)
{
    (void)arg;
    uint32_t t1 = bsp_cycles();
    if (period > 0) {
        uint32_t n = total() - c0, cycles = t1 - t0;
        check(n > 0, "nothing counted");
        check_period(before);
        bsp_printf("tm %s period=%u count=%u cycles=%u cpc=%u\n", NAME, period, (unsigned)n,
                   (unsigned)cycles, (unsigned)((cycles + n / 2) / n));
        if (period > 1 || TM_PERIODS == 1) {
            sum_count += n;
            sum_cycles += cycles;
            sum_irqs += handled - h0;
        }
        if (period == TM_PERIODS) {
            bsp_printf("tm %s count=%u cycles=%u cpc=%u", NAME, (unsigned)sum_count,
                       (unsigned)sum_cycles, (unsigned)((sum_cycles + sum_count / 2) / sum_count));
            if (TM_SCENARIO == 4)
                bsp_printf(" interrupts=%u", (unsigned)sum_irqs);
            bsp_printf("\n");
            bsp_exit(0);
        }
    }
    period++;
    start_window(); /* last: the print above is outside every window */
}

int main(void)
{
    bsp_counters_enable();
    int r = nos_job("report", reporter, 0, TM_PERIOD_MS * 1000u, 0, 0);
    switch (TM_SCENARIO) {
    case 1:
        workers = 1;
        r |= nos_job("basic", basic_job, 0, 1, 0, WORKER_PRIO);
        break;
    case 2:
        workers = 5;
        for (unsigned k = 0; k < 5; k++)
            r |= nos_job("coop", coop_job, (void *)(uintptr_t)k, 1, 0, WORKER_PRIO);
        break;
    default:
        workers = 1;
        r |= nos_irq(TM_IRQ_LINE, irq_work, 0);
        r |= nos_job("irq", irq_job, 0, 1, 0, IRQ_WORKER_PRIO);
        break;
    }
    check(r == 0, "setup");
    nos_run();
}
