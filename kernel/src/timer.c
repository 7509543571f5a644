/* Software timers on their own delta list (UbiFOS II.6, delta processing): entries in
 * expiry order, each `delta` counting the ticks after the previous entry's expiry, so a tick
 * decrements the head only and expires the zeros at the front.
 *
 * Expiry (timer_tick, called by the tick in the kernel tail, lock held):
 *  - a task timer makes its task ready: activates it the first time, resumes it after a
 *    suspend; a task that is not suspended (still busy) counts an overrun;
 *  - a flags timer sets its bits (waiters wake; the tail switches afterwards);
 *  - a function timer joins the list of calls due and the kernel's timer HISR (level 0,
 *    above every task, its own stack of UK_TIMER_HISR_STACK bytes) is activated; it makes
 *    each call due in expiry order, in HISR context: interrupts enabled, the lock free; the
 *    function may call what a HISR may (give, send, set, activate, UK_NO_WAIT takes) and
 *    may not block. It runs in the tick of the expiry, before any task. A function timer
 *    that expires again before its previous call was made counts an overrun.
 * A cyclic timer is re-inserted `period` ticks after the tick it expired in: no drift.
 * The tick hook is installed by the first uk_timer_init*, so an application without timers
 * pays nothing per tick. */
#include "kernel.h"

#ifdef UK_FEATURE_TIMER

#ifndef UK_TIMER_HISR_STACK
#define UK_TIMER_HISR_STACK 512
#endif

enum { T_FN = 1, T_TASK, T_FLAGS };

/* The delta list. Not static: the testbed reads it by this name (an empty list means no
 * software timer runs, so no tick can make a task ready: its deadlock check, docs/debugging.md). */
extern uk_list_t uk__timers;
uk_list_t uk__timers = {&uk__timers, &uk__timers};
#define active uk__timers

static UK_TIME_FN(valid_timer) bool valid_timer(const uk_timer_t *tm)
{
    return tm && tm->magic == UK_TIMER_MAGIC;
}

static UK_TIME_FN(timer_insert) void timer_insert(uk_timer_t *tm, uk_tick_t ticks)
{
    uk_list_t *at = active.next;
    while (at != &active) {
        uk_timer_t *e = UK_CONTAINER_OF(at, uk_timer_t, node);
        if (ticks < e->delta) {
            e->delta -= ticks;
            break;
        }
        ticks -= e->delta;
        at = at->next;
    }
    tm->delta = ticks;
    uk__list_insert_before(at, &tm->node);
    tm->running = 1;
}

static UK_TIME_FN(timer_remove) void timer_remove(uk_timer_t *tm)
{
    if (tm->running) {
        uk_list_t *n = tm->node.next;
        if (n != &active)
            UK_CONTAINER_OF(n, uk_timer_t, node)->delta += tm->delta;
        uk__list_remove(&tm->node);
        tm->running = 0;
    }
    if (tm->due) {
        uk__list_remove(&tm->fire_node);
        tm->due = 0;
    }
}

#ifdef UK_FEATURE_HISR
static uk_list_t due = {&due, &due}; /* function timers expired, calls not made yet */

#ifdef UK_CONFIG_CHECKS_FULL
/* The lists' invariant: the delta list holds live timers that are running, the list of calls
 * due live timers marked due; both have intact links. */
UK_TIME_FN(uk__timer_check) void uk__timer_check(void)
{
    (void)uk__check_links(&active, 0xFFFF);
    for (const uk_list_t *at = active.next; at != &active; at = at->next) {
        const uk_timer_t *tm = UK_CONTAINER_OF(at, uk_timer_t, node);
        UK_CHECK(tm->magic == UK_TIMER_MAGIC && tm->running,
                 "the timers' delta list holds live, running timers");
    }
    (void)uk__check_links(&due, 0xFFFF);
    for (const uk_list_t *at = due.next; at != &due; at = at->next) {
        const uk_timer_t *tm = UK_CONTAINER_OF(at, uk_timer_t, fire_node);
        UK_CHECK(tm->magic == UK_TIMER_MAGIC && tm->due,
                 "the timers' list of calls due holds live timers marked due");
    }
}
#endif
static uk_hisr_t timer_hisr;
static uint32_t timer_hisr_stack[UK_TIMER_HISR_STACK / 4] __attribute__((aligned(16)));

