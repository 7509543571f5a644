/* The deadline policies' ready structure is not walked: making a task ready costs the same
 * whether 4 or 256 tasks with deadlines are ready. The task W, whose deadline is later than
 * every other's (the deepest place in the order), is resumed and suspended again by the
 * running task M (the earliest deadline, so nothing preempts it), with n = 4 .. 256 tasks
 * ready; each uk_task_resume(W) is timed with mcycle, and the best of 20 kept (a tick that
 * falls into one does not count; the tick is not masked, so the test runs as a guest too).
 * A sorted list walks past every ready task to place W (a few cycles each); the heap links W
 * under its root. Prints `edf_resume_<n> <best>` per n and checks the one at 256 against 4
 * (the debug kernel, whose invariant check at each kernel exit walks every task and which
 * checks at most 64, stops at 64 and compares nothing). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define MAX_FILLERS 256
#define STACK_WORDS 64
#define REPS 20

static uk_task_t m_task, w_task, fillers[MAX_FILLERS];
static uint32_t m_stack[512], w_stack[256];
static uint32_t filler_stack[MAX_FILLERS][STACK_WORDS] __attribute__((aligned(16)));

/* The cycle counter (bsp_cycles: mcycle, or its user copy for a hypervisor guest). */
static inline uint32_t mcycle(void) { return bsp_cycles(); }

static void idle_entry(void *arg)
{
    (void)arg;
    for (;;) /* never runs: M's deadline is earlier */
        uk_task_yield();
}

/* The least cost of resuming W with n tasks ready (M, W once resumed, the fillers, idle). */
static uint32_t measure(unsigned n)
{
    static unsigned made;
    for (; made + 3 < n; made++) {
        CHECK_EQ(uk_task_create(&fillers[made], "filler", idle_entry, 0, 7, filler_stack[made],
                                sizeof filler_stack[made]),
                 UK_OK);
        CHECK_EQ(uk_task_set_deadline(&fillers[made], 100 + made), UK_OK);
        CHECK_EQ(uk_task_activate(&fillers[made]), UK_OK);
    }
    uint32_t best = 0xFFFFFFFFu;
    for (int k = 0; k < REPS; k++) {
        uint32_t t0 = mcycle();
        uk_task_resume(&w_task);
        uint32_t d = mcycle() - t0;
        CHECK_EQ(uk_task_suspend(&w_task), UK_OK);
        if (d < best)
            best = d;
    }
    bsp_printf("edf_resume_%u %u\n", n, (unsigned)best);
    return best;
}

static void m_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_task_activate(&w_task), UK_OK); /* created: activate, run never, suspend */
    CHECK_EQ(uk_task_suspend(&w_task), UK_OK);
    uint32_t at4 = measure(4);
    measure(16);
    measure(64);
#ifndef UK_CONFIG_CHECKS_FULL
    uint32_t at256 = measure(256);
    CHECK(at256 <= at4 + 8); /* flat: a list would take a few cycles per ready task */
#else
    (void)at4; /* the debug kernel checks at most 64 tasks, and its checks walk them all */
#endif
    CHECK_EQ(uk_task_state(&w_task), UK_TASK_SUSPENDED);
    bsp_exit(check_result());
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    CHECK_EQ(uk_task_create(&m_task, "M", m_entry, 0, 7, m_stack, sizeof m_stack), UK_OK);
    CHECK_EQ(uk_task_create(&w_task, "W", idle_entry, 0, 7, w_stack, sizeof w_stack), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&m_task, 1), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&w_task, 100000), UK_OK);
    CHECK_EQ(uk_task_activate(&m_task), UK_OK);
    uk_start();
    return 99;
}
