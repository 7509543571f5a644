/* Synchronous exceptions round trips. For each faulting instruction: "name=" mcycle from BEGIN to
   the handler's first instruction, then mcause, mtval, mepc - address of the faulting instruction,
   and the full round trip (BEGIN .. csrr after the return). The handler skips the instruction. */
#include "macros.h"
  START
  li s7, 0
  la t1, altvec           /* vector table away from 0x100000 (a store below clobbers it) */
  addi t1, t1, 1
  csrw mtvec, t1

.macro EXC name, insn:vararg
  la s3, .Lf\@
  ALIGN4
  csrr s0, mcycle
.Lf\@:
  \insn
  csrr s4, mcycle
  sub s4, s4, s0
  sub s1, s1, s0
  PRINT "\name", s1
  PRINT "mcause", s8
  PRINT "mtval", s9
  sub s10, s10, s3
  PRINT "mepc-insn", s10
  PRINT "roundtrip", s4
.endm

  EXC "ecall", ecall
  EXC "c.ebreak", c.ebreak
  EXC "ebreak32", .word 0x00100073
  EXC "c.unimp", .half 0x0000
  EXC "illegal32", .word 0xffffffff
  EXC "csrw_mvendorid", csrw mvendorid, x0
  EXC "csrr_0xbc0", csrr a2, 0xbc0
  EXC "csrr_dcsr", csrr a2, 0x7b0
  EXC "csrr_time", csrr a2, time
  EXC "dret_in_M", .word 0x7b200073
  EXC "lw_0", lw a2, 0(x0)
  li a3, 0x80000000
  EXC "lw_0x80000000", lw a2, 0(a3)
  EXC "lh_0x80000002", lh a2, 2(a3)
  EXC "lb_0x80000003", lb a2, 3(a3)
  EXC "sw_0", sw a2, 0(x0)
  EXC "sw_0x80000000", sw a2, 0(a3)
  EXC "sb_0x80000001", sb a2, 1(a3)
  EXC "c.lw_0x80000000", c.lw a2, 0(a3)
  li a4, 0x001ffffe
  EXC "lw_cross_ram_end", lw a2, 0(a4)
  EXC "sw_cross_ram_end", sw a2, 0(a4)
  li a4, 0x000ffffe
  EXC "lw_cross_into_ram", lw a2, 0(a4)
  li a2, 0x5aa5c33c
  EXC "sw_cross_into_ram", sw a2, 0(a4)
  li t1, 0x100000
  lw t1, 0(t1)
  PRINT "word_0x100000", t1
  li a4, 0x001ffffe
  li t1, 0x001ffffc
  lw t2, 0(t1)
  EXC "sw_cross_ram_end_2", sw a2, 0(a4)
  li t1, 0x001ffffc
  lw t1, 0(t1)
  xor t1, t1, t2
  PRINT "word_0x1ffffc_changed", t1
  li a4, 0x80000002
  EXC "lw_mis_0x80000002", lw a2, 0(a4)
  PRINT "traps", s7
  HALT

  .section .text.alt, "ax"
  .balign 256
altvec:
  .option push
  .option norvc
  j exc_handler
  .option pop
  .global exc_handler
exc_handler:
  csrr s1, mcycle
  csrr s8, mcause
  csrr s9, mtval
  csrr s10, mepc
  addi s7, s7, 1
  lhu s11, 0(s10)
  andi s11, s11, 3
  li a6, 3
  mv a7, s10
  addi a7, a7, 2
  bne s11, a6, 1f
  addi a7, a7, 2
1: csrw mepc, a7
  li a6, 0x1800
  csrs mstatus, a6
  mret
