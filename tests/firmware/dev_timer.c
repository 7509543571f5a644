/* TIMER (docs/machine.md): MTIME/MTIMEH read and write (64-bit, with the carry
 * from the low word), MTIMECMP/MTIMECMPH read back, the interrupt line (mip.MTIP)
 * rising one cycle after mtime >= mtimecmp and staying up (sticky) until either
 * half of mtimecmp is written, the interrupt taken through the vector table
 * (mcause 0x80000007), and wfi waking on it with mstatus.MIE clear.
 *
 * Built twice: dev_timer (default machine: mtime at a fixed 10 MHz, 10 core
 * cycles per tick at 100 MHz) and dev_timer_cycle (TIMEBASE_CYCLE, run with
 * dev_timer_cycle.machine.toml: [timer] timebase = "cycle", 1 tick per cycle). */
#include "check.h"

#ifdef TIMEBASE_CYCLE
#define CYCLES_PER_TICK 1
#define TOL 16     /* ticks of slack for a polling loop of a few instructions */
#define IRQ_TOL 80 /* ticks from the match to the handler's read (BSP entry saves 16 registers) */
#else
#define CYCLES_PER_TICK 10
#define TOL 2
#define IRQ_TOL 8
#endif

#define MIP_MTIP MIE_MTIE

static volatile uint32_t irq_count, irq_mcause, irq_mtime;

void bsp_timer_handler(void)
{
    irq_mtime = MMIO32(TIMER_MTIME);
    irq_mcause = csr_read(mcause);
    irq_count++;
    bsp_timer_set_compare(~0ull);
}

static uint32_t mtip(void) { return csr_read(mip) & MIP_MTIP; }

/* mtime advances at the timebase: CYCLES_PER_TICK core cycles per tick. */
static void test_rate(void)
{
    uint32_t t0, c0, t1, c1, n = 2000;
    __asm__ volatile("lw   %0, 0(%5)\n\t"
                     "csrr %1, mcycle\n\t"
                     "1: addi %4, %4, -1\n\t"
                     "bnez %4, 1b\n\t"
                     "lw   %2, 0(%5)\n\t"
                     "csrr %3, mcycle\n\t"
                     : "=&r"(t0), "=&r"(c0), "=&r"(t1), "=&r"(c1), "+r"(n)
                     : "r"(TIMER_MTIME)
                     : "memory");
    uint32_t dt = t1 - t0, dc = c1 - c0;
    CHECK(dc > 4000);
#ifdef TIMEBASE_CYCLE
    /* the two reads sit at the same distance from their mcycle reads: exact */
    CHECK_EQ(dt, dc);
#else
    /* at most one tick of quantisation at each end */
    CHECK(dt * 10 + 10 >= dc && dt * 10 <= dc + 10);
    CHECK(dt >= dc / 10 - 1 && dt <= dc / 10 + 1);
#endif
}

/* Writes of MTIME and MTIMEH, and the carry into MTIMEH. */
static void test_mtime_write(void)
{
    MMIO32(TIMER_MTIMEH) = 5;
    MMIO32(TIMER_MTIME) = 0xFFFFFF00u;
    uint32_t lo = MMIO32(TIMER_MTIME);
    uint32_t hi = MMIO32(TIMER_MTIMEH);
    CHECK_EQ(hi, 5);
    CHECK(lo >= 0xFFFFFF00u && lo < 0xFFFFFF00u + 20);
    /* 256 ticks later the low word wraps and MTIMEH counts up */
    int spins = 0;
    while (MMIO32(TIMER_MTIMEH) == 5 && spins < 100000)
        spins++;
    CHECK_EQ(MMIO32(TIMER_MTIMEH), 6);
    CHECK(MMIO32(TIMER_MTIME) < 0x100);
    uint64_t now = bsp_timer_now();
    CHECK(now >= 0x600000000ull && now < 0x600000000ull + 0x200);

    /* back to a small time */
    MMIO32(TIMER_MTIME) = 1000;
    MMIO32(TIMER_MTIMEH) = 0;
    lo = MMIO32(TIMER_MTIME);
    CHECK_EQ(MMIO32(TIMER_MTIMEH), 0);
    CHECK(lo >= 1000 && lo < 1000 + 20);
}

static void test_compare_registers(void)
{
    MMIO32(TIMER_MTIMECMPH) = 0x9ABCDEF0u;
    MMIO32(TIMER_MTIMECMP) = 0x12345678u;
    CHECK_EQ(MMIO32(TIMER_MTIMECMP), 0x12345678u);
    CHECK_EQ(MMIO32(TIMER_MTIMECMPH), 0x9ABCDEF0u);
    CHECK_EQ(mtip(), 0); /* far in the future */
    bsp_timer_set_compare(~0ull);
    CHECK_EQ(MMIO32(TIMER_MTIMECMP), 0xFFFFFFFFu);
    CHECK_EQ(MMIO32(TIMER_MTIMECMPH), 0xFFFFFFFFu);
}

