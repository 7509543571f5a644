/* Event flags (any/all, clear on exit, many waiters woken in priority order, exact
 * timeouts, deletion under waiters) and signals (the handler runs in the target task's
 * context when it next runs: a ready task, a preempted one, the sender itself; a sleeping or
 * waiting task is woken with UK_EINTR after its handler ran; no handler: UK_ESTATE).
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
static uk_task_t main_t, w[3];
static uint32_t main_stack[STK], w_stack[3][STK];
static uk_flags_t f;
static uk_sem_t never;
static volatile int order[8], n_order, res[3], step[3];
static volatile uint32_t got[3];
static volatile unsigned mode_of[3];
static volatile uint32_t bits_of[3];

static void waiter(void *arg)
{
    int id = (int)(uintptr_t)arg;
    uint32_t g = 0;
    res[id] = uk_flags_wait(&f, bits_of[id], mode_of[id], &g, UK_FOREVER);
    got[id] = g;
    order[n_order++] = id;
}

static void start(void (*fn)(void *), int n, const int *ids, const uint8_t *prios)
{
    n_order = 0;
    for (int i = 0; i < n; i++) {
        res[ids[i]] = 99;
        CHECK_EQ(uk_task_create(&w[ids[i]], "w", fn, (void *)(uintptr_t)ids[i], prios[i],
                                w_stack[ids[i]], sizeof w_stack[0]),
                 UK_OK);
        CHECK_EQ(uk_task_activate(&w[ids[i]]), UK_OK);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
}

static const int rid[3] = {2, 0, 1};
static const uint8_t rprio[3] = {22, 20, 21};

/* ---- Signals. */
static volatile int seq, h_count, h_seq, h_task_ok, body_seq;
static volatile uint32_t h_bits;

static void handler(uint32_t sigs)
{
    h_bits |= sigs;
    h_count++;
    h_seq = ++seq;
    h_task_ok = uk_task_self() == &w[0] && !uk_in_isr();
}

static void sig_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_signal_handler(0, handler), UK_OK);
    step[0] = 1;
    res[0] = uk_task_sleep(1000); /* ended by a signal */
    body_seq = ++seq;
    step[0] = 2;
    res[1] = uk_sem_take(&never, UK_FOREVER); /* ended by a signal */
    body_seq = ++seq;
    step[0] = 3;
    res[2] = uk_sem_take(&never, 500); /* with a timeout */
    body_seq = ++seq;
    step[0] = 4;
    for (;;) { /* busy: preempted by ticks (main runs above it) */
        step[0] = 5;
#ifdef UK_CONFIG_SCHED_COOP
        uk_task_yield(); /* cooperative: nothing preempts it, it gives the processor up */
#endif
    }
}

