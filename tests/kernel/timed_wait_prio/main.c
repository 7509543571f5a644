/* A timed wait keeps its timeout when the waiter's priority changes while it waits: the
 * wait ends with UK_ETIMEOUT at the very tick it was due. For each kind of wait (a semaphore,
 * a queue's receive and send, event flags, a pool, a mutex) the waiter's priority is changed
 * two ticks in, by uk_task_set_prio and by inheritance (a higher task blocks on a mutex the
 * waiter owns); then in the middle of a chain of mutexes, whose owner must give back the
 * priority lent through the chain when the middle waiter times out; and in a deadlock cycle
 * of two mutexes, which the first timeout breaks. Under rtm the change
 * used to rewrite the waiter's RTM record without its delay: the wait never ended. Unique
 * priorities throughout (bitmap, rtm). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum { K_SEM, K_RECV, K_SEND, K_FLAGS, K_POOL, K_MUTEX, K_COUNT };
enum { BY_SET_PRIO, BY_INHERIT };

#define TIMEOUT 10
#define STK 256
static uk_task_t ctl, w, h, o;
static uint32_t ctl_stack[STK], w_stack[STK], h_stack[STK], o_stack[STK];
static uk_sem_t sem, o_sem;
static uk_queue_t q_empty, q_full;
static uint32_t q_empty_buf[2], q_full_buf[1];
static uk_flags_t flags;
static uk_pool_t pool;
static uint32_t pool_buf[8];
static uk_mutex_t held, lent, m1, m2;
static volatile int w_result, w_done;
static volatile uk_tick_t w_took;

static int wait_on(int kind)
{
    uint32_t v = 0, got;
    void *blk;
    switch (kind) {
    case K_SEM: return uk_sem_take(&sem, TIMEOUT);
    case K_RECV: return uk_queue_recv(&q_empty, &v, TIMEOUT);
    case K_SEND: return uk_queue_send(&q_full, &v, TIMEOUT);
    case K_FLAGS: return uk_flags_wait(&flags, 1, UK_FLAGS_ANY, &got, TIMEOUT);
    case K_POOL: return uk_pool_alloc(&pool, &blk, TIMEOUT);
    default: return uk_mutex_lock(&held, TIMEOUT); /* held by ctl */
    }
}

/* The waiter (3, above ctl's 10): owns `lent` (for inheritance), then waits. */
static void w_entry(void *arg)
{
    int kind = (int)(intptr_t)arg;
    CHECK_EQ(uk_mutex_lock(&lent, UK_NO_WAIT), UK_OK);
    uk_tick_t t0 = uk_time();
    w_result = wait_on(kind);
    w_took = uk_time() - t0;
    CHECK_EQ(uk_mutex_unlock(&lent), UK_OK); /* H, if it waits, gets it now */
    w_done = 1;
}

/* The higher task (1): blocks on `lent`, lending W its priority. */
static void h_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&lent, 3 * TIMEOUT), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&lent), UK_OK);
}

static void run_case(int kind, int how)
{
    w_done = 0;
    w_result = 99;
    CHECK_EQ(uk_task_create(&w, "W", w_entry, (void *)(intptr_t)kind, 3, w_stack, sizeof w_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&w), UK_OK); /* W runs and waits */
    CHECK_EQ(uk_task_state(&w), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    if (how == BY_SET_PRIO) {
        CHECK_EQ(uk_task_set_prio(&w, 4), UK_OK);
        CHECK_EQ(uk_task_prio(&w), 4);
    } else {
        CHECK_EQ(uk_task_create(&h, "H", h_entry, 0, 1, h_stack, sizeof h_stack), UK_OK);
        CHECK_EQ(uk_task_activate(&h), UK_OK); /* H waits on `lent`: W inherits 1 */
        CHECK_EQ(uk_task_prio(&w), 1);
    }
    CHECK_EQ(uk_task_state(&w), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_task_sleep(2 * TIMEOUT), UK_OK);
    if (!w_done) {
        bsp_printf("kind %d, how %d: the wait never ended\n", kind, how);
        CHECK(0);
        CHECK_EQ(uk_task_delete(&w), UK_OK);
        if (how == BY_INHERIT)
            CHECK_EQ(uk_task_delete(&h), UK_OK);
        (void)uk_mutex_init(&lent);
        return;
    }
    CHECK_EQ(w_result, UK_ETIMEOUT);
    CHECK_EQ(w_took, TIMEOUT); /* exact to the tick */
    CHECK_EQ(uk_task_state(&w), UK_TASK_DELETED);
    if (how == BY_INHERIT)
        CHECK_EQ(uk_task_state(&h), UK_TASK_DELETED); /* got `lent`, ran, ended */
    CHECK_EQ(uk_task_prio(&ctl), 10);                 /* no priority left lent (the mutex case) */
}

/* The chain: O (8) owns m2 and waits for a give; W (3) owns m1 and waits on m2 with a
 * timeout (O inherits 3); H (1) blocks on m1 (W inherits 1, and through m2 so does O). When
 * W times out, O is back to 8 and H gets m1. */
static void o_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_sem_take(&o_sem, UK_FOREVER), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
}

