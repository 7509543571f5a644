/* HISRs: deferred interrupt work on its own stack, above every task. Each level keeps a FIFO
 * of activated HISRs. Invariant: a HISR is in ready[prio] iff it is pending or running. */
#include "kernel.h"

#ifdef UK_FEATURE_HISR /* the whole file: [kernel] features in system.toml */

uint8_t uk__hisr_ready;
static uk_list_t ready[UK_HISR_PRIOS] = {
    {&ready[0], &ready[0]}, {&ready[1], &ready[1]}, {&ready[2], &ready[2]}, {&ready[3], &ready[3]}};

static UK_OTHER_FN(valid_hisr) bool valid_hisr(const uk_hisr_t *h)
{
    return h && h->magic == UK_HISR_MAGIC;
}

UK_OTHER_FN(uk_hisr_create)
int uk_hisr_create(uk_hisr_t *h, const char *name, void (*entry)(uk_hisr_t *), uint8_t prio,
                   void *stack, size_t stack_bytes)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (h && h->magic == UK_HISR_MAGIC && h->running)
        return UK_ESTATE; /* activated: it sits on the HISR ready list */
    if (!h || !entry || !stack || stack_bytes < 128 || ((uintptr_t)stack & 3) ||
        prio >= UK_HISR_PRIOS)
        return UK_EINVAL;
    *h = (uk_hisr_t){0};
    h->name = name ? name : "?";
    h->entry = entry;
    h->prio = prio;
    h->stack_base = (uint32_t *)stack;
    h->stack_bytes = stack_bytes & ~(size_t)15;
    h->stack_base[0] = UK_STACK_CANARY;
    uk__list_init(&h->node);
    h->magic = UK_HISR_MAGIC;
    return UK_OK;
}

/* The body of a HISR context: run every pending activation, then leave for good (the next
 * activation starts on a fresh stack). */
static UK_OTHER_FN(hisr_run) void hisr_run(void *arg)
{
    uk_hisr_t *h = arg;
    while (h->pending) {
        h->pending--;
        uk__unlock(8); /* taken by the switch here */
        h->entry(h);
        (void)uk__lock();
    }
    if (h->stack_base[0] != UK_STACK_CANARY)
        uk__fatal("stack overflow in HISR", h->name);
    h->running = 0;
    uk__list_remove(&h->node);
    if (uk__list_empty(&ready[h->prio]))
        uk__hisr_ready &= ~(1u << h->prio);
    uk__reschedule(); /* never comes back here */
    uk__fatal("resumed the finished HISR", h->name);
}

#ifdef UK_CONFIG_CHECKS_FULL
/* The lists' invariant: each holds live HISRs of its level, each running, with a run still
 * to make unless it is in its last run: the one running now, or the first of a lower level
 * than the one running now (a higher level's activation preempted it mid-run, e.g. the
 * timers' HISR at a tick; it resumes when the higher levels are done, and its run ends after
 * the list is left); uk__hisr_ready marks exactly the non-empty levels. */
UK_OTHER_FN(uk__hisr_check) void uk__hisr_check(void)
{
    for (unsigned p = 0; p < UK_HISR_PRIOS; p++) {
        unsigned n = uk__check_links(&ready[p], 0xFFFF);
        UK_CHECK((n != 0) == ((uk__hisr_ready >> p & 1) != 0),
                 "uk__hisr_ready marks exactly the non-empty HISR levels");
        for (const uk_list_t *at = ready[p].next; at != &ready[p]; at = at->next) {
            const uk_hisr_t *h = UK_CONTAINER_OF(at, uk_hisr_t, node);
            UK_CHECK(h->magic == UK_HISR_MAGIC && h->prio == p && h->running,
                     "a HISR ready list holds running HISRs of its level");
            const uk_hisr_t *cur = uk__current_hisr;
            bool preempted = at == ready[p].next && cur && cur->prio < p;
            UK_CHECK(h->pending || h == cur || preempted, "a listed HISR has a run to make");
        }
    }
}
#endif

/* One more run of h, under the lock (the tail applies a LISR's activation this way). */
static UK_OTHER_FN(hisr_activate) int hisr_activate(void *obj, uint32_t arg)
{
    (void)arg;
    uk_hisr_t *h = obj;
    if (!valid_hisr(h))
        return UK_EINVAL; /* deleted while the activation was queued */
    if (h->pending == 0xFFFF)
        return UK_ENOMEM; /* counted, never silently dropped */
    h->pending++;
    if (!h->running) {
        h->running = 1;
        h->sp = uk__arch_context_init(h->stack_base, h->stack_bytes, hisr_run, h);
        uk__list_insert_before(&ready[h->prio], &h->node);
        uk__hisr_ready |= 1u << h->prio;
    }
    return UK_OK;
}

UK_OTHER_FN(uk__hisr_activate_locked) int uk__hisr_activate_locked(uk_hisr_t *h)
{
    return hisr_activate(h, 0);
}

UK_OTHER_FN(uk_hisr_activate) int uk_hisr_activate(uk_hisr_t *h)
{
    if (!valid_hisr(h))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return uk__defer(hisr_activate, h, 0);
    unsigned key = uk__lock();
    int r = hisr_activate(h, 0);
    if (r == UK_OK)
        uk__reschedule();
    uk__unlock(key);
    return r;
}

UK_OTHER_FN(uk_hisr_delete) int uk_hisr_delete(uk_hisr_t *h)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_hisr(h))
        return UK_EINVAL;
    unsigned key = uk__lock();
    int r = UK_ESTATE;
    if (!h->running) {
        h->magic = 0;
        r = UK_OK;
    }
    uk__unlock(key);
    return r;
}

UK_SCHED_FN(uk__hisr_pick) uk_hisr_t *uk__hisr_pick(void)
{
    if (!uk__hisr_ready)
        return 0;
    unsigned p = uk__hisr_ready & 1 ? 0 : uk__hisr_ready & 2 ? 1 : uk__hisr_ready & 4 ? 2 : 3;
    return UK_CONTAINER_OF(ready[p].next, uk_hisr_t, node);
}

#endif /* UK_FEATURE_HISR */
