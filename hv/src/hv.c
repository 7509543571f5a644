/* The Ubik hypervisor: static partitions, each a guest in U-mode behind PMP, on one core.
 * docs/hypervisor.md has the design; hv/include/hv/abi.h the guests' interface.
 *
 * Everything happens in hv_trap, called by the trap entry (entry.S) for every trap from a
 * guest with the guest's registers saved in its partition: the trap is handled (a physical
 * interrupt is collected into the owners' virtual pending bits, a hypercall done, a fault
 * stops its partition), then `resume` lets the policy pick the partition to run, delivers
 * its deliverable virtual interrupt, routes the physical interrupt lines and sets the
 * physical timer for the next thing the hypervisor must see. The hypervisor runs with
 * interrupts disabled and never nests. */
#include "hv.h"
#include "bsp/csr.h"
#include "bsp/mmio.h"
#include <stddef.h>

#define MCAUSE_IRQ 0x80000000u
#define CAUSE_TIMER 7u
#define CAUSE_ECALL_U 8u
#define NEVER UINT64_MAX

static struct hv_part parts[HV_MAX_PARTITIONS];
static struct hv_part *cur;       /* the partition running (or last run) */
static uint64_t run_start;        /* when cur last started running */
static uint64_t slice_end;        /* when cur's turn ends (NEVER: no end) */
static uint64_t slice_counts, period_counts, min_counts;
static uint64_t period_start;
static uint32_t mtime_hz;
static uint32_t all_lines;        /* every owned line */
static struct hv_part *rt_part;   /* the rt policy's partition, or NULL */
static uint32_t next_rr;          /* round robin: the partition after the last turn */
static uint32_t switches;         /* partition switches, for the report */

/* ---- Output (the hypervisor's own console lines) --------------------------------------- */

static void put(char c) { MMIO32(SIMCTRL_CHAR_OUT) = (uint8_t)c; }

static void puts_(const char *s)
{
    while (*s)
        put(*s++);
}

