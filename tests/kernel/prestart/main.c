/* Blocking calls before uk_start(): there is no task yet, so they are refused with UK_EPERM
 * (as uk_mutex_lock is) instead of blocking "the current task" (uk__current is NULL until
 * uk_start): uk_sem_take with a timeout on an empty semaphore, uk_task_sleep,
 * uk_task_sleep_until and uk_task_yield. Runs under every scheduler (its `schedulers`
 * file). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_sem_t s;

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&s, 0, 1), UK_OK);
    CHECK_EQ(uk_sem_take(&s, UK_NO_WAIT), UK_EAGAIN);
    bsp_printf("take with a timeout before uk_start...\n");
    CHECK_EQ(uk_sem_take(&s, 5), UK_EPERM);
    bsp_printf("sleep before uk_start...\n");
    CHECK_EQ(uk_task_sleep(1), UK_EPERM);
    uk_tick_t lw = 0;
    CHECK_EQ(uk_task_sleep_until(&lw, 5), UK_EPERM);
    bsp_printf("yield before uk_start...\n");
    CHECK_EQ(uk_task_yield(), UK_EPERM);
    return check_result();
}
