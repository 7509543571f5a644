/* Ubik architecture interface: everything the kernel (kernel/src, kernel/sched) asks of the
 * processor and of the interrupt and power controllers. A port lives in kernel/arch/<port>/
 * (rv32/ on the machine; rv32-guest/, a guest of the hypervisor hv/) and provides:
 *
 * Inline, in <port>/arch_impl.h (and arch_irq_impl.h, the part public headers see:
 * arch_irq.h), because they sit on the kernel's fast paths:
 *   uk__arch_irq_disable, uk__arch_irq_restore   interrupts off/on at the core (arch_irq.h)
 *   uk__arch_yield_fast (optional)               the voluntary-switch fast path (arch_irq.h)
 *   bool uk__arch_irqs_off(void)                 interrupts are disabled: a LISR runs, or a
 *                                                task disabled them
 *   unsigned uk__arch_lock(void)                 take the kernel lock: mask the tail (the
 *                                                kernel's software interrupt) and nothing
 *                                                else; returns a key, nonzero if it was free
 *   void uk__arch_unlock(unsigned key)           unmask the tail if the key says it was free;
 *                                                a pending tail then runs at once
 *   bool uk__arch_lock_held(void)                the tail is masked (invariant checks)
 *   void uk__arch_tail_raise(void)               make the tail pending
 *   UK_ARCH_IRQ_LINES                            the interrupt lines LISRs attach to
 *   void uk__arch_irq_line_enable(unsigned line) let the line reach the core (install)
 *   void uk__arch_irq_lines_mask(uint32_t lines) mask / unmask lines at the interrupt
 *   void uk__arch_irq_lines_unmask(uint32_t)     controller (bit i = line i; interrupts are
 *                                                disabled by the caller)
 *   void uk__arch_wait_for_interrupt(void)       sleep until an interrupt (the idle task)
 *   uintptr_t uk__arch_sp(void)                  the current stack pointer (stack checks)
 *   unsigned uk__arch_opp_count(void)            the operating points (0: no power control)
 *   void uk__arch_opp_select(unsigned opp)       request operating point opp
 *   unsigned uk__arch_opp_selected(void)         the point last requested
 *   void uk__arch_compare_set(uint64_t at)       the timer's compare (the timer interrupt
 *                                                may be unmasked)
 *   void uk__arch_compare_move(uint64_t at)      the same, the timer interrupt masked
 *   void uk__arch_timer_unmask(void)             unmask the timer interrupt
 *   void uk__arch_irq_stack_set(uint32_t *top)   the stack LISRs enter on
 *   void uk__arch_tail_clear(void)               the tail no longer pending
 *   void uk__arch_fatal(what, name, exit_code)   the fatal report (uk__fatal): print
 *                                                "ubik: fatal: WHAT NAME", stop the system
 *                                                with exit_code; never returns
 *
 * Out of line, in the port's .c and .S files: the declarations below, and the trap entry,
 * which runs line i's LISR (uk__lisr_table[i]) on the interrupt stack and uk__tail for the
 * tail and for the tick (switch.S).
 */
#ifndef UBIK_ARCH_H
#define UBIK_ARCH_H

#include "ubik/task.h"
#include "arch_irq.h"
#include <stddef.h>
#include <stdint.h>

#if defined(UK_ARCH_HOST)
/* Host unit tests (tests/kernel/host/host_shim.h) define what they use themselves. */
#elif defined(UK_ARCH_RV32_GUEST)
#include "rv32-guest/arch_impl.h" /* a guest of the hypervisor (hv/) */
#elif defined(__riscv) && __riscv_xlen == 32
#include "rv32/arch_impl.h"
#endif

/* Save the callee-saved context on the current stack, store sp in *from, load to's context
 * and return into it. `from` and `to` point at the `sp` field (first) of a TCB or HISR. */
void uk__arch_switch(void **from, void **to);
/* Prepare a new task's stack so that switching to it runs uk__task_run(t). */
void uk__arch_task_init(uk_task_t *t);
/* Prepare a stack so that switching to `sp_holder` runs `fn(arg)`; returns the new sp. */
void *uk__arch_context_init(void *stack_base, size_t stack_bytes, void (*fn)(void *), void *arg);
void uk__arch_irq_stack_init(uint32_t *top); /* the stack the next LISR enters on */
void uk__arch_timer_start(uint32_t hz);      /* the tick: hz interrupts per second */
/* The tick was taken (the timer interrupt masked itself): set the next compare, unmask. */
void uk__arch_timer_ack(void);
void uk__arch_tail_ack(void); /* clear the tail's pending software interrupt */

#endif
