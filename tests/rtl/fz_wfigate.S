/* Found by fuzz (tests/rtl/fuzz, seeds 37, 85): when does the clock gate of a sleeping wfi
   (MIE=0, woken by the timer ~60 cycles later) start, W+3 or W+4 (W = wfi's ID cycle)? It depends
   on whether the prefetch buffer still has an instruction fetch outstanding, i.e. on how full the
   fetch FIFO is, not on compressed instructions. Each case is entered by a jump (FIFO flushed),
   then runs only 32-bit instructions before the wfi; printed: mcycle delta over the wfi (5 counts
   + gating start W+4 -> 6) and the mtime-mcycle growth. */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  li t1, 0x80
  csrw mie, t1
  li a2, 7
  li a3, 3
.macro W name, p1="", p2="", p3=""
  lw t2, 0(t0)
  addi t2, t2, 60
  sw t2, 8(t0)
  sw x0, 12(t0)
  la t3, 1f
  jalr x0, 0(t3)
  ALIGN4
1:
  RVC_OFF
  csrr s0, mcycle
  \p1
  \p2
  \p3
  wfi
  csrr s1, mcycle
  RVC_POP
  li t1, -1
  sw t1, 12(t0)
  sub s1, s1, s0
  PRINT "\name", s1
.endm
  W "none"
  W "addi", "addi t2, t2, 1"
  W "addi_x2", "addi t2, t2, 1", "addi t2, t2, 1"
  W "addi_x3", "addi t2, t2, 1", "addi t2, t2, 1", "addi t2, t2, 1"
  W "lw", "lw t2, 0(sp)"
  W "lw_addi", "lw t2, 0(sp)", "addi t2, t2, 1"
  W "lw_addi_x2", "lw t2, 0(sp)", "addi t2, t2, 1", "addi t2, t2, 1"
  W "sw", "sw t2, 0(sp)"
  W "mul", "mul t2, a2, a3"
  W "mul_addi", "mul t2, a2, a3", "addi t2, t2, 1"
  W "div", "div t2, a2, a3"
  W "csrw_mie", "csrw mie, t1"
  W "csrw_mie_addi", "csrw mie, t1", "addi t2, t2, 1"
  W "csrw_mscratch", "csrw mscratch, t1"
  W "fence.i", "fence.i"
  W "beq_taken", "beq x0, x0, 2f", "2:"
  W "beq_nt", "bne x0, x0, 2f", "2:"
  W "jal", "jal x0, 2f", "2:"
  HALT
