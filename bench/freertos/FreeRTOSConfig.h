/* FreeRTOS configuration for the Ubik reference MCU (bench/freertos: FreeRTOS beside Ubik in
 * the OS-overhead suite). Chosen to match the FreeRTOS figures measured on this core with
 * Thread-Metric's own code (docs/results.md, "Thread-Metric"): preemptive, port-optimised
 * task selection, heap_4, 1 kHz tick, -O2, no asserts, no stack checking, no trace. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

/* The machine timer (docs/machine.md, TIMER): mtime at 0x30000, mtimecmp at 0x30008. */
#define configMTIME_BASE_ADDRESS 0x00030000UL
#define configMTIMECMP_BASE_ADDRESS 0x00030008UL
/* The port uses configCPU_CLOCK_HZ only to turn ticks into mtime counts, so it is mtime's
 * rate (the default machine's [timer] timebase, 10 MHz; the core runs at 100 MHz). Checked
 * against TIMER.MTIME_HZ at start-up by the adapter (tm_freertos.c). */
#define configCPU_CLOCK_HZ 10000000UL
#define configTICK_RATE_HZ 1000
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#define configMAX_PRIORITIES 16
#define configMINIMAL_STACK_SIZE 256
#define configISR_STACK_SIZE_WORDS 512
#define configMAX_TASK_NAME_LEN 8
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configIDLE_SHOULD_YIELD 1
#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 0
#define configUSE_COUNTING_SEMAPHORES 1
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_QUEUE_SETS 0
#define configUSE_NEWLIB_REENTRANT 0
#define configENABLE_BACKWARD_COMPATIBILITY 0
#define configSUPPORT_STATIC_ALLOCATION 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configTOTAL_HEAP_SIZE (48 * 1024)
#define configAPPLICATION_ALLOCATED_HEAP 0
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define configUSE_DAEMON_TASK_STARTUP_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_TRACE_FACILITY 0
#define configUSE_STATS_FORMATTING_FUNCTIONS 0
#define configUSE_CO_ROUTINES 0
#define configUSE_TIMERS 0
#define configUSE_EVENT_GROUPS 0
#define configUSE_STREAM_BUFFERS 0

#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_xTaskResumeFromISR 1
#define INCLUDE_vTaskDelayUntil 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1

#endif
