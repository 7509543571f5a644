/* IPC costs in cycles (mcycle), as UbiFOS Fig. 15 and beyond (docs/results.md, "IPC").
 * Every figure is the best... no: the WORST of REPS repetitions after one warm-up, minus the
 * cost of the measurement itself (two mcycle reads), with the tick masked so that no tick
 * falls into a window. Output, one line each:
 *   queue <size> <cycles>        one task: uk_queue_send then uk_queue_recv (UK_NO_WAIT) of a
 *                                size-byte message: copied in, copied out, no switch
 *   port <size> <cycles>         the same with a port (a pointer to a size-byte message)
 *   taskport <size> <cycles>     task L sends a pointer to a size-byte message to task H
 *                                (higher priority) waiting in uk_taskport_recv: from L's
 *                                send to H's return, the rendezvous switch included
 *   handoff_queue/port <size> <cycles>  as taskport, for queues and ports (a waiting
 *                                receiver: one copy, one switch)
 *   sem_give_take, mutex_uncontended, flags_set_wait, pool_alloc_free: one task, the pair
 *   mutex_contended              H locks a mutex L holds (L inherits H's priority and runs),
 *                                L unlocks (the mutex passes to H, L falls back, H runs),
 *                                H unlocks: from H's lock to the end of H's unlock
 *   heap_alloc_worst, heap_free_worst: the worst single call over a random alloc/free stress
 *                                of a fragmented heap; heap_alloc_free_worst is their sum */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

#define REPS 50
static const uint32_t sizes[5] = {4, 16, 64, 256, 1024};

static uk_task_t h_task, l_task;
static uint32_t h_stack[512], l_stack[512];
static uint8_t msg[1024] __attribute__((aligned(4))), rbuf[1024] __attribute__((aligned(4)));
static uint32_t qbuf[1024 / 4 * 2];
static uk_queue_t q;
static uk_port_t port;
static void *slots[2];
static uk_sem_t s, go, back;
static uk_mutex_t m;
static uk_flags_t f;
static uk_pool_t pool;
static uint32_t pool_buf[8 * 8];
static uk_heap_t heap;
static uint8_t heap_buf[24 * 1024] __attribute__((aligned(8)));

static inline uint32_t mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v) : : "memory");
    return v;
}
static inline void tick_mask(void) { __asm__ volatile("csrc mie, %0" : : "r"(1u << 7) : "memory"); }
static inline void tick_unmask(void)
{
    __asm__ volatile("csrs mie, %0" : : "r"(1u << 7) : "memory");
}

static uint32_t empty;
static volatile uint32_t t0, worst;
static volatile int mode; /* what H does */
static volatile uint32_t cur_size;

static void sample(uint32_t d)
{
    d -= empty;
    if (d > worst)
        worst = d;
}

static void fail(const char *what, int r)
{
    bsp_printf("error %s %d\n", what, r);
    bsp_exit(1);
}

/* H: the receiver in the handoff figures, the contender in the mutex one. */
static void h_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t v;
        void *p;
        size_t n;
        int r = 0;
        switch (mode) {
        case 0:
            r = uk_taskport_recv(&v, UK_FOREVER);
            sample(mcycle() - t0);
            break;
        case 1:
            r = uk_queue_recv_var(&q, rbuf, sizeof rbuf, &n, UK_FOREVER);
            sample(mcycle() - t0);
            break;
        case 2:
            r = uk_port_recv(&port, &p, UK_FOREVER);
            sample(mcycle() - t0);
            break;
        case 3: /* contended mutex: L holds m and gave `go` */
            r = uk_sem_take(&go, UK_FOREVER);
            t0 = mcycle();
            if (!r)
                r = uk_mutex_lock(&m, UK_FOREVER);
            if (!r)
                r = uk_mutex_unlock(&m);
            sample(mcycle() - t0);
            break;
        }
        if (r)
            fail("h", r);
    }
}

static void measure_empty(void)
{
    uint32_t e = 0xFFFFFFFFu;
    for (int k = 0; k < 16; k++) {
        uint32_t a = mcycle();
        uint32_t b = mcycle();
        if (b - a < e)
            e = b - a;
    }
    empty = e;
}

#define PAIR(name, body)                              \
    do {                                              \
        worst = 0;                                    \
        for (int k = 0; k <= REPS; k++) {             \
            uint32_t a_ = mcycle();                   \
            body;                                     \
            uint32_t d_ = mcycle() - a_ - empty;      \
            if (k && d_ > worst)                      \
                worst = d_;                           \
        }                                             \
        bsp_printf("%s %u\n", name, (unsigned)worst); \
    } while (0)

/* The size in decimal after "port " (no printf into a buffer in the BSP). */
static void bsp_snprintf_u(char *out, uint32_t v)
{
    char t[12];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while (v /= 10);
    while (n)
        *out++ = t[--n];
    *out = 0;
}

static void kick(int md)
{
    if (md == 0)
        uk_taskport_send(&h_task, 0, UK_FOREVER);
    else if (md == 1)
        uk_queue_send_var(&q, msg, 4, UK_NO_WAIT);
    else
        uk_port_send(&port, msg, UK_NO_WAIT);
}

