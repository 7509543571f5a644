/* Message queues that copy: fixed-size messages in a ring of slots, or variable-size ones in
 * a byte ring of records (a 4-byte length, then the message padded to 4 bytes). Never
 * overwrites: a full queue makes the sender wait (with a timeout) or refuses.
 *
 * Hand-over: a receiver waiting on an empty queue gets the next message copied straight into
 * its buffer; a receiver that frees room moves the first waiting sender's message into the
 * queue and wakes it. Waiters pass where their data is through t->wait_arg (a pointer to a
 * small descriptor on their own stack, which lives as long as they wait). So messages keep
 * their order, and each is copied once on the way in and once on the way out.
 *
 * From a LISR (which may not touch the queue: a task may be in the middle of changing it) a
 * send copies the message at once into the kernel's staging ring and defers the rest: the
 * tail applies it (into a waiting receiver, or the queue) as soon as the kernel lock is free.
 * The staging ring has one producer (interrupt context, MIE = 0: LISRs do not nest) and one
 * consumer (the tail, in order), like the deferral ring it goes with. A send the staging ring
 * cannot take returns UK_ENOMEM at once; a deferred send that finds the queue full when
 * applied is refused and counted by uk_deferred_failed(). Nothing is dropped unseen. */
#include "kernel.h"

UK_OTHER_FN(uk__copy) void uk__copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; n >= 16; n -= 16, d += 16, s += 16) {
            uint32_t a = ((const uint32_t *)s)[0], b = ((const uint32_t *)s)[1];
            uint32_t c = ((const uint32_t *)s)[2], e = ((const uint32_t *)s)[3];
            ((uint32_t *)d)[0] = a;
            ((uint32_t *)d)[1] = b;
            ((uint32_t *)d)[2] = c;
            ((uint32_t *)d)[3] = e;
        }
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32_t *)d = *(const uint32_t *)s;
    }
    while (n--)
        *d++ = *s++;
}

#ifdef UK_FEATURE_QUEUE

#ifndef UK_QUEUE_STAGE_BYTES
#define UK_QUEUE_STAGE_BYTES 512 /* a power of two */
#endif

typedef struct { /* a waiting sender's message */
    const void *msg;
    uint32_t len;
} tx_t;
typedef struct { /* a waiting receiver's buffer */
    void *buf;
    uint32_t len;
} rx_t;

static UK_IPC_FN(valid_queue) bool valid_queue(const uk_queue_t *q)
{
    return q && q->magic == UK_QUEUE_MAGIC;
}

static inline uint32_t rec_bytes(uint32_t len) { return 4 + ((len + 3) & ~3u); }

/* Byte-ring copies (variable queues): offsets are 4-aligned, records 4-byte multiples. */
static UK_IPC_FN(ring_write) void ring_write(uk_queue_t *q, uint32_t at, const void *src,
                                             uint32_t n)
{
    uint32_t first = q->size - at;
    if (n <= first) {
        uk__copy(q->buf + at, src, n);
    } else {
        uk__copy(q->buf + at, src, first);
        uk__copy(q->buf, (const uint8_t *)src + first, n - first);
    }
}

static UK_IPC_FN(ring_read) void ring_read(uk_queue_t *q, uint32_t at, void *dst, uint32_t n)
{
    uint32_t first = q->size - at;
    if (n <= first) {
        uk__copy(dst, q->buf + at, n);
    } else {
        uk__copy(dst, q->buf + at, first);
        uk__copy((uint8_t *)dst + first, q->buf, n - first);
    }
}

static inline bool has_room(const uk_queue_t *q, uint32_t len)
{
    return q->variable ? q->used + rec_bytes(len) <= q->size : q->count < q->size;
}

static UK_IPC_FN(put) void put(uk_queue_t *q, const void *msg, uint32_t len)
{
    if (!q->variable) {
        uk__copy(q->buf + q->tail, msg, len);
        q->tail += len;
        if (q->tail == q->span)
            q->tail = 0;
    } else {
        uint32_t r = rec_bytes(len);
        *(uint32_t *)(q->buf + q->tail) = len;
        ring_write(q, (q->tail + 4) % q->size, msg, len);
        q->tail = (q->tail + r) % q->size;
        q->used += r;
    }
    q->count++;
}

