/* Thread-Metric's eight scenarios (issue 12), written from the published test descriptions
 * on the portability layer tm_port.h. One image per scenario: tm_config.h (written by run.sh)
 * defines TM_SCENARIO (1..8, below), TM_PERIOD_MS and TM_PERIODS.
 *
 * A reporting task at priority 0 (the highest) loops TM_PERIODS times: reads the cycle
 * counter, sleeps TM_PERIOD_MS, reads it again, and prints the work done in that window:
 *     tm NAME period=K count=N cycles=C cpc=X
 * count is the scenario's unit of work, the one Thread-Metric reports: the sum over the worker
 * tasks' counters, but for the two interrupt scenarios, where it is the interrupts handled
 * (one per interrupt, however many tasks count in it); cpc = C / N rounded.
 * Then it prints the figure over every period after the first (a warm-up):
 *     tm NAME count=N cycles=C cpc=X
 * with ` interrupts=I` at the end for the two interrupt scenarios (tm_json.py checks N = I).
 * Each period also checks the scenario's invariants (every worker advanced, messages carry
 * the expected content, raised interrupts == handled, pool blocks keep what was written);
 * a failure prints `tm NAME FAIL reason` and ends the run with exit code 1. */
#include "tm_config.h"
#include "tm_basic.h"
#include "tm_port.h"

#ifndef TM_PERIOD_MS
#define TM_PERIOD_MS 20
#endif
#ifndef TM_PERIODS
#define TM_PERIODS 4
#endif

#define TM_BASIC 1
#define TM_COOPERATIVE 2
#define TM_PREEMPTIVE 3
#define TM_INTERRUPT 4
#define TM_INTERRUPT_PREEMPTION 5
#define TM_MESSAGE 6
#define TM_SYNCHRONIZATION 7
#define TM_MEMORY 8
#if !defined(TM_SCENARIO) || TM_SCENARIO < 1 || TM_SCENARIO > 8
#error "tm_config.h must define TM_SCENARIO as 1..8"
#endif

static const char *const names[] = {"?",          "basic",           "cooperative",
                                    "preemptive", "interrupt",       "interrupt_preemption",
                                    "message",    "synchronization", "memory"};
#define NAME names[TM_SCENARIO]

static volatile uint32_t counter[5]; /* per worker task */
static volatile uint32_t raised, handled;

static void fail(const char *why)
{
    tm_print("tm %s FAIL %s\n", NAME, why);
    tm_exit(1);
}

static void check(int ok, const char *why)
{
    if (!ok)
        fail(why);
}

/* ---- 1. Basic processing: one task does a fixed computation, counting each pass ---- */
static void basic_task(void)
{
    for (;;) {
        tm_basic_pass(counter[0]);
        counter[0]++;
    }
}

/* ---- 2. Cooperative scheduling: 5 tasks of equal priority, each counts and yields ---- */
static void coop_task(unsigned k)
{
    for (;;) {
        counter[k]++;
        check(tm_yield() == 0, "yield");
    }
}
static void coop0(void) { coop_task(0); }
static void coop1(void) { coop_task(1); }
static void coop2(void) { coop_task(2); }
static void coop3(void) { coop_task(3); }
static void coop4(void) { coop_task(4); }

/* ---- 3. Preemptive scheduling: 5 tasks at 5 priorities (task k: priority 1 + k). Task 4
 * (the lowest) counts and resumes task 3, which preempts it, counts and resumes task 2, ...
 * task 0 counts and suspends itself; each falls back to suspending itself in turn. ---- */
static void preempt_task(unsigned k)
{
    for (;;) {
        if (k != 4)
            check(tm_task_suspend(k) == 0, "suspend");
        counter[k]++;
        if (k != 0)
            check(tm_task_resume(k - 1) == 0, "resume");
    }
}
static void pre0(void) { preempt_task(0); }
static void pre1(void) { preempt_task(1); }
static void pre2(void) { preempt_task(2); }
static void pre3(void) { preempt_task(3); }
static void pre4(void) { preempt_task(4); }

/* ---- 4. Interrupt processing: a task raises the software interrupt; the handler counts
 * and puts a semaphore, which the task gets before counting. ---- */
