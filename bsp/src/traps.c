/* Weak default C trap handlers: a trap nobody handles is reported and halts the machine. */
#include "bsp/bsp.h"

static const char *exception_name(uint32_t code)
{
    switch (code) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store address misaligned";
    case 7: return "store access fault";
    case 11: return "ecall from M-mode";
    default: return "exception";
    }
}

void bsp_unhandled_trap(uint32_t mcause, uintptr_t mepc, uint32_t mtval)
{
    uint32_t code = mcause & MCAUSE_CODE_MASK;
    if (mcause & MCAUSE_INTERRUPT)
        bsp_printf("bsp: unhandled interrupt: mcause=0x%08x (%s) mepc=0x%08x\n", (unsigned)mcause,
                   code == MCAUSE_IRQ_TIMER      ? "timer"
                   : code == MCAUSE_IRQ_SOFTWARE ? "software"
                   : code >= 16 && code <= 30    ? "fast line"
                                                 : "other",
                   (unsigned)mepc);
    else
        bsp_printf("bsp: unhandled exception: mcause=0x%08x (%s) mepc=0x%08x mtval=0x%08x\n",
                   (unsigned)mcause, exception_name(code), (unsigned)mepc, (unsigned)mtval);
    bsp_exit(BSP_EXIT_UNHANDLED_TRAP);
}

__attribute__((weak)) uintptr_t bsp_exception_handler(uint32_t mcause, uintptr_t mepc,
                                                      uint32_t mtval)
{
    bsp_unhandled_trap(mcause, mepc, mtval);
}

__attribute__((weak)) void bsp_timer_handler(void)
{
    bsp_unhandled_trap(MCAUSE_INTERRUPT | MCAUSE_IRQ_TIMER, csr_read(mepc), 0);
}

__attribute__((weak)) void bsp_software_handler(void)
{
    bsp_unhandled_trap(MCAUSE_INTERRUPT | MCAUSE_IRQ_SOFTWARE, csr_read(mepc), 0);
}

__attribute__((weak)) void bsp_fast_irq_handler(unsigned line)
{
    bsp_unhandled_trap(MCAUSE_INTERRUPT | MCAUSE_IRQ_FAST(line), csr_read(mepc), 0);
}
