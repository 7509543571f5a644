/* Stack overflow caught by the testbed (ubik run's stack guard, docs/debugging.md): task
 * "deep" recurses past its 512-byte stack, each frame writing its locals; the first store
 * below the stack stops the run before it writes (exit 71), naming the task and the function
 * (recurse). The kernel's own check (tests/kernel/stack_overflow, the same program) would
 * catch it only at the next switch into the task, after the damage. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static struct {
    uint32_t guard[1024]; /* what the overflow tramples */
    uint32_t stack[128];  /* deep's stack: 512 bytes, its lowest word the kernel's canary */
} area __attribute__((aligned(16)));
static uk_task_t deep, watch;
static uint32_t watch_stack[256];
static volatile int deep_reached;

static __attribute__((noinline)) int recurse(int n)
{
    volatile uint32_t frame[16]; /* 64 bytes of locals per level, all written */
    for (int i = 0; i < 16; i++)
        frame[i] = (uint32_t)(n * 16 + i);
    int r = n > 0 ? recurse(n - 1) : 0;
    return r + (int)frame[n & 15];
}

static void deep_task(void *arg)
{
    (void)arg;
    (void)recurse(40); /* ~ 40 * 80 bytes: well past 512 */
    deep_reached = 1;
    uk_task_sleep(1); /* switched out, and back in after a tick: the check fires here */
    bsp_printf("FAIL: overflow of task deep not detected\n");
    bsp_exit(1);
}

/* Lower priority: runs while deep sleeps. Fails the test if the fatal stop never comes. */
static void watch_task(void *arg)
{
    (void)arg;
    uk_task_sleep(20);
    bsp_printf("FAIL: no fatal stop (deep_reached=%d)\n", deep_reached);
    bsp_exit(2);
}

int main(void)
{
    uk_init();
    uk_task_create(&deep, "deep", deep_task, 0, 10, area.stack, sizeof area.stack);
    uk_task_create(&watch, "watch", watch_task, 0, 11, watch_stack, sizeof watch_stack);
    uk_task_activate(&deep);
    uk_task_activate(&watch);
    uk_start();
    return 99;
}
