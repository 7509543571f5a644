/* A LISR's cheap calls are applied at once, the others queued (kernel_irq.h,
 * uk__lisr_direct). The main task raises fast line 4 itself (the interrupt controller's SET
 * register), so the LISR interrupts task code with the kernel lock free, and the LISR looks
 * at the objects right after each call:
 *  - applied at once: a give nobody waits for, a give at the maximum (its failure counted at
 *    once), a flags set nobody waits for, a pool free nobody waits on (a double free counted
 *    at once), a fixed-size queue send nobody waits on;
 *  - queued: a give that wakes a task (its state is unchanged in the LISR; the task runs
 *    when the interrupt ends), and every call after a queued one, even a cheap one (calls
 *    apply in order);
 *  - a resume: applied at once (the task is READY inside the LISR; a second resume of it,
 *    refused, is counted at once), the task runs after the interrupt (the tail's switch);
 *  - a task with interrupts disabled: every call queued until it enables them.
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define LINE 4
#define STK 256
static uk_task_t main_t, waiter, susp;
static uint32_t main_stack[STK], waiter_stack[STK], susp_stack[STK];
static uk_sem_t free_sem, full_sem, wake_sem, later_sem;
static uk_flags_t flags;
static uk_pool_t pool;
static uint32_t pool_buf[4 * 8];
static uk_queue_t queue;
static uint32_t queue_buf[2 * 4];
static void *blocks[2];

static volatile int step, waiter_runs, susp_runs;
static volatile uint32_t seen[8], failed_before, failed_after[4];
static volatile int r_[8];

static uint32_t sem_count(uk_sem_t *s)
{
    uint32_t n = 99;
    CHECK_EQ(uk_sem_count(s, &n), UK_OK);
    return n;
}

static void lisr(unsigned line)
{
    (void)line;
    switch (step) {
    case 0: /* cheap calls: applied at once */
        failed_before = uk_deferred_failed();
        r_[0] = uk_sem_give(&free_sem);
        seen[0] = sem_count(&free_sem); /* 1 at once */
        r_[1] = uk_sem_give(&full_sem); /* at its maximum: refused, counted at once */
        failed_after[0] = uk_deferred_failed();
        r_[2] = uk_flags_set(&flags, 0x5);
        CHECK_EQ(uk_flags_get(&flags, (uint32_t *)&seen[1]), UK_OK);
        r_[3] = uk_pool_free(&pool, blocks[0]);
        CHECK_EQ(uk_pool_available(&pool, (uint32_t *)&seen[2]), UK_OK);
        r_[4] = uk_pool_free(&pool, blocks[0]); /* a double free: counted at once */
        failed_after[1] = uk_deferred_failed();
        {
            uint32_t msg[4] = {1, 2, 3, 4};
            r_[5] = uk_queue_send(&queue, msg, UK_NO_WAIT);
            CHECK_EQ(uk_queue_count(&queue, (uint32_t *)&seen[3]), UK_OK);
        }
        break;
    case 1: /* a give that wakes a task: queued; then a cheap one behind it: queued too */
        r_[0] = uk_sem_give(&wake_sem);
        seen[0] = uk_task_state(&waiter); /* still waiting */
        r_[1] = uk_sem_give(&later_sem);
        seen[1] = sem_count(&later_sem); /* 0: behind the queued give */
        break;
    case 3: /* a resume: applied at once */
        failed_before = uk_deferred_failed();
        r_[0] = uk_task_resume(&susp);
        seen[0] = uk_task_state(&susp);
        r_[1] = uk_task_resume(&susp); /* not suspended any more: refused, counted */
        failed_after[0] = uk_deferred_failed();
        seen[1] = susp_runs;
        break;
    default: break;
    }
}

static void waiter_entry(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(uk_sem_take(&wake_sem, UK_FOREVER), UK_OK);
        waiter_runs++;
    }
}

static void susp_entry(void *arg)
{
    (void)arg;
    for (;;) {
        susp_runs++;
        CHECK_EQ(uk_task_suspend(0), UK_OK);
    }
}

