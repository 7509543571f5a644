/* The OS-overhead benchmark (issue 12, seed paper 003's tables): one MiBench-like program
 * (ov_config.h's OV_PROGRAM: 1 basicmath, 2 fft) run bare metal, as one NOS job, or as one
 * Ubik task, with or without a realistic background (OV_BACKGROUND):
 *   - a periodic activity every millisecond doing BG_WORK iterations of a small loop
 *     (a Ubik task at a higher priority than the benchmark; a NOS job);
 *   - interrupts from the machine's stimulus generator on fast line 0 (machine.toml:
 *     geometric, mean 500 us), each doing IRQ_WORK iterations (a Ubik LISR that activates a
 *     HISR; NOS's polled interrupt work);
 *   - the kernel's 1 kHz tick (Ubik; NOS has none).
 * The benchmark reads mcycle around the program and prints
 *     ov PROGRAM cycles=C bad=B checksum=H background=R interrupts=I
 * (R: periodic runs, I: interrupts handled while it ran), then the run ends: exit 0 if the
 * program's own checks passed (bad=0), 1 otherwise. The experiment (bench/overhead.toml) adds
 * the testbed's statistics (kernel cycles, energy) of the same run. */
#include "ov_config.h"
#include "bsp/bsp.h"
#include "ovmath.h"
#if defined(UK_CONFIG_OS_UBIK)
#include <ubik/ubik.h>
#elif defined(UK_CONFIG_OS_NOS) && !defined(OV_BARE)
#include "nos.h"
#endif

#ifndef OV_SCALE
#define OV_SCALE 4
#endif
#define BG_PERIOD_US 1000
#define BG_WORK 300 /* loop iterations: ~2,100 cycles */
#define IRQ_WORK 60 /* ~420 cycles */
#define IRQ_LINE 0

static volatile uint32_t sink, bg_runs, irq_runs;

/* Out of line and aligned: its cycles must not depend on where the OS puts it. Unused in the
 * bare image. */
static __attribute__((unused, noinline, aligned(16))) void busy(unsigned n)
{
    uint32_t x = sink;
    for (unsigned i = 0; i < n; i++)
        x = x * 1103515245u + 12345u + (x >> 7);
    sink = x;
}

static const char *program_name(void) { return OV_PROGRAM == 1 ? "basicmath" : "fft"; }

static void run_benchmark(void)
{
    uint32_t checksum = 0, bad;
    uint32_t bg0 = bg_runs, irq0 = irq_runs;
    uint32_t t0 = bsp_cycles();
    if (OV_PROGRAM == 1)
        bad = ov_basicmath(OV_SCALE, &checksum);
    else
        bad = ov_fft(OV_SCALE * 2, &checksum);
    uint32_t t1 = bsp_cycles();
    bsp_printf("ov %s cycles=%u bad=%u checksum=%08x background=%u interrupts=%u\n", program_name(),
               (unsigned)(t1 - t0), (unsigned)bad, (unsigned)checksum, (unsigned)(bg_runs - bg0),
               (unsigned)(irq_runs - irq0));
    bsp_exit(bad ? 1 : 0);
}

#if defined(OV_BARE)
/* ---- Bare metal: the program, nothing else ---- */
int main(void)
{
    bsp_counters_enable();
    run_benchmark();
    return 0;
}

#elif defined(UK_CONFIG_OS_UBIK)
/* ---- Ubik: the program as the lowest task ---- */
#define STACK_WORDS 512
static uk_task_t bench_t, bg_t;
static uint32_t bench_stack[2048], bg_stack[STACK_WORDS], hisr_stack[STACK_WORDS];
static uk_hisr_t hisr;

static void bench_entry(void *arg)
{
    (void)arg;
    run_benchmark();
}

static void bg_entry(void *arg)
{
    (void)arg;
    uk_tick_t last = uk_time();
    for (;;) {
        uk_task_sleep_until(&last, uk_ms_to_ticks(BG_PERIOD_US / 1000));
        busy(BG_WORK);
        bg_runs++;
    }
}

static void irq_hisr(uk_hisr_t *h)
{
    (void)h;
    busy(IRQ_WORK);
    irq_runs++;
}

static void irq_lisr(unsigned line)
{
    (void)line;
    uk_hisr_activate(&hisr);
}

int main(void)
{
    bsp_counters_enable();
    uk_init();
    int r = uk_task_create(&bench_t, "bench", bench_entry, 0, 10, bench_stack, sizeof bench_stack);
    r |= uk_task_activate(&bench_t);
    if (OV_BACKGROUND) {
        r |= uk_task_create(&bg_t, "bg", bg_entry, 0, 2, bg_stack, sizeof bg_stack);
        r |= uk_task_activate(&bg_t);
        r |= uk_hisr_create(&hisr, "irq", irq_hisr, 0, hisr_stack, sizeof hisr_stack);
        r |= uk_irq_install(IRQ_LINE, irq_lisr);
    }
    if (r) {
        bsp_printf("ov setup failed\n");
        bsp_exit(2);
    }
    uk_start();
    return 0;
}

#else
/* ---- NOS: the program as one job (run to completion: the background waits for it) ---- */
static void bench_job(void *arg)
{
    (void)arg;
    run_benchmark();
}

static void bg_job(void *arg)
{
    (void)arg;
    busy(BG_WORK);
    bg_runs++;
}

static void irq_work(void *arg)
{
    (void)arg;
    busy(IRQ_WORK);
    irq_runs++;
}

int main(void)
{
    bsp_counters_enable();
    /* The benchmark is released once (its period is far beyond the run), after the first
     * background run, as on Ubik where the background task's first run comes first. */
    int r = nos_job("bench", bench_job, 0, 0xFFFFFFFFu, 10, 10);
    if (OV_BACKGROUND) {
        r |= nos_job("bg", bg_job, 0, BG_PERIOD_US, 0, 2);
        r |= nos_irq(IRQ_LINE, irq_work, 0);
    }
    if (r) {
        bsp_printf("ov setup failed\n");
        bsp_exit(2);
    }
    nos_run();
}
#endif
