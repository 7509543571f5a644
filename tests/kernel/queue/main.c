/* Message queues (fixed and variable size): blocking on both ends, timeouts exact to the
 * tick, waiters woken in priority order (FIFO among equals), messages kept in order (a
 * receiver that frees room takes the first waiting sender's message), deletion under
 * waiters, the error paths. Self-checking, every scheduler (distinct priorities). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
static uk_task_t main_t, w[4];
static uint32_t main_stack[STK], w_stack[4][STK];
static uk_queue_t q, vq;
static uint32_t qbuf[2];
static uint32_t vbuf[UK_QUEUE_VAR_BYTES(40, 3) / 4];
static volatile int order[8], n_order, res[4];
static volatile uint32_t got[4];
static volatile size_t vlen[4];

static void receiver(void *arg)
{
    int id = (int)(uintptr_t)arg;
    uint32_t m = 0;
    res[id] = uk_queue_recv(&q, &m, UK_FOREVER);
    got[id] = m;
    order[n_order++] = id;
}

static void sender(void *arg)
{
    int id = (int)(uintptr_t)arg;
    uint32_t m = 1000 + id;
    res[id] = uk_queue_send(&q, &m, 50);
    order[n_order++] = id;
}

static void var_receiver(void *arg)
{
    int id = (int)(uintptr_t)arg;
    uint8_t b[40];
    size_t n = 0;
    res[id] = uk_queue_recv_var(&vq, b, sizeof b, &n, UK_FOREVER);
    vlen[id] = n;
    got[id] = n ? b[0] | (uint32_t)b[n - 1] << 8 : 0;
    order[n_order++] = id;
}

static void var_sender(void *arg)
{
    int id = (int)(uintptr_t)arg;
    uint8_t b[40];
    for (int i = 0; i < 40; i++)
        b[i] = (uint8_t)(id * 16 + i);
    res[id] = uk_queue_send_var(&vq, b, 30 + id, UK_FOREVER);
    order[n_order++] = id;
}

/* Start tasks with entry fn and ids/priorities, in the order given, and let them block. */
static void start(void (*fn)(void *), int n, const int *ids, const uint8_t *prios)
{
    n_order = 0;
    for (int i = 0; i < n; i++) {
        res[ids[i]] = 99;
        CHECK_EQ(uk_task_create(&w[ids[i]], "w", fn, (void *)(uintptr_t)ids[i], prios[i],
                                w_stack[ids[i]], sizeof w_stack[0]),
                 UK_OK);
        CHECK_EQ(uk_task_activate(&w[ids[i]]), UK_OK);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int i = 0; i < n; i++)
        CHECK_EQ(uk_task_state(&w[ids[i]]), UK_TASK_PENDING + (fn == sender));
}

