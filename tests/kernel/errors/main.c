/* Every UK_E* path of the task, semaphore, mutex, interrupt and HISR calls: NULL and
 * uninitialised objects (UK_EINVAL), bad priorities, stack sizes and lines, UK_ESTATE,
 * UK_EAGAIN, UK_ETIMEOUT, UK_EDELETED, UK_ENOMEM, and UK_EPERM from a LISR (machine.toml's
 * stimulus on line 2) and from a HISR. Scheduler-independent: ordering comes from sleeps and
 * semaphores, never from preemption. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

extern uk_task_t uk__idle_task; /* the kernel's idle task: neither suspendable nor deletable */

#define STK 256
static uk_task_t main_t, spare, waiter, waiter2, owner, mwaiter;
static uint32_t main_stack[STK], spare_stack[STK], waiter_stack[STK], waiter2_stack[STK],
    owner_stack[STK], mwaiter_stack[STK];
static uint32_t hisr_stack[STK], hisr2_stack[STK];
static uk_task_t zero_task; /* never created: every call refuses it */
static uk_sem_t zero_sem;   /* never initialised */
static uk_mutex_t zero_mutex;
static uk_hisr_t zero_hisr;
static uk_sem_t s0, s1, hold;
static uk_mutex_t m, m2;
static uk_hisr_t hisr, hisr2;

static volatile int spare_runs, waiter_result = 1, waiter2_result = 1, mwaiter_result = 1,
                                owner_unlock_result = 1, owner_locked;
static volatile int lisr_armed, lisr_done, hisr_done, hisr_first = 1, hisr_runs;
static volatile unsigned hisr_activations_ok;

static void spare_task(void *arg)
{
    (void)arg;
    for (;;) {
        spare_runs++;
        CHECK_EQ(uk_task_suspend(0), UK_OK);
    }
}

static void waiter_task(void *arg)
{
    (void)arg;
    waiter_result = uk_sem_take(&s0, UK_FOREVER);
}

static void waiter2_task(void *arg)
{
    (void)arg;
    waiter2_result = uk_sem_take(&s0, 50); /* pending + delayed */
}

static void owner_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m, UK_FOREVER), UK_OK);
    owner_locked = 1;
    CHECK_EQ(uk_sem_take(&hold, UK_FOREVER), UK_OK);
    owner_unlock_result = uk_mutex_unlock(&m); /* m was deleted meanwhile */
}

static void mwaiter_task(void *arg)
{
    (void)arg;
    mwaiter_result = uk_mutex_lock(&m, UK_FOREVER);
}

static void dummy_lisr(unsigned line) { (void)line; }
static void dummy_hisr(uk_hisr_t *h) { (void)h; }
static void dummy_entry(void *arg) { (void)arg; }

/* The calls no interrupt handler may make, with the current task (main, spinning) under us. */
static void forbidden_calls(bool in_lisr)
{
    uk_tick_t lw = uk_time();
    CHECK(uk_in_isr());
    CHECK_EQ(uk_task_self(), &main_t);
    CHECK_EQ(uk_sem_take(&s1, UK_FOREVER), UK_EPERM); /* s1 is empty: would block */
    CHECK_EQ(uk_sem_take(&s1, 5), UK_EPERM);
    /* A HISR may take without waiting (it misses here); a LISR may not take at all (the
     * count may be mid-change in the kernel call it interrupted). */
    CHECK_EQ(uk_sem_take(&s1, UK_NO_WAIT), in_lisr ? UK_EPERM : UK_EAGAIN);
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_EPERM);
    CHECK_EQ(uk_mutex_lock(&m2, UK_FOREVER), UK_EPERM);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_EPERM);
    CHECK_EQ(uk_mutex_delete(&m2), UK_EPERM);
    CHECK_EQ(uk_task_yield(), UK_EPERM);
    CHECK_EQ(uk_task_sleep(1), UK_EPERM);
    CHECK_EQ(uk_task_sleep(0), UK_EPERM);
    CHECK_EQ(uk_task_sleep_until(&lw, 5), UK_EPERM);
    CHECK_EQ(lw, uk_time());                /* untouched */
    CHECK_EQ(uk_task_suspend(0), UK_EPERM); /* the interrupted task */
    CHECK_EQ(uk_task_suspend(&main_t), UK_EPERM);
    CHECK_EQ(uk_task_delete(0), UK_EPERM);
    CHECK_EQ(uk_task_delete(&main_t), UK_EPERM);
    CHECK_EQ(uk_task_create(&spare, "spare", spare_task, 0, 20, spare_stack, sizeof spare_stack),
             UK_EPERM);
    CHECK_EQ(uk_task_state(&main_t), UK_TASK_RUNNING);
}

