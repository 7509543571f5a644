/* Host unit test of the delta list of kernel/src/time.c (compiled as it is, with stubs for
 * the scheduler): insert/remove/tick against a model of absolute expiry times. Checks the
 * invariant (each entry's delta counts from the previous entry's expiry) after every
 * operation, that each task expires at exactly its tick, FIFO among equal expiries, and
 * uk_task_sleep_until across the 32-bit wrap of the tick counter. */
#include <assert.h>
#include <stdio.h>
#include "kernel.h"

/* ---- stubs for what time.c calls ---- */
__typeof__(uk__current) uk__current;
__typeof__(uk__current_hisr) uk__current_hisr;
bool uk__started = true; /* the host harness plays a started kernel */
uk_task_t uk__idle_task;
void uk__mutex_wait_ended(uk_task_t *t) { (void)t; } /* no mutex waits here */
void uk__wait_end(uk_task_t *t, int result)
{
    (void)t;
    (void)result;
    assert(!"no waits here");
}
void uk__signal_raise(void) {} /* signals: none here */

#define NT 64
static uk_task_t tasks[NT];
static int expired[NT * 64], n_expired;

/* The policy under uk__make_ready / uk__unready (inline in kernel_sched.h). */
void uk__sched_insert(uk_task_t *t) { expired[n_expired++] = (int)(t - tasks); }
void uk__sched_remove(uk_task_t *t) { (void)t; }
void uk__reschedule(void) {}
uk_task_t *uk__sched_yield(uk_task_t *t) { return t; }
bool uk__sched_tick(uk_task_t *t)
{
    (void)t;
    return false;
}

/* ---- the model ---- */
static uint32_t rng = 777;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static uint64_t now;     /* ticks so far (the model's clock) */
static uint64_t due[NT]; /* absolute expiry of a waiting task */
static uint64_t seq[NT]; /* insertion order, for FIFO among equal expiries */
static int waiting[NT];
static uint64_t next_seq;

/* Walk the list: deltas add up to each task's remaining time, order by (due, seq). */
static void check_against_model(uk_list_t *head)
{
    uint64_t acc = now, prev_due = 0, prev_seq = 0;
    int n = 0, first = 1;
    for (uk_list_t *at = head->next; at != head; at = at->next) {
        uk_task_t *t = UK_CONTAINER_OF(at, uk_task_t, delay_node);
        int i = (int)(t - tasks);
        assert(i >= 0 && i < NT && waiting[i]);
        acc += t->delta;
        assert(acc == due[i]);
        if (!first)
            assert(due[i] > prev_due || (due[i] == prev_due && seq[i] > prev_seq));
        prev_due = due[i];
        prev_seq = seq[i];
        first = 0;
        n++;
    }
    int m = 0;
    for (int i = 0; i < NT; i++)
        m += waiting[i];
    assert(n == m);
}

/* time.c keeps the list head static: find it from any linked node's ring. */
static uk_list_t *find_head(void)
{
    for (int i = 0; i < NT; i++)
        if (waiting[i]) {
            uk_list_t *at = &tasks[i].delay_node;
            for (;;) {
                at = at->next;
                int j;
                for (j = 0; j < NT; j++)
                    if (at == &tasks[j].delay_node)
                        break;
                if (j == NT)
                    return at;
            }
        }
    return 0;
}

static uk_list_t *head;

static void insert(int i, uk_tick_t ticks)
{
    uk__list_init(&tasks[i].delay_node);
    tasks[i].state = UK_TASK_DELAYED;
    uk__delay_insert(&tasks[i], ticks);
    waiting[i] = 1;
    due[i] = now + ticks;
    seq[i] = next_seq++;
    if (!head)
        head = find_head();
}

static void remove_task(int i)
{
    uk__delay_remove(&tasks[i]);
    waiting[i] = 0;
}

/* One tick: the model's expiries (due == now, in seq order) must be what time.c readied. */
static void tick(void)
{
    now++;
    n_expired = 0;
    uk__tick();
    int want[NT], n = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < NT; i++)
            if (waiting[i] && due[i] <= now && (best < 0 || seq[i] < seq[best]))
                best = i;
        if (best < 0)
            break;
        assert(due[best] == now); /* never late */
        waiting[best] = 0;
        want[n++] = best;
    }
    assert(n_expired == n);
    for (int k = 0; k < n; k++)
        assert(expired[k] == want[k]);
}

