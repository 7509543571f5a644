/* Ubik internal interfaces (uk__* names): shared by the kernel's services, its scheduler
 * policies and its architecture layer. Not for applications. The umbrella of the private
 * headers, one per concern; the architecture interface is kernel/arch/arch.h. */
#ifndef UBIK_KERNEL_H
#define UBIK_KERNEL_H

#include "kernel_config.h"   /* configuration, code sections, magic numbers, policy properties */
#include "kernel_checks.h"   /* the debug kernel's invariant checks */
#include "kernel_task.h"     /* kernel state, scheduling core, HISRs, stacks */
#include "kernel_irq.h"      /* interrupt context, the kernel lock, deferred calls */
#include "kernel_list.h"     /* lists */
#include "kernel_sched.h"    /* the scheduler policy interface */
#include "kernel_wait.h"     /* wait queues, mutex priority inheritance hooks */
#include "kernel_time.h"     /* delayed tasks, the tick */
#include "kernel_services.h" /* what the services share */
#include "kernel_power.h"    /* dynamic power management */

#endif
