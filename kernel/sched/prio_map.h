/* Priority bitmaps shared by the priority policies (prio.c, prio_rr.c, bitmap.c): the lowest
 * set bit of a word by de Bruijn multiplication, and a two-level map of 256 priorities.
 *
 * RV32IMC has no CLZ/CTZ instruction. x & -x isolates the lowest set bit (a power of two);
 * multiplying the de Bruijn constant 0x077CB531 by it shifts the constant left by the bit's
 * index, and the top five bits of the product are then a distinct 5-bit pattern for each
 * index, which a 32-entry table maps back to the index: and, neg, mul (3 cycles), shift, load.
 *
 * Pure C on fixed-width integers, no kernel dependencies: the host unit tests
 * (tests/kernel/host/) include this file as it is. */
#ifndef UBIK_SCHED_PRIO_MAP_H
#define UBIK_SCHED_PRIO_MAP_H

#include <stdint.h>

static const uint8_t uk__debruijn32[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20,
                                           15, 25, 17, 4,  8,  31, 27, 13, 23, 21, 19,
                                           16, 7,  26, 12, 18, 6,  11, 5,  10, 9};

/* Index of the lowest set bit of x; x must not be 0. */
static inline uint32_t uk__lowest_bit(uint32_t x)
{
    return uk__debruijn32[((x & -x) * 0x077CB531u) >> 27];
}

/* Index of the lowest set bit of the 64-bit field {hi:lo}; the field must not be 0. */
static inline uint32_t uk__lowest_bit64(uint32_t lo, uint32_t hi)
{
    return lo ? uk__lowest_bit(lo) : 32 + uk__lowest_bit(hi);
}

/* A set of priorities 0..255, two levels: bit g of `groups` is set iff rows[g] != 0, and bit
 * b of rows[g] is set iff priority 32g+b is in the set. The smallest member (the highest
 * priority) is found with two lookups whatever the set holds. */
typedef struct {
    uint32_t groups;
    uint32_t rows[8];
} uk_prio_map_t;

static inline void uk__pmap_init(uk_prio_map_t *m)
{
    m->groups = 0;
    for (unsigned g = 0; g < 8; g++)
        m->rows[g] = 0;
}

static inline void uk__pmap_set(uk_prio_map_t *m, unsigned p)
{
    uint32_t row = m->rows[p >> 5];
    if (!row) /* the group's bit is set already when its row has members */
        m->groups |= 1u << (p >> 5);
    m->rows[p >> 5] = row | 1u << (p & 31);
}

static inline void uk__pmap_clear(uk_prio_map_t *m, unsigned p)
{
    uint32_t row = m->rows[p >> 5] &= ~(1u << (p & 31));
    if (!row)
        m->groups &= ~(1u << (p >> 5));
}

/* Remove p, the smallest member, from the set; returns the new smallest. When p's row keeps
 * members the next one is among them (every row before it is empty): one lookup, not two.
 * The set must not become empty. */
static inline unsigned uk__pmap_clear_first(uk_prio_map_t *m, unsigned p)
{
    uint32_t row = m->rows[p >> 5] &= ~(1u << (p & 31));
    if (row)
        return (p & ~31u) | uk__lowest_bit(row);
    m->groups &= ~(1u << (p >> 5));
    uint32_t g = uk__lowest_bit(m->groups);
    return g << 5 | uk__lowest_bit(m->rows[g]);
}

/* The smallest priority in the set; the set must not be empty. */
static inline unsigned uk__pmap_first(const uk_prio_map_t *m)
{
    uint32_t g = uk__lowest_bit(m->groups);
    return g << 5 | uk__lowest_bit(m->rows[g]);
}

#endif
