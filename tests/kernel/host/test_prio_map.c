/* Host unit test of kernel/sched/prio_map.h: the de Bruijn lowest-set-bit lookup (every
 * single bit, every 8-bit group pattern, random words, the 64-bit variant) and the two-level
 * priority map against a plain array, under random set/clear sequences. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "prio_map.h"

static uint32_t rng = 12345;
static uint32_t rnd(void) /* xorshift32 */
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static unsigned naive_lowest(uint32_t x)
{
    unsigned i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
}

/* A map whose members are `set[]`; check every invariant and the first member. */
static void check_map(const uk_prio_map_t *m, const unsigned char set[256])
{
    int first = -1;
    for (unsigned g = 0; g < 8; g++) {
        uint32_t row = 0;
        for (unsigned b = 0; b < 32; b++)
            if (set[g * 32 + b]) {
                row |= 1u << b;
                if (first < 0)
                    first = (int)(g * 32 + b);
            }
        assert(m->rows[g] == row);
        assert(!!(m->groups & (1u << g)) == (row != 0));
    }
    assert((m->groups >> 8) == 0);
    if (first >= 0)
        assert(uk__pmap_first(m) == (unsigned)first);
}

int main(void)
{
    unsigned checks = 0;
    /* Every single bit, and every bit under every pattern of higher bits. */
    for (unsigned b = 0; b < 32; b++) {
        assert(uk__lowest_bit(1u << b) == b);
        assert(uk__lowest_bit(~0u << b) == b);
        checks += 2;
    }
    /* All 2^8 - 1 non-empty group patterns (the `groups` word of 256 priorities), alone and
     * with random rows behind them: the map's first member is the naive minimum. */
    for (unsigned pat = 1; pat < 256; pat++) {
        assert(uk__lowest_bit(pat) == naive_lowest(pat));
        assert(uk__lowest_bit(pat << 24) == naive_lowest(pat) + 24);
        checks += 2;
        for (int rep = 0; rep < 64; rep++) {
            uk_prio_map_t m;
            unsigned char set[256] = {0};
            uk__pmap_init(&m);
            for (unsigned g = 0; g < 8; g++) {
                if (!(pat & (1u << g)))
                    continue;
                uint32_t row = rnd() & rnd(); /* sparse-ish */
                if (!row)
                    row = 1u << (rnd() & 31);
                for (unsigned b = 0; b < 32; b++)
                    if (row & (1u << b)) {
                        uk__pmap_set(&m, g * 32 + b);
                        set[g * 32 + b] = 1;
                    }
            }
            assert(m.groups == pat);
            check_map(&m, set);
            checks++;
        }
    }
    /* Random words, dense and sparse. */
    for (int i = 0; i < 2000000; i++) {
        uint32_t x = rnd();
        if (i & 1)
            x &= rnd() & rnd() & rnd();
        if (!x)
            continue;
        assert(uk__lowest_bit(x) == naive_lowest(x));
        checks++;
    }
    /* The 64-bit field of the bitmap policy. */
    for (unsigned b = 0; b < 64; b++) {
        uint32_t lo = b < 32 ? 1u << b : 0, hi = b < 32 ? 0 : 1u << (b - 32);
        assert(uk__lowest_bit64(lo, hi) == b);
        assert(uk__lowest_bit64(lo, hi | 0x80000000u) == b);
        checks += 2;
    }
    for (int i = 0; i < 1000000; i++) {
        uint32_t lo = (i & 1) ? 0 : rnd() & rnd(), hi = rnd() | 0x80000000u; /* idle: bit 63 */
        unsigned want = lo ? naive_lowest(lo) : 32 + naive_lowest(hi);
        assert(uk__lowest_bit64(lo, hi) == want);
        checks++;
    }
    /* Random set/clear sequences against an array. */
    for (int run = 0; run < 200; run++) {
        uk_prio_map_t m;
        unsigned char set[256] = {0};
        uk__pmap_init(&m);
        unsigned span = 1 + rnd() % 256; /* crowd some runs into few priorities */
        for (int op = 0; op < 2000; op++) {
            unsigned p = rnd() % span;
            if (rnd() & 1) {
                uk__pmap_set(&m, p);
                set[p] = 1;
            } else if (set[p]) {
                unsigned first = uk__pmap_first(&m), n = 0;
                for (unsigned q = 0; q < 256; q++)
                    n += set[q];
                if (p == first && n > 1) {
                    /* The smallest goes: clear_first returns the next smallest. */
                    unsigned next = first + 1;
                    while (!set[next])
                        next++;
                    assert(uk__pmap_clear_first(&m, p) == next);
                } else {
                    uk__pmap_clear(&m, p);
                }
                set[p] = 0;
            }
            check_map(&m, set);
            checks++;
        }
    }
    printf("test_prio_map: %u checks passed\n", checks);
    return 0;
}
