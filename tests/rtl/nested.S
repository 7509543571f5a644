/* Nested timer interrupt: the outer handler saves mepc/mstatus, re-arms the timer for a little
   later, re-enables MIE and spins; the inner interrupt lands in the handler's spin loop, clears
   the line and returns; the outer handler restores and returns. Printed: mcycle at each step
   relative to the start, mepc seen by each level, mcause, nesting depth reached. */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  li t1, 0x80
  csrw mie, t1
  li s6, 0                /* depth */
  li s7, 0                /* max depth */
  li s8, 0                /* inner done flag */
  li s9, 0
  li t1, 0
  lw t2, 0(t0)
  addi t2, t2, 60
  sw t2, 8(t0)
  ALIGN4
  csrr s0, mcycle
  sw x0, 12(t0)
  csrsi mstatus, 8
  li a0, 0
1: addi a0, a0, 1
  bnez s9, 2f
  j 1b
2: csrr s1, mcycle
  csrci mstatus, 8
  sub s1, s1, s0
  PRINT "back_in_main", s1
  PRINT "outer_entry", a2
  PRINT "inner_entry", a3
  PRINT "inner_exit", a4
  PRINT "outer_exit", a5
  PRINT "outer_mepc", s10
  PRINT "inner_mepc", s11
  PRINT "max_depth", s7
  csrr t1, mstatus
  PRINT "mstatus", t1
  HALT

  .global timer_handler
timer_handler:
  csrr t3, mcycle
  addi s6, s6, 1
  bge s7, s6, 3f
  mv s7, s6
3: li t4, 1
  bne s6, t4, inner
  /* outer */
  sub a2, t3, s0
  csrr s10, mepc
  csrr s4, mstatus
  li t4, -1
  sw t4, 12(t0)           /* line low */
  lw t4, 0(t0)
  addi t4, t4, 25
  sw t4, 8(t0)
  sw x0, 12(t0)           /* fires again in ~25 cycles */
  csrsi mstatus, 8
4: beqz s8, 4b
  csrci mstatus, 8
  csrw mepc, s10
  csrw mstatus, s4
  csrr t3, mcycle
  sub a5, t3, s0
  addi s6, s6, -1
  li s9, 1
  mret
inner:
  sub a3, t3, s0
  csrr s11, mepc
  li t4, -1
  sw t4, 12(t0)
  li s8, 1
  csrr t3, mcycle
  sub a4, t3, s0
  addi s6, s6, -1
  mret
