/* PMP with Smepmp's machine-mode lockdown (mseccfg.MML; run on a core with 16 PMP entries:
   [core] pmp_regions = 16). With RLB set, MML is switched on and entries written that MML
   would refuse; then M-mode and U-mode loads, stores and calls into each kind of region:
   shared data (R=0 W=1, X 0/1), shared read-only (L RWX), M-only read (L R), U-only data
   (R W), U-only code (R X), shared code (L R=0 W=1 X=0), M-only code (L R X, all text up
   to the data), and code that no entry matches (M may read it, not execute it). The
   configurations are written before MML (W without R dropped) and again after. Last, with
   RLB cleared: a locked M-code configuration cannot be written any more, other locked
   configurations keep ignoring writes. The handler prints mcause, mtval, and the cycles
   from the last `csrr s0, cycle`. */
#include "macros.h"
#define CFG(l, a, x, w, r) ((l) << 7 | (a) << 3 | (x) << 2 | (w) << 1 | (r))
#define TOR 1
#define NAPOT 3
.macro NAPOT256 csr, sym
  la t1, \sym
  srli t1, t1, 2
  ori t1, t1, 31
  csrw \csr, t1
.endm
  START
  li s7, 0
  li t1, 1
  csrw mcounteren, t1
  li t1, 4                /* RLB */
  csrw mseccfg, t1
  NAPOT256 pmpaddr0, d0
  NAPOT256 pmpaddr1, d1
  NAPOT256 pmpaddr2, d2
  NAPOT256 pmpaddr3, d3
  NAPOT256 pmpaddr4, d4
  NAPOT256 pmpaddr5, ucode
  NAPOT256 pmpaddr6, pfunc
  li t1, 0x100000 >> 2
  csrw pmpaddr7, t1
  la t1, d0
  srli t1, t1, 2
  csrw pmpaddr8, t1
  li t1, CFG(0, NAPOT, 0, 1, 0) | CFG(0, NAPOT, 1, 1, 0) << 8 | CFG(1, NAPOT, 1, 1, 1) << 16 | CFG(1, NAPOT, 0, 0, 1) << 24
  csrw pmpcfg0, t1
  li t1, CFG(0, NAPOT, 0, 1, 1) | CFG(0, NAPOT, 1, 0, 1) << 8 | CFG(1, NAPOT, 0, 1, 0) << 16
  csrw pmpcfg1, t1
  li t1, CFG(1, TOR, 1, 0, 1)
  csrw pmpcfg2, t1        /* e8: M-only code up to d0 */
  li t1, 5                /* MML | RLB */
  csrw mseccfg, t1
  li t1, 4                /* MML cleared: not possible (sticky) */
  csrw mseccfg, t1
  /* again under MML: W without R is now kept (shared regions) */
  li t1, CFG(0, NAPOT, 0, 1, 0) | CFG(0, NAPOT, 1, 1, 0) << 8 | CFG(1, NAPOT, 1, 1, 1) << 16 | CFG(1, NAPOT, 0, 0, 1) << 24
  csrw pmpcfg0, t1
  li t1, CFG(0, NAPOT, 0, 1, 1) | CFG(0, NAPOT, 1, 0, 1) << 8 | CFG(1, NAPOT, 0, 1, 0) << 16
  csrw pmpcfg1, t1
  csrr t1, mseccfg
  PRINT "mseccfg", t1
  csrr t1, pmpcfg0
  PRINT "pmpcfg0", t1
  csrr t1, pmpcfg1
  PRINT "pmpcfg1", t1
  csrr t1, pmpcfg2
  PRINT "pmpcfg2", t1

.macro MTRY insn
  la s11, 1f
  csrr s0, mcycle
  \insn
  csrr s1, mcycle
  sub s1, s1, s0
  PRINT "ok", s1
