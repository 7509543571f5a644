/* The software back end of wait queues and delays (the contract: kernel/src/kernel_waitq.h).
 * A wait queue is its list, kept in priority order (FIFO among equals) by wait.c's
 * uk__waitq_insert_ordered, so its first waiter is its head; delays are time.c's delta list.
 * Everything a give or a tick runs is inline here; the bodies out of line stay in the core
 * files that own those lists (wait.c, time.c), in the place they have always had, so that the
 * images of the policies that use this back end do not move. */
#ifndef UBIK_WAITQ_SOFT_IMPL_H
#define UBIK_WAITQ_SOFT_IMPL_H

/* The queue's list is in priority order: a give serves its head. */
#define UK_WAITQ_PRIO_ORDERED 1

void uk__waitq_insert_ordered(uk_list_t *q, uk_task_t *t); /* wait.c */
void uk__delta_insert(uk_task_t *t, uk_tick_t ticks);      /* time.c */
void uk__delta_remove(uk_task_t *t);                       /* time.c */
unsigned uk__delta_check(void);                            /* time.c, checks = "full" */

static inline void uk__waitq_insert(uk_list_t *q, uk_task_t *t) { uk__waitq_insert_ordered(q, t); }
static inline uk_task_t *uk__waitq_first(uk_list_t *q)
{
    return uk__list_empty(q) ? 0 : UK_CONTAINER_OF(q->next, uk_task_t, wait_node);
}
static inline void uk__waitq_remove(uk_task_t *t) { uk__list_remove(&t->wait_node); }
static inline void uk__waitq_leave(uk_task_t *t) { uk__list_remove(&t->wait_node); }
/* Out of q and back in at its new place. */
static inline void uk__waitq_requeue(uk_list_t *q, uk_task_t *t, uk_prio_t prio)
{
    uk__waitq_remove(t);
    t->prio = prio;
    uk__waitq_insert(q, t);
}

static inline void uk__delay_insert(uk_task_t *t, uk_tick_t ticks) { uk__delta_insert(t, ticks); }
static inline void uk__delay_remove(uk_task_t *t) { uk__delta_remove(t); }
/* Only the head counts down (the others count from the one before them); the zeros at the
 * front expire. */
static inline void uk__delay_tick(void)
{
    if (!uk__list_empty(&uk__delta_list)) {
        uk_task_t *e = UK_CONTAINER_OF(uk__delta_list.next, uk_task_t, delay_node);
        if (e->delta)
            e->delta--;
        while (!uk__list_empty(&uk__delta_list)) {
            e = UK_CONTAINER_OF(uk__delta_list.next, uk_task_t, delay_node);
            if (e->delta)
                break;
            uk__delay_expire(e);
        }
    }
}
#ifdef UK_CONFIG_CHECKS_FULL
static inline unsigned uk__delay_check(void) { return uk__delta_check(); }
#endif

#endif