static void irq_sem_handler(void)
{
    handled++;
    tm_sem_put(0);
}

static void irq_task(void)
{
    for (;;) {
        raised++;
        tm_irq_raise();
        check(tm_sem_get(0) == 0, "sem get");
        counter[0]++;
    }
}

/* ---- 5. Interrupt preemption processing: a low task raises the interrupt; the handler
 * counts and resumes a higher task, which preempts the low one when the interrupt ends,
 * counts and suspends itself; then the low task counts. One count per interrupt (the
 * handler's), as Thread-Metric reports it; the tasks' counters are checked against it. ---- */
static void irq_resume_handler(void)
{
    handled++;
    tm_task_resume(1);
}

static void irqp_low(void)
{
    for (;;) {
        raised++;
        tm_irq_raise();
        counter[0]++;
    }
}

static void irqp_high(void)
{
    for (;;) {
        check(tm_task_suspend(1) == 0, "suspend");
        counter[1]++;
    }
}

/* ---- 6. Message processing: a task sends a 16-byte message to a queue and receives it
 * back, checking its content. ---- */
static void msg_task(void)
{
    uint32_t out[TM_MSG_WORDS], in[TM_MSG_WORDS];
    for (;;) {
        uint32_t n = counter[0];
        out[0] = n;
        out[1] = ~n;
        out[2] = n * 2654435761u;
        out[3] = n ^ 0x5a5aa5a5u;
        check(tm_queue_send(0, out) == 0, "send");
        check(tm_queue_recv(0, in) == 0, "recv");
        if (in[0] != n || in[1] != ~n || in[2] != n * 2654435761u || in[3] != (n ^ 0x5a5aa5a5u))
            fail("message content");
        counter[0]++;
    }
}

/* ---- 7. Synchronization processing: a task gets and puts a semaphore. ---- */
static void sync_task(void)
{
    for (;;) {
        check(tm_sem_get(0) == 0, "sem get");
        check(tm_sem_put(0) == 0, "sem put");
        counter[0]++;
    }
}

/* ---- 8. Memory allocation: a task allocates a 128-byte block and frees it; the block's
 * first and last words are written and checked before the free. ---- */
static void mem_task(void)
{
    for (;;) {
        void *b;
        check(tm_pool_alloc(0, &b) == 0 && b, "alloc");
        volatile uint32_t *w = b;
        uint32_t n = counter[0];
        w[0] = n;
        w[TM_POOL_BLOCK / 4 - 1] = ~n;
        if (w[0] != n || w[TM_POOL_BLOCK / 4 - 1] != ~n)
            fail("block content");
        check(tm_pool_free(0, b) == 0, "free");
        counter[0]++;
    }
}

/* ---- Reporting ---- */
static unsigned workers; /* counter[0..workers-1] are in use */

/* The scenario's count so far: the interrupts handled in the interrupt scenarios, else the
 * sum of the workers' counters. */
static uint32_t total(void)
{
    if (TM_SCENARIO == TM_INTERRUPT || TM_SCENARIO == TM_INTERRUPT_PREEMPTION)
        return handled;
    uint32_t s = 0;
    for (unsigned k = 0; k < workers; k++)
        s += counter[k];
    return s;
}

/* The scenario's invariants, with everything stopped (the reporter runs above all tasks). */
static void check_period(const uint32_t before[5])
{
    for (unsigned k = 0; k < workers; k++)
        check(counter[k] != before[k], "a worker did not advance");
    if (TM_SCENARIO == TM_COOPERATIVE) {
        /* each pass of the cycle runs every task once: counts differ by at most one where
         * only yields switch (Ubik). An OS that time-slices equal priorities at the tick
         * and resumes the task after a preempted one (FreeRTOS) may pass a task's turn on
         * at every tick of the period: counts then drift apart by up to that many. */
        uint32_t lo = counter[0], hi = counter[0];
        for (unsigned k = 1; k < workers; k++) {
            lo = counter[k] < lo ? counter[k] : lo;
            hi = counter[k] > hi ? counter[k] : hi;
        }
        check(hi - lo <= 2 + TM_PERIOD_MS, "cooperative tasks ran unevenly");
    }
    if (TM_SCENARIO == TM_PREEMPTIVE) {
        /* task k counts before task k - 1 in each chain: counter[k-1] <= counter[k] <= +1 */
        for (unsigned k = 1; k < workers; k++)
            check(counter[k] - counter[k - 1] <= 1, "preemption chain out of order");
    }
    if (TM_SCENARIO == TM_INTERRUPT || TM_SCENARIO == TM_INTERRUPT_PREEMPTION) {
        /* at most the interrupt just raised is still to be handled */
        check(raised - handled <= 1, "lost interrupts");
        check(handled - counter[0] <= 1, "handled != counted");
    }
    if (TM_SCENARIO == TM_INTERRUPT_PREEMPTION)
        check(handled - counter[1] <= 1, "high task missed a resume");
}

