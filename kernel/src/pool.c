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

static UK_IPC_FN(valid_pool) bool valid_pool(const uk_pool_t *p)
{
    return p && p->magic == UK_POOL_MAGIC;
}

static inline uint32_t free_tag(const void *b) { return (uint32_t)(uintptr_t)b ^ TAG_FREE; }

static inline bool in_pool(const uk_pool_t *p, const void *b)
{
    uintptr_t off = (uintptr_t)b - (uintptr_t)p->base;
    uint32_t bs = p->block;
    if (off >= (uintptr_t)bs * p->count)
        return false;
    return (bs & (bs - 1)) == 0 ? (off & (bs - 1)) == 0 : off % bs == 0; /* no divide if 2^n */
}

/* Return b to the pool under the lock: 1 if a waiter got it (the caller reschedules). */
static UK_IPC_FN(pool_put) int pool_put(void *obj, uint32_t arg)
{
    uk_pool_t *p = obj;
    void **b = (void **)(uintptr_t)arg;
    if (!valid_pool(p) || !in_pool(p, b))
        return UK_EINVAL;
    if (((uint32_t *)b)[1] == free_tag(b))
        return UK_EINVAL; /* already free */
    uk_task_t *w = uk__waitq_first(&p->waiters);
    if (w) {
        w->wait_arg = (uint32_t)(uintptr_t)b;
        uk__wake(w, UK_OK);
        return 1;
    }
    b[0] = p->free_list;
    ((uint32_t *)b)[1] = free_tag(b);
    p->free_list = b;
    p->nfree++;
    return UK_OK;
}

static UK_IPC_FN(pool_put_deferred) int pool_put_deferred(void *obj, uint32_t arg)
{
    int r = pool_put(obj, arg);
    return r > 0 ? UK_OK : r;
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
    p->count = count;
    p->heap = 0;
    p->free_list = 0;
    p->nfree = 0;
    uk__list_init(&p->waiters);
    /* Thread the free list in address order: the first alloc gets the first block. */
    for (size_t i = count; i-- > 0;) {
        void **b = (void **)(p->base + i * block_bytes);
        b[0] = p->free_list;
        ((uint32_t *)b)[1] = free_tag(b);
        p->free_list = b;
    }
    p->nfree = count;
    p->magic = UK_POOL_MAGIC;
    uk__unlock(key);
    return UK_OK;
}

#ifdef UK_FEATURE_HEAP
UK_IPC_FN(uk_pool_create) int uk_pool_create(uk_pool_t *p, uk_heap_t *h, size_t block_bytes, size_t count)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!p || block_bytes < 8 || (block_bytes & 3) || count == 0 || block_bytes > 0x10000000u / count)
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

UK_IPC_FN(uk_pool_alloc) int uk_pool_alloc(uk_pool_t *p, void **blk, uk_tick_t timeout)
{
    if (!valid_pool(p) || !blk)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    if (UK_HISR_TIMEOUT(timeout))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    int r = UK_OK;
    void **b = p->free_list;
    if (b) {
        p->free_list = b[0];
        ((uint32_t *)b)[1] = 0; /* no longer tagged free */
        p->nfree--;
        *blk = b;
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else if (uk__current_hisr || !uk__started) {
        r = UK_EPERM;
    } else {
        r = uk__wait(&p->waiters, p, timeout);
        if (r == UK_OK) {
            b = (void **)(uintptr_t)uk__current->wait_arg;
            ((uint32_t *)b)[1] = 0;
            *blk = b;
        }
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_pool_free) int uk_pool_free(uk_pool_t *p, void *blk)
{
    if (!valid_pool(p) || !in_pool(p, blk))
        return UK_EINVAL;
    if (UK_IN_LISR())
        return uk__defer(pool_put_deferred, p, (uint32_t)(uintptr_t)blk);
    unsigned key = uk__lock();
    int r = pool_put(p, (uint32_t)(uintptr_t)blk);
    if (r > 0) {
        uk__reschedule();
        r = UK_OK;
    }
    uk__unlock(key);
    return r;
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
