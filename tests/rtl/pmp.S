/* Physical memory protection (run on a core with 16 PMP regions: [core] pmp_regions = 16).
   A: pmpcfg/pmpaddr/mseccfg field rules and costs. B: locked entries bind M-mode (with
   mseccfg.RLB set, so they can be cleared again). C: U-mode behind PMP: allowed and denied
   loads, stores and fetches in NAPOT, NA4 and TOR regions, accesses with no matching entry,
   accesses split over two words with one half denied (mtval, the half written), a 32-bit
   instruction whose second half is not executable. D: mstatus.MPRV makes M-mode loads use
   U's permissions. E: mseccfg.MMWP denies M-mode accesses that match no entry. F: lock rules
   without RLB (locked entries and the pmpaddr below a locked TOR entry ignore writes; RLB
   cannot be set any more). The trap handler prints mcause, mtval, mepc relative to the
   faulting instruction's label where known, the cycles from the last `csrr s0, cycle`
   to its first instruction, and the LSU and fetch wait counters there. */
#include "macros.h"
#define CFG(l, a, x, w, r) ((l) << 7 | (a) << 3 | (x) << 2 | (w) << 1 | (r))
#define OFF 0
#define TOR 1
#define NA4 2
#define NAPOT 3
  START
  li s7, 0
  li t1, 1
  csrw mcounteren, t1     /* U may read cycle */

/* ---------------- A: field rules ---------------- */
  li t1, 0x1e6b1302       /* e12: W only; e13: R W NA4; e14: reserved bits + RW TOR; e15: W X NAPOT */
  csrw pmpcfg3, t1
  csrr t1, pmpcfg3
  PRINT "pmpcfg3", t1
  csrr t1, pmpcfg0
  PRINT "pmpcfg0_reset", t1
  li t1, -1
  csrw pmpaddr15, t1
  csrr t1, pmpaddr15
  PRINT "pmpaddr15", t1
  li t1, 0x12345678
  csrw pmpaddr0, t1
  csrr t1, pmpaddr0
  PRINT "pmpaddr0", t1
  csrr t1, mseccfg
  PRINT "mseccfg_reset", t1
  li t1, -1
  csrw mseccfgh, t1
  csrr t1, mseccfgh
  PRINT "mseccfgh", t1
  BEGIN
  csrw pmpaddr1, t1
  END("cost_csrw_pmpaddr")
  BEGIN
  csrw pmpcfg1, x0
  END("cost_csrw_pmpcfg")
  BEGIN
  csrr t1, pmpcfg1
  END("cost_csrr_pmpcfg")
  li t1, 4                /* RLB */
  BEGIN
  csrw mseccfg, t1
  END("cost_csrw_mseccfg")
  csrr t1, mseccfg
  PRINT "mseccfg_rlb", t1
  csrw pmpcfg3, x0
  csrw pmpaddr0, x0
  csrw pmpaddr15, x0

/* ---------------- B: locked entries bind M-mode ---------------- */
  la t1, pdata            /* e0: NAPOT 256 B, locked, read only */
  srli t1, t1, 2
  ori t1, t1, 31
  csrw pmpaddr0, t1
  la t1, pfunc            /* e1: NAPOT 256 B, locked, read only (not executable) */
  srli t1, t1, 2
  ori t1, t1, 31
  csrw pmpaddr1, t1
  li t1, CFG(1, NAPOT, 0, 0, 1) | CFG(1, NAPOT, 0, 0, 1) << 8
  csrw pmpcfg0, t1
  csrr t1, pmpcfg0
  PRINT "B_pmpcfg0", t1
  la s3, pdata
  BEGIN
  lw a2, 0(s3)
  END("B_lw_locked_r")
  PRINT "B_lw_value", a2
  li a2, 0x77
  la s11, 1f
  csrr s0, mcycle
  sw a2, 0(s3)            /* store access fault */
1:
  la s11, 1f
  csrr s0, mcycle
  jal ra, pfunc           /* instruction access fault */
1:
  csrr s0, mcycle
  lw a2, 0(s3)
  PRINT "B_lw_after", a2
  csrw pmpcfg0, x0        /* RLB: locked entries may be rewritten */
  csrr t1, pmpcfg0
  PRINT "B_cleared", t1