static void hisr_entry(uk_hisr_t *h)
{
    hisr_runs++;
    if (!hisr_first)
        return;
    hisr_first = 0;
    forbidden_calls(false);
    CHECK_EQ(uk_hisr_delete(h), UK_EPERM); /* from a HISR: refused (and it is running) */
    /* 65535 activations may be pending; the next one is refused, never lost silently. */
    int r;
    while ((r = uk_hisr_activate(h)) == UK_OK)
        hisr_activations_ok++;
    CHECK_EQ(r, UK_ENOMEM);
    CHECK_EQ(hisr_activations_ok, 65535);
    hisr_done = 1;
}

static void lisr(unsigned line)
{
    CHECK_EQ(line, 2);
    if (!lisr_armed || lisr_done)
        return;
    forbidden_calls(true);
    CHECK_EQ(uk_hisr_activate(&hisr), UK_OK);
    CHECK_EQ(uk_hisr_delete(&hisr), UK_EPERM); /* from a LISR: refused (and it is activated) */
    CHECK_EQ(uk_irq_mask(1u << 15), UK_EINVAL);
    lisr_done = 1;
}

static void task_errors(void)
{
    CHECK_EQ(uk_task_sleep(1), UK_OK); /* a fresh time slice (rr) */
    /* uk_task_create: arguments. */
    CHECK_EQ(uk_task_create(0, "x", dummy_entry, 0, 20, spare_stack, sizeof spare_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_create(&spare, "x", 0, 0, 20, spare_stack, sizeof spare_stack), UK_EINVAL);
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, 20, 0, sizeof spare_stack), UK_EINVAL);
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, 20, spare_stack, 127), UK_EINVAL);
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, 20, (char *)spare_stack + 2, 200),
             UK_EINVAL);
#if UK_POLICY_UNIQUE_PRIOS /* the policy's priorities (uk_config.h: sysdesc::POLICIES) */
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, UK_POLICY_PRIOS, spare_stack,
                            sizeof spare_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, 255, spare_stack, sizeof spare_stack),
             UK_EINVAL);
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, UK_POLICY_PRIOS - 1, spare_stack,
                            sizeof spare_stack),
             UK_EINVAL); /* idle's */
    CHECK_EQ(uk_task_create(&spare, "x", dummy_entry, 0, 10, spare_stack, sizeof spare_stack),
             UK_EINVAL); /* main's */
