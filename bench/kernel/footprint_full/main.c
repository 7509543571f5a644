/* Footprint, full configuration: an application that uses every call the configuration
 * offers (tasks, time, semaphores, mutexes, HISRs, interrupts), so the link keeps all of the
 * kernel it would need; bench/kernel.toml measures the kernel's own sections of the ELF
 * (docs/results.md, "Kernel"). It also runs: one task gives, another takes, and it exits 0. */
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

/* Every call of the configuration, referenced so that --gc-sections keeps it. */
static void *const volatile api[] = {
    (void *)uk_task_create,    (void *)uk_task_activate,
    (void *)uk_task_suspend,   (void *)uk_task_resume,
    (void *)uk_task_delete,    (void *)uk_task_yield,
    (void *)uk_task_sleep,     (void *)uk_task_sleep_until,
    (void *)uk_task_self,      (void *)uk_task_set_prio,
    (void *)uk_task_set_slice, (void *)uk_task_state,
    (void *)uk_task_prio,      (void *)uk_time,
    (void *)uk_tick_hz,        (void *)uk_sem_init,
    (void *)uk_sem_take,       (void *)uk_sem_give,
    (void *)uk_sem_delete,     (void *)uk_sem_count,
    (void *)uk_irq_install,    (void *)uk_irq_mask,
    (void *)uk_irq_unmask,     (void *)uk_in_isr,
    (void *)uk_mutex_init,     (void *)uk_mutex_lock,
    (void *)uk_mutex_unlock,   (void *)uk_mutex_delete,
    (void *)uk_hisr_create,    (void *)uk_hisr_activate,
    (void *)uk_hisr_delete,
};

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
    bsp_exit(r == UK_OK && api[0] ? 0 : 1);
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
