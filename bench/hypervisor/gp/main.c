/* The general-purpose partition of the hypervisor experiment (docs/hypervisor.md): work that
 * never ends and keeps the partition busy, like the paper's Linux under a background process.
 *   worker  sweeps a GP_WORDS-word array (read, mix, write back), one work unit per sweep,
 *           counted in the virtual CPU page's `progress` (the hypervisor reports it: the
 *           partition's throughput);
 *   on_dev  the device's interrupt (line 5, the machine file's stimulus): wakes the server;
 *   server  copies a 64-word buffer per event (its own memory traffic).
 * Its tick (system.toml tick_hz) is the kernel's own timer interrupt. */
#include "uk_gen.h"
#include "bsp/bsp.h"
#include "hv/abi.h"

#ifndef GP_WORDS
#define GP_WORDS 1024
#endif

extern struct hv_vcpu hv_vcpu;
static uint32_t data[GP_WORDS];
static uint32_t in[64], out[64];
static volatile unsigned served;

void on_dev(unsigned line)
{
    (void)line;
    uk_sem_give(&events);
}

void serve(void *arg)
{
    (void)arg;
    for (;;) {
        uk_sem_take(&events, UK_FOREVER);
        for (unsigned i = 0; i < 64; i++)
            out[i] = in[i] ^ (uint32_t)served;
        served++;
    }
}

void work(void *arg)
{
    (void)arg;
    uint32_t x = 1;
    for (;;) {
        for (unsigned i = 0; i < GP_WORDS; i++) {
            x = x * 1664525u + 1013904223u;
            data[i] += x ^ data[(i * 7) % GP_WORDS];
        }
        hv_vcpu.progress++;
    }
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
