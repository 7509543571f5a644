/* Fixed-size queues of every message size class, through the fast paths and the general
 * ones (issue 13): sizes 1..64 bytes (word multiples take the word-copy fast path when the
 * buffer and the message are 4-aligned, the others and any unaligned buffer or message the
 * byte copy), over many wrap-arounds of a 3-message ring, FIFO order and content checked
 * byte by byte; a full queue refuses, an empty one too; a capacity whose ring would not fit
 * 32 bits is refused at init. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

#define STK 512
#define CAP 3
static uk_task_t main_t;
static uint32_t main_stack[STK];
static uint32_t ring_words[(CAP * 64 + 8) / 4];
static uint32_t out_words[17], in_words[17];

static uint8_t pattern(unsigned size, unsigned n, unsigned i)
{
    return (uint8_t)(size * 31 + n * 7 + i);
}

static void run(unsigned size, unsigned buf_off, unsigned msg_off)
{
    uk_queue_t q;
    uint8_t *buf = (uint8_t *)ring_words + buf_off;
    uint8_t *out = (uint8_t *)out_words + msg_off, *in = (uint8_t *)in_words + msg_off;
    CHECK_EQ(uk_queue_init(&q, buf, size, CAP), UK_OK);
    unsigned sent = 0, got = 0;
    for (unsigned round = 0; round < 20; round++) {
        unsigned burst = 1 + round % CAP; /* 1..3 messages in flight: every wrap position */
        for (unsigned k = 0; k < burst; k++, sent++) {
            for (unsigned i = 0; i < size; i++)
                out[i] = pattern(size, sent, i);
            CHECK_EQ(uk_queue_send(&q, out, UK_NO_WAIT), UK_OK);
        }
        if (burst == CAP)
            CHECK_EQ(uk_queue_send(&q, out, UK_NO_WAIT), UK_EAGAIN); /* full */
        uint32_t count = 99;
        CHECK_EQ(uk_queue_count(&q, &count), UK_OK);
        CHECK_EQ(count, burst);
        for (unsigned k = 0; k < burst; k++, got++) {
            for (unsigned i = 0; i < size; i++)
                in[i] = 0xEE;
            CHECK_EQ(uk_queue_recv(&q, in, UK_NO_WAIT), UK_OK);
            unsigned bad = 0;
            for (unsigned i = 0; i < size; i++)
                bad += in[i] != pattern(size, got, i);
            CHECK_EQ(bad, 0);
        }
        CHECK_EQ(uk_queue_recv(&q, in, UK_NO_WAIT), UK_EAGAIN); /* empty */
    }
    CHECK_EQ(uk_queue_delete(&q), UK_OK);
}

static void main_task(void *arg)
{
    (void)arg;
    static const unsigned sizes[] = {1, 3, 4, 5, 8, 12, 16, 20, 36, 64};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        run(sizes[s], 0, 0); /* aligned */
        run(sizes[s], 1, 0); /* the buffer unaligned */
        run(sizes[s], 0, 2); /* the messages unaligned */
    }
    uk_queue_t q;
    CHECK_EQ(uk_queue_init(&q, ring_words, 0xFFFF, 0x10002), UK_EINVAL); /* ring >= 4 GiB */
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_task_create(&main_t, "main", main_task, 0, 5, main_stack, sizeof main_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&main_t), UK_OK);
    uk_start();
    return 99;
}
