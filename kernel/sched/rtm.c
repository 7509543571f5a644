/* Scheduler policy "rtm": priority preemptive with unique priorities (as "bitmap": 0..62 for
 * tasks, 63 the idle task's), where the task database lives in the RTM, the hardware task
 * manager (docs/machine.md): each task has a record holding its status bits, its effective
 * priority, the event id of the wait queue it is in and its delay. The RTM answers
 *   - task selection: READY, the highest-priority ready record (one load);
 *   - event management: EVENT[e], the highest-priority record pending on e (one load), so a
 *     wait queue is a list in arrival order plus an event id, and a give asks the RTM whom
 *     it serves;
 *   - time management: a store to TICK counts every delay down at once; EXPIRED names the
 *     records whose delay ran out, one load each.
 * The rest of the kernel is unchanged: this file provides the policy interface
 * (kernel_sched.h) and the out-of-line half of the RTM's wait-queue and delay back end
 * (kernel_waitq.h; its inline half and its short tick are in kernel/waitq/rtm/).
 *
 * Records. A task's record is claimed with its base priority (create) and given back when it
 * is deleted; rec_of[p] is the record of the task whose base priority is p, task_of[r] the
 * task of record r. A base-priority change moves the record index to the new priority (the
 * record itself stays). The record count is the device's (RTM.RECORDS): at most that many
 * tasks, the idle task included.
 *
 * Invariants: record r is VALID iff task_of[r] is a live task. Its status is VALID alone
 * (plus EXPIRED for a moment in the tick) iff the task is READY (running included); a task
 * not ready has SUSPENDED, plus PENDING and its wait queue's event id while in a wait
 * queue, plus DELAYED and its delay (at most 0xFFFF; the rest waits in t->delta) while
 * DELAYED or PENDING_DELAYED. A non-empty wait queue's waiters share one event id, no other
 * queue's. */
#include "kernel.h"
#include "bsp/mmio.h"
#include "prio_map.h"

_Static_assert(UK_PRIOS == 64, "the rtm policy has 64 priorities");

#define NO_RECORD 0xff
#define MAX_RECORDS 256
#define DELAY_MAX 0xffffu

static uint8_t rec_of[64];               /* record of the task with base priority p */
uk_task_t *uk__rtm_task_of[MAX_RECORDS]; /* task of record r, or NULL (waitq/rtm) */
#define task_of uk__rtm_task_of
static unsigned n_records;
static uint32_t events_used[256 / 32]; /* event ids of non-empty wait queues */

static inline uint32_t rec_addr(unsigned r) { return RTM_RECORD(r); }

/* Write record r's first word: status bits, priority, event id (the EXPIRED bit clears). */
static inline void write_word0(unsigned r, uint32_t status, unsigned prio, unsigned event)
{
    MMIO32(rec_addr(r)) = status | prio << 8 | event << 16;
}

static inline unsigned record(const uk_task_t *t) { return rec_of[t->base_prio]; }

/* The status of a task that is not ready: SUSPENDED, plus PENDING (and its queue's event
 * id) while it is in a wait queue, plus `delayed`. */
static UK_SCHED_FN(write_blocked) void write_blocked(uk_task_t *t, uint32_t delayed)
{
    uint32_t s = RTM_VALID | RTM_SUSPENDED | delayed;
    unsigned e = 0;
    if (t->waiting_on) {
        s |= RTM_PENDING;
        e = t->rtm_event;
    }
    write_word0(record(t), s, t->prio, e);
}

UK_SCHED_FN(uk__sched_init) void uk__sched_init(void)
{
    n_records = MMIO32(RTM_RECORDS);
    if (n_records > MAX_RECORDS)
        n_records = MAX_RECORDS;
    for (unsigned r = 0; r < n_records; r++) {
        MMIO32(rec_addr(r)) = 0;
        task_of[r] = 0;
    }
    for (unsigned p = 0; p < 64; p++)
        rec_of[p] = NO_RECORD;
    for (unsigned w = 0; w < 256 / 32; w++)
        events_used[w] = 0;
}

UK_SCHED_FN(uk__sched_valid_prio) int uk__sched_valid_prio(unsigned prio)
{
    return prio < 64 ? UK_OK : UK_EINVAL;
}

/* Create: a free record for t, not ready (CREATED). A base-priority change of a live task:
 * its record moves to the new priority, and release_prio then forgets the old one. */