static UK_TIME_FN(timer_hisr_entry) void timer_hisr_entry(uk_hisr_t *h)
{
    (void)h;
    for (;;) {
        unsigned key = uk__lock();
        if (uk__list_empty(&due)) {
            uk__unlock(key);
            return;
        }
        uk_timer_t *tm = UK_CONTAINER_OF(due.next, uk_timer_t, fire_node);
        uk__list_remove(&tm->fire_node);
        tm->due = 0;
        void (*fn)(uk_timer_t *, void *) = tm->fn;
        void *arg = tm->arg;
        uk__unlock(key);
        fn(tm, arg);
    }
}
#endif

/* One expiry's action (lock held, in the tail: nothing here switches). */
static UK_TIME_FN(expire) void expire(uk_timer_t *tm)
{
    tm->expiries++;
    switch (tm->kind) {
    case T_TASK: {
        uk_task_t *t = tm->arg;
        if (t->magic == UK_TASK_MAGIC &&
            (t->state == UK_TASK_CREATED || t->state == UK_TASK_SUSPENDED)) {
            uk__make_ready(t); /* activated the first time, resumed afterwards */
        } else {
            tm->overruns++;
        }
        break;
    }
#ifdef UK_FEATURE_FLAGS
    case T_FLAGS: {
        if (uk__flags_set_locked(tm->arg, tm->bits) < 0)
            tm->overruns++;
        break;
    }
#endif
#ifdef UK_FEATURE_HISR
    case T_FN:
        if (tm->due) {
            tm->overruns++;
        } else {
            uk__list_insert_before(&due, &tm->fire_node);
            tm->due = 1;
            if (uk__hisr_activate_locked(&timer_hisr) != UK_OK)
                tm->overruns++;
        }
        break;
#endif
    default: break;
    }
}

static UK_TIME_FN(timer_tick) void timer_tick(void)
{
    if (uk__list_empty(&active))
        return;
    uk_timer_t *e = UK_CONTAINER_OF(active.next, uk_timer_t, node);
    if (e->delta)
        e->delta--;
    while (!uk__list_empty(&active)) {
        e = UK_CONTAINER_OF(active.next, uk_timer_t, node);
        if (e->delta)
            break;
        uk__list_remove(&e->node);
        e->running = 0;
        if (e->period)
            timer_insert(e, e->period);
        expire(e);
    }
}

static UK_TIME_FN(timer_setup) int timer_setup(uk_timer_t *tm, uint8_t kind,
                                               void (*fn)(uk_timer_t *, void *), void *arg,
                                               uint32_t bits)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!tm)
        return UK_EINVAL;
#ifdef UK_FEATURE_HISR
    if (kind == T_FN && timer_hisr.magic != UK_HISR_MAGIC) {
        int r = uk_hisr_create(&timer_hisr, "timers", timer_hisr_entry, 0, timer_hisr_stack,
                               sizeof timer_hisr_stack);
        if (r != UK_OK)
            return r;
    }
#else
    if (kind == T_FN)
        return UK_EPERM; /* function timers run in the timer HISR: [kernel] features "hisr" */
#endif
    unsigned key = uk__lock();
    if (valid_timer(tm))
        timer_remove(tm); /* re-initialising a running timer stops it */
    *tm = (uk_timer_t){0};
    uk__list_init(&tm->node);
    uk__list_init(&tm->fire_node);
    tm->kind = kind;
    tm->fn = fn;
    tm->arg = arg;
    tm->bits = bits;
    tm->magic = UK_TIMER_MAGIC;
    uk__timer_tick_hook = timer_tick;
    uk__unlock(key);
    return UK_OK;
}

