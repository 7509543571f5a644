/* Interrupts: the LISR table, dispatch from the trap entry, masking by line. */
#include "kernel.h"
#include "bsp/mmio.h"

#define FAST_LINES 15
static void (*lisr_table[FAST_LINES])(unsigned line);
static uint32_t spurious;

UK_OTHER_FN(uk_irq_install) int uk_irq_install(unsigned line, void (*lisr)(unsigned line))
{
    if (line >= FAST_LINES || !lisr)
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    lisr_table[line] = lisr;
    MMIO32(INTC_ENABLE) |= 1u << line;
    __asm__ volatile(UK_ASM_ZICSR("csrs mie, %0") : : "r"(1u << (16 + line)));
    uk_irq_restore(key);
    return UK_OK;
}

UK_OTHER_FN(uk_irq_mask) int uk_irq_mask(uint32_t lines)
{
    if (lines >> FAST_LINES)
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    MMIO32(INTC_ENABLE) &= ~lines;
    uk_irq_restore(key);
    return UK_OK;
}

UK_OTHER_FN(uk_irq_unmask) int uk_irq_unmask(uint32_t lines)
{
    if (lines >> FAST_LINES)
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    MMIO32(INTC_ENABLE) |= lines;
    uk_irq_restore(key);
    return UK_OK;
}

UK_OTHER_FN(uk_in_isr) bool uk_in_isr(void)
{
    return uk__isr_depth != 0 || uk__current_hisr != 0;
}

/* Called by the trap entry for every interrupt, IRQs disabled, on the interrupted stack. */
UK_OTHER_FN(uk__irq_dispatch) void uk__irq_dispatch(uint32_t mcause)
{
    uint32_t cause = mcause & 31;
    uk__isr_depth++;
    if (cause == 7) {
        uk__arch_timer_ack();
        uk__tick();
    } else if (cause >= 16 && cause < 16 + FAST_LINES) {
        unsigned line = cause - 16;
        MMIO32(INTC_ACK) = 1u << line;
        if (lisr_table[line])
            lisr_table[line](line);
        else
            spurious++;
    } else if (cause == 3) {
        MMIO32(INTC_MSIP) = 0;
    }
    uk__isr_depth--;
    uk__irq_exit();
}