int main(void)
{
    unsigned checks = 0;
    uk__current = &uk__idle_task;
    uk__idle_task.state = UK_TASK_READY;

    /* Fixed case: delays 5, 3, 5, 8, 3 expire as 1(3) 4(3) 0(5) 2(5) 3(8). */
    static const uk_tick_t d[] = {5, 3, 5, 8, 3};
    for (int i = 0; i < 5; i++)
        insert(i, d[i]);
    check_against_model(head);
    int order[5], k = 0;
    for (int t = 0; t < 8; t++) {
        tick();
        for (int j = 0; j < n_expired; j++)
            order[k++] = expired[j];
    }
    static const int want[] = {1, 4, 0, 2, 3};
    for (int i = 0; i < 5; i++)
        assert(order[i] == want[i]);
    checks += 6;

    /* Removing from the front, the middle and the back keeps the others exact. */
    insert(0, 10);
    insert(1, 20);
    insert(2, 30);
    insert(3, 40);
    remove_task(0);
    remove_task(2);
    remove_task(3);
    check_against_model(head);
    for (int t = 0; t < 40; t++)
        tick();
    assert(!waiting[1]);
    checks += 2;

    /* Random insert/remove/tick sequences. */
    for (int op = 0; op < 400000; op++) {
        uint32_t r = rnd() % 10;
        int i = (int)(rnd() % NT);
        if (r < 4 && !waiting[i]) {
            uk_tick_t ticks = (rnd() & 3) ? 1 + rnd() % 50 : 1 + rnd() % 3; /* many equal */
            insert(i, ticks);
        } else if (r < 6 && waiting[i]) {
            remove_task(i);
        } else {
            tick();
        }
        check_against_model(head);
        checks++;
    }

    /* sleep_until: periods do not drift, and the counter may wrap. */
    for (int i = 0; i < NT; i++)
        if (waiting[i])
            remove_task(i);
    uk_task_t *me = &tasks[0];
    uk__current = me;
    me->state = UK_TASK_READY;
    uk__ticks = 0xFFFFFFF0u;
    uk_tick_t last = uk__ticks;
    assert(uk_task_sleep_until(&last, 10) == UK_OK); /* due at 0xFFFFFFFA */
    assert(last == 0xFFFFFFFAu && me->state == UK_TASK_DELAYED && me->delta == 10);
    uk__delay_remove(me);
    uk__ticks = 0xFFFFFFFEu; /* late by 4 of the next period's 10: waits 6, across the wrap */
    me->state = UK_TASK_READY;
    assert(uk_task_sleep_until(&last, 10) == UK_OK);
    assert(last == 4 && me->delta == 6);
    uk__delay_remove(me);
    uk__ticks = 20; /* missed the next deadline (14): no wait, UK_ETIMEOUT, no drift */
    me->state = UK_TASK_READY;
    assert(uk_task_sleep_until(&last, 10) == UK_ETIMEOUT);
    assert(last == 14 && me->state == UK_TASK_READY);
    /* *last_wake in the future, more than a period ahead (a grid that starts later): the
     * deadline is ahead by difference, so the task sleeps to it, across the wrap too. */
    uk__ticks = 100;
    last = 120;
    assert(uk_task_sleep_until(&last, 5) == UK_OK);
    assert(last == 125 && me->state == UK_TASK_DELAYED && me->delta == 25);
    uk__delay_remove(me);
    me->state = UK_TASK_READY;
    uk__ticks = 0xFFFFFFF0u;
    last = 0x30; /* 0x40 ticks ahead, past the wrap */
    assert(uk_task_sleep_until(&last, 0x10) == UK_OK);
    assert(last == 0x40 && me->delta == 0x50);
    uk__delay_remove(me);
    me->state = UK_TASK_READY;
    uk__ticks = 1000; /* 2^31 ticks or more ahead counts as passed */
    last = 1000 + 0x80000000u - 5;
    assert(uk_task_sleep_until(&last, 5) == UK_ETIMEOUT);
    assert(last == 1000 + 0x80000000u && me->state == UK_TASK_READY);
    checks += 9;

    printf("test_delta: %u checks passed\n", checks);
    return 0;
}
