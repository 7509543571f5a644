/* Thread-Metric's basic processing (issue 12): the fixed computation one count of the basic
 * scenario is, shared by every OS's scenario code (tm_scenarios.c, tm_nos.c). It measures the
 * machine, not the OS, so the suite checks that every OS gets the same cycles per count
 * within 1 % (tm_json.py): one source keeps the workload identical. */
#ifndef TM_BASIC_H
#define TM_BASIC_H

#include <stdint.h>

#define TM_BASIC_WORDS 1024
static volatile uint32_t tm_basic_data[TM_BASIC_WORDS];

/* One pass: every word of the array is mixed with a running value seeded by `seed`. Out of
 * line and aligned, so that every image runs the very same instructions at the same fetch
 * alignment whatever code calls it (inlined, the compiler scheduled the loop differently
 * for NOS's job and Ubik's task: 6 % apart). */
static __attribute__((noinline, aligned(16))) void tm_basic_pass(uint32_t seed)
{
    uint32_t acc = seed;
    for (unsigned i = 0; i < TM_BASIC_WORDS; i++) {
        acc = (acc << 3) ^ (acc >> 5) ^ tm_basic_data[i] ^ i;
        tm_basic_data[i] = acc;
    }
}

#endif
