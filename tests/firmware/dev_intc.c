/* Interrupt controller (docs/machine.md, "Interrupt controller and stimuli"): a periodic stimulus (dev_intc.machine.toml) latches PENDING
 * whatever ENABLE says; writing PENDING has no effect; ACK clears; ENABLE holds
 * the 15 fast lines; a line reaches mip (bit 16 + line) only while PENDING and
 * ENABLE are both set; the core takes it through the vector table with mcause
 * 0x80000000 | (16 + line); of two simultaneous lines the lower is taken first;
 * SET latches lines from software; MSIP raises mcause 3; fast lines go before software, software before timer
 * (Ibex's priorities). Self-checking. */
#include "check.h"

#define LINE_A 2
#define LINE_B 5
#define LINE_C 9
#define MIP_FAST(l) (1u << (16 + (l)))
#define MIP_MSIP MIE_MSIE
#define MIP_MTIP MIE_MTIE

static volatile uint32_t log_mcause[16];
static volatile uint32_t log_line[16];
static volatile uint32_t log_n;

static void log_trap(uint32_t line)
{
    uint32_t n = log_n;
    if (n < 16) {
        log_mcause[n] = csr_read(mcause);
        log_line[n] = line;
    }
    log_n = n + 1;
}

void bsp_fast_irq_handler(unsigned line)
{
    log_trap(line);
    bsp_fast_irq_ack(line);
}

void bsp_software_handler(void)
{
    log_trap(100);
    bsp_soft_irq_clear();
}

void bsp_timer_handler(void)
{
    log_trap(200);
    bsp_timer_set_compare(~0ull);
}

static uint32_t wait_pending(uint32_t bits)
{
    for (int i = 0; i < 1000000; i++) {
        uint32_t p = MMIO32(INTC_PENDING);
        if (p & bits)
            return p;
    }
    return 0;
}

static void test_latch_ack(void)
{
    MMIO32(INTC_ENABLE) = 0;
    CHECK_EQ(MMIO32(INTC_ENABLE), 0);
    uint32_t p = wait_pending(1u << LINE_A);
    CHECK(p & (1u << LINE_A));
    /* latched but not enabled: the core does not see it */
    CHECK_EQ(csr_read(mip) & MIP_FAST(LINE_A), 0);
    /* no source on line 0: its bit stays clear */
    CHECK_EQ(MMIO32(INTC_PENDING) & 1u, 0);
    /* writing PENDING has no effect: neither clears nor sets */
    MMIO32(INTC_PENDING) = 0;
    CHECK(MMIO32(INTC_PENDING) & (1u << LINE_A));
    MMIO32(INTC_PENDING) = 0x7FFF;
    CHECK_EQ(MMIO32(INTC_PENDING) & 1u, 0);
    CHECK_EQ(MMIO32(INTC_PENDING) & (1u << 14), 0);
    /* ACK clears only the bits written as 1 */
    MMIO32(INTC_ACK) = 1u << 0;
    CHECK(MMIO32(INTC_PENDING) & (1u << LINE_A));
    MMIO32(INTC_ACK) = 1u << LINE_A;
    CHECK_EQ(MMIO32(INTC_PENDING) & (1u << LINE_A), 0);
    /* it latches again at the next period */
    p = wait_pending(1u << LINE_A);
    CHECK(p & (1u << LINE_A));
    /* enabled: the line reaches mip (registered: a few instructions later) */
    MMIO32(INTC_ENABLE) = 1u << LINE_A;
    __asm__ volatile("nop; nop");
    CHECK(csr_read(mip) & MIP_FAST(LINE_A));
    /* ACK lowers it */
    MMIO32(INTC_ACK) = 1u << LINE_A;
    __asm__ volatile("nop; nop");
    CHECK_EQ(csr_read(mip) & MIP_FAST(LINE_A), 0);
    MMIO32(INTC_ENABLE) = 0;
}

static void test_enable_register(void)
{
    MMIO32(INTC_ENABLE) = 0xFFFFFFFFu;
    CHECK_EQ(MMIO32(INTC_ENABLE), 0x7FFF); /* 15 fast lines */
    MMIO32(INTC_ENABLE) = 0x1234;
    CHECK_EQ(MMIO32(INTC_ENABLE), 0x1234);
    MMIO32(INTC_ENABLE) = 0;
    CHECK_EQ(MMIO32(INTC_ENABLE), 0);
    MMIO32(INTC_ACK) = 0x7FFF;
}

static void test_fast_irq(void)
{
    log_n = 0;
    MMIO32(INTC_ACK) = 0x7FFF;
    bsp_fast_irq_enable(LINE_A);
    bsp_irq_enable();
    /* 100 us of mtime (10 MHz): events at 5 + 20k us, so 5 of them */
    uint64_t end = bsp_timer_now() + 1000;
    while (bsp_timer_now() < end) {
    }
    bsp_irq_disable();
    bsp_fast_irq_disable(LINE_A);
    CHECK(log_n >= 4 && log_n <= 6);
    CHECK_EQ(log_mcause[0], MCAUSE_INTERRUPT | MCAUSE_IRQ_FAST(LINE_A));
    CHECK_EQ(log_mcause[0], 0x80000012u);
    CHECK_EQ(log_line[0], LINE_A);
    CHECK_EQ(log_line[log_n - 1], LINE_A);
}

/* Lines without a stimulus source (dev_intc.machine.toml drives 2, 5 and 9). */
#define SW_LO 7
#define SW_HI 11

/* SET latches lines from software: seen in PENDING, taken once if enabled (the handler's ACK
 * ends it), lower line first when two are set at once; reads 0. */
