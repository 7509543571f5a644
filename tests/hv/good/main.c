/* The partition that must not be harmed (tests/hv/run.sh): its memory (a pattern, and its own
 * vector table, which a stray write into the partition's first word would hit) must stay as
 * it was while the other partition misbehaves, and its ticks must keep coming. */
#include "uk_gen.h"
#include "bsp/bsp.h"
#include "hv/abi.h"

extern struct hv_vcpu hv_vcpu;
extern uint32_t __vectors[];
static uint32_t pattern[64];

void keep(void *arg)
{
    (void)arg;
    uint32_t vec0 = __vectors[0];
    for (unsigned i = 0; i < 64; i++)
        pattern[i] = 0xA5A50000u + i;
    for (unsigned t = 0; t < 50; t++) {
        uk_task_sleep(1);
        for (unsigned i = 0; i < 64; i++) {
            if (pattern[i] != 0xA5A50000u + i) {
                bsp_printf("good: pattern[%u] changed to 0x%08x\n", i, (unsigned)pattern[i]);
                bsp_exit(1);
            }
        }
        if (__vectors[0] != vec0) {
            bsp_printf("good: vector table changed\n");
            bsp_exit(1);
        }
        hv_vcpu.progress++;
    }
    bsp_printf("good: intact after %u ticks\n", (unsigned)uk_time());
    bsp_exit(0);
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
