/* The task state machine on target: delete and suspend from every state (suspended, ready,
 * running = self, delayed, pending, pending + delayed), checking that a deleted or suspended
 * waiter leaves every queue (a later give or timeout does not touch it, the semaphore counts
 * the give, the delta list keeps the other sleepers' wake times); resume semantics; a task
 * whose entry returns is deleted; sleep_until keeps drift-free periods even when the task runs
 * longer than a period; set_prio's effect on the ready-queue order. Every scheduler (the
 * ready-order part differs under the cyclic one). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum { M_RETURN, M_SLEEP, M_SEM, M_SEM_T, M_SELF_DELETE, M_SELF_SUSPEND, M_SPIN };

typedef struct {
    uk_task_t t;
    uint32_t stack[256];
    volatile int mode, arg, started, after, result;
    volatile uk_tick_t end_time;
} victim_t;

#define NV 6
static victim_t v[NV];
static uk_task_t main_t;
static uint32_t main_stack[256];
static uk_sem_t sem;
static volatile int order[16], n_order;
static volatile uk_tick_t wakes[8];
static volatile int wake_results[8];

static void victim_entry(void *arg)
{
    victim_t *x = arg;
    x->started++;
    int r = 0;
    switch (x->mode) {
    case M_RETURN: order[n_order++] = x->arg; return;
    case M_SLEEP: r = uk_task_sleep((uk_tick_t)x->arg); break;
    case M_SEM: r = uk_sem_take(&sem, UK_FOREVER); break;
    case M_SEM_T: r = uk_sem_take(&sem, (uk_tick_t)x->arg); break;
    case M_SELF_DELETE:
        r = x->arg ? uk_task_delete(&x->t) : uk_task_delete(0);
        x->after = 99; /* never reached */
        return;
    case M_SELF_SUSPEND: r = uk_task_suspend(0); break;
    case M_SPIN:
        for (;;)
            uk_task_yield();
    }
    x->result = r;
    x->end_time = uk_time();
    x->after++;
}

/* (Re)create victim i (priority 20 + i, unique for the bitmap scheduler) in `mode`. */
static void make(int i, int mode, int arg)
{
    victim_t *x = &v[i];
    if (uk_task_state(&x->t) != UK_TASK_DELETED)
        CHECK_EQ(uk_task_delete(&x->t), UK_OK);
    x->mode = mode;
    x->arg = arg;
    x->started = x->after = 0;
    x->result = 1234;
    x->end_time = 0;
    CHECK_EQ(uk_task_create(&x->t, "victim", victim_entry, x, 20 + i, x->stack, sizeof x->stack),
             UK_OK);
}

static void start(int i, int mode, int arg)
{
    make(i, mode, arg);
    CHECK_EQ(uk_task_activate(&v[i].t), UK_OK);
}

static uint32_t sem_count(void)
{
    uint32_t c = 0xdead;
    CHECK_EQ(uk_sem_count(&sem, &c), UK_OK);
    return c;
}

static void delete_from_every_state(void)
{
    /* Suspended (created, never activated). */
    make(0, M_RETURN, 1);
    CHECK_EQ(uk_task_delete(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_DELETED);
    /* Suspended after running. */
    start(0, M_SELF_SUSPEND, 0);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_delete(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_resume(&v[0].t), UK_EINVAL);
    CHECK_EQ(v[0].after, 0);
    /* Ready: it never runs. */
    start(0, M_RETURN, 1);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_READY);
    CHECK_EQ(uk_task_delete(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].started, 0);
    /* Running: itself, by NULL and by its own TCB; nothing after the call runs. */
    start(0, M_SELF_DELETE, 0);
    start(1, M_SELF_DELETE, 1);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].started, 1);
    CHECK_EQ(v[1].started, 1);
    CHECK_EQ(v[0].after + v[1].after, 0);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_DELETED);
    CHECK_EQ(uk_task_state(&v[1].t), UK_TASK_DELETED);

    /* Delayed: deleted out of the delta list, the sleeper behind it wakes on time. */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    start(0, M_SLEEP, 5);
    start(1, M_SLEEP, 8);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_DELAYED);
    CHECK_EQ(uk_task_delete(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(12), UK_OK);
    CHECK_EQ(v[0].after, 0);
    CHECK_EQ(v[1].after, 1);
    CHECK_EQ(v[1].end_time - t0, 8 + 0); /* slept 8 from t0 (it started within tick t0) */

    /* Pending: two waiters; the first (higher priority) deleted, the give goes to the other,
     * the next give counts. */
    CHECK_EQ(uk_sem_init(&sem, 0, 5), UK_OK);
    start(0, M_SEM, 0);
    start(1, M_SEM, 0);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_PENDING);
    CHECK_EQ(uk_task_state(&v[1].t), UK_TASK_PENDING);
    CHECK_EQ(uk_task_delete(&v[0].t), UK_OK);
    CHECK_EQ(uk_sem_give(&sem), UK_OK);
    CHECK_EQ(sem_count(), 0);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[1].result, UK_OK);
    CHECK_EQ(v[0].result, 1234);
    CHECK_EQ(uk_sem_give(&sem), UK_OK);
    CHECK_EQ(sem_count(), 1);
    CHECK_EQ(uk_sem_take(&sem, UK_NO_WAIT), UK_OK);

    /* Pending + delayed: deleted out of the wait queue and the delta list; its timeout
     * passes without effect, a sleeper behind it wakes on time, a give counts. */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    t0 = uk_time();
    start(0, M_SEM_T, 5);
    start(1, M_SLEEP, 8);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_task_delete(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(12), UK_OK);
    CHECK_EQ(v[0].result, 1234);
    CHECK_EQ(v[0].after, 0);
    CHECK_EQ(v[1].end_time - t0, 8);
    CHECK_EQ(uk_sem_give(&sem), UK_OK);
    CHECK_EQ(sem_count(), 1);
    CHECK_EQ(uk_sem_take(&sem, UK_NO_WAIT), UK_OK);
    /* The TCB is reusable. */
    start(0, M_RETURN, 7);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].started, 1);
    n_order = 0;
}

