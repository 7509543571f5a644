/* The trace test's firmware (tests/trace/run.sh): see system.toml. Runs until the testbed's
 * time limit. */
#include "uk_gen.h"
#include "bsp/bsp.h"

static volatile uint32_t presses;

void on_button(unsigned line)
{
    (void)line;
    presses = presses + 1;
    bsp_io_out(0, presses);
}

void ping(void *arg)
{
    (void)arg;
    for (;;) {
        uk_task_sleep(1);
        uk_sem_give(&turn);
    }
}

void pong(void *arg)
{
    (void)arg;
    for (volatile uint32_t n = 0;; n++) {
        uk_sem_take(&turn, UK_FOREVER);
        for (volatile int i = 0; i < 200; i++)
            ; /* some work, for the interrupts to cut */
    }
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
