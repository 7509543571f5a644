/* The Ubik hypervisor: static partitions, each a guest in U-mode behind PMP, on one core.
 * docs/hypervisor.md has the design; include/hv/abi.h the guests' interface.
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
static struct hv_part *cur; /* the partition running (or last run) */
static uint64_t run_start;  /* when cur last started running */
static uint64_t slice_end;  /* rt: when a non-real-time partition's turn ends */
static uint64_t slice_counts, period_counts, min_counts;
static uint64_t period_start;
static uint32_t mtime_hz;
static uint32_t all_lines;      /* every owned line */
static struct hv_part *rt_part; /* the rt policy's partition, or NULL */
static uint32_t switches;       /* partition switches, for the report */

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

/* Entries 0..7: its RAM (read, write, execute), its devices (read, write), the timer's and
 * the power controller's windows (read: mtime, its rate, the clock; the compare and the
 * operating point are the hypervisor's). */
static void pmp_prepare(struct hv_part *p)
{
    const struct hv_partition_config *c = p->cfg;
    uint32_t cfg[8] = {0};
    unsigned e = 0;
    p->pmpaddr[e] = napot(c->ram_base, c->ram_size);
    cfg[e++] = PMP_NAPOT | PMP_R | PMP_W | PMP_X;
    for (uint32_t i = 0; i < c->n_devices && e < 6; i++) {
        p->pmpaddr[e] = napot(c->devices[i], 4096);
        cfg[e++] = PMP_NAPOT | PMP_R | PMP_W;
    }
    p->pmpaddr[e] = napot(TIMER_BASE, 4096);
    cfg[e++] = PMP_NAPOT | PMP_R;
    p->pmpaddr[e] = napot(POWER_BASE, 4096);
    cfg[e++] = PMP_NAPOT | PMP_R;
    p->pmpcfg[0] = cfg[0] | cfg[1] << 8 | cfg[2] << 16 | cfg[3] << 24;
    p->pmpcfg[1] = cfg[4] | cfg[5] << 8 | cfg[6] << 16 | cfg[7] << 24;
}

