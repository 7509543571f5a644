/* NOS (see nos.h). Its code lives in .text.uk_sched.* so that the testbed attributes it as
 * the system's scheduler ("kernel_sched"), as Ubik's own scheduler is: the papers compare
 * the two by that split. */
#include "nos.h"
#include "bsp/bsp.h"
#include "bsp/mmio.h"

#define NOS_FN(name) __attribute__((section(".text.uk_sched." #name)))

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

NOS_FN(nos_job) int nos_job(const char *name, nos_fn fn, void *arg, uint32_t period_us,
                            uint32_t offset_us, uint8_t prio)
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

NOS_FN(nos_job_start) uint64_t nos_job_start(void)
{
    return job_start;
}

/* The released job of highest priority (lowest number; the earliest release among equals),
 * or NULL. */
static NOS_FN(released) job_t *released(uint64_t now)
{
    job_t *best = 0;
    for (unsigned i = 0; i < n_jobs; i++) {
        job_t *j = &jobs[i];
        if (j->next <= now && (!best || j->prio < best->prio ||
                               (j->prio == best->prio && j->next < best->next)))
            best = j;
    }
    return best;
}

static NOS_FN(earliest) uint64_t earliest(void)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < n_jobs; i++)
        if (jobs[i].next < t)
            t = jobs[i].next;
    return t;
}

/* One latched interrupt's work, lowest line first; false if none is pending. */
static NOS_FN(poll_irq) int poll_irq(void)
{
    uint32_t pending = MMIO32(INTC_PENDING) & irq_lines;
    if (!pending)
        return 0;
    unsigned line = (unsigned)__builtin_ctz(pending);
    MMIO32(INTC_ACK) = 1u << line;
    irq_fn[line](irq_arg[line]);
    return 1;
}

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
            j->next = now + j->period; /* relative to the actual start */
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
