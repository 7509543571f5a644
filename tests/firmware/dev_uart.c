/* UART registers (docs/machine.md, "UART"), self-checking, with dev_uart.machine.toml
 * (1,000,000 baud: a byte is 10 us, 1,000 cycles at 100 MHz; a 4-byte receive FIFO; ten bytes
 * arriving from 50 us; tx = "record"). BAUD reads the rate; TX_READY and TX_IDLE follow the
 * holding and shift registers, a byte written while neither is free is lost (TX_OVERRUN,
 * sticky until written with 1); a byte leaves the line 10 bit times after it starts;
 * received bytes beyond the FIFO are lost (RX_OVERRUN) and RXDATA reads UART_RX_EMPTY once
 * it is empty; enabling the transmit interrupt while TXDATA is ready latches the line at
 * once, and receiving latches it. */
#include "check.h"

#define UART_LINE 14

static uint32_t status(void) { return MMIO32(UART_STATUS); }

static void wait_idle(void)
{
    while (!(status() & UART_TX_IDLE))
        ;
}

static void test_transmit(void)
{
    CHECK_EQ(MMIO32(UART_BAUD), 1000000);
    CHECK_EQ(status() & (UART_TX_READY | UART_TX_IDLE), UART_TX_READY | UART_TX_IDLE);
    bsp_counters_enable();
    uint32_t t0 = bsp_cycles();
    MMIO32(UART_TXDATA) = 'a'; /* straight into the shift register */
    CHECK_EQ(status() & (UART_TX_READY | UART_TX_IDLE), UART_TX_READY);
    MMIO32(UART_TXDATA) = 'b'; /* into the holding register */
    CHECK_EQ(status() & (UART_TX_READY | UART_TX_IDLE), 0);
    MMIO32(UART_TXDATA) = 'c'; /* lost */
    CHECK(status() & UART_TX_OVERRUN);
    while (!(status() & UART_TX_READY))
        ;
    uint32_t first = bsp_cycles() - t0; /* 'a' left after 1,000 cycles */
    CHECK(first >= 1000 && first < 1100);
    wait_idle();
    uint32_t both = bsp_cycles() - t0;
    CHECK(both >= 2000 && both < 2100);
    CHECK(status() & UART_TX_OVERRUN); /* sticky */
    MMIO32(UART_STATUS) = UART_TX_OVERRUN;
    CHECK_EQ(status() & UART_TX_OVERRUN, 0);
}

static void test_receive(void)
{
    CHECK_EQ(MMIO32(UART_RXDATA), UART_RX_EMPTY);
    /* Ten bytes arrive from 50 us, one every 10 us: by 200 us all have. */
    while (bsp_timer_now() < 200 * (uint64_t)bsp_timer_hz() / 1000000)
        ;
    uint32_t s = status();
    CHECK(s & UART_RX_VALID);
    CHECK(s & UART_RX_OVERRUN);
    CHECK_EQ((s >> 8) & 0xff, 4); /* the FIFO's four */
    for (uint32_t i = 0; i < 4; i++)
        CHECK_EQ(MMIO32(UART_RXDATA), '0' + i);
    CHECK_EQ(MMIO32(UART_RXDATA), UART_RX_EMPTY);
    CHECK_EQ(status() & UART_RX_VALID, 0);
    MMIO32(UART_STATUS) = UART_RX_OVERRUN;
    CHECK_EQ(status() & UART_RX_OVERRUN, 0);
}

static void test_interrupts(void)
{
    MMIO32(INTC_ENABLE) = 0;
    bsp_fast_irq_ack(UART_LINE);
    MMIO32(UART_CTRL) = UART_TX_IRQ; /* TXDATA is ready: latched at once */
    CHECK(MMIO32(INTC_PENDING) & (1u << UART_LINE));
    bsp_fast_irq_ack(UART_LINE);
    MMIO32(UART_TXDATA) = 'x';
    MMIO32(UART_TXDATA) = 'y'; /* holding: latches when it moves to the shift register */
    CHECK_EQ(MMIO32(INTC_PENDING) & (1u << UART_LINE), 0);
    while (!(status() & UART_TX_READY))
        ;
    CHECK(MMIO32(INTC_PENDING) & (1u << UART_LINE));
    wait_idle();
    MMIO32(UART_CTRL) = UART_RX_IRQ;
    CHECK_EQ(MMIO32(UART_CTRL), UART_RX_IRQ);
    bsp_fast_irq_ack(UART_LINE);
    /* The last byte of the script arrives at 1,000 us. */
    while (!(MMIO32(INTC_PENDING) & (1u << UART_LINE)))
        ;
    CHECK_EQ(MMIO32(UART_RXDATA), 'z');
    CHECK(bsp_timer_now() >= 1000 * (uint64_t)bsp_timer_hz() / 1000000);
}

int main(void)
{
    test_transmit();
    test_receive();
    test_interrupts();
    return check_result();
}