static void suspend_from_every_state(void)
{
    /* Ready: suspended, never runs until resumed. */
    start(0, M_RETURN, 1);
    CHECK_EQ(uk_task_suspend(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].started, 0);
    CHECK_EQ(uk_task_resume(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_READY);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].started, 1);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_DELETED); /* its entry returned */
    n_order = 0;

    /* Running: itself; resume continues after the call with UK_OK. */
    start(0, M_SELF_SUSPEND, 0);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_SUSPENDED);
    CHECK_EQ(v[0].after, 0);
    CHECK_EQ(uk_task_resume(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].after, 1);
    CHECK_EQ(v[0].result, UK_OK);

    /* Delayed: out of the delta list (its wake time passes without effect), the sleeper
     * behind it wakes on time; resumed, its sleep returns UK_OK at once. */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    start(0, M_SLEEP, 4);
    start(1, M_SLEEP, 7);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_suspend(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_suspend(&v[0].t), UK_ESTATE);
    CHECK_EQ(uk_task_sleep(10), UK_OK);
    CHECK_EQ(v[0].after, 0);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_SUSPENDED);
    CHECK_EQ(v[1].end_time - t0, 7);
    uk_tick_t tr = uk_time();
    CHECK_EQ(uk_task_resume(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].after, 1);
    CHECK_EQ(v[0].result, UK_OK);
    CHECK_EQ(v[0].end_time, tr); /* ran at once, not another 4 ticks */

    /* Pending: out of the wait queue (a give counts instead of waking it); resumed, its
     * take returns UK_ETIMEOUT, as if it had timed out. */
    start(0, M_SEM, 0);
    start(1, M_SEM, 0);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_suspend(&v[0].t), UK_OK);
    CHECK_EQ(uk_sem_give(&sem), UK_OK); /* to v1 */
    CHECK_EQ(uk_sem_give(&sem), UK_OK); /* counted */
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[1].result, UK_OK);
    CHECK_EQ(v[0].after, 0);
    CHECK_EQ(sem_count(), 1);
    CHECK_EQ(uk_task_resume(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].result, UK_ETIMEOUT);
    CHECK_EQ(sem_count(), 1);
    CHECK_EQ(uk_sem_take(&sem, UK_NO_WAIT), UK_OK);

    /* Pending + delayed: the timeout passes without waking it. */
    start(0, M_SEM_T, 3);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_task_suspend(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(8), UK_OK);
    CHECK_EQ(v[0].after, 0);
    CHECK_EQ(uk_task_state(&v[0].t), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_sem_give(&sem), UK_OK);
    CHECK_EQ(sem_count(), 1);
    CHECK_EQ(uk_task_resume(&v[0].t), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(v[0].result, UK_ETIMEOUT);
    CHECK_EQ(uk_sem_take(&sem, UK_NO_WAIT), UK_OK);
}

/* Period 10 from a start; iterations 2 and 4 run 4 ticks, iteration 5 runs 13 (more than a
 * period: the next sleep_until returns UK_ETIMEOUT at once, and the one after is back on
 * the grid). */
