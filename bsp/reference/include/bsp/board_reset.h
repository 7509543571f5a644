/* The reference board's part of reset (bsp/crt0.S), as assembler macros: nothing beyond the
 * shared code. Assembly only; bsp/guest/include/bsp/board_reset.h is the guest's. */
#ifndef BSP_BOARD_RESET_H
#define BSP_BOARD_RESET_H
#ifdef __ASSEMBLER__
/* Assembly, which clang-format does not know: */
/* clang-format off */

/* After .bss is cleared, before main. */
.macro BSP_BOARD_BEFORE_MAIN
.endm

/* Before the shared halt through SIMCTRL.CTRL, with main's return value in a0. */
.macro BSP_BOARD_HALT
.endm

#endif /* __ASSEMBLER__ */
#endif /* BSP_BOARD_RESET_H */
