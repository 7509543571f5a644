/* The caller-saved trap frame shared by the BSP's default trap entries (crt0.S) and the
 * kernel's fast-interrupt entry (kernel/arch/rv32/switch.S): 64 bytes on the interrupted
 * stack, ra at 0, t0-t2 at 4..12, a0-a7 at 16..44, t3-t6 at 48..60. Assembly only. */
#ifndef BSP_TRAPFRAME_H
#define BSP_TRAPFRAME_H
#ifdef __ASSEMBLER__
/* Assembly, which clang-format does not know: */
/* clang-format off */

#define FRAME_BYTES 64

/* Every caller-saved register but t0 and t1 at its frame offset (sp already lowered): for
 * entries that are handed t0 and t1 elsewhere (a hypervisor guest's, on its page). */
.macro SAVE_CALLER_SAVED_BUT_T0_T1
    sw      ra,  0(sp)
    sw      t2, 12(sp)
    sw      a0, 16(sp)
    sw      a1, 20(sp)
    sw      a2, 24(sp)
    sw      a3, 28(sp)
    sw      a4, 32(sp)
    sw      a5, 36(sp)
    sw      a6, 40(sp)
    sw      a7, 44(sp)
    sw      t3, 48(sp)
    sw      t4, 52(sp)
    sw      t5, 56(sp)
    sw      t6, 60(sp)
.endm

.macro RESTORE_CALLER_SAVED_BUT_T0_T1
    lw      ra,  0(sp)
    lw      t2, 12(sp)
    lw      a0, 16(sp)
    lw      a1, 20(sp)
    lw      a2, 24(sp)
    lw      a3, 28(sp)
    lw      a4, 32(sp)
    lw      a5, 36(sp)
    lw      a6, 40(sp)
    lw      a7, 44(sp)
    lw      t3, 48(sp)
    lw      t4, 52(sp)
    lw      t5, 56(sp)
    lw      t6, 60(sp)
.endm

/* Every caller-saved register but t0 at its frame offset (sp already lowered): for entries
 * that need t0 early (the kernel's tail saves mepc and mstatus through it first). */
.macro SAVE_CALLER_SAVED_BUT_T0
    sw      t1,  8(sp)
    SAVE_CALLER_SAVED_BUT_T0_T1
.endm

.macro RESTORE_CALLER_SAVED_BUT_T0
    lw      t1,  8(sp)
    RESTORE_CALLER_SAVED_BUT_T0_T1
.endm

.macro SAVE_CALLER_SAVED
    addi    sp, sp, -FRAME_BYTES
    sw      t0,  4(sp)
    SAVE_CALLER_SAVED_BUT_T0
.endm

.macro RESTORE_CALLER_SAVED_AND_MRET
    RESTORE_CALLER_SAVED_BUT_T0
    lw      t0,  4(sp)
    addi    sp, sp, FRAME_BYTES
    mret
.endm

#endif /* __ASSEMBLER__ */
#endif /* BSP_TRAPFRAME_H */