static void test_software_set(void)
{
    MMIO32(INTC_ACK) = 0x7FFF;
    MMIO32(INTC_ENABLE) = 0;
    bsp_fast_irq_raise(SW_HI);
    CHECK(MMIO32(INTC_PENDING) & (1u << SW_HI));
    CHECK_EQ(MMIO32(INTC_SET), 0);
    CHECK_EQ(csr_read(mip) & MIP_FAST(SW_HI), 0);
    MMIO32(INTC_ACK) = 1u << SW_HI;
    CHECK_EQ(MMIO32(INTC_PENDING) & (1u << SW_HI), 0);

    log_n = 0;
    bsp_fast_irq_enable(SW_LO);
    bsp_fast_irq_enable(SW_HI);
    bsp_irq_enable();
    MMIO32(INTC_SET) = (1u << SW_LO) | (1u << SW_HI);
    /* The line reaches the core a cycle after the store completes: give it a few. */
    for (int i = 0; i < 100 && log_n < 2; i++) {
    }
    bsp_irq_disable();
    bsp_fast_irq_disable(SW_LO);
    bsp_fast_irq_disable(SW_HI);
    CHECK_EQ(log_n, 2);
    CHECK_EQ(log_line[0], SW_LO);
    CHECK_EQ(log_line[1], SW_HI);
    CHECK_EQ(log_mcause[1], MCAUSE_INTERRUPT | MCAUSE_IRQ_FAST(SW_HI));
}

static void test_fast_priority(void)
{
    MMIO32(INTC_ACK) = 0x7FFF;
    /* both lines latch at the same instant */
    uint32_t p = wait_pending((1u << LINE_B) | (1u << LINE_C));
    CHECK_EQ(p & ((1u << LINE_B) | (1u << LINE_C)), (1u << LINE_B) | (1u << LINE_C));
    log_n = 0;
    MMIO32(INTC_ENABLE) = (1u << LINE_B) | (1u << LINE_C);
    csr_set(mie, MIE_FAST(LINE_B) | MIE_FAST(LINE_C));
    bsp_irq_enable();
    for (int i = 0; i < 20; i++)
        __asm__ volatile("nop");
    bsp_irq_disable();
    csr_clear(mie, MIE_FAST_ALL);
    MMIO32(INTC_ENABLE) = 0;
    CHECK_EQ(log_n, 2);
    CHECK_EQ(log_line[0], LINE_B);
    CHECK_EQ(log_line[1], LINE_C);
    CHECK_EQ(log_mcause[0], 0x80000015u);
    CHECK_EQ(log_mcause[1], 0x80000019u);
}

static void test_msip(void)
{
    CHECK_EQ(MMIO32(INTC_MSIP), 0);
    MMIO32(INTC_MSIP) = 1;
    CHECK_EQ(MMIO32(INTC_MSIP), 1);
    __asm__ volatile("nop; nop");
    CHECK(csr_read(mip) & MIP_MSIP);
    MMIO32(INTC_MSIP) = 0;
    CHECK_EQ(MMIO32(INTC_MSIP), 0);
    __asm__ volatile("nop; nop");
    CHECK_EQ(csr_read(mip) & MIP_MSIP, 0);

    log_n = 0;
    bsp_soft_irq_enable();
    bsp_irq_enable();
    bsp_soft_irq_raise();
    for (int i = 0; i < 10; i++)
        __asm__ volatile("nop");
    bsp_irq_disable();
    csr_clear(mie, MIE_MSIE);
    CHECK_EQ(log_n, 1);
    CHECK_EQ(log_mcause[0], MCAUSE_INTERRUPT | MCAUSE_IRQ_SOFTWARE);
    CHECK_EQ(MMIO32(INTC_MSIP), 0);
}

/* Ibex: fast lines (lowest first), then external, software, timer. */
static void test_class_priority(void)
{
    MMIO32(INTC_ACK) = 0x7FFF;
    wait_pending(1u << LINE_B);
    MMIO32(INTC_ENABLE) = 1u << LINE_B;
    MMIO32(INTC_MSIP) = 1;
    MMIO32(TIMER_MTIMECMPH) = 0;
    MMIO32(TIMER_MTIMECMP) = 0; /* in the past: the timer line rises */
    __asm__ volatile("nop; nop; nop; nop");
    uint32_t m = csr_read(mip);
    CHECK_EQ(m & (MIP_FAST(LINE_B) | MIP_MSIP | MIP_MTIP), MIP_FAST(LINE_B) | MIP_MSIP | MIP_MTIP);
    log_n = 0;
    csr_set(mie, MIE_FAST(LINE_B) | MIE_MSIE | MIE_MTIE);
    bsp_irq_enable();
    for (int i = 0; i < 10; i++)
        __asm__ volatile("nop");
    bsp_irq_disable();
    csr_write(mie, 0);
    MMIO32(INTC_ENABLE) = 0;
    CHECK_EQ(log_n, 3);
    CHECK_EQ(log_mcause[0], MCAUSE_INTERRUPT | MCAUSE_IRQ_FAST(LINE_B));
    CHECK_EQ(log_mcause[1], MCAUSE_INTERRUPT | MCAUSE_IRQ_SOFTWARE);
    CHECK_EQ(log_mcause[2], MCAUSE_INTERRUPT | MCAUSE_IRQ_TIMER);
}

int main(void)
{
    test_latch_ack();
    test_enable_register();
    test_fast_irq();
    test_software_set();
    test_fast_priority();
    test_msip();
    test_class_priority();
    return check_result();
}
