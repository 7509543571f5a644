/* Scheduler policy "prio": preemptive by priority, 256 priorities (0 highest), FIFO among
 * equal priorities, no time slicing. O(1) selection with a two-level bitmap: bit g of `groups`
 * says group g (priorities 32g..32g+31) has a ready task, bit p of `rows[g]` says priority
 * 32g+p does. The core has no CLZ/CTZ instruction, so the lowest set bit is found with a
 * de Bruijn multiply (mul: 3 cycles) and a 32-entry table.
 *
 * Invariant: bit p of the bitmap is set iff lists[p] is not empty; a task is in lists[prio]
 * iff it is ready or running. */
#include "kernel.h"

static uk_list_t lists[UK_PRIOS];
static uint32_t groups;
static uint32_t rows[UK_PRIOS / 32];

static const uint8_t debruijn[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20, 15, 25, 17, 4,  8,
                                     31, 27, 13, 23, 21, 19, 16, 7,  26, 12, 18, 6,  11, 5,  10, 9};

static inline uint32_t lowest_bit(uint32_t x)
{
    return debruijn[((x & -x) * 0x077CB531u) >> 27];
}

UK_SCHED void uk__sched_init(void)
{
    for (unsigned p = 0; p < UK_PRIOS; p++)
        uk__list_init(&lists[p]);
    groups = 0;
    for (unsigned g = 0; g < UK_PRIOS / 32; g++)
        rows[g] = 0;
}

UK_SCHED int uk__sched_valid_prio(unsigned prio)
{
    return prio < UK_PRIOS ? UK_OK : UK_EINVAL;
}

UK_SCHED void uk__sched_insert(uk_task_t *t)
{
    unsigned p = t->prio;
    uk__list_insert_before(&lists[p], &t->ready_node);
    rows[p >> 5] |= 1u << (p & 31);
    groups |= 1u << (p >> 5);
}

UK_SCHED void uk__sched_remove(uk_task_t *t)
{
    unsigned p = t->prio;
    uk__list_remove(&t->ready_node);
    if (uk__list_empty(&lists[p])) {
        rows[p >> 5] &= ~(1u << (p & 31));
        if (!rows[p >> 5])
            groups &= ~(1u << (p >> 5));
    }
}

UK_SCHED uk_task_t *uk__sched_pick(void)
{
    uint32_t g = lowest_bit(groups); /* the idle task keeps groups non-zero */
    uint32_t p = g << 5 | lowest_bit(rows[g]);
    return UK_CONTAINER_OF(lists[p].next, uk_task_t, ready_node);
}

UK_SCHED void uk__sched_yield(uk_task_t *t)
{
    uk__list_remove(&t->ready_node);
    uk__list_insert_before(&lists[t->prio], &t->ready_node);
}

UK_SCHED bool uk__sched_tick(uk_task_t *t)
{
    (void)t;
    return false;
}
