/* The services' interrupt-side calls, from stimulus-driven interrupts (machine.toml):
 * - line 2, one scripted step per interrupt: from a LISR, uk_queue_send (the message copied
 *   at once into the staging ring), uk_port_send, uk_flags_set, uk_taskport_send (into the
 *   receiver's TCB slot), uk_signal_send, uk_pool_free -- deferred, applied when the LISR
 *   ends -- and the refused ones (receive, alloc, wait: UK_EPERM); then a HISR making the
 *   same sends directly, plus a UK_NO_WAIT pool alloc;
 * - line 3, randomly timed (mean 10 us apart): a LISR producer of numbered 16-byte messages
 *   into a queue, a consumer task. No message is lost: each is received (in order), refused
 *   at once (UK_ENOMEM: staging or deferral ring full) or refused when applied (queue full,
 *   counted by uk_deferred_failed), and the producer's and consumer's counts add up.
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
static uk_task_t main_t, consumer, rx, sig_t;
static uint32_t main_stack[STK], consumer_stack[STK], rx_stack[STK], sig_stack[STK],
    hisr_stack[STK];
static uk_hisr_t hisr;
static uk_queue_t q, stream;
static uint32_t qbuf[4 * 4], stream_buf[8 * 4];
static uk_port_t port;
static void *port_slots[4];
static uk_flags_t flags;
static uk_pool_t pool;
static uint32_t pool_buf[4 * 4];
static void *blocks[4];
static uk_sem_t done;
static int objs[4];

static volatile int step = -1, r_[4][10];
static volatile uint32_t tp_msg, sig_bits, sig_runs;

/* ---- The producer (line 3). */
#define PRODUCE_N 5000
static volatile int produce;
static volatile uint32_t seq, sent_ok, refused_now;

static void producer_lisr(unsigned line)
{
    (void)line;
    if (!produce)
        return;
    uint32_t m[4] = {seq, ~seq, seq * 3, 0x5A5A5A5A};
    int r = uk_queue_send(&stream, m, UK_NO_WAIT);
    if (r == UK_OK)
        sent_ok++;
    else if (r == UK_ENOMEM)
        refused_now++;
    else
        CHECK_EQ(r, UK_OK);
    if (++seq == PRODUCE_N)
        produce = 0;
}

static volatile uint32_t consumed, gaps, bad, last_seq = 0xFFFFFFFF;

static void consumer_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t m[4];
        if (uk_queue_recv(&stream, m, UK_FOREVER) != UK_OK)
            return;
        if (m[1] != ~m[0] || m[2] != m[0] * 3 || m[3] != 0x5A5A5A5A)
            bad++;
        if (m[0] != last_seq + 1)
            gaps += m[0] - last_seq - 1; /* refused messages between */
        if ((int32_t)(m[0] - last_seq) <= 0)
            bad++; /* out of order or duplicated */
        last_seq = m[0];
        consumed++;
        for (volatile int i = 0; i < 40; i++) { /* slower than a burst */
        }
    }
}

/* ---- Scripted steps (line 2). */
static void step_lisr(unsigned line)
{
    (void)line;
    int k = step;
    if (k < 0)
        return;
    step = -1;
    if (k == 0) {
        uint32_t m[4] = {11, 22, 33, 44};
        void *b = 0;
        uint32_t got = 0;
        r_[0][0] = uk_queue_send(&q, m, UK_NO_WAIT); /* a LISR never waits: deferred */
        m[0] = 99;                                   /* copied at the call: this is not sent */
        r_[0][1] = uk_port_send(&port, &objs[1], 0);
        r_[0][2] = uk_flags_set(&flags, 0x3);
        r_[0][3] = uk_taskport_send(&rx, 1234, UK_NO_WAIT);
        r_[0][4] = uk_signal_send(&sig_t, 0x80);
        r_[0][5] = uk_pool_free(&pool, blocks[0]);
        r_[0][6] = uk_queue_recv(&q, m, 0);
        r_[0][7] = uk_pool_alloc(&pool, &b, 0);
        r_[0][8] = uk_flags_wait(&flags, 1, UK_FLAGS_ANY, &got, 0);
        r_[0][9] = uk_sem_give(&done);
    } else if (k == 1) {
        r_[1][0] = uk_hisr_activate(&hisr);
    }
}

