/* Ubik: the umbrella header. */
#ifndef UBIK_H
#define UBIK_H

#include "ubik/types.h"
#include "ubik/task.h"
#include "ubik/sem.h"
#include "ubik/mutex.h"
#include "ubik/irq.h"
#include "ubik/time.h"
#include "ubik/queue.h"
#include "ubik/flags.h"
#include "ubik/signal.h"
#include "ubik/timer.h"
#include "ubik/mem.h"
#include "ubik/power.h"

void uk_init(void);  /* before anything else; creates what system.toml declares */
void uk_start(void); /* starts scheduling; never returns */

/* Descriptor for the testbed's kernel awareness (docs/contract.md). Each version appends
 * to the one before, whose fields keep their offsets: version 2 the idle task, version 3
 * the task list and the saved stack pointer (a debugger's threads), version 4 what a task
 * waits on and its stack (a debugger's task table) and the objects' names. */
typedef struct {
    uint32_t magic;            /* UK_DEBUG_MAGIC */
    uint32_t version;          /* UK_DEBUG_VERSION */
    void *const *current_task; /* address of the current-task pointer */
    void *const
        *current_hisr; /* address of the current-HISR pointer (it holds NULL when none runs) */
    uint16_t off_name, off_prio, off_state, tcb_size;
    const void *idle_task; /* the idle task's TCB (version 2) */
    void *const *tasks;    /* address of the list head of every live task (version 3) */
    uint16_t off_next;     /* TCB offset of the list's next pointer */
    uint16_t off_sp;       /* TCB offset of the saved stack pointer (not running) */
    uint16_t off_wait;     /* TCB offset of the pointer to the wait queue waited on (version 4) */
    uint16_t off_stack;    /* TCB offset of the stack's lowest address */
    uint16_t off_stack_bytes; /* TCB offset of the stack's size in bytes */
    uint16_t reserved;        /* 0 */
    /* The named objects, ending with a NULL address (NULL: none): system.toml's, from the
     * code `ubik gen` writes. */
    const struct uk_debug_object *objects;
} uk_debug_info_t;

/* A named kernel object: a task waiting in a wait queue inside [addr, addr + size) waits on
 * it. */
typedef struct uk_debug_object {
    const void *addr;
    uint32_t size;
    uint32_t kind; /* UK_DEBUG_OBJ_* */
    const char *name;
} uk_debug_object_t;

enum {
    UK_DEBUG_OBJ_SEM = 1,
    UK_DEBUG_OBJ_MUTEX,
    UK_DEBUG_OBJ_QUEUE,
    UK_DEBUG_OBJ_PORT,
    UK_DEBUG_OBJ_FLAGS,
    UK_DEBUG_OBJ_POOL,
};

#define UK_DEBUG_MAGIC 0x4b425531u /* "1UBK" */
#define UK_DEBUG_VERSION 4u
extern const uk_debug_info_t uk_debug_info;

#endif
