/* Ubik internals: the kernel's state, the core of scheduling (sched_core.c, task.c), HISRs
 * and the stacks and their checks. */
#ifndef UBIK_KERNEL_TASK_H
#define UBIK_KERNEL_TASK_H

#include "kernel_config.h"

/* ---- State ---------------------------------------------------------------------------- */

extern uk_task_t *volatile uk__current;      /* the running task */
extern uk_task_t *uk__all_tasks;             /* every live task, newest first (debuggers) */
extern uk_hisr_t *volatile uk__current_hisr; /* the running HISR, or NULL */
extern bool uk__started;
extern volatile uk_tick_t uk__ticks;
extern uk_task_t uk__idle_task;

/* ---- Core (sched_core.c) -------------------------------------------------------------- */

void uk__reschedule(void); /* switch to the policy's pick if it differs */
void uk__tail(void);       /* the software interrupt: the kernel's deferred work */
void uk__set_prio(uk_task_t *t, uk_prio_t prio); /* effective priority, keeps queues ordered */
/* Stop the system: prints "ubik: fatal: WHAT NAME" (WHAT alone for a NULL name) and exits
 * with UK_EXIT_FATAL. WHAT says what happened and to what kind of context ("stack overflow in
 * task", "stack overflow in HISR"), NAME which one: the wording docs/api.md promises. */
__attribute__((noreturn)) void uk__fatal(const char *what, const char *name);

/* ---- HISRs and stacks ------------------------------------------------------------------ */

#ifdef UK_FEATURE_HISR
uk_hisr_t *uk__hisr_pick(void); /* the HISR to run (hisr.c), or NULL */
extern uint8_t uk__hisr_ready;  /* bit l: level l has an activated HISR */
#else
#define uk__hisr_ready 0
static inline uk_hisr_t *uk__hisr_pick(void) { return 0; }
#endif
/* A task's stack is intact if its lowest word still holds the canary and the stack pointer
 * it leaves with lies inside it; checked whenever a task is switched out. */
static inline void uk__check_stack(const uk_task_t *t, uintptr_t sp)
{
#ifndef UK_FEATURE_STACK_CHECK
    (void)t;
    (void)sp;
    return;
#endif
    /* The canary (an overflow that has returned) and sp below the stack (one in progress),
     * as switch.S's fast path checks: an sp above the stack is no overflow. */
    if (t->stack_base[0] != UK_STACK_CANARY || sp <= (uintptr_t)t->stack_base)
        uk__fatal("stack overflow in task", t->name);
}
/* The kernel's own stacks (init.c). Every LISR runs on `irq`, whatever it interrupted
 * (switch.S switches to it through mscratch, which holds its top while no LISR runs); the
 * idle task runs on `idle`. */
typedef struct {
    uint32_t idle[UK_IDLE_STACK_BYTES / 4];
    uint32_t irq[UK_IRQ_STACK_BYTES / 4];
} uk__stacks_t;
extern uk__stacks_t uk__stacks;
#define UK__STR(x) #x
#define UK__XSTR(x) UK__STR(x)
/* The interrupt stack is intact if its lowest word still holds the canary: checked by every
 * run of the kernel tail (after each LISR that made a kernel call, and at each tick), on the
 * tail's own stack, so the check costs the interrupt entry nothing. */
static inline void uk__check_irq_stack(void)
{
#ifdef UK_FEATURE_STACK_CHECK
    if (uk__stacks.irq[0] != UK_STACK_CANARY)
        uk__fatal("stack overflow in the interrupt stack ([kernel] irq_stack_bytes = " UK__XSTR(
                      UK_IRQ_STACK_BYTES) ")",
                  0);
#endif
}
void uk__task_run(uk_task_t *t); /* the first code of every task (task.c) */

#endif
