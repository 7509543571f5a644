/* The SimBed application kernels (SimBed paper, section 2), written once against sb.h:
 *
 *   SB_WORKLOAD = ipc      raw periodic IPC: a reader job passes each input sample on, a
 *                          writer job outputs it (both every SB_PERIOD_US)
 *               = up       up-sampler SB_RATIO:1: reader every SB_PERIOD_US, writer every
 *                          SB_PERIOD_US / SB_RATIO, linear interpolation
 *               = down     down-sampler 1:SB_RATIO: reader every SB_PERIOD_US / SB_RATIO,
 *                          writer every SB_PERIOD_US, the mean of SB_RATIO samples
 *               = fir      128-tap FIR filter: reader and writer every SB_PERIOD_US
 *               = adpcm_enc, adpcm_dec  the RTM paper's MediaBench-like channels: the
 *                          reader (input processing) takes a frame of SB_FRAME samples from
 *                          its input stream and IMA-ADPCM encodes it (or decodes it, the
 *                          samples' low 4 bits taken as the codes) and sends the frame's
 *                          checksum; the writer (output task) passes it on. Both every
 *                          SB_PERIOD_US (20 ms in experiments/rtm.toml)
 *               = none     background load only
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
#define SB_ADPCM_ENC 5
#define SB_ADPCM_DEC 6

/* The workload is chosen at build time by its name, -DSB_WORKLOAD=up (`ubik experiment`
 * passes its `[sweep] workload` as written, so no list elsewhere has to follow the numbers
 * above). SB_WL_<name> is the workload's number plus one: a name not listed here reads 0 in
 * #if and is refused below, instead of building SB_NONE. SB_WORKLOAD_ID is the number (the
 * counters line prints it). */
#define SB_WL_none (SB_NONE + 1)
#define SB_WL_ipc (SB_IPC + 1)
#define SB_WL_up (SB_UP + 1)
#define SB_WL_down (SB_DOWN + 1)
#define SB_WL_fir (SB_FIR + 1)
#define SB_WL_adpcm_enc (SB_ADPCM_ENC + 1)
#define SB_WL_adpcm_dec (SB_ADPCM_DEC + 1)

#ifndef SB_WORKLOAD
#define SB_WORKLOAD ipc
#endif
/* Two levels, so that SB_WORKLOAD is replaced by the name before the paste. */
#define SB_PASTE(a, b) a##b
#define SB_WL_OF(name) SB_PASTE(SB_WL_, name)
#if SB_WL_OF(SB_WORKLOAD) == 0
#error "SB_WORKLOAD: not a workload name (none, ipc, up, down, fir, adpcm_enc, adpcm_dec)"
#endif
#define SB_WORKLOAD_ID (SB_WL_OF(SB_WORKLOAD) - 1)
#define SB_ADPCM (SB_WORKLOAD_ID == SB_ADPCM_ENC || SB_WORKLOAD_ID == SB_ADPCM_DEC)
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
#ifndef SB_FRAME
#define SB_FRAME 160 /* ADPCM: samples per frame (20 ms at 8 kHz) */
#endif
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
    int32_t predicted; /* ADPCM: the codec's state */
    int step_index;
} task_t;

static task_t tasks[SB_TASKS];
static int16_t fir_h[FIR_TAPS];
static uint32_t aperiodic_count;
static uint32_t table[1024];
static volatile uint32_t control_sink;

/* IMA ADPCM (the codec of MediaBench's adpcm): 4-bit codes, a step size adapted by an
 * 89-entry table. */
static const int16_t adpcm_steps[89] = {
    7,     8,     9,     10,    11,    12,    13,    14,    16,    17,    19,   21,    23,
    25,    28,    31,    34,    37,    41,    45,    50,    55,    60,    66,   73,    80,
    88,    97,    107,   118,   130,   143,   157,   173,   190,   209,   230,  253,   279,
    307,   337,   371,   408,   449,   494,   544,   598,   658,   724,   796,  876,   963,
    1060,  1166,  1282,  1411,  1552,  1707,  1878,  2066,  2272,  2499,  2749, 3024,  3327,
    3660,  4026,  4428,  4871,  5358,  5894,  6484,  7132,  7845,  8630,  9493, 10442, 11487,
    12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767};
static const int8_t adpcm_index_step[16] = {-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8};

/* The codec's state after code `c`: the new predicted sample. */
static __attribute__((unused)) int32_t adpcm_step(task_t *t, unsigned c)
{
    int step = adpcm_steps[t->step_index];
    int32_t diff = step >> 3;
    if (c & 4)
        diff += step;
    if (c & 2)
        diff += step >> 1;
    if (c & 1)
        diff += step >> 2;
    int32_t p = t->predicted + ((c & 8) ? -diff : diff);
    t->predicted = p > 32767 ? 32767 : p < -32768 ? -32768 : p;
    int i = t->step_index + adpcm_index_step[c & 15];
    t->step_index = i < 0 ? 0 : i > 88 ? 88 : i;
    return t->predicted;
}

/* The code for sample x from the current state (then stepped). */
static __attribute__((unused)) unsigned adpcm_encode(task_t *t, int32_t x)
{
    int step = adpcm_steps[t->step_index];
    int32_t diff = x - t->predicted;
    unsigned c = 0;
    if (diff < 0) {
        c = 8;
        diff = -diff;
    }
    if (diff >= step) {
        c |= 4;
        diff -= step;
    }
    if (diff >= step >> 1) {
        c |= 2;
        diff -= step >> 1;
    }
    if (diff >= step >> 2)
        c |= 1;
    adpcm_step(t, c);
    return c;
}

/* A frame through the codec: the checksum sum(k * out[k]) mod 2^32 of its output (the codes
 * when encoding, the samples when decoding), what the reader sends. */
static __attribute__((unused)) uint32_t adpcm_frame(task_t *t)
{
    uint32_t sum = 0;
    for (unsigned k = 0; k < SB_FRAME; k++) {
        uint32_t x = bsp_io_in(1 + t->index);
#if SB_WORKLOAD_ID == SB_ADPCM_ENC
        uint32_t out = adpcm_encode(t, (int32_t)x);
#else
        uint32_t out = (uint32_t)adpcm_step(t, x & 15);
#endif
        sum += (k + 1) * out;
    }
    return sum;
}

static void reader(void *arg)
{
    task_t *t = arg;
#if SB_ADPCM
    uint32_t v = adpcm_frame(t);
#else
    uint32_t v = bsp_io_in(1 + t->index);
#endif
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

#if SB_WORKLOAD_ID == SB_UP
#define COMPUTE compute_up
#elif SB_WORKLOAD_ID == SB_DOWN
#define COMPUTE compute_down
#elif SB_WORKLOAD_ID == SB_FIR
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
               SB_OS_NAME, SB_WORKLOAD_ID, SB_TASKS, SB_PERIOD_US, SB_RATIO, (unsigned)outputs,
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
#if SB_WORKLOAD_ID != SB_NONE
    uint32_t p_read = SB_PERIOD_US, p_write = SB_PERIOD_US;
#if SB_WORKLOAD_ID == SB_UP
    p_write = SB_PERIOD_US / SB_RATIO;
#elif SB_WORKLOAD_ID == SB_DOWN
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
        uint32_t w_offset = SB_WORKLOAD_ID == SB_DOWN || SB_WORKLOAD_ID == SB_UP ? p_write : 0;
        must(sb_job("writer", writer, t, p_write, w_offset, write_prio + SB_TASKS + i), "writer");
    }
#endif
    sb_start();
}
