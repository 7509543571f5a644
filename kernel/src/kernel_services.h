/* Ubik internals: what the services (queue.c port.c taskport.c flags.c signal.c timer.c pool.c
 * heap.c) share with the core and with each other. */
#ifndef UBIK_KERNEL_SERVICES_H
#define UBIK_KERNEL_SERVICES_H

#include "kernel_task.h"

/* Task ports: a deleted task's waiting senders wake with UK_EDELETED (task.c, delete). */
#ifdef UK_FEATURE_TASKPORT
void uk__taskport_task_gone(uk_task_t *t);
#else
static inline void uk__taskport_task_gone(uk_task_t *t) { (void)t; }
#endif

/* Signals are delivered by the kernel tail in the context of the task it returns to
 * (uk__signal_tail, the last thing uk__tail does). A task that resumes anywhere else with
 * signals pending raises the tail (UK__SIGNAL_RESUMED), which runs as soon as the task
 * releases the kernel lock. */
#ifdef UK_FEATURE_SIGNAL
void uk__signal_raise(void);
void uk__signal_tail(void);
#define UK__SIGNAL_RESUMED(t)   \
    do {                        \
        if ((t)->sig_pending)   \
            uk__signal_raise(); \
    } while (0)
#else
static inline void uk__signal_tail(void) {}
#define UK__SIGNAL_RESUMED(t) ((void)0)
#endif

int uk__flags_set_locked(uk_flags_t *f, uint32_t bits); /* no switch; 1 if a waiter woke */
#ifdef UK_FEATURE_HISR
/* One more run of h without a switch (the tail's reschedule runs it): for the timer HISR. */
int uk__hisr_activate_locked(uk_hisr_t *h);
#endif
/* Copying under the kernel lock (no libc): n bytes, any alignment. */
void uk__copy(void *dst, const void *src, size_t n);

#endif
