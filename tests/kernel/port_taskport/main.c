/* Message ports (pointers, no copy) and task ports (one synchronous message per task, in
 * its TCB): blocking both ways, exact timeouts, priority order of waiters, deletion under
 * waiters (a port deleted; a receiver task deleted under its task-port senders), errors.
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
static uk_task_t main_t, w[3];
static uint32_t main_stack[STK], w_stack[3][STK];
static uk_port_t p;
static void *slots[2];
static volatile int order[8], n_order, res[3];
static void *volatile got[3];
static volatile uint32_t tp_got[3];
static int objs[8];

static void receiver(void *arg)
{
    int id = (int)(uintptr_t)arg;
    void *m = 0;
    res[id] = uk_port_recv(&p, &m, UK_FOREVER);
    got[id] = m;
    order[n_order++] = id;
}

static void sender(void *arg)
{
    int id = (int)(uintptr_t)arg;
    res[id] = uk_port_send(&p, &objs[4 + id], UK_FOREVER);
    order[n_order++] = id;
}

static void tp_sender(void *arg) /* to main */
{
    int id = (int)(uintptr_t)arg;
    res[id] = uk_taskport_send(&main_t, 500 + id, UK_FOREVER);
    order[n_order++] = id;
}

static void tp_sender_to_w0(void *arg)
{
    int id = (int)(uintptr_t)arg;
    res[id] = uk_taskport_send(&w[0], 600 + id, UK_FOREVER);
    order[n_order++] = id;
}

static void tp_receiver(void *arg)
{
    int id = (int)(uintptr_t)arg;
    uint32_t m = 0;
    res[id] = uk_taskport_recv(&m, UK_FOREVER);
    tp_got[id] = m;
    order[n_order++] = id;
    uk_task_sleep(1000);
}

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
}

static const int rid[3] = {2, 0, 1};
static const uint8_t rprio[3] = {22, 20, 21};

static void main_task(void *arg)
{
    (void)arg;
    void *m = 0;
    uint32_t c = 9, v = 0;
    /* ---- Ports. */
    CHECK_EQ(uk_port_init(&p, slots, 0), UK_EINVAL);
    CHECK_EQ(uk_port_send(&p, &objs[0], 0), UK_EINVAL);
    CHECK_EQ(uk_port_init(&p, slots, 2), UK_OK);
    CHECK_EQ(uk_port_recv(&p, 0, 0), UK_EINVAL);
    CHECK_EQ(uk_port_recv(&p, &m, 0), UK_EAGAIN);
    CHECK_EQ(uk_port_send(&p, &objs[0], 0), UK_OK);
    CHECK_EQ(uk_port_send(&p, &objs[1], 0), UK_OK);
    CHECK_EQ(uk_port_send(&p, &objs[2], 0), UK_EAGAIN);
    CHECK_EQ(uk_port_count(&p, &c), UK_OK);
    CHECK_EQ(c, 2);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_port_send(&p, &objs[2], 4), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 4);
    CHECK_EQ(uk_port_recv(&p, &m, 0), UK_OK);
    CHECK(m == &objs[0]); /* the pointer itself */
    CHECK_EQ(uk_port_recv(&p, &m, 0), UK_OK);
    CHECK(m == &objs[1]);
    t0 = uk_time();
    CHECK_EQ(uk_port_recv(&p, &m, 6), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 6);
    start(receiver, 3, rid, rprio);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(uk_port_send(&p, &objs[k], 0), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(res[k], UK_OK);
        CHECK(got[k] == &objs[k]);
        CHECK_EQ(order[k], k);
    }
    CHECK_EQ(uk_port_send(&p, &objs[0], 0), UK_OK);
    CHECK_EQ(uk_port_send(&p, &objs[1], 0), UK_OK);
    start(sender, 3, rid, rprio);
    static const int want[5] = {0, 1, 4, 5, 6};
    for (int k = 0; k < 5; k++) {
        CHECK_EQ(uk_port_recv(&p, &m, 0), UK_OK);
        CHECK(m == &objs[want[k]]);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(res[k], UK_OK);
    start(receiver, 3, rid, rprio);
    CHECK_EQ(uk_port_delete(&p), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(res[k], UK_EDELETED);
    CHECK_EQ(uk_port_recv(&p, &m, 0), UK_EINVAL);

    /* ---- Task ports. */
    CHECK_EQ(uk_taskport_recv(0, 0), UK_EINVAL);
    CHECK_EQ(uk_taskport_recv(&v, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_taskport_send(0, 1, 0), UK_EINVAL);
    CHECK_EQ(uk_taskport_send(&main_t, 1, 0), UK_EINVAL); /* to oneself */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    t0 = uk_time();
    CHECK_EQ(uk_taskport_recv(&v, 3), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 3);
    /* Senders wait (a rendezvous) and are received in priority order. */
    start(tp_sender, 3, rid, rprio);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(uk_task_state(&w[k]), UK_TASK_PENDING);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(uk_taskport_recv(&v, 0), UK_OK);
        CHECK_EQ(v, 500 + k);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(res[k], UK_OK);
        CHECK_EQ(order[k], k);
    }
    /* A receiver waiting: the send hands over at once; UK_NO_WAIT to a busy task. */
    static const int one[1] = {0};
    static const uint8_t p20[1] = {20};
    start(tp_receiver, 1, one, p20);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_PENDING);
    CHECK_EQ(uk_taskport_send(&w[0], 77, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[0], UK_OK);
    CHECK_EQ(tp_got[0], 77);
    CHECK_EQ(uk_taskport_send(&w[0], 78, UK_NO_WAIT), UK_EAGAIN); /* sleeping, not receiving */
    t0 = uk_time();
    CHECK_EQ(uk_taskport_send(&w[0], 78, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5);
    /* The receiver deleted under its senders: UK_EDELETED. */
    static const int two[2] = {1, 2};
    static const uint8_t p2[2] = {21, 22};
    start(tp_sender_to_w0, 2, two, p2);
    CHECK_EQ(uk_task_delete(&w[0]), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(res[1], UK_EDELETED);
    CHECK_EQ(res[2], UK_EDELETED);
    CHECK_EQ(uk_taskport_send(&w[0], 1, 0), UK_EINVAL);
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
