/* `ubik gen`: the objects system.toml declares exist after uk_init(), start as declared and
 * work -- tasks (active and suspended, integer and object arguments, a slice, a signal
 * handler), semaphores, a mutex, fixed and variable queues, a port, event flags, a heap, a
 * static pool and one carved from the heap, timers of every action (activate a task, call a
 * function, set flags; one-shot, cyclic, created stopped), and interrupt handlers (a LISR
 * with a HISR, a LISR alone) on stimulus lines of machine.toml. The application defines no
 * object itself: main() is uk_init() + uk_start(). Self-checking, every scheduler. */
#include "uk_gen.h"
#include "bsp/bsp.h"
#include "check.h"

#define N_MSGS 20

static volatile uint32_t consumed, consume_bad, consumer_arg;
static volatile uint32_t woken_runs, woken_tick;
static volatile uint32_t tock_calls, tock_arg, tock_bad;
static volatile uint32_t lisr_count, hisr_count, plain_count, lisr_bad;
static volatile uint32_t sig_seen, sig_flags_got, sig_flags_r = 99;

void produce(void *arg)
{
    uk_queue_t *q = arg; /* arg = "items" */
    CHECK(q == &items);
    for (uint32_t i = 0; i < N_MSGS; i++) {
        uint32_t m[2] = {i, ~i};
        CHECK_EQ(uk_queue_send(q, m, UK_FOREVER), UK_OK);
    }
}

void consume(void *arg)
{
    consumer_arg = (uint32_t)(uintptr_t)arg; /* arg = 7 */
    for (uint32_t i = 0; i < N_MSGS; i++) {
        uint32_t m[2];
        CHECK_EQ(uk_queue_recv(&items, m, UK_FOREVER), UK_OK);
        if (m[0] != i || m[1] != ~i)
            consume_bad++;
        consumed++;
    }
    CHECK_EQ(uk_sem_give(&ready), UK_OK);
}

void woken_entry(void *arg)
{
    (void)arg;
    woken_runs++;
    woken_tick = uk_time();
}

void on_tock(uk_timer_t *tm, void *arg)
{
    if (tm != &tock || (uintptr_t)arg != 3)
        tock_bad++;
    tock_arg = (uint32_t)(uintptr_t)arg;
    tock_calls++;
}

void stim_lisr(unsigned line)
{
    if (line != 2)
        lisr_bad++;
    lisr_count++;
    if (uk_hisr_activate(&stim) != UK_OK)
        lisr_bad++;
}

void stim_hisr(uk_hisr_t *h)
{
    if (h != &stim)
        lisr_bad++;
    hisr_count++;
}

void plain_lisr(unsigned line)
{
    if (line != 4)
        lisr_bad++;
    plain_count++;
}

void on_signal(uint32_t sigs) { sig_seen |= sigs; }

void sig_entry(void *arg)
{
    (void)arg;
    uint32_t got = 0;
    sig_flags_r =
        (uint32_t)uk_flags_wait(&events, 0x1, UK_FLAGS_ALL | UK_FLAGS_CLEAR, &got, UK_FOREVER);
    sig_flags_got = got;
    for (;;)
        (void)uk_task_sleep(1000); /* a signal ends it with UK_EINTR after the handler ran */
}

