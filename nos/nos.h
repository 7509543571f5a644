/* NOS: a bare-bones, fixed-priority, non-preemptive, multi-rate executive -- the baseline the
 * SimBed paper compares RTOSes with ("roll-your-own" schedulers of industry).
 *
 * - A job is a function with a period and a priority (0 highest). It runs to completion.
 * - Releases are relative to the ACTUAL start of the previous invocation (next = start +
 *   period), not to the intended one: a job that ran late once is on time afterwards, so
 *   jobs spread themselves out instead of colliding every lcm of their periods.
 * - Interrupts are polled: NOS runs with interrupts disabled and reads the interrupt
 *   controller between jobs. Interrupt work has a fixed priority (NOS_IRQ_PRIO, "LOW" by
 *   default: after every released job of higher priority).
 * - Between jobs with nothing released and no interrupt pending, the core sleeps in wfi
 *   until the next release (the timer compare) or an interrupt line (both enabled in mie,
 *   which wakes wfi though mstatus.MIE stays 0).
 * No other services: no preemption, no IPC (non-preemptive jobs share memory freely). */
#ifndef NOS_H
#define NOS_H

#include <stdint.h>

#ifndef NOS_MAX_JOBS
#define NOS_MAX_JOBS 24
#endif
/* NOS_RTM 1: release times and the choice of the job in the RTM (the RTM paper's NOS with
 * its Real-Time Task Manager): a clock tick every NOS_RTM_TICK_US, each job a record; 0: in
 * software, tickless (the default). */
#ifndef NOS_RTM
#define NOS_RTM 0
#endif
#ifndef NOS_RTM_TICK_US
#define NOS_RTM_TICK_US 1000
#endif
#ifndef NOS_IRQ_PRIO
#define NOS_IRQ_PRIO 200 /* interrupt work: LOW, below the application's periodic jobs */
#endif

typedef void (*nos_fn)(void *arg);

/* Add a periodic job: first release at start + offset_us, then every period_us after the
 * start of its previous run. 0 on success, -1 when the table is full or an argument is bad. */
int nos_job(const char *name, nos_fn fn, void *arg, uint32_t period_us, uint32_t offset_us,
            uint8_t prio);
/* Interrupt work for fast line `line` (0..14): fn(arg) runs once per latched interrupt of the
 * line, at priority NOS_IRQ_PRIO. 0, or -1 for a bad line or a line already taken. */
int nos_irq(unsigned line, nos_fn fn, void *arg);
/* Run the jobs; never returns. */
void nos_run(void) __attribute__((noreturn));
/* The time in timer ticks (mtime) at which the running job started. */
uint64_t nos_job_start(void);

#endif
