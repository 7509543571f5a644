/* LISR and HISR on target: a stimulus on line 2 enters the LISR, which activates a HISR and
 * a priority-0 task; the HISR runs before any task, the task after it; a LISR may not block.
 * Self-checking. Needs machine.toml (the stimulus). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t top, worker;
static uint32_t top_stack[256], worker_stack[256], hisr_stack[256];
static uk_hisr_t hisr;
static uk_sem_t done;
static volatile int log_[32], n_log, lisr_calls, lisr_take_result = 1;

static void note(int v)
{
    if (n_log < 32)
        log_[n_log++] = v;
}

static void lisr(unsigned line)
{
    CHECK_EQ(line, 2);
    lisr_calls++;
    CHECK(uk_in_isr());
    lisr_take_result = uk_sem_take(&done, UK_FOREVER); /* blocking: refused */
    note(1);
    CHECK_EQ(uk_hisr_activate(&hisr), UK_OK);
    CHECK_EQ(uk_task_resume(&top), UK_OK);
}

static void hisr_entry(uk_hisr_t *h)
{
    (void)h;
    CHECK(uk_in_isr());
    note(2); /* before the priority-0 task */
    CHECK_EQ(uk_task_sleep(1), UK_EPERM);
    CHECK_EQ(uk_sem_give(&done), UK_OK);
}

static void top_task(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(uk_task_suspend(0), UK_OK); /* resumed by the LISR */
        note(3);
    }
}

static void worker_task(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        CHECK_EQ(uk_sem_take(&done, 100), UK_OK);
    CHECK_EQ(lisr_take_result, UK_EPERM);
    CHECK(lisr_calls >= 3);
    for (int i = 0; i + 2 < 9; i += 3) {
        CHECK_EQ(log_[i], 1);
        CHECK_EQ(log_[i + 1], 2);
        CHECK_EQ(log_[i + 2], 3);
    }
    CHECK(!uk_in_isr());
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&done, 0, 10), UK_OK);
    CHECK_EQ(uk_hisr_create(&hisr, "h", hisr_entry, 0, hisr_stack, sizeof hisr_stack), UK_OK);
    CHECK_EQ(uk_hisr_create(&hisr, "h", hisr_entry, UK_HISR_PRIOS, hisr_stack, sizeof hisr_stack),
             UK_EINVAL);
    CHECK_EQ(uk_hisr_create(&hisr, "h", hisr_entry, 0, hisr_stack, sizeof hisr_stack), UK_OK);
    CHECK_EQ(uk_task_create(&top, "top", top_task, 0, 0, top_stack, sizeof top_stack), UK_OK);
    CHECK_EQ(
        uk_task_create(&worker, "worker", worker_task, 0, 10, worker_stack, sizeof worker_stack),
        UK_OK);
    CHECK_EQ(uk_irq_install(2, lisr), UK_OK);
    CHECK_EQ(uk_irq_install(15, lisr), UK_EINVAL);
    CHECK_EQ(uk_task_activate(&top), UK_OK);
    CHECK_EQ(uk_task_activate(&worker), UK_OK);
    uk_start();
    return 99;
}
