/* The GDB test's firmware (tests/gdb/run.sh): what the debugger looks at. `produced` is
 * the variable it watches; `total` what it prints at the end. */
#include "uk_gen.h"
#include "bsp/bsp.h"

volatile uint32_t produced;
uint32_t total;

static __attribute__((noinline)) void hand_over(uint32_t v)
{
    uk_queue_send(&items, &v, UK_FOREVER);
}

void produce(void *arg)
{
    (void)arg;
    for (uint32_t i = 1; i <= 5; i++) {
        uk_task_sleep(2);
        produced = i;
        hand_over(i);
    }
}

void consume(void *arg)
{
    (void)arg;
    for (int n = 0; n < 5; n++) {
        uint32_t v;
        uk_queue_recv(&items, &v, UK_FOREVER);
        total += v;
        bsp_printf("got %u\n", (unsigned)v);
    }
    bsp_printf("total %u\n", (unsigned)total);
    bsp_exit(0);
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
