/* Fuzzing the hypervisor's hypercalls from a guest (tests/hv/run.sh): first every argument
 * check by hand (memory outside the partition, misaligned, wrapping past the top of the
 * address space, lines out of range or owned by no one, numbers that are no hypercall), then
 * FUZZ_CALLS random calls - random numbers and arguments, within what cannot legitimately
 * stop this guest (no exit, no return from a trap it is not in, no valid vcpu move) - each
 * checked against what the interface promises. Prints the count of surprises and exits with
 * 0 when there were none. The partition owns fast lines 1 and 9 (fuzz.toml), each with a
 * LISR that counts its runs. */
#include "uk_gen.h"
#include "bsp/bsp.h"
#include "hv/abi.h"

#define FUZZ_CALLS 20000
#define OWNED_LINE 9u
#define OWNED_LINE2 1u

extern struct hv_vcpu hv_vcpu;
extern char __vectors[];
extern char __ram_origin[], __ram_length[]; /* the partition, from the link */

static unsigned surprises;
static volatile unsigned hits[16];

void on_line(unsigned line) { hits[line & 15]++; }
static uint32_t rng = 0x12345678u;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void expect(const char *what, long got, long want)
{
    if (got != want) {
        surprises++;
        if (surprises <= 10)
            bsp_printf("fuzz: %s returned %ld, expected %ld\n", what, got, want);
    }
}

static bool mine(uint32_t a, uint32_t bytes)
{
    uint32_t base = (uint32_t)(uintptr_t)__ram_origin, size = (uint32_t)(uintptr_t)__ram_length;
    return a - base < size && bytes <= size - (a - base);
}

void fuzz(void *arg)
{
    (void)arg;
    uint32_t base = (uint32_t)(uintptr_t)__ram_origin, size = (uint32_t)(uintptr_t)__ram_length;
    long vec = (long)(uintptr_t)__vectors, me = (long)(uintptr_t)&hv_vcpu;
    /* HV_VCPU: the page and the table must lie in the partition, aligned. */
    expect("vcpu(0)", hv_call(HV_VCPU, 0, vec, 0, 0), HV_EINVAL);
    expect("vcpu(hv ram)", hv_call(HV_VCPU, RAM_BASE + 0x100, vec, 0, 0), HV_EINVAL);
    expect("vcpu(other partition)", hv_call(HV_VCPU, 0x140000, vec, 0, 0), HV_EINVAL);
    expect("vcpu(straddling the end)", hv_call(HV_VCPU, base + size - 8, vec, 0, 0), HV_EINVAL);
    expect("vcpu(misaligned)", hv_call(HV_VCPU, me + 2, vec, 0, 0), HV_EINVAL);
    expect("vcpu(top of memory)", hv_call(HV_VCPU, 0xFFFFFFF0, vec, 0, 0), HV_EINVAL);
    expect("vcpu(table misaligned)", hv_call(HV_VCPU, me, vec + 4, 0, 0), HV_EINVAL);
    expect("vcpu(table past the end)", hv_call(HV_VCPU, me, base + size - 64, 0, 0), HV_EINVAL);
    expect("vcpu(table elsewhere)", hv_call(HV_VCPU, me, 0x140000, 0, 0), HV_EINVAL);
    expect("vcpu(again, valid)", hv_call(HV_VCPU, me, vec, 0, 0), 1);
    /* HV_RAISE: only a line the partition owns. */
    expect("raise(15)", hv_call(HV_RAISE, 15, 0, 0, 0), HV_EINVAL);
    expect("raise(-1)", hv_call(HV_RAISE, -1, 0, 0, 0), HV_EINVAL);
    expect("raise(not owned)", hv_call(HV_RAISE, 3, 0, 0, 0), HV_EPERM);
    expect("raise(owned)", hv_call(HV_RAISE, OWNED_LINE, 0, 0, 0), 0);
    /* A raise enters the handler of the line it names at once: line 9's, though the
     * hypercall before it (through the C path) left 1 (the partition's index, also an owned
     * line) as its result in the saved a0 - the fast path once took the line from that
     * stale save, not from a0. */
    unsigned h9 = hits[OWNED_LINE], h1 = hits[OWNED_LINE2];
    expect("vcpu(valid) before a raise", hv_call(HV_VCPU, me, vec, 0, 0), 1);
    expect("raise(9)", hv_call(HV_RAISE, OWNED_LINE, 0, 0, 0), 0);
    expect("raise(9): line 9's handler ran", (long)(hits[OWNED_LINE] - h9), 1);
    expect("raise(9): line 1's did not", (long)(hits[OWNED_LINE2] - h1), 0);
    /* Numbers that are no hypercall. */
    long bogus[] = {HV_CALLS, HV_CALLS + 1, 100, 0x7FFFFFFF, -1, (long)0x80000000};
    for (unsigned i = 0; i < sizeof bogus / sizeof bogus[0]; i++)
        expect("bogus number", hv_call(bogus[i], 1, 2, 3, 4), HV_ENOSYS);
    unsigned directed = surprises;

    for (unsigned i = 0; i < FUZZ_CALLS; i++) {
        uint32_t a0 = next(), a1 = next(), a2 = next(), a3 = next();
        switch (next() % 5) {
        case 0: expect("sync", hv_call(HV_SYNC, a0, a1, a2, a3), 0); break;
        case 1: /* a line: 0 if owned, EPERM if another, EINVAL past the last */
            a0 = next() % 4 ? a0 % 20 : a0;
            expect("raise", hv_call(HV_RAISE, a0, a1, a2, a3),
                   a0 >= 15                                ? HV_EINVAL
                   : a0 == OWNED_LINE || a0 == OWNED_LINE2 ? 0
                                                           : HV_EPERM);
            break;
        case 2: /* never a valid page and table: the guest would corrupt itself */
            if (mine(a0, HV_VCPU_BYTES) && !(a0 & 3) && mine(a1, 128) && !(a1 & 255))
                a1 |= 4;
            expect("vcpu", hv_call(HV_VCPU, a0, a1, a2, a3), HV_EINVAL);
            break;
        case 3: { /* a number past the last, or negative */
            long n = (long)(next() | 0x80000000u);
            if (next() & 1)
                n = HV_CALLS + (long)(next() % 1000);
            expect("number", hv_call(n, a0, a1, a2, a3), HV_ENOSYS);
            break;
        }
        default: /* the timer: any compare is allowed; the tick's own comes back below */
            expect("timer", hv_call(HV_TIMER, a0, a1, a2, a3), 0);
            break;
        }
    }
    hv_call(HV_TIMER, 0, 0, 0, 0); /* the next tick re-arms the timer at once */
    bsp_printf("fuzz: %u directed checks, %u random calls, %u surprises (%u directed)\n", 25u,
               (unsigned)FUZZ_CALLS, surprises, directed);
    hv_vcpu.progress = FUZZ_CALLS;
    bsp_exit(surprises ? 1 : 0);
}

int main(void)
{
    uk_init();
    uk_start();
    return 0;
}
