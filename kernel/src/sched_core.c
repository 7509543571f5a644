/* The scheduler core: ready/blocked transitions, the switch decision, stack checks. The
 * policy (which ready task runs) is the compiled-in kernel/sched/<name>.c. */
#include "kernel.h"

uk_task_t *volatile uk__current;
uk_hisr_t *volatile uk__current_hisr;
bool uk__started;
volatile uint32_t uk__tick_due;

UK_OTHER_FN(uk__fatal) void uk__fatal(const char *what, const char *name)
{
    (void)uk_irq_disable();
    uk__arch_fatal(what, name, UK_EXIT_FATAL);
}

#ifdef UK_FEATURE_HISR
/* The HISR side of uk__reschedule: a HISR is ready, or one is running. */
static UK_SCHED_FN(reschedule_hisr) __attribute__((noinline)) void reschedule_hisr(void)
{
    uk_hisr_t *cur_h = uk__current_hisr;
    if (uk__hisr_ready) {
        uk_hisr_t *h = uk__hisr_pick();
        if (h == cur_h)
            return;
        uk__current_hisr = h;
        uk__arch_switch(cur_h ? &cur_h->sp : &uk__current->sp, &h->sp);
        return;
    }
    /* The last HISR is done: back to a task (its context was saved when the HISR began). */
    uk_task_t *next = uk__sched_pick();
    uk__current_hisr = 0;
    uk__current = next;
    UK_POWER_SWITCH(next);
    uk__arch_switch(&cur_h->sp, &next->sp);
}
#endif

/* Run what must run: the highest activated HISR if any, else the policy's choice of task.
 * The kernel lock is held (never called from a LISR). While a HISR runs, uk__current stays
 * the task it interrupted. The task-to-task path keeps nothing live across the policy's
 * pick, so it needs no callee-saved registers of its own and ends in a tail call. */
UK_SCHED_FN(uk__reschedule) void uk__reschedule(void)
{
    if (__builtin_expect(!uk__started, 0))
        return;
#ifdef UK_FEATURE_HISR
    if (__builtin_expect(uk__hisr_ready || uk__current_hisr, 0)) {
        reschedule_hisr();
        return;
    }
#endif
    uk_task_t *next = uk__sched_pick();
    uk_task_t *prev = uk__current;
    if (next == prev)
        return;
    uk__check_stack(prev, uk__arch_sp());
    uk__current = next; /* no state changes: a running task's says READY */
    UK_POWER_SWITCH(next);
    uk__arch_switch(&prev->sp, &next->sp);
}

/* The kernel's tail: the machine software interrupt, raised by the timer interrupt and by
 * deferred LISR calls. Runs with the kernel lock held and interrupts enabled, on the stack
 * of the interrupted task (switch.S saved its caller-saved registers, mepc and mstatus).
 * The software interrupt is cleared first: whatever a LISR queues after that raises it
 * again, and the tail runs once more when the lock is next released. */
UK_SCHED_FN(uk__tail) void uk__tail(void)
{
    uk__check_irq_stack(); /* first: a LISR that overflowed it ran just before */
    uk__arch_tail_ack();
    if (uk__tick_due) {
        uk__tick_due = 0;
        uk__arch_timer_ack(); /* also unmasks the timer interrupt */
        uk__tick();
    }
    if (uk__defer_head != uk__defer_tail)
        uk__defer_drain();
    uk__reschedule();
    if (uk__current->sig_pending)
        uk__signal_tail();  /* the task the tail returns to runs its signal handler first */
    uk__check_invariants(); /* switch.S frees the lock next: a kernel exit */
}

/* A waiting t changes priority: it moves in its wait queue, and the waiter first in line may
 * be another one now. Out of line: the ready case of uk__set_prio keeps its small frame.
 * aligned(4) keeps the code placed after it (the policy, the switch) at the 4-byte phase it
 * had: Ibex fetches 32-bit words, and a 2-byte shift alone moved sched_overhead_cycles by
 * 1 to 3 cycles. */
static UK_SCHED_FN(requeue_waiter)
    __attribute__((noinline, aligned(4))) void requeue_waiter(uk_task_t *t, uk_prio_t prio)
{
    uk_list_t *q = t->waiting_on;
    uk__waitq_requeue(q, t, prio); /* the back end's (kernel_waitq.h) */
    uk__wait_moved(t, q);
}

/* Change t's effective priority, keeping the ready structure and its wait queue ordered. */
UK_SCHED_FN(uk__set_prio) void uk__set_prio(uk_task_t *t, uk_prio_t prio)
{
    if (t->prio == prio)
        return;
    if (t->state == UK_TASK_READY)
        uk__sched_set_prio(t, prio);
    else if (t->state == UK_TASK_PENDING || t->state == UK_TASK_PENDING_DELAYED)
        requeue_waiter(t, prio);
    else
        t->prio = prio;
}
