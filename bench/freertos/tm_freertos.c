/* Thread-Metric portability layer (bench/threadmetric/tm_port.h) on FreeRTOS, built from the
 * checkout FREERTOS_KERNEL_PATH names (bench/freertos/build.sh). FreeRTOS numbers priorities
 * the other way round (larger runs first): tm priority p is FreeRTOS priority
 * configMAX_PRIORITIES - 1 - p. The software interrupt is fast line TM_IRQ_LINE, latched with
 * the interrupt controller's SET register; its handler runs in
 * freertos_risc_v_application_interrupt_handler, where kernel calls use the FromISR forms
 * and a switch they make due happens when the interrupt returns (portYIELD_FROM_ISR).
 * The pool is heap_4 (pvPortMalloc/vPortFree of one block), as Thread-Metric's FreeRTOS
 * port does; build with -DTM_FREERTOS_FREE_LIST for a bare free list instead. */
#include <stdarg.h>
#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "bsp/bsp.h"
#include "tm_port.h"

#define TM_IRQ_LINE 5
#define TM_STACK_WORDS 256

static TaskHandle_t tasks[TM_MAX_TASKS];
static void (*entries[TM_MAX_TASKS])(void);
static QueueHandle_t queues[TM_MAX_QUEUES];
static SemaphoreHandle_t sems[TM_MAX_SEMS];
static SemaphoreHandle_t mutexes[TM_MAX_MUTEXES];
static void (*irq_handler)(void);
static volatile int in_isr;
static BaseType_t isr_woken;
static uint32_t gpio_state;

void tm_init(void)
{
    bsp_counters_enable();
    if (bsp_timer_hz() != configCPU_CLOCK_HZ) {
        bsp_printf("tm_freertos: mtime runs at %u Hz, FreeRTOSConfig.h assumes %u\n",
                   (unsigned)bsp_timer_hz(), (unsigned)configCPU_CLOCK_HZ);
        bsp_exit(2);
    }
}

static void task_trampoline(void *arg)
{
    entries[(uintptr_t)arg]();
    vTaskDelete(NULL);
}

int tm_task_create(unsigned id, unsigned prio, void (*entry)(void))
{
    if (id >= TM_MAX_TASKS || prio >= configMAX_PRIORITIES - 1)
        return -1;
    entries[id] = entry;
    return xTaskCreate(task_trampoline, "tm", TM_STACK_WORDS, (void *)(uintptr_t)id,
                       configMAX_PRIORITIES - 1 - prio, &tasks[id]) == pdPASS
               ? 0
               : -1;
}

int tm_task_suspend(unsigned id)
{
    vTaskSuspend(tasks[id]);
    return 0;
}

int tm_task_resume(unsigned id)
{
    if (in_isr)
        isr_woken |= xTaskResumeFromISR(tasks[id]);
    else
        vTaskResume(tasks[id]);
    return 0;
}

int tm_yield(void)
{
    taskYIELD();
    return 0;
}

int tm_sleep_ms(uint32_t ms)
{
    vTaskDelay(pdMS_TO_TICKS(ms));
    return 0;
}

void tm_start(void)
{
    vTaskStartScheduler();
    tm_exit(99); /* not reached: the scheduler runs for ever */
}

int tm_queue_create(unsigned id)
{
    queues[id] = xQueueCreate(10, TM_MSG_WORDS * 4);
    return queues[id] ? 0 : -1;
}

int tm_queue_send(unsigned id, const uint32_t msg[TM_MSG_WORDS])
{
    return xQueueSend(queues[id], msg, portMAX_DELAY) == pdPASS ? 0 : -1;
}

int tm_queue_recv(unsigned id, uint32_t msg[TM_MSG_WORDS])
{
    return xQueueReceive(queues[id], msg, portMAX_DELAY) == pdPASS ? 0 : -1;
}

int tm_sem_create(unsigned id, uint32_t initial)
{
    sems[id] = xSemaphoreCreateCounting(0xFFFFFFFFu, initial);
    return sems[id] ? 0 : -1;
}

int tm_sem_get(unsigned id) { return xSemaphoreTake(sems[id], portMAX_DELAY) == pdPASS ? 0 : -1; }

