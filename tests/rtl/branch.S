/* Control transfers to 32-bit and compressed targets at 0 and 2 mod 4, with the transfer
   itself at 0 or 2 mod 4. Printed: mcycle delta from BEGIN to the csrr right after the target
   (includes the target instruction and, when at2=1, one c.nop before the transfer). */
#include "macros.h"
  START
  li a2, 1
  li a3, 0

/* XF name, op, target kind (a32 u32 ac uc), at2 (transfer at 2 mod 4) */
.macro XF name, op, tk, at2
  la t1, .Ltg\@
  csrw mepc, t1
  li t2, 0x1800
  csrs mstatus, t2
  ALIGN4
  csrr s0, mcycle
  .option push
  .option rvc
  .if \at2
  c.nop
  .endif
  .ifc \op,beq
  .option norvc
  beq a2, a2, .Ltg\@
  .endif
  .ifc \op,bne
  .option norvc
  bne a2, x0, .Ltg\@
  .endif
  .ifc \op,blt
  .option norvc
  blt x0, a2, .Ltg\@
  .endif
  .ifc \op,c.bnez
  c.bnez a2, .Ltg\@
  .endif
  .ifc \op,c.beqz
  c.beqz a3, .Ltg\@
  .endif
  .ifc \op,jal
  .option norvc
  jal x0, .Ltg\@
  .endif
  .ifc \op,jal_ra
  .option norvc
  jal ra, .Ltg\@
  .endif
  .ifc \op,c.j
  c.j .Ltg\@
  .endif
  .ifc \op,c.jal
  c.jal .Ltg\@
  .endif
  .ifc \op,jalr
  .option norvc
  jalr x0, 0(t1)
  .endif
  .ifc \op,jalr_ra
  .option norvc
  jalr ra, 0(t1)
  .endif
  .ifc \op,c.jr
  c.jr t1
  .endif
  .ifc \op,c.jalr
  c.jalr t1
  .endif
  .ifc \op,mret
  mret
  .endif
  .option rvc
  .balign 4
  .word 0          /* skipped */
  .ifc \tk,u32
  c.nop
  .endif
  .ifc \tk,uc
  c.nop
  .endif
.Ltg\@:
  .ifc \tk,a32
  .option norvc
  addi t2, t2, 1
  .endif
  .ifc \tk,u32
  .option norvc
  addi t2, t2, 1
  .endif
  .ifc \tk,ac
  c.addi t2, 1
  .endif
  .ifc \tk,uc
  c.addi t2, 1
  .endif
  .option pop
  END(\name)
.endm

.irp op, beq, bne, blt, c.bnez, c.beqz, jal, jal_ra, c.j, c.jal, jalr, jalr_ra, c.jr, c.jalr, mret
.irp tk, a32, u32, ac, uc
.irp at2, 0, 1
  XF "\op\()_\tk\()_at\at2", \op, \tk, \at2
.endr
.endr
.endr

  /* not taken */
  BEGIN; beq a2, x0, 1f; 1: END("beq_nt")
  BEGIN; RVC_ON; c.beqz a2, 1f; 1: RVC_POP; END("c.beqz_nt")
  BEGIN; RVC_ON; c.nop; RVC_POP; RVC_OFF; bne a2, a2, 1f; 1: RVC_POP; END("c.nop+bne_nt_at2")
  /* a 32-bit target at 2m4 followed by more 32-bit instructions */
  BEGIN; RVC_ON; c.j 1f; c.nop; 1: .option norvc; addi t1, t1, 1; addi t1, t1, 1; addi t1, t1, 1; RVC_POP; END("c.j_to_2m4_32x3")
  BEGIN; RVC_ON; c.j 1f; .word 0; 1: .option norvc; addi t1, t1, 1; addi t1, t1, 1; RVC_POP; END("c.j_to_2m4_32x2")
  /* taken branch to a taken branch, jump chains */
  BEGIN; RVC_OFF; beq x0, x0, 1f; .word 0; 1: beq x0, x0, 2f; .word 0; 2: RVC_POP; END("beq;beq_chain")
  BEGIN; RVC_ON; c.j 1f; c.nop; 1: c.j 2f; c.nop; 2: RVC_POP; END("c.j;c.j_chain_2m4")
  BEGIN; RVC_OFF; jal x0, 1f; .word 0; 1: beq x0, x0, 2f; .word 0; 2: RVC_POP; END("jal;beq_chain")
  /* backward loop: 10 iterations of addi + bnez */
  li t1, 10
  BEGIN; 1: addi t1, t1, -1; bnez t1, 1b; END("loop10_c.bnez")
  li t1, 10
  BEGIN; RVC_OFF; 1: addi t1, t1, -1; bne t1, x0, 1b; RVC_POP; END("loop10_bne32")
  li a0, 10
  BEGIN; RVC_ON; c.nop; 1: .option norvc; addi a0, a0, -1; .option rvc; c.bnez a0, 1b; RVC_POP; END("loop10_target32_2m4")
  /* call / return */
  BEGIN; call fn1; END("call_ret")
  BEGIN; call fn2; END("call_ret_2m4")
  HALT
  ALIGN4
fn1: ret
  ALIGN4
  RVC_ON
  c.nop
  RVC_POP
fn2: RVC_OFF; jalr x0, 0(ra); RVC_POP
