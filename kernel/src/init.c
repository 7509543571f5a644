/* Start-up: uk_init, uk_start, the idle task and the debug descriptor. */
#include "kernel.h"

uk_task_t uk__idle_task;

/* The kernel's own stacks (kernel.h): one object, so that the interrupt stack sits right
 * above the idle stack, and an interrupt stack that overflows runs into the idle stack's
 * unused bottom rather than into kernel data before the tail's check reports it. */
_Static_assert(UK_IDLE_STACK_BYTES % 16 == 0 && UK_IDLE_STACK_BYTES >= 256, "idle_stack_bytes");
_Static_assert(UK_IRQ_STACK_BYTES % 16 == 0 && UK_IRQ_STACK_BYTES >= 256, "irq_stack_bytes");
uk__stacks_t uk__stacks __attribute__((aligned(16)));
/* uk_start abandons main's stack: its switch saves the context here, never to be resumed. */
static uk_task_t boot_context;

/* The generated code's table of named objects (uk_gen.c), if it has one. */
extern const uk_debug_object_t uk__debug_objects[] __attribute__((weak));

const uk_debug_info_t uk_debug_info = {
    .magic = UK_DEBUG_MAGIC,
    .version = UK_DEBUG_VERSION,
    .current_task = (void *const *)&uk__current,
    .current_hisr = (void *const *)&uk__current_hisr,
    .off_name = __builtin_offsetof(uk_task_t, name),
    .off_prio = __builtin_offsetof(uk_task_t, prio),
    .off_state = __builtin_offsetof(uk_task_t, state),
    .tcb_size = sizeof(uk_task_t),
    .idle_task = &uk__idle_task,
    .tasks = (void *const *)&uk__all_tasks,
    .off_next = __builtin_offsetof(uk_task_t, all_next),
    .off_sp = __builtin_offsetof(uk_task_t, sp),
    .off_wait = __builtin_offsetof(uk_task_t, waiting_on),
    .off_stack = __builtin_offsetof(uk_task_t, stack_base),
    .off_stack_bytes = __builtin_offsetof(uk_task_t, stack_bytes),
    .reserved = 0,
    .objects = uk__debug_objects,
};
/* The layout the testbed reads (sim/crates/observe/src/kernel.rs, docs/observe.md). */
_Static_assert(__builtin_offsetof(uk_debug_info_t, tcb_size) == 22, "uk_debug_info v1 layout");
_Static_assert(__builtin_offsetof(uk_debug_info_t, idle_task) == 24, "uk_debug_info v2 layout");
_Static_assert(__builtin_offsetof(uk_debug_info_t, off_sp) == 34, "uk_debug_info v3 layout");
_Static_assert(__builtin_offsetof(uk_debug_info_t, off_wait) == 36, "uk_debug_info v4 layout");
_Static_assert(__builtin_offsetof(uk_debug_info_t, objects) == 44, "uk_debug_info v4 layout");
_Static_assert(sizeof(uk_debug_info_t) == 48, "uk_debug_info v4 size");
_Static_assert(sizeof(uk_debug_object_t) == 16, "uk_debug_object_t layout");

/* The idle task: sleeps in wfi until an interrupt makes something ready. */
static UK_OTHER_FN(idle) void idle(void *arg)
{
    (void)arg;
    for (;;)
        uk__arch_wait_for_interrupt();
}

/* Weak hook: the code `ubik gen` generates defines it to create the system's objects. */
__attribute__((weak)) void uk__gen_init(void) {}

UK_OTHER_FN(uk_init) void uk_init(void)
{
    (void)uk_irq_disable();
    uk__stacks.irq[0] = UK_STACK_CANARY;
    uk__arch_irq_stack_init(uk__stacks.irq + UK_IRQ_STACK_BYTES / 4);
    uk__sched_init();
    uk_task_create(&uk__idle_task, "idle", idle, 0, UK_IDLE_PRIO, uk__stacks.idle,
                   sizeof uk__stacks.idle);
    uk_task_activate(&uk__idle_task);
    uk__gen_init();
}

UK_OTHER_FN(uk_start) void uk_start(void)
{
    (void)uk_irq_disable();
    (void)uk__lock(); /* the first task's start releases it (uk__task_run) */
    uk__current = &boot_context;
    uk__started = true;
    uk__arch_timer_start(UK_TICK_HZ);
    uk_task_t *first = uk__sched_pick();
    uk__current = first;
    UK_POWER_START(first); /* every policy: the machine may start at another point */
    uk__arch_switch(&boot_context.sp, &first->sp);
    for (;;) {
    }
}
