/* The variable-size heap: two-level segregated fits (the TLSF scheme), O(1) alloc and free
 * with immediate coalescing.
 *
 * Blocks tile the heap from `base` to a header-sized sentinel at the end. Each starts with a
 * 16-byte header: the physically previous block, the block's size (header included, a
 * multiple of 8; bit 0 set while free) and a tag, the block's address XORed with TAG_USED or
 * TAG_FREE. Free blocks keep their free-list links in the first payload bytes. A free block
 * of size s is on list [fl][sl]: fl = 0 for s < 256 (sl = s / 32), else fl = log2(s) - 7 and
 * sl the next 3 bits of s (8 lists per power of two). A bit per non-empty list (sl_bitmap[fl])
 * and per non-empty class (fl_bitmap) make the search a pair of lowest-set-bit lookups (a de
 * Bruijn multiply: RV32IMC has no CTZ). Alloc rounds the request up to the next list
 * boundary, so any block of the first non-empty list at or above it fits (good fit, no list
 * walk); when there is none, the first block of the request's own list is taken if it is
 * large enough (one look: a request for the largest free block's payload is served when
 * that block is first on its list, as always in a heap with one free block of its size
 * class). So the largest request alloc serves is the payload of the first block of the
 * highest non-empty list, which uk_heap_stats reports in O(1). The rest of the block, if at
 * least MIN_BLOCK, becomes a free block. Free checks the
 * pointer (inside the heap, 8-aligned, a used block's tag, a consistent size and neighbour),
 * merges with free neighbours and files the result. No loop depends on the heap's contents:
 * the worst case of each call is a fixed number of steps.
 *
 * Double frees (the tag says free) and foreign pointers (outside, misaligned, no tag) return
 * UK_EINVAL. The heap changes under the kernel lock; tasks and HISRs may call it. */
#include "kernel.h"

#ifdef UK_FEATURE_HEAP

#define TAG_USED 0x55534544u
#define TAG_FREE 0x46524545u
#define SMALL 256u

typedef struct blk {
    struct blk *prev_phys;
    uint32_t size; /* bit 0: free */
    uint32_t tag;
    uint32_t spare;
    struct blk *next_free, *prev_free; /* free blocks only */
} blk_t;

#define HDR ((uint32_t) __builtin_offsetof(blk_t, next_free)) /* 16 on RV32 */
#define MIN_BLOCK ((uint32_t)(sizeof(blk_t) + 7) & ~7u)       /* 24 on RV32 */
_Static_assert(__builtin_offsetof(blk_t, next_free) % 8 == 0, "payloads are 8-aligned");

static inline uint32_t bsize(const blk_t *b) { return b->size & ~7u; }
static inline bool is_free(const blk_t *b) { return b->size & 1; }
static inline blk_t *next_phys(const blk_t *b) { return (blk_t *)((uint8_t *)b + bsize(b)); }

/* Index of the highest set bit (x > 0): five fixed steps. */
static inline unsigned fls32(uint32_t x)
{
    unsigned n = 0;
    if (x >> 16) {
        n += 16;
        x >>= 16;
    }
    if (x >> 8) {
        n += 8;
        x >>= 8;
    }
    if (x >> 4) {
        n += 4;
        x >>= 4;
    }
    if (x >> 2) {
        n += 2;
        x >>= 2;
    }
    if (x >> 1)
        n += 1;
    return n;
}

/* Index of the lowest set bit (x > 0). */
static inline unsigned ffs32(uint32_t x)
{
    static const uint8_t debruijn[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20,
                                         15, 25, 17, 4,  8,  31, 27, 13, 23, 21, 19,
                                         16, 7,  26, 12, 18, 6,  11, 5,  10, 9};
    return debruijn[((x & -x) * 0x077CB531u) >> 27];
}

static inline void mapping(uint32_t size, unsigned *fl, unsigned *sl)
{
    if (size < SMALL) {
        *fl = 0;
        *sl = size >> 5;
    } else {
        unsigned f = fls32(size);
        *fl = f - 7;
        *sl = (size >> (f - 3)) & (UK_HEAP_SL - 1);
    }
}

