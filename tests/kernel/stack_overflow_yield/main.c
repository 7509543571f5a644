/* A task's stack overflow caught on the voluntary fast path (uk_task_yield, in assembly:
 * switch.S's own check and message): task "deep" writes 1 KiB of locals on its 512-byte stack
 * (into a guard area below it) and yields to an equal-priority task; the switch finds the
 * canary overwritten and stops with "ubik: fatal: stack overflow in task deep", the wording
 * of every other stack check (docs/api.md, "Fatal stops"), exit code 60. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static struct {
    uint32_t guard[1024]; /* what the overflow tramples */
    uint32_t stack[128];  /* deep's stack: 512 bytes, its lowest word the kernel's canary */
} area __attribute__((aligned(16)));
static uk_task_t deep, other;
static uint32_t other_stack[256];

static __attribute__((noinline)) void overflow(void)
{
    volatile uint32_t big[256]; /* every word written: well past 512 bytes */
    for (unsigned i = 0; i < 256; i++)
        big[i] = i;
    (void)big[0]; /* a volatile read: the array is used */
}

static void deep_task(void *arg)
{
    (void)arg;
    overflow();
    uk_task_yield(); /* to "other", its equal: the fast path's check fires */
    bsp_printf("FAIL: overflow of task deep not detected at the yield\n");
    bsp_exit(1);
}

static void other_task(void *arg)
{
    (void)arg;
    bsp_printf("FAIL: other ran: no fatal stop\n");
    bsp_exit(2);
}

int main(void)
{
    uk_init();
    uk_task_create(&deep, "deep", deep_task, 0, 10, area.stack, sizeof area.stack);
    uk_task_create(&other, "other", other_task, 0, 10, other_stack, sizeof other_stack);
    uk_task_activate(&deep);
    uk_task_activate(&other);
    uk_start();
    return 99;
}
