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
 * Order, by the key (has a deadline, deadline, priority, arrival): tasks with a deadline
 * first, earliest deadline first; then by priority (the tie-break among equal deadlines, and
 * the whole order of tasks without one, the idle task last); FIFO among equals in both. The
 * deadline of the key is the effective one: the earlier of the job's and the one the task
 * inherits through the mutexes it holds (mutex.c, deadline inheritance); a task without a
 * deadline of its own that inherits one is ordered as a task with a deadline.
 *
 * Structure: two parts, neither walked.
 *  - Tasks whose key has a deadline are in a pairing heap (Fredman, Sedgewick, Sleator and
 *    Tarjan) threaded through the TCBs: heap_child is a task's first child, ready_node.next
 *    its next sibling, ready_node.prev its previous sibling or, for a first child, its parent
 *    (NULL-terminated; the root has neither). Insert is one comparison (O(1)); removing the
 *    root or any member is a two-pass pairing of its children, O(log n) amortised (one
 *    removal pairs as many children as the member has: k inserts behind the root, then its
 *    removal, is O(k) once); pick is the root. Arrival order is ready_seq, stamped at each arrival (compared by difference:
 *    tasks that stay ready for 2^31 arrivals of others may lose their FIFO place, never the
 *    deadline order).
 *  - Tasks without one are in prio.c's structure: a ring per priority and a two-level bitmap
 *    (O(1)); the idle task is always there.
 * pick() is the heap's root when the heap is not empty, else the first of the highest ring.
 *
 * Invariant: the two parts hold exactly the READY tasks (the running one among them), t->in_heap
 * says which, every heap child runs after its parent. */
#include "kernel.h"
#include "prio_map.h"
#include "ready_ring.h"

static uk_task_t *root;             /* the heap's root, or NULL */
static uint32_t arrivals;           /* the next ready_seq */
static uk_task_t *heads[UK_PRIOS];  /* prio.c's rings, for the tasks without a deadline */
static uk_prio_map_t map;           /* the priorities whose ring is not empty */
static unsigned top = UK_PRIOS - 1; /* the first of them */

/* Sibling and parent links of the heap, stored in ready_node. */
static inline uk_task_t *next_of(const uk_task_t *t)
{
    return (uk_task_t *)(void *)t->ready_node.next;
}
static inline uk_task_t *prev_of(const uk_task_t *t)
{
    return (uk_task_t *)(void *)t->ready_node.prev;
}
static inline void set_next(uk_task_t *t, uk_task_t *n)
{
    t->ready_node.next = (uk_list_t *)(void *)n;
}
static inline void set_prev(uk_task_t *t, uk_task_t *p)
{
    t->ready_node.prev = (uk_list_t *)(void *)p;
}

/* a runs before b; both have a key deadline. Strict: no two tasks are equal (ready_seq). */
static inline bool before(const uk_task_t *a, const uk_task_t *b)
{
    int32_t d = (int32_t)(a->eff_deadline - b->eff_deadline);
    if (d)
        return d < 0;
    if (a->prio != b->prio)
        return a->prio < b->prio;
    return (int32_t)(a->ready_seq - b->ready_seq) < 0;
}

/* One heap of two roots (each with no siblings): the later becomes the earlier's first child. */
static UK_SCHED_FN(meld) uk_task_t *meld(uk_task_t *a, uk_task_t *b)
{
    if (before(b, a)) {
        uk_task_t *x = a;
        a = b;
        b = x;
    }
    uk_task_t *c = a->heap_child;
    set_next(b, c);
    if (c)
        set_prev(c, b);
    set_prev(b, a);
    a->heap_child = b;
    return a;
}

/* The two-pass pairing of a list of siblings (first: the first of them, or NULL) into one
 * heap, whose root is returned with no parent and no siblings. Pass one melds them in pairs
 * left to right, chaining the results backwards through their next links; pass two melds
 * that chain from its head (the rightmost pair) into one. */
static UK_SCHED_FN(pair_up) uk_task_t *pair_up(uk_task_t *first)
{
    uk_task_t *chain = 0;
    while (first) {
        uk_task_t *a = first, *b = next_of(a);
        if (!b) {
            set_next(a, chain);
            chain = a;
            break;
        }
        first = next_of(b);
        a = meld(a, b);
        set_next(a, chain);
        chain = a;
    }
    if (!chain)
        return 0;
    uk_task_t *h = chain;
    chain = next_of(h);
    while (chain) {
        uk_task_t *n = next_of(chain);
        h = meld(h, chain);
        chain = n;
    }
    set_next(h, 0);
    set_prev(h, 0);
    return h;
}