void check_entry(void *arg)
{
    CHECK(arg == 0);
    uint32_t n = 0;
    /* ---- As declared, before anything else ran (checker is the first task activated and,
     * with the priority schedulers, the highest). */
    CHECK_EQ(uk_time(), 0);
    CHECK_EQ(uk_sem_count(&counter, &n), UK_OK);
    CHECK_EQ(n, 2);
    CHECK_EQ(uk_sem_count(&ready, &n), UK_OK);
    CHECK_EQ(n, 0);
    uint32_t bits = 0;
    CHECK_EQ(uk_flags_get(&events, &bits), UK_OK);
    CHECK_EQ(bits, 0x10);
    CHECK_EQ(uk_pool_available(&blocks, &n), UK_OK);
    CHECK_EQ(n, 4);
    CHECK_EQ(uk_pool_available(&carved, &n), UK_OK);
    CHECK_EQ(n, 4);
    size_t used = 0;
    CHECK_EQ(uk_heap_stats(&mem, 0, 0, &used), UK_OK);
    CHECK_EQ(used, 1);                                /* the carved pool */
    CHECK_EQ(uk_task_state(&woken), UK_TASK_CREATED); /* start = "suspended": created only */
    CHECK(uk_task_state(&producer) == UK_TASK_READY || uk_task_state(&producer) == UK_TASK_RUNNING);
    CHECK_EQ(uk_task_state(uk_task_self()), UK_TASK_RUNNING);
    CHECK(uk_task_self() == &checker);
#ifndef UK_CONFIG_SCHED_RR
    CHECK_EQ(uk_task_prio(&checker), 1);
    CHECK_EQ(uk_task_prio(&sig_task), 5);
#endif
    uk_tick_t left = 0;
    CHECK_EQ(uk_timer_remaining(&kick, &left), UK_OK);
    CHECK_EQ(left, 5);
    CHECK_EQ(uk_timer_remaining(&later, &left), UK_ESTATE); /* created stopped */
    CHECK_EQ(UK_POWER_POLICY, 0);

    /* ---- Each object works. */
    CHECK_EQ(uk_mutex_lock(&lock, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&lock), UK_OK);
    CHECK_EQ(uk_sem_take(&counter, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_sem_give(&counter), UK_OK);
    /* vq: 3 messages of up to 16 bytes. */
    static const char msg16[16] = "0123456789abcdef";
    CHECK_EQ(uk_queue_send_var(&vq, "hello", 5, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_queue_send_var(&vq, msg16, 16, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_queue_send_var(&vq, msg16, 16, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_queue_send_var(&vq, msg16, 17, UK_NO_WAIT), UK_EINVAL);
    char buf[16];
    size_t len = 0;
    CHECK_EQ(uk_queue_recv_var(&vq, buf, sizeof buf, &len, UK_NO_WAIT), UK_OK);
    CHECK_EQ(len, 5);
    CHECK(buf[0] == 'h' && buf[4] == 'o');
    /* ptrs: 2 pointers. */
    int a, b, c;
    CHECK_EQ(uk_port_send(&ptrs, &a, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_port_send(&ptrs, &b, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_port_send(&ptrs, &c, UK_NO_WAIT), UK_EAGAIN);
    void *p = 0;
    CHECK_EQ(uk_port_recv(&ptrs, &p, UK_NO_WAIT), UK_OK);
    CHECK(p == &a);
    /* Pools: 32-byte static blocks, 16-byte blocks from the heap. */
    void *blk[5];
    for (int i = 0; i < 4; i++)
        CHECK_EQ(uk_pool_alloc(&blocks, &blk[i], UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_pool_alloc(&blocks, &blk[4], UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ((uintptr_t)blk[1] - (uintptr_t)blk[0], 32);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(uk_pool_free(&blocks, blk[i]), UK_OK);
    CHECK_EQ(uk_pool_alloc(&carved, &blk[0], UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_pool_free(&carved, blk[0]), UK_OK);
    /* The heap serves the rest. */
    void *h = 0;
    CHECK_EQ(uk_heap_alloc(&mem, 1000, &h), UK_OK);
    CHECK_EQ(uk_heap_free(&mem, h), UK_OK);

    /* ---- Producer -> consumer through the declared queue. */
    CHECK_EQ(uk_sem_take(&ready, 1000), UK_OK);
    CHECK_EQ(consumed, N_MSGS);
    CHECK_EQ(consume_bad, 0);
    CHECK_EQ(consumer_arg, 7);

    /* ---- Timers. */
    CHECK_EQ(uk_timer_start(&later, 1, 0), UK_OK);
    CHECK_EQ(uk_task_sleep(40), UK_OK);
    uk_tick_t now = uk_time();
    CHECK(now >= 40);
    CHECK_EQ(woken_runs, 1);
    CHECK(woken_tick >= 5 && woken_tick < 40);
    CHECK_EQ(uk_task_state(&woken), UK_TASK_DELETED); /* its entry returned */
    uint32_t exp = 0, over = 0;
    CHECK_EQ(uk_timer_expiries(&kick, &exp, &over), UK_OK);
    CHECK_EQ(exp, 1);
    CHECK_EQ(over, 0);
    CHECK_EQ(uk_timer_expiries(&tock, &exp, &over), UK_OK);
    CHECK(exp >= 19); /* ticks 2, 4, ..., 38 at least */
    CHECK_EQ(tock_calls + over, exp);
    CHECK_EQ(tock_arg, 3);
    CHECK_EQ(tock_bad, 0);
    CHECK_EQ(uk_timer_expiries(&flagger, &exp, 0), UK_OK);
    CHECK_EQ(exp, 1);
    CHECK_EQ(sig_flags_r, UK_OK);   /* sig_task waited for bit 0, set by flagger in tick 10 */
    CHECK_EQ(sig_flags_got, 0x111); /* the set when satisfied: initial, later (tick 1), flagger */
    CHECK_EQ(uk_flags_get(&events, &bits), UK_OK);
    CHECK_EQ(bits, 0x110); /* bit 0 cleared by the waiter; bit 8 from `later` */

    /* ---- Signals. */
    CHECK_EQ(uk_signal_send(&sig_task, 0x4), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(sig_seen, 0x4);

    /* ---- Interrupts (line 2 every 1 ms from 0.5 ms, line 4 every 3 ms). */
    CHECK(lisr_count >= 30);
    CHECK_EQ(hisr_count, lisr_count);
    CHECK(plain_count >= 10);
    CHECK_EQ(lisr_bad, 0);
    CHECK_EQ(uk_deferred_failed(), 0);

    unsigned f = check_result();
    if (f == 0)
        bsp_printf("sysgen: all objects declared in system.toml work\n");
    bsp_exit((int)f);
}

int main(void)
{
    uk_init(); /* creates every object of system.toml */
    uk_start();
    return 0;
}
