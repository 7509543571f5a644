/* A HISR of level 1..3 preempted mid-run by a higher level: a cyclic function timer's HISR
 * (level 0) runs at every tick while a level-1, -2 and -3 HISR each spin across several
 * ticks in their last run (no further activation pending). That state is legal: the
 * preempted HISR resumes when the timers' HISR is done, and no activation is lost. The debug
 * kernel's HISR list check used to take it for a listed HISR without a run to make and
 * stop the system (exit 60). Self-checking; run.sh runs it on the debug kernel too. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define SPIN 4
static uk_task_t ctl;
static uint32_t ctl_stack[256];
static uk_hisr_t hx[3];
static uint32_t hx_stack[3][128];
static uk_timer_t cyc;
static volatile uint32_t fired, runs[3], fired_in[3];
static uk_sem_t done;

static void on_tick(uk_timer_t *tm, void *arg)
{
    (void)tm;
    (void)arg;
    fired++;
}

static void spin_entry(uk_hisr_t *h)
{
    unsigned i = (unsigned)(h - hx);
    uint32_t f0 = fired;
    uk_tick_t t0 = uk_time();
    while (uk_time() - t0 < SPIN) {
    }
    fired_in[i] = fired - f0;
    runs[i]++;
    CHECK_EQ(uk_sem_give(&done), UK_OK);
}

static void ctl_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_timer_start(&cyc, 1, 1), UK_OK);
    for (unsigned i = 0; i < 3; i++) {
        CHECK_EQ(uk_hisr_activate(&hx[i]), UK_OK); /* runs at once, above every task */
        CHECK_EQ(uk_sem_take(&done, 100), UK_OK);
        CHECK_EQ(runs[i], 1);
        /* The timer ran at every tick of the spin: SPIN ticks, one expiry each. */
        CHECK(fired_in[i] >= SPIN - 1 && fired_in[i] <= SPIN + 1);
    }
    CHECK_EQ(uk_timer_stop(&cyc), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK); /* nothing left to run */
    uint32_t exp, over;
    CHECK_EQ(uk_timer_expiries(&cyc, &exp, &over), UK_OK);
    CHECK_EQ(exp, fired); /* every expiry ran its function: none lost */
    CHECK_EQ(over, 0);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&done, 0, 1), UK_OK);
    CHECK_EQ(uk_timer_init(&cyc, on_tick, 0), UK_OK);
    for (unsigned i = 0; i < 3; i++)
        CHECK_EQ(uk_hisr_create(&hx[i], "spin", spin_entry, (uint8_t)(i + 1), hx_stack[i],
                                sizeof hx_stack[i]),
                 UK_OK);
    CHECK_EQ(uk_task_create(&ctl, "ctl", ctl_entry, 0, 10, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
