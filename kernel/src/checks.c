/* The invariant checks of the debug kernel ([kernel] checks = "full"): at every kernel exit
 * (the lock released by a task, the tail's return) the scheduler's and the wait lists'
 * invariants, as the comments of sched_core.c, wait.c, time.c and the policy state them, and
 * those of the HISR ready lists (hisr.c) and the timers' delta list (timer.c) are checked, and a broken one stops the system with "ubik: fatal: kernel invariant broken:
 * NAME" (exit code UK_EXIT_FATAL). Without checks = "full" nothing here is compiled.
 *
 * The kernel keeps no list of its tasks (a TCB belongs to the application), so this file
 * keeps one, of pointers, filled by uk_task_create and emptied by uk_task_delete: the checks
 * then see the tasks that are in no list, which is where most corruptions show. */
#include "kernel.h"

#ifdef UK_CONFIG_CHECKS_FULL

#ifndef UK_CHECKS_MAX_TASKS
#define UK_CHECKS_MAX_TASKS 64 /* live tasks the checks can follow (the idle task included) */
#endif

static uk_task_t *tasks[UK_CHECKS_MAX_TASKS];
static unsigned n_tasks;

UK_OTHER_FN(uk__check_fail) void uk__check_fail(const char *invariant)
{
    uk__fatal("kernel invariant broken:", invariant);
}

UK_OTHER_FN(uk__check_task_created) void uk__check_task_created(uk_task_t *t)
{
    for (unsigned i = 0; i < n_tasks; i++)
        if (tasks[i] == t)
            return; /* a TCB created again after its deletion */
    UK_CHECK(n_tasks < UK_CHECKS_MAX_TASKS, "at most UK_CHECKS_MAX_TASKS (64) live tasks");
    tasks[n_tasks++] = t;
}

UK_OTHER_FN(uk__check_task_deleted) void uk__check_task_deleted(uk_task_t *t)
{
    for (unsigned i = 0; i < n_tasks; i++)
        if (tasks[i] == t) {
            tasks[i] = tasks[--n_tasks];
            return;
        }
}

/* t is a live task of the registry. */
static UK_OTHER_FN(is_task) bool is_task(const uk_task_t *t)
{
    for (unsigned i = 0; i < n_tasks; i++)
        if (tasks[i] == t)
            return t->magic == UK_TASK_MAGIC;
    return false;
}

UK_OTHER_FN(uk__check_links) unsigned uk__check_links(const uk_list_t *h, unsigned max)
{
    unsigned n = 0;
    for (const uk_list_t *at = h;; at = at->next) {
        UK_CHECK(at->next && at->next->prev == at, "list links (next->prev == self)");
        if (at->next == h)
            return n;
        UK_CHECK(++n <= max, "a list holds each node at most once (no cycle)");
    }
}

UK_OTHER_FN(uk__check_list) unsigned uk__check_list(const uk_list_t *h)
{
    return uk__check_links(h, n_tasks);
}

/* The magic, not the registry, in the per-node checks: a lookup per node made each exit
 * quadratic in the number of tasks; the count the core compares catches the rest. */
UK_OTHER_FN(uk__check_ready_task) void uk__check_ready_task(const uk_task_t *t)
{
    UK_CHECK(t->magic == UK_TASK_MAGIC, "the ready structure holds live tasks only");
    UK_CHECK(t->state == UK_TASK_READY, "a task in the ready structure is READY");
}

static UK_OTHER_FN(is_ready) bool is_ready(const uk_task_t *t)
{
    return t->state == UK_TASK_READY; /* the running task's too (kernel_sched.h) */
}

static UK_OTHER_FN(is_pending) bool is_pending(const uk_task_t *t)
{
    return t->state == UK_TASK_PENDING || t->state == UK_TASK_PENDING_DELAYED;
}

static UK_OTHER_FN(is_delayed) bool is_delayed(const uk_task_t *t)
{
    return t->state == UK_TASK_DELAYED || t->state == UK_TASK_PENDING_DELAYED;
}

/* The wait queue whose head is q (wait.c): live waiters that name q as what they wait on,
 * non-decreasing prio values from head to tail (the order among equals, arrival, leaves no
 * trace in the TCB to check). Returns the number of waiters. */
