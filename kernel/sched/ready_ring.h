/* Ready rings, shared by prio.c (one per priority) and rr.c (its run queue): the tasks form a
 * ring of their ready_nodes without a sentinel, found through a head pointer (ThreadX keeps
 * its priority lists so). Rotating the ring -- a yield, the end of a slice -- moves the head
 * and touches no link. A task outside every ring has its node linked to itself. */
#ifndef UBIK_SCHED_READY_RING_H
#define UBIK_SCHED_READY_RING_H

#include "kernel.h"

static inline uk_task_t *uk__ring_next(const uk_task_t *t)
{
    return UK_CONTAINER_OF(t->ready_node.next, uk_task_t, ready_node);
}

/* t joins the back of the ring at *head; true if the ring was empty (t is its head now). */
static inline bool uk__ring_append(uk_task_t **head, uk_task_t *t)
{
    uk_task_t *h = *head;
    if (h) {
        uk__list_insert_before(&h->ready_node, &t->ready_node);
        return false;
    }
    t->ready_node.next = t->ready_node.prev = &t->ready_node;
    *head = t;
    return true;
}

/* t leaves the ring at *head (its node linked to itself again); true if the ring is empty. */
static inline bool uk__ring_remove(uk_task_t **head, uk_task_t *t)
{
    uk_list_t *n = &t->ready_node;
    if (n->next == n) {
        *head = 0;
        return true;
    }
    if (*head == t)
        *head = uk__ring_next(t);
    uk__list_remove(n);
    return false;
}

#endif
