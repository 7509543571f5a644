/* Ubik: memory. Fixed-size block pools (O(1) alloc and free, blocking alloc with a timeout)
 * and a variable-size heap (two-level segregated fits: O(1) alloc and free, immediate
 * coalescing). A pool may be carved from a heap. Double frees and foreign pointers are
 * refused with UK_EINVAL. */
#ifndef UBIK_MEM_H
#define UBIK_MEM_H

#include "ubik/types.h"

#define UK_HEAP_FL 24 /* first-level classes: blocks up to 2^(7+24) bytes */
#define UK_HEAP_SL 8  /* second-level lists per class */

typedef struct uk_heap {
    uint8_t *base, *end;
    uint32_t fl_bitmap;
    uint8_t sl_bitmap[UK_HEAP_FL];
    void *free[UK_HEAP_FL][UK_HEAP_SL];
    uint32_t free_bytes; /* sum of the free blocks' sizes (headers included) */
    uint32_t used_blocks;
    uint32_t magic;
} uk_heap_t;

int uk_heap_init(uk_heap_t *h, void *buf, size_t bytes);
int uk_heap_alloc(uk_heap_t *h, size_t bytes, void **p);
int uk_heap_free(uk_heap_t *h, void *p);
/* Free bytes (headers included); `largest`: the largest request one uk_heap_alloc serves
 * now -- alloc(largest) succeeds, alloc(largest + 1) fails (0: no alloc can succeed); blocks
 * in use. */
int uk_heap_stats(const uk_heap_t *h, size_t *free_bytes, size_t *largest, size_t *used_blocks);
int uk_heap_delete(uk_heap_t *h); /* UK_ESTATE while blocks are allocated */

typedef struct uk_pool {
    uint8_t *base;
    uint32_t block; /* bytes per block (a multiple of 4, at least 8) */
    uint32_t bytes; /* block * the number of blocks: the pool's extent from base */
    void *free_list;
    uint32_t nfree;
    uk_heap_t *heap; /* the heap it was carved from, or NULL */
    uk_list_t waiters;
    uint32_t magic;
} uk_pool_t;

int uk_pool_init(uk_pool_t *p, void *buf, size_t block_bytes, size_t count);
int uk_pool_create(uk_pool_t *p, uk_heap_t *h, size_t block_bytes, size_t count);
int uk_pool_alloc(uk_pool_t *p, void **blk, uk_tick_t timeout);
int uk_pool_free(uk_pool_t *p, void *blk);
int uk_pool_available(const uk_pool_t *p, uint32_t *nfree);
int uk_pool_delete(uk_pool_t *p);

#endif
