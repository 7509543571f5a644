/* Scheduling order under every policy: preemption by priority, FIFO among equals (or the
 * cycle of "rr"), yield, suspend/resume of ready and running tasks, deletion from every
 * state, priority changes, time slicing of equal spinners. One test for all policies: the
 * expectations that differ are under #ifdef UK_CONFIG_SCHED_*. A controller task at priority 1
 * drives the phases; workers log one character per step (step_log.h). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"
#include "step_log.h"

#if defined(UK_CONFIG_SCHED_RR)
#define CYCLIC 1 /* one run queue, no preemption, priorities order nothing */
#else
#define CYCLIC 0
#endif
#if (defined(UK_CONFIG_SCHED_BITMAP) || defined(UK_CONFIG_SCHED_RTM))
#define EQ(i) (20 + (i)) /* unique priorities: "equal" tasks get neighbouring ones */
#define LOW 40
#else
#define EQ(i) 20
#define LOW 200
#endif

#define STACK_WORDS 256
#define NT 8
static uk_task_t ctl, w[NT];
static uint32_t ctl_stack[STACK_WORDS], w_stack[NT][STACK_WORDS];

static int spawn(int i, const char *name, void (*f)(void *), uintptr_t arg, uint8_t prio)
{
    return uk_task_create(&w[i], name, f, (void *)arg, prio, w_stack[i], sizeof w_stack[i]);
}

/* ---- workers ---- */

static void logger(void *arg) { L((char)(uintptr_t)arg); }

static void yielder(void *arg)
{
    L((char)(uintptr_t)arg);
    CHECK_EQ(uk_task_yield(), UK_OK);
    L((char)(uintptr_t)arg);
}

/* Preemption chain: l activates m, m activates h. */
static void chain(void *arg)
{
    int i = (int)(uintptr_t)arg;
    L("lmh"[i]);
    if (i < 2)
        CHECK_EQ(uk_task_activate(&w[i + 1]), UK_OK);
    L("LMH"[i]);
}

static void self_suspender(void *arg)
{
    for (;;) {
        L((char)(uintptr_t)arg);
        CHECK_EQ(uk_task_suspend(0), UK_OK); /* suspends the running task */
    }
}

static volatile uint32_t spins[NT];
static void spinner(void *arg)
{
    volatile uint32_t *c = &spins[(uintptr_t)arg];
    for (;;)
        (*c)++;
}

static void self_deleter(void *arg)
{
    (void)arg;
    L('r');
    CHECK_EQ(uk_task_delete(0), UK_OK); /* never returns */
    L('X');
}

static volatile uk_tick_t slept[NT];
static void sleeper(void *arg)
{
    int i = (int)(uintptr_t)arg >> 16;
    uk_tick_t ticks = (uintptr_t)arg & 0xffff, t0 = uk_time();
    CHECK_EQ(uk_task_sleep(ticks), UK_OK);
    slept[i] = uk_time() - t0;
    L('s');
}

static uk_sem_t sem;
static void pender(void *arg)
{
    uk_tick_t timeout = (uk_tick_t)(uintptr_t)arg;
    int r = uk_sem_take(&sem, timeout);
    (void)r;
    L('P'); /* never: deleted while waiting */
}

static void delete_all(void)
{
    for (int i = 0; i < NT; i++)
        if (uk_task_state(&w[i]) != UK_TASK_DELETED)
            CHECK_EQ(uk_task_delete(&w[i]), UK_OK);
}

/* ---- phases ---- */

static void phase_preemption(void)
{
    for (int i = 0; i < 3; i++)
        CHECK_EQ(spawn(i, "chain", chain, i, 30 - 10 * i), UK_OK); /* l 30, m 20, h 10 */
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    EXPECT_LOG(""); /* lower than the controller: waits (and "rr" never preempts) */
    CHECK_EQ(uk_task_sleep(3), UK_OK);
#if CYCLIC
    EXPECT_LOG("lLmMhH"); /* each activation joins the back of the queue */
#else
    EXPECT_LOG("lmhHML"); /* each activation of a higher priority preempts at once */
#endif
    for (int i = 0; i < 3; i++)
        CHECK_EQ(uk_task_state(&w[i]), UK_TASK_DELETED); /* entry returned */
}

