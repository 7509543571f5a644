/* Interrupt latency against a kernel busy with all its services.
 *
 * The LISR of fast line 0 writes OUT[0] as its first action; bench/kernel.toml pairs each
 * `stimulus` event of the IO record with the next `out` write to port 0 and takes the worst of
 * (out cycle - 2 - stimulus cycle): the store completes 2 cycles after it starts (a device
 * access), so this is the time from the line going high to the LISR's first store starting.
 *
 * Meanwhile: the LISR gives a semaphore to a task and activates a HISR (every 4th event),
 * the HISR gives another semaphore; three tasks share a mutex (priority inheritance, lock
 * timeouts, sleeps, sleep_until); two tasks yield to each other; two tasks ping-pong with
 * semaphores and timeouts; a controller suspends, resumes and re-prioritises. The 1 kHz tick
 * runs throughout; user code divides (a div in flight delays an interrupt). The run ends
 * after TARGET interrupts. Output: counters of the work done (`lisr N hisr N ...`). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

#define TARGET 105000u

#if defined(UK_CONFIG_SCHED_BITMAP) || defined(UK_CONFIG_SCHED_RTM)
#define EQUAL_OR_NEXT 1 /* unique priorities: the second yielder one below */
#else
#define EQUAL_OR_NEXT 0
#endif

static uk_task_t irq_task, mhi, mmid, mlo, y1, y2, p1, p2, ctl;
static uint32_t irq_stack[256], mhi_stack[256], mmid_stack[256], mlo_stack[256], y1_stack[256],
    y2_stack[256], p1_stack[256], p2_stack[256], ctl_stack[256], hisr_stack[256];
static uk_sem_t irq_sem, hisr_sem, ping, pong;
static uk_mutex_t mtx;
static uk_hisr_t hisr;
static volatile uint32_t n_lisr, n_task, n_hisr, n_mutex, n_yield, n_ping, n_ctl;
static volatile uint32_t sink, divisor = 7;

/* The LISR: the store to OUT[0] first (the value is the line number, already in a0), then a
 * tail call to the rest, so that no prologue comes before the store (lui, sw, j). */
static void __attribute__((noinline)) lisr_rest(void)
{
    uint32_t n = ++n_lisr;
    uk_sem_give(&irq_sem);
    if ((n & 3) == 0)
        uk_hisr_activate(&hisr);
}

static void lisr(unsigned line)
{
    MMIO32(IO_OUT(0)) = line;
    lisr_rest();
}

static void hisr_entry(uk_hisr_t *h)
{
    (void)h;
    n_hisr++;
    uk_sem_give(&hisr_sem);
}

static void work(unsigned iters)
{
    uint32_t x = sink;
    for (unsigned i = 0; i < iters; i++)
        x = x / divisor + x % divisor + i * 2654435761u;
    sink = x;
}

static void irq_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_sem_take(&irq_sem, UK_FOREVER);
        uk_sem_take(&hisr_sem, UK_NO_WAIT);
        work(2);
        if (++n_task >= TARGET) {
            bsp_printf("lisr %u hisr %u mutex %u yield %u ping %u ctl %u\n", (unsigned)n_lisr,
                       (unsigned)n_hisr, (unsigned)n_mutex, (unsigned)n_yield, (unsigned)n_ping,
                       (unsigned)n_ctl);
            bsp_exit(0);
        }
    }
}

/* Mutex users: high, middle (no mutex: the inversion inheritance prevents) and low. */
static void mhi_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_task_sleep(1);
        if (uk_mutex_lock(&mtx, 3) == UK_OK) {
            work(5);
            uk_mutex_lock(&mtx, UK_NO_WAIT); /* recursive */
            uk_mutex_unlock(&mtx);
            uk_mutex_unlock(&mtx);
            n_mutex++;
        }
    }
}

static void mmid_entry(void *arg)
{
    (void)arg;
    for (;;) {
        work(40);
        uk_task_sleep(2);
    }
}

static void mlo_entry(void *arg)
{
    (void)arg;
    uk_tick_t last = uk_time();
    for (;;) {
        uk_mutex_lock(&mtx, UK_FOREVER);
        work(300);
        uk_mutex_unlock(&mtx);
        uk_task_sleep_until(&last, 3);
    }
}

static void yield_entry(void *arg)
{
    (void)arg;
    for (;;) {
        for (int i = 0; i < 50; i++) {
            work(3);
            uk_task_yield();
            n_yield++;
        }
        uk_task_sleep(1);
    }
}

static void p1_entry(void *arg)
{
    (void)arg;
    for (;;) {
        if (uk_sem_take(&ping, 2) == UK_OK)
            n_ping++;
        uk_sem_give(&pong);
    }
}

static void p2_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_sem_give(&ping);
        uk_sem_take(&pong, 5);
        work(10);
        if ((n_ping & 15) == 0)
            uk_task_sleep(1);
    }
}

static void ctl_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_task_sleep(2);
        uk_task_suspend(&p2);
        work(20);
        uk_task_resume(&p2);
#if !EQUAL_OR_NEXT
        uk_task_set_prio(&y2, 7);
        uk_task_yield();
        uk_task_set_prio(&y2, 8);
#endif
        n_ctl++;
    }
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    uk_sem_init(&irq_sem, 0, 1000000);
    uk_sem_init(&hisr_sem, 0, 1000000);
    uk_sem_init(&ping, 0, 1);
    uk_sem_init(&pong, 0, 1);
    uk_mutex_init(&mtx);
    uk_hisr_create(&hisr, "hisr", hisr_entry, 0, hisr_stack, sizeof hisr_stack);
    uk_task_create(&irq_task, "irq", irq_entry, 0, 1, irq_stack, sizeof irq_stack);
    uk_task_create(&mhi, "mhi", mhi_entry, 0, 3, mhi_stack, sizeof mhi_stack);
    uk_task_create(&mmid, "mmid", mmid_entry, 0, 4, mmid_stack, sizeof mmid_stack);
    uk_task_create(&mlo, "mlo", mlo_entry, 0, 6, mlo_stack, sizeof mlo_stack);
    uk_task_create(&y1, "y1", yield_entry, 0, 8, y1_stack, sizeof y1_stack);
    uk_task_create(&y2, "y2", yield_entry, 0, 8 + EQUAL_OR_NEXT, y2_stack, sizeof y2_stack);
    uk_task_create(&p1, "p1", p1_entry, 0, 10, p1_stack, sizeof p1_stack);
    uk_task_create(&p2, "p2", p2_entry, 0, 11, p2_stack, sizeof p2_stack);
    uk_task_create(&ctl, "ctl", ctl_entry, 0, 2, ctl_stack, sizeof ctl_stack);
    uk_task_t *all[] = {&irq_task, &mhi, &mmid, &mlo, &y1, &y2, &p1, &p2, &ctl};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        uk_task_activate(all[i]);
    uk_irq_install(0, lisr);
    uk_start();
    return 0;
}