static UK_IPC_FN(get) uint32_t get(uk_queue_t *q, void *buf)
{
    uint32_t len;
    if (!q->variable) {
        len = q->msg_bytes;
        uk__copy(buf, q->buf + q->head, len);
        q->head += len;
        if (q->head == q->span)
            q->head = 0;
    } else {
        len = *(uint32_t *)(q->buf + q->head);
        ring_read(q, (q->head + 4) % q->size, buf, len);
        uint32_t r = rec_bytes(len);
        q->head = (q->head + r) % q->size;
        q->used -= r;
    }
    q->count--;
    return len;
}

/* The send under the lock, without waiting: 1 if it woke a receiver (the caller
 * reschedules), UK_OK if queued, UK_EAGAIN if there is no room (or senders wait ahead). */
static UK_IPC_FN(send_now) int send_now(uk_queue_t *q, const void *msg, uint32_t len)
{
    uk_task_t *w = uk__waitq_first(&q->receivers);
    if (w) { /* the queue is empty: straight into the receiver's buffer */
        rx_t *rx = (rx_t *)(uintptr_t)w->wait_arg;
        uk__copy(rx->buf, msg, len);
        rx->len = len;
        uk__wake(w, UK_OK);
        return 1;
    }
    if (uk__list_empty(&q->senders) && has_room(q, len)) {
        put(q, msg, len);
        return UK_OK;
    }
    return UK_EAGAIN;
}

/* Waiting senders are admitted in their order: priority, FIFO among equals. So a task whose
 * send_now was refused only because senders wait is first in line if they all have a lower
 * priority, and goes in if its message fits (a LISR's or a HISR's send is behind every
 * waiting task). Off the fast path: only after send_now refused. */
static UK_IPC_FN(send_ahead)
    __attribute__((noinline)) int send_ahead(uk_queue_t *q, const void *msg, uint32_t len)
{
    uk_task_t *w = uk__waitq_first(&q->senders);
    if (!w || uk__current_hisr || w->prio <= uk__current->prio || !has_room(q, len))
        return UK_EAGAIN;
    put(q, msg, len);
    return UK_OK;
}

/* Move the waiting senders' messages in, first come first: 1 if one woke. A sender whose
 * message does not fit yet stops the walk: nobody overtakes it. */
static UK_IPC_FN(admit_senders) __attribute__((noinline)) int admit_senders(uk_queue_t *q)
{
    int r = UK_OK;
    uk_task_t *w;
    while ((w = uk__waitq_first(&q->senders)) != 0) {
        tx_t *tx = (tx_t *)(uintptr_t)w->wait_arg;
        if (!has_room(q, tx->len))
            break;
        put(q, tx->msg, tx->len);
        uk__wake(w, UK_OK);
        r = 1;
    }
    return r;
}

/* A variable queue's waiting sender left the line unserved or moved in it (wait.c): the
 * senders now first in line may fit. The caller reschedules. */
static UK_IPC_FN(sender_left) void sender_left(uk_list_t *senders)
{
    uk_queue_t *q = UK_CONTAINER_OF(senders, uk_queue_t, senders);
    if (valid_queue(q))
        (void)admit_senders(q);
}

/* The receive under the lock, without waiting: 1 if it woke senders, UK_OK, UK_EAGAIN. */
static UK_IPC_FN(recv_now) int recv_now(uk_queue_t *q, void *buf, uint32_t *len)
{
    if (!q->count)
        return UK_EAGAIN;
    *len = get(q, buf);
    return uk__list_empty(&q->senders) ? UK_OK : admit_senders(q);
}

/* ---- The LISR side: the staging ring ------------------------------------------------- */

