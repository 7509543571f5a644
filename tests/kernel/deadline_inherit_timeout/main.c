/* Deadline inheritance lent to a task without a deadline, and taken back when the waiter
 * stops waiting. Low (no deadline) takes M and activates High (deadline 10), which waits on M
 * for 3 ticks: Low inherits High's deadline and so runs ahead of Medium (deadline 100), made
 * ready meanwhile, although a task without a deadline otherwise runs after every task with
 * one. Low keeps yielding (under edf a yield to itself; under coop the point where the order
 * decides). When High's wait times out, Low loses the deadline: High runs (UK_ETIMEOUT), then
 * Medium, and Low last. The order is checked with a log. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum { L_LOCKED = 1, H_START, L_INHERITS, H_TIMEOUT, M_RUN, L_END };

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
    CHECK_EQ(uk_mutex_lock(&mx, 3), UK_ETIMEOUT);
    note(H_TIMEOUT);
}

static void med_task(void *arg)
{
    (void)arg;
    note(M_RUN);
}

static void low_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_task_deadline(&low), UK_FOREVER); /* none of its own */
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_OK);
    note(L_LOCKED);
    CHECK_EQ(uk_task_activate(&high), UK_OK); /* edf: High runs and waits on mx */
    uk_task_yield();                          /* coop: the same, here */
    CHECK_EQ(uk_task_state(&high), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_task_deadline(&low), UK_FOREVER); /* the lent deadline orders it only */
    note(L_INHERITS);
    CHECK_EQ(uk_task_activate(&med), UK_OK); /* ready, but after Low's inherited deadline */
    uk_tick_t t0 = uk_time();
    while (nlg < 5 && uk_time() - t0 < 100) /* until High and Medium have run */
        uk_task_yield();
    note(L_END);
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK);
    static const int want[] = {L_LOCKED, H_START, L_INHERITS, H_TIMEOUT, M_RUN, L_END};
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
    CHECK_EQ(uk_task_set_deadline(&med, 100), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&high, 10), UK_OK);
    CHECK_EQ(uk_task_activate(&low), UK_OK);
    uk_start();
    return 99;
}
