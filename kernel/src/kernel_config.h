/* Ubik internals: the build configuration (kernel_defaults.h), the kernel's code sections,
 * object magic numbers and the properties of the compiled-in scheduler policy. */
#ifndef UBIK_KERNEL_CONFIG_H
#define UBIK_KERNEL_CONFIG_H

#include "ubik/ubik.h"
#include "kernel_defaults.h" /* uk_config.h, and the defaults of what it leaves out */

/* The scheduler policy. Whoever picks one (uk_config.h, which the host tests use too) defines
 * UK_CONFIG_SCHED_NAME with its UK_CONFIG_SCHED_<NAME>; only a build that picks none gets
 * "prio". Keyed on the name rather than on a list of the other policies' macros, so that a
 * new policy needs no edit here. */
#ifndef UK_CONFIG_SCHED_NAME
#define UK_CONFIG_SCHED_NAME "prio"
#define UK_CONFIG_SCHED_PRIO 1
#endif

/* Kernel code goes into the sections the testbed attributes cycles by (docs/contract.md),
 * one section per function (.text.uk_ipc.uk_sem_give ...) so that the linker's garbage
 * collection drops every function an application does not use. */
#define UK_SCHED_FN(name) __attribute__((section(".text.uk_sched." #name)))
#define UK_TIME_FN(name) __attribute__((section(".text.uk_time." #name)))
#define UK_IPC_FN(name) __attribute__((section(".text.uk_ipc." #name)))
#define UK_OTHER_FN(name) __attribute__((section(".text.uk_other." #name)))

/* Argument and context checks of the kernel calls: UK_ARG_BAD(cond) is cond, the call
 * returning its error when it holds. The minimal profile ([kernel] profile = "minimal",
 * UK_CONFIG_PROFILE_MINIMAL) compiles them out: a call given a bad argument, or made from a
 * context it refuses (a LISR, before uk_start), is then undefined. */
#ifdef UK_CONFIG_PROFILE_MINIMAL
#define UK_ARG_BAD(cond) 0
#else
#define UK_ARG_BAD(cond) (cond)
#endif

#define UK_TASK_MAGIC 0x4b534154u /* "TASK" */
#define UK_SEM_MAGIC 0x4d455355u
#define UK_MUTEX_MAGIC 0x5854554du
#define UK_HISR_MAGIC 0x52534948u
#define UK_STACK_CANARY 0xC0DEFACEu

/* Exit code of the fatal report (stack overflow, corrupted kernel state). */
#define UK_EXIT_FATAL 60

/* Properties of the compiled-in policy the core relies on: the number of priorities (the
 * lowest, UK_PRIOS - 1, is the idle task's), whether base priorities are unique (the
 * policy then claims a priority for its task at create/set_prio and releases it at delete)
 * whether it counts time slices at every tick (if not, most ticks need no tail) and whether
 * it orders tasks by deadline (uk_task_sleep_until then sets each release's deadline).
 * uk_config.h carries them from the policy's row of sysdesc::POLICIES; a build without one
 * has the default policy's. */
#ifdef UK_POLICY_PRIOS
#define UK_PRIOS UK_POLICY_PRIOS
#define UK_SCHED_UNIQUE_PRIOS UK_POLICY_UNIQUE_PRIOS
#define UK_SCHED_TIME_SLICES UK_POLICY_TIME_SLICES
#ifdef UK_POLICY_DEADLINES
#define UK_SCHED_DEADLINES UK_POLICY_DEADLINES
#endif
#else
#define UK_PRIOS 256
#define UK_SCHED_UNIQUE_PRIOS 0
#define UK_SCHED_TIME_SLICES 1 /* unknown: the tail processes every tick */
#endif
#ifndef UK_SCHED_DEADLINES
#define UK_SCHED_DEADLINES 0
#endif
#define UK_IDLE_PRIO (UK_PRIOS - 1)

#define UK_QUEUE_MAGIC 0x55455551u
#define UK_PORT_MAGIC 0x54524f50u
#define UK_FLAGS_MAGIC 0x47414c46u
#define UK_TIMER_MAGIC 0x524d4954u
#define UK_POOL_MAGIC 0x4c4f4f50u
#define UK_HEAP_MAGIC 0x50414548u

#endif