static void main_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_pool_alloc(&pool, &blocks[0], UK_NO_WAIT), UK_OK);
    uint32_t avail0 = 0;
    CHECK_EQ(uk_pool_available(&pool, &avail0), UK_OK);

    step = 0;
    bsp_fast_irq_raise(LINE);
    CHECK_EQ(r_[0], UK_OK);
    CHECK_EQ(seen[0], 1);
    CHECK_EQ(r_[1], UK_OK); /* accepted; its failure is counted */
    CHECK_EQ(failed_after[0], failed_before + 1);
    CHECK_EQ(r_[2], UK_OK);
    CHECK_EQ(seen[1], 0x5);
    CHECK_EQ(r_[3], UK_OK);
    CHECK_EQ(seen[2], avail0 + 1);
    CHECK_EQ(r_[4], UK_OK);
    CHECK_EQ(failed_after[1], failed_before + 2);
    CHECK_EQ(r_[5], UK_OK);
    CHECK_EQ(seen[3], 1);
    uint32_t msg[4];
    CHECK_EQ(uk_queue_recv(&queue, msg, UK_NO_WAIT), UK_OK);
    CHECK(msg[0] == 1 && msg[1] == 2 && msg[2] == 3 && msg[3] == 4);
    CHECK_EQ(uk_deferred_failed(), failed_before + 2);

    /* The waiter blocks on wake_sem. */
    CHECK_EQ(uk_task_activate(&waiter), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_PENDING);
    step = 1;
    bsp_fast_irq_raise(LINE);
    CHECK_EQ(r_[0], UK_OK);
    CHECK_EQ(seen[0], UK_TASK_PENDING); /* queued: unchanged inside the LISR */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(waiter_runs, 1);
    CHECK_EQ(r_[1], UK_OK);
    CHECK_EQ(seen[1], 0);               /* behind the queued give */
    CHECK_EQ(sem_count(&later_sem), 1); /* applied in order, after it */

    /* With interrupts disabled, a task's give is queued until it enables them. */
    step = 2;
    unsigned key = uk_irq_disable();
    CHECK_EQ(uk_sem_give(&free_sem), UK_OK);
    CHECK_EQ(sem_count(&free_sem), 1);
    uk_irq_restore(key);
    CHECK_EQ(sem_count(&free_sem), 2);
    CHECK_EQ(uk_deferred_failed(), failed_before + 2);

    /* A resume from the LISR. susp (higher priority) runs once and suspends itself. */
    CHECK_EQ(uk_task_activate(&susp), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(susp_runs, 1);
    CHECK_EQ(uk_task_state(&susp), UK_TASK_SUSPENDED);
    step = 3;
    bsp_fast_irq_raise(LINE);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(r_[0], UK_OK);
    CHECK_EQ(seen[0], UK_TASK_READY); /* applied inside the LISR */
    CHECK_EQ(r_[1], UK_OK);           /* accepted; its failure is counted */
    CHECK_EQ(failed_after[0], failed_before + 1);
    CHECK_EQ(seen[1], 1); /* it had not run yet */
    CHECK_EQ(susp_runs, 2);
    CHECK_EQ(uk_task_state(&susp), UK_TASK_SUSPENDED);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&free_sem, 0, 10), UK_OK);
    CHECK_EQ(uk_sem_init(&full_sem, 1, 1), UK_OK);
    CHECK_EQ(uk_sem_init(&wake_sem, 0, 10), UK_OK);
    CHECK_EQ(uk_sem_init(&later_sem, 0, 10), UK_OK);
    CHECK_EQ(uk_flags_init(&flags), UK_OK);
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 32, 4), UK_OK);
    CHECK_EQ(uk_queue_init(&queue, queue_buf, 16, 2), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(
        uk_task_create(&waiter, "waiter", waiter_entry, 0, 5, waiter_stack, sizeof waiter_stack),
        UK_OK);
    CHECK_EQ(uk_task_create(&susp, "susp", susp_entry, 0, 6, susp_stack, sizeof susp_stack), UK_OK);
    CHECK_EQ(uk_irq_install(LINE, lisr), UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
