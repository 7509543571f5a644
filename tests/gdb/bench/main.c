/* The bench firmware of tests/gdb/monitor.py (system.toml says what each part is for). */
#include "uk_gen.h"
#include "bsp/bsp.h"

#define BUTTON 5

void uart_lisr(unsigned line)
{
    (void)line;
    for (;;) {
        uint32_t v = MMIO32(UART_RXDATA);
        if (v & UART_RX_EMPTY)
            break;
        uint8_t b = (uint8_t)v;
        (void)uk_queue_send(&rx, &b, UK_NO_WAIT);
    }
}

void button_lisr(unsigned line)
{
    bsp_printf("button: line %u, GPIO_IN 0x%x\n", line, (unsigned)MMIO32(IO_GPIO_IN));
}

void stim_lisr(unsigned line)
{
    bsp_printf("stimulus: line %u\n", line);
    (void)uk_sem_give(&kick);
}

void wait_kick(void *arg)
{
    (void)arg;
    for (;;) {
        (void)uk_sem_take(&kick, UK_FOREVER);
        bsp_printf("kicked\n");
    }
}

void read_uart(void *arg)
{
    (void)arg;
    const char *bye = "bye\n";
    unsigned matched = 0;
    for (;;) {
        uint8_t c;
        (void)uk_queue_recv(&rx, &c, UK_FOREVER);
        bsp_printf("%c", c);
        matched = c == (uint8_t)bye[matched] ? matched + 1 : (c == 'b');
        if (matched == 4)
            bsp_exit(0);
    }
}

int main(void)
{
    uk_init();
    MMIO32(IO_GPIO_RISE) = 1u << BUTTON;
    MMIO32(UART_CTRL) = UART_RX_IRQ;
    uk_start();
    return 0;
}
