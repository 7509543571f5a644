/* Footprint, minimal configuration: the smallest useful system -- two tasks, a tick-driven
 * sleep, a semaphore given from a task and from a LISR -- so the link keeps only the kernel
 * such an application needs (the linker drops every kernel function it does not call);
 * bench/kernel.toml measures the kernel's own sections of the ELF (docs/results.md,
 * "Kernel"). The full configuration's footprint_full references every call instead. It
 * runs: one task gives, another takes, and it exits 0. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static uk_task_t a, b;
static uint32_t a_stack[128], b_stack[128];
static uk_sem_t s;

static void lisr(unsigned line)
{
    (void)line;
    uk_sem_give(&s);
}

static void a_entry(void *arg)
{
    (void)arg;
    uk_task_sleep(1);
    uk_sem_give(&s);
}

static void b_entry(void *arg)
{
    (void)arg;
    int r = uk_sem_take(&s, 10);
    bsp_exit(r == UK_OK ? 0 : 1);
}

int main(void)
{
    uk_init();
    uk_sem_init(&s, 0, 1);
    uk_irq_install(3, lisr);
    uk_task_create(&a, "a", a_entry, 0, 5, a_stack, sizeof a_stack);
    uk_task_create(&b, "b", b_entry, 0, 6, b_stack, sizeof b_stack);
    uk_task_activate(&a);
    uk_task_activate(&b);
    uk_start();
    return 0;
}
