/* Kernel basics on target: preemption by priority, sleeping, semaphore hand-over, timeouts
 * accurate to the tick, deletion of a waiter. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t hi, lo, waiter;
static uint32_t hi_stack[256], lo_stack[256], waiter_stack[256];
static uk_sem_t sem;
static volatile int order[16];
static volatile int n_order;

static void log_step(int v) { order[n_order++] = v; }

static void hi_task(void *arg)
{
    (void)arg;
    log_step(1); /* runs first: highest priority */
    CHECK_EQ(uk_sem_take(&sem, UK_FOREVER), UK_OK);
    log_step(3); /* woken by lo's give, preempts lo at once */
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_sem_take(&sem, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5); /* timeout exact to the tick */
    CHECK_EQ(uk_sem_take(&sem, UK_NO_WAIT), UK_EAGAIN);
    t0 = uk_time();
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK_EQ(uk_time() - t0, 3);
    log_step(5);
}

static void waiter_task(void *arg)
{
    (void)arg;
    int r = uk_sem_take(&sem, UK_FOREVER); /* deleted under us */
    CHECK_EQ(r, UK_EDELETED);
    log_step(7);
}

static void lo_task(void *arg)
{
    (void)arg;
    log_step(2);
    CHECK_EQ(uk_sem_give(&sem), UK_OK); /* hi wakes and runs before we go on */
    log_step(4);
    CHECK_EQ(uk_task_sleep(20), UK_OK); /* hi finishes meanwhile */
    CHECK_EQ(uk_task_activate(&waiter), UK_OK);
    uk_task_yield();
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_PENDING);
    log_step(6);
    CHECK_EQ(uk_sem_delete(&sem), UK_OK); /* waiter (higher) runs now */
    log_step(8);
#if defined(UK_CONFIG_SCHED_RR) || defined(UK_CONFIG_SCHED_COOP)
    /* Cyclic time slices, or cooperative: a task made ready never preempts. hi logs 3 only
     * after lo's turn (which ends when lo sleeps), the waiter 7 after lo yields to it. */
    uk_task_yield();
    static const int want[] = {1, 2, 4, 3, 5, 6, 8, 7};
#else
    static const int want[] = {1, 2, 3, 4, 5, 6, 7, 8};
#endif
    CHECK_EQ(n_order, 8);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(order[i], want[i]);
    CHECK_EQ(uk_task_create(&hi, "x", hi_task, 0, 3, hi_stack, 8), UK_EINVAL);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&sem, 0, 1), UK_OK);
    CHECK_EQ(uk_task_create(&hi, "hi", hi_task, 0, 1, hi_stack, sizeof hi_stack), UK_OK);
    CHECK_EQ(uk_task_create(&lo, "lo", lo_task, 0, 5, lo_stack, sizeof lo_stack), UK_OK);
    CHECK_EQ(
        uk_task_create(&waiter, "waiter", waiter_task, 0, 4, waiter_stack, sizeof waiter_stack),
        UK_OK);
    CHECK_EQ(uk_task_activate(&hi), UK_OK);
    CHECK_EQ(uk_task_activate(&lo), UK_OK);
    uk_start();
    return 99;
}
