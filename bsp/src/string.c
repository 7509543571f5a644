/* The four memory functions GCC may call even in freestanding code (struct
 * copies, zeroing): memcpy, memmove, memset, memcmp. Build this file with
 * -fno-tree-loop-distribute-patterns, or GCC turns the loops back into calls. */
#include <stddef.h>
#include <stdint.h>

/* A word that may alias any other type. */
typedef uint32_t __attribute__((may_alias)) word_t;

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(word_t *)d = *(const word_t *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--)
            *d++ = *s++;
    } else if (d > s) {
        while (n--)
            d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (((uintptr_t)d & 3) == 0) {
        uint32_t w = (unsigned char)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4)
            *(word_t *)d = w;
    }
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}
