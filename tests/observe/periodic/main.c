/* Two tasks whose per-task figures are known, for `ubik run --stats` `tasks`
 * (sim/crates/cli/tests/cli_observe.rs, docs/observe.md "Tasks and interrupt lines"):
 *
 *   fast (priority 1): 4 times: 20000 cycles of work, then sleeps 1 tick; then it returns
 *                      (deleted). Released by the kernel at ticks 0, 1, 2, 3 and 4.
 *   slow (priority 2): works (spins) until tick 5, sleeps 1 tick (the idle task runs), then
 *                      exits with 0.
 *
 * The tick is 1 ms (100000 cycles at the default 100 MHz). fast starts first (the higher
 * priority) and preempts slow at ticks 1, 2, 3 and 4: fast has 5 activations, 0
 * preemptions and 5 responses, 4 of a little over 200 us (its work) and a short last one
 * (it only returns). slow has 6 activations (after each of fast's 5 runs, and at tick 6),
 * 4 preemptions and one response: from its activation in main (before the kernel starts,
 * so fast's first run is in it) to its sleep at tick 5, a little over 5000 us. Only the public API. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

#define WORK_CYCLES 20000u

static uk_task_t fast, slow;
static uint32_t fast_stack[256], slow_stack[256];

static void fast_entry(void *arg)
{
    (void)arg;
    for (int i = 0; i < 4; i++) {
        uint32_t t0 = bsp_cycles();
        while (bsp_cycles() - t0 < WORK_CYCLES) {
        }
        uk_task_sleep(1);
    }
}

static void slow_entry(void *arg)
{
    (void)arg;
    while (uk_time() < 5) {
    }
    uk_task_sleep(1);
    bsp_printf("periodic: done at tick %u\n", (unsigned)uk_time());
    bsp_exit(0);
}

int main(void)
{
    uk_init();
    uk_task_create(&fast, "fast", fast_entry, 0, 1, fast_stack, sizeof fast_stack);
    uk_task_create(&slow, "slow", slow_entry, 0, 2, slow_stack, sizeof slow_stack);
    uk_task_activate(&fast);
    uk_task_activate(&slow);
    uk_start();
    return 0;
}
