/* Message ports: a ring of pointers. Only the pointer moves (no copy), so a send+receive
 * costs the same whatever the message's size. Waiters as for queues (queue.c): a waiting
 * receiver is handed the pointer directly, a receiver that frees a slot takes the first
 * waiting sender's pointer. From a LISR the pointer itself travels in the deferred call. */
#include "kernel.h"

#ifdef UK_FEATURE_PORT

static UK_IPC_FN(valid_port) bool valid_port(const uk_port_t *p)
{
    return p && p->magic == UK_PORT_MAGIC;
}

/* 1: woke a receiver; UK_OK: queued; UK_EAGAIN: full. Lock held. */
static UK_IPC_FN(port_send_now) int port_send_now(uk_port_t *p, void *msg)
{
    uk_task_t *w = uk__waitq_first(&p->receivers);
    if (w) {
        w->wait_arg = (uint32_t)(uintptr_t)msg;
        uk__wake(w, UK_OK);
        return 1;
    }
    if (p->count == p->capacity)
        return UK_EAGAIN;
    uint32_t at = p->head + p->count;
    if (at >= p->capacity)
        at -= p->capacity;
    p->slots[at] = msg;
    p->count++;
    return UK_OK;
}

static UK_IPC_FN(port_send_deferred) int port_send_deferred(void *obj, uint32_t arg)
{
    if (!valid_port(obj))
        return UK_EINVAL;
    int r = port_send_now(obj, (void *)(uintptr_t)arg);
    return r > 0 ? UK_OK : r;
}

UK_IPC_FN(uk_port_init) int uk_port_init(uk_port_t *p, void **slots, size_t capacity)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!p || !slots || capacity == 0 || capacity > 0xFFFFFF)
        return UK_EINVAL;
    unsigned key = uk__lock();
    int r = UK_OK;
    if (p->magic == UK_PORT_MAGIC &&
        (!uk__list_empty(&p->senders) || !uk__list_empty(&p->receivers))) {
        r = UK_ESTATE;
    } else {
        p->slots = slots;
        p->capacity = capacity;
        p->head = p->count = 0;
        uk__list_init(&p->senders);
        uk__list_init(&p->receivers);
        p->magic = UK_PORT_MAGIC;
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_port_send) int uk_port_send(uk_port_t *p, void *msg, uk_tick_t timeout)
{
    if (!valid_port(p))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_LISR_TIMEOUT(timeout)
                   ? UK_EPERM
                   : uk__defer(port_send_deferred, p, (uint32_t)(uintptr_t)msg);
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    int r = UK_EAGAIN;
    if (uk__list_empty(&p->senders))
        r = port_send_now(p, msg);
    if (r > 0) {
        uk__reschedule();
        r = UK_OK;
    } else if (r == UK_EAGAIN && timeout != UK_NO_WAIT) {
        if (uk__current_hisr || !uk__started) {
            r = UK_EPERM;
        } else {
            uk__current->wait_arg = (uint32_t)(uintptr_t)msg;
            r = uk__wait(&p->senders, p, timeout);
        }
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_port_recv) int uk_port_recv(uk_port_t *p, void **msg, uk_tick_t timeout)
{
    if (!valid_port(p) || !msg)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    int r = UK_OK;
    if (p->count) {
        *msg = p->slots[p->head];
        if (++p->head == p->capacity)
            p->head = 0;
        p->count--;
        uk_task_t *w = uk__waitq_first(&p->senders);
        if (w) { /* room again: the first waiting sender's pointer goes in */
            port_send_now(p, (void *)(uintptr_t)w->wait_arg);
            uk__wake(w, UK_OK);
            uk__reschedule();
        }
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else if (uk__current_hisr || !uk__started) {
        r = UK_EPERM;
    } else {
        r = uk__wait(&p->receivers, p, timeout);
        if (r == UK_OK)
            *msg = (void *)(uintptr_t)uk__current->wait_arg;
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_port_count) int uk_port_count(const uk_port_t *p, uint32_t *count)
{
    if (!valid_port(p) || !count)
        return UK_EINVAL;
    *count = p->count;
    return UK_OK;
}

UK_IPC_FN(uk_port_delete) int uk_port_delete(uk_port_t *p)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_port(p))
        return UK_EINVAL;
    unsigned key = uk__lock();
    p->magic = 0;
    uk__wake_all(&p->senders, UK_EDELETED);
    uk__wake_all(&p->receivers, UK_EDELETED);
    uk__reschedule();
    uk__unlock(key);
    return UK_OK;
}

#endif /* UK_FEATURE_PORT */
