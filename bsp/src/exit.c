/* Halting the machine through SIMCTRL.CTRL. */
#include "bsp/bsp.h"
#ifdef BSP_GUEST
#include "hv/abi.h"
#endif

void bsp_exit(int code)
{
#ifdef BSP_GUEST
    hv_call(HV_EXIT, code, 0, 0, 0); /* a hypervisor guest stops its partition */
#endif
    /* Bit 0 halts; the testbed reads the exit code as value >> 1 (riscv-tests tohost convention). */
    MMIO32(SIMCTRL_CTRL) = ((uint32_t)code << 1) | SIMCTRL_CTRL_HALT;
    for (;;) {
    }
}