static void reporter(void)
{
    uint32_t sum_count = 0, sum_cycles = 0, sum_irqs = 0;
    for (unsigned p = 1; p <= TM_PERIODS; p++) {
        uint32_t before[5];
        for (unsigned k = 0; k < workers; k++)
            before[k] = counter[k];
        uint32_t c0 = total(), h0 = handled;
        uint32_t t0 = tm_cycles();
        check(tm_sleep_ms(TM_PERIOD_MS) == 0, "sleep");
        uint32_t t1 = tm_cycles();
        uint32_t n = total() - c0, cycles = t1 - t0, irqs = handled - h0;
        check_period(before);
        tm_print("tm %s period=%u count=%u cycles=%u cpc=%u\n", NAME, p, (unsigned)n,
                 (unsigned)cycles, (unsigned)((cycles + n / 2) / n));
        tm_gpio_toggle();
        if (p > 1 || TM_PERIODS == 1) {
            sum_count += n;
            sum_cycles += cycles;
            sum_irqs += irqs;
        }
    }
    /* The interrupt scenarios also say how many interrupts their count covers: tm_json.py
     * checks that it counts one per interrupt, as Thread-Metric does. */
    tm_print("tm %s count=%u cycles=%u cpc=%u", NAME, (unsigned)sum_count, (unsigned)sum_cycles,
             (unsigned)((sum_cycles + sum_count / 2) / sum_count));
    if (TM_SCENARIO == TM_INTERRUPT || TM_SCENARIO == TM_INTERRUPT_PREEMPTION)
        tm_print(" interrupts=%u", (unsigned)sum_irqs);
    tm_print("\n");
    tm_exit(0);
}

int main(void)
{
    tm_init();
    check(tm_task_create(5, 0, reporter) == 0, "create reporter");
    int r = 0;
    switch (TM_SCENARIO) {
    case TM_BASIC:
        workers = 1;
        r = tm_task_create(0, 1, basic_task);
        break;
    case TM_COOPERATIVE: {
        static void (*const f[5])(void) = {coop0, coop1, coop2, coop3, coop4};
        workers = 5;
        for (unsigned k = 0; k < 5; k++)
            r |= tm_task_create(k, 3, f[k]);
        break;
    }
    case TM_PREEMPTIVE: {
        static void (*const f[5])(void) = {pre0, pre1, pre2, pre3, pre4};
        workers = 5;
        for (unsigned k = 0; k < 5; k++)
            r |= tm_task_create(k, 1 + k, f[k]);
        break;
    }
    case TM_INTERRUPT:
        workers = 1;
        r = tm_sem_create(0, 0) | tm_irq_setup(irq_sem_handler) | tm_task_create(0, 1, irq_task);
        break;
    case TM_INTERRUPT_PREEMPTION:
        workers = 2;
        r = tm_irq_setup(irq_resume_handler) | tm_task_create(1, 1, irqp_high) |
            tm_task_create(0, 2, irqp_low);
        break;
    case TM_MESSAGE:
        workers = 1;
        r = tm_queue_create(0) | tm_task_create(0, 1, msg_task);
        break;
    case TM_SYNCHRONIZATION:
        workers = 1;
        r = tm_sem_create(0, 1) | tm_task_create(0, 1, sync_task);
        break;
    case TM_MEMORY:
        workers = 1;
        r = tm_pool_create(0) | tm_task_create(0, 1, mem_task);
        break;
    default: fail("unknown TM_SCENARIO");
    }
    check(r == 0, "setup");
    tm_start();
}
