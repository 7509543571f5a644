/* Two tasks of equal priority that hand the processor to each other, for the testbed's
 * observer (`ubik run --trace`, `--vcd`; sim/crates/cli/tests/cli_observe.rs):
 *
 *   ping: 3 times: GPIO pin 0 high, OUT[0] = i, yield, pin 0 low; then it returns (deleted)
 *   pong: 3 times: GPIO pin 1 high, OUT[1] = i, yield, pin 1 low; then sleeps 2 ticks
 *         (the idle task runs) and exits with 0.
 *
 * Running tasks in order: ping pong ping pong ping pong ping pong idle pong. Only the
 * public API. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static uk_task_t ping, pong;
static uint32_t ping_stack[256], pong_stack[256];
static uk_sem_t done;

static void ping_entry(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < 3; i++) {
        bsp_gpio_set(1u << 0);
        bsp_io_out(0, i);
        uk_task_yield();
        bsp_gpio_clear(1u << 0);
    }
    uk_sem_give(&done);
}

static void pong_entry(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < 3; i++) {
        bsp_gpio_set(1u << 1);
        bsp_io_out(1, i);
        uk_task_yield();
        bsp_gpio_clear(1u << 1);
    }
    if (uk_sem_take(&done, UK_NO_WAIT) != UK_OK)
        bsp_exit(1);
    uk_task_sleep(2);
    bsp_printf("two_tasks: done at tick %u\n", (unsigned)uk_time());
    bsp_exit(0);
}

int main(void)
{
    uk_init();
    uk_sem_init(&done, 0, 1);
    uk_task_create(&ping, "ping", ping_entry, 0, 2, ping_stack, sizeof ping_stack);
    uk_task_create(&pong, "pong", pong_entry, 0, 2, pong_stack, sizeof pong_stack);
    uk_task_activate(&ping);
    uk_task_activate(&pong);
    uk_start();
    return 0;
}
