/* Thread-Metric's basic processing (issue 12): the fixed computation one count of the basic
 * scenario is, shared by every OS's scenario code (tm_scenarios.c, tm_nos.c). It measures the
 * machine, not the OS, so the suite checks that every OS gets the same cycles per count
 * within 1 % (the threadmetric experiment kind): one source keeps the workload identical.
 *
 * It is Thread-Metric's own workload, so that the figure stands beside published ones (issue
 * 28, item 30: the suite's first cut mixed the words with shifts, 14 % dearer): a pass takes
 * every word of a 1,024-word volatile array, which starts zeroed, adds the number of passes
 * done before it, and XORs the sum with the word read again (volatile: two loads, one store
 * per word). The count is the caller's. */
#ifndef TM_BASIC_H
#define TM_BASIC_H

#include <stdint.h>

#define TM_BASIC_WORDS 1024
static volatile uint32_t tm_basic_data[TM_BASIC_WORDS]; /* zero at start (.bss) */

/* One pass, `done` passes before it. Out of line and aligned, so that every image runs the
 * very same instructions at the same fetch alignment whatever code calls it (inlined, the
 * compiler scheduled the loop differently for NOS's job and Ubik's task: 6 % apart). The
 * loop's first instruction is 4-byte aligned too: this loop's head is a 32-bit instruction,
 * which the core fetches a cycle late at an address 2 mod 4 (15 cycles per word instead of
 * 14); the layout of the code before it must not decide the figure. */
static __attribute__((noinline, aligned(16), optimize("align-loops=4"))) void
tm_basic_pass(uint32_t done)
{
    for (unsigned i = 0; i < TM_BASIC_WORDS; i++)
        tm_basic_data[i] = (tm_basic_data[i] + done) ^ tm_basic_data[i];
}

#endif
