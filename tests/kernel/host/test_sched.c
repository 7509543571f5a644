/* Host unit test of one scheduler policy file (kernel/sched/<name>.c, compiled as it is with
 * -DUK_CONFIG_SCHED_<NAME>): random insert/remove/yield/tick/set_prio sequences against a
 * reference model, checking pick() after every step.
 *
 * The model keeps every ready task in one list in order of (re)arrival: a priority policy
 * must pick the earliest-arrived task of the highest priority (FIFO among equals, a yield or
 * an expired slice counts as a new arrival); "rr" the earliest-arrived task, the idle task
 * only when no other is ready; a deadline policy the earliest-arrived task of the smallest
 * (has no deadline, deadline, priority) -- "coop" the running task while it is ready. */
#include <assert.h>
#include <stdio.h>
#include "kernel.h"

uk_task_t uk__idle_task;
uk_task_t *volatile uk__current;
volatile uk_tick_t uk__ticks;

#define NT 40
static uk_task_t tasks[NT];
static int seq[NT + 1], nseq; /* the model: ready tasks (index, NT = idle) by arrival */
static uk_task_t *cur;

static uk_task_t *T(int i) { return i == NT ? &uk__idle_task : &tasks[i]; }

#if defined(UK_CONFIG_SCHED_RR)
#define SLICED 1
#define PRIO_ORDER 0
#elif defined(UK_CONFIG_SCHED_PRIO_RR)
#define SLICED 1
#define PRIO_ORDER 1
#else
#define SLICED 0
#define PRIO_ORDER 1
#endif
#if UK_SCHED_DEADLINES
#define DEADLINE_ORDER 1
#else
#define DEADLINE_ORDER 0
#endif

static uint32_t rng = 4242;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static int find(int i)
{
    for (int k = 0; k < nseq; k++)
        if (seq[k] == i)
            return k;
    return -1;
}
static void model_remove(int i)
{
    int k = find(i);
    assert(k >= 0);
    for (; k < nseq - 1; k++)
        seq[k] = seq[k + 1];
    nseq--;
}
static void model_append(int i) { seq[nseq++] = i; }

/* a runs before b in the deadline order (not FIFO: arrival breaks the remaining ties). */
static __attribute__((unused)) bool deadline_before(const uk_task_t *a, const uk_task_t *b)
{
    if ((a->rel_deadline != 0) != (b->rel_deadline != 0))
        return a->rel_deadline != 0;
    if (a->rel_deadline && a->deadline != b->deadline)
        return (int32_t)(a->deadline - b->deadline) < 0;
    return a->prio < b->prio;
}

/* The policy's order alone (what a yield or a blocking running task leads to). */
static int model_order_pick(void)
{
    int best = -1;
    for (int k = 0; k < nseq; k++) {
        int i = seq[k];
#if DEADLINE_ORDER
        if (best < 0 || deadline_before(T(i), T(best)))
            best = i;
#elif PRIO_ORDER
        if (best < 0 || T(i)->prio < T(best)->prio)
            best = i;
#else
        if (i != NT && best < 0)
            best = i;
#endif
    }
    return best < 0 ? NT : best;
}

static int model_pick(void)
{
#ifdef UK_CONFIG_SCHED_COOP
    if (cur && cur != &uk__idle_task && cur->state == UK_TASK_READY)
        return (int)(cur - tasks); /* never preempted */
#endif
    return model_order_pick();
}

/* The core's part of a reschedule: the pick runs, and matches the model. */
static void reschedule(void)
{
    uk_task_t *next = uk__sched_pick();
    assert(next == T(model_pick()));
    cur = uk__current = next; /* states unchanged: the running task's says READY */
}

static void make_ready(int i)
{
    T(i)->state = UK_TASK_READY;
    uk__sched_insert(T(i));
#if DEADLINE_ORDER
    if (T(i)->rel_deadline)
        assert(T(i)->deadline == uk__ticks + T(i)->rel_deadline);
#endif
    model_append(i);
}

static unsigned rand_prio(void)
{
    return (rnd() & 1) ? 10 + rnd() % 4 : rnd() % (UK_PRIOS - 1); /* crowd some levels */
}

