/* Timer interrupt arriving at every phase of one kind of instruction (KIND, see below).
   For d = D0 .. D1-1: mtimecmp = mtime + d, arm, enable, run BODY; the handler records
   mcycle (s1) and mepc and resumes at `resume`. One line per d:
   byte3 = mepc - body, byte2 = a0 (progress counter), byte1 = handler mcycle - s0,
   byte0 = mcycle at resume - handler mcycle; a second line: mtime - mcycle at resume. */
#include "macros.h"
#define ENABLE csrsi mstatus, 8
#define SETUP
#if KIND == 1   /* div */
#define BODY ALIGN4; body: div a4, a2, a3; addi a0, a0, 1; div a4, a2, a3; addi a0, a0, 1; div a4, a2, a3; addi a0, a0, 1; j .
#elif KIND == 2 /* loads: aligned 32-bit, then misaligned */
#define BODY ALIGN4; body: RVC_OFF; .rept 8; lw a4, 0(sp); .endr; .rept 4; lw a4, 1(sp); .endr; RVC_POP; j .
#elif KIND == 3 /* stores: aligned, then misaligned */
#define BODY ALIGN4; body: RVC_OFF; .rept 8; sw a4, 0(sp); .endr; .rept 4; sw a4, 2(sp); .endr; RVC_POP; j .
#elif KIND == 4 /* taken compressed branch loop */
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.bnez a1, body; RVC_POP
#elif KIND == 5 /* taken 32-bit branch to a 32-bit target at 2m4 */
#define BODY ALIGN4; RVC_ON; c.nop; RVC_POP; body: RVC_OFF; addi a0, a0, 1; bne a1, x0, body; RVC_POP
#elif KIND == 6 /* c.j loop */
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.j body; RVC_POP
#elif KIND == 7 /* jal loop to a 32-bit target at 2m4 */
#define BODY ALIGN4; RVC_ON; c.nop; RVC_POP; body: RVC_OFF; addi a0, a0, 1; jal x0, body; RVC_POP
#elif KIND == 8 /* jalr loop */
#define BODY ALIGN4; body: RVC_OFF; addi a0, a0, 1; jalr x0, 0(t3); RVC_POP
#elif KIND == 9 /* csr writes that flush (mie) */
#define BODY ALIGN4; body: RVC_OFF; .rept 16; csrw mie, t4; .endr; RVC_POP; j .
#elif KIND == 10 /* csr writes without flush (mscratch) mixed with mtvec */
#define BODY ALIGN4; body: RVC_OFF; .rept 8; csrw mscratch, t4; csrs mtvec, x0; .endr; RVC_POP; j .
#elif KIND == 11 /* MIE cleared and set again while the line rises */
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.addi a0, 1; csrci mstatus, 8; c.addi a0, 1; c.addi a0, 1; c.addi a0, 1; c.addi a0, 1; csrsi mstatus, 8; .rept 20; c.addi a0, 1; .endr; RVC_POP; j .
#elif KIND == 12 /* mret loop (MPP=M, MIE stays 1) */
#undef SETUP
#define SETUP la t1, body; csrw mepc, t1
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; csrs mstatus, t5; mret; RVC_POP
#elif KIND == 13 /* mret enabling MIE (MPIE=1), target = c.addi stream */
#undef ENABLE
#define ENABLE
#undef SETUP
#define SETUP la t1, 1f; csrw mepc, t1; li t1, 0x1880; csrs mstatus, t1
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.addi a0, 1; c.addi a0, 1; c.addi a0, 1; mret; c.nop; 1: .rept 30; c.addi a0, 1; .endr; RVC_POP; j .
#elif KIND == 14 /* wfi, MIE=1, straight line */
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.addi a0, 1; RVC_POP; wfi; RVC_ON; c.addi a0, 1; RVC_POP; j .
#elif KIND == 15 /* wfi, MIE=1, reached by a taken branch */
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; RVC_POP; beq x0, x0, 2f; c.addi a0, 1; ALIGN4; 2: wfi; RVC_ON; c.addi a0, 1; RVC_POP; j .
#elif KIND == 16 /* wfi, MIE=1, reached by a jump */
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.j 2f; c.addi a0, 1; RVC_POP; ALIGN4; 2: wfi; RVC_ON; c.addi a0, 1; RVC_POP; j .
#elif KIND == 17 /* wfi reached by an mret that enables MIE */
#undef ENABLE
#define ENABLE
#undef SETUP
#define SETUP la t1, 2f; csrw mepc, t1; li t1, 0x1880; csrs mstatus, t1
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; RVC_POP; mret; ALIGN4; 2: wfi; RVC_ON; c.addi a0, 1; RVC_POP; j .
#elif KIND == 18 /* wfi, MIE=0: wakes without trapping; s1 = mcycle after it */
#undef ENABLE
#define ENABLE
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; c.addi a0, 1; RVC_POP; wfi; csrr s1, mcycle; RVC_ON; c.addi a0, 1; RVC_POP; j resume
#elif KIND == 19 /* wfi at 2m4, MIE=0, after a load */
#undef ENABLE
#define ENABLE
#define BODY ALIGN4; body: RVC_ON; c.addi a0, 1; RVC_POP; lw a4, 0(sp); wfi; csrr s1, mcycle; RVC_ON; c.addi a0, 1; RVC_POP; j resume
#elif KIND == 20 /* wfi, MIE=1, right after a div */
#define BODY ALIGN4; body: div a4, a2, a3; wfi; RVC_ON; c.addi a0, 1; RVC_POP; j .
#endif
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  li t1, 0x80
  csrw mie, t1
  li s4, D0
loop:
  la s5, resume
  li a0, 0
  li a1, 1
  li a2, 7
  li a3, 3
  li a4, 0
  li s1, 0
  li s2, 0
  la t3, body
  li t4, 0x80
  li t5, 0x1800
  SETUP
  lw t2, 0(t0)
  add t2, t2, s4
  sw t2, 8(t0)
  ALIGN4
  csrr s0, mcycle
  sw x0, 12(t0)
  ENABLE
  BODY
resume:
  csrr s3, mcycle
  csrci mstatus, 8
  li t1, -1
  sw t1, 12(t0)
  la t1, body
  sub s2, s2, t1
  andi s2, s2, 0xff
  slli s2, s2, 24
  andi a0, a0, 0xff
  slli a0, a0, 16
  or s2, s2, a0
  sub t1, s3, s1
  andi t1, t1, 0xff
  or s2, s2, t1
  sub t1, s1, s0
  andi t1, t1, 0xff
  slli t1, t1, 8
  or a0, s2, t1
  jal ra, puthex
  ALIGN4
  lw t1, 0(t0)
  csrr t2, mcycle
  sub a0, t1, t2
  jal ra, puthex
  addi s4, s4, 1
  li t1, D1
  blt s4, t1, loop
  HALT

  .global timer_handler
timer_handler:
  csrr s1, mcycle
  csrr s2, mepc
  li t1, -1
  sw t1, 12(t0)
  csrw mepc, s5
  li t1, 0x1800
  csrs mstatus, t1
  mret

