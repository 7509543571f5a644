/* Checks for self-checking firmware tests.
 *
 *   #include "check.h"
 *   int main(void) {
 *       CHECK_EQ(add(2, 3), 5);        // value under test first, expected value second
 *       CHECK(ptr != 0);
 *       return check_result();         // prints a summary line on failure; 0 if all passed
 *   }
 *
 * A failed check prints one line, "file:line: CHECK_EQ(expr, expected): got X, expected Y",
 * and the test carries on, so one run shows every failure. CHECK_EQ compares as
 * 32-bit values, CHECK_EQ64 as 64-bit values.
 */
#ifndef UBIK_TEST_CHECK_H
#define UBIK_TEST_CHECK_H

#include "bsp/bsp.h"

static unsigned check_count_;
static unsigned check_failures_;

static inline __attribute__((unused)) void check_eq32_(uint32_t got, uint32_t expected,
                                                       const char *got_expr,
                                                       const char *expected_expr, const char *file,
                                                       int line)
{
    check_count_++;
    if (got != expected) {
        check_failures_++;
        bsp_printf("%s:%d: CHECK_EQ(%s, %s): got 0x%08x (%d), expected 0x%08x (%d)\n", file, line,
                   got_expr, expected_expr, (unsigned)got, (int)got, (unsigned)expected,
                   (int)expected);
    }
}

static inline __attribute__((unused)) void check_eq64_(uint64_t got, uint64_t expected,
                                                       const char *got_expr,
                                                       const char *expected_expr, const char *file,
                                                       int line)
{
    check_count_++;
    if (got != expected) {
        check_failures_++;
        bsp_printf("%s:%d: CHECK_EQ64(%s, %s): got 0x%016llx, expected 0x%016llx\n", file, line,
                   got_expr, expected_expr, (unsigned long long)got, (unsigned long long)expected);
    }
}

static inline __attribute__((unused)) void check_true_(int ok, const char *expr, const char *file,
                                                       int line)
{
    check_count_++;
    if (!ok) {
        check_failures_++;
        bsp_printf("%s:%d: CHECK(%s) failed\n", file, line, expr);
    }
}

#define CHECK(cond) check_true_(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ(got, expected) \
    check_eq32_((uint32_t)(got), (uint32_t)(expected), #got, #expected, __FILE__, __LINE__)
#define CHECK_EQ64(got, expected) \
    check_eq64_((uint64_t)(got), (uint64_t)(expected), #got, #expected, __FILE__, __LINE__)

/* Number of failed checks so far. */
static inline __attribute__((unused)) unsigned check_failures(void) { return check_failures_; }

/* The test's exit code: 0 if every check passed, else 1 (after a summary line). */
static inline __attribute__((unused)) int check_result(void)
{
    if (check_failures_ == 0)
        return 0;
    bsp_printf("%u of %u checks failed\n", check_failures_, check_count_);
    return 1;
}

#endif /* UBIK_TEST_CHECK_H */
