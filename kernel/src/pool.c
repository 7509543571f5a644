/* Fixed-size block pools: O(1) alloc and free from a free list threaded through the free
 * blocks, blocking alloc with a timeout (a free hands its block straight to the first
 * waiter), pools carved from a heap (UbiFOS's two steps: the heap gives the pool its
 * memory once, the pool then serves blocks in constant time).
 *
 * A free block holds the link and a tag, its address XORed with TAG_FREE; alloc clears the
 * tag. Free refuses a pointer outside the pool or not at a block boundary (a foreign
 * pointer) and a block that carries the tag (a double free) with UK_EINVAL. (A block whose
 * owner wrote exactly that tag value into its second word would be refused too: a 2^-32
 * chance for random data, and never for a block whose second word is a pointer or a
 * small number.) From a LISR a free is deferred (the block travels in the deferred call;
 * the range is checked at once, the tag when applied); alloc there is UK_EPERM. */
#include "kernel.h"

#ifdef UK_FEATURE_POOL

#define TAG_FREE 0xF4EEB10Cu

static inline bool valid_pool(const uk_pool_t *p) { return p && p->magic == UK_POOL_MAGIC; }

static inline uint32_t free_tag(const void *b) { return (uint32_t)(uintptr_t)b ^ TAG_FREE; }

static inline bool in_pool(const uk_pool_t *p, const void *b)
{
    uintptr_t off = (uintptr_t)b - (uintptr_t)p->base;
    uint32_t bs = p->block;
    if (off >= p->bytes)
        return false;
    if (__builtin_expect((bs & (bs - 1)) == 0, 1))
        return (off & (bs - 1)) == 0; /* no divide if 2^n */
    return off % bs == 0;
}

static inline bool tagged_free(void **b) { return ((uint32_t *)b)[1] == free_tag(b); }

/* Put free block b on p's free list (the lock held; no task waiting). */
static inline void pool_push(uk_pool_t *p, void **b)
{
    b[0] = p->free_list;
    ((uint32_t *)b)[1] = free_tag(b);
    p->free_list = b;
    p->nfree++;
}

/* The block goes straight to p's first waiter (the lock held); the caller reschedules. */
static UK_IPC_FN(pool_hand_over)
    __attribute__((noinline)) void pool_hand_over(uk_pool_t *p, void **b)
{
    uk_task_t *w = uk__waitq_first(&p->waiters);
    w->wait_arg = (uint32_t)(uintptr_t)b;
    uk__wake(w, UK_OK);
}

/* A LISR's free, applied by the tail (which reschedules): the pool may have been deleted or
 * re-initialised since the LISR checked it, so check again. */
static UK_IPC_FN(pool_put_deferred) int pool_put_deferred(void *obj, uint32_t arg)
{
    uk_pool_t *p = obj;
    void **b = (void **)(uintptr_t)arg;
    if (!valid_pool(p) || !in_pool(p, b) || tagged_free(b))
        return UK_EINVAL;
    if (uk__list_empty(&p->waiters))
        pool_push(p, b);
    else
        pool_hand_over(p, b);
    return UK_OK;
}

UK_IPC_FN(uk_pool_init) int uk_pool_init(uk_pool_t *p, void *buf, size_t block_bytes, size_t count)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!p || !buf || ((uintptr_t)buf & 3) || block_bytes < 8 || (block_bytes & 3) || count == 0 ||
        block_bytes > 0x10000000u / count)
        return UK_EINVAL;
    unsigned key = uk__lock();
    if (valid_pool(p) && !uk__list_empty(&p->waiters)) {
        uk__unlock(key);
        return UK_ESTATE;
    }
    p->base = buf;
    p->block = block_bytes;
    p->bytes = block_bytes * count;
    p->heap = 0;
    p->free_list = 0;
    p->nfree = 0;
    uk__list_init(&p->waiters);
    /* Thread the free list in address order: the first alloc gets the first block. */
    for (size_t i = count; i-- > 0;)
        pool_push(p, (void **)(p->base + i * block_bytes));
    p->magic = UK_POOL_MAGIC;
    uk__unlock(key);
    return UK_OK;
}

