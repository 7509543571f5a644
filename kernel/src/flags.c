/* Event flags: a 32-bit set; tasks wait for any or all of some bits, optionally clearing
 * them when satisfied. A set walks the waiters in priority order (FIFO among equals) and
 * wakes each one it satisfies; a waiter's UK_FLAGS_CLEAR takes its bits away before the
 * next waiter is tested, so a clearing waiter consumes its event. O(W) for W waiters. */
#include "kernel.h"

#ifdef UK_FEATURE_FLAGS

typedef struct { /* a waiter's request, on its stack */
    uint32_t bits;
    unsigned mode;
    uint32_t got;
} fw_t;

static UK_IPC_FN(valid_flags) bool valid_flags(const uk_flags_t *f)
{
    return f && f->magic == UK_FLAGS_MAGIC;
}

static inline bool satisfied(uint32_t have, uint32_t want, unsigned mode)
{
    return (mode & UK_FLAGS_ALL) ? (have & want) == want : (have & want) != 0;
}

/* Hand waiter w (satisfied) the bits it waited for, taking them if it clears, and wake it. */
static inline void serve(uk_flags_t *f, uk_task_t *w)
{
    fw_t *fw = (fw_t *)(uintptr_t)w->wait_arg;
    fw->got = f->bits;
    if (fw->mode & UK_FLAGS_CLEAR)
        f->bits &= ~fw->bits;
    uk__wake(w, UK_OK);
}

/* Set bits under the lock: 1 if a waiter woke (the caller reschedules), else UK_OK. */
static UK_IPC_FN(flags_set_locked) int flags_set_locked(void *obj, uint32_t bits)
{
    uk_flags_t *f = obj;
    if (!valid_flags(f))
        return UK_EINVAL;
    f->bits |= bits;
    int r = UK_OK;
#if UK_WAITQ_PRIO_ORDERED
    uk_list_t *n = f->waiters.next;
    while (n != &f->waiters) {
        uk_task_t *w = UK_CONTAINER_OF(n, uk_task_t, wait_node);
        n = n->next;
        fw_t *fw = (fw_t *)(uintptr_t)w->wait_arg;
        if (satisfied(f->bits, fw->bits, fw->mode)) {
            serve(f, w);
            r = 1;
        }
    }
#else
    /* The queue is in arrival order (the back end answers who is first): serve the satisfied
     * waiters highest priority first, as the ordered queue does, since a clearing waiter takes
     * the bits from the ones behind it. */
    for (;;) {
        uk_task_t *best = 0;
        for (uk_list_t *n = f->waiters.next; n != &f->waiters; n = n->next) {
            uk_task_t *w = UK_CONTAINER_OF(n, uk_task_t, wait_node);
            fw_t *fw = (fw_t *)(uintptr_t)w->wait_arg;
            if (satisfied(f->bits, fw->bits, fw->mode) && (!best || w->prio < best->prio))
                best = w;
        }
        if (!best)
            break;
        serve(f, best);
        r = 1;
    }
#endif
    return r;
}

/* For timers (timer.c): set under the lock, no switch; < 0 if f is no longer valid. */
UK_IPC_FN(uk__flags_set_locked) int uk__flags_set_locked(uk_flags_t *f, uint32_t bits)
{
    return flags_set_locked(f, bits);
}

static UK_IPC_FN(flags_set_deferred) int flags_set_deferred(void *obj, uint32_t bits)
{
    int r = flags_set_locked(obj, bits);
    return r > 0 ? UK_OK : r;
}

UK_IPC_FN(uk_flags_init) int uk_flags_init(uk_flags_t *f)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!f)
        return UK_EINVAL;
    unsigned key = uk__lock();
    int r = UK_OK;
    if (f->magic == UK_FLAGS_MAGIC && !uk__list_empty(&f->waiters)) {
        r = UK_ESTATE;
    } else {
        f->bits = 0;
        uk__list_init(&f->waiters);
        f->magic = UK_FLAGS_MAGIC;
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_flags_set) int uk_flags_set(uk_flags_t *f, uint32_t bits)
{
    if (!valid_flags(f))
        return UK_EINVAL;
    if (UK_IN_LISR()) {
        if (uk__lisr_direct() && uk__list_empty(&f->waiters)) {
            f->bits |= bits; /* nobody waits: nothing to wake (uk__lisr_direct) */
            return UK_OK;
        }
        return uk__defer(flags_set_deferred, f, bits);
    }
    unsigned key = uk__lock();
    int r = flags_set_locked(f, bits);
    if (r > 0) {
        uk__reschedule();
        r = UK_OK;
    }
    uk__unlock(key);
    return r;
}

static UK_IPC_FN(flags_clear_deferred) int flags_clear_deferred(void *obj, uint32_t bits)
{
    uk_flags_t *f = obj;
    if (!valid_flags(f))
        return UK_EINVAL;
    f->bits &= ~bits;
    return UK_OK;
}

UK_IPC_FN(uk_flags_clear) int uk_flags_clear(uk_flags_t *f, uint32_t bits)
{
    if (!valid_flags(f))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return uk__defer(flags_clear_deferred, f, bits);
    unsigned key = uk__lock();
    int r = flags_clear_deferred(f, bits);
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_flags_get) int uk_flags_get(const uk_flags_t *f, uint32_t *bits)
{
    if (!valid_flags(f) || !bits)
        return UK_EINVAL;
    *bits = f->bits;
    return UK_OK;
}

UK_IPC_FN(uk_flags_wait)
int uk_flags_wait(uk_flags_t *f, uint32_t bits, unsigned mode, uint32_t *got, uk_tick_t timeout)
{
    unsigned kind = mode & (UK_FLAGS_ANY | UK_FLAGS_ALL);
    if (!valid_flags(f) || bits == 0 || (kind != UK_FLAGS_ANY && kind != UK_FLAGS_ALL) ||
        (mode & ~(UK_FLAGS_ANY | UK_FLAGS_ALL | UK_FLAGS_CLEAR)))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    int r = UK_OK;
    uint32_t have = f->bits;
    if (satisfied(have, bits, mode)) {
        if (mode & UK_FLAGS_CLEAR)
            f->bits &= ~bits;
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else if (uk__current_hisr || !uk__started) {
        r = UK_EPERM;
    } else {
        fw_t fw = {bits, mode, 0};
        uk__current->wait_arg = (uint32_t)(uintptr_t)&fw;
        r = uk__wait(&f->waiters, f, timeout);
        have = fw.got;
    }
    if (got && (r == UK_OK || r == UK_EAGAIN))
        *got = r == UK_OK ? have : f->bits;
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_flags_delete) int uk_flags_delete(uk_flags_t *f)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_flags(f))
        return UK_EINVAL;
    unsigned key = uk__lock();
    f->magic = 0;
    uk__wake_all(&f->waiters, UK_EDELETED);
    uk__reschedule();
    uk__unlock(key);
    return UK_OK;
}

#endif /* UK_FEATURE_FLAGS */