/* ---------------- C: U-mode ---------------- */
  la t1, udata            /* e0: udata, NAPOT 256 B, R W */
  srli t1, t1, 2
  ori t1, t1, 31
  csrw pmpaddr0, t1
  la t1, uno              /* e1: uno, NAPOT 256 B, no access */
  srli t1, t1, 2
  ori t1, t1, 31
  csrw pmpaddr1, t1
  la t1, uword            /* e2: NA4 on uword, R W */
  srli t1, t1, 2
  csrw pmpaddr2, t1
  li t1, MTIME >> 2       /* e3 OFF (TOR base), e4: TOR [mtime, mtimecmph + 4), R */
  csrw pmpaddr3, t1
  li t1, (MTIMECMPH + 4) >> 2
  csrw pmpaddr4, t1
  li t1, 0x4ffff          /* e5: all of RAM, NAPOT 1 MiB, R X */
  csrw pmpaddr5, t1
  li t1, CFG(0, NAPOT, 0, 1, 1) | CFG(0, NAPOT, 0, 0, 0) << 8 | CFG(0, NA4, 0, 1, 1) << 16
  csrw pmpcfg0, t1
  li t1, CFG(0, TOR, 0, 0, 1) | CFG(0, NAPOT, 1, 0, 1) << 8
  csrw pmpcfg1, t1
  csrr t1, pmpcfg0
  PRINT "C_pmpcfg0", t1
  csrr t1, pmpcfg1
  PRINT "C_pmpcfg1", t1
  la t1, user
  csrw mepc, t1
  li t1, 0x1800
  csrc mstatus, t1        /* MPP = U */
  la s11, back
  mret
back:
  PRINT "C_traps", s7
  la s3, udata
  lw t1, 0(s3)
  PRINT "C_lw_udata", t1
  lw t1, 4(s3)
  PRINT "C_sw_udata", t1
  lw t1, 8(s3)
  PRINT "C_lw_mtime", t1
  lw t1, 12(s3)
  PRINT "C_na4_lw", t1
  lw t1, 20(s3)
  PRINT "C_call", t1
  la t1, udata_end
  lw t2, -4(t1)
  PRINT "C_udata_last", t2
  lw t2, 0(t1)
  PRINT "C_after_udata", t2
  lw t2, -256(t1)
  PRINT "C_udata_first", t2
  lw t2, -260(t1)
  PRINT "C_before_udata", t2
  la t1, uword
  lw t2, 0(t1)
  PRINT "C_uword", t2

/* ---------------- D: MPRV ---------------- */
  li t1, 0x20000          /* MPRV = 1, MPP = U */
  csrs mstatus, t1
  la s3, uno
  la s11, 1f
  csrr s0, mcycle
  lw a2, 0(s3)            /* load access fault: checked as U */
1:
  la s3, udata
  BEGIN
  lw a2, 0(s3)
  csrr s1, mcycle
  li t1, 0x20000          /* MPRV off before printing (SIMCTRL is not U's) */
  csrc mstatus, t1
  sub s1, s1, s0
  PRINT "D_lw_mprv_ok", s1

/* ---------------- E: MMWP ---------------- */
  li t1, 0                /* e6: TOR [0, RAM) for M-mode (SIMCTRL, timer) */
  csrw pmpaddr6, t1
  li t1, 0x100000 >> 2
  csrw pmpaddr7, t1
  li t1, CFG(0, TOR, 0, 0, 0) << 24
  csrs pmpcfg1, t1
  li t1, 6                /* MMWP | RLB */
  csrw mseccfg, t1
  csrr t1, mseccfg
  PRINT "E_mseccfg", t1
  csrw mseccfg, x0        /* MMWP is sticky */
  csrr t1, mseccfg
  PRINT "E_mseccfg_sticky", t1
  li s3, 0x80000000
  la s11, 1f
  csrr s0, mcycle
  lw a2, 0(s3)            /* no entry matches: denied to M */
1:
  la s11, 1f
  csrr s0, mcycle
  sw a2, 0(s3)
1:
  la s3, uno
  BEGIN
  lw a2, 0(s3)            /* e1 matches: M passes, not locked */
  END("E_lw_uno_m")

/* ---------------- F: locks without RLB ---------------- */
  li t1, 0x88008000       /* e13 locked OFF, e15 locked TOR */
  csrw pmpcfg3, t1
  csrr t1, mseccfg
  PRINT "F_mseccfg", t1
  li t1, 0x111
  csrw pmpaddr12, t1
  csrw pmpaddr13, t1
  csrw pmpaddr14, t1
  csrw pmpaddr15, t1
  csrr t1, pmpaddr12
  PRINT "F_pmpaddr12", t1
  csrr t1, pmpaddr13
  PRINT "F_pmpaddr13", t1
  csrr t1, pmpaddr14
  PRINT "F_pmpaddr14", t1
  csrr t1, pmpaddr15
  PRINT "F_pmpaddr15", t1
  li t1, 0x0f0f0f0f
  csrw pmpcfg3, t1
  csrr t1, pmpcfg3
  PRINT "F_pmpcfg3", t1
  li t1, 4
  csrs mseccfg, t1
  csrr t1, mseccfg
  PRINT "F_mseccfg_rlb", t1
  PRINT "traps", s7
  HALT

