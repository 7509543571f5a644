/* The interrupt stack's overflow is caught and named: with [kernel] irq_stack_bytes = 256 a
 * LISR writes 320 bytes of locals; the kernel tail that follows the LISR (raised by its
 * deferred semaphore give) finds the interrupt stack's canary overwritten and stops with
 * "ubik: fatal: stack overflow in the interrupt stack ([kernel] irq_stack_bytes = 256)" and
 * exit code 60. The overflow runs into the idle stack's unused bottom, which the kernel
 * places right below the interrupt stack. `expect` checks the line. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static uk_task_t main_t;
static uint32_t main_stack[256];
static uk_sem_t ev;

static void lisr(unsigned line)
{
    volatile uint32_t big[80]; /* 320 bytes, every word written */
    for (unsigned i = 0; i < 80; i++)
        big[i] = i + line;
    (void)big[0]; /* a volatile read: the array is used */
    uk_sem_give(&ev);
}

static void main_entry(void *arg)
{
    (void)arg;
    uk_sem_take(&ev, UK_FOREVER);
    uk_task_sleep(2); /* a tick or two more: the check has had every chance */
    bsp_printf("FAIL: overflow of the interrupt stack not detected\n");
    bsp_exit(1);
}

int main(void)
{
    uk_init();
    uk_sem_init(&ev, 0, 1);
    uk_task_create(&main_t, "main", main_entry, 0, 1, main_stack, sizeof main_stack);
    uk_task_activate(&main_t);
    uk_irq_install(2, lisr);
    uk_start();
    return 99;
}
