/* LISRs run on the kernel's interrupt stack ([kernel] irq_stack_bytes), not on the stack of
 * whatever they interrupt. A LISR with 600 bytes of locals (a 192-byte one used to stop the
 * system with "stack overflow in task idle") interrupts the idle task, two tasks with small
 * 512-byte stacks (sleeping, and spinning in yields and kernel calls) and the kernel's tail;
 * every interrupted stack keeps only its own use, the kernel's stack checks stay quiet, and
 * the LISR's locals lie inside none of the task stacks. Also: [kernel] idle_stack_bytes sizes
 * the idle task's stack. Self-checking. Needs machine.toml (the stimulus). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define EVENTS 300

extern uk_task_t uk__idle_task; /* the kernel's idle task: its stack size is checked */

static uk_task_t sleeper, spinner, main_t;
static uint32_t sleeper_stack[128], spinner_stack[128], main_stack[256];
static uk_sem_t ev;
static volatile uint32_t lisr_runs, on_task_stack, spins;

static bool inside(const void *p, const void *base, size_t bytes)
{
    return (uintptr_t)p >= (uintptr_t)base && (uintptr_t)p < (uintptr_t)base + bytes;
}

static void lisr(unsigned line)
{
    (void)line;
    volatile uint8_t big[600]; /* every byte written: the whole frame is really used */
    for (unsigned i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i + lisr_runs);
    uint32_t sum = 0;
    for (unsigned i = 0; i < sizeof big; i += 37)
        sum += big[i];
    if (inside((const void *)big, sleeper_stack, sizeof sleeper_stack) ||
        inside((const void *)big, spinner_stack, sizeof spinner_stack) ||
        inside((const void *)big, main_stack, sizeof main_stack) ||
        inside((const void *)big, uk__idle_task.stack_base, uk__idle_task.stack_bytes))
        on_task_stack++;
    lisr_runs += 1 + (sum & 0); /* sum keeps the reads */
    uk_sem_give(&ev);           /* a deferred call: the tail runs after this LISR */
}

static void sleeper_entry(void *arg)
{
    (void)arg;
    for (;;)
        uk_task_sleep(1);
}

static void spinner_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_task_yield();
        uint32_t n;
        uk_sem_count(&ev, &n);
        spins++;
        uk_task_sleep(1); /* leaves time to idle, so interrupts hit every context */
    }
}

static void main_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk__idle_task.stack_bytes, 1024); /* [kernel] idle_stack_bytes */
    uint32_t got = 0;
    while (got < EVENTS)
        if (uk_sem_take(&ev, UK_FOREVER) == UK_OK)
            got++;
    CHECK(lisr_runs >= EVENTS);
    CHECK_EQ(on_task_stack, 0);
    CHECK(spins > 0);
    bsp_exit((int)check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&ev, 0, 1000000), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_entry, 0, 1, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&sleeper, "sleeper", sleeper_entry, 0, 2, sleeper_stack,
                            sizeof sleeper_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&spinner, "spinner", spinner_entry, 0, 3, spinner_stack,
                            sizeof spinner_stack),
             UK_OK);
    uk_task_activate(&main_t);
    uk_task_activate(&sleeper);
    uk_task_activate(&spinner);
    CHECK_EQ(uk_irq_install(2, lisr), UK_OK);
    uk_start();
    return 99;
}