/* Polls mip.MTIP (interrupts off) until the line rises; checks when. */
static void test_match_time_and_sticky(void)
{
    csr_write(mie, 0);
    uint32_t cmp = (uint32_t)bsp_timer_now() + 50;
    bsp_timer_set_compare(cmp);
    CHECK_EQ(mtip(), 0);
    uint32_t last_low = 0, at = 0;
    int spins = 0;
    for (;;) {
        uint32_t m = mtip();
        uint32_t t = MMIO32(TIMER_MTIME);
        if (m) {
            at = t;
            break;
        }
        last_low = t;
        if (++spins > 100000)
            break;
    }
    CHECK(spins <= 100000);
    /* the line never showed while mtime < mtimecmp - a poll's worth ... */
    CHECK(last_low <= cmp);
    CHECK(last_low + TOL >= cmp);
    /* ... and showed right after the match */
    CHECK(at >= cmp);
    CHECK(at <= cmp + TOL);

    /* sticky: moving mtime back below mtimecmp does not lower the line */
    MMIO32(TIMER_MTIME) = 0;
    CHECK(MMIO32(TIMER_MTIME) < cmp);
    for (int i = 0; i < 50; i++)
        __asm__ volatile("nop");
    CHECK(mtip() != 0);
    CHECK(mtip() != 0);
    /* writing MTIMECMPH (even the same value) lowers it */
    MMIO32(TIMER_MTIMECMPH) = 0;
    CHECK_EQ(mtip(), 0);

    /* writing MTIMECMP (low half) lowers it too */
    cmp = MMIO32(TIMER_MTIME) + 5;
    MMIO32(TIMER_MTIMECMP) = cmp;
    spins = 0;
    while (!mtip() && ++spins < 100000) {
    }
    CHECK(mtip() != 0);
    MMIO32(TIMER_MTIMECMP) = 0xFFFFFFFFu;
    CHECK_EQ(mtip(), 0);

    /* a compare value already in the past raises the line at once */
    MMIO32(TIMER_MTIMECMP) = 0;
    __asm__ volatile("nop; nop; nop");
    CHECK(mtip() != 0);
    bsp_timer_set_compare(~0ull);
    CHECK_EQ(mtip(), 0);
}

/* The interrupt is taken through vector 7 shortly after the match. */
static void test_interrupt(void)
{
    irq_count = 0;
    uint32_t cmp = (uint32_t)bsp_timer_now() + 100;
    bsp_timer_set_compare(cmp);
    bsp_timer_irq_enable();
    bsp_irq_enable();
    int spins = 0;
    while (irq_count == 0 && ++spins < 1000000) {
    }
    bsp_irq_disable();
    bsp_timer_irq_disable();
    CHECK_EQ(irq_count, 1);
    CHECK_EQ(irq_mcause, MCAUSE_INTERRUPT | MCAUSE_IRQ_TIMER);
    CHECK(irq_mtime >= cmp);
    CHECK(irq_mtime <= cmp + IRQ_TOL);
    if (irq_mtime > cmp + IRQ_TOL)
        bsp_printf("interrupt handler read mtime %u, mtimecmp %u\n", (unsigned)irq_mtime,
                   (unsigned)cmp);
    CHECK_EQ(mtip(), 0); /* the handler wrote mtimecmp */
}

/* wfi wakes on an interrupt enabled in mie even with mstatus.MIE clear; no trap. */
static void test_wfi_wakes_without_mie(void)
{
    irq_count = 0;
    bsp_irq_disable();
    uint32_t cmp = (uint32_t)bsp_timer_now() + 200;
    bsp_timer_set_compare(cmp);
    bsp_timer_irq_enable();
    uint32_t c0 = csr_read(mcycle);
    bsp_wfi();
    uint32_t c1 = csr_read(mcycle);
    uint32_t t = MMIO32(TIMER_MTIME);
    CHECK(mtip() != 0);
    CHECK(t >= cmp);
    CHECK(t <= cmp + TOL);
    CHECK_EQ(irq_count, 0);
    /* mcycle stops while asleep: the 200 ticks of sleep are not in it */
    CHECK(c1 - c0 < 100);
    bsp_timer_irq_disable();
    bsp_timer_set_compare(~0ull);
}

int main(void)
{
    test_rate();
    test_mtime_write();
    test_compare_registers();
    test_match_time_and_sticky();
    test_interrupt();
    test_wfi_wakes_without_mie();
    return check_result();
}
