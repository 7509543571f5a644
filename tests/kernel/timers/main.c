/* Timers: one-shot and cyclic, relative and absolute, expiry exact to the tick for each
 * action (a function in the timer HISR, a task made ready, event flags set), stop and
 * restart, remaining ticks, expiry and overrun counters, many timers on the delta list.
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
static uk_task_t main_t, periodic;
static uint32_t main_stack[STK], periodic_stack[STK];
static uk_timer_t t1, t2, t3, tt, tf, many[6];
static uk_sem_t s;
static uk_flags_t f;
static volatile uk_tick_t at[16], many_at[6];
static volatile int n_at, in_hisr, runs;
static volatile uk_tick_t run_at[8];

static void record(uk_timer_t *tm, void *arg)
{
    (void)tm;
    (void)arg;
    if (n_at < 16)
        at[n_at++] = uk_time();
    in_hisr = uk_in_isr();
    uk_sem_give(&s);
}

static void record_many(uk_timer_t *tm, void *arg)
{
    (void)tm;
    many_at[(int)(uintptr_t)arg] = uk_time();
}

static void periodic_entry(void *arg)
{
    (void)arg;
    for (;;) {
        if (runs < 8)
            run_at[runs] = uk_time();
        runs++;
        uk_task_suspend(0); /* the timer resumes it */
    }
}

