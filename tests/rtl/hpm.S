/* HPM counters mhpmcounter3..12 (LSU wait, fetch wait, loads, stores, jumps, branches,
   taken branches, compressed retired, mul wait, div wait) after known code.
   Per snippet one line: name: hpm3 hpm4 ... hpm12 (hex), counted from the cycle after
   `csrw mcountinhibit, x0` up to and including `csrw mcountinhibit, s9` (HPM counters inhibited). */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  li s9, 0x1ff8
  li a2, 7
  li a3, 3
  li a4, 1
  mv a5, sp

.macro SNIP name
  csrw mcountinhibit, s9
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  csrw mhpmcounter\n, x0
  .endr
  la a0, .Lnm\@
  jal ra, puts
  .pushsection .rodata
  .Lnm\@: .asciz "\name:"
  .popsection
  ALIGN4
  csrw mcountinhibit, x0
.endm
#define DUMP csrw mcountinhibit, s9; jal ra, hpmdump

  SNIP "empty"; DUMP
  SNIP "c.nop_x4"; RVC_ON; c.nop; c.nop; c.nop; c.nop; RVC_POP; DUMP
  SNIP "nop32_x4"; RVC_OFF; nop; nop; nop; nop; RVC_POP; DUMP
  SNIP "lw_x2"; lw t1, 0(sp); lw t1, 4(sp); DUMP
  SNIP "c.lwsp_x2"; RVC_ON; c.lwsp t1, 0(sp); c.lwsp t1, 4(sp); RVC_POP; DUMP
  SNIP "lw+1"; lw t1, 1(sp); DUMP
  SNIP "lw+2"; lw t1, 2(sp); DUMP
  SNIP "lh+1"; lh t1, 1(sp); DUMP
  SNIP "lh+3"; lh t1, 3(sp); DUMP
  SNIP "sw_x2"; sw t1, 8(sp); sw t1, 12(sp); DUMP
  SNIP "sw+3"; sw t1, 19(sp); DUMP
  SNIP "sb"; sb t1, 19(sp); DUMP
  SNIP "lw_mtime"; lw t1, 0(t0); DUMP
  SNIP "lw;sw"; lw t1, 0(sp); sw t1, 8(sp); DUMP
  SNIP "mul"; mul t1, a2, a3; DUMP
  SNIP "mul_x2"; mul t1, a2, a3; mul t1, t1, a3; DUMP
  SNIP "mulh"; mulh t1, a2, a3; DUMP
  SNIP "mulhu"; mulhu t1, a2, a3; DUMP
  SNIP "div"; div t1, a2, a3; DUMP
  SNIP "rem"; rem t1, a2, a3; DUMP
  SNIP "div0"; div t1, a2, x0; DUMP
  SNIP "beq_t"; RVC_OFF; beq x0, x0, 1f; .word 0; 1: RVC_POP; DUMP
  SNIP "beq_t_2m4"; RVC_OFF; beq x0, x0, 1f; .word 0; RVC_POP; RVC_ON; c.nop; 1: RVC_POP; RVC_OFF; addi t1, t1, 1; RVC_POP; DUMP
  SNIP "beq_nt"; beq x0, a4, 1f; 1: DUMP
  SNIP "c.bnez_t"; RVC_ON; c.bnez a4, 1f; c.nop; 1: RVC_POP; DUMP
  SNIP "c.beqz_nt"; RVC_ON; c.beqz a4, 1f; 1: RVC_POP; DUMP
  SNIP "jal"; RVC_OFF; jal x0, 1f; .word 0; 1: RVC_POP; DUMP
  SNIP "jal_2m4"; RVC_OFF; jal x0, 1f; .word 0; RVC_POP; RVC_ON; c.nop; 1: RVC_POP; RVC_OFF; addi t1, t1, 1; RVC_POP; DUMP
  SNIP "c.j"; RVC_ON; c.j 1f; c.nop; 1: RVC_POP; DUMP
  la t2, 2f
  SNIP "jalr"; RVC_OFF; jalr x0, 0(t2); .word 0; 2: RVC_POP; DUMP
  SNIP "call_ret"; call fnret; DUMP
  SNIP "fence"; fence; DUMP
  SNIP "fence.i"; fence.i; DUMP
  SNIP "csrw_mscratch"; csrw mscratch, t1; DUMP
  SNIP "csrw_mie"; csrw mie, x0; DUMP
  SNIP "csrr_mstatus"; csrr t1, mstatus; DUMP
  SNIP "csrs_mstatus_x0"; csrrs t1, mstatus, x0; DUMP
  li s1, 5
  SNIP "loop5"; RVC_ON; 1: c.addi s1, -1; c.bnez s1, 1b; RVC_POP; DUMP
  SNIP "ecall_rt"; ecall; DUMP
  SNIP "ebreak_rt"; ebreak; DUMP
  SNIP "illegal_rt"; .word 0xffffffff; DUMP
  SNIP "lw_fault_rt"; lw t1, 0(x0); DUMP
  SNIP "sw_fault_rt"; sw t1, 0(x0); DUMP
  li t1, 0x1800
  csrs mstatus, t1
  la t1, 3f
  csrw mepc, t1
  SNIP "mret"; mret; .word 0; 3: DUMP
  csrci mstatus, 8
  li t1, 0x80
  csrw mie, t1
  sw x0, 12(t0)          /* mtimecmp = 0 -> line high, MIE = 0 */
  SNIP "wfi_pending"; wfi; DUMP
  li t1, -1
  sw t1, 12(t0)
  csrw mie, x0
  /* isolated trap entries: minimal handlers via an alternate vector table */
  la t1, altvec
  addi t1, t1, 1
  csrw mtvec, t1
  SNIP "ecall_min"; ecall; DUMP
  li t1, 0x80
  csrw mie, t1
  SNIP "irq_min"; lw t2, 0(t0); addi t2, t2, 30; sw t2, 8(t0); sw x0, 12(t0); csrsi mstatus, 8; RVC_ON; .rept 60; c.nop; .endr; RVC_POP; csrci mstatus, 8; DUMP
  SNIP "wfi_sleep_mie0"; lw t2, 0(t0); addi t2, t2, 50; sw t2, 8(t0); sw x0, 12(t0); wfi; li t1, -1; sw t1, 12(t0); DUMP
  SNIP "wfi_sleep_mie1"; lw t2, 0(t0); addi t2, t2, 50; sw t2, 8(t0); sw x0, 12(t0); csrsi mstatus, 8; wfi; csrci mstatus, 8; DUMP
  csrw mie, x0
  la t1, 0x00100001
  csrw mtvec, t1
  SNIP "mixed"; lw t1, 0(sp); mul t2, t1, a3; sw t2, 8(sp); RVC_ON; c.nop; c.j 1f; c.nop; 1: RVC_POP; div t2, t2, a3; beq t2, t2, 2f; nop; 2: DUMP
  /* the final Performance Counters of the RTL: leave counters running over a known tail */
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  csrw mhpmcounter\n, x0
  .endr
  csrw mcountinhibit, x0
  lw t1, 0(sp)
  sw t1, 4(sp)
  HALT

  ALIGN4