UK_SCHED_FN(uk__sched_claim_prio) int uk__sched_claim_prio(uk_task_t *t, unsigned prio)
{
    if (prio >= 64 || rec_of[prio] != NO_RECORD)
        return UK_EINVAL;
    bool live = t->magic == UK_TASK_MAGIC && t->state != UK_TASK_DELETED;
    if (live && t->base_prio < 64 && rec_of[t->base_prio] != NO_RECORD &&
        task_of[rec_of[t->base_prio]] == t) {
        rec_of[prio] = rec_of[t->base_prio];
        return UK_OK;
    }
    for (unsigned r = 0; r < n_records; r++)
        if (!task_of[r]) {
            task_of[r] = t;
            rec_of[prio] = (uint8_t)r;
            write_word0(r, RTM_VALID | RTM_SUSPENDED, prio, 0);
            return UK_OK;
        }
    return UK_EINVAL; /* every record is in use */
}

UK_SCHED_FN(uk__sched_release_prio) void uk__sched_release_prio(uk_task_t *t, unsigned prio)
{
    unsigned r = rec_of[prio];
    rec_of[prio] = NO_RECORD;
    for (unsigned p = 0; p < 64; p++)
        if (rec_of[p] == r)
            return; /* moved to t's new priority: the record stays */
    task_of[r] = 0;
    (void)t;
    MMIO32(rec_addr(r)) = 0; /* deleted: the record is free */
}

UK_SCHED_FN(uk__sched_insert) void uk__sched_insert(uk_task_t *t)
{
    write_word0(record(t), RTM_VALID, t->prio, 0);
}

UK_SCHED_FN(uk__sched_remove) void uk__sched_remove(uk_task_t *t)
{
    write_word0(record(t), RTM_VALID | RTM_SUSPENDED, t->prio, 0);
}

UK_SCHED_FN(uk__sched_pick) uk_task_t *uk__sched_pick(void)
{
    return task_of[MMIO32(RTM_READY)]; /* the idle task is always ready */
}

UK_SCHED_FN(uk__sched_yield) uk_task_t *uk__sched_yield(uk_task_t *t)
{
    (void)t; /* unique priorities: nothing to rotate */
    return uk__sched_pick();
}

UK_SCHED_FN(uk__sched_tick) bool uk__sched_tick(uk_task_t *t)
{
    (void)t;
    return false;
}

/* t ready, or (sched_core.c's requeue_waiter) waiting: the priority byte alone is written,
 * so a waiter's status (DELAYED, a pending EXPIRED), event id and delay stay as they are. */
UK_SCHED_FN(uk__sched_set_prio) void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio)
{
    t->prio = prio;
    *(volatile uint8_t *)(uintptr_t)(rec_addr(record(t)) + 1) = prio;
}

/* ---- Event management: wait queues ---------------------------------------------------- */

static UK_IPC_FN(event_alloc) unsigned event_alloc(void)
{
    for (unsigned w = 0;; w++) {
        uint32_t free = ~events_used[w];
        if (free) {
            unsigned b = uk__lowest_bit(free);
            events_used[w] |= 1u << b;
            return w << 5 | b;
        }
    }
    /* Never past the end: a non-empty queue has a waiter, a waiter a record, and there are
     * at most 256 records. */
}

UK_IPC_FN(uk__waitq_insert) void uk__waitq_insert(uk_list_t *q, uk_task_t *t)
{
    unsigned e = uk__list_empty(q) ? event_alloc()
                                   : UK_CONTAINER_OF(q->next, uk_task_t, wait_node)->rtm_event;
    uk__list_insert_before(q, &t->wait_node);
    t->waiting_on = q;
    t->rtm_event = (uint8_t)e;
    write_word0(record(t), RTM_VALID | RTM_SUSPENDED | RTM_PENDING, t->prio, e);
}

/* t leaves its wait queue; the last waiter frees the id. (uk__waitq_first, inline, is in
 * kernel/waitq/rtm/waitq_impl.h.) */
UK_IPC_FN(uk__waitq_leave) void uk__waitq_leave(uk_task_t *t)
{
    uk_list_t *q = t->waiting_on;
    uk__list_remove(&t->wait_node);
    if (uk__list_empty(q))
        events_used[t->rtm_event >> 5] &= ~(1u << (t->rtm_event & 31));
}

/* The same, and t's record is no longer pending (for a t that does not become ready). */
UK_IPC_FN(uk__waitq_remove) void uk__waitq_remove(uk_task_t *t)
{
    uk__waitq_leave(t);
    write_word0(record(t), RTM_VALID | RTM_SUSPENDED, t->prio, 0);
}

