/* The calls a LISR may make, made from one (machine.toml's stimulus on line 2, one step per
 * interrupt): uk_sem_give waking a task, uk_task_activate of a created task, uk_task_suspend
 * and uk_task_resume of another task, uk_hisr_activate (the HISR runs before any task) --
 * all deferred (queued, applied when the LISR ends, failures counted by uk_deferred_failed)
 * but the resume, applied at once when the LISR finds the kernel lock free (kernel_irq.h) --
 * uk_sem_take refused, uk_irq_mask/unmask, uk_time. Then a LISR-driven producer (line 3,
 * randomly timed) gives a counting semaphore to a slower consumer task: every give is
 * consumed or refused (at once, or when applied) and counted, none lost. Self-checking,
 * every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 256
static uk_task_t main_t, act, sleeper, consumer;
static uint32_t main_stack[STK], act_stack[STK], sleeper_stack[STK], consumer_stack[STK],
    hisr_stack[STK];
static uk_hisr_t hisr;
static uk_sem_t wake, cnt, items;

static volatile int step = -1, r_[8][4];
static volatile uk_tick_t lisr_time[8], act_start, hisr_time;
static volatile int act_runs, sleeps, hisr_runs, hisr_done_before, main_state_in_hisr,
    state_after[8];
static volatile int produce, produced_ok, produced_refused, consumed;
static volatile uint32_t lisr_line_mismatch;

#define PRODUCE_N 3000

static void step_lisr(unsigned line)
{
    if (line != 2)
        lisr_line_mismatch++;
    if (step < 0 || step > 5)
        return;
    int k = step;
    lisr_time[k] = uk_time();
    switch (k) {
    case 0: /* give wakes main, waiting on `wake` */
        r_[k][0] = uk_sem_give(&wake);
        state_after[k] = uk_task_state(&main_t); /* ready; runs when the LISR ends */
        break;
    case 1: /* activate a created task */
        r_[k][0] = uk_task_activate(&act);
        r_[k][1] = uk_task_activate(&act); /* twice: refused */
        state_after[k] = uk_task_state(&act);
        r_[k][2] = uk_sem_give(&wake);
        break;
    case 2: /* suspend another task (sleeping in a loop) */
        r_[k][0] = uk_task_suspend(&sleeper);
        state_after[k] = uk_task_state(&sleeper);
        r_[k][1] = uk_task_resume(&main_t); /* main is pending, not suspended: refused */
        r_[k][2] = uk_sem_give(&wake);
        break;
    case 3: /* resume it */
        r_[k][0] = uk_task_resume(&sleeper);
        state_after[k] = uk_task_state(&sleeper);
        r_[k][1] = uk_sem_give(&wake);
        break;
    case 4: /* activate the HISR, which gives `wake` */
        r_[k][0] = uk_hisr_activate(&hisr);
        state_after[k] = hisr_runs; /* not yet run: it runs after the LISR, before tasks */
        break;
    case 5: /* non-blocking take, masking */
        r_[k][0] = uk_sem_take(&cnt, UK_NO_WAIT);
        r_[k][1] = uk_sem_take(&cnt, UK_NO_WAIT);
        r_[k][2] = uk_irq_mask(1u << 3);
        r_[k][3] = uk_irq_unmask(1u << 3);
        state_after[k] = uk_in_isr();
        uk_sem_give(&wake);
        break;
    }
    step = -1; /* main arms the next step */
}

static void producer_lisr(unsigned line)
{
    (void)line;
    if (!produce)
        return;
    int r = uk_sem_give(&items);
    if (r == UK_OK)
        produced_ok++;
    else if (r == UK_ENOMEM)
        produced_refused++;
    else
        CHECK_EQ(r, UK_OK);
    if (produced_ok + produced_refused == PRODUCE_N)
        produce = 0;
}

static void hisr_entry(uk_hisr_t *h)
{
    (void)h;
    hisr_runs++;
    hisr_time = uk_time();
    main_state_in_hisr = uk_task_state(&main_t);
    CHECK_EQ(uk_sem_give(&wake), UK_OK); /* from a HISR too; main stays behind us */
    hisr_done_before = uk_task_state(&main_t) == UK_TASK_READY;
}

static void act_entry(void *arg)
{
    (void)arg;
    act_start = uk_time();
    act_runs++;
}

static void sleeper_entry(void *arg)
{
    (void)arg;
    for (;;) {
        sleeps++;
        uk_task_sleep(1);
    }
}

static void consumer_entry(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(uk_sem_take(&items, UK_FOREVER), UK_OK);
        consumed++;
        for (volatile int i = 0; i < 60; i++) { /* slower than a burst of gives */
        }
    }
}

/* Arm step k and wait for the LISR (or its HISR) to give `wake`. */
static uk_tick_t run_step(int k)
{
    step = k;
    CHECK_EQ(uk_sem_take(&wake, 100), UK_OK);
    return uk_time();
}

