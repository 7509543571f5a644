/* Ubik: event flags. 32 bits per group; a task waits until any (UK_FLAGS_ANY) or all
 * (UK_FLAGS_ALL) of the bits it names are set, optionally clearing them on exit
 * (UK_FLAGS_CLEAR). Many tasks may wait; a set wakes every satisfied waiter, in priority
 * order (a waiter's clear happens before the next waiter is tested). */
#ifndef UBIK_FLAGS_H
#define UBIK_FLAGS_H

#include "ubik/types.h"

#define UK_FLAGS_ANY 1u
#define UK_FLAGS_ALL 2u
#define UK_FLAGS_CLEAR 4u

typedef struct uk_flags {
    uint32_t bits;
    uk_list_t waiters;
    uint32_t magic;
} uk_flags_t;

int uk_flags_init(uk_flags_t *f);
int uk_flags_set(uk_flags_t *f, uint32_t bits);
int uk_flags_clear(uk_flags_t *f, uint32_t bits);
int uk_flags_get(const uk_flags_t *f, uint32_t *bits);
int uk_flags_wait(uk_flags_t *f, uint32_t bits, unsigned mode, uint32_t *got, uk_tick_t timeout);
int uk_flags_delete(uk_flags_t *f);

#endif
