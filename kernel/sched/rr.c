/* Scheduler policy "rr": cyclic time slices. Every ready task except the idle task is in one
 * circular run queue, whatever its priority; the head runs for its own slice (t->slice ticks,
 * uk_task_set_slice) and then goes to the back. The idle task runs only when the queue is
 * empty. Priorities 0..255 are accepted and kept (wait queues of kernel objects still wake
 * waiters in priority order) but play no part here: a task that becomes ready never preempts
 * the running one, it joins the back of the queue (only the idle task is preempted).
 *
 * Invariants: `queue` holds exactly the ready and running tasks other than the idle task, in
 * the order they will run; the running task is its head (or the idle task runs and the queue
 * is empty). A task entering the queue (after blocking, sleeping or a suspend) or yielding
 * gets a fresh slice (slice_left = slice); the running task's slice_left counts down one per
 * tick and the task goes to the back, reloaded, when it reaches 0. */
#include "kernel.h"

static uk_list_t queue;

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void)
{
    uk__list_init(&queue);
}

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < UK_PRIOS ? UK_OK : UK_EINVAL;
}

UK_SCHED_FN(uk__sched_insert) void uk__sched_insert(uk_task_t *t)
{
    if (t == &uk__idle_task)
        return; /* always ready, outside the queue */
    t->slice_left = t->slice;
    uk__list_insert_before(&queue, &t->ready_node);
}

UK_SCHED_FN(uk__sched_remove) void uk__sched_remove(uk_task_t *t)
{
    uk__list_remove(&t->ready_node); /* a no-op for the idle task (its node is unlinked) */
}

UK_SCHED_FN(uk__sched_pick) uk_task_t *uk__sched_pick(void)
{
    return uk__list_empty(&queue) ? &uk__idle_task
                                  : UK_CONTAINER_OF(queue.next, uk_task_t, ready_node);
}

UK_SCHED_FN(uk__sched_yield) uk_task_t *uk__sched_yield(uk_task_t *t)
{
    if (t == &uk__idle_task)
        return uk__sched_pick();
    t->slice_left = t->slice;
    return UK_CONTAINER_OF(uk__list_to_tail(&queue, &t->ready_node), uk_task_t, ready_node);
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
    if (t->state != UK_TASK_RUNNING || t == &uk__idle_task)
        return false;
    if (t->slice_left > 1) {
        t->slice_left--;
        return false;
    }
    t->slice_left = t->slice;
    if (queue.next == queue.prev)
        return false; /* the only task: it keeps running */
    uk__list_remove(&t->ready_node);
    uk__list_insert_before(&queue, &t->ready_node);
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
    unsigned n = uk__check_list(&queue);
    for (uk_list_t *at = queue.next; at != &queue; at = at->next) {
        const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, ready_node);
        uk__check_ready_task(t);
        UK_CHECK(t != &uk__idle_task, "the idle task is not in the run queue");
    }
    uk__check_ready_task(&uk__idle_task);
    return n + 1;
}
#endif
