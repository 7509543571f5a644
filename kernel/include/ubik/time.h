/* Ubik: the system clock. */
#ifndef UBIK_TIME_H
#define UBIK_TIME_H

#include "ubik/types.h"

uk_tick_t uk_time(void);   /* ticks since uk_start() ([kernel] tick_start at the start) */
uint32_t uk_tick_hz(void); /* the tick rate */

/* Milliseconds to ticks at uk_tick_hz(), rounded up: the ticks that span at least `ms` (for
 * periods and delays: uk_task_sleep_until, uk_timer_start). Saturates at UK_FOREVER - 1, so
 * a large value never wraps to a short time nor becomes UK_FOREVER. */
uk_tick_t uk_ms_to_ticks(uint32_t ms);
/* A timeout (or sleep) that never ends before `ms` milliseconds have passed: a wait of n ticks
 * ends at the n-th tick boundary, which may come at once after the call, so this is
 * uk_ms_to_ticks(ms) + 1 (0 stays UK_NO_WAIT; saturates at UK_FOREVER - 1). */
uk_tick_t uk_ms_timeout(uint32_t ms);

#endif
