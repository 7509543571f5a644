/* Found by fuzz (tests/rtl/fuzz, seeds 1, 53): mhpmcounter4 (fetch wait) around timer-interrupt
   entry when the controller's decide cycle overlaps a cycle with ID empty (after a flushing CSR
   write, mret, a taken branch, a jump to a 32-bit target at 2 mod 4). Per case: hpm4 and mcycle
   deltas from just before the enabling instruction / arming to the handler's first instruction. */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  li t1, 0x80
  csrw mie, t1
  li a1, 1
/* the line is already high (mtimecmp = 0); the instruction \insn enables the trap */
.macro E name, insn, pre="", pre2="", pre3=""
  csrci mstatus, 8
  li t1, 0x80
  csrw mie, t1
  sw x0, 8(t0)
  sw x0, 12(t0)
  \pre
  \pre2
  \pre3
  la s5, 8f
  ALIGN4
  csrr s2, mhpmcounter4
  csrr s0, mcycle
  \insn
9:
  RVC_ON
  .rept 8
  c.addi a0, 1
  .endr
  RVC_POP
  j .
8:
  sub s1, s1, s0
  sub s3, s3, s2
  PRINT "\name", s1
  PRINT "hpm4", s3
.endm
/* the line rises D cycles after arming while loop KIND runs */
.macro L name, d, kind
  csrci mstatus, 8
  li t1, 0x80
  csrw mie, t1
  la s5, 8f
  lw t2, 0(t0)
  addi t2, t2, \d
  sw t2, 8(t0)
  csrsi mstatus, 8
  ALIGN4
  csrr s2, mhpmcounter4
  csrr s0, mcycle
  sw x0, 12(t0)
  .if \kind == 1
  RVC_ON; 1: c.addi a0, 1; c.bnez a1, 1b; RVC_POP
  .elseif \kind == 2
  ALIGN2M4; 1: RVC_OFF; addi a0, a0, 1; jal x0, 1b; RVC_POP
  .else
  RVC_ON; 1: c.addi a0, 1; RVC_POP; csrw mie, t1; j 1b
  .endif
8:
  sub s1, s1, s0
  sub s3, s3, s2
  PRINT "\name\d", s1
  PRINT "hpm4", s3
.endm
  E "csrsi_mstatus", "csrsi mstatus, 8"
  E "csrw_mie", "csrw mie, t1", "csrw mie, x0", "csrsi mstatus, 8"
  E "csrs_mstatus_reg", "csrs mstatus, t3", "li t3, 8"
  E "mret", "mret", "li t3, 0x1880", "csrs mstatus, t3", "la t3, 9f; csrw mepc, t3"

  .irp d, 20, 21, 22, 23, 24, 25
  L "bnez_loop", \d, 1
  .endr
  .irp d, 20, 21, 22, 23, 24, 25
  L "j_2m4_loop", \d, 2
  .endr
  .irp d, 20, 21, 22, 23, 24, 25
  L "csrw_loop", \d, 3
  .endr
  HALT

  .global timer_handler
timer_handler:
  csrr s3, mhpmcounter4
  csrr s1, mcycle
  li t1, -1
  sw t1, 12(t0)
  csrw mepc, s5
  li t1, 0x1800
  csrs mstatus, t1
  mret
