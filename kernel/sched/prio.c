/* Scheduler policy "prio": preemptive by priority, 256 priorities (0 highest; 32 in the
 * minimal profile, whose ready map is one word), FIFO among
 * equal priorities, no time slicing. O(1) selection with the two-level bitmap of prio_map.h
 * (de Bruijn lowest-bit lookup: the core has no CLZ/CTZ).
 *
 * Invariants: a task is in the ring at heads[p] iff it is ready or running and its prio is
 * p, in the order it became ready (or yielded), heads[p] first; priority p is in `map` iff
 * heads[p] is set. The running task is the head of the highest non-empty ring: a task
 * preempted by a higher priority stays the head of its own ring and runs first when that
 * priority is next. */
#include "kernel.h"
#include "prio_map.h"
#include "ready_ring.h"

/* prio_rr.c compiles this file with UK_PRIO_ROUND_ROBIN defined: the same structure plus
 * time slices (the lines under #if UK_PRIO_ROUND_ROBIN). */
#ifndef UK_PRIO_ROUND_ROBIN
#define UK_PRIO_ROUND_ROBIN 0
#endif

/* One word holds the ready map of 32 priorities or fewer (the minimal profile's), two levels
 * that of up to 256. */
#define UK_PRIO_ONE_WORD (UK_PRIOS <= 32)

/* heads[p]: the first task of priority p's ready ring (ready_ring.h), or none. */
static uk_task_t *heads[UK_PRIOS];
#if UK_PRIO_ONE_WORD
static uint32_t map; /* bit p: heads[p] is set */
#else
static uk_prio_map_t map;
#endif
/* The highest ready priority, kept up to date: raised by insert, recomputed from the map by
 * the remove that empties its list. pick() is then two loads. */
static unsigned top = UK_PRIOS - 1;

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void)
{
    for (unsigned p = 0; p < UK_PRIOS; p++)
        heads[p] = 0;
#if UK_PRIO_ONE_WORD
    map = 0;
#else
    uk__pmap_init(&map);
#endif
    top = UK_PRIOS - 1;
}

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < UK_PRIOS ? UK_OK : UK_EINVAL;
}

UK_SCHED_FN(uk__sched_insert) void uk__sched_insert(uk_task_t *t)
{
    unsigned p = t->prio;
#if UK_PRIO_ROUND_ROBIN
    t->slice_left = t->slice;
#endif
    if (!uk__ring_append(&heads[p], t)) /* behind its equals */
        return;
#if UK_PRIO_ONE_WORD
    map |= 1u << p;
#else
    uk__pmap_set(&map, p);
#endif
    if (p < top)
        top = p;
}

UK_SCHED_FN(uk__sched_remove) void uk__sched_remove(uk_task_t *t)
{
    unsigned p = t->prio;
    if (!uk__ring_remove(&heads[p], t))
        return;
#if UK_PRIO_ONE_WORD
    map &= ~(1u << p);
    if (p == top)
        top = uk__lowest_bit(map); /* the idle task keeps the map non-empty */
#else
    if (p == top)
        top = uk__pmap_clear_first(&map, p); /* the idle task keeps the map non-empty */
    else
        uk__pmap_clear(&map, p);
#endif
}

UK_SCHED_FN(uk__sched_pick) uk_task_t *uk__sched_pick(void) { return heads[top]; }

UK_SCHED_FN(uk__sched_yield) uk_task_t *uk__sched_yield(uk_task_t *t)
{
#if UK_PRIO_ROUND_ROBIN
    t->slice_left = t->slice;
#endif
    /* t was the highest ready priority and still is, and the head of its ring: the next
     * one becomes the head (t itself when alone). */
    uk_task_t *next = uk__ring_next(t);
    heads[t->prio] = next;
    return next;
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
#if UK_PRIO_ROUND_ROBIN
    if (t->state != UK_TASK_READY) /* t, the current task, blocked */
        return false;
    if (t->slice_left > 1) {
        t->slice_left--;
        return false;
    }
    t->slice_left = t->slice;
    uk_task_t *next = uk__ring_next(t);
    if (next == t)
        return false;      /* alone at its priority */
    heads[t->prio] = next; /* t, the head, goes behind its equals */
    return true;
#else
    (void)t;
    return false;
#endif
}

UK_SCHED_FN(uk__sched_set_prio) void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio)
{
    uk__sched_remove(t);
    t->prio = prio;
    uk__sched_insert(t);
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The ring at heads[p], which is in the map: ready, of prio p. Returns their number. */
static UK_SCHED_FN(check_level) unsigned check_level(unsigned p)
{
    const uk_task_t *h = heads[p];
    UK_CHECK(h != 0, "a priority in the ready map has a non-empty list");
    unsigned n = 1 + uk__check_list(&h->ready_node); /* the ring's other members, and h */
    const uk_list_t *at = &h->ready_node;
    do {
        const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, ready_node);
        uk__check_ready_task(t);
        UK_CHECK(t->prio == p, "a ready task is in the list of its priority");
        at = at->next;
    } while (at != &h->ready_node);
    return n;
}

/* The invariants above, for the priorities in the map: their lists hold ready tasks of that
 * priority, and `top` is the first of them. Returns the number of tasks found; the core
 * compares it with the number of ready tasks, so a ready task in a list outside the map (or
 * in none) shows as a shortfall, and the unmapped lists need no walk. */
#if UK_PRIO_ONE_WORD
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    unsigned n = 0;
    for (uint32_t row = map; row; row &= row - 1)
        n += check_level(uk__lowest_bit(row));
    UK_CHECK(map && top == uk__lowest_bit(map), "top is the highest ready priority");
    return n;
}
#else
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    unsigned n = 0, first = UK_PRIOS;
    for (unsigned g = 0; g < 8; g++) {
        UK_CHECK(((map.groups >> g) & 1) == (map.rows[g] != 0),
                 "the ready map's group bits match its rows");
        for (uint32_t row = map.rows[g]; row; row &= row - 1) {
            unsigned p = g << 5 | uk__lowest_bit(row);
            first = first < p ? first : p;
            n += check_level(p);
        }
    }
    UK_CHECK(top == first, "top is the highest ready priority");
    return n;
}
#endif
#endif
