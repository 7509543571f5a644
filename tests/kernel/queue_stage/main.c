/* The staging ring of interrupt-side queue sends (queue.c): a LISR's message is refused
 * (UK_ENOMEM) only when the ring cannot hold it, never because of where the previous message
 * ended. A LISR (machine.toml's stimulus on line 2) sends messages of 100, 420, 508, 4, 508 ...
 * bytes to a variable queue, each consumed before the next interrupt; then a task with
 * interrupts disabled (a LISR for the kernel: the same path) sweeps every pair of sizes with
 * the ring empty in between, fills the ring to its last byte (one more record is refused),
 * fills the deferral ring (the 33rd call is refused), and sends 300-byte messages to a fixed
 * queue, which share the ring. Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STAGE 512           /* UK_QUEUE_STAGE_BYTES */
#define MAX_MSG (STAGE - 4) /* the largest message a record of the ring holds */

static uk_task_t main_t;
static uint32_t main_stack[512];
static uk_queue_t vq, fq;
static uint32_t fbuf[300 / 4];
static uint32_t vbuf[UK_QUEUE_VAR_BYTES(MAX_MSG, 2) / 4];
static uint8_t out[MAX_MSG], in[MAX_MSG], lisr_out[MAX_MSG]; /* the LISR has its own */

static const uint16_t script[] = {100, 420, 508, 4, 508, 252, 256, 260, 0, 500, 12, 508};
#define STEPS (sizeof script / sizeof script[0])
static volatile unsigned lisr_step;
static volatile int lisr_res[STEPS];

static void fill(uint8_t *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)(seed * 7 + i);
}

static void send_lisr(unsigned line)
{
    (void)line;
    unsigned k = lisr_step;
    if (k >= STEPS)
        return;
    fill(lisr_out, script[k], k);
    lisr_res[k] = uk_queue_send_var(&vq, lisr_out, script[k], UK_NO_WAIT);
    lisr_step = k + 1;
}

/* Receive one message and check its length and contents. */
static void expect_msg(size_t len, unsigned seed, uk_tick_t timeout)
{
    size_t n = 9999;
    CHECK_EQ(uk_queue_recv_var(&vq, in, sizeof in, &n, timeout), UK_OK);
    CHECK_EQ(n, len);
    fill(out, len, seed);
    for (size_t i = 0; i < len && i < n; i++)
        if (in[i] != out[i]) {
            CHECK_EQ(in[i], out[i]);
            break;
        }
}

/* A send "from a LISR": interrupts disabled, so the kernel defers it through the ring. */
static int send_irqs_off(size_t len, unsigned seed)
{
    fill(out, len, seed);
    unsigned key = uk_irq_disable();
    int r = uk_queue_send_var(&vq, out, len, UK_NO_WAIT);
    uk_irq_restore(key); /* the kernel tail applies it here */
    return r;
}

static void main_task(void *arg)
{
    (void)arg;
    /* The LISR: each message consumed before the next interrupt, so the ring is empty at
     * every send; the 420-byte one used to be refused after the 100-byte one. */
    for (unsigned k = 0; k < STEPS; k++) {
        expect_msg(script[k], k, 5);
        CHECK_EQ(lisr_res[k], UK_OK);
    }
    CHECK_EQ(lisr_step, STEPS);
    uk_irq_mask(1u << 2);

    /* Every pair of sizes with the ring empty between the two sends. */
    for (size_t a = 0; a <= MAX_MSG; a += 4) {
        static const uint16_t second[] = {MAX_MSG, 420, 300, 256, 1};
        CHECK_EQ(send_irqs_off(a, 1), UK_OK);
        expect_msg(a, 1, UK_NO_WAIT);
        for (unsigned i = 0; i < sizeof second / sizeof second[0]; i++) {
            CHECK_EQ(send_irqs_off(second[i], 2 + i), UK_OK);
            expect_msg(second[i], 2 + i, UK_NO_WAIT);
        }
    }

    /* Full to the last byte: 204 + 204 + 104 = 512; a fourth record does not fit. */
    unsigned key = uk_irq_disable();
    fill(out, 200, 3);
    int r1 = uk_queue_send_var(&vq, out, 200, UK_NO_WAIT);
    int r2 = uk_queue_send_var(&vq, out, 200, UK_NO_WAIT);
    int r3 = uk_queue_send_var(&vq, out, 100, UK_NO_WAIT);
    int r4 = uk_queue_send_var(&vq, out, 0, UK_NO_WAIT);
    uk_irq_restore(key);
    CHECK_EQ(r1, UK_OK);
    CHECK_EQ(r2, UK_OK);
    CHECK_EQ(r3, UK_OK);
    CHECK_EQ(r4, UK_ENOMEM);
    expect_msg(200, 3, UK_NO_WAIT);
    expect_msg(200, 3, UK_NO_WAIT);
    expect_msg(100, 3, UK_NO_WAIT);

    /* A record that does not fit before the ring's end goes to its start when that is free:
     * 300 (empty ring), then 100 and 200 while the 300-byte one is consumed in between. */
    CHECK_EQ(send_irqs_off(300, 4), UK_OK);
    expect_msg(300, 4, UK_NO_WAIT);
    key = uk_irq_disable();
    fill(out, 200, 5);
    r1 = uk_queue_send_var(&vq, out, 100, UK_NO_WAIT);
    r2 = uk_queue_send_var(&vq, out, 200, UK_NO_WAIT);
    uk_irq_restore(key);
    CHECK_EQ(r1, UK_OK);
    CHECK_EQ(r2, UK_OK);
    expect_msg(100, 5, UK_NO_WAIT);
    expect_msg(200, 5, UK_NO_WAIT);

    /* The deferral ring (32 calls) fills before the staging ring (33 x 4 bytes). */
    key = uk_irq_disable();
    int ok = 0, refused = 0;
    for (int i = 0; i < 33; i++) {
        int r = uk_queue_send_var(&vq, out, 0, UK_NO_WAIT);
        ok += r == UK_OK;
        refused += r == UK_ENOMEM;
    }
    uk_irq_restore(key);
    CHECK_EQ(ok, 32);
    CHECK_EQ(refused, 1);
    uint32_t c = 0;
    CHECK_EQ(uk_queue_count(&vq, &c), UK_OK);
    CHECK_EQ(c, 32);
    for (int i = 0; i < 32; i++)
        expect_msg(0, 0, UK_NO_WAIT);

    /* A fixed queue's messages share the ring: a 300-byte one after a 250-byte one for the
     * variable queue (which used to leave the ring at byte 256, with no room at its end). */
    CHECK_EQ(uk_queue_init(&fq, fbuf, 300, 1), UK_OK);
    for (unsigned k = 0; k < 4; k++) {
        CHECK_EQ(send_irqs_off(250, 6), UK_OK);
        expect_msg(250, 6, UK_NO_WAIT);
        fill(out, 300, 10 + k);
        key = uk_irq_disable();
        int r = uk_queue_send(&fq, out, UK_NO_WAIT);
        uk_irq_restore(key);
        CHECK_EQ(r, UK_OK);
        CHECK_EQ(uk_queue_recv(&fq, in, UK_NO_WAIT), UK_OK);
        CHECK_EQ(in[299], out[299]);
    }
    CHECK_EQ(uk_deferred_failed(), 0);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_queue_init_var(&vq, vbuf, sizeof vbuf, MAX_MSG), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_irq_install(2, send_lisr), UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