#endif
    CHECK_EQ(uk_task_state(&spare), UK_TASK_DELETED); /* none of those created it */

    /* Uninitialised and NULL tasks. */
    CHECK_EQ(uk_task_activate(0), UK_EINVAL);
    CHECK_EQ(uk_task_resume(0), UK_EINVAL);
    CHECK_EQ(uk_task_activate(&zero_task), UK_EINVAL);
    CHECK_EQ(uk_task_resume(&zero_task), UK_EINVAL);
    CHECK_EQ(uk_task_suspend(&zero_task), UK_EINVAL);
    CHECK_EQ(uk_task_delete(&zero_task), UK_EINVAL);
    CHECK_EQ(uk_task_set_prio(&zero_task, 20), UK_EINVAL);
    CHECK_EQ(uk_task_set_slice(&zero_task, 5), UK_EINVAL);
    CHECK_EQ(uk_task_state(&zero_task), UK_TASK_DELETED);
    CHECK_EQ(uk_task_state(0), UK_TASK_DELETED);
    CHECK_EQ(uk_task_prio(0), 0);
    CHECK_EQ(uk_task_suspend(&uk__idle_task), UK_EINVAL);
    CHECK_EQ(uk_task_delete(&uk__idle_task), UK_EINVAL);

    /* States: created (never activated), ready, activated twice, resumed. */
    CHECK_EQ(uk_task_create(&spare, "spare", spare_task, 0, 20, spare_stack, sizeof spare_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&spare, "spare", spare_task, 0, 20, spare_stack, sizeof spare_stack),
             UK_ESTATE);
    CHECK_EQ(uk_task_state(&spare), UK_TASK_CREATED);
    CHECK_EQ(uk_task_resume(&spare), UK_ESTATE);  /* created: activate, not resume, starts it */
    CHECK_EQ(uk_task_suspend(&spare), UK_ESTATE); /* not running yet */
    CHECK_EQ(uk_task_activate(&spare), UK_OK);
    CHECK_EQ(uk_task_activate(&spare), UK_ESTATE); /* ready */
    CHECK_EQ(uk_task_resume(&spare), UK_ESTATE);   /* not suspended */
    CHECK_EQ(uk_task_sleep(2), UK_OK);             /* spare runs and suspends itself */
    CHECK_EQ(spare_runs, 1);
    CHECK_EQ(uk_task_state(&spare), UK_TASK_SUSPENDED);
    CHECK_EQ(uk_task_activate(&spare), UK_ESTATE); /* activated once: resume undoes a suspend */
    CHECK_EQ(uk_task_resume(&spare), UK_OK);
    CHECK_EQ(uk_task_resume(&spare), UK_ESTATE);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(spare_runs, 2);
    CHECK_EQ(uk_task_create(&spare, "spare", spare_task, 0, 20, spare_stack, sizeof spare_stack),
             UK_ESTATE);
    CHECK_EQ(uk_task_delete(&spare), UK_OK);
    /* Deleted: every call refuses it; its TCB may be created again. */
    CHECK_EQ(uk_task_delete(&spare), UK_EINVAL);
    CHECK_EQ(uk_task_activate(&spare), UK_EINVAL);
    CHECK_EQ(uk_task_resume(&spare), UK_EINVAL);
    CHECK_EQ(uk_task_suspend(&spare), UK_EINVAL);
    CHECK_EQ(uk_task_set_prio(&spare, 21), UK_EINVAL);
    CHECK_EQ(uk_task_set_slice(&spare, 3), UK_EINVAL);
    CHECK_EQ(uk_task_state(&spare), UK_TASK_DELETED);
    CHECK_EQ(uk_task_create(&spare, "spare", spare_task, 0, 20, spare_stack, sizeof spare_stack),
             UK_OK);
    CHECK_EQ(uk_task_delete(&spare), UK_OK);

    /* Sleeping. */
    CHECK_EQ(uk_task_sleep(UK_FOREVER), UK_EINVAL);
    uk_tick_t lw = uk_time();
    CHECK_EQ(uk_task_sleep_until(0, 5), UK_EINVAL);
    CHECK_EQ(uk_task_sleep_until(&lw, 0), UK_EINVAL);
    CHECK_EQ(uk_task_sleep_until(&lw, UK_FOREVER), UK_EINVAL);
    lw = uk_time() - 10;
    CHECK_EQ(uk_task_sleep_until(&lw, 5), UK_ETIMEOUT); /* the deadline passed 5 ticks ago */
    CHECK_EQ(uk_time() - lw, 5);                        /* still advanced by one period */
    lw = uk_time() - 5;
    CHECK_EQ(uk_task_sleep_until(&lw, 5), UK_ETIMEOUT); /* the deadline is now */

    /* Slices and priorities. */
    CHECK_EQ(uk_task_set_slice(0, 0), UK_EINVAL);
    CHECK_EQ(uk_task_set_slice(0, UK_FOREVER), UK_EINVAL);
    CHECK_EQ(uk_task_set_slice(0, 10), UK_OK);
    CHECK_EQ(uk_task_set_prio(0, 10), UK_OK); /* unchanged */
