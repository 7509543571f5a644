/* The SimBed application kernels (SimBed paper, section 2), written once against sb.h:
 *
 *   SB_WORKLOAD = SB_IPC   raw periodic IPC: a reader job passes each input sample on, a
 *                          writer job outputs it (both every SB_PERIOD_US)
 *               = SB_UP    up-sampler SB_RATIO:1: reader every SB_PERIOD_US, writer every
 *                          SB_PERIOD_US / SB_RATIO, linear interpolation
 *               = SB_DOWN  down-sampler 1:SB_RATIO: reader every SB_PERIOD_US / SB_RATIO,
 *                          writer every SB_PERIOD_US, the mean of SB_RATIO samples
 *               = SB_FIR   128-tap FIR filter: reader and writer every SB_PERIOD_US
 *               = SB_NONE  background load only
 *   SB_TASKS tasks (1, 2, 4, 8), each two independently scheduled jobs joined by a channel
 *   (the OS's IPC): task i reads input stream IN[1 + i] and writes OUT[1 + i].
 *   SB_BACKGROUND (default 1): the 32 ms control loop (random memory look-ups) and the
 *   aperiodic interrupt-driven IPC -- fast line 0 (a stimulus of the machine file) releases a
 *   high-priority job that writes OUT[0].
 *   After SB_RUN_MS the firmware prints its counters and exits 0.
 *   SB_READER_OFFSET_US (default 0): the readers' first release, so their releases need not
 *   coincide with the writers' (a cause of deviation, shown by experiments/
 *   simbed-fig1-cause*.toml).
 *   SB_OUTPUT_AT_END (default 0): where a writer job writes its output. 0: at a fixed point,
 *   the job's start, the value its previous job computed (as the paper's output task), so
 *   the output's timing does not depend on the job's own work (the first job writes
 *   nothing). 1: at the end of the job, after its receive and computation.
 *
 * Priorities are rate-monotonic (shorter period first; within a task the reader first), the
 * aperiodic job above them all, the control loop below. Every output is a function of the
 * input samples received so far, in order, so a host computation can check it. */
#include "sb.h"
#include "bsp/bsp.h"

#define SB_NONE 0
#define SB_IPC 1
#define SB_UP 2
#define SB_DOWN 3
#define SB_FIR 4

#ifndef SB_WORKLOAD
#define SB_WORKLOAD SB_IPC
#endif
#ifndef SB_TASKS
#define SB_TASKS 1
#endif
#ifndef SB_PERIOD_US
#define SB_PERIOD_US 8000
#endif
#ifndef SB_RATIO
#define SB_RATIO 2
#endif
#ifndef SB_BACKGROUND
#define SB_BACKGROUND 1
#endif
#ifndef SB_RUN_MS
#define SB_RUN_MS 1000
#endif
#ifndef SB_OUTPUT_AT_END
#define SB_OUTPUT_AT_END 0
#endif
#ifndef SB_READER_OFFSET_US
#define SB_READER_OFFSET_US 0
#endif

#if SB_TASKS < 1 || SB_TASKS > 8
#error "SB_TASKS: 1..8"
#endif

#define FIR_TAPS 128
#define CONTROL_PERIOD_US 32000
#define CONTROL_LOOKUPS 512

typedef struct {
    sb_chan_t chan;
    unsigned index;
    uint32_t drops, empties, outputs;
    int32_t prev, cur; /* up-sampler: the last two samples */
    unsigned phase;
    int32_t hist[FIR_TAPS]; /* FIR: the last FIR_TAPS samples, a ring */
    unsigned pos;
    bool have_next; /* the previous job computed `next` */
    uint32_t next;
} task_t;

static task_t tasks[SB_TASKS];
static int16_t fir_h[FIR_TAPS];
static uint32_t aperiodic_count;
static uint32_t table[1024];
static volatile uint32_t control_sink;

static void reader(void *arg)
{
    task_t *t = arg;
    uint32_t v = bsp_io_in(1 + t->index);
    if (!sb_chan_send(&t->chan, v))
        t->drops++;
}

static void output(task_t *t, uint32_t v)
{
    bsp_io_out(1 + t->index, v);
    t->outputs++;
}

/* A writer's computation: this period's output value into *v, or false (counted in
 * `empties`) when its input has not arrived. */
static __attribute__((unused)) bool compute_ipc(task_t *t, uint32_t *v)
{
    return sb_chan_recv(&t->chan, v);
}

/* Output k of each input period is prev + (cur - prev) * k / SB_RATIO: a new sample is taken
 * at phase 0 (if none has arrived, the period is skipped and counted). */
static __attribute__((unused)) bool compute_up(task_t *t, uint32_t *v)
{
    if (t->phase == 0) {
        uint32_t x;
        if (!sb_chan_recv(&t->chan, &x))
            return false;
        t->prev = t->cur;
        t->cur = (int32_t)x;
    }
    *v = (uint32_t)(t->prev + (t->cur - t->prev) * (int32_t)t->phase / SB_RATIO);
    t->phase = (t->phase + 1) % SB_RATIO;
    return true;
}

static __attribute__((unused)) bool compute_down(task_t *t, uint32_t *v)
{
    int32_t sum = 0;
    for (unsigned k = 0; k < SB_RATIO; k++) {
        uint32_t x;
        if (!sb_chan_recv(&t->chan, &x))
            return false; /* the samples taken so far are lost with this period */
        sum += (int32_t)x;
    }
    *v = (uint32_t)(sum / SB_RATIO);
    return true;
}

