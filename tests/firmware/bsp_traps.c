/* The BSP's default trap entries: exceptions resume where the C handler says,
 * the caller-saved registers survive a trap, and the timer and software
 * interrupts reach their C handlers. */
#include "check.h"

static volatile uint32_t exc_count, exc_mcause, exc_mtval;
static volatile uintptr_t exc_mepc;
static volatile uint32_t timer_ticks, timer_mcause;
static volatile uint32_t soft_count, soft_mcause;

/* Records the trap and skips the instruction (2 or 4 bytes). */
uintptr_t bsp_exception_handler(uint32_t mcause, uintptr_t mepc, uint32_t mtval)
{
    exc_count++;
    exc_mcause = mcause;
    exc_mepc = mepc;
    exc_mtval = mtval;
    uint16_t low = *(volatile uint16_t *)mepc;
    return mepc + ((low & 3) == 3 ? 4 : 2);
}

void bsp_timer_handler(void)
{
    timer_mcause = csr_read(mcause);
    if (++timer_ticks < 3)
        bsp_timer_set_compare(bsp_timer_now() + 100);
    else
        bsp_timer_set_compare(~0ull);
}

void bsp_software_handler(void)
{
    soft_mcause = csr_read(mcause);
    soft_count++;
    bsp_soft_irq_clear();
}

static void test_ecall_preserves_registers(void)
{
    uint32_t saved[15];
    uintptr_t ecall_pc;
    __asm__ volatile("li a0, 0x1000\n\tli a1, 0x1001\n\tli a2, 0x1002\n\tli a3, 0x1003\n\t"
                     "li a4, 0x1004\n\tli a5, 0x1005\n\tli a6, 0x1006\n\tli a7, 0x1007\n\t"
                     "li t0, 0x2000\n\tli t1, 0x2001\n\tli t2, 0x2002\n\tli t3, 0x2003\n\t"
                     "li t4, 0x2004\n\tli t5, 0x2005\n\tli t6, 0x2006\n\t"
                     "1: ecall\n\t"
                     "sw a0, 0(%1)\n\tsw a1, 4(%1)\n\tsw a2, 8(%1)\n\tsw a3, 12(%1)\n\t"
                     "sw a4, 16(%1)\n\tsw a5, 20(%1)\n\tsw a6, 24(%1)\n\tsw a7, 28(%1)\n\t"
                     "sw t0, 32(%1)\n\tsw t1, 36(%1)\n\tsw t2, 40(%1)\n\tsw t3, 44(%1)\n\t"
                     "sw t4, 48(%1)\n\tsw t5, 52(%1)\n\tsw t6, 56(%1)\n\t"
                     "la %0, 1b\n\t"
                     : "=&r"(ecall_pc)
                     : "r"(saved)
                     : "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4",
                       "t5", "t6", "memory");
    CHECK_EQ(exc_count, 1);
    CHECK_EQ(exc_mcause, MCAUSE_ECALL_M);
    CHECK_EQ(exc_mepc, ecall_pc);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(saved[i], 0x1000 + i);
    for (int i = 0; i < 7; i++)
        CHECK_EQ(saved[8 + i], 0x2000 + i);
}

static void test_exceptions(void)
{
    exc_count = 0;
    __asm__ volatile(".option push\n\t.option rvc\n\tc.ebreak\n\t.option pop" ::: "memory");
    CHECK_EQ(exc_count, 1);
    CHECK_EQ(exc_mcause, MCAUSE_BREAKPOINT);

    __asm__ volatile(".option push\n\t.option norvc\n\tunimp\n\t.option pop" ::: "memory");
    CHECK_EQ(exc_count, 2);
    CHECK_EQ(exc_mcause, MCAUSE_ILLEGAL_INSN);
    CHECK_EQ(exc_mtval, 0xC0001073u); /* unimp = csrrw x0, cycle, x0: mtval = the instruction */

    volatile uint32_t *unmapped = (volatile uint32_t *)0x10; /* nothing is mapped there */
    __asm__("" : "+r"(unmapped)); /* hide the constant from -Warray-bounds */
    (void)unmapped[0];
    CHECK_EQ(exc_count, 3);
    CHECK_EQ(exc_mcause, MCAUSE_LOAD_ACCESS);
    CHECK_EQ(exc_mtval, 0x10);

    unmapped[1] = 1;
    CHECK_EQ(exc_count, 4);
    CHECK_EQ(exc_mcause, MCAUSE_STORE_ACCESS);
    CHECK_EQ(exc_mtval, 0x14);
}

static void test_timer_interrupt(void)
{
    bsp_timer_set_compare(bsp_timer_now() + 100);
    bsp_timer_irq_enable();
    bsp_irq_enable();
    while (timer_ticks < 3)
        bsp_wfi();
    bsp_irq_disable();
    bsp_timer_irq_disable();
    CHECK_EQ(timer_ticks, 3);
    CHECK_EQ(timer_mcause, MCAUSE_INTERRUPT | MCAUSE_IRQ_TIMER);
}

static void test_software_interrupt(void)
{
    bsp_soft_irq_enable();
    bsp_irq_enable();
    bsp_soft_irq_raise();
    for (int i = 0; i < 10 && soft_count == 0; i++)
        __asm__ volatile("nop");
    bsp_irq_disable();
    CHECK_EQ(soft_count, 1);
    CHECK_EQ(soft_mcause, MCAUSE_INTERRUPT | MCAUSE_IRQ_SOFTWARE);
    CHECK_EQ(MMIO32(INTC_MSIP), 0);
}

int main(void)
{
    test_ecall_preserves_registers();
    test_exceptions();
    test_timer_interrupt();
    test_software_interrupt();
    return check_result();
}
