/* Timeouts across the tick counter's 2^32 wrap: [kernel] tick_start = 4294967286 starts the
 * counter 10 ticks before it wraps to 0. At the start, tasks begin a sleep, a semaphore take
 * with a timeout, a queue receive with a timeout, a mutex lock with a timeout (the mutex is
 * held) and a run of sleep_until periods; three timers start (a one-shot, a cyclic one and
 * one at an absolute tick past the wrap). Every wait straddles the wrap and must end exactly
 * on its tick, with its result. Every scheduler. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define START 4294967286u /* system.toml's tick_start: 2^32 - 10 */

enum { W_SLEEP, W_SEM, W_QUEUE, W_MUTEX, W_COUNT };
static const uk_tick_t wait_ticks[W_COUNT] = {12, 30, 40, 50};

typedef struct {
    uk_task_t t;
    uint32_t stack[256];
    volatile uk_tick_t start, end;
    volatile int result, done;
} waiter_t;

static waiter_t w[W_COUNT];
static uk_task_t main_t, holder, periodic;
static uint32_t main_stack[256], holder_stack[256], periodic_stack[256];
static uk_sem_t sem;
static uk_mutex_t mtx;
static uk_queue_t q;
static uint32_t q_buf[4];
static uk_timer_t one_shot, cyclic, at;
static volatile uk_tick_t cyclic_at[4], one_shot_at, at_at, period_at[6];
static volatile uint32_t n_cyclic, n_period;
static volatile int period_results;

static void on_one_shot(uk_timer_t *tm, void *arg)
{
    (void)tm;
    (void)arg;
    one_shot_at = uk_time();
}

static void on_cyclic(uk_timer_t *tm, void *arg)
{
    (void)tm;
    (void)arg;
    if (n_cyclic < 4)
        cyclic_at[n_cyclic] = uk_time();
    n_cyclic++;
}

static void on_at(uk_timer_t *tm, void *arg)
{
    (void)tm;
    (void)arg;
    at_at = uk_time();
}

static void holder_entry(void *arg)
{
    (void)arg;
    uk_mutex_lock(&mtx, UK_FOREVER);
    uk_task_suspend(0); /* keeps the mutex */
}

static void waiter_entry(void *arg)
{
    waiter_t *x = &w[(uintptr_t)arg];
    uk_tick_t n = wait_ticks[(uintptr_t)arg];
    uint32_t m;
    x->start = uk_time();
    switch ((uintptr_t)arg) {
    case W_SLEEP: x->result = uk_task_sleep(n); break;
    case W_SEM: x->result = uk_sem_take(&sem, n); break;
    case W_QUEUE: x->result = uk_queue_recv(&q, &m, n); break;
    case W_MUTEX: x->result = uk_mutex_lock(&mtx, n); break;
    }
    x->end = uk_time();
    x->done = 1;
}

/* Periods of 7 ticks from START: deadlines START+7 (before the wrap), +14 = 4, +21, ... */
static void periodic_entry(void *arg)
{
    (void)arg;
    uk_tick_t last = START;
    for (int i = 0; i < 6; i++) {
        if (uk_task_sleep_until(&last, 7) != UK_OK)
            period_results++;
        period_at[n_period++] = uk_time();
    }
}

static void main_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_time(), START); /* the first tick is yet to come */
    /* Timers: a one-shot 15 ticks on (tick 5), a cyclic one from +2 every 4 (START+2,
     * START+6, 0, 4), one at the absolute tick 3 (13 ticks on). */
    CHECK_EQ(uk_timer_start(&one_shot, 15, 0), UK_OK);
    CHECK_EQ(uk_timer_start(&cyclic, 2, 4), UK_OK);
    CHECK_EQ(uk_timer_start_at(&at, 3u, 0), UK_OK);
    uk_tick_t left = 0;
    CHECK_EQ(uk_timer_remaining(&at, &left), UK_OK);
    CHECK_EQ(left, 13);
    CHECK_EQ(uk_timer_start_at(&at, START - 1, 0), UK_ETIMEOUT); /* passed */

    uk_task_sleep(60);               /* everything has ended meanwhile */
    CHECK_EQ(uk_time(), START + 60); /* = 50 */
    CHECK_EQ(uk_time(), 50u);
    for (int i = 0; i < W_COUNT; i++) {
        CHECK(w[i].done);
        CHECK_EQ(w[i].start, START);
        CHECK_EQ(w[i].end, START + wait_ticks[i]); /* exact to the tick, across the wrap */
    }
    CHECK_EQ(w[W_SLEEP].result, UK_OK);
    CHECK_EQ(w[W_SEM].result, UK_ETIMEOUT);
    CHECK_EQ(w[W_QUEUE].result, UK_ETIMEOUT);
    CHECK_EQ(w[W_MUTEX].result, UK_ETIMEOUT);
    CHECK_EQ(one_shot_at, 5u);
    CHECK_EQ(at_at, 3u);
    CHECK(n_cyclic >= 4);
    CHECK_EQ(cyclic_at[0], START + 2);
    CHECK_EQ(cyclic_at[1], START + 6);
    CHECK_EQ(cyclic_at[2], 0u);
    CHECK_EQ(cyclic_at[3], 4u);
    CHECK_EQ(n_period, 6);
    CHECK_EQ(period_results, 0);
    for (uint32_t i = 0; i < n_period && i < 6; i++)
        CHECK_EQ(period_at[i], START + 7 * (i + 1));
    bsp_exit((int)check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_time(), START);
    CHECK_EQ(uk_sem_init(&sem, 0, 1), UK_OK);
    CHECK_EQ(uk_mutex_init(&mtx), UK_OK);
    CHECK_EQ(uk_queue_init(&q, q_buf, 4, 4), UK_OK);
    CHECK_EQ(uk_timer_init(&one_shot, on_one_shot, 0), UK_OK);
    CHECK_EQ(uk_timer_init(&cyclic, on_cyclic, 0), UK_OK);
    CHECK_EQ(uk_timer_init(&at, on_at, 0), UK_OK);
    /* The holder first (it must own the mutex before W_MUTEX asks), main last but highest
     * after it, so that the timers start at START too. */
    CHECK_EQ(
        uk_task_create(&holder, "holder", holder_entry, 0, 0, holder_stack, sizeof holder_stack),
        UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_entry, 0, 1, main_stack, sizeof main_stack),
             UK_OK);
    uk_task_activate(&holder);
    uk_task_activate(&main_t);
    for (uintptr_t i = 0; i < W_COUNT; i++) {
        CHECK_EQ(uk_task_create(&w[i].t, "waiter", waiter_entry, (void *)i, (uint8_t)(2 + i),
                                w[i].stack, sizeof w[i].stack),
                 UK_OK);
        uk_task_activate(&w[i].t);
    }
    CHECK_EQ(uk_task_create(&periodic, "periodic", periodic_entry, 0, 10, periodic_stack,
                            sizeof periodic_stack),
             UK_OK);
    uk_task_activate(&periodic);
    uk_start();
    return 99;
}
