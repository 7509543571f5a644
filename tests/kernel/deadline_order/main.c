/* The deadline policies on target (edf, and coop: the same order, never preempting): tasks
 * run earliest deadline first, equal deadlines by priority then FIFO, tasks without a
 * deadline after every task with one; a deadline is set when a task becomes ready (now +
 * its relative deadline), and uk_task_sleep_until makes a periodic job due at its next
 * release, a late one too; uk_task_set_deadline re-orders a ready task at once; edf preempts
 * for an earlier deadline, coop never. A controller drives the phases; workers log one
 * character each. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"
#include "step_log.h"

#ifdef UK_CONFIG_SCHED_COOP
#define PREEMPTIVE 0
#else
#define PREEMPTIVE 1
#endif

#define NW 6
static uk_task_t ctl, w[NW];
static uint32_t ctl_stack[256], w_stack[NW][256];

static void logger(void *arg) { L((char)(uintptr_t)arg); }

/* Worker i logs `c` once, at priority `prio`, due `rel` ticks after it becomes ready (0: no
 * deadline). Created, not activated. */
static void make(int i, char c, uint8_t prio, uk_tick_t rel)
{
    if (uk_task_state(&w[i]) != UK_TASK_DELETED)
        CHECK_EQ(uk_task_delete(&w[i]), UK_OK);
    CHECK_EQ(uk_task_create(&w[i], "w", logger, (void *)(uintptr_t)c, prio, w_stack[i],
                            sizeof w_stack[i]),
             UK_OK);
    CHECK_EQ(uk_task_set_deadline(&w[i], rel), UK_OK);
}

static volatile uk_tick_t seen_deadline[4], seen_time[4];
static volatile int periodic_result;

/* Three on-time jobs of period 4, then one that overruns its period. */
static void periodic(void *arg)
{
    (void)arg;
    uk_tick_t last = uk_time();
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(uk_task_sleep_until(&last, 4), UK_OK);
        seen_time[k] = uk_time();
        seen_deadline[k] = uk_task_deadline(0);
    }
    while (uk_time() - last < 9) {
    } /* overrun: the next release (last + 4) and the one after pass */
    periodic_result = uk_task_sleep_until(&last, 4); /* late: runs at once */
    seen_time[3] = last;
    seen_deadline[3] = uk_task_deadline(0);
}

static void controller(void *arg)
{
    (void)arg;
    /* The controller is due 1 tick after each wake: before the workers (their deadlines are
     * later, or equal with a lower priority), so it activates them all first. */
    CHECK_EQ(uk_task_set_deadline(0, 1), UK_OK);
    CHECK_EQ(uk_task_deadline(&w[0]), UK_FOREVER); /* not a task yet */
    CHECK_EQ(uk_task_set_deadline(0, UK_FOREVER), UK_EINVAL);

    /* Earliest deadline first, whatever the priorities. */
    make(0, 'A', 10, 30);
    make(1, 'B', 20, 10);
    make(2, 'C', 30, 20);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    CHECK_EQ(uk_task_deadline(&w[1]), uk_time() + 10);
    EXPECT_LOG("");
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    EXPECT_LOG("BCA");

    /* Equal deadlines: by priority, then first come first served; no deadline: after every
     * task with one, whatever its priority. */
    make(0, 'D', 20, 5);
    make(1, 'E', 10, 5);
    make(2, 'F', 10, 5);
    make(3, 'G', 0, 0);
    make(4, 'H', 100, 50);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    CHECK_EQ(uk_task_deadline(&w[3]), UK_FOREVER);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    EXPECT_LOG("EFDHG");

    /* A ready task's deadline set anew re-orders it at once. */
    make(0, 'X', 10, 10);
    make(1, 'Y', 10, 20);
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    CHECK_EQ(uk_task_activate(&w[1]), UK_OK);
    CHECK_EQ(uk_task_set_deadline(&w[1], 2), UK_OK);
    CHECK_EQ(uk_task_deadline(&w[1]), uk_time() + 2);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    EXPECT_LOG("YX");

    /* An earlier deadline: edf preempts the running controller at once, coop lets it run
     * until it sleeps. */
    CHECK_EQ(uk_task_set_deadline(0, 100), UK_OK);
    make(0, 'P', 50, 3);
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    EXPECT_LOG(PREEMPTIVE ? "P" : "");
    make(1, 'Q', 50, 1);
    CHECK_EQ(uk_task_activate(&w[1]), UK_OK);
    EXPECT_LOG(PREEMPTIVE ? "Q" : "");
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    EXPECT_LOG(PREEMPTIVE ? "" : "QP"); /* Q is due first */
    CHECK_EQ(uk_task_set_deadline(0, 1), UK_OK);

    /* uk_task_sleep_until: each job due at its next release; a late job due one period after
     * its own release. */
    CHECK_EQ(uk_task_create(&w[5], "periodic", periodic, 0, 50, w_stack[5], sizeof w_stack[5]),
             UK_OK);
    CHECK_EQ(uk_task_activate(&w[5]), UK_OK);
    CHECK_EQ(uk_task_sleep(30), UK_OK);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(seen_deadline[k], seen_time[k] + 4);
    CHECK_EQ(periodic_result, UK_ETIMEOUT);
    CHECK_EQ(seen_deadline[3], seen_time[3] + 4);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&ctl, "ctl", controller, 0, 1, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
