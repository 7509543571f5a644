/* Thread-Metric portability layer (tm_port.h) on Ubik's public API. Priority p is Ubik
 * priority 1 + p (0 above every tm task stays free). The software interrupt is fast line
 * TM_IRQ_LINE, latched with the interrupt controller's SET register; its LISR calls the
 * scenario's handler, whose kernel calls Ubik defers to the interrupt's end. */
#include <stdarg.h>
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "tm_port.h"

#define TM_IRQ_LINE 5
#define TM_STACK_WORDS 256

static uk_task_t tasks[TM_MAX_TASKS];
static uint32_t stacks[TM_MAX_TASKS][TM_STACK_WORDS];
static void (*entries[TM_MAX_TASKS])(void);
static uk_queue_t queues[TM_MAX_QUEUES];
static uint32_t queue_buf[TM_MAX_QUEUES][10 * TM_MSG_WORDS];
static uk_sem_t sems[TM_MAX_SEMS];
static uk_mutex_t mutexes[TM_MAX_MUTEXES];
static uk_pool_t pools[TM_MAX_POOLS];
static uint32_t pool_buf[TM_MAX_POOLS][TM_POOL_BLOCKS * TM_POOL_BLOCK / 4];
static void (*irq_handler)(void);
static uint32_t gpio_state;

void tm_init(void)
{
    bsp_counters_enable();
    uk_init();
}

static void task_trampoline(void *arg) { entries[(uintptr_t)arg](); }

int tm_task_create(unsigned id, unsigned prio, void (*entry)(void))
{
    if (id >= TM_MAX_TASKS)
        return UK_EINVAL;
    entries[id] = entry;
    int r = uk_task_create(&tasks[id], "tm", task_trampoline, (void *)(uintptr_t)id,
                           (uint8_t)(1 + prio), stacks[id], sizeof stacks[id]);
    return r ? r : uk_task_activate(&tasks[id]);
}

int tm_task_suspend(unsigned id) { return uk_task_suspend(&tasks[id]); }
int tm_task_resume(unsigned id) { return uk_task_resume(&tasks[id]); }
int tm_yield(void) { return uk_task_yield(); }
int tm_sleep_ms(uint32_t ms) { return uk_task_sleep(uk_ms_to_ticks(ms)); }

void tm_start(void)
{
    uk_start();
    tm_exit(99); /* not reached */
}

int tm_queue_create(unsigned id)
{
    return uk_queue_init(&queues[id], queue_buf[id], TM_MSG_WORDS * 4, 10);
}
int tm_queue_send(unsigned id, const uint32_t msg[TM_MSG_WORDS])
{
    return uk_queue_send(&queues[id], msg, UK_FOREVER);
}
int tm_queue_recv(unsigned id, uint32_t msg[TM_MSG_WORDS])
{
    return uk_queue_recv(&queues[id], msg, UK_FOREVER);
}

int tm_sem_create(unsigned id, uint32_t initial)
{
    return uk_sem_init(&sems[id], initial, 0xFFFFFFFFu);
}
int tm_sem_get(unsigned id) { return uk_sem_take(&sems[id], UK_FOREVER); }
int tm_sem_put(unsigned id) { return uk_sem_give(&sems[id]); }

int tm_mutex_create(unsigned id) { return uk_mutex_init(&mutexes[id]); }
int tm_mutex_lock(unsigned id) { return uk_mutex_lock(&mutexes[id], UK_FOREVER); }
int tm_mutex_unlock(unsigned id) { return uk_mutex_unlock(&mutexes[id]); }

int tm_pool_create(unsigned id)
{
    return uk_pool_init(&pools[id], pool_buf[id], TM_POOL_BLOCK, TM_POOL_BLOCKS);
}
int tm_pool_alloc(unsigned id, void **block)
{
    return uk_pool_alloc(&pools[id], block, UK_NO_WAIT);
}
int tm_pool_free(unsigned id, void *block) { return uk_pool_free(&pools[id], block); }

static void tm_lisr(unsigned line)
{
    (void)line;
    irq_handler();
}

int tm_irq_setup(void (*handler)(void))
{
    irq_handler = handler;
    return uk_irq_install(TM_IRQ_LINE, tm_lisr);
}

void tm_irq_raise(void) { bsp_fast_irq_raise(TM_IRQ_LINE); }

uint32_t tm_cycles(void) { return bsp_cycles(); }

void tm_gpio_toggle(void)
{
    gpio_state ^= 1;
    if (gpio_state)
        bsp_gpio_set(1);
    else
        bsp_gpio_clear(1);
}

void tm_gpio_high(unsigned pin) { bsp_gpio_set(1u << pin); }
void tm_gpio_low(unsigned pin) { bsp_gpio_clear(1u << pin); }

void tm_print(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bsp_vprintf(fmt, ap);
    va_end(ap);
}

void tm_exit(int code) { bsp_exit(code); }
