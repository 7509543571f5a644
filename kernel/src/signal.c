/* Signals: per-task asynchronous handlers (UbiFOS II.5.F).
 *
 * uk_signal_send ORs bits into t->sig_pending. Delivery happens in t's own context: the
 * kernel tail (uk__tail), after choosing the task it returns to, calls uk__signal_tail,
 * which runs that task's handler with the lock free and interrupts enabled, as part of the
 * task (same stack, same priority; it may block), then returns into the interrupted code.
 * A task that resumes elsewhere (in a kernel call where it blocked, at its first run)
 * checks its pending bits there (UK__SIGNAL_RESUMED: one load and branch per switch) and
 * raises the tail, which is taken as soon as it releases the lock, before the kernel call
 * returns to it. The sender raises the tail too, so a signal to the running task is handled
 * at once.
 *
 * A signal to a task that sleeps or waits on an object (DELAYED, PENDING, PENDING_DELAYED)
 * ends that sleep or wait with UK_EINTR: the task becomes ready, runs its handler first and
 * then sees UK_EINTR from the call (it decides whether to wait again). A suspended task
 * keeps its signals until resumed. Handlers do not nest: bits sent while one runs are
 * handled when it returns (a loop, until none is pending), and they do not cut a sleep or
 * wait of the handler itself -- it would return UK_EINTR with no handler run for the signal,
 * and running the handler inside itself would make its stack use unbounded. So UK_EINTR
 * always means that the handler has run for every signal that arrived until then. */
#include "kernel.h"

#ifdef UK_FEATURE_SIGNAL

static UK_OTHER_FN(valid_sig_task) bool valid_sig_task(const uk_task_t *t)
{
    return t && t->magic == UK_TASK_MAGIC;
}

UK_OTHER_FN(uk__signal_raise) void uk__signal_raise(void) { uk__arch_tail_raise(); }

/* The send under the lock (also the LISR's deferred call): no switch. */
static UK_OTHER_FN(signal_post) int signal_post(void *obj, uint32_t sigs)
{
    uk_task_t *t = obj;
    if (!valid_sig_task(t))
        return UK_EINVAL;
    if (!t->sig_handler)
        return UK_ESTATE; /* nobody would handle it: refused, not dropped */
    t->sig_pending |= sigs;
    if (t->sig_busy)
        return UK_OK; /* in its handler: handled when the handler returns (see above) */
    switch (t->state) {
    case UK_TASK_DELAYED:
        uk__delay_remove(t);
        t->wait_result = UK_EINTR;
        uk__make_ready(t);
        break;
    case UK_TASK_PENDING:
    case UK_TASK_PENDING_DELAYED:
        uk__wait_end(t, UK_EINTR);
        uk__make_ready(t);
        if (t->blocked_on)
            uk__mutex_wait_ended(t); /* the owner no longer inherits t's priority */
        break;
    default: break;
    }
    uk__signal_raise(); /* the running task's handler runs when the lock is next free */
    return UK_OK;
}

UK_OTHER_FN(uk_signal_send) int uk_signal_send(uk_task_t *t, uint32_t sigs)
{
    if (!t)
        t = uk__current;
    if (!valid_sig_task(t) || sigs == 0)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return uk__defer(signal_post, t, sigs);
    unsigned key = uk__lock();
    int r = signal_post(t, sigs);
    if (r == UK_OK)
        uk__reschedule();
    uk__unlock(key);
    return r;
}

UK_OTHER_FN(uk_signal_handler) int uk_signal_handler(uk_task_t *t, uk_signal_handler_t fn)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!t)
        t = uk__current;
    if (!valid_sig_task(t) || t == &uk__idle_task)
        return UK_EINVAL; /* a handler would run as the idle task, which must never block */
    unsigned key = uk__lock();
    t->sig_handler = fn;
    if (!fn)
        t->sig_pending = 0;
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_signal_pending) int uk_signal_pending(const uk_task_t *t, uint32_t *sigs)
{
    if (!t)
        t = uk__current;
    if (!valid_sig_task(t) || !sigs)
        return UK_EINVAL;
    *sigs = t->sig_pending;
    return UK_OK;
}

/* The tail's last step (lock held, interrupts enabled, on the stack of the task it returns
 * to): run the task's handler for what is pending. */
UK_OTHER_FN(uk__signal_tail) void uk__signal_tail(void)
{
    uk_task_t *t = uk__current;
    if (!t->sig_pending || t->sig_busy || uk__current_hisr || !uk__started ||
        t->magic != UK_TASK_MAGIC)
        return;
    t->sig_busy = 1;
    uint32_t s;
    while ((s = t->sig_pending) != 0 && t->sig_handler) {
        t->sig_pending = 0;
        uk_signal_handler_t fn = t->sig_handler;
        uk__unlock(8);
        fn(s);
        (void)uk__lock();
    }
    t->sig_busy = 0;
}

#endif /* UK_FEATURE_SIGNAL */
