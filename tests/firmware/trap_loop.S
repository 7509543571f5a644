/* A firmware that traps forever at one PC: main executes an illegal
 * instruction and the exception entry returns to it with a bare mret. The
 * testbed must stop it as a machine fault (exit 71). */

    .text
    .globl bsp_vector_exception         /* replaces the BSP's default entry */
bsp_vector_exception:
    mret                                /* mepc still points at the faulting instruction */

    .globl main
main:
    .option push
    .option norvc
    unimp                               /* illegal instruction (csrrw x0, cycle, x0) */
    .option pop
    ret
