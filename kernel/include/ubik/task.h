/* Ubik: tasks. A task is created (UK_TASK_CREATED), activated once, suspended and resumed,
 * and deletable from any state. */
#ifndef UBIK_TASK_H
#define UBIK_TASK_H

#include "ubik/types.h"
#include "../../arch/arch_irq.h" /* the port's yield fast path */

typedef enum {
    UK_TASK_SUSPENDED = 0,   /* suspended after it was activated: uk_task_resume readies it */
    UK_TASK_READY,           /* eligible to run, not running */
    UK_TASK_RUNNING,         /* the current task (kept as READY in its TCB: see uk_task_state) */
    UK_TASK_DELAYED,         /* sleeping until a tick */
    UK_TASK_PENDING,         /* waiting on an object, no timeout */
    UK_TASK_PENDING_DELAYED, /* waiting on an object with a timeout */
    UK_TASK_DELETED,         /* deleted (or never created) */
    UK_TASK_CREATED,         /* created, never activated: uk_task_activate starts it */
} uk_task_state_t;

/* The task control block. Caller-allocated; fields are the kernel's (read them through the
 * calls below). The offsets of `name`, `prio` and `state` are exported in uk_debug_info for
 * the testbed's kernel awareness; `sp` must stay first (the context switch relies on it). */
typedef struct uk_task {
    void *sp; /* saved stack pointer while not running */
    const char *name;
    uint8_t state;       /* uk_task_state_t */
    uk_prio_t prio;      /* current (possibly inherited) priority */
    uk_prio_t base_prio; /* priority set by the application */
    uint8_t flags;
    uk_list_t ready_node; /* in the scheduler's ready structure */
    uk_list_t wait_node;  /* in an object's wait queue, ordered by priority */
    uk_list_t delay_node; /* in the delta list of timeouts */
    uk_tick_t delta;      /* ticks after the previous entry of the delta list */
    uk_tick_t slice;      /* time slice, ticks (round-robin schedulers) */
    uk_tick_t slice_left;
    void *waiting_on;            /* the wait queue (list head) of the object waited on */
    int wait_result;             /* UK_OK, UK_ETIMEOUT or UK_EDELETED when the wait ends */
    uint32_t wait_arg;           /* a per-service value handed over when the wait ends */
    struct uk_mutex *mutexes;    /* mutexes held (for priority inheritance), most recent first */
    struct uk_mutex *blocked_on; /* the mutex whose wait queue holds this task, else NULL */
    void (*entry)(void *);
    void *arg;
    uint32_t *stack_base; /* lowest word of the stack: the overflow canary */
    size_t stack_bytes;
    uint32_t magic; /* UK_TASK_MAGIC while the task exists */
    /* Services (queue.h, signal.h): fields added at the end, the offsets above are fixed. */
    uk_list_t tp_senders; /* task port: tasks waiting to hand this task a message */
    uint32_t tp_msg;      /* task port: the one message an interrupt handler left */
    uint8_t tp_full;      /* tp_msg holds a message */
    uint8_t tp_receiving; /* waiting in uk_taskport_recv */
    uint8_t sig_busy;     /* the signal handler is running */
    uint8_t power_class;  /* uk_power_class_t (power.h): its operating point under a policy */
    uint32_t sig_pending; /* signals sent, not yet handled */
    void (*sig_handler)(uint32_t sigs);
    /* Set by a service whose admission looks at the first waiter (a variable-size queue's
     * senders): called with the wait queue when this task leaves it unserved or moves in it. */
    void (*wait_leave)(uk_list_t *q);
    /* Deadline policies (edf, coop): the current job's absolute deadline (a tick), valid
     * while rel_deadline is not 0; rel_deadline: ticks from each release to its deadline. */
    uk_tick_t deadline;
    uk_tick_t rel_deadline;
    /* The rtm policy: the event id of the wait queue the task is in (shared by its
     * waiters). */
    uint8_t rtm_event;
#if defined(UK_POLICY_DEADLINES) && UK_POLICY_DEADLINES
    /* Deadline policies (kernel/sched/edf.c). The order key is (has a deadline, eff_deadline, prio,
     * ready_seq): eff_deadline is the earlier of the job's deadline and inh_deadline, the
     * earliest deadline among the waiters of the mutexes the task holds (mutex.c, deadline
     * inheritance; inh_set says there is one). A ready task with a key deadline is in the
     * policy's pairing heap (in_heap: first child in heap_child, siblings through
     * ready_node), one without in its priority's ring. */
    struct uk_task *heap_child;
    uint32_t ready_seq; /* FIFO among equal keys: stamped at each arrival */
    uk_tick_t eff_deadline;
    uk_tick_t inh_deadline;
    uint8_t inh_set;
    uint8_t in_heap;
#endif
    /* Every task created and not deleted, newest first (uk_debug_info.tasks): for debuggers. */
    struct uk_task *all_next;
} uk_task_t;

int uk_task_create(uk_task_t *t, const char *name, void (*entry)(void *), void *arg, uint8_t prio,
                   void *stack, size_t stack_bytes);
int uk_task_activate(uk_task_t *t);
int uk_task_suspend(uk_task_t *t);
int uk_task_resume(uk_task_t *t);
int uk_task_delete(uk_task_t *t);
/* uk_task_yield: the running task goes behind the ready tasks of its priority. With
 * optimisation, on a port with a voluntary fast path (kernel/arch/arch_irq.h), it is an
 * inline call to that path, which saves no registers itself: the compiler saves what the
 * caller keeps live. */
int uk__yield(void);
#if defined(__OPTIMIZE__) && defined(UK_ARCH_YIELD_FAST)
static inline int uk_task_yield(void) { return uk__arch_yield_fast(); }
#else
#define uk_task_yield uk__yield
#endif
int uk_task_sleep(uk_tick_t ticks);
int uk_task_sleep_until(uk_tick_t *last_wake, uk_tick_t period);
uk_task_t *uk_task_self(void);
int uk_task_set_prio(uk_task_t *t, uint8_t prio);
int uk_task_set_slice(uk_task_t *t, uk_tick_t ticks);
/* t's relative deadline (NULL: the calling task; not the idle task): 0 removes it (t then
 * runs after every task with a deadline, by priority). uk_task_sleep_until sets it to its
 * period, so a periodic task's deadline is its next release. The deadline policies (edf,
 * coop) order tasks by it and renew the absolute deadline, now + relative, each time t
 * becomes ready (a ready t's at once); the others set it only here (now + relative) and in
 * uk_task_sleep_until (the job's release + period). */
int uk_task_set_deadline(uk_task_t *t, uk_tick_t relative);
/* t's absolute deadline (a tick; NULL: the calling task's), or UK_FOREVER if it has none (a
 * deadline at tick 0xFFFFFFFF reads the same). */
uk_tick_t uk_task_deadline(const uk_task_t *t);
uk_task_state_t uk_task_state(const uk_task_t *t);
uint8_t uk_task_prio(const uk_task_t *t);

#endif
