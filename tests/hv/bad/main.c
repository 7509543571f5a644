/* A guest that breaks the rules (tests/hv/run.sh), one way per build (BAD):
 *   1 store into the other partition's RAM     2 store into the hypervisor's RAM
 *   3 load from the interrupt controller       4 store to the timer's compare register
 *   5 jump into the other partition's code     6 write a machine CSR (mstatus)
 *   7 mret                                     8 store to a device it was not given (UART)
 * The hypervisor must stop this partition (reporting the fault) and nothing else. */
#include "uk_gen.h"
#include "bsp/bsp.h"

#ifndef BAD
#error "BAD must be defined (1..8)"
#endif
#define OTHER_RAM 0x00140000u /* the first partition's RAM (tests/hv/isolation.toml) */

void vandal(void *arg)
{
    (void)arg;
    uk_task_sleep(5);
    bsp_printf("bad: trying %d\n", BAD);
#if BAD == 1
    *(volatile uint32_t *)OTHER_RAM = 0xDEADBEEF;
#elif BAD == 2
    *(volatile uint32_t *)(RAM_BASE + 0x100) = 0xDEADBEEF;
#elif BAD == 3
    (void)*(volatile uint32_t *)INTC_PENDING;
#elif BAD == 4
    *(volatile uint32_t *)TIMER_MTIMECMP = 0;
#elif BAD == 5
    ((void (*)(void))(OTHER_RAM + 0x80))();
#elif BAD == 6
    __asm__ volatile(".option push\n.option arch, +zicsr\ncsrw mstatus, zero\n.option pop");
#elif BAD == 7
    __asm__ volatile("mret");
#elif BAD == 8
    *(volatile uint32_t *)UART_TXDATA = 'x';
#endif
    bsp_printf("bad: not stopped\n");
    for (;;)
        uk_task_sleep(1);
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
