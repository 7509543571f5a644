/* Ubik internals: dynamic power management (power.c). */
#ifndef UBIK_KERNEL_POWER_H
#define UBIK_KERNEL_POWER_H

#include "kernel_config.h"

/* ---- Dynamic power management (power.c) ---------------------------------------------- */
#ifdef UK_FEATURE_POWER
extern uint8_t uk__power_on;                  /* a policy other than DEFAULT is selected */
void uk__power_switch(const uk_task_t *next); /* select next's operating point (lock held) */
void uk__power_start(const uk_task_t *first); /* uk_start: first's point, whatever the policy */
#define UK_POWER_SWITCH(next)       \
    do {                            \
        if (uk__power_on)           \
            uk__power_switch(next); \
    } while (0)
#define UK_POWER_START(first) uk__power_start(first)
#else
#define UK_POWER_SWITCH(next) ((void)0)
#define UK_POWER_START(first) ((void)0)
#endif

#endif