/* ---------------- U-mode code ---------------- */
  .section .text.user, "ax"
  ALIGN4
user:
  la s3, udata
  csrr s0, cycle
  lw a2, 0(s3)            /* allowed: time it */
  csrr s1, cycle
  sub s1, s1, s0
  sw s1, 0(s3)
  csrr s0, cycle
  sw a2, 16(s3)
  csrr s1, cycle
  sub s1, s1, s0
  sw s1, 4(s3)
  li s4, MTIME
  csrr s0, cycle
  lw a2, 0(s4)            /* TOR, readable */
  csrr s1, cycle
  sub s1, s1, s0
  sw s1, 8(s3)
  la s4, uword
  csrr s0, cycle
  lw a2, 0(s4)            /* NA4 */
  csrr s1, cycle
  sub s1, s1, s0
  sw s1, 12(s3)
  la s4, uno
  csrr s0, cycle
  lw a2, 0(s4)            /* no permission */
  csrr s0, cycle
  sw a2, 8(s4)
  la s4, user
  csrr s0, cycle
  sw a2, 0(s4)            /* RAM is R X: no W */
  li s4, MTIMECMP
  csrr s0, cycle
  sw a2, 0(s4)            /* TOR, read only */
  li s4, SIMCTRL_OUT
  csrr s0, cycle
  lw a2, 0(s4)            /* no entry matches */
  la s4, uword
  sw a2, 0(s4)            /* NA4: writable */
  csrr s0, cycle
  sw a2, 4(s4)            /* just past the NA4 word: RAM, not writable */
  la s4, udata_end
  li a2, 0x5aa5c33c
  csrr s0, cycle
  lw a3, -2(s4)           /* split: udata (R W) then RAM (R X): allowed */
  csrr s0, cycle
  sw a2, -2(s4)           /* split: 2nd half not writable */
  la s4, udata
  csrr s0, cycle
  sw a2, -2(s4)           /* split: 1st half not writable */
  la s4, uno
  csrr s0, cycle
  lw a3, -2(s4)           /* split: 2nd half in uno */
  csrr s0, cycle
  lw a3, 254(s4)          /* split: 1st half in uno */
  csrr s0, cycle
  jal ra, uno_func        /* fetch from a region without X */
  csrr s0, cycle
  jal ra, edge            /* a 32-bit instruction whose 2nd half is in uno */
  csrr s0, cycle
  jal ra, ufunc           /* allowed call */
  csrr s1, cycle
  sub s1, s1, s0
  sw s1, 20(s3)
  ecall

ufunc:
  ret

/* a 512-byte aligned block: the last 6 bytes of the first half hold c.nop, c.nop and the
   first half of a 32-bit addi whose second half is the first halfword of uno */
  .section .text.edge, "ax"
  .balign 512
edge_block:
  .option push
  .option rvc
  .skip 250
edge:
  c.nop
  c.nop
  .option norvc
  addi a3, a3, 1
  ret
  .balign 16
uno_func:
  ret
  .option pop
  .balign 256
uno = edge_block + 256

  .section .data
  .balign 256
udata:
  .word 0x11111111
  .skip 252
udata_end:
  .word 0x22222222
  .balign 256
pdata:
  .word 0x33333333
  .balign 4
uword:
  .word 0x44444444
  .word 0x55555555

  .section .text.pfunc, "ax"
  .balign 256
pfunc:
  ret
  .balign 256
  .word 0

/* trap handler: print what the trap was; resume at s11 (M-mode faults), at ra (fetch faults
   from U), after the instruction (other U faults), or in M at s11 (ecall from U) */
  .section .text
  .global exc_handler
exc_handler:
  csrr s1, mcycle
  csrr s5, mhpmcounter3
  csrr s6, mhpmcounter4
  csrr s8, mcause
  csrr s9, mtval
  csrr s10, mepc
  addi s7, s7, 1
  sub s1, s1, s0
  mv s2, ra
  PRINT "mcause", s8
  PRINT "mtval", s9
  PRINT "entry", s1
  PRINT "lsu_wait", s5
  PRINT "fetch_wait", s6
  mv ra, s2
  csrr t1, mstatus
  li t2, 0x1800
  and t1, t1, t2
  beq t1, t2, from_m
  li t1, 8
  beq s8, t1, u_done
  li t1, 1
  beq s8, t1, u_fetch
  lhu t1, 0(s10)          /* skip the faulting instruction */
  andi t1, t1, 3
  addi s10, s10, 2
  li t2, 3
  bne t1, t2, 1f
  addi s10, s10, 2
1: csrw mepc, s10
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
