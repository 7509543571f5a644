/* dev_timer.c with [timer] timebase = "cycle" (dev_timer_cycle.machine.toml). */
#define TIMEBASE_CYCLE 1
#include "dev_timer.c"
