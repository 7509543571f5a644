/* Signals sent while a task runs its signal handler (docs/api.md, "Signals"): handlers do
 * not nest. A signal sent while the handler sleeps or waits neither cuts that sleep or wait
 * (no UK_EINTR inside a handler) nor enters the handler again; its bits are handled by the
 * next run of the handler, right after the current one returns and before the task's own
 * code continues. So a UK_EINTR the task's code sees always comes after its handler ran for
 * every signal sent until then. Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 512
static uk_task_t main_t, target;
static uint32_t main_stack[STK], target_stack[STK];
static uk_sem_t never;

#define LOG 16
static volatile int depth, max_depth, n_log;
static volatile uint32_t log_sigs[LOG];
static volatile int log_inner[LOG]; /* what the handler's own sleep/wait returned */
static volatile uk_tick_t log_start[LOG], log_end[LOG];
static volatile int outer_res[2];
static volatile uk_tick_t outer_end[2];
static volatile int handler_runs_at_outer_end[2];
static volatile int loop_res = 99;

/* The first run of each round blocks inside the handler: sig 1 sleeps 10 ticks, sig 8
 * waits 10 ticks on a semaphore nobody gives. */
static void handler(uint32_t sigs)
{
    int k = n_log++;
    if (++depth > max_depth)
        max_depth = depth;
    log_sigs[k] = sigs;
    log_start[k] = uk_time();
    log_inner[k] = 99;
    if (sigs == 1)
        log_inner[k] = uk_task_sleep(10);
    else if (sigs == 8)
        log_inner[k] = uk_sem_take(&never, 10);
    log_end[k] = uk_time();
    depth--;
}

static void target_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_signal_handler(0, handler), UK_OK);
    outer_res[0] = uk_task_sleep(1000);
    outer_end[0] = uk_time();
    handler_runs_at_outer_end[0] = n_log;
    outer_res[1] = uk_sem_take(&never, UK_FOREVER);
    outer_end[1] = uk_time();
    handler_runs_at_outer_end[1] = n_log;
    for (;;)
        loop_res = uk_task_sleep(1000);
}

static void main_task(void *arg)
{
    (void)arg;
    CHECK_EQ(
        uk_task_create(&target, "target", target_task, 0, 20, target_stack, sizeof target_stack),
        UK_OK);
    CHECK_EQ(uk_task_activate(&target), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK); /* target sleeps its 1000 ticks */

    /* Round 1: signal 1 cuts the task's sleep; its handler sleeps 10 ticks; signals 2 and 4,
     * sent 3 and 5 ticks into that sleep, do not cut it. */
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_signal_send(&target, 1), UK_OK);
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK_EQ(n_log, 1);
    CHECK_EQ(uk_signal_send(&target, 2), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_signal_send(&target, 4), UK_OK);
    CHECK_EQ(uk_task_state(&target), UK_TASK_DELAYED); /* still in the handler's sleep */
    CHECK_EQ(uk_task_sleep(10), UK_OK);
    CHECK_EQ(n_log, 2);
    CHECK_EQ(log_sigs[0], 1);
    CHECK_EQ(log_inner[0], UK_OK);           /* the handler's sleep was not cut */
    CHECK_EQ(log_end[0] - log_start[0], 10); /* it lasted its 10 ticks */
    CHECK_EQ(log_sigs[1], 2 | 4);            /* both, in one run after the first */
    CHECK_EQ(log_start[1], log_end[0]);
    CHECK_EQ(max_depth, 1);           /* never nested */
    CHECK_EQ(outer_res[0], UK_EINTR); /* after every handler run */
    CHECK_EQ(handler_runs_at_outer_end[0], 2);
    CHECK_EQ(outer_end[0], log_end[0]);
    CHECK(outer_end[0] - t0 <= 11);

    /* Round 2: the task waits on a semaphore; signal 8 cuts that wait; its handler waits 10
     * ticks on a semaphore; signal 16 sent meanwhile does not cut it (it times out). */
    CHECK_EQ(uk_task_state(&target), UK_TASK_PENDING);
    CHECK_EQ(uk_signal_send(&target, 8), UK_OK);
    CHECK_EQ(uk_task_sleep(4), UK_OK);
    CHECK_EQ(uk_signal_send(&target, 16), UK_OK);
    CHECK_EQ(uk_task_state(&target), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_task_sleep(10), UK_OK);
    CHECK_EQ(n_log, 4);
    CHECK_EQ(log_sigs[2], 8);
    CHECK_EQ(log_inner[2], UK_ETIMEOUT);
    CHECK_EQ(log_end[2] - log_start[2], 10);
    CHECK_EQ(log_sigs[3], 16);
    CHECK_EQ(max_depth, 1);
    CHECK_EQ(outer_res[1], UK_EINTR);
    CHECK_EQ(handler_runs_at_outer_end[1], 4);

    /* Outside a handler a signal still cuts the sleep at once. */
    CHECK_EQ(uk_task_state(&target), UK_TASK_DELAYED);
    CHECK_EQ(uk_signal_send(&target, 32), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(n_log, 5);
    CHECK_EQ(log_sigs[4], 32);
    CHECK_EQ(loop_res, UK_EINTR);
    CHECK_EQ(uk_task_state(&target), UK_TASK_DELAYED); /* its loop sleeps again */
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&never, 0, 1), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
