/* Reset and trap entry for the Ubik reference MCU.
 *
 * The vector table sits at 0x0010_0000 (mtvec resets to that address | 1,
 * vectored mode). Exceptions enter at entry 0, interrupt cause c at entry c:
 * 3 software, 7 timer, 16..30 fast lines 0..14 (Ibex's irq_fast), 31 NMI.
 * Each entry is a 4-byte `jal` (hence .option norvc) to a weak assembly-level
 * entry below; a program (or the kernel's arch layer) replaces an entry by
 * defining the symbol itself:
 *
 *   bsp_vector_exception   default: call bsp_exception_handler(mcause, mepc, mtval),
 *                          resume at the address it returns
 *   bsp_vector_software    default: call bsp_software_handler()
 *   bsp_vector_timer       default: call bsp_timer_handler()
 *   bsp_vector_fast_irq    default: call bsp_fast_irq_handler(line), line = mcause - 16
 *   bsp_vector_unhandled   every other entry: call bsp_unhandled_trap(mcause, mepc, mtval)
 *
 * The C handlers have weak defaults in bsp/src/traps.c. The default entries
 * save the caller-saved registers (the C ABI saves the rest), so the C
 * handlers are ordinary functions. They run with interrupts disabled (no nesting).
 *
 * Reset (0x0010_0080): set gp and sp, clear .bss/.sbss, call main(0, 0),
 * halt with main's return value as the exit code.
 */

#include "bsp/mmio.h"
#include "bsp/board_reset.h" /* BSP_BOARD_BEFORE_MAIN, BSP_BOARD_HALT: the board's part */

/* ---- Vector table ----------------------------------------------------------- */

    .section .vectors, "ax"
    .option push
    .option norvc
    .globl __vectors
__vectors:
    jal     x0, bsp_vector_exception        /*  0: exceptions */
    jal     x0, bsp_vector_unhandled        /*  1 */
    jal     x0, bsp_vector_unhandled        /*  2 */
    jal     x0, bsp_vector_software         /*  3: machine software interrupt */
    jal     x0, bsp_vector_unhandled        /*  4 */
    jal     x0, bsp_vector_unhandled        /*  5 */
    jal     x0, bsp_vector_unhandled        /*  6 */
    jal     x0, bsp_vector_timer            /*  7: machine timer interrupt */
    .rept 8                                 /*  8..15 (11: external, unused) */
    jal     x0, bsp_vector_unhandled
    .endr
    .rept 15                                /* 16..30: fast lines 0..14 */
    jal     x0, bsp_vector_fast_irq
    .endr
    jal     x0, bsp_vector_unhandled        /* 31: NMI */
    .option pop

/* ---- Reset ------------------------------------------------------------------ */

    .section .text.reset, "ax"
    .globl _reset
    .type _reset, @function
_reset:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top

    /* Zero .sbss and .bss (both word-aligned, contiguous). */
    la      t0, __bss_start
    la      t1, __bss_end
    bgeu    t0, t1, 2f
1:  sw      zero, 0(t0)
    addi    t0, t0, 4
    bltu    t0, t1, 1b
2:
    BSP_BOARD_BEFORE_MAIN                   /* a hypervisor guest: its virtual CPU */
    li      a0, 0                           /* argc */
    li      a1, 0                           /* argv */
    call    main

    /* Halt with main's return value: CTRL = (code << 1) | 1. */
    .globl __bsp_halt
__bsp_halt:
    BSP_BOARD_HALT                          /* a guest stops its partition */
    slli    a0, a0, 1
    ori     a0, a0, SIMCTRL_CTRL_HALT
    li      t0, SIMCTRL_CTRL
    sw      a0, 0(t0)
3:  j       3b
    .size _reset, . - _reset

/* ---- Default trap entries ---------------------------------------------------- */

#include "bsp/trapframe.h" /* SAVE_CALLER_SAVED, RESTORE_CALLER_SAVED_AND_MRET */

    .text

    .weak bsp_vector_exception
    .type bsp_vector_exception, @function
bsp_vector_exception:
    SAVE_CALLER_SAVED
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    bsp_exception_handler           /* returns the address to resume at */
    csrw    mepc, a0
    RESTORE_CALLER_SAVED_AND_MRET
    .size bsp_vector_exception, . - bsp_vector_exception

    .weak bsp_vector_software
    .type bsp_vector_software, @function
bsp_vector_software:
    SAVE_CALLER_SAVED
    call    bsp_software_handler
    RESTORE_CALLER_SAVED_AND_MRET
    .size bsp_vector_software, . - bsp_vector_software

    .weak bsp_vector_timer
    .type bsp_vector_timer, @function
bsp_vector_timer:
    SAVE_CALLER_SAVED
    call    bsp_timer_handler
    RESTORE_CALLER_SAVED_AND_MRET
    .size bsp_vector_timer, . - bsp_vector_timer

    .weak bsp_vector_fast_irq
    .type bsp_vector_fast_irq, @function
bsp_vector_fast_irq:
    SAVE_CALLER_SAVED
    csrr    a0, mcause
    andi    a0, a0, 0x1f
    addi    a0, a0, -16                     /* fast line 0..14 */
    call    bsp_fast_irq_handler
    RESTORE_CALLER_SAVED_AND_MRET
    .size bsp_vector_fast_irq, . - bsp_vector_fast_irq

    .weak bsp_vector_unhandled
    .type bsp_vector_unhandled, @function
bsp_vector_unhandled:
    SAVE_CALLER_SAVED
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    bsp_unhandled_trap              /* does not return */
    RESTORE_CALLER_SAVED_AND_MRET
    .size bsp_vector_unhandled, . - bsp_vector_unhandled
