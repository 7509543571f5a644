/* Ubik: counting and binary semaphores. Waiters wake in priority order, FIFO among equals. */
#ifndef UBIK_SEM_H
#define UBIK_SEM_H

#include "ubik/types.h"

typedef struct uk_sem {
    uint32_t count;
    uint32_t max;      /* 1: binary */
    uk_list_t waiters; /* tasks waiting, highest priority first */
    uint32_t magic;
} uk_sem_t;

int uk_sem_init(uk_sem_t *s, uint32_t initial, uint32_t max);
int uk_sem_take(uk_sem_t *s, uk_tick_t timeout); /* UK_EAGAIN on a UK_NO_WAIT miss */
int uk_sem_give(uk_sem_t *s);                    /* UK_ENOMEM if already at max; LISR/HISR-safe */
int uk_sem_delete(uk_sem_t *s);                  /* waiters get UK_EDELETED */
int uk_sem_count(const uk_sem_t *s, uint32_t *count);

#endif
