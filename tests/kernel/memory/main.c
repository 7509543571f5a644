/* Memory: pools (O(1) alloc/free, blocking alloc with exact timeouts, waiters served in
 * priority order, deletion under waiters, double frees and foreign pointers refused, a pool
 * carved from the heap and given back) and the heap (stress with random sizes: payloads
 * never overlap and keep their contents; everything freed: one block again).
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
static uk_task_t main_t, w[3];
static uint32_t main_stack[STK], w_stack[3][STK];
static uk_pool_t pool, carved;
static uint32_t pool_buf[4 * 4]; /* 4 blocks of 16 bytes */
static uk_heap_t heap;
static uint8_t heap_buf[16 * 1024] __attribute__((aligned(8)));
static volatile int order[8], n_order, res[3];
static void *volatile got[3];

static void allocer(void *arg)
{
    int id = (int)(uintptr_t)arg;
    void *b = 0;
    res[id] = uk_pool_alloc(&pool, &b, UK_FOREVER);
    got[id] = b;
    order[n_order++] = id;
}

static void start(int n, const int *ids, const uint8_t *prios)
{
    n_order = 0;
    for (int i = 0; i < n; i++) {
        res[ids[i]] = 99;
        CHECK_EQ(uk_task_create(&w[ids[i]], "w", allocer, (void *)(uintptr_t)ids[i], prios[i],
                                w_stack[ids[i]], sizeof w_stack[0]),
                 UK_OK);
        CHECK_EQ(uk_task_activate(&w[ids[i]]), UK_OK);
    }
    CHECK_EQ(uk_task_sleep(2), UK_OK);
}

static uint32_t rng = 2024;
static uint32_t rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

#define SLOTS 48
static struct {
    uint8_t *p;
    uint32_t n;
    uint8_t fill;
} slot[SLOTS];

static void check_slots(void)
{
    for (int i = 0; i < SLOTS; i++)
        for (uint32_t k = 0; slot[i].p && k < slot[i].n; k++)
            if (slot[i].p[k] != slot[i].fill) {
                CHECK_EQ(slot[i].p[k], slot[i].fill);
                return;
            }
}

/* uk_heap_stats' `largest` is what one alloc can get: exactly that succeeds, one byte more
 * (and the next 8-byte step) does not; the heap is left as it was. */
static void check_largest(uk_heap_t *h)
{
    size_t fr0 = 0, big = 0, used0 = 0, fr1 = 0, used1 = 0;
    void *p;
    CHECK_EQ(uk_heap_stats(h, &fr0, &big, &used0), UK_OK);
    CHECK_EQ(uk_heap_alloc(h, big + 1, &p), UK_ENOMEM);
    CHECK_EQ(uk_heap_alloc(h, big + 8, &p), UK_ENOMEM);
    if (big == 0)
        return;
    int r = uk_heap_alloc(h, big, &p);
    CHECK_EQ(r, UK_OK);
    if (r == UK_OK)
        CHECK_EQ(uk_heap_free(h, p), UK_OK);
    CHECK_EQ(uk_heap_stats(h, &fr1, 0, &used1), UK_OK);
    CHECK_EQ(fr1, fr0);
    CHECK_EQ(used1, used0);
}

