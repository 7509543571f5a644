/* Ubik as a guest of the hypervisor (hv/, docs/hypervisor.md): the kernel's inline
 * architecture operations (kernel/arch/arch.h) on the virtual CPU page. The kernel lock is the
 * software interrupt's enable (soft_enable, as mie.MSIE on the machine), interrupts are
 * `ie`, fast line i is enable bit 16 + i (the hypervisor routes the lines the partition owns),
 * the tail is raised by `msip`; the timer's compare and waiting for an interrupt are
 * hypercalls. A guest has no power control. */
#ifndef UBIK_ARCH_RV32_GUEST_IMPL_H
#define UBIK_ARCH_RV32_GUEST_IMPL_H

#include "arch_irq_impl.h"
#include "bsp/bsp.h"
#include "bsp/mmio.h"
#include <stdbool.h>
#include <stdint.h>

#define UK_ARCH_IRQ_LINES INTC_FAST_LINES

static inline __attribute__((always_inline)) bool uk__arch_irqs_off(void)
{
    return !(hv_vcpu.ie & HV_IE);
}

static inline __attribute__((always_inline)) unsigned uk__arch_lock(void)
{
    unsigned e = hv_vcpu.soft_enable;
    hv_vcpu.soft_enable = 0;
    __asm__ volatile("" ::: "memory");
    return e & HV_IRQ_SOFT;
}

static inline __attribute__((always_inline)) void uk__arch_unlock(unsigned key)
{
    __asm__ volatile("" ::: "memory");
    if (key) {
        hv_vcpu.soft_enable = HV_IRQ_SOFT;
        if (hv_vcpu.msip && (hv_vcpu.ie & HV_IE))
            hv_call(HV_SYNC, 0, 0, 0, 0);
    }
}

static inline __attribute__((always_inline)) bool uk__arch_lock_held(void)
{
    return !(hv_vcpu.soft_enable & HV_IRQ_SOFT);
}

static inline __attribute__((always_inline)) void uk__arch_tail_raise(void)
{
    hv_vcpu.msip = 1;
    __asm__ volatile("" ::: "memory");
    if ((hv_vcpu.soft_enable & HV_IRQ_SOFT) && (hv_vcpu.ie & HV_IE))
        hv_call(HV_SYNC, 0, 0, 0, 0);
}

static inline __attribute__((always_inline)) void uk__arch_irq_line_enable(unsigned line)
{
    hv_vcpu.enable |= HV_IRQ_LINE(line);
}

/* Interrupts are disabled by the caller: nothing is delivered until they are enabled. */
static inline __attribute__((always_inline)) void uk__arch_irq_lines_mask(uint32_t lines)
{
    hv_vcpu.enable &= ~(lines << 16);
}

static inline __attribute__((always_inline)) void uk__arch_irq_lines_unmask(uint32_t lines)
{
    hv_vcpu.enable |= lines << 16;
}

static inline __attribute__((always_inline)) void uk__arch_wait_for_interrupt(void)
{
    hv_call(HV_IDLE, 0, 0, 0, 0);
}

static inline __attribute__((always_inline)) uintptr_t uk__arch_sp(void)
{
    uintptr_t sp;
    __asm__("mv %0, sp" : "=r"(sp));
    return sp;
}

static inline __attribute__((always_inline)) unsigned uk__arch_opp_count(void) { return 0; }

static inline __attribute__((always_inline)) void uk__arch_opp_select(unsigned opp) { (void)opp; }

static inline __attribute__((always_inline)) unsigned uk__arch_opp_selected(void) { return 0; }

static inline __attribute__((always_inline)) void uk__arch_compare_set(uint64_t at)
{
    hv_call(HV_TIMER, (long)(uint32_t)at, (long)(uint32_t)(at >> 32), 0, 0);
}

static inline __attribute__((always_inline)) void uk__arch_compare_move(uint64_t at)
{
    uk__arch_compare_set(at);
}

static inline __attribute__((always_inline)) void uk__arch_timer_unmask(void)
{
    hv_vcpu.enable |= HV_IRQ_TIMER;
    if ((hv_vcpu.pending & HV_IRQ_TIMER) && (hv_vcpu.ie & HV_IE))
        hv_call(HV_SYNC, 0, 0, 0, 0);
}

/* The LISR entry (switch.S) switches to this stack. */
extern uint32_t *uk__guest_irq_sp;
static inline __attribute__((always_inline)) void uk__arch_irq_stack_set(uint32_t *top)
{
    uk__guest_irq_sp = top;
}

static inline __attribute__((always_inline)) void uk__arch_tail_clear(void) { hv_vcpu.msip = 0; }

/* The fatal report: "ubik: fatal: WHAT NAME" (WHAT alone for a NULL name) on the BSP's
 * console, then the system stops with exit_code. */
static inline __attribute__((always_inline, noreturn)) void
uk__arch_fatal(const char *what, const char *name, int exit_code)
{
    bsp_printf("ubik: fatal: %s%s%s\n", what, name ? " " : "", name ? name : "");
    bsp_exit(exit_code);
}

#endif
