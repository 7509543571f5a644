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
 * the task list and the saved stack pointer (a debugger's threads). */
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
} uk_debug_info_t;

#define UK_DEBUG_MAGIC 0x4b425531u /* "1UBK" */
#define UK_DEBUG_VERSION 3u
extern const uk_debug_info_t uk_debug_info;

#endif
