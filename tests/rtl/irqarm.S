/* Interrupt raised by the program's own store to mtimecmph (mtimecmp = 0 -> line rises at once)
   with MIE=1 and MTIE=1 already set: which instruction after the store is the last one before the
   trap (mepc - store address printed) and when the handler starts (mcycle delta from before the store). */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  sw x0, 8(t0)
  li t1, 0x80
  csrw mie, t1
  csrsi mstatus, 8

.macro ARM name, i1="", i2=""
  la s5, .Lr\@
  la s3, .Ls\@
  li a2, 7
  li a3, 3
  ALIGN4
  csrr s0, mcycle
.Ls\@:
  sw x0, 12(t0)
  \i1
  \i2
  RVC_ON
  .rept 12
  c.addi a0, 1
  .endr
  RVC_POP
  j .
.Lr\@:
  sub s1, s1, s0
  sub s2, s2, s3
  PRINT "\name", s1
  PRINT "mepc-sw", s2
.endm

  ARM "then_c.nop"
  ARM "then_addi32", "addi a0, a0, 1"
  ARM "then_lw", "lw a4, 0(sp)"
  ARM "then_sw", "sw a4, 0(sp)"
  ARM "then_mul", "mul a4, a2, a3"
  ARM "then_div", "div a4, a2, a3"
  ARM "then_csrw_mie", "csrw mie, t1"
  ARM "then_csrw_mscratch", "csrw mscratch, t1"
  ARM "then_beq_taken", "beq x0, x0, .+8", ".word 0"
  ARM "then_jal", "jal x0, .+8", ".word 0"
  ARM "then_sw_mtimecmph", "sw x0, 12(t0)"
  ARM "then_csrci_mstatus", "csrci mstatus, 8", "csrsi mstatus, 8"
  ARM "then_wfi", "wfi"
  csrci mstatus, 8
  /* same with the arming store preceded by a load, and as a 16-bit store */
  li a5, TIMER_BASE
  la s5, 2f
  la s3, 1f
  li a4, 0
  csrsi mstatus, 8
  ALIGN4
  csrr s0, mcycle
1: c.sw a4, 12(a5)
  RVC_ON
  .rept 8
  c.addi a0, 1
  .endr
  RVC_POP
  j .
2: sub s1, s1, s0
  sub s2, s2, s3
  PRINT "c.sw_then_c.addi", s1
  PRINT "mepc-sw", s2
  csrci mstatus, 8
  HALT

  .global timer_handler
timer_handler:
  csrr s1, mcycle
  csrr s2, mepc
  li t1, -1
  sw t1, 12(t0)
  li t1, 0x80
  csrw mepc, s5
  li a6, 0x1800
  csrs mstatus, a6
  mret
