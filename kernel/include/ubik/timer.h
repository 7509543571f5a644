/* Ubik: software timers on a delta list, counted in ticks. One-shot (period 0) or cyclic,
 * started relative to now or at an absolute tick; on expiry a timer calls a function, makes
 * a task ready, or sets event flags. Start (restart) and stop at any time. */
#ifndef UBIK_TIMER_H
#define UBIK_TIMER_H

#include "ubik/types.h"

struct uk_task;
struct uk_flags;

typedef struct uk_timer {
    uk_list_t node;      /* in the timer delta list while running */
    uk_list_t fire_node; /* in the list of functions due (function timers) */
    uk_tick_t delta;     /* ticks after the previous entry */
    uk_tick_t period;    /* 0: one-shot */
    uint8_t kind;        /* what expiry does */
    uint8_t running;     /* in the delta list */
    uint8_t due;         /* function timers: expired, the call not made yet */
    uint8_t pad;
    void (*fn)(struct uk_timer *tm, void *arg);
    void *arg;         /* the function's argument, the task, or the flags */
    uint32_t bits;     /* flags to set */
    uint32_t expiries; /* times it has expired since init */
    uint32_t overruns; /* expiries whose action could not be carried out */
    uint32_t magic;
} uk_timer_t;

int uk_timer_init(uk_timer_t *tm, void (*fn)(uk_timer_t *tm, void *arg), void *arg);
int uk_timer_init_task(uk_timer_t *tm, struct uk_task *t);
int uk_timer_init_flags(uk_timer_t *tm, struct uk_flags *f, uint32_t bits);
int uk_timer_start(uk_timer_t *tm, uk_tick_t delay, uk_tick_t period);
int uk_timer_start_at(uk_timer_t *tm, uk_tick_t when, uk_tick_t period);
int uk_timer_stop(uk_timer_t *tm);
int uk_timer_delete(uk_timer_t *tm);
int uk_timer_remaining(const uk_timer_t *tm, uk_tick_t *ticks);
int uk_timer_expiries(const uk_timer_t *tm, uint32_t *expiries, uint32_t *overruns);

#endif
