/* Halting the machine through SIMCTRL.CTRL (after the board's bsp_board_before_halt: a
 * hypervisor guest stops its partition there). */
#include "bsp/bsp.h"

void bsp_exit(int code)
{
    bsp_board_before_halt(code);
    /* Bit 0 halts; the testbed reads the exit code as value >> 1 (riscv-tests tohost convention). */
    MMIO32(SIMCTRL_CTRL) = ((uint32_t)code << 1) | SIMCTRL_CTRL_HALT;
    for (;;) {
    }
}
