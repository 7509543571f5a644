/* Scheduler policy "bitmap": preemptive by priority for at most 64 tasks, priorities 0..63
 * (0 highest; 63 is the idle task's). The ready set is one 64-bit field, two words; the
 * highest ready priority is its lowest set bit, found by the de Bruijn lookup of prio_map.h
 * (the core has no CLZ/CTZ): one test of the low word, one multiply, one table load.
 *
 * Unique priorities, the classic design of a bitmap scheduler (uC/OS-II): a priority
 * identifies at most one live task, so the field has room for exactly 64 tasks. The policy
 * claims a task's base priority when it is created or given a new one (uk_task_set_prio) and
 * releases it when the task is deleted; a second task at a taken priority is refused with
 * UK_EINVAL, as an out-of-range priority is. Only priority inheritance (mutexes) can make
 * two tasks share an effective priority for a while (an owner raised to its waiter's
 * priority, and that waiter woken by a timeout): the ready structure allows it with one list
 * per priority, FIFO among those equals, so inheritance needs no reserved priorities.
 *
 * Invariants: bit p of `claimed` is set iff a live task (created, not deleted) has base
 * priority p. A task is in lists[p] iff it is ready or running and its prio is p (normally
 * alone), in the order it became ready; bit p of ready[p >> 5] is set iff lists[p] is not
 * empty. The running task is the head of the highest non-empty list. */
#include "kernel.h"
#include "prio_map.h"

_Static_assert(UK_PRIOS == 64, "the bitmap policy has 64 priorities");

static uk_list_t lists[64];
static uint32_t ready[2];   /* bit p: lists[p] is not empty */
static uint32_t claimed[2]; /* bit p: a live task has base priority p */
static unsigned top = 63;   /* the highest ready priority (as in prio.c) */

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void)
{
    for (unsigned p = 0; p < 64; p++)
        uk__list_init(&lists[p]);
    ready[0] = ready[1] = 0;
    claimed[0] = claimed[1] = 0;
    top = 63;
}

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < 64 ? UK_OK : UK_EINVAL;
}

UK_SCHED_FN(uk__sched_claim_prio) int uk__sched_claim_prio(uk_task_t *t, unsigned prio)
{
    (void)t;
    uint32_t bit = 1u << (prio & 31);
    if (prio >= 64 || (claimed[prio >> 5] & bit))
        return UK_EINVAL;
    claimed[prio >> 5] |= bit;
    return UK_OK;
}

UK_SCHED_FN(uk__sched_release_prio) void uk__sched_release_prio(uk_task_t *t, unsigned prio)
{
    (void)t;
    claimed[prio >> 5] &= ~(1u << (prio & 31));
}

UK_SCHED_FN(uk__sched_insert) void uk__sched_insert(uk_task_t *t)
{
    unsigned p = t->prio;
    uk__list_insert_before(&lists[p], &t->ready_node);
    ready[p >> 5] |= 1u << (p & 31);
    if (p < top)
        top = p;
}

UK_SCHED_FN(uk__sched_remove) void uk__sched_remove(uk_task_t *t)
{
    unsigned p = t->prio;
    uk__list_remove(&t->ready_node);
    if (uk__list_empty(&lists[p])) {
        ready[p >> 5] &= ~(1u << (p & 31));
        if (p == top)
            top = uk__lowest_bit64(ready[0], ready[1]); /* the idle task (63) keeps it non-zero */
    }
}

UK_SCHED_FN(uk__sched_pick) uk_task_t *uk__sched_pick(void)
{
    return UK_CONTAINER_OF(lists[top].next, uk_task_t, ready_node);
}

UK_SCHED_FN(uk__sched_yield) uk_task_t *uk__sched_yield(uk_task_t *t)
{
    /* t was the highest ready priority and still is: the head of its list runs next. */
    return UK_CONTAINER_OF(uk__list_to_tail(&lists[t->prio], &t->ready_node), uk_task_t,
                           ready_node);
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
    (void)t;
    return false;
}

UK_SCHED_FN(uk__sched_set_prio) void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio)
{
    uk__sched_remove(t);
    t->prio = prio;
    uk__sched_insert(t);
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The tasks of lists[p], whose ready bit is set: ready, of prio p, with a claimed base
 * priority. Returns their number. */
static UK_SCHED_FN(check_level) unsigned check_level(unsigned p)
{
    unsigned n = uk__check_list(&lists[p]);
    UK_CHECK(n != 0, "a priority set in the ready field has a non-empty list");
    for (uk_list_t *at = lists[p].next; at != &lists[p]; at = at->next) {
        const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, ready_node);
        uk__check_ready_task(t);
        UK_CHECK(t->prio == p, "a ready task is in the list of its priority");
        UK_CHECK((claimed[t->base_prio >> 5] >> (t->base_prio & 31)) & 1,
                 "a live task's base priority is claimed");
    }
    return n;
}

/* The invariants above, for the priorities set in `ready`: their lists hold ready tasks of
 * that priority, and `top` is the first of them. Returns the number of tasks found; the core
 * compares it with the number of ready tasks (a ready task outside these lists shows as a
 * shortfall). */
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    unsigned n = 0, first = 64;
    for (unsigned w = 0; w < 2; w++)
        for (uint32_t bits = ready[w]; bits; bits &= bits - 1) {
            unsigned p = w << 5 | uk__lowest_bit(bits);
            first = first < p ? first : p;
            n += check_level(p);
        }
    UK_CHECK(top == first, "top is the highest ready priority");
    return n;
}
#endif