fnret: ret
  .section .text.alt, "ax"
  .balign 256
altvec:
  RVC_OFF
  j min_exc
  .rept 6
  j other_handler
  .endr
  j min_timer
  RVC_POP
min_exc:
  csrr t1, mepc
  addi t1, t1, 4
  csrw mepc, t1
  mret
min_timer:
  li t1, -1
  sw t1, 12(t0)
  mret


hpmdump:
  mv s10, ra
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  csrr a0, mhpmcounter\n
  jal ra, putsp
  .endr
  li t3, SIMCTRL_OUT
  li t4, '\n'
  sw t4, 0(t3)
  jr s10

/* " " then hex of a0 without leading zeros; clobbers t3-t6, a0 */
putsp:
  li t3, SIMCTRL_OUT
  li t4, ' '
  sw t4, 0(t3)
  li t5, 8
1: srli t4, a0, 28
  bnez t4, 2f
  addi t5, t5, -1
  slli a0, a0, 4
  li t6, 1
  bne t5, t6, 1b
2: srli t4, a0, 28
  slli a0, a0, 4
  li t6, 10
  blt t4, t6, 3f
  addi t4, t4, 'a'-10-'0'
3: addi t4, t4, '0'
  sw t4, 0(t3)
  addi t5, t5, -1
  bnez t5, 2b
  ret

  .global exc_handler
exc_handler:
  csrr s10, mepc
  lhu s11, 0(s10)
  andi s11, s11, 3
  addi s10, s10, 2
  li a6, 3
  bne s11, a6, 1f
  addi s10, s10, 2
1: csrw mepc, s10
  li a6, 0x1800
  csrs mstatus, a6
  mret
