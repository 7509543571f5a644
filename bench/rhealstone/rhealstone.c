/* Rhealstone (Kar and Porter, 1989) on the Thread-Metric portability layer (issue 12), measured
 * as a person with an oscilloscope would (seed paper 004): every sample drives GPIO pin 2 high
 * where the measured path starts and pin 3 high where it ends; the experiment (bench/rhealstone
 * .toml) reads the two rising edges' cycles from the IO record. The firmware also reads mcycle
 * just before the first store and just after the second, so every sample is measured twice: the
 * two differences must differ by the same constant in every sample (the stores and the counter
 * reads), which the experiment checks. One image per figure: rh_config.h (it writes it)
 * defines RH_FIGURE (1..6, below) and RH_SAMPLES. Figures (cycles of the path):
 *   1 task_switch        a task yields to another of equal priority: from the yield call
 *                        to the other task running after its own yield returned;
 *   2 preemption         a low task resumes a suspended high task: from the resume call to
 *                        the high task running;
 *   3 interrupt_latency  a task raises the software interrupt (INTC.SET): from the raise to
 *                        the handler's first statement;
 *   4 semaphore_shuffle  a low task gives a semaphore a high task waits on: from the give to
 *                        the high task running with it;
 *   5 deadlock_break     a high task wants a mutex a low task holds: from its lock call, through
 *                        the inheritance, the low task's release and the switch back, to the
 *                        high task holding the mutex;
 *   6 message_latency    a low task sends a 16-byte message to a queue a high task waits on:
 *                        from the send to the high task running with the message.
 * The first sample (cold paths) is left out. Afterwards the firmware prints
 *     rh FIGURE sample=I mcycle=C        (one line per sample, I from 0)
 *     rh FIGURE done samples=N
 * and exits 0; a check that fails prints `rh FIGURE FAIL why` and exits 1. */
#include "rh_config.h"
#include "tm_port.h"

#if !defined(RH_FIGURE) || RH_FIGURE < 1 || RH_FIGURE > 6
#error "rh_config.h must define RH_FIGURE as 1..6"
#endif
#ifndef RH_SAMPLES
#define RH_SAMPLES 100
#endif

static const char *const names[] = {"?",
                                    "task_switch",
                                    "preemption",
                                    "interrupt_latency",
                                    "semaphore_shuffle",
                                    "deadlock_break",
                                    "message_latency"};
#define NAME names[RH_FIGURE]
#define PIN_START 2
#define PIN_END 3
#define HIGH 0 /* task ids */
#define LOW 1
#define OTHER 2

static volatile uint32_t t_start[RH_SAMPLES + 1], t_end[RH_SAMPLES + 1];
static volatile unsigned k; /* the sample in progress; sample 0 is the warm-up */
static volatile uint32_t msg_seq;

static void fail(const char *why)
{
    tm_print("rh %s FAIL %s\n", NAME, why);
    tm_exit(1);
}

/* The start of the measured path: mcycle, then the edge. */
static inline __attribute__((always_inline)) void start(void)
{
    t_start[k] = tm_cycles();
    tm_gpio_high(PIN_START);
}

/* Its end: the edge, then mcycle; the sample is closed, the pins low again (outside the
 * window), and after the last one the results are printed. */
static void end(void)
{
    tm_gpio_high(PIN_END);
    t_end[k] = tm_cycles();
    tm_gpio_low(PIN_START);
    tm_gpio_low(PIN_END);
    k = k + 1;
}

static void report_if_done(void)
{
    if (k <= RH_SAMPLES)
        return;
    for (unsigned i = 1; i <= RH_SAMPLES; i++)
        tm_print("rh %s sample=%u mcycle=%u\n", NAME, i - 1, (unsigned)(t_end[i] - t_start[i]));
    tm_print("rh %s done samples=%u\n", NAME, (unsigned)RH_SAMPLES);
    tm_exit(0);
}

/* ---- 1. Task switch: two tasks of equal priority yield to each other ---- */
static void switch_a(void)
{
    for (;;) {
        start();
        if (tm_yield() != 0)
            fail("yield");
    }
}

