/* Loads and stores: aligned, misaligned at every offset and width, back to back,
   load-use, device (timer) accesses. Printed: mcycle delta (empty pair = 1), and loaded data. */
#include "macros.h"
  START
  li t0, 0x11223344
  sw t0, 0(sp)
  li t0, 0x55667788
  sw t0, 4(sp)
  li t0, 0x99aabbcc
  sw t0, 8(sp)
  li s2, TIMER_BASE
  mv s3, sp
  BEGIN; lw t1, 0(s3); END("lw+0")
  BEGIN; lw t1, 1(s3); END("lw+1")
  PRINT "lw+1_data", t1
  BEGIN; lw t1, 2(s3); END("lw+2")
  PRINT "lw+2_data", t1
  BEGIN; lw t1, 3(s3); END("lw+3")
  PRINT "lw+3_data", t1
  BEGIN; lh t1, 0(s3); END("lh+0")
  BEGIN; lh t1, 1(s3); END("lh+1")
  PRINT "lh+1_data", t1
  BEGIN; lh t1, 2(s3); END("lh+2")
  BEGIN; lh t1, 3(s3); END("lh+3")
  PRINT "lh+3_data", t1
  BEGIN; lhu t1, 1(s3); END("lhu+1")
  BEGIN; lhu t1, 3(s3); END("lhu+3")
  PRINT "lhu+3_data", t1
  BEGIN; lb t1, 0(s3); END("lb+0")
  BEGIN; lb t1, 1(s3); END("lb+1")
  BEGIN; lb t1, 2(s3); END("lb+2")
  BEGIN; lbu t1, 3(s3); END("lbu+3")
  PRINT "lbu+3_data", t1
  li t2, 0xa5a5a5a5
  BEGIN; sw t2, 16(s3); END("sw+0")
  BEGIN; sw t2, 21(s3); END("sw+1")
  BEGIN; sw t2, 26(s3); END("sw+2")
  BEGIN; sw t2, 31(s3); END("sw+3")
  BEGIN; sh t2, 36(s3); END("sh+0")
  BEGIN; sh t2, 41(s3); END("sh+1")
  BEGIN; sh t2, 46(s3); END("sh+2")
  BEGIN; sh t2, 51(s3); END("sh+3")
  BEGIN; sb t2, 56(s3); END("sb+0")
  BEGIN; sb t2, 57(s3); END("sb+1")
  BEGIN; sb t2, 58(s3); END("sb+2")
  BEGIN; sb t2, 59(s3); END("sb+3")
  lw t1, 20(s3); PRINT "mem20", t1
  lw t1, 24(s3); PRINT "mem24", t1
  lw t1, 28(s3); PRINT "mem28", t1
  lw t1, 32(s3); PRINT "mem32", t1
  lw t1, 40(s3); PRINT "mem40", t1
  lw t1, 44(s3); PRINT "mem44", t1
  lw t1, 48(s3); PRINT "mem48", t1
  lw t1, 52(s3); PRINT "mem52", t1
  lw t1, 56(s3); PRINT "mem56", t1
  /* back to back */
  BEGIN; lw t1, 0(s3); lw t2, 4(s3); END("lw;lw")
  BEGIN; lw t1, 0(s3); lw t2, 4(s3); lw a2, 8(s3); lw a3, 0(s3); END("lw_x4")
  BEGIN; sw t1, 64(s3); sw t2, 68(s3); sw t1, 72(s3); sw t2, 76(s3); END("sw_x4")
  BEGIN; lw t1, 0(s3); sw t1, 64(s3); END("lw;sw_dep")
  BEGIN; sw t1, 64(s3); lw t1, 64(s3); END("sw;lw_same")
  BEGIN; lw t1, 0(s3); addi t1, t1, 1; END("lw;addi_dep")
  addi t2, s3, 4; sw t2, 80(s3)
  BEGIN; lw t1, 80(s3); lw t2, 0(t1); END("lw;lw_addr_dep")
  PRINT "lw_chain_data", t2
  BEGIN; lw t1, 1(s3); lw t2, 2(s3); lw a2, 3(s3); END("lw_mis_x3")
  BEGIN; sw t1, 65(s3); sw t2, 70(s3); sh t1, 75(s3); END("sw_mis_x3")
  BEGIN; lw t1, 1(s3); sw t1, 83(s3); END("lw+1;sw+3")
  mv a5, sp
  BEGIN; RVC_ON; c.lwsp t1, 0(sp); c.lwsp t2, 4(sp); c.swsp t1, 64(sp); c.lw a2, 0(a5); RVC_POP; END("c.lwsp_c.swsp_c.lw")
  BEGIN; lw t1, 0(s3); mul t2, t1, t1; END("lw;mul_dep")
  BEGIN; lw t1, 0(s3); beq t1, x0, 1f; 1: END("lw;beq_dep_nt")
  la t2, 2f; sw t2, 84(s3)
  BEGIN; lw t1, 84(s3); jalr x0, 0(t1); ALIGN4; 2: END("lw;jalr_dep")
  /* timer device */
  BEGIN; lw t1, 0(s2); END("lw_mtime")
  BEGIN; lw t1, 4(s2); END("lw_mtimeh")
  BEGIN; lw t1, 8(s2); END("lw_mtimecmp")
  li t1, -1
  BEGIN; sw t1, 12(s2); END("sw_mtimecmph")
  BEGIN; sw t1, 8(s2); END("sw_mtimecmp")
  ALIGN4; csrr s0, mcycle; lw s1, 0(s2); sub s1, s1, s0; PRINT "mtime-mcycle_after", s1
  ALIGN4; lw s1, 0(s2); csrr s0, mcycle; sub s1, s1, s0; PRINT "mtime-mcycle_before", s1
  HALT
