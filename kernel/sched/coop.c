/* Scheduler policy "coop": cooperative earliest deadline first -- edf.c's order, but the
 * running task is never preempted: it runs until it blocks, sleeps, yields or is suspended
 * (only the idle task is preempted). Interrupt handlers still run at once; what they make
 * ready waits for the running task to give the processor up. */
#define UK_EDF_COOPERATIVE 1
#include "edf.c"
