/* The classic three-task priority inversion, resolved by inheritance. Low (10) takes M and
 * activates High (1), which blocks on M: Low inherits 1. Low then activates Medium (5) and
 * keeps computing across several ticks: Medium must not run (without inheritance it would
 * preempt Low and delay High indefinitely). Low's unlock hands M to High, which runs at
 * once; Medium runs only after High is done, Low last. The order is checked with a log.
 * Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum { L_LOCKED = 1, H_START, L_BOOSTED, L_WORKED, L_UNLOCK, H_GOT_M, H_DONE, M_RUN, L_END };

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
    CHECK_EQ(uk_task_prio(&low), 10);             /* the boost ended with the unlock */
    CHECK_EQ(uk_task_state(&med), UK_TASK_READY); /* still waiting for its turn */
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK);
    note(H_DONE);
}

static void med_task(void *arg)
{
    (void)arg;
    note(M_RUN);
}

static void low_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_OK);
    note(L_LOCKED);
    CHECK_EQ(uk_task_activate(&high), UK_OK); /* High runs and blocks on mx */
    CHECK_EQ(uk_task_state(&high), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&low), 1); /* inherited */
    note(L_BOOSTED);
    CHECK_EQ(uk_task_activate(&med), UK_OK); /* ready, but below Low's inherited 1 */
    uk_tick_t t0 = uk_time();
    while (uk_time() - t0 < 5) { /* computing across ticks: no preemption */
    }
    CHECK_EQ(nlg, 3);
    note(L_WORKED);
    note(L_UNLOCK);
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK); /* High gets mx and runs, then Medium */
    note(L_END);
    CHECK_EQ(uk_task_prio(&low), 10);
    static const int want[] = {L_LOCKED, H_START, L_BOOSTED, L_WORKED, L_UNLOCK,
                               H_GOT_M,  H_DONE,  M_RUN,     L_END};
    int n = sizeof want / sizeof want[0];
    CHECK_EQ(nlg, n);
    for (int i = 0; i < n; i++)
        CHECK_EQ(lg[i], want[i]);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_mutex_init(&mx), UK_OK);
    CHECK_EQ(uk_task_create(&low, "low", low_task, 0, 10, low_stack, sizeof low_stack), UK_OK);
    CHECK_EQ(uk_task_create(&med, "med", med_task, 0, 5, med_stack, sizeof med_stack), UK_OK);
    CHECK_EQ(uk_task_create(&high, "high", high_task, 0, 1, high_stack, sizeof high_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&low), UK_OK);
    uk_start();
    return 99;
}
