/* Ubik RTL differential tests: console helpers and default (weak) trap handlers.
   Our own code. Each program places its code at 0x100080 (.text.start). */
#include "macros.h"
  .section .text
  .global puts
  .global puthex
/* puts(a0 = string) ; clobbers t3,t4,a0 */
puts:
  li t3, SIMCTRL_OUT
1: lbu t4, 0(a0)
  beqz t4, 2f
  sw t4, 0(t3)
  addi a0, a0, 1
  j 1b
2: ret
/* puthex(a0 = value): prints 0x%08x\n ; clobbers t3,t4,t5,t6,a0 */
puthex:
  li t3, SIMCTRL_OUT
  li t4, '0'
  sw t4, 0(t3)
  li t4, 'x'
  sw t4, 0(t3)
  li t5, 8
1: srli t4, a0, 28
  slli a0, a0, 4
  li t6, 10
  blt t4, t6, 2f
  addi t4, t4, 'a'-10-'0'
2: addi t4, t4, '0'
  sw t4, 0(t3)
  addi t5, t5, -1
  bnez t5, 1b
  li t4, '\n'
  sw t4, 0(t3)
  ret

  .weak exc_handler
  .weak timer_handler
  .weak other_handler
exc_handler:
timer_handler:
other_handler:
  csrr s10, mcause
  csrr s11, mepc
  PRINT "UNEXPECTED_TRAP mcause", s10
  PRINT "mepc", s11
  csrr s11, mtval
  PRINT "mtval", s11
  HALT