static void main_task(void *arg)
{
    (void)arg;
    uint32_t g = 0;
    /* ---- Flags. */
    CHECK_EQ(uk_flags_set(&f, 1), UK_EINVAL);
    CHECK_EQ(uk_flags_init(&f), UK_OK);
    CHECK_EQ(uk_flags_wait(&f, 0, UK_FLAGS_ANY, &g, 0), UK_EINVAL);
    CHECK_EQ(uk_flags_wait(&f, 1, 0, &g, 0), UK_EINVAL);
    CHECK_EQ(uk_flags_wait(&f, 1, UK_FLAGS_ANY | UK_FLAGS_ALL, &g, 0), UK_EINVAL);
    CHECK_EQ(uk_flags_wait(&f, 1, UK_FLAGS_ANY, &g, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_flags_set(&f, 0x5), UK_OK);
    CHECK_EQ(uk_flags_wait(&f, 0x6, UK_FLAGS_ANY, &g, 0), UK_OK);
    CHECK_EQ(g, 0x5);
    CHECK_EQ(uk_flags_wait(&f, 0x6, UK_FLAGS_ALL, &g, 0), UK_EAGAIN);
    CHECK_EQ(uk_flags_wait(&f, 0x5, UK_FLAGS_ALL | UK_FLAGS_CLEAR, &g, 0), UK_OK);
    CHECK_EQ(g, 0x5);
    CHECK_EQ(uk_flags_get(&f, &g), UK_OK);
    CHECK_EQ(g, 0);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_flags_wait(&f, 0x3, UK_FLAGS_ALL, &g, 9), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 9);
    /* Many waiters: all satisfied by one set, woken in priority order. */
    for (int k = 0; k < 3; k++) {
        bits_of[k] = 0x10 << k;
        mode_of[k] = UK_FLAGS_ANY;
    }
    bits_of[1] = 0x30; /* waits for bits 4 and 5 */
    mode_of[1] = UK_FLAGS_ALL;
    start(waiter, 3, rid, rprio);
    CHECK_EQ(uk_flags_set(&f, 0x10), UK_OK); /* wakes 0 only */
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_READY);
    CHECK_EQ(uk_task_state(&w[1]), UK_TASK_PENDING);
    CHECK_EQ(uk_flags_set(&f, 0x60), UK_OK); /* wakes 1 (all of 0x30) and 2 */
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(res[k], UK_OK);
        CHECK_EQ(order[k], k);
    }
    CHECK_EQ(got[0], 0x10);
    CHECK_EQ(got[1], 0x70);
    CHECK_EQ(got[2], 0x70);
    CHECK_EQ(uk_flags_clear(&f, 0xFFFFFFFF), UK_OK);
    /* A clearing waiter consumes the event ahead of lower-priority ones. */
    for (int k = 0; k < 3; k++) {
        bits_of[k] = 0x1;
        mode_of[k] = UK_FLAGS_ANY | (k == 1 ? UK_FLAGS_CLEAR : 0);
    }
    start(waiter, 3, rid, rprio);
    CHECK_EQ(uk_flags_set(&f, 0x1), UK_OK); /* 0 wakes, 1 wakes and clears, 2 keeps waiting */
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(res[0], UK_OK);
    CHECK_EQ(res[1], UK_OK);
    CHECK_EQ(res[2], 99);
    CHECK_EQ(uk_flags_get(&f, &g), UK_OK);
    CHECK_EQ(g, 0);
    CHECK_EQ(uk_flags_delete(&f), UK_OK); /* the last waiter: UK_EDELETED */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[2], UK_EDELETED);
    CHECK_EQ(uk_flags_set(&f, 1), UK_EINVAL);

    /* ---- Signals. */
    CHECK_EQ(uk_signal_send(&main_t, 1), UK_ESTATE); /* no handler */
    CHECK_EQ(uk_signal_send(&main_t, 0), UK_EINVAL);
    CHECK_EQ(uk_sem_init(&never, 0, 1), UK_OK);
    CHECK_EQ(uk_task_create(&w[0], "sig", sig_task, 0, 20, w_stack[0], sizeof w_stack[0]), UK_OK);
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(step[0], 1);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_DELAYED);
    CHECK_EQ(uk_signal_send(&w[0], 0x1), UK_OK); /* a sleeping task */
    CHECK_EQ(h_count, 0);                        /* not yet: it runs below us */
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_READY);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(h_count, 1);
    CHECK_EQ(h_bits, 1);
    CHECK_EQ(h_task_ok, 1);
    CHECK_EQ(res[0], UK_EINTR);
    CHECK(h_seq < body_seq); /* the handler ran before the sleep returned */
    CHECK_EQ(step[0], 2);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_PENDING);
    CHECK_EQ(uk_signal_send(&w[0], 0x2), UK_OK); /* a pending task */
    CHECK_EQ(uk_signal_send(&w[0], 0x4), UK_OK); /* two sends before it runs: one call */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(h_count, 2);
    CHECK_EQ(h_bits, 7);
    CHECK_EQ(res[1], UK_EINTR);
    CHECK(h_seq < body_seq);
    CHECK_EQ(step[0], 3);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_signal_send(&w[0], 0x8), UK_OK); /* pending with a timeout */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(h_count, 3);
    CHECK_EQ(res[2], UK_EINTR);
    CHECK_EQ(step[0], 5); /* busy now; we preempt it at each tick */
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_READY);
    CHECK_EQ(uk_signal_send(&w[0], 0x10), UK_OK); /* a preempted task */
    int before = h_count;
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(h_count, before + 1);
    CHECK_EQ(h_bits, 0x1F);
    CHECK_EQ(h_task_ok, 1);
    /* To oneself: handled before the send returns. */
    CHECK_EQ(uk_signal_handler(0, handler), UK_OK);
    before = h_count;
    h_task_ok = 0;
    CHECK_EQ(uk_signal_send(0, 0x20), UK_OK);
    CHECK_EQ(h_count, before + 1);
    CHECK_EQ(h_task_ok, 0); /* ran in main's context, not w[0]'s */
    uint32_t pend = 9;
    CHECK_EQ(uk_signal_pending(0, &pend), UK_OK);
    CHECK_EQ(pend, 0);
    CHECK_EQ(uk_task_delete(&w[0]), UK_OK);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
