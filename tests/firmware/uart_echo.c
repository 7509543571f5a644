/* UART echo (docs/machine.md, "UART"): the receive interrupt's handler moves every byte
 * waiting into a ring; the main loop sleeps in wfi and sends back what arrived, a byte each
 * time TXDATA is ready. The machine file (uart_echo.machine.toml) types two lines at 115200
 * baud; the test expects them back on the console (tx = "console") and ends after "bye". */
#include "bsp/bsp.h"

#define UART_LINE 14

static volatile uint8_t ring[64];
static volatile uint32_t head, tail;

void bsp_fast_irq_handler(unsigned line)
{
    bsp_fast_irq_ack(line);
    for (;;) {
        uint32_t v = MMIO32(UART_RXDATA);
        if (v & UART_RX_EMPTY)
            break;
        ring[head % sizeof ring] = (uint8_t)v;
        head = head + 1;
    }
}

int main(void)
{
    bsp_fast_irq_enable(UART_LINE);
    MMIO32(UART_CTRL) = UART_RX_IRQ;
    bsp_irq_enable();
    const char *bye = "bye\n";
    unsigned matched = 0;
    for (;;) {
        bsp_irq_disable();
        if (tail == head)
            bsp_wfi(); /* wakes on the next byte (the interrupt is taken once enabled) */
        bsp_irq_enable();
        while (tail != head) {
            uint8_t c = ring[tail % sizeof ring];
            tail = tail + 1;
            while (!(MMIO32(UART_STATUS) & UART_TX_READY))
                ;
            MMIO32(UART_TXDATA) = c;
            matched = c == (uint8_t)bye[matched] ? matched + 1 : (c == 'b');
            if (matched == 4) {
                while (!(MMIO32(UART_STATUS) & UART_TX_IDLE))
                    ; /* the last byte leaves the line before the machine halts */
                bsp_exit(0);
            }
        }
    }
}