#if UK_POLICY_UNIQUE_PRIOS
    CHECK_EQ(uk_task_set_prio(0, UK_POLICY_PRIOS), UK_EINVAL);
    CHECK_EQ(uk_task_set_prio(0, UK_POLICY_PRIOS - 1), UK_EINVAL); /* idle's */
    CHECK_EQ(uk_task_create(&spare, "spare", spare_task, 0, 20, spare_stack, sizeof spare_stack),
             UK_OK);
    CHECK_EQ(uk_task_set_prio(0, 20), UK_EINVAL);      /* spare's */
    CHECK_EQ(uk_task_set_prio(&spare, 10), UK_EINVAL); /* main's */
    CHECK_EQ(uk_task_delete(&spare), UK_OK);
    CHECK_EQ(uk_task_set_prio(0, 20), UK_OK); /* released by the deletion */
    CHECK_EQ(uk_task_prio(&main_t), 20);
    CHECK_EQ(uk_task_set_prio(0, 10), UK_OK);
#endif
    CHECK_EQ(uk_task_prio(&main_t), 10);
}

static void sem_errors(void)
{
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_sem_init(0, 0, 1), UK_EINVAL);
    CHECK_EQ(uk_sem_init(&s0, 0, 0), UK_EINVAL);
    CHECK_EQ(uk_sem_init(&s0, 2, 1), UK_EINVAL);
    uint32_t c = 77;
    CHECK_EQ(uk_sem_take(0, UK_NO_WAIT), UK_EINVAL);
    CHECK_EQ(uk_sem_give(0), UK_EINVAL);
    CHECK_EQ(uk_sem_delete(0), UK_EINVAL);
    CHECK_EQ(uk_sem_count(0, &c), UK_EINVAL);
    CHECK_EQ(uk_sem_take(&zero_sem, UK_FOREVER), UK_EINVAL);
    CHECK_EQ(uk_sem_give(&zero_sem), UK_EINVAL);
    CHECK_EQ(uk_sem_delete(&zero_sem), UK_EINVAL);
    CHECK_EQ(uk_sem_count(&zero_sem, &c), UK_EINVAL);
    CHECK_EQ(c, 77);

    /* Counting at max, binary at 1: UK_ENOMEM, the count unchanged. */
    CHECK_EQ(uk_sem_init(&s0, 0, 2), UK_OK);
    CHECK_EQ(uk_sem_count(&s0, 0), UK_EINVAL);
    CHECK_EQ(uk_sem_take(&s0, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_sem_give(&s0), UK_OK);
    CHECK_EQ(uk_sem_give(&s0), UK_OK);
    CHECK_EQ(uk_sem_give(&s0), UK_ENOMEM);
    CHECK_EQ(uk_sem_count(&s0, &c), UK_OK);
    CHECK_EQ(c, 2);
    CHECK_EQ(uk_sem_take(&s0, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_sem_take(&s0, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_sem_take(&s0, UK_NO_WAIT), UK_EAGAIN);
    CHECK_EQ(uk_sem_init(&s1, 1, 1), UK_OK);
    CHECK_EQ(uk_sem_give(&s1), UK_ENOMEM);
    CHECK_EQ(uk_sem_take(&s1, UK_NO_WAIT), UK_OK);

    /* Timeout, exact to the tick. */
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_sem_take(&s0, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5);

    /* Deletion under two waiters (pending, pending + delayed): both get UK_EDELETED, the
     * second's timeout later changes nothing. */
    CHECK_EQ(
        uk_task_create(&waiter, "waiter", waiter_task, 0, 11, waiter_stack, sizeof waiter_stack),
        UK_OK);
    CHECK_EQ(uk_task_create(&waiter2, "waiter2", waiter2_task, 0, 13, waiter2_stack,
                            sizeof waiter2_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&waiter), UK_OK);
    CHECK_EQ(uk_task_activate(&waiter2), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_PENDING);
    CHECK_EQ(uk_task_state(&waiter2), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(uk_sem_delete(&s0), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(waiter_result, UK_EDELETED);
    CHECK_EQ(waiter2_result, UK_EDELETED);
    CHECK_EQ(uk_task_state(&waiter), UK_TASK_DELETED); /* their entries returned */
    CHECK_EQ(uk_task_state(&waiter2), UK_TASK_DELETED);
    /* A deleted semaphore refuses everything. */
    CHECK_EQ(uk_sem_take(&s0, UK_NO_WAIT), UK_EINVAL);
    CHECK_EQ(uk_sem_take(&s0, 5), UK_EINVAL);
    CHECK_EQ(uk_sem_give(&s0), UK_EINVAL);
    CHECK_EQ(uk_sem_delete(&s0), UK_EINVAL);
    CHECK_EQ(uk_sem_count(&s0, &c), UK_EINVAL);
    CHECK_EQ(uk_sem_init(&s0, 0, 3), UK_OK); /* and may be initialised again */
    CHECK_EQ(uk_sem_give(&s0), UK_OK);
    CHECK_EQ(uk_sem_count(&s0, &c), UK_OK);
    CHECK_EQ(c, 1);
}

static void mutex_errors(void)
{
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(uk_mutex_init(0), UK_EINVAL);
    CHECK_EQ(uk_mutex_lock(0, UK_NO_WAIT), UK_EINVAL);
    CHECK_EQ(uk_mutex_unlock(0), UK_EINVAL);
    CHECK_EQ(uk_mutex_delete(0), UK_EINVAL);
    CHECK_EQ(uk_mutex_lock(&zero_mutex, UK_NO_WAIT), UK_EINVAL);
    CHECK_EQ(uk_mutex_lock(&zero_mutex, UK_FOREVER), UK_EINVAL);
    CHECK_EQ(uk_mutex_unlock(&zero_mutex), UK_EINVAL);
    CHECK_EQ(uk_mutex_delete(&zero_mutex), UK_EINVAL);

    /* Unlock of a free mutex, recursion, one unlock too many. */
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_EPERM);
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m2, UK_FOREVER), UK_OK);
    CHECK_EQ(uk_mutex_init(&m2), UK_ESTATE); /* locked: re-initialising is refused */
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_EPERM);
    CHECK_EQ(uk_mutex_init(&m2), UK_OK); /* free: allowed */

    /* Owned by another task: UK_EAGAIN, UK_ETIMEOUT, unlock by a non-owner, deletion. */
    CHECK_EQ(uk_mutex_init(&m), UK_OK);
    CHECK_EQ(uk_sem_init(&hold, 0, 1), UK_OK);
    CHECK_EQ(uk_task_create(&owner, "owner", owner_task, 0, 12, owner_stack, sizeof owner_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&mwaiter, "mwaiter", mwaiter_task, 0, 11, mwaiter_stack,
                            sizeof mwaiter_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&owner), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(owner_locked, 1);
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_EAGAIN);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_mutex_lock(&m, 3), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 3);
    CHECK_EQ(uk_task_prio(&owner), 12); /* what main lent it is taken back */
    CHECK_EQ(uk_mutex_unlock(&m), UK_EPERM);
    CHECK_EQ(uk_mutex_init(&m), UK_ESTATE);
    CHECK_EQ(uk_task_activate(&mwaiter), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(uk_task_state(&mwaiter), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&owner), 11); /* inherited */
    CHECK_EQ(uk_mutex_delete(&m), UK_OK);
    CHECK_EQ(uk_task_prio(&owner), 12); /* lost with the mutex */
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(mwaiter_result, UK_EDELETED);
    CHECK_EQ(uk_mutex_lock(&m, UK_NO_WAIT), UK_EINVAL);
    CHECK_EQ(uk_mutex_unlock(&m), UK_EINVAL);
    CHECK_EQ(uk_mutex_delete(&m), UK_EINVAL);
    CHECK_EQ(uk_sem_give(&hold), UK_OK);
    CHECK_EQ(uk_task_sleep(2), UK_OK);
    CHECK_EQ(owner_unlock_result, UK_EINVAL); /* the owner's unlock of the deleted mutex */
    CHECK_EQ(uk_task_state(&owner), UK_TASK_DELETED);
}

