/* API strictness the headers promise, checked under every scheduler (its `schedulers`
 * file); each failing check is a kernel bug. Self-checking:
 * 1. uk_sem_init over a live semaphore with a waiter returns UK_ESTATE (as uk_mutex_init
 *    does) and leaves the waiter queued: a later give still wakes it.
 * 2. irq.h: "Kernel calls a LISR may make: ... The rest return UK_EPERM". From a LISR,
 *    uk_sem_init, uk_sem_delete, uk_mutex_init, uk_task_delete (of another task),
 *    uk_task_set_prio, uk_task_set_slice, uk_hisr_create and uk_hisr_delete return UK_EPERM.
 * 3. From a LISR that interrupted the idle task, uk_task_suspend(NULL) and
 *    uk_task_delete(NULL) return UK_EPERM, not UK_EINVAL. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t main_t, waiter, other;
static uint32_t main_stack[256], waiter_stack[256], other_stack[256], hs2[256];
static uk_sem_t s, s2;
static uk_mutex_t m;
static uk_hisr_t h2;
static volatile int waiter_result = 1234, armed, done, idle_armed, idle_done;
static volatile int r_[16], ri_[2];

static void waiter_entry(void *arg)
{
    (void)arg;
    waiter_result = uk_sem_take(&s, UK_FOREVER);
}
static void other_entry(void *arg)
{
    (void)arg;
    for (;;)
        uk_task_sleep(100);
}
static void hisr_entry(uk_hisr_t *x) { (void)x; }

static void lisr(unsigned line)
{
    (void)line;
    if (idle_armed && !idle_done && uk_task_self() != &main_t) {
        ri_[0] = uk_task_suspend(0);
        ri_[1] = uk_task_delete(0);
        idle_done = 1;
        return;
    }
    if (!armed || done)
        return;
    r_[0] = uk_sem_init(&s2, 0, 1);
    r_[1] = uk_sem_delete(&s2);
    r_[2] = uk_mutex_init(&m);
    r_[3] = uk_task_set_prio(&other, 30);
    r_[4] = uk_task_set_slice(&other, 3);
    r_[5] = uk_hisr_create(&h2, "h2", hisr_entry, 0, hs2, sizeof hs2);
    r_[6] = uk_hisr_delete(&h2);
    r_[7] = uk_task_delete(&other);
    done = 1;
}

static void main_entry(void *arg)
{
    (void)arg;
    /* 1 */
    CHECK_EQ(uk_sem_init(&s, 0, 1), UK_OK);
    CHECK_EQ(uk_task_activate(&waiter), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_PENDING);
    CHECK_EQ(uk_sem_init(&s, 0, 1), UK_ESTATE);
    CHECK_EQ(uk_sem_give(&s), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(waiter_result, UK_OK); /* the give reached the waiter */
    /* 2: from a LISR, with main running */
    CHECK_EQ(uk_task_activate(&other), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    armed = 1;
    while (!done) {
    }
    for (int i = 0; i < 8; i++)
        if (r_[i] != UK_EPERM)
            bsp_printf("LISR call %d returned %d, expected UK_EPERM\n", i, r_[i]);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(r_[i], UK_EPERM);
    /* 3: from a LISR, with idle running */
    idle_armed = 1;
    while (!idle_done)
        uk_task_sleep(1);
    CHECK_EQ(ri_[0], UK_EPERM);
    CHECK_EQ(ri_[1], UK_EPERM);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    uk_task_create(&main_t, "main", main_entry, 0, 5, main_stack, sizeof main_stack);
    uk_task_create(&waiter, "waiter", waiter_entry, 0, 6, waiter_stack, sizeof waiter_stack);
    uk_task_create(&other, "other", other_entry, 0, 7, other_stack, sizeof other_stack);
    uk_irq_install(2, lisr);
    uk_task_activate(&main_t);
    uk_start();
    return 99;
}