/* y = (sum h[k] * x[n - k]) >> 15 over the last FIR_TAPS samples (zeros before the first). */
static __attribute__((unused)) bool compute_fir(task_t *t, uint32_t *v)
{
    uint32_t x;
    if (!sb_chan_recv(&t->chan, &x))
        return false;
    t->hist[t->pos] = (int32_t)x;
    int64_t acc = 0;
    unsigned p = t->pos;
    for (unsigned k = 0; k < FIR_TAPS; k++) {
        acc += (int64_t)fir_h[k] * t->hist[p];
        p = p ? p - 1 : FIR_TAPS - 1;
    }
    t->pos = (t->pos + 1) % FIR_TAPS;
    *v = (uint32_t)(int32_t)(acc >> 15);
    return true;
}

#if SB_WORKLOAD == SB_UP
#define COMPUTE compute_up
#elif SB_WORKLOAD == SB_DOWN
#define COMPUTE compute_down
#elif SB_WORKLOAD == SB_FIR
#define COMPUTE compute_fir
#else
#define COMPUTE compute_ipc
#endif

static __attribute__((unused)) void writer(void *arg)
{
    task_t *t = arg;
#if SB_OUTPUT_AT_END
    uint32_t v;
    if (COMPUTE(t, &v))
        output(t, v);
    else
        t->empties++;
#else
    if (t->have_next)
        output(t, t->next);
    t->have_next = COMPUTE(t, &t->next);
    if (!t->have_next)
        t->empties++;
#endif
}

static void aperiodic(void *arg)
{
    (void)arg;
    bsp_io_out(0, ++aperiodic_count);
}

/* Administrative background work: look-ups at pseudo-random indices. */
static void control(void *arg)
{
    (void)arg;
    static uint32_t seed = 12345;
    uint32_t acc = 0;
    for (unsigned k = 0; k < CONTROL_LOOKUPS; k++) {
        seed = seed * 1664525u + 1013904223u;
        acc += table[seed >> 22];
    }
    control_sink = acc;
}

static void stop(void *arg)
{
    (void)arg;
    uint32_t outputs = 0, drops = 0, empties = 0;
    for (unsigned i = 0; i < SB_TASKS; i++) {
        outputs += tasks[i].outputs;
        drops += tasks[i].drops;
        empties += tasks[i].empties;
    }
    bsp_printf("simbed os=%s workload=%d tasks=%d period_us=%d ratio=%d outputs=%u drops=%u "
               "empties=%u aperiodic=%u\n",
               SB_OS_NAME, SB_WORKLOAD, SB_TASKS, SB_PERIOD_US, SB_RATIO, (unsigned)outputs,
               (unsigned)drops, (unsigned)empties, (unsigned)aperiodic_count);
    bsp_exit(0);
}

static void must(int r, const char *what)
{
    if (r) {
        bsp_printf("simbed: cannot create %s\n", what);
        bsp_exit(2);
    }
}

int main(void)
{
    bsp_counters_enable();
    sb_init();
    /* A low-pass FIR: a triangular window, in Q15, summing to about 1. */
    for (unsigned k = 0; k < FIR_TAPS; k++) {
        unsigned tri = k < FIR_TAPS / 2 ? k + 1 : FIR_TAPS - k;
        fir_h[k] = (int16_t)(tri * 32768u / ((FIR_TAPS / 2) * (FIR_TAPS / 2 + 1)));
    }
    for (unsigned k = 0; k < 1024; k++)
        table[k] = k * 2654435761u;

    must(sb_job("stop", stop, 0, SB_RUN_MS * 1000u, SB_RUN_MS * 1000u, 0), "stop");
#if SB_BACKGROUND
    must(sb_irq_job("aperiodic", 0, aperiodic, 0, 1), "aperiodic");
    must(sb_job("control", control, 0, CONTROL_PERIOD_US, 0, 100), "control");
#endif
#if SB_WORKLOAD != SB_NONE
    uint32_t p_read = SB_PERIOD_US, p_write = SB_PERIOD_US;
#if SB_WORKLOAD == SB_UP
    p_write = SB_PERIOD_US / SB_RATIO;
#elif SB_WORKLOAD == SB_DOWN
    p_read = SB_PERIOD_US / SB_RATIO;
#endif
    /* Rate-monotonic: the faster job of each task first; readers before writers. */
    unsigned read_prio = p_read <= p_write ? 10 : 30, write_prio = p_read <= p_write ? 30 : 10;
    for (unsigned i = 0; i < SB_TASKS; i++) {
        task_t *t = &tasks[i];
        t->index = i;
        must(sb_chan_init(&t->chan), "channel");
        must(sb_job("reader", reader, t, p_read, SB_READER_OFFSET_US, read_prio + i), "reader");
        /* The resamplers' writers start one writer period late: the down-sampler's when
         * SB_RATIO samples are in, the up-sampler's (faster than its reader, so released
         * before it at a common release) when the first sample is, whatever order the
         * scheduler runs equal releases in. */
        uint32_t w_offset = SB_WORKLOAD == SB_DOWN || SB_WORKLOAD == SB_UP ? p_write : 0;
        must(sb_job("writer", writer, t, p_write, w_offset, write_prio + SB_TASKS + i), "writer");
    }
#endif
    sb_start();
}
