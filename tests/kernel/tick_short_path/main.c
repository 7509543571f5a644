/* The tick counted in the timer interrupt itself (switch.S, bsp_vector_timer): under `prio`
 * and `bitmap` most ticks never reach the tail. Two sleepers (1, 2, 3, 7 and 5, 11 ticks, so
 * the delta list's head changes and ticks with and without an expiry alternate) check that
 * every sleep lasts exactly its ticks in uk_time() and wakes in the mtime period of the tick
 * it expires in; meanwhile a LISR on a fast line every 37.3 us (it lands inside the timer's
 * short path too) counts itself and gives a semaphore nobody waits on, applied at once. At
 * the end: the tick count equals the time elapsed, and no interrupt was lost. Every
 * scheduler (rr and prio_rr give every tick to the tail: the same checks hold). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 256
static uk_task_t a, b;
static uint32_t a_stack[STK], b_stack[STK];
static uk_sem_t sem;
static volatile uint32_t lisr_runs, a_rounds, b_rounds;
static uint64_t t0_mtime;
static uk_tick_t t0_ticks;

static void lisr(unsigned line)
{
    (void)line;
    lisr_runs++;
    uk_sem_give(&sem);
}

/* mtime counts per tick (the default machine: 10 MHz, 1 kHz ticks: 10,000). */
static uint64_t period(void) { return bsp_timer_hz() / uk_tick_hz(); }

static void sleeper(const uk_tick_t *d, unsigned n, volatile uint32_t *rounds)
{
    for (unsigned k = 0; k < 40; k++) {
        uk_tick_t want = d[k % n];
        uk_tick_t before = uk_time();
        CHECK_EQ(uk_task_sleep(want), UK_OK);
        uk_tick_t now = uk_time();
        CHECK_EQ(now - before, want);
        /* woken in the period of tick `now`: mtime within [start of that tick, +1 period) */
        uint64_t since = bsp_timer_now() - t0_mtime;
        uint64_t tick_start = (uint64_t)(now - t0_ticks) * period();
        CHECK(since >= tick_start && since < tick_start + period());
        (*rounds)++;
    }
}

static void a_entry(void *arg)
{
    (void)arg;
    static const uk_tick_t d[] = {1, 2, 3, 7};
    sleeper(d, 4, &a_rounds);
    while (b_rounds < 40)
        CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t ticks = uk_time() - t0_ticks;
    uint64_t elapsed = bsp_timer_now() - t0_mtime;
    CHECK_EQ(ticks, (uint32_t)(elapsed / period()));
    CHECK(lisr_runs > 5000);
    /* Both counts read with interrupts off: a LISR between the two reads would count itself
     * after the semaphore was read. Any give a LISR deferred before has been applied: the
     * tail runs before this task goes on. */
    uint32_t n = 0;
    unsigned key = uk_irq_disable();
    CHECK_EQ(uk_sem_count(&sem, &n), UK_OK);
    uint32_t runs = lisr_runs;
    uk_irq_restore(key);
    CHECK_EQ(n + uk_deferred_failed(), runs); /* every give counted or its failure */
    bsp_printf("%u ticks, %u interrupts\n", (unsigned)ticks, (unsigned)lisr_runs);
    bsp_exit(check_result());
}

static void b_entry(void *arg)
{
    (void)arg;
    static const uk_tick_t d[] = {5, 11};
    sleeper(d, 2, &b_rounds);
    for (;;)
        CHECK_EQ(uk_task_sleep(100), UK_OK);
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&sem, 0, 0xFFFFFFFFu), UK_OK);
    CHECK_EQ(uk_task_create(&a, "a", a_entry, 0, 5, a_stack, sizeof a_stack), UK_OK);
    CHECK_EQ(uk_task_create(&b, "b", b_entry, 0, 6, b_stack, sizeof b_stack), UK_OK);
    CHECK_EQ(uk_irq_install(1, lisr), UK_OK);
    CHECK_EQ(uk_task_activate(&a), UK_OK);
    CHECK_EQ(uk_task_activate(&b), UK_OK);
    t0_ticks = uk_time();
    t0_mtime = bsp_timer_now(); /* the tick's base is read in uk_start, a few counts later */
    uk_start();
    return 99;
}
