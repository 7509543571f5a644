/* FreeRTOS's sources include <stdlib.h> for NULL and size_t only (no C library here). */
#ifndef BENCH_FREERTOS_STDLIB_H
#define BENCH_FREERTOS_STDLIB_H
#include <stddef.h>
#endif
