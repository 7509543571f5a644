/* Cooperative switch: tasks A and B of equal priority (under "rr": the only two tasks of the
 * cycle) call uk_task_yield in turn. Each reads mcycle into t0 just before its yield; the
 * other reads mcycle first thing after its own yield returns. Figure: t1 - t0 minus the
 * measurement's own cost (t0 stored, t1 read with nothing in between): uk_task_yield (the
 * caller behind its equals, select, context switch) and the return of the other's yield.
 * The tick is masked (mie.MTIE) while measuring. Output:
 *     coop <worst> <average> <best> */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

#define REPS 1000
#define WARMUP 2

static uk_task_t a_task, b_task;
static uint32_t a_stack[256], b_stack[256];
static volatile uint32_t t0, samples, worst, total, best = 0xFFFFFFFFu;
static uint32_t empty, seen;

static inline uint32_t mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v) : : "memory");
    return v;
}

static void pingpong(void *arg)
{
    bool first = arg != 0; /* A measures the empty window and starts */
    if (first) {
        __asm__ volatile("csrc mie, %0" : : "r"(1u << 7) : "memory"); /* no tick */
        uint32_t e = 0xFFFFFFFFu;
        for (int k = 0; k < 16; k++) {
            t0 = mcycle();
            uint32_t t1 = mcycle();
            if (t1 - t0 < e)
                e = t1 - t0;
        }
        empty = e;
        bsp_printf("coop_empty %u\n", (unsigned)empty);
        t0 = mcycle();
        uk_task_yield();
    }
    for (;;) {
        uint32_t t1 = mcycle();
        uint32_t d = t1 - t0 - empty;
        if (++seen <= WARMUP) { /* B's first run starts it rather than returning from a yield */
            t0 = mcycle();
            uk_task_yield();
            continue;
        }
        if (d > worst)
            worst = d;
        if (d < best)
            best = d;
        total += d;
        if (++samples == REPS) {
            bsp_printf("coop %u %u %u\n", (unsigned)worst, (unsigned)(total / REPS),
                       (unsigned)best);
            bsp_exit(0);
        }
        t0 = mcycle();
        uk_task_yield();
    }
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    uk_task_create(&a_task, "A", pingpong, (void *)1, 5, a_stack, sizeof a_stack);
    uk_task_create(&b_task, "B", pingpong, 0, 5, b_stack, sizeof b_stack);
    uk_task_activate(&a_task);
    uk_task_activate(&b_task);
    uk_start();
    return 0;
}
