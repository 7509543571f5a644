/* The small helpers of the API: uk_strerror (a text for every UK_E* code, and for any other
 * value), uk_ms_to_ticks (rounded up, saturating) and uk_ms_timeout (a timeout that never ends
 * before its milliseconds have passed), at a tick rate where rounding matters: tick_hz = 2500
 * (0.4 ms per tick). Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

static uk_task_t main_t;
static uint32_t main_stack[256];
static uk_sem_t never;

static bool starts_with(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    return true;
}

static void check_strerror(void)
{
    static const struct {
        int code;
        const char *name;
    } codes[] = {{UK_OK, "UK_OK: "},
                 {UK_ETIMEOUT, "UK_ETIMEOUT: "},
                 {UK_EAGAIN, "UK_EAGAIN: "},
                 {UK_EINVAL, "UK_EINVAL: "},
                 {UK_EPERM, "UK_EPERM: "},
                 {UK_ENOMEM, "UK_ENOMEM: "},
                 {UK_EDELETED, "UK_EDELETED: "},
                 {UK_ESTATE, "UK_ESTATE: "},
                 {UK_EINTR, "UK_EINTR: "}};
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = uk_strerror(codes[i].code);
        CHECK(s != 0 && starts_with(s, codes[i].name));
        if (s && !starts_with(s, codes[i].name))
            bsp_printf("uk_strerror(%d) = \"%s\"\n", codes[i].code, s);
    }
    CHECK(starts_with(uk_strerror(UK_ETIMEOUT), "UK_ETIMEOUT: the wait timed out"));
    static const int unknown[] = {1, 5, -9, -100, 0x7FFFFFFF, (int)0x80000000};
    for (unsigned i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *s = uk_strerror(unknown[i]);
        CHECK(s != 0 && starts_with(s, "unknown error code"));
    }
}

static void check_ms_to_ticks(void)
{
    CHECK_EQ(uk_tick_hz(), 2500);
    CHECK_EQ(uk_ms_to_ticks(0), 0);
    CHECK_EQ(uk_ms_to_ticks(1), 3); /* 2.5 ticks: rounded up */
    CHECK_EQ(uk_ms_to_ticks(2), 5);
    CHECK_EQ(uk_ms_to_ticks(3), 8);      /* 7.5 */
    CHECK_EQ(uk_ms_to_ticks(999), 2498); /* 2497.5 */
    CHECK_EQ(uk_ms_to_ticks(1000), 2500);
    CHECK_EQ(uk_ms_to_ticks(1001), 2503);               /* 2502.5: the carry across whole seconds */
    CHECK_EQ(uk_ms_to_ticks(1717986917u), 4294967293u); /* 4294967292.5 */
    CHECK_EQ(uk_ms_to_ticks(1717986918u), UK_FOREVER - 1); /* exactly 2^32 - 1: not FOREVER */
    CHECK_EQ(uk_ms_to_ticks(0xFFFFFFFFu), UK_FOREVER - 1); /* would overflow: saturates */
    CHECK_EQ(uk_ms_timeout(0), UK_NO_WAIT);
    CHECK_EQ(uk_ms_timeout(1), 4);
    CHECK_EQ(uk_ms_timeout(1000), 2501);
    CHECK_EQ(uk_ms_timeout(1717986917u), 4294967294u);
    CHECK_EQ(uk_ms_timeout(0xFFFFFFFFu), UK_FOREVER - 1);
}

/* Right after a tick, plus k twelfths of a tick period: a different phase each time. */
static void at_phase(unsigned k)
{
    uk_task_sleep(1);
    uint64_t until = bsp_timer_now() + (uint64_t)k * bsp_timer_hz() / 2500 / 12;
    while (bsp_timer_now() < until) {
    }
}

/* A timeout of uk_ms_timeout(ms) never ends early, wherever in a tick the call falls; one of
 * uk_ms_to_ticks(ms) may (it ends at the n-th tick boundary, the first of which may be near). */
static void check_timeouts_not_early(void)
{
    unsigned early_plain = 0;
    for (unsigned k = 0; k < 12; k++) {
        at_phase(k);
        uint64_t t0 = bsp_timer_now();
        CHECK_EQ(uk_sem_take(&never, uk_ms_timeout(1)), UK_ETIMEOUT);
        CHECK(bsp_timer_now() - t0 >= bsp_timer_hz() / 1000); /* 1 ms */
        at_phase(k);
        t0 = bsp_timer_now();
        CHECK_EQ(uk_sem_take(&never, uk_ms_to_ticks(1)), UK_ETIMEOUT);
        if (bsp_timer_now() - t0 < bsp_timer_hz() / 1000)
            early_plain++;
    }
    CHECK(early_plain > 0); /* why uk_ms_timeout exists */
}

static void main_entry(void *arg)
{
    (void)arg;
    check_strerror();
    check_ms_to_ticks();
    check_timeouts_not_early();
    bsp_exit((int)check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_sem_init(&never, 0, 1), UK_OK);
    CHECK_EQ(uk_task_create(&main_t, "main", main_entry, 0, 1, main_stack, sizeof main_stack),
             UK_OK);
    uk_task_activate(&main_t);
    uk_start();
    return 99;
}