static void hisr_entry(uk_hisr_t *h)
{
    (void)h;
    uint32_t m[4] = {55, 66, 77, 88};
    void *b = 0;
    r_[2][0] = uk_queue_send(&q, m, UK_NO_WAIT);
    r_[2][1] = uk_queue_send(&q, m, UK_NO_WAIT); /* a timeout: UK_EPERM (isr_timeout) */
    r_[2][2] = uk_port_send(&port, &objs[2], 0);
    r_[2][3] = uk_flags_set(&flags, 0x4);
    r_[2][4] = uk_taskport_send(&rx, 5678, UK_NO_WAIT); /* rx waits: handed over */
    r_[2][5] = uk_signal_send(&sig_t, 0x100);
    r_[2][6] = uk_pool_alloc(&pool, &b, UK_NO_WAIT);
    r_[2][7] = uk_pool_free(&pool, b);
    r_[2][8] = uk_pool_alloc(&pool, &b, UK_NO_WAIT);
    r_[2][9] = uk_sem_give(&done);
    if (r_[2][8] == UK_OK)
        uk_pool_free(&pool, b);
}

static void rx_entry(void *arg)
{
    (void)arg;
    uint32_t m = 0;
    for (;;) {
        if (uk_taskport_recv(&m, UK_FOREVER) == UK_OK)
            tp_msg = m;
    }
}

static void sig_handler(uint32_t s)
{
    sig_bits |= s;
    sig_runs++;
}

static void sig_entry(void *arg)
{
    (void)arg;
    uk_signal_handler(0, sig_handler);
    for (;;)
        uk_task_sleep(1000);
}

/* sig_t's handler runs when sig_t next runs, below this task, and so does rx: give them the
 * ticks they need (a sleep of one tick may end at once if the tick is near; the debug
 * kernel's checks make every kernel exit slower), within a bound. */
static void wait_signal_runs(uint32_t n)
{
    for (int i = 0; i < 50 && sig_runs < n; i++)
        (void)uk_task_sleep(1);
}

static void wait_tp_msg(uint32_t m)
{
    for (int i = 0; i < 50 && tp_msg != m; i++)
        (void)uk_task_sleep(1);
}