1:
.endm
  la s2, d0
  MTRY "lw a2, 0(s2)"
  MTRY "sw a2, 0(s2)"
  la s2, d1
  MTRY "lw a2, 0(s2)"
  MTRY "sw a2, 0(s2)"
  la s2, d2
  MTRY "lw a2, 0(s2)"
  MTRY "sw a2, 0(s2)"
  la s2, d3
  MTRY "lw a2, 0(s2)"
  MTRY "sw a2, 0(s2)"
  la s2, d4
  MTRY "lw a2, 0(s2)"
  MTRY "sw a2, 0(s2)"
  la s2, nm
  MTRY "lw a2, 0(s2)"
  MTRY "jal ra, nm"
  MTRY "jal ra, pfunc"
  MTRY "jal ra, ucode_ret"

  /* U-mode */
  la t1, ucode
  csrw mepc, t1
  li t1, 0x1800
  csrc mstatus, t1
  la s11, back
  mret
back:
  PRINT "traps_after_u", s7

  /* RLB off: locks and the MML write rule bind */
  li t1, 1
  csrw mseccfg, t1
  csrr t1, mseccfg
  PRINT "mseccfg_no_rlb", t1
  li t1, CFG(1, NAPOT, 1, 0, 1) << 8 | CFG(1, NAPOT, 0, 0, 1) << 16
  csrs pmpcfg2, t1        /* e9 M-only code: refused; e10 M read-only: written */
  csrr t1, pmpcfg2
  PRINT "pmpcfg2_after", t1
  csrw pmpcfg0, x0        /* e2, e3 locked */
  csrr t1, pmpcfg0
  PRINT "pmpcfg0_after", t1
  li t1, 4
  csrs mseccfg, t1
  csrr t1, mseccfg
  PRINT "mseccfg_rlb_again", t1
  PRINT "traps", s7
  HALT

/* U-only code page */
  .section .text.ucode, "ax"
  .balign 256
ucode:
  .option push
  .option norvc           /* the handler skips 4 bytes: it may not read U-only code */
.macro UTRY insn
  csrr s0, cycle
  \insn
.endm
  la s2, d0
  UTRY "lw a2, 0(s2)"
  UTRY "sw a2, 0(s2)"
  la s2, d1
  UTRY "lw a2, 0(s2)"
  UTRY "sw a2, 0(s2)"
  la s2, d2
  UTRY "lw a2, 0(s2)"
  UTRY "sw a2, 0(s2)"
  la s2, d3
  UTRY "lw a2, 0(s2)"
  UTRY "sw a2, 0(s2)"
  la s2, d4
  UTRY "lw a2, 0(s2)"
  UTRY "sw a2, 0(s2)"
  la s2, nm
  UTRY "lw a2, 0(s2)"
  UTRY "jal ra, pfunc"
  UTRY "jal ra, nm"
  UTRY "jal ra, mfunc"
  ecall
ucode_ret:
  ret
  .option pop
  .balign 256

/* shared code page */
  .section .text.pfunc, "ax"
  .balign 256
pfunc:
  ret
  .balign 256

  .section .text
mfunc:
  ret

  .section .data
  .balign 256
d0: .word 0x10
  .balign 256
d1: .word 0x11
  .balign 256
d2: .word 0x12
  .balign 256
d3: .word 0x13
  .balign 256
d4: .word 0x14
  .balign 256
nm:
  ret
  .balign 256

  .section .text
  .global exc_handler
exc_handler:
  csrr s1, mcycle
  csrr s8, mcause
  csrr s9, mtval
  csrr s10, mepc
  addi s7, s7, 1
  sub s1, s1, s0
  mv s3, ra
  PRINT "mcause", s8
  PRINT "mtval", s9
  PRINT "entry", s1
  mv ra, s3
  csrr t1, mstatus
  li t2, 0x1800
  and t1, t1, t2
  beq t1, t2, from_m
  li t1, 8
  beq s8, t1, u_done
  li t1, 1
  beq s8, t1, u_fetch
  addi s10, s10, 4
  csrw mepc, s10
  mret
u_fetch:
  csrw mepc, ra
  mret
u_done:
  csrw mepc, s11
  li t1, 0x1800
  csrs mstatus, t1
  mret
from_m:
  csrw mepc, s11
  mret
