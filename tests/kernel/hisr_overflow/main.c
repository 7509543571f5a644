/* A HISR's stack overflow is reported with the HISR's name: "hdeep" writes 1 KiB of locals on its
 * 512-byte stack, into a guard area below it; when its run ends the kernel finds the canary
 * overwritten and stops with "ubik: fatal: stack overflow in HISR hdeep" and exit code 60
 * (UK_EXIT_FATAL), as docs/api.md ("Fatal stops") promises. `expect` checks the line. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static struct {
    uint32_t guard[1024]; /* what the overflow tramples */
    uint32_t stack[128];  /* hdeep's stack: 512 bytes, its lowest word the kernel's canary */
} area __attribute__((aligned(16)));
static uk_hisr_t hdeep;
static uk_task_t main_t;
static uint32_t main_stack[256];

static void hdeep_entry(uk_hisr_t *h)
{
    (void)h;
    volatile uint32_t big[256]; /* 1 KiB of locals, every word written: well past 512 */
    for (unsigned i = 0; i < 256; i++)
        big[i] = i;
    (void)big[0]; /* a volatile read: the array is used */
}

static void main_entry(void *arg)
{
    (void)arg;
    uk_hisr_activate(&hdeep); /* runs at once, above this task; checked when it ends */
    bsp_printf("FAIL: overflow of HISR hdeep not detected\n");
    bsp_exit(1);
}

int main(void)
{
    uk_init();
    uk_hisr_create(&hdeep, "hdeep", hdeep_entry, 0, area.stack, sizeof area.stack);
    uk_task_create(&main_t, "main", main_entry, 0, 1, main_stack, sizeof main_stack);
    uk_task_activate(&main_t);
    uk_start();
    return 99;
}
