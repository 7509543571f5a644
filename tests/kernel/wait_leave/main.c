/* Head-of-line admission: a variable-size queue admits waiting senders in order, and a
 * sender whose message does not fit yet holds back the ones behind it. When that sender
 * leaves the line in any way -- deleted, suspended (from a task or deferred from interrupt
 * context), timed out, interrupted by a signal, moved back by a priority change, overtaken by
 * one that priority inheritance raised above it -- the
 * senders behind it are admitted at once if their messages fit. A sender of higher priority
 * than the waiting one is ahead of it in the line: its message goes in at once if it fits.
 * Self-checking, every scheduler. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 384
enum { BIG, SMALL, HIGH, LOCKER, NTASKS };
static uk_task_t main_t, tasks[NTASKS];
static uint32_t main_stack[STK], stacks[NTASKS][STK];
static uk_queue_t vq;
static uint32_t vbuf[128 / 4];
static uint8_t msg[120];
static const uint16_t len_of[NTASKS] = {100, 4, 8, 0};
static const uint8_t prio_of[NTASKS] = {20, 21, 15, 12};
static uk_mutex_t m;
static volatile int small_locks_first, locker_res;
static volatile uk_tick_t timeout_of[NTASKS];
static volatile int res[NTASKS];
static volatile uk_tick_t done_at[NTASKS];
static volatile uint32_t handled;

static void on_signal(uint32_t sigs) { handled |= sigs; }

static void sender(void *arg)
{
    int id = (int)(uintptr_t)arg;
    if (id == LOCKER) { /* blocks on m, lending its priority to its owner */
        locker_res = uk_mutex_lock(&m, UK_FOREVER);
        return;
    }
    if (id == BIG)
        CHECK_EQ(uk_signal_handler(0, on_signal), UK_OK);
    if (id == SMALL && small_locks_first)
        CHECK_EQ(uk_mutex_lock(&m, UK_FOREVER), UK_OK);
    res[id] = uk_queue_send_var(&vq, msg, len_of[id], timeout_of[id]);
    done_at[id] = uk_time();
}

static void start(int id, uk_tick_t timeout)
{
    res[id] = 99;
    timeout_of[id] = timeout;
    CHECK_EQ(uk_task_create(&tasks[id], "sender", sender, (void *)(uintptr_t)id, prio_of[id],
                            stacks[id], sizeof stacks[0]),
             UK_OK);
    CHECK_EQ(uk_task_activate(&tasks[id]), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK); /* it runs and waits (any scheduler) */
}

static uint32_t count(void)
{
    uint32_t c = 99;
    CHECK_EQ(uk_queue_count(&vq, &c), UK_OK);
    return c;
}

/* A queue with 40 bytes free, the 100-byte sender waiting, the 4-byte one behind it. */
static void setup(uk_tick_t big_timeout)
{
    CHECK_EQ(uk_queue_init_var(&vq, vbuf, sizeof vbuf, 120), UK_OK);
    CHECK_EQ(uk_queue_send_var(&vq, msg, 84, UK_NO_WAIT), UK_OK); /* 88 of 128 bytes */
    start(BIG, big_timeout);
    start(SMALL, 50);
    CHECK(uk_task_state(&tasks[BIG]) >= UK_TASK_PENDING);
    CHECK_EQ(uk_task_state(&tasks[SMALL]), UK_TASK_PENDING_DELAYED);
    CHECK_EQ(count(), 1);
}

/* The 4-byte sender was admitted by the leave itself. */
static void small_admitted(const char *how)
{
    uint32_t c = count();
    CHECK_EQ(c, 2);
    CHECK(uk_task_state(&tasks[SMALL]) != UK_TASK_PENDING_DELAYED);
    if (c != 2)
        bsp_printf("  after: %s\n", how);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[SMALL], UK_OK);
}

static void teardown(void)
{
    for (int id = 0; id < NTASKS; id++)
        if (uk_task_state(&tasks[id]) != UK_TASK_DELETED)
            CHECK_EQ(uk_task_delete(&tasks[id]), UK_OK);
    CHECK_EQ(uk_queue_delete(&vq), UK_OK);
}

