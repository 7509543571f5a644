/* A task with interrupts disabled counts as a LISR: its kernel calls are deferred until it
 * enables them (applied then, before it goes on), calls that would block or yield return
 * UK_EPERM, and the deferral queue refuses what it cannot hold (UK_ENOMEM), never losing a
 * call silently. Also: a deferred give that fails when applied is counted. Priority
 * schedulers (rr does not preempt). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t main_t, waiter;
static uint32_t main_stack[256], waiter_stack[256];
static uk_sem_t s, many, full;
static volatile int woke;

static void waiter_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_sem_take(&s, UK_FOREVER), UK_OK);
    woke = 1;
}

static void main_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_task_activate(&waiter), UK_OK); /* higher priority: runs and waits on s */
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_PENDING);
    CHECK(!uk_in_isr());

    unsigned key = uk_irq_disable();
    CHECK(uk_in_isr());
    CHECK_EQ(uk_sem_give(&s), UK_OK); /* queued */
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_PENDING);
    CHECK_EQ(woke, 0);
    CHECK_EQ(uk_sem_take(&many, 5), UK_EPERM); /* would block */
    CHECK_EQ(uk_sem_take(&many, UK_NO_WAIT), UK_EPERM);
    CHECK_EQ(uk_task_yield(), UK_EPERM);
    CHECK_EQ(uk_task_sleep(1), UK_EPERM);
    uk_irq_restore(key);
    /* Applied as interrupts came back on: the waiter (above us) has run already. */
    CHECK_EQ(woke, 1);
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_DELETED);
    CHECK(!uk_in_isr());

    /* The queue holds 32 calls: the 33rd is refused at once; none is lost. */
    key = uk_irq_disable();
    int ok = 0, refused = 0;
    for (int i = 0; i < 40; i++) {
        int r = uk_sem_give(&many);
        if (r == UK_OK)
            ok++;
        else if (r == UK_ENOMEM)
            refused++;
        else
            CHECK_EQ(r, UK_OK);
    }
    uint32_t count = 99;
    CHECK_EQ(uk_sem_count(&many, &count), UK_OK);
    CHECK_EQ(count, 0); /* nothing applied yet */
    uk_irq_restore(key);
    CHECK_EQ(ok, 32);
    CHECK_EQ(refused, 8);
    CHECK_EQ(uk_sem_count(&many, &count), UK_OK);
    CHECK_EQ(count, 32);

    /* A deferred give at the semaphore's max fails when applied, and is counted. */
    uint32_t failed0 = uk_deferred_failed();
    key = uk_irq_disable();
    CHECK_EQ(uk_sem_give(&full), UK_OK); /* queued: the count is already at max */
    uk_irq_restore(key);
    CHECK_EQ(uk_deferred_failed(), failed0 + 1);
    CHECK_EQ(uk_sem_count(&full, &count), UK_OK);
    CHECK_EQ(count, 1);

    /* Bad arguments are refused at once, not queued. */
    key = uk_irq_disable();
    CHECK_EQ(uk_sem_give(0), UK_EINVAL);
    CHECK_EQ(uk_task_activate(0), UK_EINVAL);
    uk_irq_restore(key);
    CHECK_EQ(uk_deferred_failed(), failed0 + 1);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&s, 0, 1), UK_OK);
    CHECK_EQ(uk_sem_init(&many, 0, 100), UK_OK);
    CHECK_EQ(uk_sem_init(&full, 1, 1), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_entry, 0, 5, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(
        uk_task_create(&waiter, "waiter", waiter_entry, 0, 1, waiter_stack, sizeof waiter_stack),
        UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
