/* Scheduler policy "edf": earliest deadline first, preemptive. Compiled with
 * UK_EDF_COOPERATIVE (kernel/sched/coop.c) it is policy "coop": the same order, but a running
 * task is never preempted -- it runs until it blocks, sleeps, yields or is suspended (a
 * cooperative, dynamic-priority kernel, as the SimBed paper's Echidna).
 *
 * A task's deadline is an absolute tick, set each time it becomes ready to now +
 * t->rel_deadline (uk_task_set_deadline; uk_task_sleep_until sets rel_deadline to its period,
 * so a periodic task's job is due at its next release). Ticks are compared by difference:
 * uk_tick_t wraps, and deadlines within 2^31 ticks of each other compare right.
 *
 * Order: tasks with a deadline first, earliest deadline first; then by priority (the tie-
 * break among equal deadlines, and the whole order of tasks without one, the idle task last);
 * FIFO among equals in both. Priority inheritance (mutexes) raises a task among equal
 * deadlines only.
 *
 * Invariant: `ready` holds exactly the READY tasks (the running one among them), sorted by
 * that order. Insert walks the list: O(ready tasks), as the sorted list of an EDF kernel is;
 * pick and remove are O(1). */
#include "kernel.h"

static uk_list_t ready;

/* a runs before b (strictly: equals keep their arrival order). */
static UK_SCHED_FN(runs_before) bool runs_before(const uk_task_t *a, const uk_task_t *b)
{
    bool ad = a->rel_deadline != 0, bd = b->rel_deadline != 0;
    if (ad != bd)
        return ad;
    if (ad && a->deadline != b->deadline)
        return (int32_t)(a->deadline - b->deadline) < 0;
    return a->prio < b->prio;
}

/* t goes behind every task that does not run after it. */
static UK_SCHED_FN(place) void place(uk_task_t *t)
{
    uk_list_t *at = ready.next;
    while (at != &ready && !runs_before(t, UK_CONTAINER_OF(at, uk_task_t, ready_node)))
        at = at->next;
    uk__list_insert_before(at, &t->ready_node);
}

static uk_task_t *first(void)
{
    return UK_CONTAINER_OF(ready.next, uk_task_t, ready_node); /* the idle task is always in */
}

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void) { uk__list_init(&ready); }

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < UK_PRIOS ? UK_OK : UK_EINVAL;
}

UK_SCHED_FN(uk__sched_insert) void uk__sched_insert(uk_task_t *t)
{
    if (t->rel_deadline)
        t->deadline = uk__ticks + t->rel_deadline; /* released now */
    place(t);
}

UK_SCHED_FN(uk__sched_remove) void uk__sched_remove(uk_task_t *t)
{
    uk__list_remove(&t->ready_node);
}

UK_SCHED_FN(uk__sched_pick) uk_task_t *uk__sched_pick(void)
{
#ifdef UK_EDF_COOPERATIVE
    uk_task_t *cur = uk__current;
    if (cur && cur->state == UK_TASK_READY && cur != &uk__idle_task)
        return cur; /* never preempted: it runs until it gives the processor up */
#endif
    return first();
}

UK_SCHED_FN(uk__sched_yield) uk_task_t *uk__sched_yield(uk_task_t *t)
{
    uk__list_remove(&t->ready_node);
    place(t); /* behind its equals */
    return first();
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
    (void)t;
    return false;
}

UK_SCHED_FN(uk__sched_set_prio) void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio)
{
    t->prio = prio;
    uk__list_remove(&t->ready_node);
    place(t);
}

UK_SCHED_FN(uk__sched_set_deadline) void uk__sched_set_deadline(uk_task_t *t, uk_tick_t deadline)
{
    t->deadline = deadline;
    uk__list_remove(&t->ready_node);
    place(t);
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The invariant above: every member ready and in order. Returns the number of ready tasks. */
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    unsigned n = uk__check_list(&ready);
    const uk_task_t *prev = 0;
    bool idle_in = false;
    for (const uk_list_t *at = ready.next; at != &ready; at = at->next) {
        const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, ready_node);
        uk__check_ready_task(t);
        UK_CHECK(!prev || !runs_before(t, prev), "the ready list is in deadline order");
        idle_in |= t == &uk__idle_task;
        prev = t;
    }
    UK_CHECK(idle_in, "the idle task is ready");
    return n;
}
#endif
