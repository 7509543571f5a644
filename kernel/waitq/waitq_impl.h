/* Ubik: the wait-queue and delay back end of the compiled-in policy (the contract is
 * kernel/src/kernel_waitq.h). A back end lives in kernel/waitq/<name>/ and provides
 * waitq_impl.h (C: its inline half and the declarations of its out-of-line functions) and
 * delay_tick.inc (assembler: the timer's short path, both ports' switch.S). The policy's
 * properties choose it, as arch.h chooses a port: uk_config.h's UK_POLICY_RTM (the policy
 * keeps its tasks in the hardware task manager) takes the RTM's, anything else the software
 * one. This file and delay_tick.inc are the only places that name a back end. */
#ifndef UBIK_WAITQ_IMPL_H
#define UBIK_WAITQ_IMPL_H

#if defined(UK_POLICY_RTM) && UK_POLICY_RTM
#include "rtm/waitq_impl.h" /* kernel/sched/rtm.c: queues and delays in the RTM's records */
#else
#include "soft/waitq_impl.h" /* ordered lists and the delta list (wait.c, time.c) */
#endif

#endif