/* stage_head and stage_tail count bytes from the ring's start, modulo 2^32; a record at
 * position h lies at h % UK_QUEUE_STAGE_BYTES and never wraps (the bytes up to the ring's
 * end are skipped, and released with the record after them). stage_head is written by
 * interrupt context only; stage_tail by the tail, except when the ring is empty: then no
 * record is in flight, the tail will not write it until the next one is deferred, and the
 * producer restarts both at the ring's start, so that an empty ring takes any message up
 * to its size wherever the last one ended. */
static uint8_t stage[UK_QUEUE_STAGE_BYTES] __attribute__((aligned(4)));
static uint32_t stage_head;
static volatile uint32_t stage_tail;

/* Applied by the tail: arg is the record's position in the staging ring. */
static UK_IPC_FN(send_deferred) int send_deferred(void *obj, uint32_t arg)
{
    uint32_t at = arg & (UK_QUEUE_STAGE_BYTES - 1);
    uint32_t len = *(uint32_t *)(stage + at);
    int r = UK_EINVAL;
    if (valid_queue(obj)) {
        r = send_now(obj, stage + at + 4, len);
        if (r > 0)
            r = UK_OK;
    }
    stage_tail = arg + rec_bytes(len); /* released in order: records are applied in order */
    return r;
}

static UK_IPC_FN(send_from_lisr) int send_from_lisr(uk_queue_t *q, const void *msg, uint32_t len)
{
    if (uk__lisr_direct() && uk__list_empty(&q->receivers) && uk__list_empty(&q->senders) &&
        has_room(q, len)) {
        put(q, msg, len); /* nobody to wake: straight in, no staging (uk__lisr_direct) */
        return UK_OK;
    }
    if (stage_head == stage_tail)
        stage_head = stage_tail = 0; /* empty: start over at the ring's start (see above) */
    uint32_t h = stage_head, at = h & (UK_QUEUE_STAGE_BYTES - 1), need = rec_bytes(len);
    uint32_t skip = at + need > UK_QUEUE_STAGE_BYTES ? UK_QUEUE_STAGE_BYTES - at : 0;
    if (UK_QUEUE_STAGE_BYTES - (h - stage_tail) < skip + need)
        return UK_ENOMEM; /* staging full: refused now, the caller knows */
    h += skip; /* a record never wraps: the bytes up to the end are skipped (and released) */
    at = h & (UK_QUEUE_STAGE_BYTES - 1);
    *(uint32_t *)(stage + at) = len;
    uk__copy(stage + at + 4, msg, len);
    int r = uk__defer(send_deferred, q, h);
    if (r == UK_OK)
        stage_head = h + need;
    return r;
}

/* ---- Calls ----------------------------------------------------------------------------- */

static UK_IPC_FN(queue_setup) int queue_setup(uk_queue_t *q, void *buf, uint32_t msg_bytes,
                                              uint32_t size, uint32_t variable)
{
    unsigned key = uk__lock();
    if (q->magic == UK_QUEUE_MAGIC &&
        (!uk__list_empty(&q->senders) || !uk__list_empty(&q->receivers))) {
        uk__unlock(key);
        return UK_ESTATE; /* a live queue with waiters: delete it first */
    }
    q->buf = buf;
    q->msg_bytes = msg_bytes;
    q->size = size;
    q->span = variable ? size : size * msg_bytes;
    q->head = q->tail = q->count = q->used = 0;
    q->variable = variable;
    q->words = !variable && !((uintptr_t)buf & 3) && !(msg_bytes & 3);
    uk__list_init(&q->senders);
    uk__list_init(&q->receivers);
    q->magic = UK_QUEUE_MAGIC;
    uk__unlock(key);
    return UK_OK;
}

UK_IPC_FN(uk_queue_init)
int uk_queue_init(uk_queue_t *q, void *buf, size_t msg_bytes, size_t capacity)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!q || !buf || msg_bytes == 0 || capacity == 0 || msg_bytes > 0xFFFF ||
        capacity > 0xFFFFFF || capacity > 0xFFFFFFFFu / msg_bytes)
        return UK_EINVAL;
    return queue_setup(q, buf, msg_bytes, capacity, 0);
}

