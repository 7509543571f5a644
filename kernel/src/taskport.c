/* Task ports (UbiFOS II.5.D): one-to-one synchronous messages held in the TCB, no separate
 * object. uk_taskport_send(to, msg) from a task is a rendezvous: if `to` waits in
 * uk_taskport_recv it is handed msg at once, else the sender waits (msg in its own TCB's
 * wait_arg, in to->tp_senders, by priority) until `to` receives it. From an interrupt
 * handler the send cannot wait: the message goes into the receiver's TCB slot (tp_msg, one
 * message; UK_ENOMEM when it is full) or straight to a waiting receiver. A receive takes
 * the slot first, then the first waiting sender. Deleting the receiver wakes its senders
 * with UK_EDELETED. */
#include "kernel.h"

#ifdef UK_FEATURE_TASKPORT

static uk_list_t receivers = {&receivers, &receivers}; /* every task in uk_taskport_recv */

static UK_IPC_FN(valid_task_tp) bool valid_task_tp(const uk_task_t *t)
{
    return t && t->magic == UK_TASK_MAGIC;
}

/* A TCB is zeroed at create: its sender list starts empty on first use. */
static inline uk_list_t *senders(uk_task_t *t)
{
    if (!t->tp_senders.next)
        uk__list_init(&t->tp_senders);
    return &t->tp_senders;
}

/* `to` waits in uk_taskport_recv now (tp_receiving alone stays set while a suspended
 * receiver has not run again). */
static inline bool receiving(const uk_task_t *to)
{
    return to->tp_receiving && to->waiting_on == &receivers;
}

/* The asynchronous send, lock held: 1 if it woke the receiver, UK_OK, UK_ENOMEM (full). */
static UK_IPC_FN(tp_post) int tp_post(void *obj, uint32_t msg)
{
    uk_task_t *to = obj;
    if (!valid_task_tp(to))
        return UK_EINVAL;
    if (receiving(to)) {
        to->wait_arg = msg;
        uk__wake(to, UK_OK);
        return 1;
    }
    if (to->tp_full)
        return UK_ENOMEM;
    to->tp_msg = msg;
    to->tp_full = 1;
    return UK_OK;
}

static UK_IPC_FN(tp_post_deferred) int tp_post_deferred(void *obj, uint32_t msg)
{
    int r = tp_post(obj, msg);
    return r > 0 ? UK_OK : r;
}

UK_IPC_FN(uk_taskport_send) int uk_taskport_send(uk_task_t *to, uint32_t msg, uk_tick_t timeout)
{
    if (!valid_task_tp(to))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_LISR_TIMEOUT(timeout) ? UK_EPERM : uk__defer(tp_post_deferred, to, msg);
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    int r;
    if (uk__current_hisr || !uk__started) {
        r = tp_post(to, msg); /* an interrupt handler (or main) does not wait */
        if (r > 0)
            uk__reschedule();
    } else if (to == uk__current) {
        r = UK_EINVAL; /* a rendezvous with oneself would never end */
    } else if (receiving(to)) {
        to->wait_arg = msg;
        uk__wake(to, UK_OK);
        uk__reschedule();
        r = UK_OK;
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else {
        uk__current->wait_arg = msg;
        r = uk__wait(senders(to), to, timeout); /* UK_OK: received */
    }
    if (r > 0)
        r = UK_OK;
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_taskport_recv) int uk_taskport_recv(uint32_t *msg, uk_tick_t timeout)
{
    if (!msg)
        return UK_EINVAL;
    if (UK_IN_ISR() || !uk__started)
        return UK_EPERM; /* the task port belongs to a task */
    unsigned key = uk__lock();
    uk_task_t *self = uk__current;
    uk_task_t *w;
    int r = UK_OK;
    if (self->tp_full) {
        *msg = self->tp_msg;
        self->tp_full = 0;
    } else if ((w = uk__waitq_first(senders(self))) != 0) {
        *msg = w->wait_arg;
        uk__wake(w, UK_OK);
        uk__reschedule();
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else {
        self->tp_receiving = 1;
        r = uk__wait(&receivers, 0, timeout);
        self->tp_receiving = 0;
        if (r == UK_OK)
            *msg = self->wait_arg;
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk__taskport_task_gone) void uk__taskport_task_gone(uk_task_t *t)
{
    t->tp_receiving = 0;
    t->tp_full = 0;
    if (t->tp_senders.next)
        uk__wake_all(&t->tp_senders, UK_EDELETED);
}

#endif /* UK_FEATURE_TASKPORT */