static void phase_fifo_yield(void)
{
    for (int i = 0; i < 3; i++)
        CHECK_EQ(spawn(i, "eq", yielder, '1' + i, EQ(i)), UK_OK);
    CHECK_EQ(spawn(3, "x", logger, 'x', EQ(0) + 5), UK_OK);
#if (defined(UK_CONFIG_SCHED_BITMAP) || defined(UK_CONFIG_SCHED_RTM))
    /* Unique priorities: a second live task at a taken one is refused, idle's included. */
    uk_task_t extra;
    static uint32_t extra_stack[64];
    CHECK_EQ(uk_task_create(&extra, "dup", logger, 0, EQ(1), extra_stack, sizeof extra_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_create(&extra, "dup", logger, 0, 63, extra_stack, sizeof extra_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_create(&extra, "dup", logger, 0, 1, extra_stack, sizeof extra_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_create(&extra, "big", logger, 0, 64, extra_stack, sizeof extra_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_set_prio(&w[0], EQ(1)), UK_EINVAL);
    CHECK_EQ(uk_task_prio(&w[0]), EQ(0));
#else
    uk_task_t extra;
    static uint32_t extra_stack[64];
    CHECK_EQ(
        uk_task_create(&extra, "big", logger, (void *)'B', 64, extra_stack, sizeof extra_stack),
        UK_OK);
    CHECK_EQ(uk_task_delete(&extra), UK_OK);
#endif
    /* A yield with no equal ready returns at once; under "rr" everybody is an equal. */
    CHECK_EQ(uk_task_activate(&w[3]), UK_OK);
    CHECK_EQ(uk_task_yield(), UK_OK);
#if CYCLIC
    EXPECT_LOG("x");
#else
    EXPECT_LOG("");
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    EXPECT_LOG("x");
#endif
    CHECK_EQ(spawn(3, "x", logger, 'x', EQ(0) + 5), UK_OK);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    EXPECT_LOG("");
    CHECK_EQ(uk_task_sleep(3), UK_OK);
#if CYCLIC
    EXPECT_LOG("123x123"); /* one cycle; a yield goes to the back */
#elif (defined(UK_CONFIG_SCHED_BITMAP) || defined(UK_CONFIG_SCHED_RTM))
    EXPECT_LOG("112233x"); /* alone at its priority: the yield returns at once */
#else
    EXPECT_LOG("123123x"); /* FIFO among equals, a yield goes behind them, lower last */
#endif
}

static void phase_suspend_resume(void)
{
    CHECK_EQ(spawn(0, "a", self_suspender, 'a', EQ(0)), UK_OK);
    CHECK_EQ(spawn(1, "b", self_suspender, 'b', EQ(1)), UK_OK);
    CHECK_EQ(uk_task_resume(&w[0]), UK_ESTATE); /* created: activate, not resume */
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    CHECK_EQ(uk_task_activate(&w[1]), UK_OK);
    CHECK_EQ(uk_task_activate(&w[0]), UK_ESTATE);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_READY);
    CHECK_EQ(uk_task_suspend(&w[0]), UK_OK); /* a ready task */
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_suspend(&w[0]), UK_ESTATE);
    CHECK_EQ(uk_task_resume(&w[1]), UK_ESTATE); /* ready, not suspended */
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    EXPECT_LOG("b");
    CHECK_EQ(uk_task_state(&w[1]), UK_TASK_SUSPENDED); /* suspended itself while running */
    CHECK_EQ(uk_task_resume(&w[0]), UK_OK);
    CHECK_EQ(uk_task_resume(&w[1]), UK_OK);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_READY);
    EXPECT_LOG("");
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    EXPECT_LOG("ab");

    /* A task preempted in the middle of its work (ready, not running) is suspended, stays
     * still, resumes where it was, and is deleted. */
    spins[2] = 0;
    CHECK_EQ(spawn(2, "spin", spinner, 2, LOW), UK_OK);
    CHECK_EQ(uk_task_activate(&w[2]), UK_OK);
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK_EQ(uk_task_state(&w[2]), UK_TASK_READY);
    CHECK(spins[2] > 0);
    CHECK_EQ(uk_task_suspend(&w[2]), UK_OK);
    uint32_t c0 = spins[2];
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK_EQ(spins[2], c0); /* only the idle task ran */
    CHECK_EQ(uk_task_resume(&w[2]), UK_OK);
    CHECK_EQ(uk_task_sleep(3), UK_OK);
    CHECK(spins[2] > c0);
    CHECK_EQ(uk_task_delete(&w[2]), UK_OK); /* ready, preempted mid-loop */
    CHECK_EQ(uk_task_state(&w[2]), UK_TASK_DELETED);
    c0 = spins[2];
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(spins[2], c0);
    delete_all(); /* a and b: suspended after running */
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_DELETED);
    CHECK_EQ(uk_task_state(&w[1]), UK_TASK_DELETED);
}

