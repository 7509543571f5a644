/* Scheduling overhead, as UbiFOS Fig. 14 measures it: context switch + insert into the ready
 * queue + select, with n tasks in the system (n counts the idle task).
 *
 * Tasks: H (priority 0) waits on semaphore `s`; G (priority 1) reads mcycle into t0 and gives
 * `s`; H, woken, preempts G and reads mcycle first thing after uk_sem_take returns. The
 * figure is t1 - t0 minus the cost of the measurement itself (t0 stored, t1 read with nothing
 * in between), so it covers: uk_sem_give (check, waiter out of the wait queue, into the ready
 * structure, select, context switch) and the return of H's uk_sem_take. The other n - 3 tasks
 * ("fillers", priorities 2, 3, ...) are either ready (lower than G: they never run; mode
 * "ready") or blocked on another semaphore (mode "blocked"). Under "rr" and "coop" no task
 * preempts another: G gives and then yields (so the figure includes uk_task_yield); under
 * "rr" only the blocked mode applies (ready fillers would run before H).
 *
 * The tick is masked (mie.MTIE) while measuring, so no tick interrupt falls into a window:
 * every repetition takes the same path. Output, one line per (mode, n):
 *     sched_<mode>_<n> <worst> <average> <best>
 * The smallest n is 3 (idle, G, H): with fewer tasks no task can wake another. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

#define REPS 200
#define MAX_TASKS 256
#define STACK_WORDS 64

#if defined(UK_CONFIG_SCHED_RTM)
/* A task per record of the RTM, at most one per priority. */
#define N_MAX (MMIO32(RTM_RECORDS) < 64 ? MMIO32(RTM_RECORDS) : 64)
#elif defined(UK_CONFIG_SCHED_BITMAP)
#define N_MAX 64
#else
#define N_MAX 256
#endif

static uk_task_t g_task, h_task, fillers[MAX_TASKS];
static uint32_t g_stack[256], h_stack[256];
static uint32_t filler_stack[MAX_TASKS][STACK_WORDS] __attribute__((aligned(16)));
static uk_sem_t s, never;

static volatile uint32_t t0;
static volatile uint32_t samples;
static volatile uint32_t worst, best, total;

static inline uint32_t mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v) : : "memory");
    return v;
}

static inline void tick_mask(void) { __asm__ volatile("csrc mie, %0" : : "r"(1u << 7) : "memory"); }
static inline void tick_unmask(void)
{
    __asm__ volatile("csrs mie, %0" : : "r"(1u << 7) : "memory");
}

static uint32_t empty; /* the measurement's own cost */

static void sample(uint32_t d)
{
    d -= empty;
    if (d > worst)
        worst = d;
    if (d < best)
        best = d;
    total += d;
    samples++;
}

static void h_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_sem_take(&s, UK_FOREVER);
        uint32_t t1 = mcycle();
        sample(t1 - t0);
    }
}

static void filler_entry(void *arg)
{
    (void)arg;
    uk_sem_take(&never, UK_FOREVER);
}

static void fail(const char *what, int r)
{
    bsp_printf("error %s %d\n", what, r);
    bsp_exit(1);
}

static void run(const char *mode, bool blocked, unsigned n)
{
    unsigned nf = n - 3;
    for (unsigned i = 0; i < nf; i++) {
        int r = uk_task_create(&fillers[i], "filler", filler_entry, 0, (uint8_t)(2 + i),
                               filler_stack[i], sizeof filler_stack[i]);
        if (r)
            fail("create", r);
        if ((r = uk_task_activate(&fillers[i])))
            fail("activate", r);
    }
    if (blocked) {
        /* The fillers (lower priority, or queued behind G) run and block meanwhile. */
        for (unsigned i = 0, tries = 0; i < nf;) {
            if (uk_task_state(&fillers[i]) == UK_TASK_PENDING) {
                i++;
            } else {
                if (++tries > 100)
                    fail("filler not blocked", (int)i);
                uk_task_sleep(1);
            }
        }
    }
    tick_mask();
    worst = total = samples = 0;
    best = 0xFFFFFFFFu;
    for (unsigned k = 0; k < REPS; k++) {
        t0 = mcycle();
        uk_sem_give(&s);
#if defined(UK_CONFIG_SCHED_RR) || defined(UK_CONFIG_SCHED_COOP)
        uk_task_yield();
#endif
    }
    tick_unmask();
    if (samples != REPS)
        fail("samples", (int)samples);
    bsp_printf("sched_%s_%u %u %u %u\n", mode, n, (unsigned)worst, (unsigned)(total / REPS),
               (unsigned)best);
    for (unsigned i = 0; i < nf; i++)
        uk_task_delete(&fillers[i]);
}

static void g_entry(void *arg)
{
    (void)arg;
    /* The cost of the measurement: t0 stored to memory, then t1 read, as in the real one. */
    uint32_t e = 0xFFFFFFFFu;
    for (int k = 0; k < 16; k++) {
        t0 = mcycle();
        uint32_t t1 = mcycle();
        if (t1 - t0 < e)
            e = t1 - t0;
    }
    empty = e;
    bsp_printf("sched_empty %u\n", (unsigned)empty);
    static const unsigned ns[] = {3, 4, 8, 16, 32, 64, 128, 256};
    for (unsigned i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        if (ns[i] > N_MAX)
            break;
#ifndef UK_CONFIG_SCHED_RR
        run("ready", false, ns[i]);
#endif
        run("blocked", true, ns[i]);
    }
    bsp_exit(0);
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    uk_sem_init(&s, 0, 1);
    uk_sem_init(&never, 0, 1);
    uk_task_create(&h_task, "H", h_entry, 0, 0, h_stack, sizeof h_stack);
    uk_task_create(&g_task, "G", g_entry, 0, 1, g_stack, sizeof g_stack);
    uk_task_activate(&h_task);
    uk_task_activate(&g_task);
    uk_start();
    return 0;
}
