/* Tasks: creation, activation, suspension, deletion from any state, priorities, yield. */
#include "kernel.h"

uk_task_t *uk__all_tasks;

static UK_OTHER_FN(valid_task) bool valid_task(const uk_task_t *t)
{
    return t && t->magic == UK_TASK_MAGIC;
}

UK_OTHER_FN(uk_task_create)
int uk_task_create(uk_task_t *t, const char *name, void (*entry)(void *), void *arg, uint8_t prio,
                   void *stack, size_t stack_bytes)
{
    if (UK_ARG_BAD(!t || !entry || !stack || stack_bytes < 128 || ((uintptr_t)stack & 3)))
        return UK_EINVAL;
    /* The lowest priority is the idle task's alone: a task beside it would queue behind the
     * idle task, which never gives way (system.toml refuses it too). */
    if (UK_ARG_BAD(uk__sched_valid_prio(prio) != UK_OK ||
                   (prio == UK_IDLE_PRIO && t != &uk__idle_task)))
        return UK_EINVAL;
    if (UK_ARG_BAD(UK_IN_ISR()))
        return UK_EPERM;
    unsigned key = uk__lock();
    if (UK_ARG_BAD(t->magic == UK_TASK_MAGIC && t->state != UK_TASK_DELETED)) {
        uk__unlock(key);
        return UK_ESTATE; /* this TCB is a live task */
    }
    if (uk__sched_claim_prio(t, prio) != UK_OK) {
        uk__unlock(key);
        return UK_EINVAL; /* the policy's priorities are unique and this one is taken */
    }
    *t = (uk_task_t){0};
    t->name = name ? name : "?";
    t->prio = t->base_prio = prio;
    t->state = UK_TASK_CREATED; /* activate, not resume, starts it */
    t->entry = entry;
    t->arg = arg;
    t->slice = t->slice_left = UK_TIMESLICE_TICKS;
    t->stack_base = (uint32_t *)stack;
    t->stack_bytes = stack_bytes & ~(size_t)15;
    t->stack_base[0] = UK_STACK_CANARY;
    uk__list_init(&t->ready_node);
    uk__list_init(&t->wait_node);
    uk__list_init(&t->delay_node);
    uk__arch_task_init(t);
    t->all_next = uk__all_tasks;
    uk__all_tasks = t;
    t->magic = UK_TASK_MAGIC;
    uk__check_task_created(t);
    uk__unlock(key);
    return UK_OK;
}

/* The first code of every task: run its entry with interrupts enabled; a task whose entry
 * returns is deleted. */
UK_OTHER_FN(uk__task_run) void uk__task_run(uk_task_t *t)
{
    UK__SIGNAL_RESUMED(t); /* signals sent before it first ran: the tail delivers them */
    uk__unlock(8);         /* the lock the switch here was made under */
    uk_irq_restore(8);
    t->entry(t->arg);
    uk_task_delete(t);
}

/* activate, suspend and resume: the work under the lock (also applied by the tail for a
 * LISR's deferred call, which reschedules afterwards), and the calls that take the lock. */
static UK_OTHER_FN(task_activate) int task_activate(void *obj, uint32_t arg)
{
    (void)arg;
    uk_task_t *t = obj;
    if (UK_ARG_BAD(!valid_task(t) || t->state != UK_TASK_CREATED))
        return UK_ESTATE; /* activated before: resume, not activate, undoes a suspend */
    uk__make_ready(t);
    return UK_OK;
}

/* Suspend a valid t under the lock: UK_OK, or UK_ESTATE if t cannot be suspended. */
static inline __attribute__((always_inline)) int suspend_locked(uk_task_t *t)
{
    switch (t->state) {
    case UK_TASK_READY: /* the caller itself too */ uk__unready(t, UK_TASK_SUSPENDED); return UK_OK;
    case UK_TASK_DELAYED:
        uk__delay_remove(t);
        t->state = UK_TASK_SUSPENDED;
        return UK_OK;
    case UK_TASK_PENDING:
    case UK_TASK_PENDING_DELAYED:
        /* The wait ends as a timeout would; the task stays suspended until resumed. */
        uk__wait_end(t, UK_ETIMEOUT);
        t->state = UK_TASK_SUSPENDED;
        if (t->blocked_on)
            uk__mutex_wait_ended(t); /* the owner no longer inherits t's priority */
        return UK_OK;
    default: return UK_ESTATE;
    }
}

/* Resume a valid t under the lock: UK_OK, or UK_ESTATE if t is not suspended (a created
 * task is activated instead). */
