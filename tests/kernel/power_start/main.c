/* The DEFAULT power policy ("every task and idle at point 0") holds from the first task on,
 * whatever operating point the machine started at: here it starts at point 1 (machine.toml),
 * and uk_start selects point 0 before the first task runs (it used to leave point 1 until the
 * policy was set again). Under another policy the first task's point is selected likewise.
 * Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t first, second;
static uint32_t first_stack[256], second_stack[256];

static unsigned opp_now(void) { return MMIO32(POWER_OPP_SELECT); }

static void second_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(opp_now(), 0);
    bsp_exit(check_result());
}

static void first_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_power_policy(), UK_POWER_DEFAULT);
    CHECK_EQ(opp_now(), 0); /* full speed from the first instruction of the first task */
    CHECK_EQ(uk_power_opp(), 0);
    CHECK_EQ(uk_task_activate(&second), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK(0); /* the second task ends the test */
}

int main(void)
{
    uk_init();
    CHECK_EQ(opp_now(), 1); /* as the machine started */
    CHECK_EQ(uk_task_create(&first, "first", first_entry, 0, 10, first_stack, sizeof first_stack),
             UK_OK);
    CHECK_EQ(
        uk_task_create(&second, "second", second_entry, 0, 11, second_stack, sizeof second_stack),
        UK_OK);
    CHECK_EQ(uk_task_set_power_class(&second, UK_POWER_LOW), UK_OK);
    CHECK_EQ(uk_task_activate(&first), UK_OK);
    uk_start();
    return 99;
}
