/* Bus errors (docs/machine.md, "Registers": an access outside any device is a
 * load or store access fault, mcause 5 / 7): loads and stores of every size to
 * unmapped addresses (0x0, 0x0009_0000, a hole in the IO-port window 0x0004_0300,
 * a hole in SIMCTRL, just past the end of RAM) trap with mcause 5 / 7 and
 * mtval = the address, and the handler resumes after the instruction; a jump to
 * an unmapped address raises an instruction access fault (mcause 1). Also an
 * illegal instruction executed 2,000 times at the same PC, each time skipped by
 * the handler: progress is made in between, so this is not a trap loop and the
 * run ends normally. Self-checking. */
#include "check.h"

/* Instruction access fault is exception code 1 (RISC-V privileged spec, table 3.6).
 */
#define CAUSE_INSN_ACCESS_FAULT 1

static volatile uint32_t exc_count, exc_mcause, exc_mtval;
static volatile uintptr_t exc_mepc, resume_at;

uintptr_t bsp_exception_handler(uint32_t mcause, uintptr_t mepc, uint32_t mtval)
{
    exc_count++;
    exc_mcause = mcause;
    exc_mepc = mepc;
    exc_mtval = mtval;
    if (mcause == CAUSE_INSN_ACCESS_FAULT)
        return resume_at;
    uint16_t low = *(volatile uint16_t *)mepc;
    return mepc + ((low & 3) == 3 ? 4 : 2);
}

static uintptr_t hide(uintptr_t a)
{
    __asm__("" : "+r"(a));
    return a;
}

static void check_load(uintptr_t addr, int size, int line)
{
    uint32_t before = exc_count;
    uintptr_t a = hide(addr);
    switch (size) {
    case 1: (void)*(volatile uint8_t *)a; break;
    case 2: (void)*(volatile uint16_t *)a; break;
    default: (void)*(volatile uint32_t *)a; break;
    }
    if (exc_count != before + 1 || exc_mcause != MCAUSE_LOAD_ACCESS || exc_mtval != addr)
        bsp_printf("line %d: load%d at 0x%08x: %u traps, mcause %u, mtval 0x%08x\n", line, size * 8,
                   (unsigned)addr, (unsigned)(exc_count - before), (unsigned)exc_mcause,
                   (unsigned)exc_mtval);
    CHECK_EQ(exc_count, before + 1);
    CHECK_EQ(exc_mcause, MCAUSE_LOAD_ACCESS);
    CHECK_EQ(exc_mtval, addr);
}

static void check_store(uintptr_t addr, int size, int line)
{
    uint32_t before = exc_count;
    uintptr_t a = hide(addr);
    switch (size) {
    case 1: *(volatile uint8_t *)a = 1; break;
    case 2: *(volatile uint16_t *)a = 1; break;
    default: *(volatile uint32_t *)a = 1; break;
    }
    if (exc_count != before + 1 || exc_mcause != MCAUSE_STORE_ACCESS || exc_mtval != addr)
        bsp_printf("line %d: store%d at 0x%08x: %u traps, mcause %u, mtval 0x%08x\n", line,
                   size * 8, (unsigned)addr, (unsigned)(exc_count - before), (unsigned)exc_mcause,
                   (unsigned)exc_mtval);
    CHECK_EQ(exc_count, before + 1);
    CHECK_EQ(exc_mcause, MCAUSE_STORE_ACCESS);
    CHECK_EQ(exc_mtval, addr);
}

static const uintptr_t unmapped[] = {
    0x00000000u, /* address 0 */
    0x00090000u, /* past the last device window */
    0x00080014u, /* UART: past BAUD */
    0x00040300u, /* IO-port window: past GPIO_LEVEL */
    0x00020400u, /* past SIMCTRL's 1 KiB window (inside it, other offsets are ignored) */
    0x00030010u, /* TIMER: past MTIMECMPH */
    0x00050014u, /* interrupt controller: past SET */
    0x00060014u, /* clock and power controller: past the count */
    0x00200000u, /* just past the end of the 1 MiB RAM */
    0xFFFFFFFCu, /* top of the address space */
};

static void test_illegal_many_times(void)
{
    uint32_t before = exc_count;
    for (int i = 0; i < 2000; i++)
        __asm__ volatile(".option push\n\t.option norvc\n\tunimp\n\t.option pop" ::: "memory");
    CHECK_EQ(exc_count - before, 2000);
    CHECK_EQ(exc_mcause, MCAUSE_ILLEGAL_INSN);
}

static void test_fetch_fault(void)
{
    uint32_t before = exc_count;
    __asm__ volatile("la   t0, 1f\n\t"
                     "sw   t0, 0(%0)\n\t"
                     "li   t1, 0x00090000\n\t"
                     "jr   t1\n\t"
                     "1:\n\t"
                     :
                     : "r"(&resume_at)
                     : "t0", "t1", "memory");
    CHECK_EQ(exc_count, before + 1);
    CHECK_EQ(exc_mcause, CAUSE_INSN_ACCESS_FAULT);
    CHECK_EQ(exc_mtval, 0x00090000u);
    CHECK_EQ(exc_mepc, 0x00090000u);
}

int main(void)
{
    for (unsigned i = 0; i < sizeof unmapped / sizeof unmapped[0]; i++) {
        for (int size = 1; size <= 4; size *= 2) {
            check_load(unmapped[i], size, __LINE__);
            check_store(unmapped[i], size, __LINE__);
        }
    }
    /* the last word of RAM is fine */
    uint32_t before = exc_count;
    volatile uint32_t *last = (volatile uint32_t *)hide(0x001FFFFCu);
    uint32_t keep = *last;
    *last = keep;
    CHECK_EQ(exc_count, before);

    test_illegal_many_times();
    test_fetch_fault();
    return check_result();
}
