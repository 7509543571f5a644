/* wfi with no interrupt that can ever wake the core (mie = 0, no stimulus): the
 * testbed must stop with a machine fault (docs/contract.md: exit 71), not hang
 * or exit 0. */
#include "bsp/bsp.h"

int main(void)
{
    csr_write(mie, 0);
    bsp_irq_enable();
    bsp_puts("sleeping\n");
    bsp_wfi();
    bsp_puts("woke up\n");
    return 0;
}