static void put_u64(uint64_t v)
{
    char b[21];
    int n = 0;
    do {
        b[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        put(b[--n]);
}

static void put_hex(uint32_t v)
{
    puts_("0x");
    for (int i = 28; i >= 0; i -= 4)
        put("0123456789abcdef"[(v >> i) & 15]);
}

/* ---- Time --------------------------------------------------------------------------------- */

static uint64_t now(void)
{
    uint32_t hi, lo;
    do {
        hi = MMIO32(TIMER_MTIMEH);
        lo = MMIO32(TIMER_MTIME);
    } while (hi != MMIO32(TIMER_MTIMEH));
    return (uint64_t)hi << 32 | lo;
}

static uint64_t us_to_counts(uint32_t us) { return (uint64_t)us * mtime_hz / 1000000u; }

static uint64_t counts_to_us(uint64_t c) { return c * 1000000u / mtime_hz; }

static void set_compare(uint64_t at)
{
    MMIO32(TIMER_MTIMECMPH) = 0xFFFFFFFFu; /* no match while the halves change */
    MMIO32(TIMER_MTIMECMP) = (uint32_t)at;
    MMIO32(TIMER_MTIMECMPH) = (uint32_t)(at >> 32);
}

/* ---- PMP: a partition's view of memory ----------------------------------------------------- */

#define PMP_R 1u
#define PMP_W 2u
#define PMP_X 4u
#define PMP_NAPOT (3u << 3)

static uint32_t napot(uint32_t base, uint32_t size) { return (base >> 2) | ((size >> 3) - 1); }

/* Entries 0..7: its RAM (read, write, execute), its devices (read, write), the timer's window
 * (read: mtime and its rate; the compare is the hypervisor's). */
static void pmp_prepare(struct hv_part *p)
{
    const struct hv_partition_config *c = p->cfg;
    uint32_t cfg[8] = {0};
    unsigned e = 0;
    p->pmpaddr[e] = napot(c->ram_base, c->ram_size);
    cfg[e++] = PMP_NAPOT | PMP_R | PMP_W | PMP_X;
    for (uint32_t i = 0; i < c->n_devices && e < 7; i++) {
        p->pmpaddr[e] = napot(c->devices[i], 4096);
        cfg[e++] = PMP_NAPOT | PMP_R | PMP_W;
    }
    p->pmpaddr[e] = napot(TIMER_BASE, 4096);
    cfg[e++] = PMP_NAPOT | PMP_R;
    p->pmpcfg[0] = cfg[0] | cfg[1] << 8 | cfg[2] << 16 | cfg[3] << 24;
    p->pmpcfg[1] = cfg[4] | cfg[5] << 8 | cfg[6] << 16 | cfg[7] << 24;
}

static void pmp_load(const struct hv_part *p)
{
    csr_write(pmpcfg0, 0); /* off while the addresses change */
    csr_write(pmpcfg1, 0);
    csr_write(pmpaddr0, p->pmpaddr[0]);
    csr_write(pmpaddr1, p->pmpaddr[1]);
    csr_write(pmpaddr2, p->pmpaddr[2]);
    csr_write(pmpaddr3, p->pmpaddr[3]);
    csr_write(pmpaddr4, p->pmpaddr[4]);
    csr_write(pmpaddr5, p->pmpaddr[5]);
    csr_write(pmpaddr6, p->pmpaddr[6]);
    csr_write(pmpaddr7, p->pmpaddr[7]);
    csr_write(pmpcfg0, p->pmpcfg[0]);
    csr_write(pmpcfg1, p->pmpcfg[1]);
}

/* ---- Virtual interrupts ---------------------------------------------------------------------- */

/* Is [addr, addr + bytes) inside p's RAM? */
static bool in_ram(const struct hv_part *p, uint32_t addr, uint32_t bytes)
{
    uint32_t base = p->cfg->ram_base, size = p->cfg->ram_size;
    return addr - base < size && bytes <= size - (addr - base);
}

/* The sources pending for p: latched lines, the timer's level, its software interrupt. */
static uint32_t pending_of(const struct hv_part *p)
{
    uint32_t v = p->vpending;
    if (p->vcpu) {
        if (p->vcpu->msip)
            v |= HV_IRQ_SOFT;
        p->vcpu->pending = v;
    }
    return v;
}

/* Pending and enabled (what wakes an idle partition, interrupts on or not). */
static uint32_t wakers(const struct hv_part *p)
{
    return p->vcpu ? pending_of(p) & p->vcpu->enable : 0;
}

static bool runnable(const struct hv_part *p)
{
    return p->state == PART_RUNNABLE || (p->state == PART_IDLE && wakers(p));
}

/* Enter p's virtual trap handler for its highest-priority deliverable interrupt, if any
 * (Ibex's order: fast lines from line 0, then software, then timer). */
static void deliver(struct hv_part *p)
{
    struct hv_vcpu *v = p->vcpu;
    if (!v || !(v->ie & HV_IE))
        return;
    uint32_t d = pending_of(p) & v->enable;
    if (!d)
        return;
    uint32_t cause;
    if (d >> 16)
        cause = 16 + (uint32_t)__builtin_ctz(d >> 16);
    else if (d & HV_IRQ_SOFT)
        cause = 3;
    else
        cause = CAUSE_TIMER;
    if (cause >= 16)
        p->vpending &= ~(1u << cause); /* a line is acknowledged as it is delivered */
    v->epc = p->x[0];
    v->cause = MCAUSE_IRQ | cause;
    v->pie = v->ie;
    v->ie = 0;
    v->t0 = p->x[5];
    v->t1 = p->x[6];
    v->pending = p->vpending;
    p->x[0] = p->vtvec + 4 * cause;
    p->state = PART_RUNNABLE;
}

/* The timer's level for every partition, at time t. */
static void timer_levels(uint64_t t)
{
    for (uint32_t i = 0; i < hv_config.n; i++) {
        if (parts[i].vtimecmp <= t)
            parts[i].vpending |= HV_IRQ_TIMER;
        else
            parts[i].vpending &= ~HV_IRQ_TIMER;
    }
}

/* Latched physical lines into their owners' pending bits. */
static void collect_lines(void)
{
    uint32_t l = MMIO32(INTC_PENDING) & all_lines;
    if (!l)
        return;
    MMIO32(INTC_ACK) = l;
    for (uint32_t i = 0; i < hv_config.n; i++) {
        uint32_t mine = l & parts[i].cfg->lines;
        parts[i].vpending |= mine << 16;
    }
}

/* ---- The run's end ---------------------------------------------------------------------------- */

static void report_and_halt(int code) __attribute__((noreturn));
static void report_and_halt(int code)
{
    uint64_t t = now();
    puts_("hv: report policy=");
    puts_(hv_config.policy == HV_POLICY_RT ? "rt" : "fair");
    puts_(" time_us=");
    put_u64(counts_to_us(t));
    puts_(" switches=");
    put_u64(switches);
    put('\n');
    for (uint32_t i = 0; i < hv_config.n; i++) {
        struct hv_part *p = &parts[i];
        puts_("hv: partition ");
        puts_(p->cfg->name);
        puts_(p->state == PART_STOPPED ? (p->fault_cause ? " faulted" : " exited")
                                     : " running");
        if (p->state == PART_STOPPED && !p->fault_cause) {
            puts_(" status=");
            put_u64((uint64_t)(uint32_t)p->exit_code);
        }
        puts_(" cpu_us=");
        put_u64(counts_to_us(p->cpu));
        puts_(" progress=");
        put_u64(p->vcpu ? p->vcpu->progress : 0);
        put('\n');
    }
    MMIO32(SIMCTRL_CTRL) = ((uint32_t)code << 1) | SIMCTRL_CTRL_HALT;
    for (;;) {
    }
}

static void stopped(struct hv_part *p)
{
    p->state = PART_STOPPED;
    if ((int)p->id == hv_config.run_until)
        report_and_halt(p->fault_cause ? 3 : p->exit_code);
    for (uint32_t i = 0; i < hv_config.n; i++)
        if (parts[i].state != PART_STOPPED)
            return;
    report_and_halt(0);
}

static const char *fault_name(uint32_t cause)
{
    switch (cause) {
    case 0: return "misaligned fetch";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "misaligned load";
    case 5: return "load access fault";
    case 6: return "misaligned store";
    case 7: return "store access fault";
    default: return "exception";
    }
}

/* A guest's exception: its partition stops; the others go on. */
static void fault(struct hv_part *p, uint32_t cause, uint32_t tval)
{
    p->fault_cause = cause + 1; /* nonzero: a fault */
    p->fault_pc = p->x[0];
    p->fault_tval = tval;
    puts_("hv: partition ");
    puts_(p->cfg->name);
    puts_(" stopped: ");
    puts_(fault_name(cause));
    puts_(" (mcause ");
    put_u64(cause);
    puts_(") at pc ");
    put_hex(p->x[0]);
    puts_(", mtval ");
    put_hex(tval);
    put('\n');
    stopped(p);
}

/* ---- Hypercalls ----------------------------------------------------------------------------- */

static long hypercall(struct hv_part *p)
{
    uint32_t a0 = p->x[10], a1 = p->x[11];
    struct hv_vcpu *v = p->vcpu;
    switch (p->x[5]) {
    case HV_VRET:
        if (!v)
            return HV_EPERM;
        p->x[0] = v->epc;
        p->x[5] = v->t0;
        p->x[6] = v->t1;
        v->ie = v->pie & HV_IE;
        return (long)p->x[10]; /* a0 untouched */
    case HV_SYNC:
        return v ? 0 : HV_EPERM;
    case HV_IDLE:
        if (!v)
            return HV_EPERM;
        if (!wakers(p))
            p->state = PART_IDLE;
        return 0;
    case HV_TIMER:
        p->vtimecmp = (uint64_t)a1 << 32 | a0;
        timer_levels(now());
        return 0;
    case HV_RAISE:
        if (a0 >= INTC_FAST_LINES)
            return HV_EINVAL;
        if (!(p->cfg->lines >> a0 & 1))
            return HV_EPERM;
        p->vpending |= HV_IRQ_LINE(a0);
        return 0;
    case HV_PUTC:
        put((char)a0);
        return 0;
    case HV_EXIT:
        p->exit_code = (int)(a0 & 63);
        stopped(p);
        return 0;
    case HV_VCPU:
        if ((a0 & 3) || !in_ram(p, a0, sizeof(struct hv_vcpu)) || (a1 & 255) ||
            !in_ram(p, a1, 32 * 4))
            return HV_EINVAL;
        p->vcpu = (struct hv_vcpu *)a0;
        p->vtvec = a1;
        return (long)p->id;
    default:
        return HV_ENOSYS;
    }
}

/* ---- Scheduling -------------------------------------------------------------------------------- */

/* Charge cur for the time since it started running. */
static void charge(uint64_t t)
{
    if (cur && t > run_start) {
        cur->cpu += t - run_start;
        cur->period_cpu += t - run_start;
    }
    run_start = t;
}

/* The next partition in turn that can run, starting after the last turn; NULL if none. */
static struct hv_part *next_in_turn(bool skip_rt)
{
    for (uint32_t k = 0; k < hv_config.n; k++) {
        struct hv_part *p = &parts[(next_rr + k) % hv_config.n];
        if (skip_rt && p == rt_part)
            continue;
        if (runnable(p)) {
            next_rr = (p->id + 1) % hv_config.n;
            return p;
        }
    }
    return NULL;
}

/* Can a partition other than the rt one run? */
static bool others_runnable(void)
{
    for (uint32_t i = 0; i < hv_config.n; i++)
        if (&parts[i] != rt_part && runnable(&parts[i]))
            return true;
    return false;
}

/* Under rt: must the others run now to get their minimum share of this period? */
static bool others_owed(uint64_t t)
{
    if (!min_counts)
        return false;
    uint64_t others = 0;
    for (uint32_t i = 0; i < hv_config.n; i++)
        if (&parts[i] != rt_part)
            others += parts[i].period_cpu;
    if (others >= min_counts)
        return false;
    uint64_t left = period_start + period_counts > t ? period_start + period_counts - t : 0;
    return min_counts - others >= left;
}

/* The partition to run at time t, by the policy. */
static struct hv_part *pick(uint64_t t)
{
    if (hv_config.policy == HV_POLICY_RT && rt_part) {
        if (t >= period_start + period_counts) {
            period_start = t - (t - period_start) % period_counts;
            for (uint32_t i = 0; i < hv_config.n; i++)
                parts[i].period_cpu = 0;
        }
        if (runnable(rt_part) && !(others_owed(t) && others_runnable()))
            return rt_part;
        if (cur && cur != rt_part && runnable(cur) && t < slice_end)
            return cur;
        return next_in_turn(true);
    }
    if (cur && runnable(cur) && t < slice_end)
        return cur;
    return next_in_turn(false);
}

/* Which physical lines may interrupt while n runs: its own; under rt, while another runs,
 * the rt partition's too (they preempt it), unless the others are owed their share. */
static void route(const struct hv_part *n, uint64_t t)
{
    uint32_t lines = n->cfg->lines;
    if (hv_config.policy == HV_POLICY_RT && rt_part && n != rt_part && !others_owed(t))
        lines |= rt_part->cfg->lines;
    MMIO32(INTC_ENABLE) = lines;
}

static uint64_t armed = NEVER;

/* The physical compare at the earliest of `deadline` and the future virtual compares of the
 * partitions that matter now (a compare already passed is a pending level, not an event). */
static void arm(uint64_t deadline, uint64_t t, const struct hv_part *a, const struct hv_part *b)
{
    if (a && a->vtimecmp > t && a->vtimecmp < deadline)
        deadline = a->vtimecmp;
    if (b && b->vtimecmp > t && b->vtimecmp < deadline)
        deadline = b->vtimecmp;
    if (deadline != armed) {
        armed = deadline;
        set_compare(deadline);
    }
}

/* When the others' minimum share must start being paid, if the rt partition keeps running. */
static uint64_t force_at(void)
{
    if (!min_counts)
        return NEVER;
    uint64_t others = 0;
    bool any = false;
    for (uint32_t i = 0; i < hv_config.n; i++) {
        if (&parts[i] == rt_part || parts[i].state == PART_STOPPED)
            continue;
        others += parts[i].period_cpu;
        any = true;
    }
    uint64_t end = period_start + period_counts;
    if (!any)
        return NEVER;
    if (others >= min_counts)
        return end; /* paid: the next period starts the count again */
    return end - (min_counts - others);
}

/* Nothing can run: wait for an interrupt with every line routed and the earliest virtual
 * compare armed. The hypervisor runs with MIE clear, so wfi returns without a trap. */
static void idle_wait(uint64_t t)
{
    uint64_t d = NEVER;
    for (uint32_t i = 0; i < hv_config.n; i++)
        if (parts[i].state != PART_STOPPED && parts[i].vtimecmp > t && parts[i].vtimecmp < d)
            d = parts[i].vtimecmp;
    MMIO32(INTC_ENABLE) = all_lines;
    arm(d, t, NULL, NULL);
    __asm__ volatile("wfi");
}

static void switch_to(struct hv_part *n, uint64_t t)
{
    cur = n;
    run_start = t;
    slice_end = (hv_config.policy == HV_POLICY_RT && n == rt_part) ? NEVER : t + slice_counts;
    pmp_load(n);
    switches++;
}

/* Pick, deliver, route, arm: the partition to return to. */
static struct hv_part *resume(uint64_t t)
{
    for (;;) {
        timer_levels(t);
        collect_lines();
        struct hv_part *n = pick(t);
        if (n) {
            if (n != cur)
                switch_to(n, t);
            n->state = PART_RUNNABLE;
            deliver(n);
            route(n, t);
            uint64_t d = slice_end;
            if (hv_config.policy == HV_POLICY_RT && rt_part) {
                uint64_t f = n == rt_part ? force_at() : NEVER;
                uint64_t pe = period_start + period_counts;
                d = d < f ? d : f;
                d = d < pe ? d : pe;
                arm(d, t, n, n == rt_part ? NULL : rt_part);
            } else {
                arm(d, t, n, NULL);
            }
            return n;
        }
        charge(t);
        cur = NULL;
        idle_wait(t);
        t = now();
        run_start = t;
    }
}

struct hv_part *hv_trap(struct hv_part *p)
{
    uint32_t mcause = csr_read(mcause);
    uint64_t t = now();
    charge(t);
    if (!(mcause & MCAUSE_IRQ)) {
        if (mcause == CAUSE_ECALL_U) {
            p->x[0] += 4;
            long r = hypercall(p);
            if (p->state != PART_STOPPED)
                p->x[10] = (uint32_t)r;
        } else {
            fault(p, mcause, csr_read(mtval));
        }
    }
    /* An interrupt: the timer and the lines are collected by resume. */
    return resume(t);
}

int main(void)
{
    mtime_hz = MMIO32(TIMER_MTIME_HZ);
    slice_counts = us_to_counts(hv_config.slice_us);
    period_counts = us_to_counts(hv_config.period_us);
    if (!slice_counts)
        slice_counts = 1;
    if (!period_counts)
        period_counts = 1;
    min_counts = period_counts * hv_config.min_share_permille / 1000u;
    for (uint32_t i = 0; i < hv_config.n; i++) {
        struct hv_part *p = &parts[i];
        p->cfg = &hv_config.partitions[i];
        p->id = i;
        p->vtimecmp = NEVER;
        p->state = PART_RUNNABLE;
        p->x[0] = p->cfg->entry;
        pmp_prepare(p);
        all_lines |= p->cfg->lines;
        if (p->cfg->realtime)
            rt_part = p;
    }
    csr_write(mcounteren, 5); /* cycle and instret for the guests */
    MMIO32(INTC_ENABLE) = 0;
    csr_write(mie, (1u << 7) | (0x7FFFu << 16));
    uint64_t t = now();
    period_start = t;
    run_start = t;
    hv_enter(resume(t));
}