/* t (in no structure) joins the heap: meld of the root and t, written out for a single t. */
static inline void heap_insert(uk_task_t *t)
{
    uk_task_t *r = root;
    t->in_heap = 1;
    t->ready_seq = arrivals++;
    if (r && !before(t, r)) { /* t becomes the root's first child */
        uk_task_t *c = r->heap_child;
        set_next(t, c);
        if (c)
            set_prev(c, t);
        set_prev(t, r);
        r->heap_child = t;
        t->heap_child = 0;
        return;
    }
    t->heap_child = r; /* t becomes the root, the old one (if any) its only child */
    if (r)
        set_prev(r, t);
    set_next(t, 0);
    set_prev(t, 0);
    root = t;
}

static UK_SCHED_FN(heap_remove) __attribute__((noinline)) void heap_remove(uk_task_t *t)
{
    uk_task_t *rest = pair_up(t->heap_child);
    if (t == root) {
        root = rest;
    } else {
        uk_task_t *p = prev_of(t), *n = next_of(t); /* unlink t from its parent's children */
        if (p->heap_child == t)
            p->heap_child = n;
        else
            set_next(p, n);
        if (n)
            set_prev(n, p);
        if (rest)
            root = meld(root, rest);
    }
    t->in_heap = 0;
    t->heap_child = 0;
    t->ready_node.next = t->ready_node.prev = &t->ready_node; /* in no structure */
}

static inline void ring_insert(uk_task_t *t)
{
    unsigned p = t->prio;
    if (!uk__ring_append(&heads[p], t)) /* behind its equals */
        return;
    uk__pmap_set(&map, p);
    if (p < top)
        top = p;
}

static inline void ring_remove(uk_task_t *t)
{
    unsigned p = t->prio;
    if (!uk__ring_remove(&heads[p], t))
        return;
    if (p == top)
        top = uk__pmap_clear_first(&map, p); /* the idle task keeps the map non-empty */
    else
        uk__pmap_clear(&map, p);
}

/* t's key deadline (kernel_sched.h): false if it has none. */
static inline bool update_key(uk_task_t *t) { return uk__deadline_key(t, &t->eff_deadline); }

/* t (in neither part) joins the part its key says, behind its equals. */
static UK_SCHED_FN(place) void place(uk_task_t *t)
{
    if (update_key(t))
        heap_insert(t);
    else
        ring_insert(t);
}

static UK_SCHED_FN(unplace) void unplace(uk_task_t *t)
{
    if (t->in_heap)
        heap_remove(t);
    else
        ring_remove(t);
}

/* The entry points every switch runs start on a 4-byte boundary: Ibex fetches 32-bit words,
 * and a 32-bit instruction across two costs a cycle (the figures would move with the length
 * of the code placed before them). */
#define HOT __attribute__((aligned(4)))

static inline uk_task_t *first(void) { return root ? root : heads[top]; }

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void)
{
    root = 0;
    for (unsigned p = 0; p < UK_PRIOS; p++)
        heads[p] = 0;
    uk__pmap_init(&map);
    top = UK_PRIOS - 1;
}

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < UK_PRIOS ? UK_OK : UK_EINVAL;
}

/* A task with a deadline: its key renewed, into the heap. Out of line, so the common insert
 * (no deadline: a ring) needs no stack frame. */
static UK_SCHED_FN(insert_keyed) __attribute__((noinline)) void insert_keyed(uk_task_t *t)
{
    if (t->rel_deadline)
        t->deadline = uk__ticks + t->rel_deadline; /* released now */
    (void)update_key(t);
    heap_insert(t);
}

UK_SCHED_FN(uk__sched_insert) HOT void uk__sched_insert(uk_task_t *t)
{
    if (__builtin_expect(t->rel_deadline || t->inh_set, 0)) {
        insert_keyed(t);
        return;
    }
    ring_insert(t);
}

UK_SCHED_FN(uk__sched_remove) HOT void uk__sched_remove(uk_task_t *t) { unplace(t); }

UK_SCHED_FN(uk__sched_pick) HOT uk_task_t *uk__sched_pick(void)
{
#ifdef UK_EDF_COOPERATIVE
    uk_task_t *cur = uk__current;
    if (cur && cur->state == UK_TASK_READY && cur != &uk__idle_task)
        return cur; /* never preempted: it runs until it gives the processor up */
#endif
    return first();
}

/* A yield that is not the common case below: under coop, t runs while a higher ring is not
 * empty, or inheritance moved t; or a task has a deadline. */
