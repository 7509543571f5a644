/* Ubik: basic types, error codes and timeout values shared by every service. */
#ifndef UBIK_TYPES_H
#define UBIK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Ticks since uk_start(): 32 bits, wrapping; compare by difference, never by <. */
typedef uint32_t uk_tick_t;

/* Return values: 0 or a negative UK_E* code (values fixed by docs/contract.md). */
#define UK_OK 0
#define UK_ETIMEOUT (-1) /* the wait timed out */
#define UK_EAGAIN (-2)   /* UK_NO_WAIT and the resource was not available */
#define UK_EINVAL (-3)   /* a bad argument (NULL, out of range, wrong object) */
#define UK_EPERM (-4)    /* not allowed here (e.g. a blocking call from an interrupt handler) */
#define UK_ENOMEM (-5)   /* out of memory or of a fixed resource */
#define UK_EDELETED (-6) /* the object was deleted while the caller waited */
#define UK_ESTATE (-7)   /* the object or task is in the wrong state for this call */
#define UK_EINTR (-8)    /* a signal ended the wait or sleep (its handler has run) */

/* The text of a return value, for messages: "UK_ETIMEOUT: the wait timed out". Never NULL:
 * a value that is no UK_E* code gets a text that says so. Callable anywhere, LISRs too. */
const char *uk_strerror(int code);

/* Timeouts, in ticks. */
#define UK_NO_WAIT ((uk_tick_t)0)
#define UK_FOREVER ((uk_tick_t)0xFFFFFFFFu)

/* Priorities: 0 is the highest. The idle task takes the scheduler's lowest. */
typedef uint8_t uk_prio_t;

/* A node of an intrusive doubly-linked list (circular, with a sentinel head). */
typedef struct uk_list {
    struct uk_list *next, *prev;
} uk_list_t;

#endif
