/* Interrupt handlers never wait: from a HISR, a LISR, a timer function (the timer HISR) or a
 * task with interrupts disabled, every call that takes a timeout is refused with UK_EPERM
 * when the timeout is not UK_NO_WAIT -- even when the resource is available and the call
 * would not have had to wait (before, it failed only when it would have blocked, so the
 * mistake showed only under load). With UK_NO_WAIT the same calls succeed. Self-checking.
 * Needs machine.toml (the stimulus of the LISR). */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum { N_CALLS = 10 };

static uk_task_t main_t, rx;
static uint32_t main_stack[256], rx_stack[256], hisr_stack[256];
static uk_hisr_t hisr;
static uk_sem_t sem, done;
static uk_mutex_t mtx;
static uk_queue_t q, vq;
static uint32_t q_buf[8], vq_buf[32];
static uk_port_t port;
static void *port_slots[4];
static uk_flags_t flags;
static uk_pool_t pool;
static uint32_t pool_buf[4 * 4];
static uk_timer_t tm;

/* Results of each call, per context: [0] with a timeout (all UK_EPERM expected), [1] with
 * UK_NO_WAIT where the context may make the call at all. */
typedef struct {
    int r[2][N_CALLS];
    volatile int ran;
} results_t;
static results_t from_hisr, from_lisr, from_timer, from_irqs_off;

/* Every call with a timeout, each on an available resource: a semaphore with a count, queues
 * with room and a message, a port with room and a pointer, set flags, a free pool block. */
static void calls(int *r, uk_tick_t timeout)
{
    uint32_t m = 7, mv[2], got = 0;
    size_t len = 0;
    void *p = 0;
    r[0] = uk_sem_take(&sem, timeout);
    r[1] = uk_queue_send(&q, &m, timeout);
    r[2] = uk_queue_recv(&q, &m, timeout);
    r[3] = uk_queue_send_var(&vq, &m, 4, timeout);
    r[4] = uk_queue_recv_var(&vq, mv, sizeof mv, &len, timeout);
    r[5] = uk_port_send(&port, &m, timeout);
    r[6] = uk_port_recv(&port, &p, timeout);
    r[7] = uk_flags_wait(&flags, 1, UK_FLAGS_ANY, &got, timeout);
    r[8] = uk_pool_alloc(&pool, &p, timeout);
    r[9] = uk_taskport_send(&rx, 1, timeout);
    if (r[8] == UK_OK)
        uk_pool_free(&pool, p);
}

static void refill(void)
{
    uint32_t m = 1;
    uint32_t n;
    if (uk_sem_count(&sem, &n) == UK_OK && n == 0)
        uk_sem_give(&sem);
    uk_queue_count(&q, &n);
    if (n == 0)
        uk_queue_send(&q, &m, UK_NO_WAIT);
    uk_queue_count(&vq, &n);
    if (n == 0)
        uk_queue_send_var(&vq, &m, 4, UK_NO_WAIT);
    uk_port_count(&port, &n);
    if (n == 0)
        uk_port_send(&port, &m, UK_NO_WAIT);
}

static void hisr_entry(uk_hisr_t *h)
{
    (void)h;
    calls(from_hisr.r[0], 5);
    calls(from_hisr.r[1], UK_NO_WAIT);
    CHECK_EQ(uk_mutex_lock(&mtx, 5), UK_EPERM);
    uint32_t msg;
    CHECK_EQ(uk_taskport_recv(&msg, 5), UK_EPERM);
    from_hisr.ran = 1;
    uk_sem_give(&done);
}

static void lisr(unsigned line)
{
    (void)line;
    if (from_lisr.ran)
        return;
    calls(from_lisr.r[0], UK_FOREVER);
    from_lisr.ran = 1;
    uk_sem_give(&done);
}

static void timer_fn(uk_timer_t *t, void *arg)
{
    (void)t;
    (void)arg;
    calls(from_timer.r[0], 1);
    from_timer.ran = 1;
    uk_sem_give(&done);
}

static void rx_entry(void *arg)
{
    (void)arg;
    uint32_t m;
    for (;;)
        uk_taskport_recv(&m, UK_FOREVER);
}

static void check_all_refused(const char *who, const results_t *x)
{
    CHECK(x->ran);
    for (int i = 0; i < N_CALLS; i++) {
        CHECK_EQ(x->r[0][i], UK_EPERM);
        if (x->r[0][i] != UK_EPERM)
            bsp_printf("  %s: call %d with a timeout returned %d\n", who, i, x->r[0][i]);
    }
}

static void main_entry(void *arg)
{
    (void)arg;
    refill();
    CHECK_EQ(uk_hisr_activate(&hisr), UK_OK); /* runs at once */
    CHECK_EQ(uk_sem_take(&done, 100), UK_OK);
    check_all_refused("HISR", &from_hisr);
    for (int i = 0; i < N_CALLS; i++) /* UK_NO_WAIT: each call works from a HISR */
        CHECK_EQ(from_hisr.r[1][i], UK_OK);

    refill();
    CHECK_EQ(uk_timer_start(&tm, 1, 0), UK_OK);
    CHECK_EQ(uk_sem_take(&done, 100), UK_OK);
    check_all_refused("timer function", &from_timer);

    refill();
    CHECK_EQ(uk_irq_install(2, lisr), UK_OK);
    CHECK_EQ(uk_sem_take(&done, 100), UK_OK);
    check_all_refused("LISR", &from_lisr);

    refill();
    unsigned key = uk_irq_disable(); /* a task with interrupts disabled counts as a LISR */
    calls(from_irqs_off.r[0], 3);
    from_irqs_off.ran = 1;
    uk_irq_restore(key);
    check_all_refused("interrupts disabled", &from_irqs_off);

    /* A task may still wait. */
    refill();
    uint32_t m;
    CHECK_EQ(uk_sem_take(&sem, 5), UK_OK);
    CHECK_EQ(uk_queue_recv(&q, &m, 5), UK_OK);
    bsp_exit((int)check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&sem, 0, 1), UK_OK);
    CHECK_EQ(uk_sem_init(&done, 0, 1), UK_OK);
    CHECK_EQ(uk_mutex_init(&mtx), UK_OK);
    CHECK_EQ(uk_queue_init(&q, q_buf, 4, 4), UK_OK);
    CHECK_EQ(uk_queue_init_var(&vq, vq_buf, sizeof vq_buf, 8), UK_OK);
    CHECK_EQ(uk_port_init(&port, port_slots, 4), UK_OK);
    CHECK_EQ(uk_flags_init(&flags), UK_OK);
    CHECK_EQ(uk_flags_set(&flags, 1), UK_OK);
    CHECK_EQ(uk_pool_init(&pool, pool_buf, 16, 4), UK_OK);
    CHECK_EQ(uk_timer_init(&tm, timer_fn, 0), UK_OK);
    CHECK_EQ(uk_hisr_create(&hisr, "h", hisr_entry, 0, hisr_stack, sizeof hisr_stack), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_entry, 0, 2, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_create(&rx, "rx", rx_entry, 0, 1, rx_stack, sizeof rx_stack), UK_OK);
    uk_task_activate(&main_t);
    uk_task_activate(&rx);
    uk_start();
    return 99;
}
