/* Mutexes on target: recursive locking, UK_EPERM for a non-owner and from a LISR, UK_EAGAIN
 * on UK_NO_WAIT, timeouts accurate to the tick, hand-over to the highest-priority waiter
 * (FIFO among equals) which becomes the owner, deletion under waiters (UK_EDELETED, wake-up
 * in priority order, the owner's inherited priority dropped), bad arguments. Self-checking.
 * Needs machine.toml (the stimulus for the LISR). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define CTL_PRIO 6

static uk_task_t ctl, other, x[5], y[3];
static uint32_t ctl_stack[256], other_stack[256], x_stack[5][192], y_stack[3][192];
static uk_mutex_t m, m2, held, bad;
static volatile int lg[32], nlg;
static volatile int lisr_calls, lisr_lock = 1, lisr_unlock = 1, lisr_delete = 1;

static void note(int v)
{
    if (nlg < 32)
        lg[nlg++] = v;
}

/* Mutexes belong to tasks: every call is refused in a LISR, even on the interrupted owner's
 * mutex. */
static void lisr(unsigned line)
{
    (void)line;
    lisr_calls++;
    lisr_lock = uk_mutex_lock(&held, UK_NO_WAIT);
    lisr_unlock = uk_mutex_unlock(&held);
    lisr_delete = uk_mutex_delete(&held);
}

static void other_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_unlock(&m), UK_EPERM); /* ctl owns m */
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_EAGAIN);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_mutex_lock(&m, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5);            /* exact to the tick */
    CHECK_EQ(uk_task_prio(&ctl), CTL_PRIO); /* the boost went with the timeout */
    CHECK(m.owner == &ctl);
    note(10);
    CHECK_EQ(uk_mutex_lock(&m, UK_FOREVER), UK_OK); /* handed over by ctl's unlock */
    CHECK(m.owner == &other);
    CHECK_EQ(m.depth, 1);
    note(12);
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK);
    CHECK(m.owner == 0);
    CHECK_EQ(uk_mutex_unlock(&m), UK_EPERM); /* free: nobody's to unlock */
}

/* Hand-over order: each waiter logs its id when it gets m, then passes it on. */
static void x_task(void *arg)
{
    int id = (int)(intptr_t)arg;
    CHECK_EQ(uk_mutex_lock(&m, UK_FOREVER), UK_OK);
    CHECK(m.owner == uk_task_self());
    note(100 + id);
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK);
}

/* Deletion under waiters. */
static void y_task(void *arg)
{
    int id = (int)(intptr_t)arg;
    CHECK_EQ(uk_mutex_lock(&m2, id == 2 ? 100 : UK_FOREVER), UK_EDELETED);
    note(200 + id);
}

