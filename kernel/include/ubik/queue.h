/* Ubik: message queues that copy (fixed-size or variable-size messages) and message ports
 * that pass pointers. Neither ever overwrites: a full queue blocks the sender (with a
 * timeout) or refuses (UK_EAGAIN with UK_NO_WAIT, UK_ENOMEM from a LISR). Waiters on both
 * ends wake in priority order, FIFO among equals; messages keep their order. */
#ifndef UBIK_QUEUE_H
#define UBIK_QUEUE_H

#include "ubik/types.h"

typedef struct uk_queue {
    uint8_t *buf;
    uint32_t msg_bytes;  /* fixed: the message size; variable: the largest message */
    uint32_t size;       /* fixed: capacity in messages; variable: buffer bytes */
    uint32_t span;       /* the ring's bytes: fixed: size * msg_bytes; variable: size */
    uint32_t head, tail; /* byte offsets into buf (variable: 4-aligned) */
    uint32_t count;      /* messages in the queue */
    uint32_t used;       /* variable: bytes used (records of 4 + size rounded up to 4) */
    uint32_t variable;
    uint32_t words;      /* fixed, buf 4-aligned and msg_bytes a multiple of 4: word copies */
    uk_list_t senders;   /* tasks waiting for room, highest priority first */
    uk_list_t receivers; /* tasks waiting for a message */
    uint32_t magic;
} uk_queue_t;

/* A variable-size queue's buffer for messages of at most `max` bytes: a message of n bytes
 * takes 4 + n rounded up to 4 bytes. UK_QUEUE_VAR_BYTES(max, k) holds at least k of them. */
#define UK_QUEUE_VAR_BYTES(max, k) ((k) * (4 + (((max) + 3) & ~3u)))

int uk_queue_init(uk_queue_t *q, void *buf, size_t msg_bytes, size_t capacity);
int uk_queue_init_var(uk_queue_t *q, void *buf, size_t buf_bytes, size_t max_msg);
int uk_queue_send(uk_queue_t *q, const void *msg, uk_tick_t timeout);
int uk_queue_recv(uk_queue_t *q, void *msg, uk_tick_t timeout);
int uk_queue_send_var(uk_queue_t *q, const void *msg, size_t len, uk_tick_t timeout);
int uk_queue_recv_var(uk_queue_t *q, void *msg, size_t buf_bytes, size_t *len, uk_tick_t timeout);
int uk_queue_count(const uk_queue_t *q, uint32_t *count);
int uk_queue_delete(uk_queue_t *q);

typedef struct uk_port {
    void **slots;
    uint32_t capacity, head, count;
    uk_list_t senders, receivers;
    uint32_t magic;
} uk_port_t;

int uk_port_init(uk_port_t *p, void **slots, size_t capacity);
int uk_port_send(uk_port_t *p, void *msg, uk_tick_t timeout);
int uk_port_recv(uk_port_t *p, void **msg, uk_tick_t timeout);
int uk_port_count(const uk_port_t *p, uint32_t *count);
int uk_port_delete(uk_port_t *p);

/* Task ports: one synchronous message per task, held in its TCB. A task sender waits until
 * `to` receives its message (a rendezvous); an interrupt handler's send is asynchronous and
 * lands in the TCB's one-message slot (UK_ENOMEM if it is full). */
struct uk_task;
int uk_taskport_send(struct uk_task *to, uint32_t msg, uk_tick_t timeout);
int uk_taskport_recv(uint32_t *msg, uk_tick_t timeout);

#endif
