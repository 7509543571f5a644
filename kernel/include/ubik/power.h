/* Dynamic power management: the DPM policies of the UbiFOS paper (its Table 1). Each task has
 * a power class; a policy maps the class of the task that runs -- and the idle state -- to an
 * operating point of the clock and power controller (the machine file's [[opp]] table: 0 is
 * the fastest). The kernel selects the point whenever it switches tasks.
 *
 *   policy        high   normal  low   idle     (operating point index)
 *   DEFAULT         0      0      0     0       always full speed
 *   IDLE            0      0      0     2       idle scaling: slow only when idle
 *   LS0             0      0      1     2       load scaling (UbiFOS "LS399")
 *   LS1             0      1      2     2       ("LS266")
 *   LS2             0      2      2     2       ("LS96")
 *
 * Whether a point also lowers the voltage (DVFS) or only the frequency is the machine file's
 * business (its [[opp]] volts). Indices beyond the machine's table use its slowest point. */
#ifndef UBIK_POWER_H
#define UBIK_POWER_H

#include "ubik/types.h"

typedef enum {
    UK_POWER_NORMAL = 0, /* the default class */
    UK_POWER_HIGH = 1,   /* "Task+": always at full speed */
    UK_POWER_LOW = 2,    /* "Task-": background work */
} uk_power_class_t;

typedef enum {
    UK_POWER_DEFAULT = 0,
    UK_POWER_IDLE = 1,
    UK_POWER_LS0 = 2,
    UK_POWER_LS1 = 3,
    UK_POWER_LS2 = 4,
} uk_power_policy_t;

struct uk_task;
/* UK_OK, or UK_EINVAL for a bad task or class. Takes effect at the task's next switch-in. */
int uk_task_set_power_class(struct uk_task *t, uk_power_class_t cls);
/* Select the policy (the default is [power] policy of system.toml, else UK_POWER_DEFAULT).
 * UK_OK, UK_EINVAL for an unknown policy, UK_EPERM from a LISR. */
int uk_power_set_policy(uk_power_policy_t policy);
uk_power_policy_t uk_power_policy(void);
/* The operating point the kernel last selected. */
unsigned uk_power_opp(void);

#endif
