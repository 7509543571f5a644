/* Two edges of the task API, under every scheduler.
 * - uk_task_sleep_until with *last_wake in the future: ticks compare by difference, so the
 *   deadline *last_wake + period is ahead and the task sleeps to it (it used to return
 *   UK_ETIMEOUT at once whenever the deadline was more than one period ahead); one now or
 *   passed still returns UK_ETIMEOUT at once, with *last_wake advanced.
 * - The deadline uk_task_deadline reports after sleep_until and set_deadline (docs/api.md
 *   says which policies renew it when the task becomes ready).
 * - The idle task (reached through uk_debug_info) refuses a priority, a deadline and a
 *   signal handler with UK_EINVAL, as it refuses suspend and delete: a priority above a
 *   ready task's, or (edf) a deadline, would let it starve every task; a handler would run
 *   as the idle task, which must never block. No other task gets the idle task's priority
 *   (it would wait behind the idle task for ever). The tasks keep running afterwards.
 * Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t ctl;
static uint32_t ctl_stack[256];

static void handler(uint32_t sigs) { (void)sigs; }

static void ctl_entry(void *arg)
{
    (void)arg;
    /* A grid that starts in the future. */
    uk_tick_t t0 = uk_time();
    uk_tick_t last = t0 + 20;
    CHECK_EQ(uk_task_sleep_until(&last, 5), UK_OK);
    CHECK_EQ(uk_time(), t0 + 25);
    CHECK_EQ(last, t0 + 25);
    /* The job released at the wake-up is due at the next release, under every policy (the
     * deadline policies renew it as the task becomes ready, the others at sleep_until). */
    CHECK_EQ(uk_task_deadline(&ctl), t0 + 30);
    CHECK_EQ(uk_task_sleep_until(&last, 5), UK_OK); /* and on along the grid */
    CHECK_EQ(uk_time(), t0 + 30);
    CHECK_EQ(uk_task_deadline(&ctl), t0 + 35);
    /* Far ahead (below half the tick range) is still ahead. */
    t0 = uk_time();
    last = t0 + 200;
    CHECK_EQ(uk_task_sleep_until(&last, 1), UK_OK);
    CHECK_EQ(uk_time(), t0 + 201);
    /* Now or passed: at once, advanced by one period. */
    t0 = uk_time();
    last = t0 - 5;
    CHECK_EQ(uk_task_sleep_until(&last, 5), UK_ETIMEOUT);
    CHECK_EQ(last, t0);
    CHECK_EQ(uk_time(), t0);
    last = t0 - 100;
    CHECK_EQ(uk_task_sleep_until(&last, 5), UK_ETIMEOUT);
    CHECK_EQ(last, t0 - 95);
    CHECK_EQ(uk_task_deadline(&ctl), t0 - 90); /* a late job: its release + period */
    uk_tick_t now = uk_time();
    CHECK_EQ(uk_task_set_deadline(0, 7), UK_OK);
    uk_tick_t due = uk_task_deadline(&ctl);
    CHECK(due - now == 7 || due - now == 8); /* set at once, every policy (a tick may pass) */
    CHECK_EQ(uk_task_set_deadline(0, 0), UK_OK);
    CHECK_EQ(uk_task_deadline(&ctl), UK_FOREVER); /* none */

    /* The idle task. */
    uk_task_t *idle = (uk_task_t *)(uintptr_t)uk_debug_info.idle_task;
    CHECK(idle != 0);
    uint8_t idle_prio = uk_task_prio(idle);
    CHECK_EQ(uk_task_set_prio(idle, 2), UK_EINVAL);
    CHECK_EQ(uk_task_set_prio(idle, idle_prio), UK_EINVAL);
    CHECK_EQ(uk_task_prio(idle), idle_prio);
    CHECK_EQ(uk_task_set_deadline(idle, 5), UK_EINVAL);
    CHECK_EQ(uk_task_deadline(idle), UK_FOREVER);
    CHECK_EQ(uk_signal_handler(idle, handler), UK_EINVAL);
    CHECK_EQ(uk_signal_send(idle, 1), UK_ESTATE); /* no handler: refused */
    /* Nor does another task get the idle task's priority: it would wait behind it. */
    CHECK_EQ(uk_task_set_prio(0, idle_prio), UK_EINVAL);
    CHECK_EQ(uk_task_prio(&ctl), 10);
    static uk_task_t other;
    static uint32_t other_stack[64];
    CHECK_EQ(uk_task_create(&other, "x", ctl_entry, 0, idle_prio, other_stack, sizeof other_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_suspend(idle), UK_EINVAL);
    CHECK_EQ(uk_task_delete(idle), UK_EINVAL);
    t0 = uk_time();
    CHECK_EQ(uk_task_sleep(3), UK_OK); /* the idle task runs meanwhile, and gives way */
    CHECK_EQ(uk_time(), t0 + 3);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&ctl, "ctl", ctl_entry, 0, 10, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