static void main_task(void *arg)
{
    (void)arg;
    uk_tick_t woke = run_step(0);
    CHECK_EQ(r_[0][0], UK_OK);
    CHECK_EQ(state_after[0], UK_TASK_PENDING_DELAYED); /* queued: applied when the LISR ends */
    CHECK_EQ(woke, lisr_time[0]);                      /* woken in the tick of the give */

    uint32_t failed0 = uk_deferred_failed();
    woke = run_step(1);
    CHECK_EQ(r_[1][0], UK_OK);
    CHECK_EQ(r_[1][1], UK_OK); /* queued too; refused when applied, and counted: */
    CHECK_EQ(uk_deferred_failed(), failed0 + 1);
    CHECK_EQ(state_after[1], UK_TASK_CREATED); /* the activation is still queued */
    CHECK_EQ(r_[1][2], UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK); /* act (lower priority) runs */
    CHECK_EQ(act_runs, 1);
    CHECK_EQ(act_start, lisr_time[1]);
    CHECK_EQ(uk_task_state(&act), UK_TASK_DELETED);
    CHECK_EQ(lisr_time[1] - lisr_time[0], 5); /* uk_time in a LISR: 5 ms apart */

    CHECK_EQ(uk_task_activate(&sleeper), UK_OK);
    woke = run_step(2);
    CHECK_EQ(r_[2][0], UK_OK);
    CHECK(state_after[2] != UK_TASK_SUSPENDED); /* not yet */
    CHECK_EQ(uk_task_state(&sleeper), UK_TASK_SUSPENDED);
    CHECK_EQ(r_[2][1], UK_OK); /* queued; main is pending, not suspended: refused when applied */
    CHECK_EQ(uk_deferred_failed(), failed0 + 2);
    CHECK_EQ(r_[2][2], UK_OK);
    int s0 = sleeps;
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK_EQ(sleeps, s0); /* suspended: no more rounds */

    woke = run_step(3);
    CHECK_EQ(r_[3][0], UK_OK);
    CHECK_EQ(state_after[3], UK_TASK_READY); /* applied in the LISR: the idle task ran, lock free */
    CHECK(uk_task_state(&sleeper) != UK_TASK_SUSPENDED);
    CHECK_EQ(r_[3][1], UK_OK);
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK(sleeps >= s0 + 3);
    CHECK_EQ(uk_task_delete(&sleeper), UK_OK);

    woke = run_step(4);
    CHECK_EQ(r_[4][0], UK_OK);
    CHECK_EQ(state_after[4], 0);
    CHECK_EQ(hisr_runs, 1);
    CHECK_EQ(main_state_in_hisr, UK_TASK_PENDING_DELAYED);
    CHECK_EQ(hisr_done_before, 1); /* the HISR finished before main ran */
    CHECK_EQ(hisr_time, lisr_time[4]);
    CHECK_EQ(woke, lisr_time[4]);

    CHECK_EQ(uk_sem_give(&cnt), UK_OK);
    woke = run_step(5);
    CHECK_EQ(r_[5][0], UK_EPERM); /* a LISR may not take */
    CHECK_EQ(r_[5][1], UK_EPERM);
    CHECK_EQ(uk_sem_take(&cnt, UK_NO_WAIT), UK_OK);
    CHECK_EQ(r_[5][2], UK_OK);
    CHECK_EQ(r_[5][3], UK_OK);
    CHECK_EQ(state_after[5], 1);
    for (int k = 1; k <= 5; k++)
        CHECK_EQ(lisr_time[k] - lisr_time[k - 1], 5);

    /* Producer and consumer. */
    CHECK_EQ(uk_task_activate(&consumer), UK_OK);
    uint32_t failed1 = uk_deferred_failed();
    produce = 1;
    while (produce)
        CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_sleep(5), UK_OK); /* the consumer drains what is left */
    uint32_t left = 99;
    CHECK_EQ(uk_sem_count(&items, &left), UK_OK);
    CHECK_EQ(left, 0);
    CHECK_EQ(produced_ok + produced_refused, PRODUCE_N);
    /* Every give is consumed, or refused: at once (queue full, UK_ENOMEM) or when applied
     * (the count at its max), and counted either way. None lost. */
    uint32_t applied_refused = uk_deferred_failed() - failed1;
    CHECK_EQ(consumed + applied_refused, produced_ok);
    CHECK(produced_refused + applied_refused > 0); /* the refusal path was taken */
#ifndef UK_CONFIG_CHECKS_FULL /* the debug kernel's checks leave the consumer less time */
    CHECK(consumed > PRODUCE_N / 2);
#endif
    CHECK_EQ(lisr_line_mismatch, 0);
    bsp_printf("producer: %d gives accepted, %d refused (UK_ENOMEM), %u refused when applied, "
               "%d consumed\n",
               produced_ok, produced_refused, (unsigned)applied_refused, consumed);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&wake, 0, 1), UK_OK);
    CHECK_EQ(uk_sem_init(&cnt, 0, 2), UK_OK);
    CHECK_EQ(uk_sem_init(&items, 0, 4), UK_OK);
    CHECK_EQ(uk_hisr_create(&hisr, "hisr", hisr_entry, 0, hisr_stack, sizeof hisr_stack), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 5, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&act, "act", act_entry, 0, 20, act_stack, sizeof act_stack), UK_OK);
    CHECK_EQ(uk_task_create(&sleeper, "sleeper", sleeper_entry, 0, 21, sleeper_stack,
                            sizeof sleeper_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&consumer, "consumer", consumer_entry, 0, 10, consumer_stack,
                            sizeof consumer_stack),
             UK_OK);
    CHECK_EQ(uk_irq_install(2, step_lisr), UK_OK);
    CHECK_EQ(uk_irq_install(3, producer_lisr), UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
