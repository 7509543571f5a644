/* NOS (see nos.h). Its code lives in the kernel's sections so that the testbed attributes it
 * as it does Ubik's: selecting and running jobs in .text.uk_sched ("kernel_sched"), release
 * times and the clock in .text.uk_time ("kernel_time"), interrupt polling in .text.uk_other
 * ("kernel_other"); the papers compare the two systems by that split.
 *
 * With NOS_RTM (nos.h) the jobs' release times and the choice of the job to run are the
 * RTM's (docs/machine.md), as in the RTM paper's NOS: each job is a record whose delay counts
 * the ticks to its release; a periodic clock tick (NOS_RTM_TICK_US) is one store to
 * RTM.TICK, and the job to run is one load of RTM.READY. */
#include "nos.h"
#include "bsp/bsp.h"
#include "bsp/mmio.h"

#define NOS_FN(name) __attribute__((section(".text.uk_sched." #name)))
#define NOS_TIME_FN(name) __attribute__((noinline, section(".text.uk_time." #name)))
#define NOS_POLL_FN(name) __attribute__((noinline, section(".text.uk_other." #name)))

typedef struct {
    nos_fn fn;
    void *arg;
    const char *name;
    uint64_t next;   /* release time (mtime) */
    uint32_t period; /* mtime ticks */
    uint8_t prio;
} job_t;

static job_t jobs[NOS_MAX_JOBS];
static unsigned n_jobs;
static nos_fn irq_fn[INTC_FAST_LINES];
static void *irq_arg[INTC_FAST_LINES];
static uint32_t irq_lines; /* lines with interrupt work */
static uint64_t t_start, job_start;

/* Microseconds in mtime counts at the machine's timer rate when the job is declared (under
 * timebase = "cycle" that is the core clock: NOS does not follow operating-point switches). */
static NOS_FN(nos_us) uint64_t nos_us(uint32_t us)
{
    return (uint64_t)us * bsp_timer_hz() / 1000000u;
}

NOS_FN(nos_job)
int nos_job(const char *name, nos_fn fn, void *arg, uint32_t period_us, uint32_t offset_us,
            uint8_t prio)
{
    if (!fn || period_us == 0 || n_jobs == NOS_MAX_JOBS || nos_us(period_us) == 0)
        return -1;
    job_t *j = &jobs[n_jobs++];
    j->fn = fn;
    j->arg = arg;
    j->name = name ? name : "?";
    j->period = (uint32_t)nos_us(period_us);
    j->next = nos_us(offset_us); /* relative to the start; made absolute by nos_run */
    j->prio = prio;
    return 0;
}

NOS_FN(nos_irq) int nos_irq(unsigned line, nos_fn fn, void *arg)
{
    if (line >= INTC_FAST_LINES || !fn || (irq_lines & (1u << line)))
        return -1;
    irq_fn[line] = fn;
    irq_arg[line] = arg;
    irq_lines |= 1u << line;
    return 0;
}

NOS_FN(nos_job_start) uint64_t nos_job_start(void) { return job_start; }

#if !NOS_RTM /* software release times: the RTM's are in the device (below) */
/* The released job of highest priority (lowest number; the earliest release among equals),
 * or NULL. */
static NOS_FN(released) job_t *released(uint64_t now)
{
    job_t *best = 0;
    for (unsigned i = 0; i < n_jobs; i++) {
        job_t *j = &jobs[i];
        if (j->next <= now &&
            (!best || j->prio < best->prio || (j->prio == best->prio && j->next < best->next)))
            best = j;
    }
    return best;
}

/* The job's next release: a period after its actual start. */
static NOS_TIME_FN(release_next) void release_next(job_t *j, uint64_t now)
{
    j->next = now + j->period;
}

static NOS_TIME_FN(earliest) uint64_t earliest(void)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < n_jobs; i++)
        if (jobs[i].next < t)
            t = jobs[i].next;
    return t;
}

#endif

/* One latched interrupt's work, lowest line first; false if none is pending. */
static NOS_POLL_FN(poll_irq) int poll_irq(void)
{
    uint32_t pending = MMIO32(INTC_PENDING) & irq_lines;
    if (!pending)
        return 0;
    unsigned line = (unsigned)__builtin_ctz(pending);
    MMIO32(INTC_ACK) = 1u << line;
    irq_fn[line](irq_arg[line]);
    return 1;
}

