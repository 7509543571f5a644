/* Rhealstone on NOS (issue 12): the figures that exist for a non-preemptive, run-to-completion
 * executive with polled interrupts (nos/nos.h), measured as rhealstone.c measures them (GPIO
 * pins 2 and 3, mcycle beside them, the same printed lines):
 *   1 task_switch        one job ends (its last statement) and the next job of equal
 *                        priority starts (its first statement): NOS's job switch;
 *   3 interrupt_latency  a job raises the software interrupt (INTC.SET) and returns; NOS polls
 *                        the line in its loop and runs the interrupt work: from the raise to
 *                        the work's first statement. (Raised at the end of the job: a raise
 *                        earlier in a job waits for the rest of the job too.)
 * NOS has no preemption, semaphores, mutexes or queues: the other figures are absent. */
#include "rh_config.h"
#include "bsp/bsp.h"
#include "nos.h"

#if !defined(RH_FIGURE) || (RH_FIGURE != 1 && RH_FIGURE != 3)
#error "rh_config.h must define RH_FIGURE as 1 (task_switch) or 3 (interrupt_latency) on NOS"
#endif
#ifndef RH_SAMPLES
#define RH_SAMPLES 100
#endif

#define NAME (RH_FIGURE == 1 ? "task_switch" : "interrupt_latency")
#define PIN_START 2
#define PIN_END 3
#define TM_IRQ_LINE 5
#define JOB_PRIO 10
#define IRQ_JOB_PRIO 250 /* below NOS_IRQ_PRIO: the line is polled when the job returns */

static volatile uint32_t t_start[RH_SAMPLES + 1], t_end[RH_SAMPLES + 1];
static volatile unsigned k;

static inline __attribute__((always_inline)) void start(void)
{
    t_start[k] = bsp_cycles();
    bsp_gpio_set(1u << PIN_START);
}

static void end(void)
{
    bsp_gpio_set(1u << PIN_END);
    t_end[k] = bsp_cycles();
    bsp_gpio_clear(1u << PIN_START);
    bsp_gpio_clear(1u << PIN_END);
    k = k + 1;
    if (k <= RH_SAMPLES)
        return;
    for (unsigned i = 1; i <= RH_SAMPLES; i++)
        bsp_printf("rh %s sample=%u mcycle=%u\n", NAME, i - 1, (unsigned)(t_end[i] - t_start[i]));
    bsp_printf("rh %s done samples=%u\n", NAME, (unsigned)RH_SAMPLES);
    bsp_exit(0);
}

static void job_a(void *arg)
{
    (void)arg;
    start(); /* its last statement */
}

static void job_b(void *arg)
{
    (void)arg;
    end(); /* its first statement */
}

static void irq_work(void *arg)
{
    (void)arg;
    end();
}

static void irq_job(void *arg)
{
    (void)arg;
    start();
    bsp_fast_irq_raise(TM_IRQ_LINE);
}

int main(void)
{
    bsp_counters_enable();
    int r;
    if (RH_FIGURE == 1)
        r = nos_job("a", job_a, 0, 1, 0, JOB_PRIO) | nos_job("b", job_b, 0, 1, 0, JOB_PRIO);
    else
        r = nos_irq(TM_IRQ_LINE, irq_work, 0) | nos_job("irq", irq_job, 0, 1, 0, IRQ_JOB_PRIO);
    if (r != 0) {
        bsp_printf("rh %s FAIL setup\n", NAME);
        bsp_exit(1);
    }
    nos_run();
}