int main(void)
{
    unsigned checks = 0;
    uk__sched_init();
    uk__ticks = 0xFFFFFF00u; /* deadlines wrap around during the run */
    for (int i = 0; i <= NT; i++) {
        uk_task_t *t = T(i);
        *t = (uk_task_t){0};
        t->prio = t->base_prio = i == NT ? UK_IDLE_PRIO : rand_prio();
        t->slice = t->slice_left = 1 + rnd() % 3;
        t->state = UK_TASK_SUSPENDED;
        uk__list_init(&t->ready_node);
    }
    make_ready(NT);
    reschedule();
    for (int op = 0; op < 500000; op++) {
        int i = (int)(rnd() % NT);
        uk_task_t *t = T(i);
        switch (rnd() % 8) {
        case 0:
        case 1: /* a task becomes ready */
            if (t->state == UK_TASK_SUSPENDED)
                make_ready(i);
            break;
        case 2: /* a ready or running task blocks (or the running one) */
            if (rnd() & 1) {
                t = cur;
                i = t == &uk__idle_task ? NT : (int)(t - tasks);
            }
            if (i != NT && t->state == UK_TASK_READY) {
                uk__sched_remove(t);
                t->state = UK_TASK_SUSPENDED;
                model_remove(i);
            }
            break;
        case 3: { /* the running task yields */
            int c = cur == &uk__idle_task ? NT : (int)(cur - tasks);
            uk_task_t *next = uk__sched_yield(cur);
#if !PRIO_ORDER
            if (c == NT) {
                assert(next == uk__sched_pick());
                break;
            }
#endif
            model_remove(c);
            model_append(c);
            /* What yield says runs next is the policy's order (the core makes it current),
             * which a full lookup then picks. */
            assert(next == T(model_order_pick()));
            cur = uk__current = next;
            assert(next == uk__sched_pick());
            if (SLICED)
                assert(T(c)->slice_left == T(c)->slice);
            break;
        }
        case 4:
        case 5: { /* a tick */
            int c = cur == &uk__idle_task ? NT : (int)(cur - tasks);
            uk_tick_t left = cur->slice_left;
            bool rotated = uk__sched_tick(cur);
#if SLICED
            bool alone = true;
            for (int k = 0; k < nseq; k++)
                if (seq[k] != c && seq[k] != NT && (!PRIO_ORDER || T(seq[k])->prio == cur->prio))
                    alone = false;
            if (!PRIO_ORDER && c == NT) {
                assert(!rotated);
            } else if (left > 1) {
                assert(!rotated && cur->slice_left == left - 1);
            } else {
                assert(cur->slice_left == cur->slice && rotated == !alone);
                model_remove(c);
                model_append(c); /* a no-op for the model's pick if alone */
            }
#else
            (void)left;
            (void)c;
            assert(!rotated);
#endif
            break;
        }
        case 6: /* a priority change of a ready or running task */
            if (t->state == UK_TASK_READY) {
                unsigned p = rand_prio();
                uk__sched_set_prio(t, p);
                assert(t->prio == p);
                if (PRIO_ORDER) {
                    model_remove(i);
                    model_append(i);
                }
            } else {
                t->prio = rand_prio();
            }
            break;
        case 7: /* slices change; deadline policies: time passes, deadlines change */
            t->slice = 1 + rnd() % 3;
            if (t->slice_left > t->slice)
                t->slice_left = t->slice;
#if DEADLINE_ORDER
            uk__ticks += rnd() % 3;
            /* As uk_task_set_deadline: a ready task is placed anew at once. */
            if (i != NT && (rnd() & 1)) {
                t->rel_deadline = rnd() % 4 ? rnd() % 5 : 0; /* 0: none */
                if (t->state != UK_TASK_READY)
                    break;
                uk__sched_set_deadline(t, uk__ticks + t->rel_deadline);
                model_remove(i);
                model_append(i);
            }
#endif
            break;
        }
        reschedule();
        checks++;
    }
#if UK_SCHED_UNIQUE_PRIOS
    /* Claims: one live task per priority. */
    static int owner[UK_PRIOS];
    for (int op = 0; op < 100000; op++) {
        unsigned p = rnd() % (UK_PRIOS + 2);
        if (rnd() & 1) {
            int r = uk__sched_claim_prio(&tasks[0], p);
            assert(r == (p < UK_PRIOS && !owner[p] ? UK_OK : UK_EINVAL));
            if (r == UK_OK)
                owner[p] = 1;
        } else if (p < UK_PRIOS && owner[p]) {
            uk__sched_release_prio(&tasks[0], p);
            owner[p] = 0;
        }
        checks++;
    }
#endif
    printf("test_sched (%s): %u checks passed\n", UK_CONFIG_SCHED_NAME, checks);
    return 0;
}
