/* The `make demo` firmware: a tour of the reference MCU. It measures a sort
 * with mcycle/minstret, takes ten 1 kHz timer interrupts that toggle GPIO pin 0
 * and write IO port 0 (run with --io to see them time-stamped), and exits 0. */
#include "bsp/bsp.h"

#define WORDS 256
#define TICKS 10

static uint32_t data[WORDS];
static volatile uint32_t ticks;
static uint64_t next_tick;

void bsp_timer_handler(void)
{
    next_tick += bsp_timer_hz() / 1000;
    bsp_timer_set_compare(next_tick);
    ticks++;
    if (ticks & 1)
        bsp_gpio_set(1u << 0);
    else
        bsp_gpio_clear(1u << 0);
    bsp_io_out(0, ticks);
}

static void sort(uint32_t *a, int n)
{
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            uint32_t v = a[i];
            int j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap)
                a[j] = a[j - gap];
            a[j] = v;
        }
}

int main(void)
{
    uint32_t hz = bsp_cpu_hz();
    bsp_printf("Ubik testbed demo: RV32IMC at %u MHz, %u operating points\n",
               (unsigned)(hz / 1000000), bsp_opp_count());

    uint32_t x = 2463534242u;
    for (int i = 0; i < WORDS; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        data[i] = x;
    }
    bsp_counters_enable();
    uint32_t c0 = bsp_cycles(), i0 = bsp_instret();
    sort(data, WORDS);
    uint32_t c1 = bsp_cycles(), i1 = bsp_instret();
    for (int i = 1; i < WORDS; i++)
        if (data[i - 1] > data[i]) {
            bsp_printf("sort failed at %d\n", i);
            return 1;
        }
    bsp_printf("shell sort of %d words: %u cycles, %u instructions\n", WORDS, (unsigned)(c1 - c0),
               (unsigned)(i1 - i0));

    uint64_t t0 = bsp_timer_now();
    next_tick = t0 + bsp_timer_hz() / 1000;
    bsp_timer_set_compare(next_tick);
    bsp_timer_irq_enable();
    bsp_irq_enable();
    while (ticks < TICKS)
        bsp_wfi();
    bsp_irq_disable();
    uint32_t us = (uint32_t)((bsp_timer_now() - t0) * 1000000u / bsp_timer_hz());
    bsp_printf(
        "%d timer interrupts at 1 kHz, asleep in wfi between them: %u us of simulated time\n",
        TICKS, (unsigned)us);
    return 0;
}
