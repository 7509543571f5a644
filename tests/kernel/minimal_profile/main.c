/* The minimal kernel profile ([kernel] profile = "minimal": 32 priorities in a one-word ready
 * map, argument checks compiled out, ticks always through the tail) runs an application as
 * the normal profile does. Three tasks at both ends and the middle of the 31 task priorities
 * (0, 16 and 30, the lowest a task may have):
 *  - ctl (30) activates hi (0), which runs at once and blocks on a semaphore, and mid (16),
 *    which runs at once and sleeps 2 ticks;
 *  - ctl raises fast line 4: its LISR gives the semaphore, hi runs when the interrupt ends
 *    and waits again, 3 ticks at most;
 *  - ctl sleeps; mid wakes at tick 2 and returns (the kernel deletes it), hi's wait times
 *    out at tick 3, and ctl checks the order of it all and the tick count.
 * Self-checking, under each scheduler the minimal profile takes. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define LINE 4
static uk_task_t ctl, hi, mid;
static uint32_t ctl_stack[256], hi_stack[256], mid_stack[256];
static uk_sem_t sem;

static char trace[8];
static volatile unsigned n;
static volatile int first_take, second_take;
static volatile uk_tick_t mid_woke, hi_timed_out;

static void note(char c)
{
    if (n < sizeof trace - 1)
        trace[n++] = c;
}

static void lisr(unsigned line)
{
    (void)line;
    uk_sem_give(&sem);
}

static void hi_entry(void *arg)
{
    (void)arg;
    note('a');
    first_take = uk_sem_take(&sem, UK_FOREVER);
    note('c');
    second_take = uk_sem_take(&sem, 3);
    hi_timed_out = uk_time();
    note('e');
}

static void mid_entry(void *arg)
{
    (void)arg;
    note('b');
    uk_task_sleep(2);
    mid_woke = uk_time();
    note('d');
}

static void ctl_entry(void *arg)
{
    (void)arg;
    uk_tick_t t0 = uk_time();
    uk_task_activate(&hi);  /* runs at once and blocks */
    uk_task_activate(&mid); /* runs at once and sleeps */
    CHECK_EQ(n, 2);
    bsp_fast_irq_raise(LINE); /* hi runs within a few instructions and waits again */
    for (int i = 0; i < 100 && n < 3; i++)
        ;
    CHECK_EQ(n, 3);
    uk_task_sleep(10);
    CHECK(trace[0] == 'a' && trace[1] == 'b' && trace[2] == 'c' && trace[3] == 'd' &&
          trace[4] == 'e');
    CHECK_EQ(n, 5);
    CHECK_EQ(first_take, UK_OK);
    CHECK_EQ(second_take, UK_ETIMEOUT);
    CHECK_EQ(mid_woke - t0, 2);
    CHECK_EQ(hi_timed_out - t0, 3);
    CHECK_EQ(uk_time() - t0, 10);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    uk_sem_init(&sem, 0, 1);
    uk_irq_install(LINE, lisr);
    uk_task_create(&ctl, "ctl", ctl_entry, 0, 30, ctl_stack, sizeof ctl_stack);
    uk_task_create(&hi, "hi", hi_entry, 0, 0, hi_stack, sizeof hi_stack);
    uk_task_create(&mid, "mid", mid_entry, 0, 16, mid_stack, sizeof mid_stack);
    uk_task_activate(&ctl);
    uk_start();
    return 0;
}
