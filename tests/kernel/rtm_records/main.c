/* The rtm policy's use of the RTM's records (docs/kernel.md, "rtm"): one record per task,
 * so with 8 records (machine.toml) the idle task and seven others exist and an eighth is
 * refused; a deleted task gives its record back; a base-priority change keeps the task's
 * record; a delay longer than a record's 16-bit field (70,000 ticks) is armed in parts and
 * ends on its tick; a wait with a timeout that long times out on its tick too; the RTM's
 * event ids are reused by queues that empty and fill again. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define EXTRA 6
static uk_task_t main_task, extra[EXTRA + 1];
static uint32_t main_stack[512], extra_stack[EXTRA + 1][128];
static uk_sem_t sems[40];
static volatile unsigned ran;

static void extra_entry(void *arg)
{
    (void)arg;
    ran++;
    uk_task_sleep(UK_FOREVER - 1);
}

static void main_entry(void *arg)
{
    (void)arg;
    /* Six more tasks fit: idle + main + 6 = 8 records. */
    for (unsigned i = 0; i < EXTRA; i++) {
        CHECK_EQ(uk_task_create(&extra[i], "x", extra_entry, 0, (uint8_t)(10 + i), extra_stack[i],
                                sizeof extra_stack[i]),
                 UK_OK);
        CHECK_EQ(uk_task_activate(&extra[i]), UK_OK);
    }
    CHECK_EQ(uk_task_create(&extra[EXTRA], "y", extra_entry, 0, 30, extra_stack[EXTRA],
                            sizeof extra_stack[EXTRA]),
             UK_EINVAL);
    /* A priority change keeps the record: still no room, and the task still runs at it. */
    CHECK_EQ(uk_task_set_prio(&extra[0], 40), UK_OK);
    CHECK_EQ(uk_task_create(&extra[EXTRA], "y", extra_entry, 0, 30, extra_stack[EXTRA],
                            sizeof extra_stack[EXTRA]),
             UK_EINVAL);
    /* A deletion frees one. */
    CHECK_EQ(uk_task_delete(&extra[1]), UK_OK);
    CHECK_EQ(uk_task_create(&extra[EXTRA], "y", extra_entry, 0, 30, extra_stack[EXTRA],
                            sizeof extra_stack[EXTRA]),
             UK_OK);
    CHECK_EQ(uk_task_activate(&extra[EXTRA]), UK_OK);
    uk_task_sleep(100); /* each runs once (extra[1] never did) */
    CHECK_EQ(ran, EXTRA);

    /* A delay beyond 16 bits: 70,000 ticks, exactly. */
    uk_task_sleep(1);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_task_sleep(70000), UK_OK);
    CHECK_EQ(uk_time() - t0, 70000);
    /* A timeout as long. */
    CHECK_EQ(uk_sem_init(&sems[0], 0, 1), UK_OK);
    t0 = uk_time();
    CHECK_EQ(uk_sem_take(&sems[0], 65536 + 3), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 65536 + 3);

    /* Event ids come back: 300 waits on 40 semaphores in turn (more waits than the 256 ids),
     * each given by the tick's timeout or by a give. */
    for (unsigned i = 1; i < 40; i++)
        CHECK_EQ(uk_sem_init(&sems[i], 0, 1), UK_OK);
    for (unsigned k = 0; k < 300; k++) {
        uk_sem_t *s = &sems[k % 40];
        if (k & 1) {
            CHECK_EQ(uk_sem_give(s), UK_OK);
            CHECK_EQ(uk_sem_take(s, 2), UK_OK);
        } else {
            CHECK_EQ(uk_sem_take(s, 1), UK_ETIMEOUT);
        }
    }
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    uk_task_create(&main_task, "main", main_entry, 0, 1, main_stack, sizeof main_stack);
    uk_task_activate(&main_task);
    uk_start();
    return 0;
}
