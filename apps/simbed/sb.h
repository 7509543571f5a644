/* The SimBed workloads' portability layer: the few things the application kernels need from
 * an operating system -- periodic jobs, interrupt-driven jobs, and a channel between jobs --
 * so the same workload code runs on the Ubik kernel (sb_ubik.c) and on NOS (sb_nos.c).
 *
 * A job is a function that runs once per release and returns. Priorities: 0 is the highest.
 * Channels carry 32-bit words, FIFO, never blocking: a send to a full channel and a receive
 * from an empty one fail (and the workload counts it), as a periodic job must not wait. On
 * Ubik a channel is a kernel message queue; on NOS (non-preemptive) a plain ring. */
#ifndef SB_H
#define SB_H

#include <stdint.h>
#include <stdbool.h>

#define SB_CHAN_CAP 16 /* words per channel */

#if defined(UK_CONFIG_OS_NOS)
#define SB_OS_NAME "nos"
typedef struct {
    uint32_t buf[SB_CHAN_CAP];
    uint32_t head, tail;
} sb_chan_t;
#else
#include <ubik/ubik.h>
#define SB_OS_NAME "ubik"
typedef struct {
    uk_queue_t q;
    uint32_t buf[SB_CHAN_CAP];
} sb_chan_t;
#endif

typedef void (*sb_fn)(void *arg);

void sb_init(void);
/* A periodic job: runs every period_us (a multiple of the tick on Ubik), first after
 * offset_us. 0, or -1 if it cannot be created. */
int sb_job(const char *name, sb_fn fn, void *arg, uint32_t period_us, uint32_t offset_us,
           unsigned prio);
/* An interrupt-driven job: runs once for each interrupt of fast line `line`. */
int sb_irq_job(const char *name, unsigned line, sb_fn fn, void *arg, unsigned prio);
int sb_chan_init(sb_chan_t *c);
bool sb_chan_send(sb_chan_t *c, uint32_t v);
bool sb_chan_recv(sb_chan_t *c, uint32_t *v);
/* Start the jobs; never returns. */
void sb_start(void) __attribute__((noreturn));

#endif