static void run_step(int k)
{
    step = k;
    CHECK_EQ(uk_sem_take(&done, 100), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
}

static void main_task(void *arg)
{
    (void)arg;
    uint32_t m[4], c = 0, got = 0;
    void *p = 0;
    for (int k = 0; k < 4; k++)
        CHECK_EQ(uk_pool_alloc(&pool, &blocks[k], 0), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK); /* rx and sig_t wait */
    uint32_t failed0 = uk_deferred_failed();
    run_step(0);
    CHECK_EQ(r_[0][0], UK_OK);
    CHECK_EQ(r_[0][1], UK_OK);
    CHECK_EQ(r_[0][2], UK_OK);
    CHECK_EQ(r_[0][3], UK_OK);
    CHECK_EQ(r_[0][4], UK_OK);
    CHECK_EQ(r_[0][5], UK_OK);
    CHECK_EQ(r_[0][6], UK_EPERM);
    CHECK_EQ(r_[0][7], UK_EPERM);
    CHECK_EQ(r_[0][8], UK_EPERM);
    CHECK_EQ(uk_deferred_failed(), failed0);
    CHECK_EQ(uk_queue_recv(&q, m, 0), UK_OK);
    CHECK_EQ(m[0], 11); /* as it was when sent */
    CHECK_EQ(m[3], 44);
    CHECK_EQ(uk_port_recv(&port, &p, 0), UK_OK);
    CHECK(p == &objs[1]);
    CHECK_EQ(uk_flags_wait(&flags, 0x3, UK_FLAGS_ALL | UK_FLAGS_CLEAR, &got, 0), UK_OK);
    wait_tp_msg(1234);
    CHECK_EQ(tp_msg, 1234);
    wait_signal_runs(1);
    CHECK_EQ(sig_runs, 1);
    CHECK_EQ(sig_bits, 0x80);
    CHECK_EQ(uk_pool_available(&pool, &c), UK_OK);
    CHECK_EQ(c, 1);

    run_step(1);
    CHECK_EQ(r_[1][0], UK_OK);
    CHECK_EQ(r_[2][0], UK_OK);
    CHECK_EQ(r_[2][1], UK_OK);
    CHECK_EQ(r_[2][2], UK_OK);
    CHECK_EQ(r_[2][3], UK_OK);
    CHECK_EQ(r_[2][4], UK_OK);
    CHECK_EQ(r_[2][5], UK_OK);
    CHECK_EQ(r_[2][6], UK_OK);
    CHECK_EQ(r_[2][7], UK_OK);
    CHECK_EQ(r_[2][8], UK_OK);
    CHECK_EQ(r_[2][9], UK_OK);
    CHECK_EQ(uk_queue_count(&q, &c), UK_OK);
    CHECK_EQ(c, 2);
    CHECK_EQ(uk_queue_recv(&q, m, 0), UK_OK);
    CHECK_EQ(m[2], 77);
    CHECK_EQ(uk_port_recv(&port, &p, 0), UK_OK);
    CHECK(p == &objs[2]);
    CHECK_EQ(uk_flags_get(&flags, &got), UK_OK);
    CHECK_EQ(got, 0x4);
    wait_tp_msg(5678);
    CHECK_EQ(tp_msg, 5678);
    wait_signal_runs(2);
    CHECK_EQ(sig_runs, 2);
    CHECK_EQ(sig_bits, 0x180);

    /* The producer: every message accounted for. */
    CHECK_EQ(uk_task_activate(&consumer), UK_OK);
    uint32_t failed1 = uk_deferred_failed();
    produce = 1;
    while (produce)
        CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_sleep(5), UK_OK); /* the consumer drains what is left */
    CHECK_EQ(uk_queue_count(&stream, &c), UK_OK);
    CHECK_EQ(c, 0);
    uint32_t refused_later = uk_deferred_failed() - failed1;
    CHECK_EQ(seq, PRODUCE_N);
    CHECK_EQ(sent_ok + refused_now, PRODUCE_N);
    CHECK_EQ(consumed + refused_later, sent_ok);
    CHECK_EQ(consumed + refused_now + refused_later, PRODUCE_N); /* none lost */
    CHECK_EQ(gaps + (PRODUCE_N - 1 - last_seq), refused_now + refused_later);
    CHECK_EQ(bad, 0);
#ifndef UK_CONFIG_CHECKS_FULL /* the debug kernel's checks leave the consumer less time */
    CHECK(consumed > PRODUCE_N / 4);
#endif
    CHECK(refused_now + refused_later > 0); /* the refusal paths were taken */
    bsp_printf(
        "stream: %u sent, %u received, %u refused at once, %u refused when applied, 0 lost\n",
        (unsigned)PRODUCE_N, (unsigned)consumed, (unsigned)refused_now, (unsigned)refused_later);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_queue_init(&q, qbuf, 16, 4), UK_OK);
    CHECK_EQ(uk_queue_init(&stream, stream_buf, 16, 8), UK_OK);
    CHECK_EQ(uk_port_init(&port, port_slots, 4), UK_OK);
    CHECK_EQ(uk_flags_init(&flags), UK_OK);
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 16, 4), UK_OK);
    CHECK_EQ(uk_sem_init(&done, 0, 1), UK_OK);
    CHECK_EQ(uk_hisr_create(&hisr, "hisr", hisr_entry, 0, hisr_stack, sizeof hisr_stack), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&consumer, "consumer", consumer_entry, 0, 4, consumer_stack,
                            sizeof consumer_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&rx, "rx", rx_entry, 0, 12, rx_stack, sizeof rx_stack), UK_OK);
    CHECK_EQ(uk_task_create(&sig_t, "sig", sig_entry, 0, 13, sig_stack, sizeof sig_stack), UK_OK);
    CHECK_EQ(uk_irq_install(2, step_lisr), UK_OK);
    CHECK_EQ(uk_irq_install(3, producer_lisr), UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    CHECK_EQ(uk_task_activate(&rx), UK_OK);
    CHECK_EQ(uk_task_activate(&sig_t), UK_OK);
    uk_start();
    return 99;
}