static void switch_b(void)
{
    for (;;) {
        if (tm_yield() != 0)
            fail("yield");
        end(); /* back from B's yield: A yielded to it */
        report_if_done();
    }
}

/* ---- 2. Preemption: the low task resumes the high one ---- */
static void preempt_high(void)
{
    for (;;) {
        if (tm_task_suspend(HIGH) != 0)
            fail("suspend");
        end();
        report_if_done();
    }
}

static void preempt_low(void)
{
    for (;;) {
        start();
        if (tm_task_resume(HIGH) != 0)
            fail("resume");
    }
}

/* ---- 3. Interrupt latency: a task raises the software interrupt ---- */
static volatile unsigned raised, handled;

static void irq_handler(void)
{
    end(); /* the handler's first statement */
    handled++;
}

static void irq_task(void)
{
    for (;;) {
        raised++;
        start();
        tm_irq_raise();
        /* The interrupt is taken a few cycles after the raise's store, maybe after the
         * next instructions: wait for the handler (bounded), outside the window. */
        for (unsigned spin = 0; handled != raised; spin++)
            if (spin > 100000)
                fail("the interrupt was not handled");
        report_if_done();
    }
}

/* ---- 4. Semaphore shuffle: the low task gives, the waiting high task takes ---- */
static void sem_high(void)
{
    for (;;) {
        if (tm_sem_get(0) != 0)
            fail("sem get");
        end();
        report_if_done();
    }
}

static void sem_low(void)
{
    for (;;) {
        start();
        if (tm_sem_put(0) != 0)
            fail("sem put");
    }
}

/* ---- 5. Deadlock break: the high task wants the mutex the low task holds ---- */
static void dl_high(void)
{
    for (;;) {
        if (tm_task_suspend(HIGH) != 0)
            fail("suspend");
        start();
        if (tm_mutex_lock(0) != 0)
            fail("lock");
        end();
        if (tm_mutex_unlock(0) != 0)
            fail("unlock");
        report_if_done();
    }
}

static void dl_low(void)
{
    for (;;) {
        if (tm_mutex_lock(0) != 0)
            fail("lock");
        if (tm_task_resume(HIGH) != 0) /* the high task runs, blocks on the mutex */
            fail("resume");
        if (tm_mutex_unlock(0) != 0) /* at its inherited priority: the high task takes over */
            fail("unlock");
    }
}

/* ---- 6. Message latency: the low task sends, the waiting high task receives ---- */
static void msg_high(void)
{
    uint32_t m[TM_MSG_WORDS];
    for (uint32_t n = 0;; n++) {
        if (tm_queue_recv(0, m) != 0)
            fail("recv");
        end();
        if (m[0] != n || m[1] != ~n || m[2] != n * 3u || m[3] != (n ^ 0xA5A5A5A5u))
            fail("message content");
        report_if_done();
    }
}

static void msg_low(void)
{
    uint32_t m[TM_MSG_WORDS];
    for (uint32_t n = 0;; n++) {
        m[0] = n;
        m[1] = ~n;
        m[2] = n * 3u;
        m[3] = n ^ 0xA5A5A5A5u;
        start();
        if (tm_queue_send(0, m) != 0)
            fail("send");
    }
}

int main(void)
{
    tm_init();
    int r = 0;
    switch (RH_FIGURE) {
    case 1: r = tm_task_create(LOW, 2, switch_a) | tm_task_create(OTHER, 2, switch_b); break;
    case 2: r = tm_task_create(HIGH, 1, preempt_high) | tm_task_create(LOW, 2, preempt_low); break;
    case 3: r = tm_irq_setup(irq_handler) | tm_task_create(LOW, 2, irq_task); break;
    case 4:
        r = tm_sem_create(0, 0) | tm_task_create(HIGH, 1, sem_high) |
            tm_task_create(LOW, 2, sem_low);
        break;
    case 5:
        r = tm_mutex_create(0) | tm_task_create(HIGH, 1, dl_high) | tm_task_create(LOW, 2, dl_low);
        break;
    default:
        r = tm_queue_create(0) | tm_task_create(HIGH, 1, msg_high) |
            tm_task_create(LOW, 2, msg_low);
        break;
    }
    if (r != 0)
        fail("setup");
    tm_start();
}