UK_IPC_FN(uk_queue_init_var)
int uk_queue_init_var(uk_queue_t *q, void *buf, size_t buf_bytes, size_t max_msg)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!q || !buf || ((uintptr_t)buf & 3) || max_msg == 0 || max_msg > 0xFFFF || (buf_bytes & 3) ||
        buf_bytes < rec_bytes(max_msg) || buf_bytes > 0xFFFFFF)
        return UK_EINVAL;
    return queue_setup(q, buf, max_msg, buf_bytes, 1);
}

/* The send with the lock held (released here): hand over, queue, or wait. */
static UK_IPC_FN(queue_send_locked)
    __attribute__((noinline)) int queue_send_locked(uk_queue_t *q, const void *msg, uint32_t len,
                                                    uk_tick_t timeout, unsigned key)
{
    int r = send_now(q, msg, len);
    if (r == UK_EAGAIN)
        r = send_ahead(q, msg, len);
    if (r > 0) {
        uk__reschedule();
        r = UK_OK;
    } else if (r == UK_EAGAIN && timeout != UK_NO_WAIT) {
        if (uk__current_hisr || !uk__started) {
            r = UK_EPERM;
        } else {
            tx_t tx = {msg, len};
            uk_task_t *self = uk__current;
            self->wait_arg = (uint32_t)(uintptr_t)&tx;
            if (q->variable) /* its message may hold back smaller ones behind it */
                self->wait_leave = sender_left;
            r = uk__wait(&q->senders, q, timeout); /* UK_OK: a receiver queued it */
            self->wait_leave = 0;
        }
    }
    uk__unlock(key);
    return r;
}

static UK_IPC_FN(queue_send) int queue_send(uk_queue_t *q, const void *msg, uint32_t len,
                                            uk_tick_t timeout)
{
    if (UK_IN_LISR())
        return UK_LISR_TIMEOUT(timeout) ? UK_EPERM : send_from_lisr(q, msg, len);
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    return queue_send_locked(q, msg, len, timeout, uk__lock());
}

/* The receive with the lock held (released here): take, admit senders, or wait. */
static UK_IPC_FN(queue_recv_locked)
    __attribute__((noinline)) int queue_recv_locked(uk_queue_t *q, void *buf, uint32_t *len,
                                                    uk_tick_t timeout, unsigned key)
{
    int r = recv_now(q, buf, len);
    if (r > 0) {
        uk__reschedule();
        r = UK_OK;
    } else if (r == UK_EAGAIN && timeout != UK_NO_WAIT) {
        if (uk__current_hisr || !uk__started) {
            r = UK_EPERM;
        } else {
            rx_t rx = {buf, 0};
            uk__current->wait_arg = (uint32_t)(uintptr_t)&rx;
            r = uk__wait(&q->receivers, q, timeout); /* UK_OK: a sender copied into buf */
            *len = rx.len;
        }
    }
    uk__unlock(key);
    return r;
}

static UK_IPC_FN(queue_recv) int queue_recv(uk_queue_t *q, void *buf, uint32_t *len,
                                            uk_tick_t timeout)
{
    if (UK_IN_LISR())
        return UK_EPERM; /* the queue may be in the middle of a task's change */
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    return queue_recv_locked(q, buf, len, timeout, uk__lock());
}

/* A fixed-size message's copy on the fast paths (all 4-aligned, n a multiple of 4). Messages
 * of up to four words, the usual RTOS message, are copied straight (a jump by their size, a
 * load and a store per word: no loop to set up); longer ones four words at a time. */
static inline __attribute__((always_inline)) void copy_words(void *dst, const void *src, uint32_t n)
{
    uint32_t *d = dst;
    const uint32_t *s = src;
    switch (n) {
    case 16: d[3] = s[3]; __attribute__((fallthrough));
    case 12: d[2] = s[2]; __attribute__((fallthrough));
    case 8: d[1] = s[1]; __attribute__((fallthrough));
    case 4: d[0] = s[0]; return;
    default: break;
    }
    for (; n >= 16; n -= 16, d += 4, s += 4) {
        uint32_t a = s[0], b = s[1], c = s[2], e = s[3];
        d[0] = a;
        d[1] = b;
        d[2] = c;
        d[3] = e;
    }
    for (; n; n -= 4)
        *d++ = *s++;
}

