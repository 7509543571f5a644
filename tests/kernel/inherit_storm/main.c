/* A storm of mutex waits with timeouts, nested locks that form deadlock cycles, priority
 * changes from outside (a higher task re-prioritises the workers every tick) and signals
 * (a cyclic timer's function sends them from the timers' HISR, ending waits with UK_EINTR).
 * Every wait ends (by the mutex, its timeout or a signal) no later than its timeout, every
 * cycle is broken by a timeout, and whenever a worker holds no mutex its priority is its base: nothing lent stays
 * behind. Under rtm a priority change used to drop a timed waiter's timeout, so waits never
 * ended and owners kept lent priorities. Unique base priorities (bitmap, rtm). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define NW 8
#define NM 4
#define ROUNDS 40
#define STK 256
static uk_task_t ctl, changer, wk[NW];
static uint32_t ctl_stack[STK], changer_stack[STK], wk_stack[NW][STK];
static uk_mutex_t m[NM];
static uk_timer_t storm;
static uk_sem_t finished;
static volatile uint32_t sigs_seen, timeouts, intrs, gots, changes;
static volatile int stop;

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Worker i's two base priorities, unique among all tasks: 20 + 2i and 21 + 2i. */
static uint8_t base_of(unsigned i, unsigned alt) { return (uint8_t)(20 + 2 * i + (alt & 1)); }

static void on_signal(uint32_t s)
{
    (void)s;
    sigs_seen++;
}

static void count(int r)
{
    if (r == UK_OK)
        gots++;
    else if (r == UK_ETIMEOUT)
        timeouts++;
    else if (r == UK_EINTR)
        intrs++;
    else
        CHECK_EQ(r, UK_OK); /* anything else is wrong */
}

/* A mutex wait never outlasts its timeout (one tick of slack: the worker, ready again, may
 * wait for higher tasks before it reads the time). */
static int lock_timed(uk_mutex_t *mx, uk_tick_t timeout)
{
    uk_tick_t t0 = uk_time();
    int r = uk_mutex_lock(mx, timeout);
    uk_tick_t took = uk_time() - t0;
    if (took > timeout + 1) {
        bsp_printf("a wait of timeout %u took %u ticks\n", (unsigned)timeout, (unsigned)took);
        CHECK(0);
    }
    count(r);
    return r;
}

static void worker(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    uk_task_t *self = &wk[i];
    uint32_t seed = 0x9e3779b9u * (i + 1);
    CHECK_EQ(uk_signal_handler(0, on_signal), UK_OK);
    for (int round = 0; round < ROUNDS; round++) {
        uint32_t r = rnd(&seed);
        unsigned a = r % NM, b = (a + 1 + (r >> 4) % (NM - 1)) % NM;
        int ra = lock_timed(&m[a], 1 + (r >> 6) % 5);
        if (ra == UK_OK) {
            int rb = UK_ETIMEOUT;
            if (r >> 9 & 1) {
                rb = lock_timed(&m[b], 1 + (r >> 10) % 4); /* may close a cycle */
            }
            if (r >> 12 & 1)
                (void)uk_task_sleep(1 + (r >> 13) % 2); /* UK_EINTR possible */
            if (rb == UK_OK)
                CHECK_EQ(uk_mutex_unlock(&m[b]), UK_OK);
            CHECK_EQ(uk_mutex_unlock(&m[a]), UK_OK);
        }
        CHECK(self->mutexes == 0);
        unsigned key = uk_irq_disable(); /* the changer may flip the base in between */
        uk_prio_t prio = self->prio, base = self->base_prio;
        uk_irq_restore(key);
        CHECK_EQ(prio, base); /* holds nothing: nothing lent */
        if (r >> 16 & 1)
            (void)uk_task_sleep(1);
    }
    CHECK_EQ(uk_signal_handler(0, 0), UK_OK);
    CHECK_EQ(uk_sem_give(&finished), UK_OK);
}

/* Above the workers: every tick, one worker's base priority flips (while it waits, owns,
 * runs or sleeps). */
static void changer_entry(void *arg)
{
    (void)arg;
    uint32_t seed = 12345;
    while (!stop) {
        uint32_t r = rnd(&seed);
        unsigned i = r % NW;
        if (uk_task_state(&wk[i]) != UK_TASK_DELETED) {
            CHECK_EQ(uk_task_set_prio(&wk[i], base_of(i, wk[i].base_prio == base_of(i, 0))), UK_OK);
            changes++;
        }
        (void)uk_task_sleep(1);
    }
}

/* Every tick, from the timers' HISR: a signal to one worker (refused once it has ended). */
static void storm_fn(uk_timer_t *tm, void *arg)
{
    (void)tm;
    (void)arg;
    static uint32_t seed = 777;
    unsigned i = rnd(&seed) % NW;
    (void)uk_signal_send(&wk[i], 1);
}

static void ctl_entry(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_timer_start(&storm, 1, 1), UK_OK);
    for (unsigned i = 0; i < NW; i++)
        CHECK_EQ(uk_task_activate(&wk[i]), UK_OK);
    CHECK_EQ(uk_task_activate(&changer), UK_OK);
    for (unsigned i = 0; i < NW; i++)
        CHECK_EQ(uk_sem_take(&finished, 5000), UK_OK); /* every worker ends */
    stop = 1;
    CHECK_EQ(uk_timer_stop(&storm), UK_OK);
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    for (unsigned i = 0; i < NM; i++)
        CHECK(m[i].owner == 0);
    for (unsigned i = 0; i < NW; i++)
        CHECK_EQ(uk_task_state(&wk[i]), UK_TASK_DELETED);
    CHECK(gots > 0 && timeouts > 0 && changes > 0 && sigs_seen > 0);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&finished, 0, NW), UK_OK);
    for (unsigned i = 0; i < NM; i++)
        CHECK_EQ(uk_mutex_init(&m[i]), UK_OK);
    CHECK_EQ(uk_timer_init(&storm, storm_fn, 0), UK_OK);
    for (unsigned i = 0; i < NW; i++)
        CHECK_EQ(uk_task_create(&wk[i], "w", worker, (void *)(uintptr_t)i, base_of(i, 0),
                                wk_stack[i], sizeof wk_stack[i]),
                 UK_OK);
    CHECK_EQ(
        uk_task_create(&changer, "chg", changer_entry, 0, 5, changer_stack, sizeof changer_stack),
        UK_OK);
    CHECK_EQ(uk_task_create(&ctl, "ctl", ctl_entry, 0, 50, ctl_stack, sizeof ctl_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&ctl), UK_OK);
    uk_start();
    return 99;
}
