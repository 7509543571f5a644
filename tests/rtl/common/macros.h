/* Ubik RTL differential tests: helpers for the Ibex simple_system memory map.
   Our own code (not from the Ibex repository). */
/* Assembly, which clang-format does not know: */
/* clang-format off */
#define SIMCTRL_OUT  0x20000
#define SIMCTRL_CTRL 0x20008
#define TIMER_BASE   0x30000
#define MTIME        0x30000
#define MTIMEH       0x30004
#define MTIMECMP     0x30008
#define MTIMECMPH    0x3000C

/* padding that never silently disappears under .option norvc */
#define ALIGN4   .option push; .option rvc; .balign 4; .option pop
#define ALIGN2M4 ALIGN4; .option push; .option rvc; c.nop; .option pop
#define RVC_ON   .option push; .option rvc
#define RVC_OFF  .option push; .option norvc
#define RVC_POP  .option pop
/* cost measurement: value printed = mcycle(END) - mcycle(BEGIN); empty pair = 1 */
#define BEGIN    ALIGN4; csrr s0, mcycle
#define END(name) csrr s1, mcycle; sub s1, s1, s0; PRINT name, s1

/* halt: write 1 to SIMCTRL.CTRL */
.macro HALT
  li t6, SIMCTRL_CTRL
  li t5, 1
  sw t5, 0(t6)
1: j 1b
.endm

/* print "name=" then 0x%08x of reg and a newline. Clobbers a0,a1,ra,t3-t6 */
.macro PRINT name, reg
  .pushsection .rodata
  .Lstr\@: .asciz "\name="
  .popsection
  mv a1, \reg
  la a0, .Lstr\@
  jal ra, puts
  mv a0, a1
  jal ra, puthex
.endm

/* print a string followed by a newline. Clobbers a0,ra,t3,t4 */
.macro SAY text
  .pushsection .rodata
  .Lsay\@: .asciz "\text\n"
  .popsection
  la a0, .Lsay\@
  jal ra, puts
.endm

/* vector table (vectored mode): 0 -> exc_handler, 7 -> timer_handler, others -> other_handler */
.macro VECTORS
  .section .vectors, "ax"
  .option push
  .option norvc
  .balign 4
  j exc_handler
  .rept 6
  j other_handler
  .endr
  j timer_handler
  .rept 24
  j other_handler
  .endr
  .option pop
.endm

/* every program: vectors, then _start at 0x100080 */
.macro START
  VECTORS
  .section .text.start, "ax"
  .global _start
_start:
  li sp, 0x00180000
.endm