/* ---- Time management: delays ---------------------------------------------------------- */

/* Arm t's record with the next part of its delay (t->delta holds what is left beyond it). */
static UK_TIME_FN(arm) void arm(uk_task_t *t, uk_tick_t ticks)
{
    uk_tick_t now = ticks > DELAY_MAX ? DELAY_MAX : ticks;
    t->delta = ticks - now;
    unsigned r = record(t);
    *(volatile uint16_t *)(uintptr_t)RTM_DELAY(r) = (uint16_t)now;
    write_blocked(t, RTM_DELAYED);
}

UK_TIME_FN(uk__delay_insert) void uk__delay_insert(uk_task_t *t, uk_tick_t ticks) { arm(t, ticks); }

UK_TIME_FN(uk__delay_remove) void uk__delay_remove(uk_task_t *t) { write_blocked(t, 0); }

/* Set by the timer interrupt's short path (kernel/waitq/rtm/delay_tick.inc) when it has
 * counted this tick in the RTM already and found an expiry: the tail's tick then only handles
 * the expiries. */
volatile uint32_t uk__rtm_ticked;

/* One tick: the RTM counts every delay down; each record whose delay ran out expires as the
 * delta list's entries do (uk__delay_expire), highest priority first. */
UK_TIME_FN(uk__delay_tick) void uk__delay_tick(void)
{
    if (uk__rtm_ticked)
        uk__rtm_ticked = 0;
    else
        MMIO32(RTM_TICK) = 1;
    uint32_t r;
    while ((r = MMIO32(RTM_EXPIRED)) != RTM_NONE) {
        uk_task_t *e = task_of[r];
        if (e->delta) {
            arm(e, e->delta); /* a delay longer than the record holds: the next part */
            continue;
        }
        uk__delay_expire(e);
    }
}

#ifdef UK_CONFIG_CHECKS_FULL
/* Each live task's record against its state (the invariants above). Returns the number of
 * ready tasks; the core compares it with its own count. */
UK_SCHED_FN(uk__sched_check) unsigned uk__sched_check(void)
{
    unsigned n = 0;
    for (unsigned r = 0; r < n_records; r++) {
        const uk_task_t *t = task_of[r];
        if (!t)
            continue; /* free: written 0 when freed, never written since */
        uint32_t w = MMIO32(rec_addr(r));
        UK_CHECK(t->magic == UK_TASK_MAGIC, "a record's task is live");
        UK_CHECK(rec_of[t->base_prio] == r, "a task's record is the one of its base priority");
        bool ready = (w & 0x1f) == RTM_VALID;
        if ((w & (RTM_PENDING | RTM_SUSPENDED)) != RTM_SUSPENDED)
            UK_CHECK((w >> 8 & 0xff) == t->prio,
                     "a ready or pending record holds its task's priority");
        UK_CHECK(ready == (t->state == UK_TASK_READY), "a record is ready iff its task is");
        if (ready)
            uk__check_ready_task(t);
        bool pending = t->state == UK_TASK_PENDING || t->state == UK_TASK_PENDING_DELAYED;
        UK_CHECK(!!(w & RTM_PENDING) == pending, "a record is pending iff its task is");
        if (pending)
            UK_CHECK((w >> 16 & 0xff) == t->rtm_event,
                     "a pending record holds its queue's event id");
        n += ready;
    }
    return n;
}

/* The records with DELAYED set: DELAYED and PENDING_DELAYED tasks only. Returns their
 * number (the core compares it with its count of such tasks). */
UK_TIME_FN(uk__delay_check) unsigned uk__delay_check(void)
{
    unsigned n = 0;
    for (unsigned r = 0; r < n_records; r++) {
        if (!task_of[r])
            continue;
        uint32_t w = MMIO32(rec_addr(r));
        UK_CHECK(w & RTM_VALID, "a task's record is valid");
        UK_CHECK(!(w & RTM_EXPIRED_BIT), "no expiry is left unhandled");
        if (w & RTM_DELAYED) {
            uint8_t s = task_of[r]->state;
            UK_CHECK(s == UK_TASK_DELAYED || s == UK_TASK_PENDING_DELAYED,
                     "a delayed record's task is DELAYED or PENDING_DELAYED");
            n++;
        }
    }
    return n;
}
#endif
