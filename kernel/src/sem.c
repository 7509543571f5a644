/* Semaphores: counting (max > 1) and binary (max == 1), with timeouts; waiters wake in
 * priority order, FIFO among equals. */
#include "kernel.h"

#ifdef UK_FEATURE_SEM /* the whole file: [kernel] features in system.toml */

static UK_IPC_FN(valid_sem) bool valid_sem(const uk_sem_t *s)
{
    return s && s->magic == UK_SEM_MAGIC;
}

UK_IPC_FN(uk_sem_init) int uk_sem_init(uk_sem_t *s, uint32_t initial, uint32_t max)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!s || max == 0 || initial > max)
        return UK_EINVAL;
    if (s->magic == UK_SEM_MAGIC && !uk__list_empty(&s->waiters))
        return UK_ESTATE; /* a live semaphore with waiters: delete it first */
    s->count = initial;
    s->max = max;
    uk__list_init(&s->waiters);
    s->magic = UK_SEM_MAGIC;
    return UK_OK;
}

UK_IPC_FN(uk_sem_take) int uk_sem_take(uk_sem_t *s, uk_tick_t timeout)
{
    if (!valid_sem(s))
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    int r;
    if (s->count) {
        s->count--;
        r = UK_OK;
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else if (UK_IN_ISR() || !uk__started) {
        r = UK_EPERM;
    } else {
        r = uk__wait(&s->waiters, s, timeout);
    }
    uk_irq_restore(key);
    return r;
}

/* Callable from a LISR or HISR. */
UK_IPC_FN(uk_sem_give) int uk_sem_give(uk_sem_t *s)
{
    if (!valid_sem(s))
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    int r = UK_OK;
    uk_task_t *w = uk__waitq_first(&s->waiters);
    if (w) {
        uk__wake(w, UK_OK); /* the count passes straight to the waiter */
        uk__reschedule();
    } else if (s->count < s->max) {
        s->count++;
    } else {
        r = UK_ENOMEM; /* never silently lost: the caller learns the give did not count */
    }
    uk_irq_restore(key);
    return r;
}

UK_IPC_FN(uk_sem_delete) int uk_sem_delete(uk_sem_t *s)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_sem(s))
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    s->magic = 0;
    uk__wake_all(&s->waiters, UK_EDELETED);
    uk__reschedule();
    uk_irq_restore(key);
    return UK_OK;
}

UK_IPC_FN(uk_sem_count) int uk_sem_count(const uk_sem_t *s, uint32_t *count)
{
    if (!valid_sem(s) || !count)
        return UK_EINVAL;
    *count = s->count;
    return UK_OK;
}

#endif /* UK_FEATURE_SEM */
