/* The kernel-events trace test's firmware (tests/trace/kevents.sh): see system.toml. Runs
 * until the testbed's time limit. */
#include "uk_gen.h"
#include "bsp/bsp.h"
#include "bsp/trace.h"

void produce(void *arg)
{
    (void)arg;
    for (uint32_t n = 0;; n++) {
        bsp_trace_marker("batch");
        bsp_trace_value(1, n);
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t msg = 3 * n + i;
            uk_queue_send(&mailbox, &msg, UK_FOREVER);
        }
        uk_task_sleep(10);
    }
}

void consume(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t msg;
        if (uk_queue_recv(&mailbox, &msg, 5) == 0)
            bsp_io_out(0, msg);
    }
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
