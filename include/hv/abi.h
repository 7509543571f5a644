/* The interface between the Ubik hypervisor (hv/, M-mode) and its guests (U-mode): the
 * virtual CPU page and the hypercalls. docs/hypervisor.md describes both.
 *
 * A guest runs in U-mode behind PMP, so it has no mstatus, mie, mip, mepc or mcause and no
 * access to the interrupt controller or the timer's compare register. What a kernel does with
 * them it does instead
 *   - on its virtual CPU page (struct hv_vcpu, in the guest's own memory, registered with
 *     HV_VCPU): the cheap, frequent operations - interrupts on/off (ie), masking sources
 *     (enable; soft_enable for the software interrupt), raising its own software interrupt
 *     (msip) - are plain loads and stores;
 *   - by hypercall (ecall, number in t0, arguments in a0..a3, result in a0): what needs the
 *     hypervisor - returning from a virtual trap, delivering what became deliverable,
 *     waiting for an interrupt, the timer, raising a line, the console, exit.
 *
 * Virtual interrupts use the machine's numbering: bit/cause 3 the software interrupt (the
 * guest's own: msip), 7 the timer (its own compare, HV_TIMER), 16 + i fast line i (the lines
 * its partition owns). The hypervisor delivers the deliverable one of highest priority (fast
 * lines lowest first, then software, then timer, as Ibex) when ie is set and the source is
 * enabled: it saves the guest's pc, ie, t0 and t1 on the page, clears ie and continues
 * at vtvec + 4 * cause (a vectored table, as mtvec's). HV_VRET undoes that.
 */
#ifndef HV_ABI_H
#define HV_ABI_H

#ifdef __ASSEMBLER__
#define HV_U(x) x
#else
#define HV_U(x) x##u
#endif

/* Offsets into struct hv_vcpu (for assembly). */
#define HV_VCPU_IE 0
#define HV_VCPU_ENABLE 4
#define HV_VCPU_PENDING 8
#define HV_VCPU_MSIP 12
#define HV_VCPU_EPC 16
#define HV_VCPU_CAUSE 20
#define HV_VCPU_PIE 24
#define HV_VCPU_T0 28
#define HV_VCPU_T1 32
#define HV_VCPU_SCRATCH 36
#define HV_VCPU_PROGRESS 40
#define HV_VCPU_TIMECMP 44
#define HV_VCPU_SOFT_ENABLE 52
#define HV_VCPU_BYTES 64

/* ie's value when interrupts are enabled (mstatus.MIE's bit, so keys read the same). */
#define HV_IE HV_U(8)
/* Virtual interrupt bits (enable, pending). */
#define HV_IRQ_SOFT (HV_U(1) << 3)
#define HV_IRQ_TIMER (HV_U(1) << 7)
#define HV_IRQ_LINE(i) (HV_U(1) << (16 + (i)))

/* Hypercalls (t0). */
#define HV_VRET 0       /* return from a virtual trap: pc = epc, ie = pie, t0/t1 from the page */
#define HV_SYNC 1       /* deliver what is deliverable now (after setting ie or enable) */
#define HV_IDLE 2       /* wait until a virtual interrupt is deliverable (gives up the CPU) */
#define HV_TIMER 3      /* a0, a1: the virtual compare (low, high) in mtime counts */
#define HV_RAISE 4      /* a0: a fast line the partition owns: latch it (as INTC.SET) */
#define HV_PUTC 5       /* a0: a byte for the console */
#define HV_EXIT 6       /* a0: exit status; the partition stops */
#define HV_VCPU 7       /* a0: the vcpu page, a1: the vector table; returns the partition id */
#define HV_VRET_TIMER 8 /* HV_TIMER with the page's timecmp, then HV_VRET: a tick's return */
#define HV_CALLS 9

/* Results (a0): 0 or a value, else one of these. */
#define HV_EINVAL (-22) /* an argument out of range, or memory outside the partition */
#define HV_ENOSYS (-38) /* no such hypercall */
#define HV_EPERM (-1)   /* not the partition's (a line it does not own), or no vcpu yet */

#ifndef __ASSEMBLER__
#include <stdint.h>

struct hv_vcpu {
    volatile uint32_t ie;         /* HV_IE or 0: virtual interrupts on (written by the guest) */
    volatile uint32_t enable;     /* sources enabled (guest) */
    volatile uint32_t pending;    /* latched lines and the timer, as the hv last saw them (hv) */
    volatile uint32_t msip;       /* nonzero: the software interrupt is pending (guest) */
    volatile uint32_t epc;        /* at a virtual trap: the interrupted pc (hv; guest may change) */
    volatile uint32_t cause;      /* at a virtual trap: 0x80000000 | cause (hv) */
    volatile uint32_t pie;        /* at a virtual trap: ie before it (hv; HV_VRET restores it) */
    volatile uint32_t t0, t1;     /* at a virtual trap: the guest's t0 and t1 (hv) */
    volatile uint32_t scratch;    /* the guest's own (as mscratch) */
    volatile uint32_t progress;   /* work done, the guest's count: the hv reports it */
    volatile uint32_t timecmp[2]; /* HV_VRET_TIMER's compare, low and high words (guest) */
    /* HV_IRQ_SOFT or 0: the software interrupt's enable (guest). A word of its own, not a bit
     * of `enable`: a kernel takes and releases its lock with it from task code, with
     * interrupts on, by one store - a read-modify-write of `enable` there could undo a
     * handler's change to another bit (the timer masking itself). */
    volatile uint32_t soft_enable;
    uint32_t reserved[2];
};

_Static_assert(sizeof(struct hv_vcpu) == HV_VCPU_BYTES, "HV_VCPU_BYTES");

/* A hypercall from C: number n, up to four arguments; returns a0. */
static inline __attribute__((always_inline)) long hv_call(long n, long a0, long a1, long a2,
                                                          long a3)
{
    register long t0 __asm__("t0") = n;
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r2 __asm__("a2") = a2;
    register long r3 __asm__("a3") = a3;
    __asm__ volatile("ecall" : "+r"(r0), "+r"(t0) : "r"(r1), "r"(r2), "r"(r3) : "memory");
    return r0;
}
#endif

#endif
