/* Deadline inversion under EDF, resolved by deadline inheritance (docs/kernel.md, "Resource
 * sharing under EDF"). Three tasks of one priority, so priority inheritance cannot help:
 * Low (relative deadline 1000) takes M and activates High (deadline 10), which runs and blocks
 * on M: Low inherits High's deadline. Low then activates Medium (deadline 100), a CPU hog,
 * yields and keeps computing across several ticks: Medium must not run (without inheritance
 * its deadline is earlier than Low's, it would run first and delay High as long as it
 * computes). Low's unlock hands M to High, which runs before Medium; Low, its deadline its
 * own again, runs last. Under "coop" (no preemption) the yields are where the order shows.
 * The order is checked with a log. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum { L_LOCKED = 1, H_START, L_INHERITS, L_WORKED, L_UNLOCK, H_GOT_M, H_DONE, M_RUN, L_END };

static uk_task_t low, med, high;
static uint32_t low_stack[256], med_stack[256], high_stack[256];
static uk_mutex_t mx;
static volatile int lg[32], nlg;

static void note(int v)
{
    if (nlg < 32)
        lg[nlg++] = v;
}

static void high_task(void *arg)
{
    (void)arg;
    note(H_START);
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_OK);
    note(H_GOT_M);
    CHECK(mx.owner == &high);
    CHECK_EQ(uk_task_state(&med), UK_TASK_READY); /* still waiting for its turn */
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK);
    note(H_DONE);
}

static void med_task(void *arg)
{
    (void)arg;
    note(M_RUN);
    uk_tick_t t0 = uk_time();
    while (uk_time() - t0 < 3) { /* the hog */
    }
}

static void low_task(void *arg)
{
    (void)arg;
    uk_tick_t own = uk_task_deadline(&low);
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_OK);
    note(L_LOCKED);
    CHECK_EQ(uk_task_activate(&high), UK_OK); /* edf: High runs and blocks on mx */
    uk_task_yield();                          /* coop: the same, here */
    CHECK_EQ(uk_task_state(&high), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&low), 5);       /* no priority to inherit: all are equal */
    CHECK_EQ(uk_task_deadline(&low), own); /* its own deadline is reported, not the lent one */
    note(L_INHERITS);
    CHECK_EQ(uk_task_activate(&med), UK_OK); /* ready, but after Low's inherited deadline */
    uk_task_yield();                         /* Low still runs first */
    uk_tick_t t0 = uk_time();
    while (uk_time() - t0 < 5) { /* computing across ticks: Medium does not preempt */
    }
    CHECK_EQ(nlg, 3);
    note(L_WORKED);
    note(L_UNLOCK);
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK); /* edf: High gets mx and runs, then Medium */
    uk_task_yield();                       /* coop: the same, here */
    note(L_END);
    static const int want[] = {L_LOCKED, H_START, L_INHERITS, L_WORKED, L_UNLOCK,
                               H_GOT_M,  H_DONE,  M_RUN,      L_END};
    int n = sizeof want / sizeof want[0];
    CHECK_EQ(nlg, n);
    for (int i = 0; i < n && i < nlg; i++)
        CHECK_EQ(lg[i], want[i]);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_mutex_init(&mx), UK_OK);
    CHECK_EQ(uk_task_create(&low, "low", low_task, 0, 5, low_stack, sizeof low_stack), UK_OK);
    CHECK_EQ(uk_task_create(&med, "med", med_task, 0, 5, med_stack, sizeof med_stack), UK_OK);
    CHECK_EQ(uk_task_create(&high, "high", high_task, 0, 5, high_stack, sizeof high_stack), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&low, 1000), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&med, 100), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&high, 10), UK_OK);
    CHECK_EQ(uk_task_activate(&low), UK_OK);
    uk_start();
    return 99;
}