UK_TIME_FN(uk_timer_init)
int uk_timer_init(uk_timer_t *tm, void (*fn)(uk_timer_t *tm, void *arg), void *arg)
{
    if (!fn)
        return UK_EINVAL;
    return timer_setup(tm, T_FN, fn, arg, 0);
}

UK_TIME_FN(uk_timer_init_task) int uk_timer_init_task(uk_timer_t *tm, uk_task_t *t)
{
    if (!t || t->magic != UK_TASK_MAGIC)
        return UK_EINVAL;
    return timer_setup(tm, T_TASK, 0, t, 0);
}

#ifdef UK_FEATURE_FLAGS
UK_TIME_FN(uk_timer_init_flags)
int uk_timer_init_flags(uk_timer_t *tm, uk_flags_t *f, uint32_t bits)
{
    if (!f || f->magic != UK_FLAGS_MAGIC || bits == 0)
        return UK_EINVAL;
    return timer_setup(tm, T_FLAGS, 0, f, bits);
}
#endif

/* (Re)start: the first expiry `delay` ticks from now (1: at the next tick). */
static UK_TIME_FN(timer_start) int timer_start(uk_timer_t *tm, uk_tick_t delay, uk_tick_t period)
{
    unsigned key = uk__lock();
    timer_remove(tm);
    tm->period = period;
    timer_insert(tm, delay);
    uk__unlock(key);
    return UK_OK;
}

UK_TIME_FN(uk_timer_start) int uk_timer_start(uk_timer_t *tm, uk_tick_t delay, uk_tick_t period)
{
    if (!valid_timer(tm) || delay == 0 || delay == UK_FOREVER || period == UK_FOREVER)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    return timer_start(tm, delay, period);
}

/* Start at the absolute tick `when` (uk_time() reads it): UK_ETIMEOUT, not started, when
 * `when` is now or already passed (more than 2^31 ticks behind counts as passed). */
UK_TIME_FN(uk_timer_start_at)
int uk_timer_start_at(uk_timer_t *tm, uk_tick_t when, uk_tick_t period)
{
    if (!valid_timer(tm) || period == UK_FOREVER)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    unsigned key = uk__lock();
    uk_tick_t delay = when - uk__ticks;
    int r = UK_ETIMEOUT;
    if (delay != 0 && delay < 0x80000000u)
        r = timer_start(tm, delay, period);
    uk__unlock(key);
    return r;
}

UK_TIME_FN(uk_timer_stop) int uk_timer_stop(uk_timer_t *tm)
{
    if (!valid_timer(tm))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    unsigned key = uk__lock();
    int r = tm->running || tm->due ? UK_OK : UK_ESTATE;
    timer_remove(tm);
    uk__unlock(key);
    return r;
}

UK_TIME_FN(uk_timer_delete) int uk_timer_delete(uk_timer_t *tm)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_timer(tm))
        return UK_EINVAL;
    unsigned key = uk__lock();
    timer_remove(tm);
    tm->magic = 0;
    uk__unlock(key);
    return UK_OK;
}

UK_TIME_FN(uk_timer_remaining) int uk_timer_remaining(const uk_timer_t *tm, uk_tick_t *ticks)
{
    if (!valid_timer(tm) || !ticks)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    unsigned key = uk__lock();
    int r = UK_ESTATE;
    if (tm->running) {
        uk_tick_t sum = 0;
        for (uk_list_t *n = active.next;; n = n->next) {
            sum += UK_CONTAINER_OF(n, uk_timer_t, node)->delta;
            if (n == &tm->node)
                break;
        }
        *ticks = sum;
        r = UK_OK;
    }
    uk__unlock(key);
    return r;
}

UK_TIME_FN(uk_timer_expiries)
int uk_timer_expiries(const uk_timer_t *tm, uint32_t *expiries, uint32_t *overruns)
{
    if (!valid_timer(tm))
        return UK_EINVAL;
    if (expiries)
        *expiries = tm->expiries;
    if (overruns)
        *overruns = tm->overruns;
    return UK_OK;
}

#endif /* UK_FEATURE_TIMER */
