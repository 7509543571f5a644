/* The hypervisor guest board's part of reset (bsp/crt0.S), as assembler macros. Assembly only;
 * bsp/reference/include/bsp/board_reset.h is the reference board's. */
#ifndef BSP_BOARD_RESET_H
#define BSP_BOARD_RESET_H
#ifdef __ASSEMBLER__
/* Assembly, which clang-format does not know: */
/* clang-format off */

#include "hv/abi.h"

/* After .bss is cleared, before main: the virtual CPU page (bsp/guest/src/hv_vcpu.c). */
.macro BSP_BOARD_BEFORE_MAIN
    call    bsp_guest_init
.endm

/* Before the shared halt, with main's return value in a0: a guest stops its partition. */
.macro BSP_BOARD_HALT
    li      t0, HV_EXIT
    ecall
.endm

#endif /* __ASSEMBLER__ */
#endif /* BSP_BOARD_RESET_H */
