/* The RTM back end of wait queues and delays (the contract: kernel/src/kernel_waitq.h): the
 * hardware task manager's records (docs/machine.md) hold each waiter's queue (an event id) and
 * its delay; the out-of-line half is in kernel/sched/rtm.c beside the records it shares with
 * the rtm policy. A wait queue's list holds its waiters in arrival order, all with the queue's
 * event id; the first in line is the RTM's answer to an event query. */
#ifndef UBIK_WAITQ_RTM_IMPL_H
#define UBIK_WAITQ_RTM_IMPL_H

#include "bsp/mmio.h"

/* The list is in arrival order: the RTM answers who is first. */
#define UK_WAITQ_PRIO_ORDERED 0

extern uk_task_t *uk__rtm_task_of[]; /* the task of each record */

void uk__waitq_insert(uk_list_t *q, uk_task_t *t);
static inline uk_task_t *uk__waitq_first(uk_list_t *q)
{
    if (uk__list_empty(q))
        return 0;
    uint32_t r = MMIO32(RTM_EVENT(UK_CONTAINER_OF(q->next, uk_task_t, wait_node)->rtm_event));
    return r == RTM_NONE ? 0 : uk__rtm_task_of[r];
}
/* t leaves its wait queue, and its record is no longer pending. */
void uk__waitq_remove(uk_task_t *t);
/* The same for a t that the caller makes ready next (its record is rewritten then). */
void uk__waitq_leave(uk_task_t *t);
/* The RTM orders the queue by the records' priorities: only the priority changes. The record
 * keeps its status (DELAYED, a pending EXPIRED) and its delay, so a timed wait still times
 * out; taking it out of the queue and back in would rewrite the status. */
static inline void uk__waitq_requeue(uk_list_t *q, uk_task_t *t, uk_prio_t prio)
{
    (void)q;
    uk__sched_set_prio(t, prio);
}

void uk__delay_insert(uk_task_t *t, uk_tick_t ticks);
void uk__delay_remove(uk_task_t *t);
void uk__delay_tick(void); /* the RTM counts every delay down; expiries wake */
#ifdef UK_CONFIG_CHECKS_FULL
unsigned uk__delay_check(void);
#endif

#endif
