/* Round-robin fairness under the time-slicing policies ("prio_rr", "rr"): three tasks of equal
 * priority count in tight loops while the controller sleeps N ticks. Each task measures the
 * processor time it got twice: in ticks (the tick values it saw while running: a slice of S
 * ticks shows S values) and in cycles (mcycle differences between consecutive loop turns,
 * leaving out the gaps in which the others ran). Checks: with equal slices every task's share
 * is within one slice of a third of the total; with slices 1, 2, 3 ticks the shares are
 * 1:2:3, each within one (its own) slice. Self-checking; prints the figures. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#if !defined(UK_CONFIG_SCHED_PRIO_RR) && !defined(UK_CONFIG_SCHED_RR)
#error "rr_fairness needs a time-slicing scheduler (prio_rr or rr)"
#endif

#define NW 3
#define WINDOW 240 /* ticks: a multiple of 3 * S and of 1 + 2 + 3 */
#define SLICE 4

static uk_task_t ctl, w[NW];
static uint32_t ctl_stack[256], w_stack[NW][256];

static volatile uint32_t count[NW], ticks[NW], cycles[NW], runs[NW];
static uint32_t gap; /* cycles: a longer pause between two loop turns means others ran */

/* The cycle counter (bsp_cycles: mcycle, or its user copy for a hypervisor guest). */
static inline uint32_t mcycle(void) { return bsp_cycles(); }

/* As a hypervisor guest (tests/kernel/run.sh --guest) the cycle counter also counts the
 * hypervisor's own work at every tick, which the debug kernel's ticks (each through the tail,
 * two to four passes through the hypervisor) make a few per cent of a tick: 4 % more slack. */
#ifdef BSP_GUEST
#define GUEST_SLACK(c) ((c) / 100 * 4)
#else
#define GUEST_SLACK(c) 0u
#endif

static void worker(void *arg)
{
    int i = (int)(uintptr_t)arg;
    uint32_t last = mcycle();
    uk_tick_t seen = uk_time();
    ticks[i] = 1;
    runs[i] = 1;
    for (;;) {
        count[i]++;
        uint32_t now = mcycle(), d = now - last;
        last = now;
        if (d < gap)
            cycles[i] += d; /* ran (a tick interrupt without a switch included) */
        else
            runs[i]++; /* switched out and back in */
        uk_tick_t t = uk_time();
        if (t != seen) {
            seen = t;
            ticks[i]++;
        }
    }
}

static uint32_t absdiff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

/* Run the three workers with these slices for WINDOW ticks; check each share against the
 * total split in proportion to the slices, within one slice of the task. */
static void run_phase(const char *name, const uk_tick_t slice[NW])
{
    uint32_t sum_slices = 0;
    for (int i = 0; i < NW; i++) {
        count[i] = ticks[i] = cycles[i] = runs[i] = 0;
        CHECK_EQ(uk_task_create(&w[i], "w", worker, (void *)(uintptr_t)i, 10, w_stack[i],
                                sizeof w_stack[i]),
                 UK_OK);
        CHECK_EQ(uk_task_set_slice(&w[i], slice[i]), UK_OK);
        sum_slices += slice[i];
    }
    for (int i = 0; i < NW; i++)
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    uk_tick_t t0 = uk_time();
    uint32_t c0 = mcycle();
    CHECK_EQ(uk_task_sleep(WINDOW), UK_OK);
    for (int i = 0; i < NW; i++)
        CHECK_EQ(uk_task_suspend(&w[i]), UK_OK);
    uk_tick_t elapsed = uk_time() - t0;
    uint32_t elapsed_cycles = mcycle() - c0;
#if defined(UK_CONFIG_SCHED_PRIO_RR)
    CHECK_EQ(elapsed, WINDOW); /* the controller preempts the workers when it wakes */
#else
    /* It joins the back of the cycle when it wakes: at most one turn of each worker. */
    uint32_t turn = 0;
    for (int i = 0; i < NW; i++)
        turn += slice[i];
    CHECK(elapsed >= WINDOW && elapsed <= WINDOW + turn);
#endif
    uint32_t tot_ticks = 0, tot_cycles = 0;
    for (int i = 0; i < NW; i++) {
        tot_ticks += ticks[i];
        tot_cycles += cycles[i];
    }
    uint32_t cpt = bsp_cpu_hz() / uk_tick_hz(); /* cycles per tick */
    bsp_printf("%s: %u ticks, %u cycles (%u per tick)\n", name, (unsigned)elapsed,
               (unsigned)elapsed_cycles, (unsigned)cpt);
    for (int i = 0; i < NW; i++) {
        uint32_t want_ticks = tot_ticks * slice[i] / sum_slices;
        uint32_t want_cycles = (uint32_t)((uint64_t)tot_cycles * slice[i] / sum_slices);
        bsp_printf("  task %d slice %u: %u ticks (share %u), %u cycles (share %u, diff %d), %u "
                   "runs, %u loops\n",
                   i, (unsigned)slice[i], (unsigned)ticks[i], (unsigned)want_ticks,
                   (unsigned)cycles[i], (unsigned)want_cycles, (int)(cycles[i] - want_cycles),
                   (unsigned)runs[i], (unsigned)count[i]);
        CHECK(absdiff(ticks[i], want_ticks) <= slice[i]);
        CHECK(absdiff(cycles[i], want_cycles) <= slice[i] * cpt + GUEST_SLACK(want_cycles));
        CHECK(count[i] > 0);
        /* Every turn but the first and the last is a full slice. */
        CHECK(absdiff(runs[i], ticks[i] / slice[i]) <= 2);
    }
    /* The workers had the processor for the whole window, less the kernel's switches and
     * the controller: at least 99 % (a guest: 95 %, below). */
    CHECK(tot_cycles > elapsed_cycles / 100 * 99 - GUEST_SLACK(elapsed_cycles));
    CHECK(absdiff(tot_ticks, elapsed) <= NW);
    for (int i = 0; i < NW; i++)
        CHECK_EQ(uk_task_delete(&w[i]), UK_OK);
}

static void controller(void *arg)
{
    (void)arg;
    gap = bsp_cpu_hz() / uk_tick_hz() / 4;
    static const uk_tick_t equal[NW] = {SLICE, SLICE, SLICE};
    static const uk_tick_t weighted[NW] = {1, 2, 3};
    run_phase("equal slices", equal);
    run_phase("slices 1:2:3", weighted);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&ctl, "ctl", controller, 0, 1, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
