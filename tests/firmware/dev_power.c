/* Clock and power controller (docs/machine.md, default operating points of the
 * built-in machine: 100 MHz / 1.2 V, 66 MHz / 1.05 V, 24 MHz / 0.85 V, settle
 * 10 us): COUNT, FREQ_HZ, MILLIVOLTS, OPP_SELECT; STATUS bit 0 during the settle
 * time while the core keeps running at the old frequency; after the switch the
 * new FREQ_HZ / MILLIVOLTS, and the fixed-rate mtime (10 MHz) advancing per core
 * cycle at the new frequency. Read-only registers ignore writes; selecting a
 * point that does not exist, or the current one, does nothing.
 * Prints "switched at cycle N" (the mcycle when STATUS went to 0); the CLI test
 * (cli_devices.rs) checks opp_time_s and sim_time_s in --stats against it. */
#include "check.h"

static uint32_t wait_settled(void)
{
    for (int i = 0; i < 1000000; i++)
        if (!(MMIO32(POWER_STATUS) & POWER_STATUS_SWITCHING))
            break;
    return csr_read(mcycle);
}

/* mtime ticks and core cycles across a fixed loop */
static void measure(uint32_t loops, uint32_t *dt, uint32_t *dc)
{
    uint32_t t0, c0, t1, c1;
    __asm__ volatile("lw   %0, 0(%5)\n\t"
                     "csrr %1, mcycle\n\t"
                     "1: addi %4, %4, -1\n\t"
                     "bnez %4, 1b\n\t"
                     "lw   %2, 0(%5)\n\t"
                     "csrr %3, mcycle\n\t"
                     : "=&r"(t0), "=&r"(c0), "=&r"(t1), "=&r"(c1), "+r"(loops)
                     : "r"(TIMER_MTIME)
                     : "memory");
    *dt = t1 - t0;
    *dc = c1 - c0;
}

int main(void)
{
    CHECK_EQ(bsp_opp_count(), 3);
    CHECK_EQ(MMIO32(POWER_OPP_SELECT), 0);
    CHECK_EQ(MMIO32(POWER_STATUS), 0);
    CHECK_EQ(bsp_cpu_hz(), 100000000u);
    CHECK_EQ(bsp_cpu_millivolts(), 1200);

    /* read-only registers */
    MMIO32(POWER_FREQ_HZ) = 1;
    MMIO32(POWER_MILLIVOLTS) = 1;
    MMIO32(POWER_OPP_COUNT) = 1;
    CHECK_EQ(bsp_cpu_hz(), 100000000u);
    CHECK_EQ(bsp_cpu_millivolts(), 1200);
    CHECK_EQ(bsp_opp_count(), 3);

    /* no such point, or the current one: no switch */
    bsp_opp_select(3);
    CHECK_EQ(MMIO32(POWER_STATUS), 0);
    CHECK_EQ(MMIO32(POWER_OPP_SELECT), 0);
    bsp_opp_select(0);
    CHECK_EQ(MMIO32(POWER_STATUS), 0);

    /* 100 MHz: 10 cycles per mtime tick */
    uint32_t dt, dc;
    measure(5000, &dt, &dc);
    CHECK(dt * 10 + 10 >= dc && dt * 10 <= dc + 10);

    /* switch to P2; the core runs on at 100 MHz for the 10 us settle time */
    uint32_t c0 = csr_read(mcycle);
    bsp_opp_select(2);
    CHECK_EQ(MMIO32(POWER_STATUS) & POWER_STATUS_SWITCHING, 1);
    CHECK(bsp_opp_switching());
    CHECK_EQ(bsp_cpu_hz(), 100000000u);
    CHECK_EQ(bsp_cpu_millivolts(), 1200);
    uint32_t c1 = wait_settled();
    CHECK_EQ(MMIO32(POWER_STATUS), 0);
    /* 10 us at 100 MHz = 1000 cycles, plus the polling loop */
    CHECK(c1 - c0 >= 1000);
    CHECK(c1 - c0 <= 1030);
    CHECK_EQ(MMIO32(POWER_OPP_SELECT), 2);
    CHECK_EQ(bsp_cpu_hz(), 24000000u);
    CHECK_EQ(bsp_cpu_millivolts(), 850);

    /* 24 MHz: 2.4 cycles per mtime tick (time runs slower per cycle) */
    measure(12000, &dt, &dc);
    CHECK(dc > 20000);
    CHECK(dt * 24 + 24 >= dc * 10 && dt * 24 <= dc * 10 + 24);

    /* run a while at 24 MHz, so opp_time_s["2"] is substantial */
    while (csr_read(mcycle) - c1 < 240000) {
    }
    bsp_printf("switched at cycle %u\n", (unsigned)c1);
    return check_result();
}