static void main_task(void *arg)
{
    (void)arg;
    /* Deleted. */
    setup(UK_FOREVER);
    CHECK_EQ(uk_task_delete(&tasks[BIG]), UK_OK);
    small_admitted("delete");
    teardown();

    /* Suspended by a task; the suspended sender's wait ends with UK_ETIMEOUT on resume. */
    setup(UK_FOREVER);
    CHECK_EQ(uk_task_suspend(&tasks[BIG]), UK_OK);
    small_admitted("suspend");
    CHECK_EQ(uk_task_resume(&tasks[BIG]), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[BIG], UK_ETIMEOUT);
    teardown();

    /* Suspended from interrupt context (deferred, applied by the kernel tail). */
    setup(UK_FOREVER);
    unsigned key = uk_irq_disable();
    int r = uk_task_suspend(&tasks[BIG]);
    uk_irq_restore(key);
    CHECK_EQ(r, UK_OK);
    small_admitted("deferred suspend");
    teardown();

    /* Timed out: the small sender goes in the tick the big one's timeout expires, long
     * before its own 50 ticks. */
    setup(3);
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_task_sleep(5), UK_OK);
    CHECK_EQ(res[BIG], UK_ETIMEOUT);
    CHECK_EQ(res[SMALL], UK_OK);
    CHECK_EQ(done_at[SMALL], done_at[BIG]);
    CHECK(done_at[SMALL] - t0 <= 3);
    CHECK_EQ(count(), 2);
    teardown();

    /* Interrupted by a signal (its handler ran, the send returned UK_EINTR). */
    setup(UK_FOREVER);
    handled = 0;
    CHECK_EQ(uk_signal_send(&tasks[BIG], 4), UK_OK);
    small_admitted("signal");
    CHECK_EQ(res[BIG], UK_EINTR);
    CHECK_EQ(handled, 4);
    teardown();

    /* Moved behind the small sender by a priority change: the small one is first now. The
     * big one goes in once two receives make room. */
    setup(UK_FOREVER);
    CHECK_EQ(uk_task_set_prio(&tasks[BIG], 22), UK_OK);
    small_admitted("set_prio");
    CHECK_EQ(uk_task_state(&tasks[BIG]), UK_TASK_PENDING);
    size_t n;
    CHECK_EQ(uk_queue_recv_var(&vq, msg, sizeof msg, &n, UK_NO_WAIT), UK_OK);
    CHECK_EQ(n, 84);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[BIG], UK_OK);
    CHECK_EQ(count(), 2); /* the 4 bytes, then the 100 */
    CHECK_EQ(uk_queue_recv_var(&vq, msg, sizeof msg, &n, UK_NO_WAIT), UK_OK);
    CHECK_EQ(n, 4);
    CHECK_EQ(uk_queue_recv_var(&vq, msg, sizeof msg, &n, UK_NO_WAIT), UK_OK);
    CHECK_EQ(n, 100);
    teardown();

    /* The small sender holds a mutex; a task of priority 12 waits for it and lends it its
     * priority: the small sender is now ahead of the big one (20) and goes in. Its task
     * then ends, and the mutex passes to the locker. */
    CHECK_EQ(uk_mutex_init(&m), UK_OK);
    small_locks_first = 1;
    setup(UK_FOREVER);
    small_locks_first = 0;
    locker_res = 99;
    start(LOCKER, UK_FOREVER);
    small_admitted("inheritance");
    CHECK_EQ(locker_res, UK_OK);
    CHECK_EQ(uk_task_state(&tasks[BIG]), UK_TASK_PENDING);
    teardown();
    CHECK_EQ(uk_mutex_delete(&m), UK_OK);

    /* A sender of higher priority than the waiting big one is ahead of it: its 8 bytes go
     * in at once (not at the next receive); the small one, behind the big one, still waits. */
    setup(UK_FOREVER);
    timeout_of[HIGH] = 50;
    res[HIGH] = 99;
    CHECK_EQ(uk_task_create(&tasks[HIGH], "high", sender, (void *)(uintptr_t)HIGH, prio_of[HIGH],
                            stacks[HIGH], sizeof stacks[0]),
             UK_OK);
    CHECK_EQ(uk_task_activate(&tasks[HIGH]), UK_OK);
    CHECK_EQ(uk_task_sleep(1), UK_OK);
    CHECK_EQ(res[HIGH], UK_OK);
    CHECK_EQ(count(), 2);
    CHECK_EQ(uk_task_state(&tasks[SMALL]), UK_TASK_PENDING_DELAYED);
    /* A sender of the main task's priority (10) too; UK_NO_WAIT. */
    CHECK_EQ(uk_queue_send_var(&vq, msg, 4, UK_NO_WAIT), UK_OK);
    CHECK_EQ(count(), 3);
    teardown();

    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 10, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
