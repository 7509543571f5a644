/* Every CSR instruction form on the machine CSRs and counters. For each form:
   "<csr>_<form>=cost" (mcycle delta, empty pair = 1), "r=" value the instruction read into rd,
   "v=" value of the CSR read back right after. The CSR is reset to an initial value before each. */
#include "macros.h"
  START
  li t0, TIMER_BASE
  li t1, -1
  sw t1, 12(t0)          /* timer line low */
  li s7, 0

.macro FORMS csr, init, opnd
  li s5, \init
  li t2, \opnd
  .irp form, rw, rw_x0, rs, rs_x0, rs_rdx0_x0, rc, rc_x0, rwi, rwi_x0, rsi, rsi_0, rci, rci_0
  csrw \csr, s5
  li t1, 0x5a5a5a5a
  ALIGN4
  csrr s0, mcycle
  .ifc \form,rw
  csrrw t1, \csr, t2
  .endif
  .ifc \form,rw_x0
  csrrw x0, \csr, t2
  .endif
  .ifc \form,rs
  csrrs t1, \csr, t2
  .endif
  .ifc \form,rs_x0
  csrrs t1, \csr, x0
  .endif
  .ifc \form,rs_rdx0_x0
  csrrs x0, \csr, x0
  .endif
  .ifc \form,rc
  csrrc t1, \csr, t2
  .endif
  .ifc \form,rc_x0
  csrrc t1, \csr, x0
  .endif
  .ifc \form,rwi
  csrrwi t1, \csr, 5
  .endif
  .ifc \form,rwi_x0
  csrrwi x0, \csr, 0
  .endif
  .ifc \form,rsi
  csrrsi t1, \csr, 1
  .endif
  .ifc \form,rsi_0
  csrrsi t1, \csr, 0
  .endif
  .ifc \form,rci
  csrrci t1, \csr, 1
  .endif
  .ifc \form,rci_0
  csrrci t1, \csr, 0
  .endif
  csrr s1, mcycle
  csrr s6, \csr
  csrw mcountinhibit, x0
  sub s1, s1, s0
  PRINT "\csr\()_\form", s1
  PRINT "r", t1
  PRINT "v", s6
  .endr
  csrw \csr, s5
.endm

  FORMS mscratch, 0xa5a50f0f, 0x0ff0
  FORMS mepc, 0x00100100, 0x3
  FORMS mstatus, 0x1800, 0x88
  li t1, 0x1800
  csrw mstatus, t1
  FORMS mie, 0x80, 0x808
  FORMS mtvec, 0x00100001, 0x200
  li t1, 0x00100001
  csrw mtvec, t1
  FORMS mcountinhibit, 0, 5
  FORMS mcycle, 1000, 0x10
  FORMS minstret, 1000, 0x10
  FORMS mcycleh, 0, 0x10
  FORMS minstreth, 0, 0x10
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  FORMS mhpmcounter\n, 100, 0x10
  .endr
  FORMS mhpmcounter3h, 0, 0xffffffff
  FORMS mhpmcounter12h, 0, 0xffffffff
  FORMS mhpmcounter13, 0, 0x10
  FORMS mhpmevent3, 0, 0xffffffff
  FORMS mscratch, 0, 0

  /* read-only counters: reads legal, writes illegal (counted by exc_handler in s7) */
  li t2, 1
  BEGIN; csrr t1, cycle; END("csrr_cycle")
  BEGIN; csrrs t1, cycle, x0; END("csrrs_cycle_x0")
  BEGIN; csrrsi t1, cycle, 0; END("csrrsi_cycle_0")
  BEGIN; csrrc t1, cycle, x0; END("csrrc_cycle_x0")
  BEGIN; csrr t1, instret; END("csrr_instret")
  BEGIN; csrr t1, cycleh; END("csrr_cycleh")
  PRINT "traps", s7
  BEGIN; csrw cycle, t2; END("csrw_cycle")
  BEGIN; csrrs t1, cycle, t2; END("csrrs_cycle_t2")
  BEGIN; csrrsi t1, cycle, 1; END("csrrsi_cycle_1")
  BEGIN; csrrwi x0, instret, 0; END("csrrwi_instret")
  PRINT "traps", s7
  /* counter freezing with mcountinhibit */
  li t1, 1
  csrw mcountinhibit, t1
  csrr s0, mcycle
  nop; nop; nop
  csrr s1, mcycle
  csrw mcountinhibit, x0
  sub s1, s1, s0
  PRINT "mcycle_frozen_delta", s1
  li t1, 4
  csrw mcountinhibit, t1
  csrr s0, minstret
  nop; nop; nop
  csrr s1, minstret
  csrw mcountinhibit, x0
  sub s1, s1, s0
  PRINT "minstret_frozen_delta", s1
  li t1, 0x1ff8
  csrw mhpmcounter3, x0
  csrw mhpmcounter10, x0
  csrw mcountinhibit, t1
  lw t2, 0(sp); RVC_ON; c.nop; RVC_POP
  csrr s0, mhpmcounter3
  csrr s1, mhpmcounter10
  csrw mcountinhibit, x0
  PRINT "hpm3_frozen", s0
  PRINT "hpm10_frozen", s1
  /* write mcycle / minstret then read */
  ALIGN4; li t1, 100; csrw mcycle, t1; csrr s1, mcycle; PRINT "mcycle_after_write100", s1
  ALIGN4; li t1, 100; csrw minstret, t1; csrr s1, minstret; PRINT "minstret_after_write100", s1
  ALIGN4; li t1, -1; csrw mcycle, t1; nop; nop; nop; csrr s1, mcycle; csrr s6, mcycleh; PRINT "mcycle_wrap_lo", s1; PRINT "mcycle_wrap_hi", s6
  ALIGN4; li t1, -1; csrw minstret, t1; nop; nop; csrr s1, minstret; csrr s6, minstreth; PRINT "minstret_wrap_lo", s1; PRINT "minstret_wrap_hi", s6
  csrw mcycleh, x0
  csrw minstreth, x0
  li t1, -1
  csrw mhpmcounter3, t1; csrw mhpmcounter3h, t1
  lw t1, 0(sp)
  csrr s1, mhpmcounter3; csrr s6, mhpmcounter3h
  PRINT "hpm3_wrap_lo", s1; PRINT "hpm3_wrap_hi", s6
  HALT

  .global exc_handler
exc_handler:
  addi s7, s7, 1
  csrr s10, mepc
  addi s10, s10, 4
  csrw mepc, s10
  li s9, 0x1800
  csrs mstatus, s9
  mret