static void w_chain(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m1, UK_NO_WAIT), UK_OK);
    uk_tick_t t0 = uk_time();
    w_result = uk_mutex_lock(&m2, TIMEOUT);
    w_took = uk_time() - t0;
    CHECK_EQ(uk_mutex_unlock(&m1), UK_OK);
    w_done = 1;
}

static void h_chain(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m1, 3 * TIMEOUT), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m1), UK_OK);
}

static void chain_case(void)
{
    w_done = 0;
    CHECK_EQ(uk_task_create(&o, "O", o_entry, 0, 8, o_stack, sizeof o_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&o), UK_OK);
    CHECK_EQ(uk_task_create(&w, "W", w_chain, 0, 3, w_stack, sizeof w_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&w), UK_OK);
    CHECK_EQ(uk_task_prio(&o), 3);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_create(&h, "H", h_chain, 0, 1, h_stack, sizeof h_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&h), UK_OK);
    CHECK_EQ(uk_task_prio(&w), 1);
    CHECK_EQ(uk_task_prio(&o), 1);
    CHECK_EQ(uk_task_sleep(2 * TIMEOUT), UK_OK);
    CHECK(w_done);
    CHECK_EQ(w_result, UK_ETIMEOUT);
    CHECK_EQ(w_took, TIMEOUT);
    CHECK_EQ(uk_task_prio(&o), 8); /* the lent priority given back */
    CHECK_EQ(uk_task_state(&h), UK_TASK_DELETED);
    CHECK_EQ(uk_sem_give(&o_sem), UK_OK);
    CHECK_EQ(uk_task_state(&o), UK_TASK_DELETED);
    if (!w_done) {
        (void)uk_task_delete(&w);
        (void)uk_task_delete(&h);
    }
}

/* A deadlock cycle, broken by a timeout: A (3) holds m1 and waits on m2 (timeout 10); B (2)
 * holds m2 and, a tick later, waits on m1 (timeout 10), lending A its 2. A times out first,
 * at its very tick, and hands m1 to B; both end at their base priorities. */
static volatile int a_result, b_result;
static volatile uk_tick_t a_took;

static void a_cycle(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m1, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    a_result = uk_mutex_lock(&m2, TIMEOUT);
    a_took = uk_time() - t0;
    if (a_result == UK_OK)
        CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m1), UK_OK);
}

static void b_cycle(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    b_result = uk_mutex_lock(&m1, TIMEOUT); /* A waits on m2, held here: a cycle */
    if (b_result == UK_OK)
        CHECK_EQ(uk_mutex_unlock(&m1), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
}

static void cycle_case(void)
{
    a_result = b_result = 99;
    CHECK_EQ(uk_task_create(&w, "A", a_cycle, 0, 3, w_stack, sizeof w_stack), UK_OK);
    CHECK_EQ(uk_task_create(&h, "B", b_cycle, 0, 2, h_stack, sizeof h_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&w), UK_OK);
    CHECK_EQ(uk_task_activate(&h), UK_OK);
    CHECK_EQ(uk_task_sleep(4), UK_OK);
    CHECK_EQ(uk_task_prio(&w), 2); /* lent by B through the cycle */
    CHECK_EQ(uk_task_sleep(2 * TIMEOUT), UK_OK);
    CHECK_EQ(a_result, UK_ETIMEOUT);
    CHECK_EQ(a_took, TIMEOUT);
    CHECK_EQ(b_result, UK_OK);
    CHECK_EQ(uk_task_state(&w), UK_TASK_DELETED);
    CHECK_EQ(uk_task_state(&h), UK_TASK_DELETED);
    CHECK(m1.owner == 0 && m2.owner == 0);
}

static void ctl_entry(void *arg)
{
    (void)arg;
    uint32_t one = 1;
    CHECK_EQ(uk_queue_send(&q_full, &one, UK_NO_WAIT), UK_OK);
    void *blk;
    for (int i = 0; i < 4; i++)
        CHECK_EQ(uk_pool_alloc(&pool, &blk, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_lock(&held, UK_NO_WAIT), UK_OK);
    for (int how = BY_SET_PRIO; how <= BY_INHERIT; how++)
        for (int kind = 0; kind < K_COUNT; kind++)
            run_case(kind, how);
    CHECK_EQ(uk_mutex_unlock(&held), UK_OK);
    chain_case();
    cycle_case();
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&sem, 0, 1), UK_OK);
    CHECK_EQ(uk_sem_init(&o_sem, 0, 1), UK_OK);
    CHECK_EQ(uk_queue_init(&q_empty, q_empty_buf, 4, 2), UK_OK);
    CHECK_EQ(uk_queue_init(&q_full, q_full_buf, 4, 1), UK_OK);
    CHECK_EQ(uk_flags_init(&flags), UK_OK);
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 8, 4), UK_OK);
    CHECK_EQ(uk_mutex_init(&held), UK_OK);
    CHECK_EQ(uk_mutex_init(&lent), UK_OK);
    CHECK_EQ(uk_mutex_init(&m1), UK_OK);
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_task_create(&ctl, "ctl", ctl_entry, 0, 10, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
