/* The portability layer on NOS: jobs are NOS jobs, interrupt work is NOS's polled LOW-priority
 * work, channels are rings (NOS never preempts, so no locking). */
#include "sb.h"
#ifdef UK_CONFIG_OS_NOS
#include "nos.h"

void sb_init(void) {}

int sb_job(const char *name, sb_fn fn, void *arg, uint32_t period_us, uint32_t offset_us,
           unsigned prio)
{
    return nos_job(name, fn, arg, period_us, offset_us, (uint8_t)(prio > 255 ? 255 : prio));
}

int sb_irq_job(const char *name, unsigned line, sb_fn fn, void *arg, unsigned prio)
{
    (void)name;
    (void)prio; /* NOS gives interrupt work one fixed priority */
    return nos_irq(line, fn, arg);
}

int sb_chan_init(sb_chan_t *c)
{
    c->head = c->tail = 0;
    return 0;
}

bool sb_chan_send(sb_chan_t *c, uint32_t v)
{
    if (c->head - c->tail == SB_CHAN_CAP)
        return false;
    c->buf[c->head++ % SB_CHAN_CAP] = v;
    return true;
}

bool sb_chan_recv(sb_chan_t *c, uint32_t *v)
{
    if (c->head == c->tail)
        return false;
    *v = c->buf[c->tail++ % SB_CHAN_CAP];
    return true;
}

void sb_start(void) { nos_run(); }
#endif
