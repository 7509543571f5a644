/* The real-time partition of the hypervisor experiment (docs/hypervisor.md), measured the way
 * seed paper 004 measured FreeRTOS beside Linux: with GPIO pins.
 *   Task switch (Rhealstone): two tasks of equal priority yield to each other, back and
 *     forth. Each marks its turn with one store to the GPIO level register: A drives pin 2
 *     high (and 3 low), B pin 3 (and 2 low), then yields; every window from one task's mark
 *     to the other's is a switch, so any time the partition loses in a burst shows in one.
 *     The switches come in bursts of 2 * RT_BURST, one burst per external event
 *     (below): the partition has work for a part of every event period and idles the rest,
 *     as a real-time partition does, and its bursts fall at any phase of the hypervisor's
 *     schedule.
 *   Interrupt latency (Rhealstone's, and the paper's: taken while the tasks run): line 4 is a
 *     probe, a periodic event out of step with the bursts; its LISR's first statement drives
 *     pin 5 high. The window is from the event (the IO record's stimulus row) to that edge;
 *     the probes that land inside a burst give the figure.
 *   Wake latency: line 3 is an external event that finds the partition idle (the machine
 *     file's periodic stimulus); its LISR's first statement drives pin 4 high, then starts a
 *     burst. The probes that land between bursts find it idle too and count here.
 * After RT_BURSTS bursts the partition prints its sample count and exits 0. */
#include "uk_gen.h"
#include "bsp/bsp.h"

#ifndef RT_BURSTS
#define RT_BURSTS 150
#endif
#ifndef RT_BURST
#define RT_BURST 200
#endif
#define PIN_A 2
#define PIN_B 3
#define PIN_IRQ 4
#define PIN_PROBE 5

static volatile unsigned irqs;

void on_ext(unsigned line)
{
    (void)line;
    MMIO32(IO_GPIO_SET) = 1u << PIN_IRQ; /* the handler's first statement */
    MMIO32(IO_GPIO_CLEAR) = 1u << PIN_IRQ;
    irqs++;
    uk_sem_give(&go); /* A's next burst (a count: bursts are not lost while one runs) */
}

void on_probe(unsigned line)
{
    (void)line;
    MMIO32(IO_GPIO_SET) = 1u << PIN_PROBE; /* the handler's first statement */
    MMIO32(IO_GPIO_CLEAR) = 1u << PIN_PROBE;
}

void switch_a(void *arg)
{
    (void)arg;
    for (unsigned b = 0; b < RT_BURSTS; b++) {
        uk_sem_take(&go, UK_FOREVER);
        uk_sem_give(&burst); /* B joins for the burst */
        for (unsigned i = 0; i < RT_BURST; i++) {
            MMIO32(IO_GPIO_LEVEL) = 1u << PIN_A;
            uk_task_yield();
        }
    }
    MMIO32(IO_GPIO_LEVEL) = 0;
    bsp_printf("rt: %u bursts of %u task switches, %u interrupts\n", RT_BURSTS, 2 * RT_BURST, irqs);
    bsp_exit(0);
}

void switch_b(void *arg)
{
    (void)arg;
    for (;;) {
        uk_sem_take(&burst, UK_FOREVER);
        for (unsigned i = 0; i < RT_BURST; i++) {
            MMIO32(IO_GPIO_LEVEL) = 1u << PIN_B;
            uk_task_yield();
        }
    }
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
