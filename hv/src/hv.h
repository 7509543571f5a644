/* The Ubik hypervisor's internals: the static configuration (generated from hypervisor.toml
 * by `ubik build`, in hv_config.c) and the state of each partition. docs/hypervisor.md. */
#ifndef HV_H
#define HV_H

#include "hv/abi.h"
#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

#endif
#define HV_MAX_PARTITIONS 4
#define HV_MAX_DEVICES 4
/* The shortest turn and minimum-share period, in core cycles: a partition switch costs about
 * a thousand; a shorter turn would end before its guest ran an instruction. */
#define HV_MIN_TURN_CYCLES 5000u

#ifndef __ASSEMBLER__
enum hv_policy {
    HV_POLICY_FAIR, /* fixed slices in turn; a descheduled partition's interrupts wait */
    HV_POLICY_RT,   /* the real-time partition first; the others get its idle time */
};

struct hv_partition_config {
    const char *name;
    uint32_t ram_base, ram_size;      /* a power of two, aligned to itself (one NAPOT entry) */
    uint32_t entry;                   /* where the guest starts */
    uint32_t devices[HV_MAX_DEVICES]; /* 4 KiB device windows it may read and write */
    uint32_t n_devices;
    uint32_t lines;    /* the fast lines it owns (bit i: line i) */
    bool realtime;     /* the rt policy's partition (at most one) */
    uint32_t slice_us; /* its turn; 0: the hypervisor's slice_us */
};

struct hv_config {
    enum hv_policy policy;
    uint32_t slice_us;      /* a partition's turn (fair; the others' turns under rt) */
    uint32_t period_us;     /* rt: the window the minimum share is counted over */
    uint32_t min_share_ppm; /* rt: the CPU the other partitions get at least, per period, in
                                 * millionths */
    int run_until;          /* the partition whose exit ends the run; -1: when all stopped */
    uint32_t n;             /* partitions */
    const struct hv_partition_config *partitions;
};

extern const struct hv_config hv_config;

enum hv_state {
    PART_RUNNABLE,
    PART_IDLE,    /* waits (HV_IDLE) for a virtual interrupt */
    PART_STOPPED, /* exited, or stopped by a fault */
};
#endif

/* Offsets of the fields the trap entry's fast paths use (entry.S). */
#define HV_PART_VCPU 128
#define HV_PART_VTVEC 132
#define HV_PART_VPENDING 136
#define HV_PART_FAST_LINES 144
#define HV_PART_FAST_PAGE 148
#define HV_PART_VTIMECMP 152

#ifndef __ASSEMBLER__
/* A partition at run time. The saved registers come first: the trap entry (entry.S) stores
 * x1..x31 at 4 * i and the pc in the slot of x0. */
struct hv_part {
    uint32_t x[32];
    struct hv_vcpu *vcpu; /* inside the partition's RAM (checked), or NULL before HV_VCPU */
    uint32_t vtvec;
    uint32_t vpending;         /* latched lines and the timer's level, hv's view */
    uint32_t lines;            /* the lines it owns (cfg->lines) */
    uint32_t fast_lines;       /* lines << 16 once it has a page, else 0: entry.S's test */
    struct hv_vcpu *fast_page; /* vcpu, or before HV_VCPU a page with ie clear (entry.S) */
    uint64_t vtimecmp;         /* the virtual compare (UINT64_MAX: none) */
    enum hv_state state;
    int exit_code;
    uint32_t fault_cause, fault_pc, fault_tval; /* when a fault stopped it */
    uint64_t cpu;                               /* mtime counts it has run */
    uint32_t pmpaddr[8], pmpcfg[2];             /* its PMP entries 0..7 */
    uint32_t id;
    uint64_t slice; /* its turn, in mtime counts */
    const struct hv_partition_config *cfg;
};

_Static_assert(__builtin_offsetof(struct hv_part, x) == 0, "entry.S: context at 0");
_Static_assert(__builtin_offsetof(struct hv_part, vcpu) == HV_PART_VCPU, "entry.S");
_Static_assert(__builtin_offsetof(struct hv_part, vtvec) == HV_PART_VTVEC, "entry.S");
_Static_assert(__builtin_offsetof(struct hv_part, vpending) == HV_PART_VPENDING, "entry.S");
_Static_assert(__builtin_offsetof(struct hv_part, fast_lines) == HV_PART_FAST_LINES, "entry.S");
_Static_assert(__builtin_offsetof(struct hv_part, fast_page) == HV_PART_FAST_PAGE, "entry.S");
_Static_assert(__builtin_offsetof(struct hv_part, vtimecmp) == HV_PART_VTIMECMP, "entry.S");

/* Set by hv.c as it arms the timer, for entry.S: the partition whose own virtual compare the
 * timer is armed for, with nothing else due before the plan's deadline (NULL: none); the
 * compare armed now; the partition whose timer hypercalls may go on without a new plan,
 * and until when; the plan's deadline; the earliest virtual compare still ahead (no timer
 * level can rise before it). */
extern struct hv_part *hv_fast_tick, *hv_go_part;
extern uint64_t hv_armed, hv_go_until, hv_plan_deadline, hv_vtimer_min;

/* entry.S */
void hv_enter(struct hv_part *p) __attribute__((noreturn));
/* hv.c: a trap from the partition whose context is p; returns the context to resume. */
struct hv_part *hv_trap(struct hv_part *p);
#endif

#endif
