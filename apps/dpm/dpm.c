/* The DPM workloads (UbiFOS section III.3 and Table 2, on the reference MCU): the same
 * firmware runs under each power policy of ubik/power.h (-DDPM_POLICY=0..4), so the policies
 * can be compared by average current and energy -- and by the deadlines they make tasks miss.
 * The workload is chosen at build time by its name, -DDPM_APP=audio or -DDPM_APP=game.
 *
 *   DPM_APP = audio (the paper's WAV player, display off): every 10 ms the audio
 *     interrupt (fast line 1) releases a HIGH-class driver task that hands the next buffer to
 *     the DAC (OUT[1]) and wakes the NORMAL-class decoder, which decodes the following buffer
 *     (about 1.3 ms of work at 100 MHz: 5.4 ms at the slowest point, 24 MHz, so every policy
 *     can keep up, as WAV decoding could at 96 MHz on the paper's 399 MHz board); a
 *     LOW-class housekeeping task runs every 100 ms.
 *   DPM_APP = game (the paper's PushPush, display on: the machine file adds the display's
 *     constant peripheral_w): a NORMAL-class frame task renders every 33 ms (about 2.6 ms of
 *     work at 100 MHz, 10.8 ms at 24 MHz), input events (fast line 2, random, about 10 a
 *     second as a player's key presses) release a HIGH-class task with a burst of work (about
 *     1.3 ms at 100 MHz), and a LOW-class task runs the game logic every 100 ms.
 * A deadline is missed when a buffer or a frame is not ready at its next release; the
 * firmware counts them and prints `dpm app=... policy=... misses=... blocks=...` after
 * DPM_RUN_MS. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

/* `ubik experiment` passes its `[sweep] workload` as written, so no list elsewhere has to
 * follow a number. DPM_APP_<name> is the workload's number: a name not listed here reads 0
 * in #if and is refused below. */
#define DPM_APP_audio 1
#define DPM_APP_game 2
#ifndef DPM_APP
#define DPM_APP audio
#endif
/* Two levels, so that DPM_APP is replaced by the name before the paste. */
#define DPM_PASTE(a, b) a##b
#define DPM_APP_OF(name) DPM_PASTE(DPM_APP_, name)
#define DPM_APP_ID DPM_APP_OF(DPM_APP)
#if DPM_APP_ID == 0
#error "DPM_APP: not a workload name (audio, game)"
#endif
#ifndef DPM_POLICY
#define DPM_POLICY 0
#endif
#ifndef DPM_RUN_MS
#define DPM_RUN_MS 2000
#endif

static uk_task_t t_high, t_norm, t_low, t_stop;
static uint32_t s_high[256], s_norm[512], s_low[256], s_stop[256];
static uk_sem_t sem_high, sem_norm;
static volatile uint32_t misses, blocks, events, sink;
static volatile int busy_norm; /* the NORMAL job is still working on the last release */

/* Work of about 13 n cycles: a filter-like loop (multiplies, loads, stores). */
static void work(uint32_t n)
{
    static int32_t buf[64];
    uint32_t acc = sink;
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = buf[i & 63];
        acc = acc * 1103515245u + (uint32_t)x;
        buf[(i + 7) & 63] = (int32_t)(acc >> 8);
    }
    sink = acc;
}

static void lisr(unsigned line)
{
    (void)line;
    uk_sem_give(&sem_high);
}

static void high_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uk_sem_take(&sem_high, UK_FOREVER);
#if DPM_APP_ID == 1
        /* The DAC wants the next buffer now: it must have been decoded. */
        if (busy_norm)
            misses++;
        bsp_io_out(1, blocks);
        work(200); /* driver bookkeeping: ~2,600 cycles */
        uk_sem_give(&sem_norm);
#else
        events++;
        work(10000); /* an input burst: ~1.3 ms at 100 MHz */
#endif
    }
}

static void norm_entry(void *arg)
{
    (void)arg;
#if DPM_APP_ID == 1
    for (;;) {
        uk_sem_take(&sem_norm, UK_FOREVER);
        busy_norm = 1;
        work(10000); /* decode one 10 ms buffer: ~1.3 ms at 100 MHz */
        blocks++;
        busy_norm = 0;
    }
#else
    uk_tick_t last = uk_time();
    for (;;) {
        busy_norm = 1;
        work(20000); /* render a frame: ~2.6 ms at 100 MHz */
        blocks++;
        bsp_io_out(2, blocks);
        busy_norm = 0;
        if (uk_task_sleep_until(&last, 33) == UK_ETIMEOUT)
            misses++; /* the frame took longer than its period */
    }
#endif
}

static void low_entry(void *arg)
{
    (void)arg;
    uk_tick_t last = uk_time();
    for (;;) {
        work(DPM_APP_ID == 1 ? 10000 : 30000); /* housekeeping / game logic */
        uk_task_sleep_until(&last, 100);
    }
}

static void stop_entry(void *arg)
{
    (void)arg;
    uk_task_sleep(DPM_RUN_MS);
    bsp_printf("dpm app=%s policy=%d misses=%u blocks=%u events=%u opp=%u\n",
               DPM_APP_ID == 1 ? "audio" : "game", DPM_POLICY, (unsigned)misses, (unsigned)blocks,
               (unsigned)events, uk_power_opp());
    bsp_exit(0);
}

static void must(int r, const char *what)
{
    if (r) {
        bsp_printf("dpm: %s failed (%d)\n", what, r);
        bsp_exit(2);
    }
}

int main(void)
{
    uk_init();
    must(uk_sem_init(&sem_high, 0, 100), "sem");
    must(uk_sem_init(&sem_norm, 0, 100), "sem");
    must(uk_task_create(&t_stop, "stop", stop_entry, 0, 0, s_stop, sizeof s_stop), "stop");
    must(uk_task_create(&t_high, "high", high_entry, 0, 1, s_high, sizeof s_high), "high");
    must(uk_task_create(&t_norm, "normal", norm_entry, 0, 2, s_norm, sizeof s_norm), "normal");
    must(uk_task_create(&t_low, "low", low_entry, 0, 3, s_low, sizeof s_low), "low");
    must(uk_task_set_power_class(&t_high, UK_POWER_HIGH), "class");
    must(uk_task_set_power_class(&t_low, UK_POWER_LOW), "class");
    uk_task_t *all[] = {&t_stop, &t_high, &t_norm, &t_low};
    for (int i = 0; i < 4; i++)
        must(uk_task_activate(all[i]), "activate");
    must(uk_irq_install(DPM_APP_ID == 1 ? 1 : 2, lisr), "irq");
    must(uk_power_set_policy((uk_power_policy_t)DPM_POLICY), "policy");
    uk_start();
    return 0;
}