static void pmp_load_bank(const struct hv_part *p, uint32_t bank)
{
    if (bank == 0) {
        csr_write(pmpaddr0, p->pmpaddr[0]);
        csr_write(pmpaddr1, p->pmpaddr[1]);
        csr_write(pmpaddr2, p->pmpaddr[2]);
        csr_write(pmpaddr3, p->pmpaddr[3]);
        csr_write(pmpaddr4, p->pmpaddr[4]);
        csr_write(pmpaddr5, p->pmpaddr[5]);
        csr_write(pmpaddr6, p->pmpaddr[6]);
        csr_write(pmpaddr7, p->pmpaddr[7]);
    } else {
        csr_write(pmpaddr8, p->pmpaddr[0]);
        csr_write(pmpaddr9, p->pmpaddr[1]);
        csr_write(pmpaddr10, p->pmpaddr[2]);
        csr_write(pmpaddr11, p->pmpaddr[3]);
        csr_write(pmpaddr12, p->pmpaddr[4]);
        csr_write(pmpaddr13, p->pmpaddr[5]);
        csr_write(pmpaddr14, p->pmpaddr[6]);
        csr_write(pmpaddr15, p->pmpaddr[7]);
    }
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

/* The sources p has enabled: lines and timer in `enable`, the software interrupt in
 * `soft_enable`. */
static uint32_t enabled_of(const struct hv_vcpu *v)
{
    return (v->enable & ~HV_IRQ_SOFT) | (v->soft_enable & HV_IRQ_SOFT);
}

/* Pending and enabled (what wakes an idle partition, interrupts on or not). */
static uint32_t wakers(const struct hv_part *p)
{
    return p->vcpu ? pending_of(p) & enabled_of(p->vcpu) : 0;
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
    if (!v)
        return;
    /* The page's pending word first: with interrupts off, the guest learns from it that it
     * must ask (HV_SYNC) when it turns them on. */
    uint32_t d = pending_of(p) & enabled_of(v);
    if (!d || !(v->ie & HV_IE))
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

/* The earliest virtual compare still ahead: until then no timer level can rise. */
uint64_t hv_vtimer_min;

/* The timer's level for every partition, at time t (after a compare changed). */
static void timer_levels(uint64_t t)
{
    hv_vtimer_min = NEVER;
    for (uint32_t i = 0; i < hv_config.n; i++) {
        if (parts[i].vtimecmp <= t) {
            parts[i].vpending |= HV_IRQ_TIMER;
        } else {
            parts[i].vpending &= ~HV_IRQ_TIMER;
            if (parts[i].vtimecmp < hv_vtimer_min)
                hv_vtimer_min = parts[i].vtimecmp;
        }
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

static void charge(uint64_t t);
static void report_and_halt(int code) __attribute__((noreturn));
static void report_and_halt(int code)
{
    uint64_t t = now();
    charge(t);
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
        puts_(p->state == PART_STOPPED ? (p->fault_cause ? " faulted" : " exited") : " running");
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

/* A partition's status for the run's: its exit status, 3 when a fault stopped it. */
static int status_of(const struct hv_part *p) { return p->fault_cause ? 3 : p->exit_code; }

/* p stopped. The run ends when the partition it waits for stops (with its status), or, if it
 * waits for none, when all have stopped (with the first nonzero status, else 0). */
static void stopped(struct hv_part *p)
{
    p->state = PART_STOPPED;
    if ((int)p->id == hv_config.run_until)
        report_and_halt(status_of(p));
    int code = 0;
    for (uint32_t i = 0; i < hv_config.n; i++) {
        if (parts[i].state != PART_STOPPED)
            return;
        if (!code)
            code = status_of(&parts[i]);
    }
    report_and_halt(code);
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
    case HV_VRET_TIMER:
        if (!v)
            return HV_EPERM;
        p->vtimecmp = (uint64_t)v->timecmp[1] << 32 | v->timecmp[0];
        timer_levels(now());
        __attribute__((fallthrough));
    case HV_VRET:
        if (!v)
            return HV_EPERM;
        p->x[0] = v->epc;
        p->x[5] = v->t0;
        p->x[6] = v->t1;
        v->ie = v->pie & HV_IE;
        return (long)p->x[10]; /* a0 untouched */
    case HV_SYNC: return v ? 0 : HV_EPERM;
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
    case HV_PUTC: put((char)a0); return 0;
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
        p->fast_lines = p->lines << 16;
        p->fast_page = p->vcpu;
        return (long)p->id;
    default: return HV_ENOSYS;
    }
}

/* ---- Scheduling -------------------------------------------------------------------------------- */

/* Charge cur for the time since it started running (at switches, period ends and the end). */
static uint64_t others_period_cpu; /* rt: the others' time in the current period */

static void charge(uint64_t t)
{
    if (cur && t > run_start) {
        cur->cpu += t - run_start;
        if (cur != rt_part)
            others_period_cpu += t - run_start;
    }
    run_start = t;
}

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* A partition's virtual compare if it lies ahead (one already passed is a pending level). */
static uint64_t vtimer_ahead(const struct hv_part *p, uint64_t t)
{
    return p->state != PART_STOPPED && p->vtimecmp > t ? p->vtimecmp : NEVER;
}

/* What resume decides: who runs (NULL: nobody can), which lines may interrupt meanwhile, and
 * when the hypervisor must look again at the latest. */
struct plan {
    struct hv_part *run;
    uint32_t lines;
    uint64_t deadline; /* besides the running partition's own virtual compare */
};

/* The last plan's deadline (besides the running partition's compare), for go_on. */
uint64_t hv_plan_deadline;

/* -- fair: fixed turns of slice_us in partition order (stopped partitions skipped). Only the
 * owner of the turn runs; if it has nothing to do the core idles; the others' interrupts and
 * timers wait for their turns. */
static uint32_t turn;
static uint64_t turn_end;

static void fair_plan(uint64_t t, struct plan *pl)
{
    if (t >= turn_end || parts[turn].state == PART_STOPPED) {
        uint32_t k = turn;
        do
            k = (k + 1) % hv_config.n;
        while (parts[k].state == PART_STOPPED && k != turn);
        turn = k;
        /* the next turn follows the last one's end (fixed turns), unless a turn was missed */
        uint64_t len = parts[turn].slice;
        turn_end = t >= turn_end && t - turn_end < len ? turn_end + len : t + len;
    }
    struct hv_part *o = &parts[turn];
    pl->run = runnable(o) ? o : NULL;
    pl->lines = o->lines;
    pl->deadline = pl->run ? turn_end : min64(turn_end, vtimer_ahead(o, t));
}

/* -- rt: the real-time partition runs whenever it can; its lines and timer preempt the
 * others at once. The others share its idle time in turns of slice_us, and get at least
 * min_share of every period_us: when that share is owed and can no longer wait, they run and
 * the real-time partition's interrupts wait. */
static uint32_t next_rr; /* the next non-real-time partition in turn */

static bool others_runnable(void)
{
    for (uint32_t i = 0; i < hv_config.n; i++)
        if (&parts[i] != rt_part && runnable(&parts[i]))
            return true;
    return false;
}

/* The others' time in this period, up to t. */
static uint64_t others_cpu(uint64_t t)
{
    return others_period_cpu + (cur && cur != rt_part ? t - run_start : 0);
}

/* When to look again while the real-time partition runs: when the others' share can wait no
 * longer - in this period, or, if it is paid, in the next (the period rolls over at the
 * first plan after its end; until then nothing is owed, and the hypervisor need not look). */
static uint64_t pay_at(uint64_t t)
{
    if (!min_counts || hv_config.n < 2)
        return NEVER;
    uint64_t end = period_start + period_counts, got = others_cpu(t);
    uint64_t owed = got < min_counts ? min_counts - got : 0;
    if (!owed)
        return end + period_counts - min_counts;
    return end > t && end - t > owed ? end - owed : NEVER;
}

static void rt_plan(uint64_t t, struct plan *pl)
{
    if (t >= period_start + period_counts) {
        charge(t);
        period_start = t;
        others_period_cpu = 0;
    }
    uint64_t end = period_start + period_counts;
    uint64_t got = others_cpu(t);
    uint64_t owed = got < min_counts ? min_counts - got : 0;
    bool must_pay = owed && owed >= end - t && others_runnable();
    if (runnable(rt_part) && !must_pay) {
        pl->run = rt_part;
        pl->lines = rt_part->lines;
        pl->deadline = pay_at(t);
        return;
    }
    struct hv_part *n = NULL;
    if (cur && cur != rt_part && runnable(cur) && t < slice_end) {
        n = cur;
    } else {
        for (uint32_t k = 0; k < hv_config.n && !n; k++) {
            struct hv_part *p = &parts[(next_rr + k) % hv_config.n];
            if (p != rt_part && runnable(p)) {
                n = p;
                next_rr = (p->id + 1) % hv_config.n;
                slice_end = t + p->slice;
            }
        }
    }
    if (!n) { /* nobody can run: any line or timer may change that */
        pl->run = NULL;
        pl->lines = all_lines;
        pl->deadline = NEVER;
        for (uint32_t i = 0; i < hv_config.n; i++)
            pl->deadline = min64(pl->deadline, vtimer_ahead(&parts[i], t));
        return;
    }
    pl->run = n;
    pl->lines = n->lines | (must_pay ? 0 : rt_part->lines);
    pl->deadline = slice_end;
    if (must_pay)
        pl->deadline = min64(pl->deadline, t + owed); /* paid: the real-time partition again */
    else
        pl->deadline = min64(pl->deadline, vtimer_ahead(rt_part, t));
}

uint64_t hv_armed = NEVER, hv_go_until;
struct hv_part *hv_fast_tick, *hv_go_part;

/* The physical compare: the next moment the hypervisor must look. */
static void arm(uint64_t deadline)
{
    hv_fast_tick = NULL;
    hv_go_part = NULL;
    if (deadline != hv_armed) {
        hv_armed = deadline;
        set_compare(deadline);
    }
}

/* The same while n runs: the sooner of the deadline and n's own compare. When that is n's
 * compare, the trap entry may handle its tick alone (entry.S, .Ltick: own_timer's case). */
static void arm_for(struct hv_part *n, uint64_t deadline, uint64_t t)
{
    uint64_t v = vtimer_ahead(n, t);
    arm(min64(deadline, v));
    if (v < deadline) /* (deadline is always hv_plan_deadline: .Ltick arms it next) */
        hv_fast_tick = n;
    /* Until when a timer hypercall of n's may skip go_on's checks (entry.S, TIMER_SET): n
     * goes on until the plan's deadline (rt: only the real-time partition; the others' calls
     * re-plan) or its turn's end (fair). */
    if (hv_config.policy == HV_POLICY_RT && rt_part) {
        hv_go_part = n == rt_part ? n : NULL;
        hv_go_until = deadline;
    } else {
        hv_go_part = n;
        hv_go_until = min64(deadline, turn_end);
    }
}

static uint32_t routed = ~0u;

static void route(uint32_t lines)
{
    if (lines != routed) {
        routed = lines;
        MMIO32(INTC_ENABLE) = lines;
    }
}

/* PMP: partition i's entries are bank i % 2 (entries 0-7 or 8-15); a switch between two
 * partitions whose entries are both loaded only changes the configuration words. */
static const struct hv_part *bank_holds[2];

static void pmp_switch(const struct hv_part *n)
{
    uint32_t bank = n->id & 1;
    if (bank_holds[bank] != n) {
        pmp_load_bank(n, bank);
        bank_holds[bank] = n;
    }
    if (bank == 0) {
        csr_write(pmpcfg2, 0);
        csr_write(pmpcfg3, 0);
        csr_write(pmpcfg0, n->pmpcfg[0]);
        csr_write(pmpcfg1, n->pmpcfg[1]);
    } else {
        csr_write(pmpcfg0, 0);
        csr_write(pmpcfg1, 0);
        csr_write(pmpcfg2, n->pmpcfg[0]);
        csr_write(pmpcfg3, n->pmpcfg[1]);
    }
}

/* The partition to return to: the policy's plan carried out (nothing runnable: the core
 * waits, the hypervisor's MIE clear, so wfi returns without a trap). */
static struct hv_part *resume(uint64_t t)
{
    for (;;) {
        if (t >= hv_vtimer_min)
            timer_levels(t);
        collect_lines();
        struct plan pl;
        if (hv_config.policy == HV_POLICY_RT && rt_part)
            rt_plan(t, &pl);
        else
            fair_plan(t, &pl);
        route(pl.lines);
        struct hv_part *n = pl.run;
        hv_plan_deadline = pl.deadline;
        if (n)
            arm_for(n, pl.deadline, t);
        else
            arm(pl.deadline);
        if (n) {
            if (n != cur) {
                charge(t);
                cur = n;
                pmp_switch(n);
                switches++;
            }
            n->state = PART_RUNNABLE;
            deliver(n);
            return n;
        }
        charge(t);
        cur = NULL;
        __asm__ volatile("wfi");
        t = now();
        run_start = t;
    }
}

/* After a hypercall: the partition that made it goes on when nothing the plan depends on
 * changed - it still can run, no virtual compare came due, its turn goes on, under rt it is
 * the real-time partition and its period goes on (a line for another partition would have
 * trapped as an interrupt, which takes the whole way). Only its own compare may have moved:
 * the physical one follows. Else the whole way: resume. */
static struct hv_part *go_on(struct hv_part *p, uint64_t t)
{
    if (p != cur || p->state != PART_RUNNABLE)
        return resume(t);
    if (rt_part && p != rt_part && hv_config.policy == HV_POLICY_RT && rt_part->vtimecmp <= t)
        return resume(t); /* the real-time partition's tick: it preempts */
    if (hv_config.policy == HV_POLICY_RT && rt_part) {
        if (p != rt_part) /* (its period's end waits for a plan: pay_at) */
            return resume(t);
    } else if (t >= turn_end) {
        return resume(t);
    }
    if (t >= hv_plan_deadline)
        return resume(t);
    /* Only this partition's own compare matters while it goes on: the others' wait for the
     * next plan (fair: their turns; rt: they never preempt the real-time partition). */
    if (p->vtimecmp <= t)
        p->vpending |= HV_IRQ_TIMER;
    deliver(p);
    arm_for(p, hv_plan_deadline, t);
    return p;
}

/* rt: a physical line of the real-time partition while another runs (it traps only while
 * the others are not being paid their share): the shortest way in - the others' time
 * charged, the real-time partition's PMP and lines, the line delivered. Else NULL. */
static struct hv_part *rt_preempt(uint32_t cause, uint64_t t)
{
    struct hv_part *r = rt_part;
    struct hv_vcpu *v = r->vcpu;
    uint32_t bit = 1u << cause;
    if (!cur || cur == r || cause < 16 || !(r->lines << 16 & bit) || !v || !(v->ie & HV_IE) ||
        !(v->enable & bit) || r->vpending || v->msip || t >= hv_vtimer_min ||
        t >= period_start + period_counts)
        return NULL;
    MMIO32(INTC_ACK) = bit >> 16;
    charge(t);
    cur = r;
    pmp_switch(r);
    switches++;
    route(r->lines);
    r->state = PART_RUNNABLE;
    v->epc = r->x[0];
    v->cause = MCAUSE_IRQ | cause;
    v->pie = v->ie;
    v->ie = 0;
    v->t0 = r->x[5];
    v->t1 = r->x[6];
    v->pending = 0;
    r->x[0] = r->vtvec + 4 * cause;
    hv_plan_deadline = pay_at(t);
    arm_for(r, hv_plan_deadline, t);
    return r;
}

/* An interrupt while p runs: its own virtual compare came due and nothing that could take the
 * core from it (the hypervisor's own deadline is later, no line is involved, under rt the
 * real-time partition's compare is ahead or it is p): the level raised and delivered
 * without a new plan. Else NULL. */
static struct hv_part *own_timer(struct hv_part *p, uint32_t cause, uint64_t t)
{
    if (cause != CAUSE_TIMER || p != cur || t >= hv_plan_deadline || p->vtimecmp > t)
        return NULL;
    if (rt_part && p != rt_part && hv_config.policy == HV_POLICY_RT && rt_part->vtimecmp <= t)
        return NULL; /* the real-time partition's tick too: it preempts */
    p->vpending |= HV_IRQ_TIMER;
    deliver(p);
    arm_for(p, hv_plan_deadline, t);
    return p;
}

struct hv_part *hv_trap(struct hv_part *p)
{
    uint32_t mcause = csr_read(mcause);
    uint64_t t = now();
    if (!(mcause & MCAUSE_IRQ)) {
        if (mcause == CAUSE_ECALL_U) {
            p->x[0] += 4;
            long r = hypercall(p);
            if (p->state != PART_STOPPED)
                p->x[10] = (uint32_t)r;
            return go_on(p, t);
        } else {
            fault(p, mcause, csr_read(mtval));
        }
    }
    /* An interrupt: the shortcuts, or the timer and the lines collected by resume. */
    if (mcause & MCAUSE_IRQ) {
        struct hv_part *n = NULL;
        if (hv_config.policy == HV_POLICY_RT && rt_part)
            n = rt_preempt(mcause & 31, t);
        if (!n)
            n = own_timer(p, mcause & 31, t);
        if (n)
            return n;
    }
    return resume(t);
}

/* The page the trap entry reads before a partition has its own: interrupts off. */
static struct hv_vcpu no_page;

int main(void)
{
    mtime_hz = MMIO32(TIMER_MTIME_HZ);
    /* A turn must outlast the switch into it, or no guest instruction runs and the run never
     * ends: ubik build refuses turns under 100 us, and on a slow clock they are lengthened to
     * HV_MIN_TURN_CYCLES of the core (the operating point is the hypervisor's: it stays). */
    uint32_t hz = MMIO32(POWER_FREQ_HZ);
    uint64_t min_turn = hz ? ((uint64_t)HV_MIN_TURN_CYCLES * mtime_hz + hz - 1) / hz : 1;
    if (!min_turn)
        min_turn = 1;
    slice_counts = us_to_counts(hv_config.slice_us);
    period_counts = us_to_counts(hv_config.period_us);
    if (slice_counts < min_turn)
        slice_counts = min_turn;
    if (period_counts < min_turn)
        period_counts = min_turn;
    min_counts = period_counts * hv_config.min_share_ppm / 1000000u;
    for (uint32_t i = 0; i < hv_config.n; i++) {
        struct hv_part *p = &parts[i];
        p->cfg = &hv_config.partitions[i];
        p->lines = p->cfg->lines;
        p->fast_page = &no_page;
        p->slice = p->cfg->slice_us ? us_to_counts(p->cfg->slice_us) : slice_counts;
        if (p->slice < min_turn)
            p->slice = min_turn;
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
    /* The compare comes out of reset at 0, a timer always due; hv_armed says NEVER. Make the
     * two agree before the first plan: a plan whose deadline is NEVER (rt with one partition,
     * or no minimum share) arms nothing, and must not leave the reset compare firing. */
    set_compare(NEVER);
    csr_write(mie, (1u << 7) | (0x7FFFu << 16));
    uint64_t t = now();
    period_start = t;
    run_start = t;
    turn = hv_config.n - 1; /* the first turn is partition 0's */
    turn_end = t;
    hv_enter(resume(t));
}