static void main_task(void *arg)
{
    (void)arg;
    void *b[5] = {0};
    uint32_t n = 0;
    /* ---- Pools. */
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 6, 4), UK_EINVAL); /* not a multiple of 4 */
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 4, 4), UK_EINVAL); /* below 8 */
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 16, 4), UK_OK);
    for (int k = 0; k < 4; k++) {
        CHECK_EQ(uk_pool_alloc(&pool, &b[k], UK_NO_WAIT), UK_OK);
        CHECK((uint8_t *)b[k] == (uint8_t *)pool_buf + 16 * k);
    }
    CHECK_EQ(uk_pool_alloc(&pool, &b[4], UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_pool_available(&pool, &n), UK_OK);
    CHECK_EQ(n, 0);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_pool_alloc(&pool, &b[4], 8), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 8);
    CHECK_EQ(uk_pool_free(&pool, (uint8_t *)b[1] + 4), UK_EINVAL); /* inside a block */
    CHECK_EQ(uk_pool_free(&pool, &n), UK_EINVAL);                  /* foreign */
    CHECK_EQ(uk_pool_free(&pool, b[1]), UK_OK);
    CHECK_EQ(uk_pool_free(&pool, b[1]), UK_EINVAL); /* double free */
    CHECK_EQ(uk_pool_alloc(&pool, &b[1], UK_NO_WAIT), UK_OK);
    /* Waiters get freed blocks in priority order. */
    static const int rid[3] = {2, 0, 1};
    static const uint8_t rprio[3] = {22, 20, 21};
    start(3, rid, rprio);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(uk_pool_free(&pool, b[k]), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(res[k], UK_OK);
        CHECK(got[k] == b[k]);
        CHECK_EQ(order[k], k);
    }
    CHECK_EQ(uk_pool_available(&pool, &n), UK_OK);
    CHECK_EQ(n, 0);
    start(3, rid, rprio);
    CHECK_EQ(uk_pool_delete(&pool), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    for (int k = 0; k < 3; k++)
        CHECK_EQ(res[k], UK_EDELETED);
    CHECK_EQ(uk_pool_alloc(&pool, &b[0], 0), UK_EINVAL);

    /* ---- Heap. */
    size_t free0 = 0, big0 = 0, used = 9, fr, big;
    CHECK_EQ(uk_heap_init(&heap, heap_buf, 20), UK_EINVAL);
    CHECK_EQ(uk_heap_init(&heap, heap_buf, sizeof heap_buf), UK_OK);
    CHECK_EQ(uk_heap_stats(&heap, &free0, &big0, &used), UK_OK);
    CHECK_EQ(used, 0);
    CHECK(free0 > sizeof heap_buf - 64);
    CHECK(big0 > sizeof heap_buf - 64);
    check_largest(&heap); /* a fresh heap: all of it in one alloc */
    /* A pool carved from the heap, given back when deleted. */
    CHECK_EQ(uk_pool_create(&carved, &heap, 32, 20), UK_OK);
    CHECK_EQ(uk_heap_stats(&heap, &fr, &big, &used), UK_OK);
    CHECK_EQ(used, 1);
    CHECK(fr <= free0 - 640);
    for (int k = 0; k < 5; k++)
        CHECK_EQ(uk_pool_alloc(&carved, &b[k], 0), UK_OK);
    for (int k = 0; k < 5; k++)
        CHECK_EQ(uk_pool_free(&carved, b[k]), UK_OK);
    CHECK_EQ(uk_pool_create(&carved, &heap, 32, 100000), UK_ENOMEM);
    CHECK_EQ(uk_pool_delete(&carved), UK_OK);
    CHECK_EQ(uk_heap_stats(&heap, &fr, &big, &used), UK_OK);
    CHECK_EQ(used, 0);
    CHECK_EQ(fr, free0);
    /* Stress: random sizes, random order. */
    unsigned allocs = 0, refused = 0;
    for (int round = 0; round < 4000; round++) {
        int i = rnd() % SLOTS;
        if (slot[i].p) {
            CHECK_EQ(uk_heap_free(&heap, slot[i].p), UK_OK);
            CHECK_EQ(uk_heap_free(&heap, slot[i].p), UK_EINVAL); /* double free */
            slot[i].p = 0;
        } else {
            uint32_t sz = 1 + (rnd() % 8 == 0 ? rnd() % 2000 : rnd() % 120);
            void *p = 0;
            int r = uk_heap_alloc(&heap, sz, &p);
            if (r == UK_ENOMEM) {
                refused++;
                continue;
            }
            CHECK_EQ(r, UK_OK);
            CHECK_EQ((uintptr_t)p & 7, 0);
            CHECK((uint8_t *)p >= heap_buf && (uint8_t *)p + sz <= heap_buf + sizeof heap_buf);
            slot[i].p = p;
            slot[i].n = sz;
            slot[i].fill = (uint8_t)rnd();
            for (uint32_t k = 0; k < sz; k++)
                slot[i].p[k] = slot[i].fill;
            allocs++;
        }
        if (round % 250 == 0)
            check_slots();
        if (round % 97 == 0)
            check_largest(&heap);
    }
    check_slots();
    CHECK_EQ(uk_heap_free(&heap, heap_buf + 3), UK_EINVAL);
    CHECK_EQ(uk_heap_free(&heap, &n), UK_EINVAL);
    CHECK_EQ(uk_heap_delete(&heap), allocs ? UK_ESTATE : UK_OK); /* blocks still out */
    for (int i = 0; i < SLOTS; i++)
        if (slot[i].p)
            CHECK_EQ(uk_heap_free(&heap, slot[i].p), UK_OK);
    CHECK_EQ(uk_heap_stats(&heap, &fr, &big, &used), UK_OK);
    CHECK_EQ(used, 0);
    CHECK_EQ(fr, free0); /* fully coalesced: one block again */
    CHECK_EQ(big, big0);
    CHECK(allocs > 1000);
    bsp_printf("heap stress: %u allocations, %u refused (full)\n", allocs, refused);
    CHECK_EQ(uk_heap_delete(&heap), UK_OK);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
