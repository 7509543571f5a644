/* A button on a scripted GPIO input pin (docs/machine.md, "IO ports and GPIO";
 * gpio_button.machine.toml presses it three times): the rising edge, enabled at
 * IO.GPIO_RISE, latches the pin's fast line; the handler toggles an LED (GPIO pin 0) and
 * writes the count of presses to IO port 1. Releases (falling edges, not enabled) latch
 * nothing. Self-checking; tests/gpio/run.sh also checks the response times in the IO record. */
#include "check.h"

#define BUTTON 5
#define BUTTON_LINE 6
#define LED 0

static volatile uint32_t presses;

void bsp_fast_irq_handler(unsigned line)
{
    bsp_fast_irq_ack(line);
    MMIO32(IO_GPIO_LEVEL) = MMIO32(IO_GPIO_LEVEL) ^ (1u << LED);
    presses = presses + 1;
    bsp_io_out(1, presses);
}

int main(void)
{
    CHECK_EQ(MMIO32(IO_GPIO_IN), 1u << 9); /* pin 9 is scripted high at reset */
    MMIO32(IO_GPIO_RISE) = 1u << BUTTON;
    MMIO32(IO_GPIO_FALL) = 0;
    CHECK_EQ(MMIO32(IO_GPIO_RISE), 1u << BUTTON);
    MMIO32(IO_GPIO_IN) = 0xFFFFFFFFu; /* read-only */
    CHECK_EQ(MMIO32(IO_GPIO_IN), 1u << 9);
    bsp_fast_irq_enable(BUTTON_LINE);
    bsp_irq_enable();
    while (presses < 3)
        bsp_wfi();
    CHECK(MMIO32(IO_GPIO_IN) & (1u << BUTTON)); /* still held */
    while (MMIO32(IO_GPIO_IN) & (1u << BUTTON))
        ;
    CHECK_EQ(MMIO32(INTC_PENDING) & (1u << BUTTON_LINE), 0); /* a release latches nothing */
    CHECK_EQ(presses, 3);
    return check_result();
}
