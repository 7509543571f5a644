/* picolibc in an application: snprintf and sqrt in one task, printf and puts on the console
 * in another, errno and rand's state (thread-local in picolibc) reached from a task. The
 * output is compared line by line (expect). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_gen.h" /* measure, report, lengths */
#include "bsp/bsp.h"

void measure(void *arg)
{
    (void)arg;
    char line[48];
    for (uint32_t n = 2; n <= 4; n++) {
        int len =
            snprintf(line, sizeof line, "sqrt(%lu) = %.6f", (unsigned long)n, sqrt((double)n));
        puts(line);
        uint32_t l = (uint32_t)len;
        uk_queue_send(&lengths, &l, UK_FOREVER);
    }
    /* snprintf truncates and returns the full length. */
    int full = snprintf(line, 8, "%s-%04x", "ubik", 0xbeefu);
    printf("truncated \"%s\" of %d\n", line, full);
}

void report(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        uint32_t l;
        uk_queue_recv(&lengths, &l, UK_FOREVER);
        printf("line %d: %lu characters\n", i + 1, (unsigned long)l);
    }
    /* errno lives in picolibc's thread-local storage: set and read through tp. */
    errno = 0;
    long v = strtol("99999999999", NULL, 10);
    printf("strtol overflow: %ld, errno %s\n", v, errno == ERANGE ? "ERANGE" : "wrong");
    /* rand's seed is initialised thread-local data (.tdata), copied at start. */
    int r1 = rand();
    srand(1);
    printf("rand after start %s rand after srand(1)\n", r1 == rand() ? "==" : "!=");
    printf("%s %g\n", strerror(EDOM), floor(-2.5));
    bsp_exit(0);
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
