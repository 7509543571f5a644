/* Ubik internals: the tick and the end of a delay (time.c). */
#ifndef UBIK_KERNEL_TIME_H
#define UBIK_KERNEL_TIME_H

#include "kernel_config.h"
#include "kernel_list.h"
#include "kernel_task.h"
#include "kernel_sched.h"
#include "kernel_wait.h"

/* ---- Time (time.c) -------------------------------------------------------------------- */

/* Delays are the back end's (uk__delay_insert, uk__delay_remove, uk__delay_tick). */
#include "kernel_waitq.h"
/* e's delay ran out (the tick found it expired, by the back end's count): a wait with a
 * timeout ends with UK_ETIMEOUT, a sleep ends, and e is ready. */
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
void uk__tick(void); /* from the kernel tail */
/* Timers: the tick (time.c, lock held) calls this when timers exist (set by uk_timer_init*). */
extern void (*uk__timer_tick_hook)(void);

#endif
