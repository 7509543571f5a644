/* Ubik internals: the delta list of delayed tasks and the tick (time.c). */
#ifndef UBIK_KERNEL_TIME_H
#define UBIK_KERNEL_TIME_H

#include "kernel_config.h"

/* ---- Time (time.c) -------------------------------------------------------------------- */

void uk__delay_insert(uk_task_t *t, uk_tick_t ticks); /* into the delta list */
void uk__delay_remove(uk_task_t *t);
void uk__tick(void);                                  /* from the kernel tail */

#endif