static void phase_delete(void)
{
    /* Suspended, never activated; a deleted task is no task. */
    CHECK_EQ(spawn(0, "d", logger, 'd', EQ(0)), UK_OK);
    CHECK_EQ(uk_task_delete(&w[0]), UK_OK);
    CHECK_EQ(uk_task_state(&w[0]), UK_TASK_DELETED);
    CHECK_EQ(uk_task_delete(&w[0]), UK_EINVAL);
    CHECK_EQ(uk_task_activate(&w[0]), UK_EINVAL);
    CHECK_EQ(uk_task_resume(&w[0]), UK_EINVAL);
    CHECK_EQ(uk_task_suspend(&w[0]), UK_EINVAL);
    CHECK_EQ(uk_task_set_prio(&w[0], 5), UK_EINVAL);
    /* Ready, never ran. Its priority is free again (bitmap) for the next one. */
    CHECK_EQ(spawn(0, "d", logger, 'd', EQ(0)), UK_OK);
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    CHECK_EQ(uk_task_delete(&w[0]), UK_OK);
    /* Running: deletes itself (and the rest of its code never runs). */
    CHECK_EQ(spawn(1, "r", self_deleter, 0, EQ(0)), UK_OK);
    CHECK_EQ(uk_task_activate(&w[1]), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    EXPECT_LOG("r");
    CHECK_EQ(uk_task_state(&w[1]), UK_TASK_DELETED);

    /* Delayed, pending, pending with a timeout: each leaves its queues; the delta list keeps
     * the other sleepers exact to the tick (w[5]: 40 ticks, w[6]: 70). */
    CHECK_EQ(uk_sem_init(&sem, 0, 5), UK_OK);
    CHECK_EQ(spawn(2, "delayed", sleeper, 2 << 16 | 30, EQ(0)), UK_OK);
    CHECK_EQ(spawn(3, "pending", pender, (uintptr_t)UK_FOREVER, EQ(1)), UK_OK);
    CHECK_EQ(spawn(4, "pend_dl", pender, 20, EQ(2)), UK_OK);
    CHECK_EQ(spawn(5, "s40", sleeper, 5 << 16 | 40, EQ(3)), UK_OK);
    CHECK_EQ(spawn(6, "s70", sleeper, 6 << 16 | 70, EQ(4)), UK_OK);
    for (int i = 2; i <= 6; i++)
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&w[2]), UK_TASK_DELAYED);
    CHECK_EQ(uk_task_state(&w[3]), UK_TASK_PENDING);
    CHECK_EQ(uk_task_state(&w[4]), UK_TASK_PENDING_DELAYED);
    for (int i = 2; i <= 4; i++) {
        CHECK_EQ(uk_task_delete(&w[i]), UK_OK);
        CHECK_EQ(uk_task_state(&w[i]), UK_TASK_DELETED);
    }
    CHECK_EQ(uk_sem_give(&sem), UK_OK); /* nobody waits any more: the count keeps it */
    uint32_t count = 0;
    CHECK_EQ(uk_sem_count(&sem, &count), UK_OK);
    CHECK_EQ(count, 1);
    CHECK_EQ(uk_task_sleep(100), UK_OK);
    EXPECT_LOG("ss"); /* only the two sleepers that were not deleted */
    CHECK_EQ(slept[5], 40);
    CHECK_EQ(slept[6], 70);
    CHECK_EQ(slept[2], 0);
    CHECK_EQ(uk_sem_delete(&sem), UK_OK);
    /* Suspended while pending: the wait ends; then deleted from suspended. */
    CHECK_EQ(uk_sem_init(&sem, 0, 1), UK_OK);
    CHECK_EQ(spawn(3, "pending", pender, (uintptr_t)UK_FOREVER, EQ(1)), UK_OK);
    CHECK_EQ(uk_task_activate(&w[3]), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_suspend(&w[3]), UK_OK);
    CHECK_EQ(uk_task_state(&w[3]), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_delete(&w[3]), UK_OK);
    CHECK_EQ(uk_sem_give(&sem), UK_OK);
    CHECK_EQ(uk_sem_count(&sem, &count), UK_OK);
    CHECK_EQ(count, 1);
    CHECK_EQ(uk_sem_delete(&sem), UK_OK);
    EXPECT_LOG("");
    /* The idle task is never suspended nor deleted. */
    extern uk_task_t uk__idle_task;
    CHECK_EQ(uk_task_suspend(&uk__idle_task), UK_EINVAL);
    CHECK_EQ(uk_task_delete(&uk__idle_task), UK_EINVAL);
}

