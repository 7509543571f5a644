/* A log of one character per step, for firmware tests that check an order of events
 * (tasks, interrupts):
 *
 *   #include "check.h"
 *   #include "step_log.h"
 *   L('a'); ... L('b');
 *   EXPECT_LOG("ab");     // the log so far equals "ab" (a failed check if not); cleared
 *
 * Steps beyond the buffer are dropped, so an overlong log fails the comparison. */
#ifndef UBIK_TEST_STEP_LOG_H
#define UBIK_TEST_STEP_LOG_H

#include <stdbool.h>
#include "check.h"

static char step_log_[64];
static volatile int step_log_n_;

static __attribute__((unused)) void L(char c)
{
    if (step_log_n_ < (int)sizeof step_log_ - 1)
        step_log_[step_log_n_++] = c;
}

/* The log so far equals `want`; clear it. */
static __attribute__((unused)) void expect_log_(const char *want, const char *file, int line)
{
    step_log_[step_log_n_] = 0;
    int i = 0;
    while (want[i] && want[i] == step_log_[i])
        i++;
    bool ok = want[i] == step_log_[i];
    check_true_(ok, "log", file, line);
    if (!ok)
        bsp_printf("  log \"%s\", expected \"%s\"\n", step_log_, want);
    step_log_n_ = 0;
}
#define EXPECT_LOG(s) expect_log_(s, __FILE__, __LINE__)

#endif