static void periodic_entry(void *arg)
{
    (void)arg;
    uk_tick_t last = uk_time();
    uk_tick_t start_t = last;
    for (int i = 0; i < 8; i++) {
        wake_results[i] = uk_task_sleep_until(&last, 10);
        wakes[i] = uk_time() - start_t;
        uk_tick_t busy = (i == 2 || i == 4) ? 4 : i == 5 ? 13 : 0;
        uk_tick_t b0 = uk_time();
        while (uk_time() - b0 < busy) {
        }
    }
}

static void periodic(void)
{
    CHECK_EQ(
        uk_task_create(&v[5].t, "periodic", periodic_entry, 0, 25, v[5].stack, sizeof v[5].stack),
        UK_OK);
    CHECK_EQ(uk_task_activate(&v[5].t), UK_OK);
    CHECK_EQ(uk_task_sleep(100), UK_OK);
    CHECK_EQ(uk_task_state(&v[5].t), UK_TASK_DELETED);
    /* Wakes at 10, 20, 30, 40, 50, 60; iteration 5 busy until 73: the deadline 70 has
     * passed (UK_ETIMEOUT at 73), then 80 again. */
    static const uk_tick_t want[8] = {10, 20, 30, 40, 50, 60, 73, 80};
    static const int want_r[8] = {0, 0, 0, 0, 0, 0, UK_ETIMEOUT, 0};
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(wakes[i], want[i]);
        CHECK_EQ(wake_results[i], want_r[i]);
    }
}

static void ready_order(void)
{
    /* v0..v2 at priorities 20, 21, 22 made ready while main (5) runs; then set_prio. */
    n_order = 0;
    start(0, M_RETURN, 0);
    start(1, M_RETURN, 1);
    start(2, M_RETURN, 2);
    start(3, M_RETURN, 3);
    CHECK_EQ(uk_task_set_prio(&v[2].t, 19), UK_OK); /* raised above the others */
    CHECK_EQ(uk_task_set_prio(&v[0].t, 30), UK_OK); /* lowered below the others */
    CHECK_EQ(uk_task_prio(&v[2].t), 19);
    CHECK_EQ(uk_task_prio(&v[0].t), 30);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(n_order, 4);
#ifdef UK_CONFIG_SCHED_RR
    /* Cyclic: priorities do not order the queue; activation order stands. */
    static const int want[4] = {0, 1, 2, 3};
#else
    static const int want[4] = {2, 1, 3, 0};
#endif
    for (int i = 0; i < 4; i++)
        CHECK_EQ(order[i], want[i]);

#if !defined(UK_CONFIG_SCHED_RR) && !UK_POLICY_UNIQUE_PRIOS
    /* Shared priorities: a task moved to a priority goes behind its new equals; set_prio to
     * the priority it already has keeps its place. */
    n_order = 0;
    start(0, M_RETURN, 0);
    start(1, M_RETURN, 1);
    start(2, M_RETURN, 2);
    CHECK_EQ(uk_task_set_prio(&v[0].t, 21), UK_OK); /* v0 behind v1 */
    CHECK_EQ(uk_task_set_prio(&v[1].t, 21), UK_OK); /* unchanged: stays first */
    CHECK_EQ(uk_task_set_prio(&v[2].t, 21), UK_OK); /* behind v1, v0 */
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(n_order, 3);
    CHECK_EQ(order[0], 1);
    CHECK_EQ(order[1], 0);
    CHECK_EQ(order[2], 2);
#endif

#if !defined(UK_CONFIG_SCHED_RR) && !defined(UK_CONFIG_SCHED_COOP)
    /* Preemptive policies: lowering the running task below a ready one switches at once;
     * raising a ready task above the running one too. */
    n_order = 0;
    start(0, M_RETURN, 0);
    CHECK_EQ(uk_task_set_prio(0, 40), UK_OK);
    CHECK_EQ(n_order, 1); /* v0 (20) ran during the call */
    CHECK_EQ(uk_task_set_prio(0, 5), UK_OK);
    start(1, M_RETURN, 1);
    CHECK_EQ(n_order, 1);
    CHECK_EQ(uk_task_set_prio(&v[1].t, 4), UK_OK);
    CHECK_EQ(n_order, 2);
    CHECK_EQ(order[1], 1);
#endif
}

static void main_task(void *arg)
{
    (void)arg;
    delete_from_every_state();
    suspend_from_every_state();
    ready_order();
    periodic();
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&sem, 0, 5), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 5, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
