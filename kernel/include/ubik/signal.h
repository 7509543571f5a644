/* Ubik: signals, asynchronous events for a task. Each task may install one handler; a send
 * ORs bits into the task's pending set, and the handler runs in the task's own context (its
 * stack, its priority, as part of the task) the next time the task runs, with the bits that
 * were pending (then cleared). A signal also reaches a delayed or pending task: its sleep or
 * wait ends at once with UK_EINTR, the task becomes ready and runs the handler first.
 * Handlers do not nest: bits sent while one runs are delivered when it returns. */
#ifndef UBIK_SIGNAL_H
#define UBIK_SIGNAL_H

#include "ubik/types.h"

struct uk_task;
typedef void (*uk_signal_handler_t)(uint32_t sigs);

int uk_signal_handler(struct uk_task *t, uk_signal_handler_t fn); /* t NULL: the caller */
int uk_signal_send(struct uk_task *t, uint32_t sigs);
int uk_signal_pending(const struct uk_task *t, uint32_t *sigs);

#endif
