/* The hypervisor guest board (a partition of hv/, in U-mode; docs/hypervisor.md): what
 * bsp/bsp.h leaves to the board - interrupts, the timer's compare, the performance counters, the
 * console character and the halt - on the virtual CPU page and by hypercall (include/hv/abi.h).
 * The hypervisor acknowledges a line as it delivers it.
 *
 * Included by bsp/bsp.h only (include that): `ubik build` chooses this board for a partition by
 * its include directory, bsp/guest/include, in place of bsp/reference/include.
 */
#ifndef BSP_BOARD_H
#define BSP_BOARD_H

#include <stdint.h>

#include "bsp/csr.h"
#include "hv/abi.h"

/* For the few applications that must tell the boards apart (a test's timing slack). */
#define BSP_GUEST 1

/* The virtual CPU page (bsp/guest/src/hv_vcpu.c registers it with the hypervisor). */
extern struct hv_vcpu hv_vcpu;

/* ---- Interrupts -------------------------------------------------------------------- */

/* Enabling something may make a pending interrupt deliverable: ask the hypervisor then. */
static inline void bsp_guest_sync_(void)
{
    if ((hv_vcpu.ie & HV_IE) && ((hv_vcpu.pending | (hv_vcpu.msip ? HV_IRQ_SOFT : 0)) &
                                 (hv_vcpu.enable | hv_vcpu.soft_enable)))
        hv_call(HV_SYNC, 0, 0, 0, 0);
}
static inline void bsp_irq_enable(void)
{
    hv_vcpu.ie = HV_IE;
    bsp_guest_sync_();
}
static inline void bsp_irq_disable(void) { hv_vcpu.ie = 0; }
static inline uint32_t bsp_irq_save(void)
{
    uint32_t k = hv_vcpu.ie;
    hv_vcpu.ie = 0;
    return k & HV_IE;
}
static inline void bsp_irq_restore(uint32_t key)
{
    if (key)
        bsp_irq_enable();
}
static inline void bsp_wfi(void) { hv_call(HV_IDLE, 0, 0, 0, 0); }

static inline void bsp_soft_irq_enable(void)
{
    hv_vcpu.soft_enable = HV_IRQ_SOFT;
    bsp_guest_sync_();
}
static inline void bsp_soft_irq_raise(void)
{
    hv_vcpu.msip = 1;
    bsp_guest_sync_();
}
static inline void bsp_soft_irq_clear(void) { hv_vcpu.msip = 0; }

static inline void bsp_fast_irq_enable(unsigned line)
{
    hv_vcpu.enable |= HV_IRQ_LINE(line);
    bsp_guest_sync_();
}
static inline void bsp_fast_irq_disable(unsigned line) { hv_vcpu.enable &= ~HV_IRQ_LINE(line); }
static inline void bsp_fast_irq_ack(unsigned line) { (void)line; }
static inline void bsp_fast_irq_raise(unsigned line) { hv_call(HV_RAISE, (long)line, 0, 0, 0); }

/* ---- Machine timer's compare (the partition's own, kept by the hypervisor) ------------ */

static inline void bsp_timer_set_compare(uint64_t when)
{
    hv_call(HV_TIMER, (long)(uint32_t)when, (long)(uint32_t)(when >> 32), 0, 0);
}
static inline void bsp_timer_irq_enable(void)
{
    hv_vcpu.enable |= HV_IRQ_TIMER;
    bsp_guest_sync_();
}
static inline void bsp_timer_irq_disable(void) { hv_vcpu.enable &= ~HV_IRQ_TIMER; }

/* ---- Performance counters ------------------------------------------------------------ */

/* A guest runs in U-mode: it reads the user-level copies (cycle, instret), which the
 * hypervisor lets it read, and cannot change the counters. */
#define BSP_CYCLE cycle
#define BSP_CYCLEH cycleh
#define BSP_INSTRET instret
static inline void bsp_counters_enable(void) {}

/* ---- Console character and halt (bsp/src/console.c, bsp/src/exit.c) ------------------ */

/* The console is the hypervisor's. */
static inline void bsp_board_putc(char c) { hv_call(HV_PUTC, (uint8_t)c, 0, 0, 0); }
/* A guest stops its partition (the hypervisor does not return). */
static inline void bsp_board_before_halt(int code) { hv_call(HV_EXIT, code, 0, 0, 0); }

#endif /* BSP_BOARD_H */
