/* Ubik: the system clock. */
#ifndef UBIK_TIME_H
#define UBIK_TIME_H

#include "ubik/types.h"

uk_tick_t uk_time(void);     /* ticks since uk_start() */
uint32_t uk_tick_hz(void);   /* the tick rate */

#endif
