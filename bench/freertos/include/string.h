/* The few <string.h> functions FreeRTOS's sources use, provided by the BSP (bsp/src/string.c):
 * firmware here links no C library. */
#ifndef BENCH_FREERTOS_STRING_H
#define BENCH_FREERTOS_STRING_H
#include <stddef.h>
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
#endif