static void main_task(void *arg)
{
    (void)arg;
    uk_tick_t r = 0;
    CHECK_EQ(uk_timer_start(&t1, 1, 0), UK_EINVAL); /* not initialised */
    CHECK_EQ(uk_timer_init(&t1, 0, 0), UK_EINVAL);
    CHECK_EQ(uk_timer_init(&t1, record, 0), UK_OK);
    CHECK_EQ(uk_timer_start(&t1, 0, 0), UK_EINVAL);
    CHECK_EQ(uk_timer_stop(&t1), UK_ESTATE); /* not running */
    CHECK_EQ(uk_timer_remaining(&t1, &r), UK_ESTATE);

    /* One-shot: the function runs in the timer HISR in the tick of the expiry. */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_timer_start(&t1, 5, 0), UK_OK);
    CHECK_EQ(uk_timer_remaining(&t1, &r), UK_OK);
    CHECK_EQ(r, 5);
    CHECK_EQ(uk_sem_take(&s, 100), UK_OK);
    CHECK_EQ(uk_time(), t0 + 5);
    CHECK_EQ(n_at, 1);
    CHECK_EQ(at[0], t0 + 5);
    CHECK_EQ(in_hisr, 1);
    CHECK_EQ(uk_sem_take(&s, 10), UK_ETIMEOUT); /* once */

    /* Cyclic, first after 2 then every 3; stopped after 5 expiries. */
    n_at = 0;
    t0 = uk_time();
    CHECK_EQ(uk_timer_start(&t1, 2, 3), UK_OK);
    for (int k = 0; k < 5; k++)
        CHECK_EQ(uk_sem_take(&s, 100), UK_OK);
    CHECK_EQ(uk_timer_stop(&t1), UK_OK);
    for (int k = 0; k < 5; k++)
        CHECK_EQ(at[k], t0 + 2 + 3 * k);
    CHECK_EQ(uk_sem_take(&s, 10), UK_ETIMEOUT);
    uint32_t ex = 0, ov = 9;
    CHECK_EQ(uk_timer_expiries(&t1, &ex, &ov), UK_OK);
    CHECK_EQ(ex, 6);
    CHECK_EQ(ov, 0);

    /* Absolute start; a time already passed is refused. */
    n_at = 0;
    t0 = uk_time();
    CHECK_EQ(uk_timer_start_at(&t1, t0, 0), UK_ETIMEOUT);
    CHECK_EQ(uk_timer_start_at(&t1, t0 - 5, 0), UK_ETIMEOUT);
    CHECK_EQ(uk_timer_start_at(&t1, t0 + 12, 0), UK_OK);
    CHECK_EQ(uk_sem_take(&s, 100), UK_OK);
    CHECK_EQ(at[0], t0 + 12);
    /* Restart moves the expiry; stop before expiry: nothing runs. */
    n_at = 0;
    t0 = uk_time();
    CHECK_EQ(uk_timer_start(&t1, 4, 0), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_timer_start(&t1, 4, 0), UK_OK); /* restart: t0 + 6 */
    CHECK_EQ(uk_sem_take(&s, 100), UK_OK);
    CHECK_EQ(at[0], t0 + 6);
    CHECK_EQ(uk_timer_start(&t1, 3, 0), UK_OK);
    CHECK_EQ(uk_timer_stop(&t1), UK_OK);
    CHECK_EQ(uk_sem_take(&s, 10), UK_ETIMEOUT);

    /* Many timers on the delta list, equal and different delays, out of order. */
    static const uk_tick_t delays[6] = {7, 3, 7, 1, 12, 3};
    t0 = uk_time();
    for (int k = 0; k < 6; k++) {
        CHECK_EQ(uk_timer_init(&many[k], record_many, (void *)(uintptr_t)k), UK_OK);
        CHECK_EQ(uk_timer_start(&many[k], delays[k], 0), UK_OK);
    }
    CHECK_EQ(uk_timer_stop(&many[2]), UK_OK); /* out of the middle */
    CHECK_EQ(uk_timer_remaining(&many[4], &r), UK_OK);
    CHECK_EQ(r, 12);
    CHECK_EQ(uk_task_sleep(13), UK_OK);
    for (int k = 0; k < 6; k++)
        CHECK_EQ(many_at[k], k == 2 ? 0 : t0 + delays[k]);

    /* A task timer: activates the created task, then resumes it each period. */
    CHECK_EQ(uk_timer_init_task(&tt, &periodic), UK_OK);
    t0 = uk_time();
    CHECK_EQ(uk_timer_start(&tt, 3, 4), UK_OK);
    CHECK_EQ(uk_task_sleep(3 + 4 * 4 + 1), UK_OK);
    CHECK_EQ(uk_timer_stop(&tt), UK_OK);
    CHECK_EQ(runs, 5);
    for (int k = 0; k < 5; k++)
        CHECK_EQ(run_at[k], t0 + 3 + 4 * k);
    CHECK_EQ(uk_timer_expiries(&tt, &ex, &ov), UK_OK);
    CHECK_EQ(ex, 5);
    CHECK_EQ(ov, 0);
    /* The task not suspended at the expiry (main, asleep): an overrun, main unaffected. */
    CHECK_EQ(uk_timer_init_task(&t2, &main_t), UK_OK);
    CHECK_EQ(uk_timer_start(&t2, 1, 0), UK_OK);
    t0 = uk_time();
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK_EQ(uk_time(), t0 + 3);
    CHECK_EQ(uk_timer_expiries(&t2, &ex, &ov), UK_OK);
    CHECK_EQ(ex, 1);
    CHECK_EQ(ov, 1);

    /* A flags timer wakes a flags waiter exactly. */
    CHECK_EQ(uk_flags_init(&f), UK_OK);
    CHECK_EQ(uk_timer_init_flags(&tf, &f, 0x0), UK_EINVAL);
    CHECK_EQ(uk_timer_init_flags(&tf, &f, 0x40), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    t0 = uk_time();
    CHECK_EQ(uk_timer_start(&tf, 7, 0), UK_OK);
    uint32_t got = 0;
    CHECK_EQ(uk_flags_wait(&f, 0x40, UK_FLAGS_ANY | UK_FLAGS_CLEAR, &got, 100), UK_OK);
    CHECK_EQ(uk_time(), t0 + 7);
    CHECK_EQ(got, 0x40);
    /* Cyclic flags timer, 2 ticks: five waits, each exactly 2 ticks apart. */
    CHECK_EQ(uk_timer_start(&tf, 2, 2), UK_OK);
    t0 = uk_time();
    for (int k = 1; k <= 5; k++) {
        CHECK_EQ(uk_flags_wait(&f, 0x40, UK_FLAGS_ANY | UK_FLAGS_CLEAR, &got, 100), UK_OK);
        CHECK_EQ(uk_time(), t0 + 2 * k);
    }
    CHECK_EQ(uk_timer_delete(&tf), UK_OK);
    CHECK_EQ(uk_timer_stop(&tf), UK_EINVAL);
    CHECK_EQ(uk_timer_delete(&t1), UK_OK);
    (void)t3;
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&s, 0, 10), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&periodic, "periodic", periodic_entry, 0, 5, periodic_stack,
                            sizeof periodic_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
