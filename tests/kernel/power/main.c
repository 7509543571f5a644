/* DPM on target: under each policy of ubik/power.h the operating point the kernel selects
 * follows the power class of the running task (high, normal, low) and the idle state, as the
 * policy table says; DEFAULT brings full speed back; bad arguments are refused. A LISR
 * samples the selection while the idle task runs. Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t ctl, hi, no, lo;
static uint32_t ctl_stack[256], hi_stack[256], no_stack[256], lo_stack[256];
static volatile unsigned seen_hi, seen_no, seen_lo, seen_idle = 99, idle_samples;
static uk_sem_t go_hi, go_no, go_lo;

static unsigned opp_now(void) { return MMIO32(POWER_OPP_SELECT); }

/* The idle task is the one named "idle". */
static int strcmp_idle(const char *n)
{
    return !(n[0] == 'i' && n[1] == 'd' && n[2] == 'l' && n[3] == 'e' && n[4] == 0);
}

static void lisr(unsigned line)
{
    (void)line;
    if (uk_task_self() == 0 || strcmp_idle(uk_task_self()->name))
        return;
    seen_idle = opp_now();
    idle_samples++;
}

static void worker(void *arg)
{
    volatile unsigned *out = arg;
    uk_sem_t *go = out == &seen_hi ? &go_hi : out == &seen_no ? &go_no : &go_lo;
    for (;;) {
        uk_sem_take(go, UK_FOREVER);
        *out = opp_now();
    }
}

static const unsigned want[5][4] = {
    /* high, normal, low, idle */
    {0, 0, 0, 0},
    {0, 0, 0, 2},
    {0, 0, 1, 2},
    {0, 1, 2, 2},
    {0, 2, 2, 2}};

static void ctl_entry(void *arg)
{
    (void)arg;
    for (int p = UK_POWER_DEFAULT; p <= UK_POWER_LS2; p++) {
        CHECK_EQ(uk_power_set_policy((uk_power_policy_t)p), UK_OK);
        CHECK_EQ(uk_power_policy(), p);
        seen_hi = seen_no = seen_lo = 99;
        uk_sem_give(&go_hi);
        uk_sem_give(&go_no);
        uk_sem_give(&go_lo);
        idle_samples = 0;
        CHECK_EQ(uk_task_sleep(2), UK_OK); /* the workers run, then idle for ~2 ms */
        CHECK_EQ(seen_hi, want[p][0]);
        CHECK_EQ(seen_no, want[p][1]);
        CHECK_EQ(seen_lo, want[p][2]);
        CHECK(idle_samples > 0);
        CHECK_EQ(seen_idle, want[p][3]);
    }
    CHECK_EQ(uk_power_set_policy(UK_POWER_DEFAULT), UK_OK);
    CHECK_EQ(opp_now(), 0); /* full speed at once */
    CHECK_EQ(uk_power_set_policy((uk_power_policy_t)7), UK_EINVAL);
    CHECK_EQ(uk_task_set_power_class(&lo, (uk_power_class_t)3), UK_EINVAL);
    CHECK_EQ(uk_task_set_power_class(0, UK_POWER_LOW), UK_EINVAL);
    bsp_exit(check_result());
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    uk_sem_init(&go_hi, 0, 1);
    uk_sem_init(&go_no, 0, 1);
    uk_sem_init(&go_lo, 0, 1);
    /* ctl above the workers (it arms them, then sleeps while they run); unique priorities
     * for the bitmap scheduler. */
    CHECK_EQ(uk_task_create(&ctl, "ctl", ctl_entry, 0, 1, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_create(&hi, "hi", worker, (void *)&seen_hi, 2, hi_stack, sizeof hi_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&no, "no", worker, (void *)&seen_no, 3, no_stack, sizeof no_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&lo, "lo", worker, (void *)&seen_lo, 4, lo_stack, sizeof lo_stack),
             UK_OK);
    CHECK_EQ(uk_task_set_power_class(&hi, UK_POWER_HIGH), UK_OK);
    CHECK_EQ(uk_task_set_power_class(&lo, UK_POWER_LOW), UK_OK);
    uk_task_t *all[] = {&ctl, &hi, &no, &lo};
    for (int i = 0; i < 4; i++)
        CHECK_EQ(uk_task_activate(all[i]), UK_OK);
    CHECK_EQ(uk_irq_install(1, lisr), UK_OK);
    uk_start();
    return 99;
}