#ifdef UK_FEATURE_HEAP
UK_IPC_FN(uk_pool_create)
int uk_pool_create(uk_pool_t *p, uk_heap_t *h, size_t block_bytes, size_t count)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!p || block_bytes < 8 || (block_bytes & 3) || count == 0 ||
        block_bytes > 0x10000000u / count)
        return UK_EINVAL;
    if (valid_pool(p) && !uk__list_empty(&p->waiters))
        return UK_ESTATE;
    void *buf;
    int r = uk_heap_alloc(h, block_bytes * count, &buf);
    if (r != UK_OK)
        return r;
    r = uk_pool_init(p, buf, block_bytes, count);
    if (r != UK_OK) {
        uk_heap_free(h, buf);
        return r;
    }
    p->heap = h;
    return UK_OK;
}
#endif

/* uk_pool_alloc with the pool empty (the lock held, released here): wait or refuse. Out of
 * line so that the fast path below is a leaf with no stack frame. */
static UK_IPC_FN(pool_alloc_wait)
    __attribute__((noinline)) int pool_alloc_wait(uk_pool_t *p, void **blk, uk_tick_t timeout,
                                                  unsigned key)
{
    int r;
    if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else if (uk__current_hisr || !uk__started) {
        r = UK_EPERM;
    } else {
        r = uk__wait(&p->waiters, p, timeout);
        if (r == UK_OK) {
            void **b = (void **)(uintptr_t)uk__current->wait_arg;
            ((uint32_t *)b)[1] = 0;
            *blk = b;
        }
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_pool_alloc) int uk_pool_alloc(uk_pool_t *p, void **blk, uk_tick_t timeout)
{
    if (!valid_pool(p) || !blk)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    void **b = p->free_list;
    if (__builtin_expect(!b, 0))
        return pool_alloc_wait(p, blk, timeout, key);
    p->free_list = b[0];
    ((uint32_t *)b)[1] = 0; /* no longer tagged free */
    p->nfree--;
    uk__unlock(key);
    *blk = b;
    return UK_OK;
}

/* uk_pool_free with a task waiting (the lock held, released here). Out of line, as
 * pool_alloc_wait. */
static UK_IPC_FN(pool_free_to_waiter)
    __attribute__((noinline)) int pool_free_to_waiter(uk_pool_t *p, void **b, unsigned key)
{
    pool_hand_over(p, b);
    uk__reschedule();
    uk__unlock(key);
    return UK_OK;
}

UK_IPC_FN(uk_pool_free) int uk_pool_free(uk_pool_t *p, void *blk)
{
    if (!valid_pool(p) || !in_pool(p, blk))
        return UK_EINVAL;
    void **b = blk;
    if (UK_IN_LISR()) {
        if (uk__lisr_direct() && uk__list_empty(&p->waiters)) {
            if (tagged_free(b))
                uk__deferred_failed++; /* a double free, counted as the tail would */
            else
                pool_push(p, b);
            return UK_OK;
        }
        return uk__defer(pool_put_deferred, p, (uint32_t)(uintptr_t)blk);
    }
    unsigned key = uk__lock();
    if (__builtin_expect(tagged_free(b), 0)) {
        uk__unlock(key);
        return UK_EINVAL; /* already free */
    }
    if (__builtin_expect(!uk__list_empty(&p->waiters), 0))
        return pool_free_to_waiter(p, b, key);
    pool_push(p, b);
    uk__unlock(key);
    return UK_OK;
}

UK_IPC_FN(uk_pool_available) int uk_pool_available(const uk_pool_t *p, uint32_t *nfree)
{
    if (!valid_pool(p) || !nfree)
        return UK_EINVAL;
    *nfree = p->nfree;
    return UK_OK;
}

UK_IPC_FN(uk_pool_delete) int uk_pool_delete(uk_pool_t *p)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_pool(p))
        return UK_EINVAL;
    unsigned key = uk__lock();
    p->magic = 0;
    uk__wake_all(&p->waiters, UK_EDELETED);
    uk__reschedule();
    uk__unlock(key);
#ifdef UK_FEATURE_HEAP
    if (p->heap)
        uk_heap_free(p->heap, p->base); /* a carved pool gives its memory back */
#endif
    p->heap = 0;
    return UK_OK;
}

#endif /* UK_FEATURE_POOL */
