/* Time: the tick, sleeping, the system clock, and the software back end's delta list of
 * delays and timeouts (kernel_waitq.h).
 *
 * Delta list invariant: entries are in expiry order and each entry's `delta` counts the
 * ticks after the previous entry's expiry (the head's counts from now), so a tick only
 * decrements the head and expires the zeros at the front. */
#include "kernel.h"

volatile uk_tick_t uk__ticks = UK_TICK_START; /* [kernel] tick_start: to test the wrap */
uk_list_t uk__delta_list = {&uk__delta_list, &uk__delta_list};
#define delta_list uk__delta_list

/* The software back end's delays (kernel/waitq/soft): here, where they have always been, so
 * that the images that use them keep their layout; an image with another back end never
 * calls them, and the linker drops them. */
UK_TIME_FN(uk__delta_insert) void uk__delta_insert(uk_task_t *t, uk_tick_t ticks)
{
    uk_list_t *at = delta_list.next;
    while (at != &delta_list) {
        uk_task_t *e = UK_CONTAINER_OF(at, uk_task_t, delay_node);
        if (ticks < e->delta) {
            e->delta -= ticks;
            break;
        }
        ticks -= e->delta;
        at = at->next;
    }
    t->delta = ticks;
    uk__list_insert_before(at, &t->delay_node);
}

UK_TIME_FN(uk__delta_remove) void uk__delta_remove(uk_task_t *t)
{
    uk_list_t *n = t->delay_node.next;
    if (n != &delta_list)
        UK_CONTAINER_OF(n, uk_task_t, delay_node)->delta += t->delta;
    uk__list_remove(&t->delay_node);
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The delta list holds delayed tasks only, and its head's delta is not 0: the tick that
 * brings an entry to 0 expires it (and the zeros behind it), and every delay is >= 1. */
UK_TIME_FN(uk__delta_check) unsigned uk__delta_check(void)
{
    unsigned n = uk__check_list(&delta_list);
    for (uk_list_t *at = delta_list.next; at != &delta_list; at = at->next) {
        const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, delay_node);
        UK_CHECK(t->state == UK_TASK_DELAYED || t->state == UK_TASK_PENDING_DELAYED,
                 "the delta list holds DELAYED and PENDING_DELAYED tasks only");
        UK_CHECK(at != delta_list.next || t->delta != 0,
                 "the delta list's head has a delta above 0");
    }
    return n;
}
#endif

/* One tick (from the kernel tail, lock held): expire delays and timeouts, account the time
 * slice. The tail reschedules afterwards. */
void (*uk__timer_tick_hook)(void); /* timer.c's expiry, once a timer exists */

UK_TIME_FN(uk__tick) void uk__tick(void)
{
    uk__ticks++;
    if (uk__timer_tick_hook)
        uk__timer_tick_hook();
    uk__delay_tick(); /* the back end's: expire delays and timeouts */
    uk__sched_tick(uk__current);
}

UK_TIME_FN(uk_time) uk_tick_t uk_time(void) { return uk__ticks; }

UK_TIME_FN(uk_tick_hz) uint32_t uk_tick_hz(void) { return UK_TICK_HZ; }

/* ceil(ms * UK_TICK_HZ / 1000) without a 64-bit division: whole seconds times the rate, plus
 * the rest rounded up (r * UK_TICK_HZ < 1000 * 100000 fits 32 bits). */
UK_TIME_FN(uk_ms_to_ticks) uk_tick_t uk_ms_to_ticks(uint32_t ms)
{
    uint64_t ticks =
        (uint64_t)(ms / 1000u) * UK_TICK_HZ + ((ms % 1000u) * UK_TICK_HZ + 999u) / 1000u;
    return ticks < UK_FOREVER ? (uk_tick_t)ticks : UK_FOREVER - 1;
}

UK_TIME_FN(uk_ms_timeout) uk_tick_t uk_ms_timeout(uint32_t ms)
{
    uk_tick_t t = uk_ms_to_ticks(ms);
    return ms == 0 ? UK_NO_WAIT : t < UK_FOREVER - 1 ? t + 1 : t;
}

UK_TIME_FN(uk_task_sleep) int uk_task_sleep(uk_tick_t ticks)
{
    if (UK_ARG_BAD(UK_IN_ISR() || !uk__started))
        return UK_EPERM;
    if (UK_ARG_BAD(ticks == UK_FOREVER))
        return UK_EINVAL;
    unsigned key = uk__lock();
    uk__current->wait_result = UK_OK; /* UK_EINTR if a signal ends the sleep */
    if (ticks == 0) {
        (void)uk__sched_yield(uk__current);
        uk__reschedule();
    } else {
        uk__unready(uk__current, UK_TASK_DELAYED);
        uk__delay_insert(uk__current, ticks);
        uk__reschedule();
    }
    UK__SIGNAL_RESUMED(uk__current);
    int r = uk__current->wait_result;
    uk__unlock(key);
    return r;
}

/* Sleep until *last_wake + period and advance *last_wake by period: periods do not drift
 * however long the task ran. A deadline already passed returns at once with UK_ETIMEOUT.
 * Ticks compare by their difference (the tick count wraps): the deadline is ahead when it
 * lies less than half the tick range after now, so *last_wake may start in the future (a
 * grid that begins later); it is not limited to one period ahead. */
UK_TIME_FN(uk_task_sleep_until) int uk_task_sleep_until(uk_tick_t *last_wake, uk_tick_t period)
{
    if (UK_IN_ISR() || !uk__started)
        return UK_EPERM;
    if (!last_wake || period == 0 || period == UK_FOREVER)
        return UK_EINVAL;
    unsigned key = uk__lock();
    *last_wake += period;
    uk_tick_t wait = *last_wake - uk__ticks;
    int r = UK_OK;
    uk__current->rel_deadline = period; /* each release's deadline: the next release */
#if !UK_SCHED_DEADLINES
    /* Policies that do not order by deadline do not renew it when the task becomes ready:
     * the job that starts at the wake-up (or now, a late one) is due at *last_wake + period,
     * which uk_task_deadline reports. */
    uk__current->deadline = *last_wake + period;
#endif
    if ((int32_t)wait <= 0) {
        r = UK_ETIMEOUT; /* the deadline is now or already passed */
#if UK_SCHED_DEADLINES
        /* The late job runs now, due one period after its release. */
        uk__sched_set_deadline(uk__current, *last_wake + period);
        uk__reschedule();
#endif
    } else {
        uk__current->wait_result = UK_OK; /* UK_EINTR if a signal ends the sleep */
        uk__unready(uk__current, UK_TASK_DELAYED);
        uk__delay_insert(uk__current, wait);
        uk__reschedule();
        UK__SIGNAL_RESUMED(uk__current);
        r = uk__current->wait_result;
    }
    uk__unlock(key);
    return r;
}
