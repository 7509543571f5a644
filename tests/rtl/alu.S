/* Single-cycle instructions, straight-line fetch effects, fence, fence.i.
   Each line printed: mcycle(END) - mcycle(BEGIN) (an empty pair prints 1). */
#include "macros.h"
  START
  BEGIN; END("empty")
  BEGIN; RVC_ON; .rept 8; c.nop; .endr; RVC_POP; END("c.nop_x8")
  BEGIN; RVC_OFF; .rept 8; addi x0, x0, 0; .endr; RVC_POP; END("nop32_x8")
  BEGIN; RVC_OFF; .rept 4; lui t1, 0x12345; auipc t2, 0x10; .endr; RVC_POP; END("lui_auipc_x8")
  BEGIN; RVC_OFF; slli t1, t1, 3; srli t1, t1, 1; srai t1, t1, 1; sll t1, t1, t2; srl t1, t1, t2; sra t1, t1, t2; RVC_POP; END("shifts_x6")
  BEGIN; RVC_OFF; slt t1, t1, t2; sltu t1, t2, t1; slti t1, t1, 5; sltiu t1, t1, 5; RVC_POP; END("slt_x4")
  BEGIN; RVC_OFF; add t1, t1, t2; sub t1, t1, t2; xor t1, t1, t2; or t1, t1, t2; and t1, t1, t2; xori t1, t1, 1; ori t1, t1, 1; andi t1, t1, 1; RVC_POP; END("alu_rr_ri_x8")
  BEGIN; RVC_ON; c.li t1, 1; c.addi t1, 2; c.mv t2, t1; c.add t1, t2; c.sub a0, a1; c.and a0, a1; c.or a0, a1; c.xor a0, a1; RVC_POP; END("compressed_alu_x8")
  /* 32-bit instructions at 2 mod 4 in straight-line code */
  BEGIN; RVC_ON; c.nop; RVC_POP; RVC_OFF; .rept 8; addi t1, t1, 1; .endr; RVC_POP; END("c.nop+addi32_2m4_x8")
  BEGIN; RVC_ON; .rept 6; c.nop; .option norvc; addi t1, t1, 1; .option rvc; .endr; RVC_POP; END("alt_c_32_x12")
  BEGIN; RVC_ON; .rept 4; c.nop; c.nop; .option norvc; addi t1, t1, 1; .option rvc; .endr; RVC_POP; END("c_c_32_x12")
  BEGIN; fence; END("fence")
  BEGIN; fence; fence; END("fence_x2")
  BEGIN; fence.i; END("fence.i")
  BEGIN; fence.i; RVC_ON; c.nop; RVC_POP; END("fence.i+c.nop")
  BEGIN; fence.i; RVC_ON; c.nop; RVC_POP; RVC_OFF; addi t1, t1, 1; addi t1, t1, 1; RVC_POP; END("fence.i+c.nop+32@2m4_x2")
  BEGIN; RVC_ON; c.nop; RVC_POP; fence.i; RVC_OFF; addi t1, t1, 1; RVC_POP; END("fence.i@2m4+32@2m4")
  ALIGN4; RVC_OFF; addi t1, t1, 1; RVC_POP; BEGIN; END("empty_after_addi32")
  HALT