static void l_entry(void *arg)
{
    (void)arg;
    measure_empty();
    bsp_printf("empty %u\n", (unsigned)empty);
    int r;
    void *p;
    tick_mask();
    for (int i = 0; i < 5; i++) {
        uint32_t sz = sizes[i];
        if ((r = uk_queue_init(&q, qbuf, sz, 2)))
            fail("queue_init", r);
        worst = 0;
        for (int k = 0; k <= REPS; k++) {
            uint32_t a = mcycle();
            uk_queue_send(&q, msg, UK_NO_WAIT);
            r = uk_queue_recv(&q, rbuf, UK_NO_WAIT);
            uint32_t d = mcycle() - a - empty;
            if (r)
                fail("queue", r);
            if (k && d > worst)
                worst = d;
        }
        bsp_printf("queue %u %u\n", (unsigned)sz, (unsigned)worst);
    }
    if ((r = uk_port_init(&port, slots, 2)))
        fail("port_init", r);
    for (int i = 0; i < 5; i++) {
        static char name[16] = "port ";
        bsp_snprintf_u(name + 5, sizes[i]);
        PAIR(name, (uk_port_send(&port, msg, UK_NO_WAIT), uk_port_recv(&port, &p, UK_NO_WAIT)));
    }
    /* Handoffs to a waiting higher-priority task: taskport, queue, port. */
    if ((r = uk_queue_init_var(&q, qbuf, sizeof qbuf, 1024)))
        fail("queue_init_var", r);
    for (int md = 0; md < 3; md++) {
        if (md) { /* H waits in the previous mode's call: one more message moves it on */
            mode = md;
            kick(md - 1);
        }
        for (int i = 0; i < 5; i++) {
            uint32_t sz = sizes[i];
            worst = 0;
            for (int k = 0; k <= REPS; k++) {
                if (k == 1)
                    worst = 0; /* the first was the warm-up */
                t0 = mcycle();
                if (md == 0)
                    r = uk_taskport_send(&h_task, (uint32_t)(uintptr_t)msg, UK_FOREVER);
                else if (md == 1)
                    r = uk_queue_send_var(&q, msg, sz, UK_NO_WAIT);
                else
                    r = uk_port_send(&port, msg, UK_NO_WAIT);
                if (r)
                    fail("handoff", r);
            }
            static const char *const names[3] = {"taskport", "handoff_queue", "handoff_port"};
            bsp_printf("%s %u %u\n", names[md], (unsigned)sz, (unsigned)worst);
        }
    }
    /* Pairs in one task. */
    PAIR("sem_give_take", (uk_sem_give(&s), uk_sem_take(&s, UK_NO_WAIT)));
    PAIR("mutex_uncontended", (uk_mutex_lock(&m, UK_FOREVER), uk_mutex_unlock(&m)));
    uint32_t got;
    PAIR("flags_set_wait", (uk_flags_set(&f, 1),
                            uk_flags_wait(&f, 1, UK_FLAGS_ANY | UK_FLAGS_CLEAR, &got, UK_NO_WAIT)));
    PAIR("pool_alloc_free", (uk_pool_alloc(&pool, &p, UK_NO_WAIT), uk_pool_free(&pool, p)));
    /* Contended mutex with inheritance. */
    mode = 3;
    kick(2);
    worst = 0;
    for (int k = 0; k <= REPS; k++) {
        if (k == 1)
            worst = 0;
        uk_mutex_lock(&m, UK_FOREVER);
        uk_sem_give(&go);    /* H runs, blocks on m: we inherit its priority */
        uk_mutex_unlock(&m); /* m passes to H, which runs and unlocks */
    }
    bsp_printf("mutex_contended %u\n", (unsigned)worst);
    /* Heap: the worst single alloc and free over a random stress of a fragmented heap. */
    if ((r = uk_heap_init(&heap, heap_buf, sizeof heap_buf)))
        fail("heap_init", r);
    static void *live[64];
    uint32_t rng = 7, wa = 0, wf = 0;
    for (int k = 0; k < 6000; k++) {
        rng = rng * 1664525u + 1013904223u;
        int i = (rng >> 8) % 64;
        uint32_t a, d;
        if (live[i]) {
            a = mcycle();
            r = uk_heap_free(&heap, live[i]);
            d = mcycle() - a - empty;
            if (r)
                fail("heap_free", r);
            if (d > wf)
                wf = d;
            live[i] = 0;
        } else {
            uint32_t sz = 1 + ((rng >> 12) % 8 == 0 ? (rng >> 4) % 1500 : (rng >> 16) % 100);
            a = mcycle();
            r = uk_heap_alloc(&heap, sz, &live[i]);
            d = mcycle() - a - empty;
            if (r == UK_ENOMEM) {
                live[i] = 0;
                continue;
            }
            if (r)
                fail("heap_alloc", r);
            if (d > wa)
                wa = d;
        }
    }
    bsp_printf("heap_alloc_worst %u\nheap_free_worst %u\nheap_alloc_free_worst %u\n", (unsigned)wa,
               (unsigned)wf, (unsigned)(wa + wf));
    tick_unmask();
    bsp_exit(0);
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    for (int i = 0; i < 1024; i++)
        msg[i] = (uint8_t)i;
    uk_sem_init(&s, 0, 1);
    uk_sem_init(&go, 0, 1);
    uk_sem_init(&back, 0, 1);
    uk_mutex_init(&m);
    uk_flags_init(&f);
    uk_pool_init(&pool, pool_buf, 32, 8);
    uk_task_create(&h_task, "H", h_entry, 0, 1, h_stack, sizeof h_stack);
    uk_task_create(&l_task, "L", l_entry, 0, 2, l_stack, sizeof l_stack);
    uk_task_activate(&h_task);
    uk_task_activate(&l_task);
    uk_start();
    return 0;
}