static UK_SCHED_FN(yield_slow) __attribute__((noinline)) uk_task_t *yield_slow(uk_task_t *t)
{
    uk_task_t **head = &heads[t->prio];
    if (!root && *head == t) {
        *head = uk__ring_next(t); /* behind its equals; another ring is first */
        return heads[top];
    }
    unplace(t);
    place(t); /* behind its equals: a new arrival, the same deadline */
    return first();
}

UK_SCHED_FN(uk__sched_yield) HOT uk_task_t *uk__sched_yield(uk_task_t *t)
{
    if (__builtin_expect(root || heads[top] != t, 0))
        return yield_slow(t);
    /* The common case: no task with a deadline, t the first of the highest ring. The next
     * one becomes the ring's head (t itself when alone), as under prio. */
    uk_task_t *next = uk__ring_next(t);
    heads[t->prio] = next;
    return next;
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
    (void)t;
    return false;
}

UK_SCHED_FN(uk__sched_set_prio) void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio)
{
    unplace(t);
    t->prio = prio;
    place(t);
}

UK_SCHED_FN(uk__sched_set_deadline) void uk__sched_set_deadline(uk_task_t *t, uk_tick_t deadline)
{
    t->deadline = deadline;
    unplace(t);
    place(t);
}

UK_SCHED_FN(uk__sched_inherit) void uk__sched_inherit(uk_task_t *t, bool set, uk_tick_t deadline)
{
    if (t->inh_set == set && (!set || t->inh_deadline == deadline))
        return;
    t->inh_set = set;
    t->inh_deadline = deadline;
    if (t->state == UK_TASK_READY) {
        unplace(t);
        place(t);
    }
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The heap below t (t included): every member ready, in the heap, with a key deadline, after
 * its parent, linked back to it. Recursion depth is the heap's
 * depth along first children, bounded by the number of ready tasks. */
static UK_SCHED_FN(check_heap) void check_heap(const uk_task_t *t)
{
    for (; t; t = next_of(t)) {
        uk__check_ready_task(t);
        uk_tick_t d;
        UK_CHECK(t->in_heap && uk__deadline_key(t, &d) && d == t->eff_deadline,
                 "a task in the deadline heap has its key deadline");
        const uk_task_t *prev = t;
        for (const uk_task_t *c = t->heap_child; c; prev = c, c = next_of(c)) {
            UK_CHECK(!before(c, t), "a heap child runs after its parent");
            UK_CHECK(prev_of(c) == prev, "a heap child is linked back");
        }
        check_heap(t->heap_child);
    }
}

/* The heap's members, counted with their subtrees. */
static UK_SCHED_FN(count_heap) unsigned count_heap(const uk_task_t *t)
{
    unsigned n = 0;
    for (; t; t = next_of(t))
        n += 1 + count_heap(t->heap_child);
    return n;
}

/* The ring at heads[p], which is in the map: ready, without a deadline, of prio p. */
static UK_SCHED_FN(check_level) unsigned check_level(unsigned p)
{
    const uk_task_t *h = heads[p];
    UK_CHECK(h != 0, "a priority in the ready map has a non-empty list");
    unsigned n = 1 + uk__check_list(&h->ready_node);
    const uk_list_t *at = &h->ready_node;
    do {
        const uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, ready_node);
        uk__check_ready_task(t);
        uk_tick_t d;
        UK_CHECK(t->prio == p && !t->in_heap && !uk__deadline_key(t, &d),
                 "a ready task without a deadline is in the list of its priority");
        at = at->next;
    } while (at != &h->ready_node);
    return n;
}

/* The invariant above. Returns the number of ready tasks found. */
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    UK_CHECK(!root || !prev_of(root), "the heap's root has no parent");
    check_heap(root);
    unsigned n = count_heap(root), first_p = UK_PRIOS;
    for (unsigned g = 0; g < 8; g++) {
        UK_CHECK(((map.groups >> g) & 1) == (map.rows[g] != 0),
                 "the ready map's group bits match its rows");
        for (uint32_t row = map.rows[g]; row; row &= row - 1) {
            unsigned p = g << 5 | uk__lowest_bit(row);
            first_p = first_p < p ? first_p : p;
            n += check_level(p);
        }
    }
    UK_CHECK(top == first_p, "top is the highest ready priority without a deadline");
    UK_CHECK(uk__idle_task.state == UK_TASK_READY && !uk__idle_task.in_heap,
             "the idle task is ready");
    return n;
}
#endif
