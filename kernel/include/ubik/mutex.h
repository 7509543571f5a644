/* Ubik: mutexes with transitive priority inheritance, recursive locking by the owner. */
#ifndef UBIK_MUTEX_H
#define UBIK_MUTEX_H

#include "ubik/types.h"

struct uk_task;

typedef struct uk_mutex {
    struct uk_task *owner;
    uint32_t depth;          /* recursive lock count */
    uk_list_t waiters;       /* highest priority first */
    struct uk_mutex *next_held; /* the owner's list of held mutexes */
    uint32_t magic;
} uk_mutex_t;

int uk_mutex_init(uk_mutex_t *m);
int uk_mutex_lock(uk_mutex_t *m, uk_tick_t timeout);
int uk_mutex_unlock(uk_mutex_t *m);   /* UK_EPERM if the caller is not the owner */
int uk_mutex_delete(uk_mutex_t *m);

#endif