/* uk_queue_recv off its fast path (the lock held, released here). */
static UK_IPC_FN(queue_recv_fixed)
    __attribute__((noinline)) int queue_recv_fixed(uk_queue_t *q, void *msg, uk_tick_t timeout,
                                                   unsigned key)
{
    uint32_t len;
    return queue_recv_locked(q, msg, &len, timeout, key);
}

/* Fixed-size send and receive take a fast path when nobody waits on the queue and it has
 * room (send) or a message (receive): the lock, a word copy, two index updates. Anything
 * else (a receiver to hand over to, senders to admit, waiting, a LISR's call) takes the
 * general path. */
UK_IPC_FN(uk_queue_send) int uk_queue_send(uk_queue_t *q, const void *msg, uk_tick_t timeout)
{
    if (!valid_queue(q) || !msg || q->variable)
        return UK_EINVAL;
    uint32_t n = q->msg_bytes;
    if (UK_IN_LISR() || UK_HISR_TIMEOUT(timeout))
        return queue_send(q, msg, n, timeout);
    unsigned key = uk__lock();
    if (__builtin_expect(!uk__list_empty(&q->receivers) || !uk__list_empty(&q->senders) ||
                             q->count == q->size || !q->words || ((uintptr_t)msg & 3),
                         0))
        return queue_send_locked(q, msg, n, timeout, key);
    uint32_t t = q->tail;
    copy_words(q->buf + t, msg, n);
    t += n;
    q->tail = t == q->span ? 0 : t;
    q->count++;
    uk__unlock(key);
    return UK_OK;
}

UK_IPC_FN(uk_queue_recv) int uk_queue_recv(uk_queue_t *q, void *msg, uk_tick_t timeout)
{
    if (!valid_queue(q) || !msg || q->variable)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM; /* the queue may be in the middle of a task's change */
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    if (__builtin_expect(!q->count || !uk__list_empty(&q->senders), 0))
        return queue_recv_fixed(q, msg, timeout, key);
    if (__builtin_expect(!q->words || ((uintptr_t)msg & 3), 0))
        return queue_recv_fixed(q, msg, timeout, key);
    uint32_t n = q->msg_bytes, h = q->head;
    copy_words(msg, q->buf + h, n);
    h += n;
    q->head = h == q->span ? 0 : h;
    q->count--;
    uk__unlock(key);
    return UK_OK;
}

UK_IPC_FN(uk_queue_send_var)
int uk_queue_send_var(uk_queue_t *q, const void *msg, size_t len, uk_tick_t timeout)
{
    if (!valid_queue(q) || (!msg && len) || len > q->msg_bytes ||
        (!q->variable && len != q->msg_bytes))
        return UK_EINVAL;
    return queue_send(q, msg, len, timeout);
}

UK_IPC_FN(uk_queue_recv_var)
int uk_queue_recv_var(uk_queue_t *q, void *msg, size_t buf_bytes, size_t *len, uk_tick_t timeout)
{
    if (!valid_queue(q) || !msg || !len || buf_bytes < q->msg_bytes)
        return UK_EINVAL;
    uint32_t n = 0;
    int r = queue_recv(q, msg, &n, timeout);
    if (r == UK_OK)
        *len = n;
    return r;
}

UK_IPC_FN(uk_queue_count) int uk_queue_count(const uk_queue_t *q, uint32_t *count)
{
    if (!valid_queue(q) || !count)
        return UK_EINVAL;
    *count = q->count;
    return UK_OK;
}

UK_IPC_FN(uk_queue_delete) int uk_queue_delete(uk_queue_t *q)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_queue(q))
        return UK_EINVAL;
    unsigned key = uk__lock();
    q->magic = 0;
    uk__wake_all(&q->senders, UK_EDELETED);
    uk__wake_all(&q->receivers, UK_EDELETED);
    uk__reschedule();
    uk__unlock(key);
    return UK_OK;
}

#endif /* UK_FEATURE_QUEUE */
