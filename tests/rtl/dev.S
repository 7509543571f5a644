/* Device map corners of simple_system: SIMCTRL window (0x20000, 1 KiB) and timer offsets.
   A trapping access is skipped by exc_handler, which counts it (s7) and records mcause. */
#include "macros.h"
  START
  li s7, 0
  li s2, 0x20000
  li s3, TIMER_BASE
  li t2, 0x41
  BEGIN; sw x0, 4(s2); END("sw_simctrl+4")
  PRINT "traps", s7
  BEGIN; lw t1, 0(s2); END("lw_simctrl+0")
  PRINT "lw_simctrl+0_data", t1
  PRINT "traps", s7
  BEGIN; lw t1, 8(s2); END("lw_simctrl+8")
  PRINT "lw_simctrl+8_data", t1
  BEGIN; sw t2, 0x100(s2); END("sw_simctrl+0x100")
  BEGIN; sw t2, 0x3fc(s2); END("sw_simctrl+0x3fc")
  PRINT "traps", s7
  BEGIN; sb t2, 1(s2); END("sb_simctrl+1")
  BEGIN; sh t2, 0(s2); END("sh_simctrl+0")
  BEGIN; sb t2, 0(s2); END("sb_simctrl+0")
  SAY ""
  PRINT "traps", s7
  BEGIN; lw t1, 4(s3); END("lw_mtimeh")
  PRINT "mtimeh", t1
  BEGIN; lw t1, 12(s3); END("lw_mtimecmph")
  PRINT "mtimecmph", t1
  BEGIN; lw t1, 16(s3); END("lw_timer+16")
  PRINT "traps", s7
  PRINT "mcause", s8
  BEGIN; sw x0, 16(s3); END("sw_timer+16")
  PRINT "traps", s7
  PRINT "mcause", s8
  li t1, 0x20400
  BEGIN; lw t1, 0(t1); END("lw_0x20400")
  PRINT "traps", s7
  PRINT "mcause", s8
  HALT

  .global exc_handler
exc_handler:
  csrr s8, mcause
  addi s7, s7, 1
  csrr s10, mepc
  lhu s11, 0(s10)
  andi s11, s11, 3
  addi s10, s10, 2
  li s9, 3
  bne s11, s9, 1f
  addi s10, s10, 2
1: csrw mepc, s10
  li s9, 0x1800
  csrs mstatus, s9
  mret
