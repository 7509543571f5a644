/* Waiting on kernel objects: entering a wait queue (ordered by the back end, kernel_waitq.h:
 * by priority, FIFO among equals), and the end of a wait by wake-up, timeout or deletion.
 *
 * Head-of-line admission. Where a waiter's admission depends on what it asks for (a
 * variable-size queue's sender waits until its message fits, and holds back the senders
 * behind it), a waiter that leaves the queue unserved, or moves in it, may unblock the ones
 * behind. Every such leave goes through uk__wait_end (timeout, suspension, deletion, signal)
 * and every move through uk__set_prio, which call the waiter's t->wait_leave hook, set by the
 * service before it waits: one place that covers every way out. Waiters served by the object
 * leave through uk__wake, where the serving code admits the next ones itself. */
#include "kernel.h"

/* The software back end's insert (kernel/waitq/soft): a queue's tasks have non-decreasing
 * prio values from head to tail (highest priority first); among equal priorities, in order of
 * arrival. Here, where it has always been, so that the images that use it keep their layout;
 * an image with another back end never calls it, and the linker drops it. */
UK_IPC_FN(uk__waitq_insert_ordered) void uk__waitq_insert_ordered(uk_list_t *q, uk_task_t *t)
{
    uk_list_t *at = q->next;
    while (at != q && UK_CONTAINER_OF(at, uk_task_t, wait_node)->prio <= t->prio)
        at = at->next;
    uk__list_insert_before(at, &t->wait_node);
    t->waiting_on = q;
}

UK_IPC_FN(uk__wait_begin) void uk__wait_begin(uk_list_t *q, uk_tick_t timeout)
{
    uk_task_t *t = uk__current;
    uk__unready(t, timeout == UK_FOREVER ? UK_TASK_PENDING : UK_TASK_PENDING_DELAYED);
    uk__waitq_insert(q, t);
    if (timeout != UK_FOREVER)
        uk__delay_insert(t, timeout);
    t->wait_result = UK_ETIMEOUT;
}

UK_IPC_FN(uk__wait) int uk__wait(uk_list_t *q, void *obj, uk_tick_t timeout)
{
    (void)obj;
    uk__wait_begin(q, timeout);
    uk__reschedule();
    int r = uk__current->wait_result;
#ifdef UK_FEATURE_SIGNAL
    if (r == UK_EINTR)
        uk__signal_raise(); /* a signal ended the wait: the tail runs the handler first */
#endif
    return r;
}

UK_IPC_FN(uk__wait_end) void uk__wait_end(uk_task_t *t, int result)
{
    uk_list_t *q = t->waiting_on;
    uk__waitq_remove(t);
    t->waiting_on = 0;
    if (t->state == UK_TASK_PENDING_DELAYED)
        uk__delay_remove(t);
    t->wait_result = result;
    uk__wait_moved(t, q);
}

/* A waiter with a timeout leaves the delta list too: out of line, so that the common wake
 * (no timeout) is a leaf ending in the policy's insert. */
static UK_IPC_FN(wake_delayed) __attribute__((noinline)) void wake_delayed(uk_task_t *t)
{
    uk__delay_remove(t);
    uk__make_ready(t);
}

UK_IPC_FN(uk__wake) void uk__wake(uk_task_t *t, int result)
{
    uk__waitq_leave(t); /* made ready below */
    t->waiting_on = 0;
    t->wait_result = result;
    if (t->state == UK_TASK_PENDING_DELAYED) {
        wake_delayed(t);
        return;
    }
    uk__make_ready(t);
}

UK_IPC_FN(uk__wake_all) void uk__wake_all(uk_list_t *q, int result)
{
    while (!uk__list_empty(q))
        uk__wake(UK_CONTAINER_OF(q->next, uk_task_t, wait_node), result);
}
