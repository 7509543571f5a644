/* Ubik internals: the delta list of delayed tasks and the tick (time.c). */
#ifndef UBIK_KERNEL_TIME_H
#define UBIK_KERNEL_TIME_H

#include "kernel_config.h"
#include "kernel_list.h"
#include "kernel_task.h"

/* ---- Time (time.c) -------------------------------------------------------------------- */

void uk__delay_insert(uk_task_t *t, uk_tick_t ticks); /* into the delta list */
void uk__delay_remove(uk_task_t *t);
void uk__tick(void);                                  /* from the kernel tail */
#if UK_SCHED_RTM
void uk__rtm_tick(void); /* kernel/sched/rtm.c: the RTM counts delays down, expiries wake */
#endif
/* Delayed tasks, in expiry order (also read by the timer interrupt's short path, switch.S). */
extern uk_list_t uk__delta_list;
/* Timers: the tick (time.c, lock held) calls this when timers exist (set by uk_timer_init*). */
extern void (*uk__timer_tick_hook)(void);


#endif