static inline __attribute__((always_inline)) int resume_locked(uk_task_t *t)
{
    if (t->state != UK_TASK_SUSPENDED)
        return UK_ESTATE;
    uk__make_ready(t);
    return UK_OK;
}

/* The deferred forms (a LISR's call, applied by the tail): t may have died meanwhile. */
static UK_OTHER_FN(task_suspend) int task_suspend(void *obj, uint32_t arg)
{
    (void)arg;
    uk_task_t *t = obj;
    return valid_task(t) ? suspend_locked(t) : UK_EINVAL;
}

static UK_OTHER_FN(task_resume) int task_resume(void *obj, uint32_t arg)
{
    (void)arg;
    uk_task_t *t = obj;
    return valid_task(t) ? resume_locked(t) : UK_ESTATE;
}

/* Apply op to t under the lock and reschedule, or queue it from a LISR. */
static UK_OTHER_FN(task_op) int task_op(uk__deferred_fn op, uk_task_t *t)
{
    if (UK_IN_LISR())
        return uk__defer(op, t, 0);
    unsigned key = uk__lock();
    int r = op(t, 0);
    if (r == UK_OK)
        uk__reschedule();
    uk__unlock(key);
    return r;
}

UK_OTHER_FN(uk_task_activate) int uk_task_activate(uk_task_t *t)
{
    if (UK_ARG_BAD(!valid_task(t)))
        return UK_EINVAL;
    return task_op(task_activate, t);
}

/* Suspend and resume are what preemption benchmarks time (Thread-Metric's preemptive
 * scenario): checked once, applied under the lock without the generic task_op's indirect
 * call and second check. */
UK_OTHER_FN(uk_task_suspend) int uk_task_suspend(uk_task_t *t)
{
    if (!t)
        t = uk__current;
    if ((t == uk__current) && UK_IN_ISR())
        return UK_EPERM;
    if (!valid_task(t) || t == &uk__idle_task)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return uk__defer(task_suspend, t, 0);
    unsigned key = uk__lock();
    int r = suspend_locked(t);
    if (r == UK_OK)
        uk__reschedule();
    uk__unlock(key);
    return r;
}

UK_OTHER_FN(uk_task_resume) int uk_task_resume(uk_task_t *t)
{
    if (!valid_task(t))
        return UK_EINVAL;
    if (UK_IN_LISR()) {
        if (!uk__lisr_direct())
            return uk__defer(task_resume, t, 0);
        /* The one wake a LISR applies itself: the policy's O(1) insert, no longer than
         * queuing the call; the tail, raised, makes the switch (kernel_irq.h). */
        if (resume_locked(t) != UK_OK)
            uk__deferred_failed++; /* as the tail would count it */
        uk__arch_tail_raise();
        return UK_OK;
    }
    unsigned key = uk__lock();
    int r = resume_locked(t);
    if (r == UK_OK)
        uk__reschedule();
    uk__unlock(key);
    return r;
}

UK_OTHER_FN(uk_task_delete) int uk_task_delete(uk_task_t *t)
{
    if (!t)
        t = uk__current;
    if (UK_ARG_BAD(UK_IN_ISR()))
        return UK_EPERM;
    if (UK_ARG_BAD(!valid_task(t) || t == &uk__idle_task))
        return UK_EINVAL;
    unsigned key = uk__lock();
    switch (t->state) {
    case UK_TASK_READY: /* the caller itself too */ uk__sched_remove(t); break;
    case UK_TASK_DELAYED: uk__delay_remove(t); break;
    case UK_TASK_PENDING:
    case UK_TASK_PENDING_DELAYED: uk__wait_end(t, UK_EDELETED); break;
    default: break;
    }
    uk__taskport_task_gone(t); /* senders waiting on t's task port get UK_EDELETED */
    uk__sched_release_prio(t, t->base_prio);
    t->state = UK_TASK_DELETED;
    t->magic = 0;
    for (uk_task_t **p = &uk__all_tasks; *p; p = &(*p)->all_next)
        if (*p == t) {
            *p = t->all_next;
            break;
        }
    uk__check_task_deleted(t);
    /* Out of any mutex wait (the owner loses what t lent it); held mutexes pass on. */
    if (t->blocked_on || t->mutexes)
        uk__mutex_task_gone(t);
    uk__reschedule(); /* never returns if t is the caller; else a waiter handed a mutex may run */
    uk__unlock(key);
    return UK_OK;
}

/* The out-of-line yield (unoptimised builds, and where a function is needed). */
/* The decision of the voluntary fast path (switch.S, kernel lock held; sp = its stack pointer):
 * the current task, and the task to switch to (NULL: stay). current = -1 refuses
 * (interrupt context). */
