/* With no handler of its own, a breakpoint reaches the BSP's default
 * exception handler, which reports it and halts with BSP_EXIT_UNHANDLED_TRAP. */
#include "bsp/bsp.h"

int main(void)
{
    __asm__ volatile("ebreak");
    bsp_puts("not reached\n");
    return 0;
}