static UK_OTHER_FN(check_wait_queue) unsigned check_wait_queue(const uk_list_t *q)
{
    unsigned n = uk__check_list(q);
#if UK_WAITQ_PRIO_ORDERED
    unsigned prev = 0;
#endif
    for (const uk_list_t *at = q->next; at != q; at = at->next) {
        const uk_task_t *w = UK_CONTAINER_OF(at, uk_task_t, wait_node);
        UK_CHECK(w->magic == UK_TASK_MAGIC && is_pending(w),
                 "a wait queue holds PENDING tasks only");
        UK_CHECK(w->waiting_on == q, "a waiter's waiting_on is the queue it is in");
#if UK_WAITQ_PRIO_ORDERED /* else the list is in arrival order (the back end orders it) */
        UK_CHECK(w->prio >= prev, "a wait queue is ordered by priority");
        prev = w->prio;
#endif
    }
    return n;
}

/* t's wait fields. A PENDING t that is first in the queue it names checks that queue once
 * for all its waiters; returns the number of waiters so checked. The core compares the sum
 * with the number of PENDING tasks: each waiter found names the queue it is in, so every
 * PENDING task is then on exactly one wait queue, the one waiting_on names. */
static UK_OTHER_FN(check_waiter) unsigned check_waiter(const uk_task_t *t)
{
    if (!is_pending(t)) {
        UK_CHECK(!t->waiting_on && t->wait_node.next == &t->wait_node,
                 "a task that is not PENDING is in no wait queue");
        UK_CHECK(!t->blocked_on, "a task blocked on a mutex is PENDING");
        return 0;
    }
    const uk_list_t *q = t->waiting_on;
    UK_CHECK(q != 0, "a PENDING task has waiting_on set");
    return q->next == &t->wait_node ? check_wait_queue(q) : 0;
}

/* Every task: in the ready structure iff READY or RUNNING, in the delta list iff DELAYED or
 * PENDING_DELAYED, in a wait queue iff PENDING*. Returns the number of ready ones through
 * *ready and of delayed ones through *delayed; exactly one task runs, the current one. */
static UK_OTHER_FN(check_tasks) void check_tasks(unsigned *ready, unsigned *delayed)
{
    unsigned pending = 0, queued = 0;
    *ready = *delayed = 0;
    for (unsigned i = 0; i < n_tasks; i++) {
        const uk_task_t *t = tasks[i];
        UK_CHECK(t->magic == UK_TASK_MAGIC, "a live task keeps its magic");
        *ready += is_ready(t);
        *delayed += is_delayed(t);
        if (!is_ready(t))
            UK_CHECK(t->ready_node.next == &t->ready_node,
                     "a task that is not ready is in no ready list");
        if (!is_delayed(t))
            UK_CHECK(t->delay_node.next == &t->delay_node,
                     "a task that is not delayed is not in the delta list");
        pending += is_pending(t);
        queued += check_waiter(t);
    }
    UK_CHECK(queued == pending, "every PENDING task is on the wait queue it names, once");
    UK_CHECK(uk__current->state == UK_TASK_READY, "the current task is READY (running)");
}

/* The lock is held until the exit this check precedes. */
static UK_OTHER_FN(lock_held) bool lock_held(void) { return uk__arch_lock_held(); }

UK_OTHER_FN(uk__check_invariants) void uk__check_invariants(void)
{
    if (!uk__started)
        return; /* tasks are still being created: nothing runs yet */
    UK_CHECK(lock_held(), "the kernel lock is held until the kernel exits");
    UK_CHECK(is_task(uk__current), "the current task is a live task");
    unsigned ready, delayed;
    check_tasks(&ready, &delayed);
    UK_CHECK(uk__sched_check() == ready,
             "the ready structure holds every READY and RUNNING task once");
    UK_CHECK(uk__delay_check() == delayed,
             "the delta list holds every DELAYED and PENDING_DELAYED task once");
    uk__hisr_check();
    uk__timer_check();
    /* While a HISR runs or is due, the task it interrupted stays current whatever is ready. */
    if (!uk__current_hisr && !uk__hisr_ready)
        UK_CHECK(uk__sched_pick() == uk__current,
                 "the current task is the one the policy picks (the highest priority ready)");
}

#endif
