/* A deadlock: the producer waits for an acknowledgement before it sends its first item, the
 * consumer waits for an item before it sends an acknowledgement. The producer sleeps a
 * little first (a delayed task is not a deadlock: the tick wakes it). */
#include "uk_gen.h" /* producer, consumer, items, acks */
#include "bsp/bsp.h"

void produce(void *arg)
{
    (void)arg;
    uk_task_sleep(5);
    for (uint32_t i = 1;; i++) {
        uint32_t ack;
        uk_queue_recv(&acks, &ack, UK_FOREVER);
        uk_queue_send(&items, &i, UK_FOREVER);
    }
}

void consume(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t v;
        uk_queue_recv(&items, &v, UK_FOREVER);
        uk_queue_send(&acks, &v, UK_FOREVER);
    }
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
