/* Ubik internals: the debug kernel's invariant checks (checks.c). */
#ifndef UBIK_KERNEL_CHECKS_H
#define UBIK_KERNEL_CHECKS_H

#include "kernel_config.h"

/* ---- Invariant checks ([kernel] checks = "full"; checks.c) -----------------------------
 * The debug kernel asserts the scheduler's and the wait lists' invariants at every kernel
 * exit (uk__unlock that frees the lock, the tail's return); a broken one stops the system
 * through uk__fatal ("kernel invariant broken: NAME"). Off, every hook compiles to nothing. */
#ifdef UK_CONFIG_CHECKS_FULL
void uk__check_invariants(void);
__attribute__((noreturn)) void uk__check_fail(const char *invariant);
#define UK_CHECK(cond, invariant)      \
    do {                               \
        if (!(cond))                   \
            uk__check_fail(invariant); \
    } while (0)
void uk__check_task_created(uk_task_t *t); /* the checks follow every live task */
void uk__check_task_deleted(uk_task_t *t);
unsigned uk__check_list(const uk_list_t *h); /* links intact; returns the length */
/* Links intact and at most max nodes (no cycle); returns the length. */
unsigned uk__check_links(const uk_list_t *h, unsigned max);
void uk__check_ready_task(const uk_task_t *t); /* a live task, READY or RUNNING */
/* Each policy checks its own ready structure and returns the number of tasks it holds. */
unsigned uk__sched_check(void);
/* The back end's delays: uk__delay_check (kernel_waitq.h). */
/* hisr.c, timer.c: their lists (nothing when the feature is off). */
#ifdef UK_FEATURE_HISR
void uk__hisr_check(void);
#else
static inline void uk__hisr_check(void) {}
#endif
#ifdef UK_FEATURE_TIMER
void uk__timer_check(void);
#else
static inline void uk__timer_check(void) {}
#endif
#else
static inline void uk__check_invariants(void) {}
static inline void uk__check_task_created(uk_task_t *t) { (void)t; }
static inline void uk__check_task_deleted(uk_task_t *t) { (void)t; }
#endif

#endif
