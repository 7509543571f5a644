/* A created task that was never activated is in its own state, UK_TASK_CREATED, and state
 * and behaviour agree: activate (not resume) starts it; once it has run, a suspended task is
 * UK_TASK_SUSPENDED and resume (not activate) readies it. Before, uk_task_state reported
 * SUSPENDED for both while resume refused the first with UK_ESTATE. Also: suspend of a
 * created task, a LISR's deferred resume of one (counted as failed), a task timer's first
 * expiry (activates), deletion of a created task. Self-checking. Needs machine.toml. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t main_t, a, b, c, d;
static uint32_t main_stack[256], a_stack[256], b_stack[256], c_stack[256], d_stack[256];
static uk_timer_t tm;
static volatile int a_runs, c_runs, lisr_resume = 1, lisr_done;

static void a_entry(void *arg)
{
    (void)arg;
    for (;;) {
        a_runs++;
        uk_task_suspend(0);
    }
}

static void c_entry(void *arg)
{
    (void)arg;
    for (;;) {
        c_runs++;
        uk_task_suspend(0);
    }
}

static void idle_entry(void *arg) { (void)arg; }

static void lisr(unsigned line)
{
    (void)line;
    if (lisr_done)
        return;
    lisr_resume = uk_task_resume(&b); /* checked here: queued; refused when applied */
    lisr_done = 1;
}

static void main_entry(void *arg)
{
    (void)arg;
    /* Created: its own state; resume and suspend refuse it, activate starts it. */
    CHECK_EQ(uk_task_create(&a, "a", a_entry, 0, 1, a_stack, sizeof a_stack), UK_OK);
    CHECK_EQ(uk_task_state(&a), UK_TASK_CREATED);
    CHECK(uk_task_state(&a) != UK_TASK_SUSPENDED); /* resume refuses it: not "suspended" */
    CHECK_EQ(uk_task_resume(&a), UK_ESTATE);
    CHECK_EQ(uk_task_suspend(&a), UK_ESTATE);
    CHECK_EQ(uk_task_state(&a), UK_TASK_CREATED);
    CHECK_EQ(a_runs, 0);
    CHECK_EQ(uk_task_activate(&a), UK_OK); /* runs (priority 1; rr: at the yield), suspends */
    uk_task_yield();
    CHECK_EQ(a_runs, 1);
    CHECK_EQ(uk_task_state(&a), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_activate(&a), UK_ESTATE); /* activated once: resume it */
    CHECK_EQ(uk_task_resume(&a), UK_OK);
    uk_task_yield();
    CHECK_EQ(a_runs, 2);
    CHECK_EQ(uk_task_state(&a), UK_TASK_SUSPENDED);

    /* A LISR's resume of a created task is queued, then refused and counted. */
    uint32_t failed = uk_deferred_failed();
    CHECK_EQ(uk_task_create(&b, "b", idle_entry, 0, 3, b_stack, sizeof b_stack), UK_OK);
    CHECK_EQ(uk_irq_install(2, lisr), UK_OK);
    while (!lisr_done)
        uk_task_sleep(1);
    uk_task_sleep(1);
    CHECK_EQ(lisr_resume, UK_OK);
    CHECK_EQ(uk_deferred_failed() - failed, 1);
    CHECK_EQ(uk_task_state(&b), UK_TASK_CREATED);
    CHECK_EQ(uk_task_delete(&b), UK_OK); /* from the created state */
    CHECK_EQ(uk_task_state(&b), UK_TASK_DELETED);

    /* A task timer activates a created task the first time, resumes it afterwards. */
    CHECK_EQ(uk_task_create(&c, "c", c_entry, 0, 5, c_stack, sizeof c_stack), UK_OK);
    CHECK_EQ(uk_timer_init_task(&tm, &c), UK_OK);
    CHECK_EQ(uk_timer_start(&tm, 1, 2), UK_OK);
    uk_task_sleep(4); /* expiries at +1 and +3 */
    CHECK_EQ(c_runs, 2);
    CHECK_EQ(uk_task_state(&c), UK_TASK_SUSPENDED);
    uint32_t exp = 0, over = 0;
    CHECK_EQ(uk_timer_expiries(&tm, &exp, &over), UK_OK);
    CHECK_EQ(exp, 2);
    CHECK_EQ(over, 0);
    uk_timer_stop(&tm);

    /* Created again over a deleted TCB: created, not suspended. */
    CHECK_EQ(uk_task_create(&d, "d", idle_entry, 0, 4, d_stack, sizeof d_stack), UK_OK);
    CHECK_EQ(uk_task_delete(&d), UK_OK);
    CHECK_EQ(uk_task_create(&d, "d", idle_entry, 0, 4, d_stack, sizeof d_stack), UK_OK);
    CHECK_EQ(uk_task_state(&d), UK_TASK_CREATED);
    bsp_exit((int)check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&main_t, "main", main_entry, 0, 2, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_state(&main_t), UK_TASK_CREATED);
    uk_task_activate(&main_t);
    uk_start();
    return 99;
}
