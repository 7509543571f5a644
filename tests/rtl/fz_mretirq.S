/* fuzz seed 1002, minimised: mret whose target is a 32-bit instruction at 2 mod 4 enables a pending timer interrupt (taken in its bubble); fetch-wait count (hpm4) */
#include "macros.h"
  START
  .option norvc
  la gp, fz_buf
  addi sp, gp, 128
  li x28, 0
  lui x26, 0x30
  li x27, -1
  sw x27, 12(x26)
  .option rvc
  c.add x6, x22
.L7:
  c.j .L8
  c.j .L7
.L8:
  c.j .L21
  c.nop
  j .L23
.L21:
  lui x8, 0x30
  sw x0, 12(x8)
.L23:
  c.j .L35
.L36:
  c.nop
  j .L37
.L35:
  c.nop
  c.j .L36
.L37:
  c.nop
  c.nop
  c.j .L46
  c.nop
.L47:
  la x12, .L49
  csrw mepc, x12
.L49:
  li x6, 0x80
  csrs mie, x6
  j .L48
.L46:
  j .L47
.L48:
  mret
  /* end body */
fz_end:
  csrci mstatus, 8
  csrw mie, x0
  sw x1, 516(gp)
  sw x2, 520(gp)
  sw x3, 524(gp)
  sw x4, 528(gp)
  sw x5, 532(gp)
  sw x6, 536(gp)
  sw x7, 540(gp)
  sw x8, 544(gp)
  sw x9, 548(gp)
  sw x10, 552(gp)
  sw x11, 556(gp)
  sw x12, 560(gp)
  sw x13, 564(gp)
  sw x14, 568(gp)
  sw x15, 572(gp)
  sw x16, 576(gp)
  sw x17, 580(gp)
  sw x18, 584(gp)
  sw x19, 588(gp)
  sw x20, 592(gp)
  sw x21, 596(gp)
  sw x22, 600(gp)
  sw x23, 604(gp)
  sw x24, 608(gp)
  sw x25, 612(gp)
  sw x26, 616(gp)
  sw x27, 620(gp)
  sw x28, 624(gp)
  sw x29, 628(gp)
  sw x30, 632(gp)
  sw x31, 636(gp)
  csrr x5, mcycle; sw x5, 640(gp)
  csrr x5, minstret; sw x5, 644(gp)
  csrr x5, mhpmcounter3; sw x5, 648(gp)
  csrr x5, mhpmcounter4; sw x5, 652(gp)
  csrr x5, mhpmcounter5; sw x5, 656(gp)
  csrr x5, mhpmcounter6; sw x5, 660(gp)
  csrr x5, mhpmcounter7; sw x5, 664(gp)
  csrr x5, mhpmcounter8; sw x5, 668(gp)
  csrr x5, mhpmcounter9; sw x5, 672(gp)
  csrr x5, mhpmcounter10; sw x5, 676(gp)
  csrr x5, mhpmcounter11; sw x5, 680(gp)
  csrr x5, mhpmcounter12; sw x5, 684(gp)
  li x6, 0; mv x7, gp; addi x8, gp, 512
1: lw x9, 0(x7); slli x10, x6, 5; add x6, x6, x10; xor x6, x6, x9; addi x7, x7, 4; bne x7, x8, 1b
  sw x6, 696(gp)
  .option rvc
  lw s0, 516(gp); PRINT "x1", s0
  lw s0, 520(gp); PRINT "x2", s0
  lw s0, 524(gp); PRINT "x3", s0
  lw s0, 528(gp); PRINT "x4", s0
  lw s0, 532(gp); PRINT "x5", s0
  lw s0, 536(gp); PRINT "x6", s0
  lw s0, 540(gp); PRINT "x7", s0
  lw s0, 544(gp); PRINT "x8", s0
  lw s0, 548(gp); PRINT "x9", s0
  lw s0, 552(gp); PRINT "x10", s0
  lw s0, 556(gp); PRINT "x11", s0
  lw s0, 560(gp); PRINT "x12", s0
  lw s0, 564(gp); PRINT "x13", s0
  lw s0, 568(gp); PRINT "x14", s0
  lw s0, 572(gp); PRINT "x15", s0
  lw s0, 576(gp); PRINT "x16", s0
  lw s0, 580(gp); PRINT "x17", s0
  lw s0, 584(gp); PRINT "x18", s0
  lw s0, 588(gp); PRINT "x19", s0
  lw s0, 592(gp); PRINT "x20", s0
  lw s0, 596(gp); PRINT "x21", s0
  lw s0, 600(gp); PRINT "x22", s0
  lw s0, 604(gp); PRINT "x23", s0
  lw s0, 608(gp); PRINT "x24", s0
  lw s0, 612(gp); PRINT "x25", s0
  lw s0, 616(gp); PRINT "x26", s0
  lw s0, 620(gp); PRINT "x27", s0
  lw s0, 624(gp); PRINT "x28", s0
  lw s0, 628(gp); PRINT "x29", s0
  lw s0, 632(gp); PRINT "x30", s0
  lw s0, 636(gp); PRINT "x31", s0
  lw s0, 696(gp); PRINT "bufsum", s0
  lw s0, 640(gp); PRINT "mcycle", s0
  lw s0, 644(gp); PRINT "minstret", s0
  lw s0, 648(gp); PRINT "hpm3", s0
  lw s0, 652(gp); PRINT "hpm4", s0
  lw s0, 656(gp); PRINT "hpm5", s0
  lw s0, 660(gp); PRINT "hpm6", s0
  lw s0, 664(gp); PRINT "hpm7", s0
  lw s0, 668(gp); PRINT "hpm8", s0
  lw s0, 672(gp); PRINT "hpm9", s0
  lw s0, 676(gp); PRINT "hpm10", s0
  lw s0, 680(gp); PRINT "hpm11", s0
  lw s0, 684(gp); PRINT "hpm12", s0
  HALT

  .section .text
  .option norvc
  .balign 4
  .global exc_handler