static UK_OTHER_FN(list_insert) void list_insert(uk_heap_t *h, blk_t *b)
{
    unsigned fl, sl;
    mapping(bsize(b), &fl, &sl);
    blk_t *first = h->free[fl][sl];
    b->next_free = first;
    b->prev_free = 0;
    if (first)
        first->prev_free = b;
    h->free[fl][sl] = b;
    h->sl_bitmap[fl] |= 1u << sl;
    h->fl_bitmap |= 1u << fl;
    b->size |= 1;
    b->tag = (uint32_t)(uintptr_t)b ^ TAG_FREE;
    h->free_bytes += bsize(b);
}

static UK_OTHER_FN(list_remove) void list_remove(uk_heap_t *h, blk_t *b)
{
    unsigned fl, sl;
    mapping(bsize(b), &fl, &sl);
    if (b->next_free)
        b->next_free->prev_free = b->prev_free;
    if (b->prev_free) {
        b->prev_free->next_free = b->next_free;
    } else {
        h->free[fl][sl] = b->next_free;
        if (!b->next_free) {
            h->sl_bitmap[fl] &= ~(1u << sl);
            if (!h->sl_bitmap[fl])
                h->fl_bitmap &= ~(1u << fl);
        }
    }
    b->size &= ~1u;
    h->free_bytes -= bsize(b);
}

static UK_OTHER_FN(valid_heap) bool valid_heap(const uk_heap_t *h)
{
    return h && h->magic == UK_HEAP_MAGIC;
}

UK_OTHER_FN(uk_heap_init) int uk_heap_init(uk_heap_t *h, void *buf, size_t bytes)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!h || !buf)
        return UK_EINVAL;
    uintptr_t lo = ((uintptr_t)buf + 7) & ~(uintptr_t)7;
    uintptr_t hi = ((uintptr_t)buf + bytes) & ~(uintptr_t)7;
    if (hi < lo + MIN_BLOCK + HDR || hi - lo > 0x40000000u)
        return UK_EINVAL;
    unsigned key = uk__lock();
    int r = UK_OK;
    if (valid_heap(h) && h->used_blocks) {
        r = UK_ESTATE; /* blocks are still allocated from it */
    } else {
        *h = (uk_heap_t){0};
        h->base = (uint8_t *)lo;
        h->end = (uint8_t *)hi;
        blk_t *first = (blk_t *)lo, *sentinel = (blk_t *)(hi - HDR);
        first->prev_phys = 0;
        first->size = (uint32_t)((uintptr_t)sentinel - lo);
        sentinel->prev_phys = first;
        sentinel->size = HDR; /* used, never freed: ends every walk to the right */
        sentinel->tag = (uint32_t)(uintptr_t)sentinel ^ TAG_USED;
        list_insert(h, first);
        h->magic = UK_HEAP_MAGIC;
    }
    uk__unlock(key);
    return r;
}

/* The first block of the first non-empty list at or above size rounded up to a list
 * boundary (every block there fits), or NULL. */
static inline blk_t *good_fit(const uk_heap_t *h, uint32_t size)
{
    uint32_t want = size;
    if (want >= SMALL)
        want += (1u << (fls32(want) - 3)) - 1;
    else
        want = (want + 31) & ~31u; /* small lists are 32 bytes wide */
    unsigned fl, sl;
    mapping(want, &fl, &sl);
    if (fl >= UK_HEAP_FL)
        return 0;
    uint32_t sl_map = h->sl_bitmap[fl] & (~0u << sl);
    if (!sl_map) {
        uint32_t fl_map = fl + 1 < 32 ? h->fl_bitmap & (~0u << (fl + 1)) : 0;
        if (!fl_map)
            return 0;
        fl = ffs32(fl_map);
        sl_map = h->sl_bitmap[fl];
    }
    return h->free[fl][ffs32(sl_map)];
}

/* No list above holds a block: the first block of size's own list, if it is large enough. */
static UK_OTHER_FN(own_list_fit)
    __attribute__((noinline)) blk_t *own_list_fit(const uk_heap_t *h, uint32_t size)
{
    unsigned fl, sl;
    mapping(size, &fl, &sl);
    if (fl >= UK_HEAP_FL)
        return 0;
    blk_t *b = h->free[fl][sl];
    return b && bsize(b) >= size ? b : 0;
}

