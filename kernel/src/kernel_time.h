/* Ubik internals: the delta list of delayed tasks and the tick (time.c). */
#ifndef UBIK_KERNEL_TIME_H
#define UBIK_KERNEL_TIME_H

#include "kernel_config.h"
#include "kernel_list.h"
#include "kernel_task.h"
#include "kernel_sched.h"
#include "kernel_wait.h"

/* ---- Time (time.c) -------------------------------------------------------------------- */

void uk__delay_insert(uk_task_t *t, uk_tick_t ticks); /* into the delta list */
void uk__delay_remove(uk_task_t *t);
/* e's delay ran out (the tick found it expired, the delta list's or the RTM's): a wait with
 * a timeout ends with UK_ETIMEOUT, a sleep ends, and e is ready. */
static inline void uk__delay_expire(uk_task_t *e)
{
    if (e->state == UK_TASK_PENDING_DELAYED)
        uk__wait_end(e, UK_ETIMEOUT); /* timed out */
    else
        uk__delay_remove(e);
    uk__make_ready(e);
    if (e->blocked_on)
        uk__mutex_wait_ended(e); /* the owner no longer inherits e's priority */
}
void uk__tick(void);                                  /* from the kernel tail */
#if UK_SCHED_RTM
void uk__rtm_tick(void); /* kernel/sched/rtm.c: the RTM counts delays down, expiries wake */
#endif
/* Delayed tasks, in expiry order (also read by the timer interrupt's short path, switch.S). */
extern uk_list_t uk__delta_list;
/* Timers: the tick (time.c, lock held) calls this when timers exist (set by uk_timer_init*). */
extern void (*uk__timer_tick_hook)(void);


#endif
