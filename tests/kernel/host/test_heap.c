/* Host unit test of the heap (kernel/src/heap.c): random sizes, random order; payloads never
 * overlap and keep their contents; double frees and foreign pointers are refused; when
 * everything is freed the heap is one block again (full coalescing). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel.h"

uk_task_t *volatile uk__current;
uk_hisr_t *volatile uk__current_hisr;
bool uk__started;

#define HEAP_BYTES (64 * 1024)
#define SLOTS 200

static uint8_t mem[HEAP_BYTES + 8];
static struct {
    uint8_t *p;
    size_t n;
    uint8_t fill;
} slot[SLOTS];
static unsigned long checks;

/* uk_heap_stats' `largest` is what one alloc can get: exactly that succeeds, one byte more
 * (and the next 8-byte step) does not. The heap is left as it was. */
static unsigned long largest_checks;
static void check_largest(uk_heap_t *h)
{
    size_t free_before, big, used_before, free_after, used_after;
    void *p;
    assert(uk_heap_stats(h, &free_before, &big, &used_before) == UK_OK);
    assert(uk_heap_alloc(h, big + 1, &p) == UK_ENOMEM);
    assert(uk_heap_alloc(h, big + 8, &p) == UK_ENOMEM);
    if (big == 0)
        return;
    assert(uk_heap_alloc(h, big, &p) == UK_OK);
    assert(uk_heap_free(h, p) == UK_OK);
    assert(uk_heap_stats(h, &free_after, 0, &used_after) == UK_OK);
    assert(free_after == free_before && used_after == used_before);
    largest_checks++;
}

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

static void check_all(void)
{
    for (int i = 0; i < SLOTS; i++) {
        if (!slot[i].p)
            continue;
        for (size_t k = 0; k < slot[i].n; k++)
            assert(slot[i].p[k] == slot[i].fill);
        checks++;
    }
}

int main(void)
{
    uk_heap_t h;
    memset(&h, 0, sizeof h);
    assert(uk_heap_init(&h, mem + 3, HEAP_BYTES) == UK_OK); /* misaligned buffer: aligned up */
    size_t free0, big0, used;
    assert(uk_heap_stats(&h, &free0, &big0, &used) == UK_OK && used == 0);
    void *p;
    assert(uk_heap_alloc(&h, 0, &p) == UK_EINVAL);
    assert(uk_heap_alloc(&h, HEAP_BYTES, &p) == UK_ENOMEM);
    assert(big0 > HEAP_BYTES - 64); /* a fresh heap: one block, all of it */
    check_largest(&h);
    assert(uk_heap_alloc(&h, big0 - big0 / 8, &p) ==
           UK_OK); /* good fit: within 1/8 of the largest */
    assert(uk_heap_free(&h, p) == UK_OK);
    assert(uk_heap_free(&h, p) == UK_EINVAL); /* double free */
    int local;
    assert(uk_heap_free(&h, &local) == UK_EINVAL); /* foreign */
    assert(uk_heap_alloc(&h, 100, &p) == UK_OK);
    assert(uk_heap_free(&h, (uint8_t *)p + 8) == UK_EINVAL); /* inside a block */
    assert(uk_heap_free(&h, (uint8_t *)p + 1) == UK_EINVAL);
    assert(uk_heap_free(&h, p) == UK_OK);

    for (int round = 0; round < 200000; round++) {
        int i = rnd() % SLOTS;
        if (slot[i].p) {
            assert(uk_heap_free(&h, slot[i].p) == UK_OK);
            assert(uk_heap_free(&h, slot[i].p) == UK_EINVAL);
            slot[i].p = 0;
        } else {
            size_t n = 1 + (rnd() % 8 == 0 ? rnd() % 4096 : rnd() % 200);
            void *q;
            int r = uk_heap_alloc(&h, n, &q);
            if (r == UK_ENOMEM)
                continue;
            assert(r == UK_OK);
            assert(((uintptr_t)q & 7) == 0);
            assert((uint8_t *)q >= mem && (uint8_t *)q + n <= mem + sizeof mem);
            slot[i].p = q;
            slot[i].n = n;
            slot[i].fill = (uint8_t)rnd();
            memset(q, slot[i].fill, n);
        }
        if (round % 1000 == 0)
            check_all(); /* no overlap: every payload still holds its own pattern */
        if (round % 97 == 0)
            check_largest(&h);
    }
    check_all();
    for (int i = 0; i < SLOTS; i++)
        if (slot[i].p)
            assert(uk_heap_free(&h, slot[i].p) == UK_OK);
    size_t free1, big1;
    assert(uk_heap_stats(&h, &free1, &big1, &used) == UK_OK);
    assert(used == 0 && free1 == free0 && big1 == big0); /* one block again */
    check_largest(&h);
    assert(uk_heap_delete(&h) == UK_OK);
    printf("test_heap: %lu payload checks, %lu largest-block checks passed, fully coalesced (%zu "
           "bytes free)\n",
           checks, largest_checks, free1);
    return 0;
}