static void main_task(void *arg)
{
    (void)arg;
    uint32_t m = 0, c = 9;
    /* Errors. */
    CHECK_EQ(uk_queue_init(0, qbuf, 4, 2), UK_EINVAL);
    CHECK_EQ(uk_queue_init(&q, qbuf, 0, 2), UK_EINVAL);
    CHECK_EQ(uk_queue_init(&q, qbuf, 4, 0), UK_EINVAL);
    CHECK_EQ(uk_queue_send(&q, &m, 0), UK_EINVAL); /* not initialised */
    CHECK_EQ(uk_queue_init(&q, qbuf, 4, 2), UK_OK);
    CHECK_EQ(uk_queue_send(&q, 0, 0), UK_EINVAL);
    CHECK_EQ(uk_queue_recv(&q, &m, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_queue_send_var(&q, &m, 3, 0), UK_EINVAL); /* a fixed queue takes its size */

    /* Order and capacity: never overwrites. */
    m = 1;
    CHECK_EQ(uk_queue_send(&q, &m, UK_NO_WAIT), UK_OK);
    m = 2;
    CHECK_EQ(uk_queue_send(&q, &m, UK_NO_WAIT), UK_OK);
    m = 3;
    CHECK_EQ(uk_queue_send(&q, &m, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_queue_count(&q, &c), UK_OK);
    CHECK_EQ(c, 2);

    /* A full queue: the send times out exactly. */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_queue_send(&q, &m, 7), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 7);
    CHECK_EQ(uk_queue_recv(&q, &m, 0), UK_OK);
    CHECK_EQ(m, 1);
    CHECK_EQ(uk_queue_recv(&q, &m, 0), UK_OK);
    CHECK_EQ(m, 2);
    t0 = uk_time();
    CHECK_EQ(uk_queue_recv(&q, &m, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5);

    /* Receivers wake in priority order (they arrived in another order). */
    static const int rid[3] = {2, 0, 1};
    static const uint8_t rprio[3] = {22, 20, 21};
    start(receiver, 3, rid, rprio);
    for (uint32_t k = 0; k < 3; k++) {
        m = 100 + k;
        CHECK_EQ(uk_queue_send(&q, &m, UK_NO_WAIT), UK_OK); /* straight to a waiter */
    }
    CHECK_EQ(uk_queue_count(&q, &c), UK_OK);
    CHECK_EQ(c, 0);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(n_order, 3);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(res[k], UK_OK);
        CHECK_EQ(got[k], 100 + k);
        CHECK_EQ(order[k], k);
    }

    /* Senders blocked on a full queue: their messages enter in priority order. */
    m = 1;
    CHECK_EQ(uk_queue_send(&q, &m, 0), UK_OK);
    m = 2;
    CHECK_EQ(uk_queue_send(&q, &m, 0), UK_OK);
    start(sender, 3, rid, rprio);
    static const uint32_t want[5] = {1, 2, 1000, 1001, 1002};
    for (int k = 0; k < 5; k++) {
        CHECK_EQ(uk_queue_recv(&q, &m, 0), UK_OK);
        CHECK_EQ(m, want[k]);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(res[k], UK_OK);
        CHECK_EQ(order[k], k);
    }

#if !UK_POLICY_UNIQUE_PRIOS
    /* FIFO among equal priorities (not where the policy's priorities are unique). */
    static const uint8_t same[3] = {20, 20, 20};
    start(receiver, 3, rid, same);
    for (uint32_t k = 0; k < 3; k++) {
        m = 200 + k;
        CHECK_EQ(uk_queue_send(&q, &m, 0), UK_OK);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(got[2], 200); /* arrival order: 2, 0, 1 */
    CHECK_EQ(got[0], 201);
    CHECK_EQ(got[1], 202);
#endif

    /* Deleted under waiters: receivers, then senders. */
    start(receiver, 3, rid, rprio);
    CHECK_EQ(uk_queue_delete(&q), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(res[k], UK_EDELETED);
    CHECK_EQ(uk_queue_recv(&q, &m, 0), UK_EINVAL);
    CHECK_EQ(uk_queue_delete(&q), UK_EINVAL);
    CHECK_EQ(uk_queue_init(&q, qbuf, 4, 2), UK_OK);
    m = 1;
    CHECK_EQ(uk_queue_send(&q, &m, 0), UK_OK);
    CHECK_EQ(uk_queue_send(&q, &m, 0), UK_OK);
    start(sender, 3, rid, rprio);
    CHECK_EQ(uk_queue_delete(&q), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(res[k], UK_EDELETED);

    /* Variable-size messages: sizes kept, contents intact across the ring's wrap. */
    CHECK_EQ(uk_queue_init_var(&vq, vbuf, 40, 40), UK_EINVAL); /* no room for one */
    CHECK_EQ(uk_queue_init_var(&vq, vbuf, sizeof vbuf, 40), UK_OK);
    uint8_t b[40], r[40];
    size_t n;
    for (int round = 0; round < 50; round++) {
        size_t len = (size_t)(round * 7) % 41;
        for (size_t i = 0; i < len; i++)
            b[i] = (uint8_t)(round + i);
        CHECK_EQ(uk_queue_send_var(&vq, b, len, 0), UK_OK);
        CHECK_EQ(uk_queue_count(&vq, &c), UK_OK);
        if (c == 2) { /* keep one or two in the queue: the ring wraps */
            CHECK_EQ(uk_queue_recv_var(&vq, r, sizeof r, &n, 0), UK_OK);
            CHECK_EQ(n, (size_t)((round - 1) * 7) % 41);
            for (size_t i = 0; i < n; i++)
                CHECK_EQ(r[i], (uint8_t)(round - 1 + i));
        }
    }
    CHECK_EQ(uk_queue_count(&vq, &c), UK_OK);
    while (c--)
        CHECK_EQ(uk_queue_recv_var(&vq, r, sizeof r, &n, 0), UK_OK);
    for (int round = 0; round < 30; round++) { /* send and receive one at a time: check */
        size_t len = (size_t)(round * 13) % 41;
        for (size_t i = 0; i < len; i++)
            b[i] = (uint8_t)(3 * round + i);
        CHECK_EQ(uk_queue_send_var(&vq, b, len, 0), UK_OK);
        n = 99;
        CHECK_EQ(uk_queue_recv_var(&vq, r, sizeof r, &n, 0), UK_OK);
        CHECK_EQ(n, len);
        for (size_t i = 0; i < len; i++)
            CHECK_EQ(r[i], (uint8_t)(3 * round + i));
    }
    CHECK_EQ(uk_queue_recv_var(&vq, r, 39, &n, 0), UK_EINVAL); /* buffer below the max */
    CHECK_EQ(uk_queue_send_var(&vq, b, 41, 0), UK_EINVAL);
    /* Blocked variable receivers get the message copied straight in; a blocked sender. */
    start(var_receiver, 2, rid + 1, rprio + 1); /* ids 0 (prio 20), 1 (21) */
    for (int i = 0; i < 40; i++)
        b[i] = (uint8_t)(0x40 + i);
    CHECK_EQ(uk_queue_send_var(&vq, b, 5, 0), UK_OK);
    CHECK_EQ(uk_queue_send_var(&vq, b, 40, 0), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(res[0], UK_OK);
    CHECK_EQ(vlen[0], 5);
    CHECK_EQ(got[0], 0x40 | 0x44 << 8);
    CHECK_EQ(vlen[1], 40);
    CHECK_EQ(got[1], 0x40 | (0x40 + 39) << 8);
    /* Fill (3 x 40 bytes), then a sender of 32 bytes waits; one receive lets it in. */
    for (int k = 0; k < 3; k++)
        CHECK_EQ(uk_queue_send_var(&vq, b, 40, 0), UK_OK);
    CHECK_EQ(uk_queue_send_var(&vq, b, 1, 0), UK_EAGAIN);
    static const int sid[1] = {2};
    static const uint8_t sprio[1] = {20};
    start(var_sender, 1, sid, sprio);
    CHECK_EQ(uk_task_state(&w[2]), UK_TASK_PENDING);
    CHECK_EQ(uk_queue_recv_var(&vq, r, sizeof r, &n, 0), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[2], UK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(uk_queue_recv_var(&vq, r, sizeof r, &n, 0), UK_OK);
        CHECK_EQ(n, k < 2 ? 40 : 32);
    }
    CHECK_EQ(r[0], 32);
    CHECK_EQ(r[31], 32 + 31);
    CHECK_EQ(uk_queue_delete(&vq), UK_OK);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
