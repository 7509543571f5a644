/* Ubik on RV32 (the reference MCU): the kernel's inline architecture operations
 * (kernel/arch/arch.h). The kernel lock is mie.MSIE (the machine software interrupt is the
 * kernel's tail), interrupts are mstatus.MIE, fast line i is mie bit 16 + i behind the INTC's
 * enable bit i, and the operating point is the POWER block's OPP_SELECT. */
#ifndef UBIK_ARCH_RV32_IMPL_H
#define UBIK_ARCH_RV32_IMPL_H

#include "arch_irq_impl.h"
#include "bsp/bsp.h"
#include "bsp/mmio.h"
#include <stdbool.h>
#include <stdint.h>

#define UK_ARCH_IRQ_LINES INTC_FAST_LINES

static inline __attribute__((always_inline)) bool uk__arch_irqs_off(void)
{
    unsigned s;
    __asm__ volatile(UK_ASM_ZICSR("csrr %0, mstatus") : "=r"(s));
    return !(s & 8);
}

static inline __attribute__((always_inline)) unsigned uk__arch_lock(void)
{
    unsigned key;
    __asm__ volatile(UK_ASM_ZICSR("csrrc %0, mie, %1") : "=r"(key) : "r"(8) : "memory");
    return key & 8;
}

static inline __attribute__((always_inline)) void uk__arch_unlock(unsigned key)
{
    __asm__ volatile(UK_ASM_ZICSR("csrs mie, %0") : : "r"(key) : "memory");
}

static inline __attribute__((always_inline)) bool uk__arch_lock_held(void)
{
    unsigned mie;
    __asm__ volatile(UK_ASM_ZICSR("csrr %0, mie") : "=r"(mie));
    return !(mie & 8);
}

static inline __attribute__((always_inline)) void uk__arch_tail_raise(void)
{
    MMIO32(INTC_MSIP) = 1;
}

static inline __attribute__((always_inline)) void uk__arch_irq_line_enable(unsigned line)
{
    MMIO32(INTC_ENABLE) |= 1u << line;
    __asm__ volatile(UK_ASM_ZICSR("csrs mie, %0") : : "r"(1u << (16 + line)));
}

static inline __attribute__((always_inline)) void uk__arch_irq_lines_mask(uint32_t lines)
{
    MMIO32(INTC_ENABLE) &= ~lines;
}

static inline __attribute__((always_inline)) void uk__arch_irq_lines_unmask(uint32_t lines)
{
    MMIO32(INTC_ENABLE) |= lines;
}

static inline __attribute__((always_inline)) void uk__arch_wait_for_interrupt(void)
{
    __asm__ volatile("wfi");
}

static inline __attribute__((always_inline)) uintptr_t uk__arch_sp(void)
{
    uintptr_t sp;
    __asm__("mv %0, sp" : "=r"(sp));
    return sp;
}

static inline __attribute__((always_inline)) unsigned uk__arch_opp_count(void)
{
    return MMIO32(POWER_OPP_COUNT);
}

static inline __attribute__((always_inline)) void uk__arch_opp_select(unsigned opp)
{
    MMIO32(POWER_OPP_SELECT) = opp;
}

static inline __attribute__((always_inline)) unsigned uk__arch_opp_selected(void)
{
    return MMIO32(POWER_OPP_SELECT);
}

static inline __attribute__((always_inline)) void uk__arch_compare_set(uint64_t at)
{
    MMIO32(TIMER_MTIMECMPH) = 0xFFFFFFFFu; /* no spurious match while the halves change */
    MMIO32(TIMER_MTIMECMP) = (uint32_t)at;
    MMIO32(TIMER_MTIMECMPH) = (uint32_t)(at >> 32);
}

/* The low half first; the interrupt is masked meanwhile, so the half-written value is never
 * acted on, and the high half only when it changes. */
static inline __attribute__((always_inline)) void uk__arch_compare_move(uint64_t at)
{
    MMIO32(TIMER_MTIMECMP) = (uint32_t)at;
    if ((uint32_t)(at >> 32) != MMIO32(TIMER_MTIMECMPH))
        MMIO32(TIMER_MTIMECMPH) = (uint32_t)(at >> 32);
}

static inline __attribute__((always_inline)) void uk__arch_timer_unmask(void)
{
    __asm__ volatile(UK_ASM_ZICSR("csrs mie, %0") : : "r"(1u << 7));
}

/* mscratch holds the interrupt stack's top while no LISR runs: the fast-line entry swaps it
 * with sp in one instruction (switch.S). */
static inline __attribute__((always_inline)) void uk__arch_irq_stack_set(uint32_t *top)
{
    __asm__ volatile(UK_ASM_ZICSR("csrw mscratch, %0") : : "r"(top));
}

static inline __attribute__((always_inline)) void uk__arch_tail_clear(void)
{
    MMIO32(INTC_MSIP) = 0;
}

/* The fatal report: "ubik: fatal: WHAT NAME" (WHAT alone for a NULL name) on the BSP's
 * console, then the system stops with exit_code. */
static inline __attribute__((always_inline, noreturn)) void
uk__arch_fatal(const char *what, const char *name, int exit_code)
{
    bsp_printf("ubik: fatal: %s%s%s\n", what, name ? " " : "", name ? name : "");
    bsp_exit(exit_code);
}

#endif