/* The allocation under the lock: the block's payload or NULL. */
static UK_OTHER_FN(heap_alloc_locked) void *heap_alloc_locked(uk_heap_t *h, uint32_t size)
{
    blk_t *b = good_fit(h, size);
    if (!b && !(b = own_list_fit(h, size)))
        return 0;
    list_remove(h, b);
    uint32_t rest = bsize(b) - size;
    if (rest >= MIN_BLOCK) { /* split: the rest becomes a free block */
        blk_t *r = (blk_t *)((uint8_t *)b + size);
        r->prev_phys = b;
        r->size = rest;
        next_phys(r)->prev_phys = r;
        b->size = size;
        list_insert(h, r);
    }
    b->tag = (uint32_t)(uintptr_t)b ^ TAG_USED;
    h->used_blocks++;
    return (uint8_t *)b + HDR;
}

UK_OTHER_FN(uk_heap_alloc) int uk_heap_alloc(uk_heap_t *h, size_t bytes, void **p)
{
    if (!valid_heap(h) || !p || bytes == 0)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    if (bytes > 0x3FFFFFF0u)
        return UK_ENOMEM;
    uint32_t size = ((uint32_t)bytes + HDR + 7) & ~7u;
    if (size < MIN_BLOCK)
        size = MIN_BLOCK;
    unsigned key = uk__lock();
    void *m = heap_alloc_locked(h, size);
    uk__unlock(key);
    if (!m)
        return UK_ENOMEM;
    *p = m;
    return UK_OK;
}

UK_OTHER_FN(uk_heap_free) int uk_heap_free(uk_heap_t *h, void *p)
{
    if (!valid_heap(h))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    uint8_t *u = p;
    if (!u || u < h->base + HDR || u >= h->end - HDR || ((uintptr_t)u & 7))
        return UK_EINVAL; /* not a payload of this heap */
    unsigned key = uk__lock();
    blk_t *b = (blk_t *)(u - HDR);
    uint32_t s = bsize(b);
    if (b->tag != ((uint32_t)(uintptr_t)b ^ TAG_USED) || is_free(b) || s < MIN_BLOCK ||
        s > (uint32_t)(h->end - HDR - (uint8_t *)b) || next_phys(b)->prev_phys != b) {
        uk__unlock(key);
        return UK_EINVAL; /* a double free, or not the start of a block */
    }
    h->used_blocks--;
    blk_t *n = next_phys(b);
    if (is_free(n)) { /* merge with the next block */
        list_remove(h, n);
        n->tag = 0;
        b->size += bsize(n);
    }
    blk_t *pv = b->prev_phys;
    if (pv && is_free(pv)) { /* merge into the previous block */
        list_remove(h, pv);
        b->tag = 0;
        pv->size += bsize(b);
        b = pv;
    }
    next_phys(b)->prev_phys = b;
    list_insert(h, b);
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_heap_stats)
int uk_heap_stats(const uk_heap_t *h, size_t *free_bytes, size_t *largest, size_t *used_blocks)
{
    if (!valid_heap(h))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    unsigned key = uk__lock();
    if (free_bytes)
        *free_bytes = h->free_bytes;
    if (used_blocks)
        *used_blocks = h->used_blocks;
    if (largest) { /* what one alloc can get: the first block of the highest list (above) */
        uint32_t big = 0;
        if (h->fl_bitmap) {
            unsigned fl = fls32(h->fl_bitmap), sl = fls32(h->sl_bitmap[fl]);
            big = bsize(h->free[fl][sl]);
        }
        *largest = big >= MIN_BLOCK ? big - HDR : 0;
    }
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_heap_delete) int uk_heap_delete(uk_heap_t *h)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_heap(h))
        return UK_EINVAL;
    unsigned key = uk__lock();
    int r = UK_ESTATE;
    if (!h->used_blocks) {
        h->magic = 0;
        r = UK_OK;
    }
    uk__unlock(key);
    return r;
}

#endif /* UK_FEATURE_HEAP */