exc_handler:
  csrr x26, mcause
  csrr x27, mtval
  slli x29, x28, 5
  add x28, x28, x29
  xor x28, x28, x27
  add x28, x28, x26
  csrr x27, mepc
  lhu x26, 0(x27)
  andi x26, x26, 3
  addi x27, x27, 2
  li x29, 3
  bne x26, x29, 1f
  addi x27, x27, 2
1: csrw mepc, x27
  li x27, 0x1800
  csrs mstatus, x27
  mret

  .global timer_handler
timer_handler:
  csrr x26, mcause
  csrr x27, mepc
  slli x29, x28, 5
  add x28, x28, x29
  xor x28, x28, x27
  add x28, x28, x26
  /* trap taken just before a wfi: skip it (it could sleep forever once disarmed) */
  lhu x26, 0(x27)
  lhu x29, 2(x27)
  slli x29, x29, 16
  or x26, x26, x29
  li x29, 0x10500073
  bne x26, x29, 1f
  addi x27, x27, 4
  csrw mepc, x27
1:
  la x26, fz_budget
  lw x27, 0(x26)
  addi x27, x27, -1
  sw x27, 0(x26)
  lui x26, 0x30
  li x29, -1
  sw x29, 12(x26)
  blt x27, x0, 2f
  lw x29, 0(x26)
  andi x27, x28, 255
  addi x27, x27, 60
  add x29, x29, x27
  sw x29, 8(x26)
  sw x0, 12(x26)
2:
  li x27, 0x1800
  csrs mstatus, x27
  mret

  .section .data
  .balign 4
fz_budget: .word 7
fz_buf:
  .word 0xd73793e9, 0xaf090c6a, 0x9360e9f9, 0x2868c529, 0x5b3f204c, 0x0a94d96e, 0xc3fc7e9e, 0x4e08aed6
  .word 0xe89803ac, 0x96619360, 0x63cbff41, 0x89cf9f27, 0xb148a528, 0x068b9dbf, 0xb0888f0a, 0x1b2eb126
  .word 0xbeca10cd, 0x602d1276, 0x63000056, 0xbf663b6e, 0x0111a4de, 0xa39d0ff5, 0x1a13408f, 0x3227af8c
  .word 0x5f356c75, 0xd0737eee, 0xc490ff85, 0xc37b5eaa, 0xc403a802, 0x4efb884f, 0xb9ef153a, 0xfc58b970
  .word 0x5150382e, 0xd8698477, 0xc036b446, 0x6856291e, 0x9e09343f, 0x3fa8b123, 0xd2518495, 0x4310a225
  .word 0x240e5930, 0xb999292e, 0xd0fa3bb0, 0x5a09e0eb, 0x6a4c677a, 0x686c3bac, 0x1435cdf0, 0x9dd3eed7
  .word 0x30154930, 0x70838f27, 0xbbe63545, 0x966e5d94, 0xfdb8d45c, 0x39e659a0, 0x6bd86ef6, 0xbdb631e5
  .word 0x50369d27, 0xe1872ae4, 0xfccef17e, 0x886b4c53, 0x7090b25a, 0xcb4beda7, 0x009a1c82, 0x5250b654
  .word 0x90a1bc6f, 0x09a760d3, 0xa6859078, 0x42c2cf6e, 0x46db41b2, 0xcf845652, 0xd47a8de8, 0xb60e7657
  .word 0xaa9b5f44, 0xc8cb0840, 0xc0986beb, 0xb5e1a15b, 0xb8ea2c85, 0x6b302de0, 0x4dcdd2ac, 0x034c3d6d
  .word 0x0ef2c308, 0xfebc4f83, 0x7e0f8d04, 0x0288c498, 0xec34d525, 0xd720551a, 0xf3c16437, 0x97b1f5d8
  .word 0xcfacdeb2, 0x239e7c16, 0x39fbd37d, 0xa0d4e14c, 0x5cd94f59, 0x7b0e449a, 0x3e825e0c, 0xad73951f
  .word 0x1ea5f2df, 0x1d773529, 0x90ca8618, 0xa04eb983, 0x7fe5eebc, 0xef0312d0, 0x4a297d8d, 0x406ff26f
  .word 0xca05b8bf, 0x7dc7373a, 0x872aba49, 0x370a68ac, 0x61792281, 0x23f7667a, 0x040a527d, 0xddfc93a7
  .word 0xd47ed2ba, 0x0304369a, 0x03e52bc2, 0x030e0ccb, 0x86cc1b20, 0x64209c70, 0x3a3a34f6, 0xf8caee30
  .word 0xe0064973, 0xb5a63064, 0x9f58f28d, 0x522bcf71, 0x0af33821, 0x79fc2a60, 0xccf8820e, 0x12f6022e
  .space 256
