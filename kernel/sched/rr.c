/* Scheduler policy "rr": cyclic time slices. Every ready task except the idle task is in one
 * circular run queue, whatever its priority; the head runs for its own slice (t->slice ticks,
 * uk_task_set_slice) and then goes to the back. The idle task runs only when the queue is
 * empty. Priorities 0..255 are accepted and kept (wait queues of kernel objects still wake
 * waiters in priority order) but play no part here: a task that becomes ready never preempts
 * the running one, it joins the back of the queue (only the idle task is preempted).
 *
 * Invariants: the ring at `head` holds exactly the ready and running tasks other than the
 * idle task, in the order they will run; the running task is its head (or the idle task runs
 * and the queue is empty). A task entering the queue (after blocking, sleeping or a
 * suspend) or yielding gets a fresh slice (slice_left = slice); the running task's
 * slice_left counts down one per tick and the task goes to the back, reloaded, when it
 * reaches 0. */
#include "kernel.h"
#include "ready_ring.h"

/* The run queue: a ready ring (ready_ring.h), `head` its first task (none when only the idle
 * task is ready). */
static uk_task_t *head;

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void) { head = 0; }

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < UK_PRIOS ? UK_OK : UK_EINVAL;
}

UK_SCHED_FN(uk__sched_insert) void uk__sched_insert(uk_task_t *t)
{
    if (t == &uk__idle_task)
        return; /* always ready, outside the queue */
    t->slice_left = t->slice;
    (void)uk__ring_append(&head, t); /* at the back */
}

UK_SCHED_FN(uk__sched_remove) void uk__sched_remove(uk_task_t *t)
{
    if (t != &uk__idle_task) /* outside the queue */
        (void)uk__ring_remove(&head, t);
}

UK_SCHED_FN(uk__sched_pick) uk_task_t *uk__sched_pick(void) { return head ? head : &uk__idle_task; }

UK_SCHED_FN(uk__sched_yield) uk_task_t *uk__sched_yield(uk_task_t *t)
{
    if (t == &uk__idle_task)
        return uk__sched_pick();
    t->slice_left = t->slice;
    head = uk__ring_next(t); /* t, the head, goes to the back (stays the head when alone) */
    return head;
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
    if (t->state != UK_TASK_READY || t == &uk__idle_task) /* t blocked, or idle */
        return false;
    if (t->slice_left > 1) {
        t->slice_left--;
        return false;
    }
    t->slice_left = t->slice;
    uk_task_t *next = uk__ring_next(t);
    if (next == t)
        return false; /* the only task: it keeps running */
    head = next;
    return true;
}

/* A priority change does not move the task: its place in the cycle is kept. */
UK_SCHED_FN(uk__sched_set_prio) void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio)
{
    t->prio = prio;
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The invariants above: `queue` holds the ready tasks but the idle task, which is always
 * ready and outside it. Returns the number of ready tasks, the idle task included. */
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    unsigned n = 0;
    if (head) {
        n = 1 + uk__check_list(&head->ready_node); /* the ring's other members, and head */
        const uk_list_t *at = &head->ready_node;
        do {
            const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, ready_node);
            uk__check_ready_task(t);
            UK_CHECK(t != &uk__idle_task, "the idle task is not in the run queue");
            at = at->next;
        } while (at != &head->ready_node);
    }
    uk__check_ready_task(&uk__idle_task);
    return n + 1;
}
#endif
