/* U-mode: mret with MPP=0 drops to U-mode; the U code does ecall (mcause 8), reads mstatus
   (illegal in U: mcause 2), reads cycle (mcounteren=0: illegal), mret (illegal)
   and wfi with mstatus.TW=1 (illegal), then ecalls to finish. The handler records mcause/mtval/mepc and the
   privilege seen in mstatus.MPP, skips the instruction and returns to U. */
#include "macros.h"
  START
  li s7, 0
  la t1, user
  csrw mepc, t1
  li t1, 0x1800
  csrc mstatus, t1        /* MPP = U */
  li t1, 0x200000
  csrs mstatus, t1        /* TW = 1: wfi in U traps */
  ALIGN4
  csrr s0, mcycle
  csrr s5, minstret
  mret
back:
  sub s1, s1, s0
  PRINT "cycles_in_user", s1
  PRINT "traps", s7
  la t1, log
  li t2, 0
1: lw a1, 0(t1)
  PRINT "mcause", a1
  lw a1, 4(t1)
  PRINT "mtval", a1
  lw a1, 8(t1)
  PRINT "mepc-user", a1
  lw a1, 12(t1)
  PRINT "mstatus", a1
  lw a1, 16(t1)
  PRINT "handler_at", a1
  lw a1, 20(t1)
  PRINT "minstret_at", a1
  addi t1, t1, 24
  addi t2, t2, 1
  blt t2, s7, 1b
  csrr t1, mstatus
  PRINT "mstatus_final", t1
  HALT

  ALIGN4
user:
  addi a0, x0, 1
  ecall
  csrr a2, mstatus
  csrr a3, cycle
  csrr a4, mscratch
  mret
  wfi
  li a5, 0x100000
  lw a6, 0(a5)            /* U can access RAM (no PMP) */
  ebreak
  li a7, 99
  ecall                   /* a7=99: finish */
  j .

  .global exc_handler
exc_handler:
  csrr s1, mcycle
  csrr s6, minstret
  la t1, log
  li t2, 24
  mul t2, t2, s7
  add t1, t1, t2
  csrr t2, mcause
  sw t2, 0(t1)
  csrr t2, mtval
  sw t2, 4(t1)
  csrr t2, mepc
  la t3, user
  sub t3, t2, t3
  sw t3, 8(t1)
  csrr t3, mstatus
  sw t3, 12(t1)
  sub t3, s1, s0
  sw t3, 16(t1)
  sub t3, s6, s5
  sw t3, 20(t1)
  addi s7, s7, 1
  li t3, 99
  beq a7, t3, 5f
  lhu t3, 0(t2)
  andi t3, t3, 3
  addi t2, t2, 2
  li t4, 3
  bne t3, t4, 1f
  addi t2, t2, 2
1: csrw mepc, t2
  mret
5: la t1, back
  csrw mepc, t1
  li t1, 0x1800
  csrs mstatus, t1
  mret

  .section .bss
log: .space 200
