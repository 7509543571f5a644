/* Ubik: mutexes with transitive priority inheritance, recursive locking by the owner.
 *
 * uk_mutex_lock(m, timeout): takes m, or adds one level if the caller already owns it.
 *   UK_NO_WAIT and m owned by another task: UK_EAGAIN. Otherwise the caller waits (in priority
 *   order, FIFO among equals) and the owner, and transitively the owner's owner through a
 *   chain of mutexes, runs at least at the caller's priority until it unlocks. UK_ETIMEOUT
 *   when the timeout expires (the owner's inherited priority is recomputed at once),
 *   UK_EDELETED when m is deleted meanwhile.
 * uk_mutex_unlock(m): drops one level; at depth 0 m passes straight to its highest-priority
 *   waiter (which becomes the owner, depth 1) and the caller's priority falls back to the
 *   highest of its base priority and of the first waiters of the mutexes it still holds.
 *   UK_EPERM if the caller is not the owner.
 * uk_mutex_delete(m): waiters wake with UK_EDELETED; the owner loses what it inherited via m.
 * A task deleted while it owns mutexes releases them (each passes to its first waiter).
 * Lock, unlock and delete return UK_EPERM from a LISR or HISR (mutexes belong to tasks). */
#ifndef UBIK_MUTEX_H
#define UBIK_MUTEX_H

#include "ubik/types.h"

struct uk_task;

/* Invariants (interrupts disabled around every change):
 * - owner == NULL  <=>  depth == 0  =>  waiters is empty;
 * - owner != NULL  =>  depth >= 1 and m is on exactly one list of held mutexes, the owner's
 *   (owner->mutexes, chained through next_held; next_held is meaningless while free);
 * - waiters holds the tasks blocked in uk_mutex_lock(m) (state PENDING or PENDING_DELAYED,
 *   t->blocked_on == m), ordered by their effective priority, FIFO among equals;
 * - priority inheritance: owner->prio == min(owner->base_prio, first waiter's prio of every
 *   mutex the owner holds) (numerically; 0 is the highest priority). */
typedef struct uk_mutex {
    struct uk_task *owner;
    uint32_t depth;             /* recursive lock count */
    uk_list_t waiters;          /* highest priority first */
    struct uk_mutex *next_held; /* the owner's list of held mutexes */
    uint32_t magic;
} uk_mutex_t;

int uk_mutex_init(uk_mutex_t *m);
int uk_mutex_lock(uk_mutex_t *m, uk_tick_t timeout);
int uk_mutex_unlock(uk_mutex_t *m); /* UK_EPERM if the caller is not the owner */
int uk_mutex_delete(uk_mutex_t *m);

#endif
