/* A program that ends in a wfi that can never wake (mie = 0): the RTL sleeps with mcycle frozen
   until the simulation is stopped; its final mcycle counts the wfi's cycles before the clock gate. */
#include "macros.h"
  START
  csrw mie, x0
  SAY "sleeping"
  ALIGN4
  nop
  wfi
  SAY "woke (must not happen)"
  HALT