static void ctl_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&held, UK_NO_WAIT), UK_OK); /* held for the LISR to try */

    /* Recursion by the owner. */
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m, UK_FOREVER), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m, 3), UK_OK);
    CHECK(m.owner == &ctl);
    CHECK_EQ(m.depth, 3);
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK);
    CHECK(m.owner == &ctl);
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK);
    CHECK(m.owner == 0);
    CHECK_EQ(uk_mutex_unlock(&m), UK_EPERM);

    /* Bad arguments. */
    CHECK_EQ(uk_mutex_init(0), UK_EINVAL);
    CHECK_EQ(uk_mutex_lock(0, 1), UK_EINVAL);
    CHECK_EQ(uk_mutex_lock(&bad, 1), UK_EINVAL);
    CHECK_EQ(uk_mutex_unlock(&bad), UK_EINVAL);
    CHECK_EQ(uk_mutex_delete(&bad), UK_EINVAL);
    CHECK_EQ(uk_mutex_init(&m), UK_OK); /* free: may be re-initialised */
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_init(&m), UK_ESTATE); /* locked: may not */

    /* Non-owner unlock, UK_NO_WAIT, a timeout, inheritance and hand-over (other > ctl). */
    CHECK_EQ(uk_task_activate(&other), UK_OK); /* runs now, waits 5 ticks on m */
    CHECK_EQ(uk_task_prio(&ctl), 4);           /* inherited from other */
    CHECK_EQ(uk_task_sleep(10), UK_OK);        /* other times out, then waits again */
    CHECK_EQ(uk_task_state(&other), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&ctl), 4);
    note(11);
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK); /* other gets m and runs at once */
    note(13);
    CHECK_EQ(uk_task_prio(&ctl), CTL_PRIO);
    CHECK_EQ(uk_task_state(&other), UK_TASK_DELETED);

    /* Hand-over order: waiters arrive one at a time with priorities 12, 10, 12, 11, 10 (all
     * below ctl): they get m by priority, FIFO among equals: x1, x4, x3, x0, x2. */
    static const uint8_t xp[5] = {12, 10, 12, 11, 10};
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_OK);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(uk_task_create(&x[i], "x", x_task, (void *)(intptr_t)i, xp[i], x_stack[i],
                                sizeof x_stack[i]),
                 UK_OK);
        CHECK_EQ(uk_task_activate(&x[i]), UK_OK);
        CHECK_EQ(uk_task_sleep(1), UK_OK); /* x[i] runs and waits on m */
        CHECK_EQ(uk_task_state(&x[i]), UK_TASK_PENDING);
    }
    CHECK_EQ(uk_task_prio(&ctl), CTL_PRIO); /* lower waiters lend nothing */
    CHECK_EQ(uk_mutex_unlock(&m), UK_OK);
    CHECK(m.owner == &x[1]); /* handed over at once */
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_task_sleep(2), UK_OK); /* the waiters run through m */
    CHECK(m.owner == 0);
    note(14);

    /* Deletion under waiters: y0 (9), y1 (8) wait forever, y2 (3, above ctl) with a timeout. */
    static const uint8_t yp[3] = {9, 8, 3};
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_OK);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(uk_task_create(&y[i], "y", y_task, (void *)(intptr_t)i, yp[i], y_stack[i],
                                sizeof y_stack[i]),
                 UK_OK);
        CHECK_EQ(uk_task_activate(&y[i]), UK_OK);
    }
    CHECK_EQ(uk_task_prio(&ctl), 3);   /* y2 waits: inherited */
    CHECK_EQ(uk_task_sleep(1), UK_OK); /* y0, y1 wait too */
    CHECK_EQ(uk_task_state(&y[0]), UK_TASK_PENDING);
    CHECK_EQ(uk_task_state(&y[1]), UK_TASK_PENDING);
    CHECK_EQ(uk_task_state(&y[2]), UK_TASK_PENDING_DELAYED);
    note(15);
    CHECK_EQ(uk_mutex_delete(&m2), UK_OK); /* y2 runs at once (above ctl) */
    note(16);
    CHECK_EQ(uk_task_prio(&ctl), CTL_PRIO); /* the boost went with the mutex */
    CHECK_EQ(uk_mutex_unlock(&m2), UK_EINVAL);
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_EINVAL);
    CHECK_EQ(uk_task_sleep(1), UK_OK); /* y1 then y0 */

    /* The LISR came while ctl held `held`: all refused, nothing changed. */
    while (lisr_calls == 0)
        CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(lisr_lock, UK_EPERM);
    CHECK_EQ(lisr_unlock, UK_EPERM);
    CHECK_EQ(lisr_delete, UK_EPERM);
    CHECK(held.owner == &ctl);
    CHECK_EQ(held.depth, 1);
    CHECK_EQ(uk_mutex_unlock(&held), UK_OK);
    CHECK_EQ(uk_mutex_delete(&held), UK_OK);
    CHECK(ctl.mutexes == 0);

    static const int want[] = {10, 11, 12, 13, 101, 104, 103, 100, 102, 14, 15, 202, 16, 201, 200};
    int n = sizeof want / sizeof want[0];
    CHECK_EQ(nlg, n);
    for (int i = 0; i < n; i++)
        CHECK_EQ(lg[i], want[i]);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_mutex_init(&m), UK_OK);
    CHECK_EQ(uk_mutex_init(&held), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_EPERM); /* not from main: no task yet */
    CHECK_EQ(uk_task_create(&ctl, "ctl", ctl_task, 0, CTL_PRIO, ctl_stack, sizeof ctl_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&other, "other", other_task, 0, 4, other_stack, sizeof other_stack),
             UK_OK);
    CHECK_EQ(uk_irq_install(3, lisr), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
