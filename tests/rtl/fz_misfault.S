/* Found by fuzz (tests/rtl/fuzz, seed 46): misaligned loads/stores where one or both halves are
   unmapped (access fault). Vectors moved to altvec (a store whose 1st half faults
   still writes its 2nd half to 0x100000). Per case: mhpmcounter3 (LSU wait) delta, mcycle delta of the round
   trip through a minimal skip-handler, mcause, mtval. */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  li a4, 0x1ffffe
  li a5, 0x0ffffe
  la t1, altvec
  addi t1, t1, 1
  csrw mtvec, t1          /* the 1st-half-faulting store below writes 0x100000 (vector 0) */
  li t1, 0x12345678
.macro F name, insn
  ALIGN4
  csrr s2, mhpmcounter3
  csrr s0, mcycle
  \insn
  csrr s1, mcycle
  csrr s3, mhpmcounter3
  sub s1, s1, s0
  sub s3, s3, s2
  PRINT "\name", s1
  PRINT "hpm3", s3
  PRINT "mcause", s8
  PRINT "mtval", s9
.endm
  F "sw_0xb_both", "sw t1, 0xb(x0)"
  F "lw_0xb_both", "lw t2, 0xb(x0)"
  F "sh_0xf_both", "sh t1, 0xf(x0)"
  F "lh_0xf_both", "lh t2, 0xf(x0)"
  F "sw_ram_end_2nd", "sw t1, 0(a4)"
  F "lw_ram_end_2nd", "lw t2, 0(a4)"
  F "sw_ram_begin_1st", "sw t1, 0(a5)"
  F "lw_ram_begin_1st", "lw t2, 0(a5)"
  F "lhu_ram_begin_1st", "lhu t2, 1(a5)"
  F "sh_ram_end_2nd", "sh t1, 1(a4)"
  F "sw_aligned_fault", "sw t1, 8(x0)"
  F "lw_aligned_fault", "lw t2, 8(x0)"
  li t3, 0x100000
  lw s4, 0(t3)
  PRINT "word_at_0x100000", s4
  HALT
  .section .text.alt, "ax"
  .balign 256
altvec:
  RVC_OFF
  j exc_handler
  .rept 31
  j other_handler
  .endr
  RVC_POP

  .global exc_handler
exc_handler:
  csrr s8, mcause
  csrr s9, mtval
  csrr s10, mepc
  addi s10, s10, 4
  csrw mepc, s10
  li s11, 0x1800
  csrs mstatus, s11
  mret
