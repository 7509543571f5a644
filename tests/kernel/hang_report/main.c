/* The README's tutorial, endless: a producer task sends numbers through a queue to a consumer
 * task every 10 ticks, forever, so that only a limit or Ctrl-C ends the run (its task report:
 * tests/kernel/expect, tests/kernel/hang.sh). */
#include "uk_gen.h" /* producer, consumer, items */
#include "bsp/bsp.h"

void produce(void *arg)
{
    (void)arg;
    for (uint32_t i = 1;; i++) {
        uk_task_sleep(10); /* 10 ticks */
        bsp_io_out(0, i);  /* "sending i" on IO port 0: --io records it */
        uk_queue_send(&items, &i, UK_FOREVER);
    }
}

void consume(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t v;
        uk_queue_recv(&items, &v, UK_FOREVER);
        bsp_io_out(1, v); /* "received v" on IO port 1 */
        bsp_printf("got %u at tick %u\n", (unsigned)v, (unsigned)uk_time());
    }
}

int main(void)
{
    uk_init();  /* creates the tasks and the queue of system.toml, activates the tasks */
    uk_start(); /* starts the tick and runs the highest-priority task; never returns */
    return 0;
}