static void phase_set_prio(void)
{
    CHECK_EQ(spawn(0, "a", logger, 'a', EQ(0)), UK_OK);
    CHECK_EQ(spawn(1, "b", logger, 'b', EQ(1)), UK_OK);
    CHECK_EQ(spawn(2, "c", logger, 'c', EQ(2)), UK_OK);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    CHECK_EQ(uk_task_set_prio(&w[1], 5), UK_OK);  /* b: above a and c, below us */
    CHECK_EQ(uk_task_set_prio(&w[0], 40), UK_OK); /* a: below c */
    CHECK_EQ(uk_task_prio(&w[1]), 5);
    CHECK_EQ(uk_task_prio(&w[0]), 40);
    EXPECT_LOG("");
    CHECK_EQ(uk_task_sleep(2), UK_OK);
#if CYCLIC
    EXPECT_LOG("abc"); /* a priority change keeps the place in the cycle */
#else
    EXPECT_LOG("bca");
#endif
    /* Raised above the running task: runs at once (not under "rr"). */
    CHECK_EQ(spawn(0, "t", logger, 't', LOW), UK_OK);
    CHECK_EQ(uk_task_activate(&w[0]), UK_OK);
    CHECK_EQ(uk_task_set_prio(&w[0], 0), UK_OK);
#if CYCLIC
    EXPECT_LOG("");
    CHECK_EQ(uk_task_yield(), UK_OK);
#endif
    EXPECT_LOG("t");
#if (defined(UK_CONFIG_SCHED_BITMAP) || defined(UK_CONFIG_SCHED_RTM))
    /* Its priority 0 is free again once it is deleted (it returned): we may take it. */
    CHECK_EQ(uk_task_set_prio(0, 0), UK_OK);
    CHECK_EQ(uk_task_set_prio(0, 1), UK_OK);
#endif
}

/* Equal spinners: without time slices the first keeps the processor, with them they share. */
static void phase_slices(void)
{
    for (int i = 0; i < 2; i++) {
        spins[i] = 0;
        CHECK_EQ(spawn(i, "spin", spinner, i, EQ(i)), UK_OK);
        CHECK_EQ(uk_task_set_slice(&w[i], 2), UK_OK);
        CHECK_EQ(uk_task_activate(&w[i]), UK_OK);
    }
    CHECK_EQ(uk_task_set_slice(&w[0], 0), UK_EINVAL);
    CHECK_EQ(uk_task_sleep(10), UK_OK);
    CHECK(spins[0] > 0);
#if defined(UK_CONFIG_SCHED_PRIO_RR) || defined(UK_CONFIG_SCHED_RR)
    CHECK(spins[1] > 0);
#else
    CHECK_EQ(spins[1], 0);
#endif
    delete_all();
}

static void controller(void *arg)
{
    (void)arg;
    phase_preemption();
    phase_fifo_yield();
    phase_suspend_resume();
    phase_delete();
    phase_set_prio();
    phase_slices();
    delete_all();
    bsp_printf("sched_order: %u checks\n", check_count_);
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
