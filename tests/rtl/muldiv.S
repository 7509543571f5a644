/* mul/div: every form, dependencies, special operands. Printed: mcycle delta (empty = 1) and results. */
#include "macros.h"
  START
  li a2, 7
  li a3, 3
  li a4, -5
  BEGIN; mul t1, a2, a3; END("mul")
  BEGIN; mulh t1, a2, a4; END("mulh")
  PRINT "mulh_res", t1
  BEGIN; mulhsu t1, a4, a2; END("mulhsu")
  PRINT "mulhsu_res", t1
  BEGIN; mulhu t1, a4, a4; END("mulhu")
  PRINT "mulhu_res", t1
  BEGIN; mul t1, a2, a3; addi t1, t1, 1; END("mul;addi_dep")
  BEGIN; mul t1, a2, a3; mul t1, t1, a3; END("mul;mul_dep")
  BEGIN; mul t1, a2, a3; mul t2, a2, a3; mul a5, a2, a3; END("mul_x3_indep")
  BEGIN; mulh t1, a2, a3; mul t2, t1, a3; mulhu a5, t2, a3; END("mulh;mul;mulhu_dep")
  BEGIN; mul t1, a2, a3; lw t2, 0(sp); END("mul;lw")
  BEGIN; lw t2, 0(sp); mul t1, t2, a3; END("lw;mul")
  BEGIN; mul t1, a2, a3; beq t1, t1, 1f; 1: END("mul;beq_taken_dep")
  BEGIN; div t1, a2, a3; END("div")
  PRINT "div_res", t1
  BEGIN; divu t1, a4, a3; END("divu")
  PRINT "divu_res", t1
  BEGIN; rem t1, a4, a3; END("rem")
  PRINT "rem_res", t1
  BEGIN; remu t1, a4, a3; END("remu")
  PRINT "remu_res", t1
  BEGIN; div t1, a2, x0; END("div_by_0")
  PRINT "div0_res", t1
  BEGIN; divu t1, a2, x0; END("divu_by_0")
  BEGIN; rem t1, a2, x0; END("rem_by_0")
  PRINT "rem0_res", t1
  BEGIN; remu t1, a2, x0; END("remu_by_0")
  li a5, 0x80000000
  li a6, -1
  BEGIN; div t1, a5, a6; END("div_ovf")
  PRINT "div_ovf_res", t1
  BEGIN; rem t1, a5, a6; END("rem_ovf")
  PRINT "rem_ovf_res", t1
  BEGIN; div t1, x0, a3; END("div_0_by_3")
  BEGIN; divu t1, a4, a6; END("divu_big")
  li a7, 1
  BEGIN; div t1, a4, a7; END("div_by_1")
  BEGIN; div t1, a2, a3; addi t1, t1, 1; END("div;addi_dep")
  BEGIN; div t1, a2, a3; div t2, t1, a3; END("div;div_dep")
  BEGIN; mul t1, a2, a3; div t2, t1, a3; END("mul;div_dep")
  BEGIN; div t1, a2, a3; mul t2, t1, a3; END("div;mul_dep")
  BEGIN; div t1, a2, x0; div t2, a2, x0; END("div0_x2")
  BEGIN; lw t2, 0(sp); div t1, a2, t2; END("lw;div_dep")
  BEGIN; div t1, a2, a3; sw t1, 0(sp); END("div;sw_dep")
  BEGIN; RVC_ON; c.nop; RVC_POP; RVC_OFF; mul t1, a2, a3; div t2, a2, a3; RVC_POP; END("mul_div_at_2m4")
  HALT
