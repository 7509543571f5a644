/* The reference board (the Ubik reference MCU, bare metal in M-mode): what bsp/bsp.h leaves to
 * the board - interrupts, the timer's compare, the performance counters, the console character
 * and the halt - on the core's CSRs and the machine's devices.
 *
 * Included by bsp/bsp.h only (include that): the build chooses the board by its include
 * directory, bsp/reference/include (bsp/bsp.mk: BSP_BOARD; `ubik build`: every machine image
 * and the hypervisor), as bsp/guest/include chooses a hypervisor guest's.
 */
#ifndef BSP_BOARD_H
#define BSP_BOARD_H

#include <stdint.h>

#include "bsp/csr.h"
#include "bsp/mmio.h"

/* ---- Interrupts -------------------------------------------------------------------- */

static inline void bsp_irq_enable(void) { csr_set(mstatus, MSTATUS_MIE); }
static inline void bsp_irq_disable(void) { csr_clear(mstatus, MSTATUS_MIE); }
/* Disables interrupts, returns the previous state for bsp_irq_restore. */
static inline uint32_t bsp_irq_save(void)
{
    return csr_read_clear(mstatus, MSTATUS_MIE) & MSTATUS_MIE;
}
static inline void bsp_irq_restore(uint32_t key)
{
    if (key)
        csr_set(mstatus, MSTATUS_MIE);
}
static inline void bsp_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }

static inline void bsp_soft_irq_enable(void) { csr_set(mie, MIE_MSIE); }
static inline void bsp_soft_irq_raise(void) { MMIO32(INTC_MSIP) = 1; }
static inline void bsp_soft_irq_clear(void) { MMIO32(INTC_MSIP) = 0; }

/* Fast lines: enabled in both the interrupt controller and mie. */
static inline void bsp_fast_irq_enable(unsigned line)
{
    MMIO32(INTC_ENABLE) |= 1u << line;
    csr_set(mie, MIE_FAST(line));
}
static inline void bsp_fast_irq_disable(unsigned line)
{
    csr_clear(mie, MIE_FAST(line));
    MMIO32(INTC_ENABLE) &= ~(1u << line);
}
static inline void bsp_fast_irq_ack(unsigned line) { MMIO32(INTC_ACK) = 1u << line; }
/* Latch fast line `line` from software, as a source would (it reaches the core if enabled). */
static inline void bsp_fast_irq_raise(unsigned line) { MMIO32(INTC_SET) = 1u << line; }

/* ---- Machine timer's compare --------------------------------------------------------- */

/* Sets mtimecmp without a spurious match between the two halves; clears a pending timer interrupt. */
static inline void bsp_timer_set_compare(uint64_t when)
{
    MMIO32(TIMER_MTIMECMP) = 0xFFFFFFFFu;
    MMIO32(TIMER_MTIMECMPH) = (uint32_t)(when >> 32);
    MMIO32(TIMER_MTIMECMP) = (uint32_t)when;
}

static inline void bsp_timer_irq_enable(void) { csr_set(mie, MIE_MTIE); }
static inline void bsp_timer_irq_disable(void) { csr_clear(mie, MIE_MTIE); }

/* ---- Performance counters ------------------------------------------------------------ */

/* The machine-level counters, which M-mode may read and change. */
#define BSP_CYCLE mcycle
#define BSP_CYCLEH mcycleh
#define BSP_INSTRET minstret
/* Lets mcycle and minstret count (clears mcountinhibit, CSR 0x320). */
static inline void bsp_counters_enable(void) { csr_write(0x320, 0); }

/* ---- Console character and halt (bsp/src/console.c, bsp/src/exit.c) ------------------ */

/* One character to SIMCTRL.CHAR_OUT: stdout of `ubik run`. */
static inline void bsp_board_putc(char c) { MMIO32(SIMCTRL_CHAR_OUT) = (uint8_t)c; }
/* Before bsp_exit halts the machine through SIMCTRL.CTRL: nothing to do on this board. */
static inline void bsp_board_before_halt(int code) { (void)code; }

#endif /* BSP_BOARD_H */