int tm_sem_put(unsigned id)
{
    if (in_isr)
        return xSemaphoreGiveFromISR(sems[id], &isr_woken) == pdPASS ? 0 : -1;
    return xSemaphoreGive(sems[id]) == pdPASS ? 0 : -1;
}

int tm_mutex_create(unsigned id)
{
    mutexes[id] = xSemaphoreCreateMutex();
    return mutexes[id] ? 0 : -1;
}

int tm_mutex_lock(unsigned id)
{
    return xSemaphoreTake(mutexes[id], portMAX_DELAY) == pdPASS ? 0 : -1;
}

int tm_mutex_unlock(unsigned id) { return xSemaphoreGive(mutexes[id]) == pdPASS ? 0 : -1; }

#ifdef TM_FREERTOS_FREE_LIST
/* A bare free list of TM_POOL_BLOCKS blocks, in a critical section: what a minimal fixed-block
 * pool costs on FreeRTOS (it has no pool service of its own). */
static void *free_list[TM_MAX_POOLS];
static uint32_t pool_buf[TM_MAX_POOLS][TM_POOL_BLOCKS * TM_POOL_BLOCK / 4];

int tm_pool_create(unsigned id)
{
    for (unsigned i = 0; i < TM_POOL_BLOCKS; i++) {
        void **b = (void **)&pool_buf[id][i * TM_POOL_BLOCK / 4];
        *b = free_list[id];
        free_list[id] = b;
    }
    return 0;
}

int tm_pool_alloc(unsigned id, void **block)
{
    taskENTER_CRITICAL();
    void **b = free_list[id];
    if (b)
        free_list[id] = *b;
    taskEXIT_CRITICAL();
    *block = b;
    return b ? 0 : -1;
}

int tm_pool_free(unsigned id, void *block)
{
    taskENTER_CRITICAL();
    *(void **)block = free_list[id];
    free_list[id] = block;
    taskEXIT_CRITICAL();
    return 0;
}
#else
int tm_pool_create(unsigned id)
{
    (void)id;
    return 0;
}

int tm_pool_alloc(unsigned id, void **block)
{
    (void)id;
    *block = pvPortMalloc(TM_POOL_BLOCK);
    return *block ? 0 : -1;
}

int tm_pool_free(unsigned id, void *block)
{
    (void)id;
    vPortFree(block);
    return 0;
}
#endif

int tm_irq_setup(void (*handler)(void))
{
    irq_handler = handler;
    bsp_fast_irq_enable(TM_IRQ_LINE);
    return 0;
}

void tm_irq_raise(void) { bsp_fast_irq_raise(TM_IRQ_LINE); }

/* Fast lines (mcause 16 + line), called by the port's freertos_risc_v_interrupt_handler on
 * its ISR stack with interrupts disabled. */
void freertos_risc_v_application_interrupt_handler(uint32_t mcause);
void freertos_risc_v_application_interrupt_handler(uint32_t mcause)
{
    unsigned cause = mcause & 0x7FFFFFFFu;
    if (cause < 16 || cause > 30) {
        bsp_printf("tm_freertos: unexpected interrupt, mcause 0x%08x\n", (unsigned)mcause);
        bsp_exit(BSP_EXIT_UNHANDLED_TRAP);
    }
    unsigned line = cause - 16;
    bsp_fast_irq_ack(line);
    if (line == TM_IRQ_LINE && irq_handler) {
        in_isr = 1;
        isr_woken = pdFALSE;
        irq_handler();
        in_isr = 0;
        portYIELD_FROM_ISR(isr_woken);
    }
}

/* Exceptions other than the port's own ecall. */
void freertos_risc_v_application_exception_handler(uint32_t mcause);
void freertos_risc_v_application_exception_handler(uint32_t mcause)
{
    bsp_printf("tm_freertos: exception, mcause 0x%08x mepc 0x%08x mtval 0x%08x\n", (unsigned)mcause,
               (unsigned)csr_read(mepc), (unsigned)csr_read(mtval));
    bsp_exit(BSP_EXIT_UNHANDLED_TRAP);
}

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
