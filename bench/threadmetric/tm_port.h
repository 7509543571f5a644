/* Thread-Metric portability layer (issue 12): the few RTOS services the eight scenarios of
 * tm_scenarios.c use, so that the same scenario code runs on each OS. One implementation per
 * OS (tm_ubik.c: Ubik; bench/freertos/tm_freertos.c: FreeRTOS). Objects are named by small integer ids (0..TM_MAX_* - 1).
 * Priorities: 0 is the highest (the reporting task), larger numbers are lower. */
#ifndef TM_PORT_H
#define TM_PORT_H

#include <stdint.h>

#define TM_MAX_TASKS 6
#define TM_MAX_QUEUES 1
#define TM_MAX_SEMS 2
#define TM_MAX_POOLS 1
#define TM_MAX_MUTEXES 2
#define TM_MSG_WORDS 4    /* a message: 16 bytes */
#define TM_POOL_BLOCK 128 /* bytes per pool block */
#define TM_POOL_BLOCKS 4

/* Before any other tm_ call (but tm_start's tasks are created before tm_start). */
void tm_init(void);
/* Task `id` running entry() at priority `prio`; it starts when tm_start is called. */
int tm_task_create(unsigned id, unsigned prio, void (*entry)(void));
int tm_task_suspend(unsigned id); /* may be the caller's own id */
int tm_task_resume(unsigned id);
int tm_yield(void);
int tm_sleep_ms(uint32_t ms);
/* Starts scheduling; never returns. */
void tm_start(void) __attribute__((noreturn));

/* A queue of 16-byte messages. send/recv block when full/empty. */
int tm_queue_create(unsigned id);
int tm_queue_send(unsigned id, const uint32_t msg[TM_MSG_WORDS]);
int tm_queue_recv(unsigned id, uint32_t msg[TM_MSG_WORDS]);

/* A counting semaphore starting at `initial`; get blocks at zero; put may be called from the
 * interrupt handler. */
int tm_sem_create(unsigned id, uint32_t initial);
int tm_sem_get(unsigned id);
int tm_sem_put(unsigned id);

/* A mutex with priority inheritance; lock blocks forever. */
int tm_mutex_create(unsigned id);
int tm_mutex_lock(unsigned id);
int tm_mutex_unlock(unsigned id);

/* A pool of TM_POOL_BLOCKS blocks of TM_POOL_BLOCK bytes. alloc fails (non-zero) if empty. */
int tm_pool_create(unsigned id);
int tm_pool_alloc(unsigned id, void **block);
int tm_pool_free(unsigned id, void *block);

/* A software-raised interrupt: tm_irq_setup attaches handler() (interrupt context: it may
 * call tm_sem_put and tm_task_resume), tm_irq_raise triggers it. */
int tm_irq_setup(void (*handler)(void));
void tm_irq_raise(void);

uint32_t tm_cycles(void); /* the core's cycle counter (mcycle), wraps at 2^32 */
void tm_gpio_toggle(void);
/* GPIO pin `pin` (0..31) driven high / low: one store to the IO block's GPIO_SET / GPIO_CLEAR
 * register, whose cycle the testbed's --io record gives (Rhealstone's oscilloscope). */
void tm_gpio_high(unsigned pin);
void tm_gpio_low(unsigned pin);
void tm_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tm_exit(int code) __attribute__((noreturn)); /* ends the run: 0 pass, else fail */

#endif