static void irq_hisr_errors(void)
{
    CHECK_EQ(uk_irq_install(15, dummy_lisr), UK_EINVAL);
    CHECK_EQ(uk_irq_install(100, dummy_lisr), UK_EINVAL);
    CHECK_EQ(uk_irq_install(5, 0), UK_EINVAL);
    CHECK_EQ(uk_irq_mask(1u << 15), UK_EINVAL);
    CHECK_EQ(uk_irq_mask(0x80000000u), UK_EINVAL);
    CHECK_EQ(uk_irq_unmask(1u << 15), UK_EINVAL);
    CHECK_EQ(uk_irq_mask(1u << 5), UK_OK);
    CHECK_EQ(uk_irq_unmask(0), UK_OK);
    CHECK(!uk_in_isr());

    CHECK_EQ(uk_hisr_create(0, "h", dummy_hisr, 0, hisr2_stack, sizeof hisr2_stack), UK_EINVAL);
    CHECK_EQ(uk_hisr_create(&hisr2, "h", 0, 0, hisr2_stack, sizeof hisr2_stack), UK_EINVAL);
    CHECK_EQ(uk_hisr_create(&hisr2, "h", dummy_hisr, 0, 0, sizeof hisr2_stack), UK_EINVAL);
    CHECK_EQ(uk_hisr_create(&hisr2, "h", dummy_hisr, 0, hisr2_stack, 127), UK_EINVAL);
    CHECK_EQ(uk_hisr_create(&hisr2, "h", dummy_hisr, 0, (char *)hisr2_stack + 1, 200), UK_EINVAL);
    CHECK_EQ(
        uk_hisr_create(&hisr2, "h", dummy_hisr, UK_HISR_PRIOS, hisr2_stack, sizeof hisr2_stack),
        UK_EINVAL);
    CHECK_EQ(uk_hisr_activate(0), UK_EINVAL);
    CHECK_EQ(uk_hisr_delete(0), UK_EINVAL);
    CHECK_EQ(uk_hisr_activate(&zero_hisr), UK_EINVAL);
    CHECK_EQ(uk_hisr_delete(&zero_hisr), UK_EINVAL);
    CHECK_EQ(uk_hisr_create(&hisr2, "h2", dummy_hisr, UK_HISR_PRIOS - 1, hisr2_stack,
                            sizeof hisr2_stack),
             UK_OK);
    CHECK_EQ(uk_hisr_activate(&hisr2), UK_OK); /* from a task: runs at once, above us */
    CHECK_EQ(uk_hisr_delete(&hisr2), UK_OK);
    CHECK_EQ(uk_hisr_delete(&hisr2), UK_EINVAL);
    CHECK_EQ(uk_hisr_activate(&hisr2), UK_EINVAL);
}

static void main_task(void *arg)
{
    (void)arg;
    task_errors();
    sem_errors();
    mutex_errors();
    irq_hisr_errors();
    /* UK_EPERM from a LISR and a HISR: spin (so main is the interrupted task) until both
     * have tried the forbidden calls. */
    CHECK_EQ(uk_sem_init(&s1, 0, 1), UK_OK);
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT),
             UK_OK); /* the LISR's unlock would be by a non-owner too */
    lisr_armed = 1;
    while (!lisr_done || !hisr_done || hisr_runs < 65536) {
    }
    CHECK_EQ(hisr_runs, 65536); /* every counted activation ran */
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
    CHECK_EQ(uk_hisr_delete(&hisr), UK_OK);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    /* Mutexes belong to tasks: refused before uk_start. */
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_EPERM);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_EPERM);
    CHECK_EQ(uk_hisr_create(&hisr, "hisr", hisr_entry, 1, hisr_stack, sizeof hisr_stack), UK_OK);
    CHECK_EQ(uk_irq_install(2, lisr), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