typedef struct {
    uk_task_t *current, *next;
} uk__yield_pair_t;

UK_SCHED_FN(uk__yield_next) uk__yield_pair_t uk__yield_next(uintptr_t sp)
{
    if (UK_IN_ISR() || !uk__started)
        return (uk__yield_pair_t){(uk_task_t *)-1, 0};
    uk_task_t *next = uk__sched_yield(uk__current); /* only sp lives across this call */
    uk_task_t *cur = uk__current;
    if (uk__hisr_ready) {
        uk__reschedule(); /* rare: the full path, back here when this task runs again */
        return (uk__yield_pair_t){cur, 0};
    }
    if (next == cur)
        return (uk__yield_pair_t){cur, 0};
    uk__check_stack(cur, sp);
    uk__current = next;
    UK_POWER_SWITCH(next);
    return (uk__yield_pair_t){cur, next};
}

/* The out-of-line yield (unoptimised builds, and where a function is needed): the fast path's
 * decision, then a full switch. */
UK_SCHED_FN(uk__yield) int uk__yield(void)
{
    unsigned key = uk__lock();
    uk__yield_pair_t d = uk__yield_next((uintptr_t)__builtin_frame_address(0));
    if (d.current == (uk_task_t *)-1) {
        uk__unlock(key);
        return UK_EPERM;
    }
    if (d.next) {
        uk__arch_switch(&d.current->sp, &d.next->sp);
        UK__SIGNAL_RESUMED(d.current);
    }
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_task_self) uk_task_t *uk_task_self(void) { return uk__current; }

UK_OTHER_FN(uk_task_set_prio) int uk_task_set_prio(uk_task_t *t, uint8_t prio)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!t)
        t = uk__current;
    /* The idle task keeps the lowest priority, and alone: above a ready task it would starve
     * it, and a task beside it would wait behind it for ever. */
    if (!valid_task(t) || t == &uk__idle_task || prio == UK_IDLE_PRIO ||
        uk__sched_valid_prio(prio) != UK_OK)
        return UK_EINVAL;
    unsigned key = uk__lock();
    if (prio != t->base_prio) {
        if (uk__sched_claim_prio(t, prio) != UK_OK) {
            uk__unlock(key);
            return UK_EINVAL; /* unique priorities (bitmap policy): taken by another task */
        }
        uk__sched_release_prio(t, t->base_prio);
    }
    /* The effective priority is the base raised by what held mutexes' waiters lend
     * (mutex.c); a change carries on to the owner chain if t waits on a mutex. */
    t->base_prio = prio;
    uk__prio_update(t);
    uk__reschedule();
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_task_set_slice) int uk_task_set_slice(uk_task_t *t, uk_tick_t ticks)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!t)
        t = uk__current;
    if (!valid_task(t) || ticks == 0 || ticks == UK_FOREVER)
        return UK_EINVAL;
    unsigned key = uk__lock();
    t->slice = ticks;
    if (t->slice_left > ticks)
        t->slice_left = ticks;
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_task_state) uk_task_state_t uk_task_state(const uk_task_t *t)
{
    if (!valid_task(t))
        return UK_TASK_DELETED;
    if (t->state == UK_TASK_READY && t == uk__current)
        return UK_TASK_RUNNING; /* the running task's field says READY (kernel_sched.h) */
    return (uk_task_state_t)t->state;
}

UK_OTHER_FN(uk_task_set_deadline) int uk_task_set_deadline(uk_task_t *t, uk_tick_t relative)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!t)
        t = uk__current;
    /* The idle task has no deadline: with one, a deadline policy would run it ahead of
     * the tasks without one. */
    if (!valid_task(t) || t == &uk__idle_task || relative == UK_FOREVER)
        return UK_EINVAL;
    unsigned key = uk__lock();
    t->rel_deadline = relative;
#if UK_SCHED_DEADLINES
    if (t->state == UK_TASK_READY) {
        uk__sched_set_deadline(t, uk__ticks + relative); /* re-ordered */
        uk__reschedule();
    }
#else
    t->deadline = uk__ticks + relative;
#endif
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_task_deadline) uk_tick_t uk_task_deadline(const uk_task_t *t)
{
    if (!t)
        t = uk__current;
    return valid_task(t) && t->rel_deadline ? t->deadline : UK_FOREVER;
}

UK_OTHER_FN(uk_task_prio) uint8_t uk_task_prio(const uk_task_t *t)
{
    return valid_task(t) ? t->prio : 0;
}
