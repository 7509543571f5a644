/* Footprint per service: every call of the services referenced, so that --gc-sections keeps
 * each whole; bench/ipc.toml sums the code of each service's file in the link map (docs/results.md,
 * "IPC"). It also runs: it exits 0. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static void *const volatile api[] = {
    (void *)uk_queue_init,     (void *)uk_queue_init_var,  (void *)uk_queue_send,
    (void *)uk_queue_recv,     (void *)uk_queue_send_var,  (void *)uk_queue_recv_var,
    (void *)uk_queue_count,    (void *)uk_queue_delete,    (void *)uk_port_init,
    (void *)uk_port_send,      (void *)uk_port_recv,       (void *)uk_port_count,
    (void *)uk_port_delete,    (void *)uk_taskport_send,   (void *)uk_taskport_recv,
    (void *)uk_flags_init,     (void *)uk_flags_set,       (void *)uk_flags_clear,
    (void *)uk_flags_get,      (void *)uk_flags_wait,      (void *)uk_flags_delete,
    (void *)uk_signal_handler, (void *)uk_signal_send,     (void *)uk_signal_pending,
    (void *)uk_timer_init,     (void *)uk_timer_init_task, (void *)uk_timer_init_flags,
    (void *)uk_timer_start,    (void *)uk_timer_start_at,  (void *)uk_timer_stop,
    (void *)uk_timer_delete,   (void *)uk_timer_remaining, (void *)uk_timer_expiries,
    (void *)uk_pool_init,      (void *)uk_pool_create,     (void *)uk_pool_alloc,
    (void *)uk_pool_free,      (void *)uk_pool_available,  (void *)uk_pool_delete,
    (void *)uk_heap_init,      (void *)uk_heap_alloc,      (void *)uk_heap_free,
    (void *)uk_heap_stats,     (void *)uk_heap_delete,
};

int main(void)
{
    uk_init();
    bsp_exit(api[0] ? 0 : 1);
    return 0;
}