#if NOS_RTM
/* ---- Release times and selection in the RTM ------------------------------------------ */

static uint32_t tick_counts; /* mtime counts per clock tick */
static uint32_t period_ticks[NOS_MAX_JOBS];
static uint64_t next_tick;

/* Job i is record i: released when its delay reaches 0 (VALID alone is ready). */
static NOS_TIME_FN(nos_rtm_arm) void nos_rtm_arm(unsigned i, uint32_t ticks)
{
    MMIO32(RTM_DELAY(i)) = ticks;
    MMIO32(RTM_RECORD(i)) = (ticks ? RTM_VALID | RTM_DELAYED : RTM_VALID) | (uint32_t)jobs[i].prio
                                                                                << 8;
}

/* The clock: every tick that has passed is one count of the RTM's delays. */
static NOS_TIME_FN(nos_rtm_clock) void nos_rtm_clock(uint64_t now)
{
    uint32_t n = 0;
    while (now >= next_tick) {
        next_tick += tick_counts;
        n++;
    }
    if (n)
        MMIO32(RTM_TICK) = n;
}

static NOS_TIME_FN(nos_rtm_start) void nos_rtm_start(void)
{
    tick_counts = (uint32_t)nos_us(NOS_RTM_TICK_US);
    if (MMIO32(RTM_RECORDS) < n_jobs || tick_counts == 0) {
        bsp_printf("nos: the RTM has %u records for %u jobs\n", (unsigned)MMIO32(RTM_RECORDS),
                   n_jobs);
        bsp_exit(2);
    }
    for (unsigned i = 0; i < n_jobs; i++) {
        period_ticks[i] = (jobs[i].period + tick_counts - 1) / tick_counts;
        nos_rtm_arm(i, (uint32_t)((jobs[i].next + tick_counts - 1) / tick_counts));
    }
    next_tick = t_start + tick_counts;
}

NOS_FN(nos_run) void nos_run(void)
{
    bsp_irq_disable(); /* polled: interrupts only wake wfi */
    t_start = bsp_timer_now();
    nos_rtm_start();
    MMIO32(INTC_ENABLE) |= irq_lines;
    csr_set(mie, irq_lines << 16);
    bsp_timer_irq_enable();
    for (;;) {
        uint64_t now = bsp_timer_now();
        nos_rtm_clock(now);
        uint32_t r = MMIO32(RTM_READY);
        job_t *j = r == RTM_NONE ? 0 : &jobs[r];
        if (!(j && j->prio < NOS_IRQ_PRIO) && poll_irq())
            continue;
        if (j) {
            job_start = now;
            nos_rtm_arm(r, period_ticks[r]); /* relative to the tick it started in */
            j->fn(j->arg);
            continue;
        }
        /* Nothing released: sleep until the next tick or an interrupt line. */
        bsp_timer_set_compare(next_tick);
        if (bsp_timer_now() < next_tick && !(MMIO32(INTC_PENDING) & irq_lines))
            bsp_wfi();
    }
}
#else
NOS_FN(nos_run) void nos_run(void)
{
    bsp_irq_disable(); /* polled: interrupts only wake wfi */
    t_start = bsp_timer_now();
    for (unsigned i = 0; i < n_jobs; i++)
        jobs[i].next += t_start;
    MMIO32(INTC_ENABLE) |= irq_lines;
    csr_set(mie, irq_lines << 16);
    bsp_timer_irq_enable();
    for (;;) {
        uint64_t now = bsp_timer_now();
        job_t *j = released(now);
        /* Jobs above the interrupt work's priority first, then one interrupt's work, then the
         * rest of the jobs (interrupts are LOW: after every job above them). */
        if (!(j && j->prio < NOS_IRQ_PRIO) && poll_irq())
            continue;
        if (j) {
            job_start = now;
            release_next(j, now);
            j->fn(j->arg);
            continue;
        }
        /* Nothing to do: sleep until the next release or an interrupt line. */
        uint64_t next = earliest();
        bsp_timer_set_compare(next);
        if (bsp_timer_now() < next && !(MMIO32(INTC_PENDING) & irq_lines))
            bsp_wfi();
    }
}
#endif
