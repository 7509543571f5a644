/* The portability layer on the Ubik kernel: each job is a task (periodic: it runs and sleeps
 * until its next release with uk_task_sleep_until, so releases do not drift; interrupt-
 * driven: it waits on a semaphore its LISR gives), each channel a message queue used
 * without waiting. Priorities pass through, made unique for the bitmap scheduler; under the
 * deadline schedulers (edf, coop) each job is due at its next release, and the interrupt-
 * driven job's response at the next tick. */
#include "sb.h"
#ifndef UK_CONFIG_OS_NOS
#include "bsp/bsp.h"

#define SB_MAX_JOBS 24
#define SB_STACK_WORDS 256

typedef struct {
    uk_task_t task;
    sb_fn fn;
    void *arg;
    uk_tick_t period, offset;
    unsigned prio; /* as asked for */
    uk_sem_t irq;  /* interrupt-driven jobs */
    uint32_t stack[SB_STACK_WORDS] __attribute__((aligned(16)));
} job_t;

static job_t jobs[SB_MAX_JOBS];
static unsigned n_jobs;
static job_t *line_job[15];
static uint8_t prio_used[256];

static void fail(const char *what, int r)
{
    bsp_printf("simbed: %s failed (%d)\n", what, r);
    bsp_exit(2);
}

void sb_init(void) { uk_init(); }

/* A free priority at or below `prio` (unique under the bitmap and rtm schedulers, 0..62):
 * the policy's range from uk_config.h. */
static uint8_t claim_prio(unsigned prio)
{
#if defined(UK_POLICY_UNIQUE_PRIOS) && UK_POLICY_UNIQUE_PRIOS
    unsigned limit = UK_POLICY_PRIOS - 2;
#else
    unsigned limit = 254;
#endif
    if (prio > limit)
        prio = limit;
    while (prio < limit && prio_used[prio])
        prio++;
    prio_used[prio] = 1;
    return (uint8_t)prio;
}

static void periodic_entry(void *arg)
{
    job_t *j = arg;
    uk_tick_t last = uk_time();
    /* The deadline schedulers (edf, coop): each job is due at the next release
     * (uk_task_sleep_until keeps it so); the stop job (priority 0) at the next tick, so it
     * runs before the jobs released with it. The first release after an offset is a plain
     * sleep, which leaves the deadline alone. */
    uk_task_set_deadline(0, j->prio == 0 ? 1 : j->period);
    if (j->offset) {
        uk_task_sleep(j->offset);
        last += j->offset;
    }
    for (;;) {
        j->fn(j->arg);
        uk_task_sleep_until(&last, j->period); /* a late release: UK_ETIMEOUT, next on grid */
    }
}

static void irq_entry(void *arg)
{
    job_t *j = arg;
    for (;;) {
        uk_sem_take(&j->irq, UK_FOREVER);
        j->fn(j->arg);
    }
}

static void lisr(unsigned line) { uk_sem_give(&line_job[line]->irq); }

static job_t *new_job(const char *name, sb_fn fn, void *arg, unsigned prio, void (*entry)(void *))
{
    if (n_jobs == SB_MAX_JOBS)
        fail("too many jobs", n_jobs);
    job_t *j = &jobs[n_jobs++];
    j->fn = fn;
    j->arg = arg;
    j->prio = prio;
    int r = uk_task_create(&j->task, name, entry, j, claim_prio(prio), j->stack, sizeof j->stack);
    if (r)
        fail("uk_task_create", r);
    return j;
}

int sb_job(const char *name, sb_fn fn, void *arg, uint32_t period_us, uint32_t offset_us,
           unsigned prio)
{
    uint32_t tick_us = 1000000u / uk_tick_hz();
    if (period_us < tick_us || period_us % tick_us || offset_us % tick_us)
        return -1;
    job_t *j = new_job(name, fn, arg, prio, periodic_entry);
    j->period = period_us / tick_us;
    j->offset = offset_us / tick_us;
    return uk_task_activate(&j->task) ? -1 : 0;
}

int sb_irq_job(const char *name, unsigned line, sb_fn fn, void *arg, unsigned prio)
{
    if (line >= 15 || line_job[line])
        return -1;
    job_t *j = new_job(name, fn, arg, prio, irq_entry);
    int r = uk_sem_init(&j->irq, 0, 1000000);
    if (r)
        fail("uk_sem_init", r);
    line_job[line] = j;
    /* The deadline schedulers: each response is due at the next tick, before any periodic
     * job's (their periods are whole ticks). */
    if ((r = uk_task_set_deadline(&j->task, 1)))
        fail("uk_task_set_deadline", r);
    if ((r = uk_irq_install(line, lisr)))
        fail("uk_irq_install", r);
    return uk_task_activate(&j->task) ? -1 : 0;
}

int sb_chan_init(sb_chan_t *c)
{
    return uk_queue_init(&c->q, c->buf, sizeof(uint32_t), SB_CHAN_CAP) ? -1 : 0;
}

bool sb_chan_send(sb_chan_t *c, uint32_t v)
{
    return uk_queue_send(&c->q, &v, UK_NO_WAIT) == UK_OK;
}

bool sb_chan_recv(sb_chan_t *c, uint32_t *v)
{
    return uk_queue_recv(&c->q, v, UK_NO_WAIT) == UK_OK;
}

void sb_start(void)
{
    uk_start();
    for (;;) {
    }
}
#endif
