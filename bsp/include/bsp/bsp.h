/* Board support for the Ubik reference MCU: console, halt, timer, interrupts, IO.
 *
 * Freestanding: needs no C library. Register addresses are in bsp/mmio.h,
 * CSR access in bsp/csr.h; both are included here.
 */
#ifndef BSP_BSP_H
#define BSP_BSP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "bsp/csr.h"
#include "bsp/mmio.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Console (SIMCTRL.CHAR_OUT: stdout of `ubik run`) ------------------------ */

void bsp_putc(char c);
/* Writes s as is: unlike libc puts, no newline is appended. */
void bsp_puts(const char *s);
/* A small printf: %d %i %u %x %X %o %c %s %p %%, the l and ll length modifiers,
 * flags '-' '0' '+' ' ' '#', a field width (also '*'), a precision for strings.
 * Returns the number of characters written. */
int bsp_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bsp_vprintf(const char *fmt, va_list ap);
/* As snprintf: writes at most size - 1 characters and a NUL into buf,
 * returns the length the full output would have. */
int bsp_snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int bsp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* ---- Memory functions (bsp/src/string.c; GCC may also call them itself) ---------- */

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* ---- Halt ---------------------------------------------------------------------- */

/* Halts the machine; `ubik run` exits with code & 63. */
void bsp_exit(int code) __attribute__((noreturn));

/* Exit code of the default handlers for a trap nobody handles. */
#define BSP_EXIT_UNHANDLED_TRAP 63

/* ---- Trap handlers: define any of these to override the weak default ----------- */

/* Exceptions (mcause bit 31 clear). Returns the address to resume at: mepc to
 * retry the instruction, mepc + 2 or + 4 to skip it. Default: bsp_unhandled_trap. */
uintptr_t bsp_exception_handler(uint32_t mcause, uintptr_t mepc, uint32_t mtval);
/* Machine timer interrupt: must write mtimecmp (bsp_timer_set_compare) to
 * clear it. Default: bsp_unhandled_trap. */
void bsp_timer_handler(void);
/* Machine software interrupt: must clear it (bsp_soft_irq_clear). Default: bsp_unhandled_trap. */
void bsp_software_handler(void);
/* Fast line 0..14: must acknowledge it (bsp_fast_irq_ack). Default: bsp_unhandled_trap. */
void bsp_fast_irq_handler(unsigned line);
/* Prints the trap on the console and halts with BSP_EXIT_UNHANDLED_TRAP. */
void bsp_unhandled_trap(uint32_t mcause, uintptr_t mepc, uint32_t mtval) __attribute__((noreturn));

/* ---- Interrupts -------------------------------------------------------------------- */

#ifdef BSP_GUEST
/* A hypervisor guest (hv/, docs/hypervisor.md): the same operations on its virtual CPU page
 * and by hypercall. The hypervisor acknowledges a line as it delivers it. */
#include "hv/abi.h"
extern struct hv_vcpu hv_vcpu;
static inline void bsp_guest_sync_(void)
{
    if ((hv_vcpu.ie & HV_IE) &&
        ((hv_vcpu.pending | (hv_vcpu.msip ? HV_IRQ_SOFT : 0)) & (hv_vcpu.enable | hv_vcpu.soft_enable)))
        hv_call(HV_SYNC, 0, 0, 0, 0);
}
static inline void bsp_irq_enable(void) { hv_vcpu.ie = HV_IE; bsp_guest_sync_(); }
static inline void bsp_irq_disable(void) { hv_vcpu.ie = 0; }
static inline uint32_t bsp_irq_save(void) { uint32_t k = hv_vcpu.ie; hv_vcpu.ie = 0; return k & HV_IE; }
static inline void bsp_irq_restore(uint32_t key) { if (key) bsp_irq_enable(); }
static inline void bsp_wfi(void) { hv_call(HV_IDLE, 0, 0, 0, 0); }

static inline void bsp_soft_irq_enable(void) { hv_vcpu.soft_enable = HV_IRQ_SOFT; bsp_guest_sync_(); }
static inline void bsp_soft_irq_raise(void) { hv_vcpu.msip = 1; bsp_guest_sync_(); }
static inline void bsp_soft_irq_clear(void) { hv_vcpu.msip = 0; }

static inline void bsp_fast_irq_enable(unsigned line) { hv_vcpu.enable |= HV_IRQ_LINE(line); bsp_guest_sync_(); }
static inline void bsp_fast_irq_disable(unsigned line) { hv_vcpu.enable &= ~HV_IRQ_LINE(line); }
static inline void bsp_fast_irq_ack(unsigned line) { (void)line; }
static inline void bsp_fast_irq_raise(unsigned line) { hv_call(HV_RAISE, (long)line, 0, 0, 0); }
#else
static inline void bsp_irq_enable(void) { csr_set(mstatus, MSTATUS_MIE); }
static inline void bsp_irq_disable(void) { csr_clear(mstatus, MSTATUS_MIE); }
/* Disables interrupts, returns the previous state for bsp_irq_restore. */
static inline uint32_t bsp_irq_save(void) { return csr_read_clear(mstatus, MSTATUS_MIE) & MSTATUS_MIE; }
static inline void bsp_irq_restore(uint32_t key) { if (key) csr_set(mstatus, MSTATUS_MIE); }
static inline void bsp_wfi(void) { __asm__ volatile ("wfi" ::: "memory"); }

static inline void bsp_soft_irq_enable(void) { csr_set(mie, MIE_MSIE); }
static inline void bsp_soft_irq_raise(void) { MMIO32(INTC_MSIP) = 1; }
static inline void bsp_soft_irq_clear(void) { MMIO32(INTC_MSIP) = 0; }

/* Fast lines: enabled in both the interrupt controller and mie. */
static inline void bsp_fast_irq_enable(unsigned line)
{
    MMIO32(INTC_ENABLE) |= 1u << line;
    csr_set(mie, MIE_FAST(line));
}
static inline void bsp_fast_irq_disable(unsigned line)
{
    csr_clear(mie, MIE_FAST(line));
    MMIO32(INTC_ENABLE) &= ~(1u << line);
}
static inline void bsp_fast_irq_ack(unsigned line) { MMIO32(INTC_ACK) = 1u << line; }
/* Latch fast line `line` from software, as a source would (it reaches the core if enabled). */
static inline void bsp_fast_irq_raise(unsigned line) { MMIO32(INTC_SET) = 1u << line; }
#endif

/* ---- Machine timer ----------------------------------------------------------------- */

/* mtime counts per second on this machine (TIMER.MTIME_HZ): the machine file's [timer]
 * timebase (10 MHz by default), or under timebase = "cycle" the current core clock, which
 * changes when an operating-point switch completes. Never assume a rate: read it. */
static inline uint32_t bsp_timer_hz(void) { return MMIO32(TIMER_MTIME_HZ); }

static inline uint64_t bsp_timer_now(void)
{
    uint32_t hi, lo;
    do {
        hi = MMIO32(TIMER_MTIMEH);
        lo = MMIO32(TIMER_MTIME);
    } while (hi != MMIO32(TIMER_MTIMEH));
    return ((uint64_t)hi << 32) | lo;
}

/* Sets mtimecmp without a spurious match between the two halves; clears a pending timer interrupt. */
#ifdef BSP_GUEST
static inline void bsp_timer_set_compare(uint64_t when)
{
    hv_call(HV_TIMER, (long)(uint32_t)when, (long)(uint32_t)(when >> 32), 0, 0);
}
static inline void bsp_timer_irq_enable(void) { hv_vcpu.enable |= HV_IRQ_TIMER; bsp_guest_sync_(); }
static inline void bsp_timer_irq_disable(void) { hv_vcpu.enable &= ~HV_IRQ_TIMER; }
#else
static inline void bsp_timer_set_compare(uint64_t when)
{
    MMIO32(TIMER_MTIMECMP) = 0xFFFFFFFFu;
    MMIO32(TIMER_MTIMECMPH) = (uint32_t)(when >> 32);
    MMIO32(TIMER_MTIMECMP) = (uint32_t)when;
}

static inline void bsp_timer_irq_enable(void) { csr_set(mie, MIE_MTIE); }
static inline void bsp_timer_irq_disable(void) { csr_clear(mie, MIE_MTIE); }
#endif

/* ---- Performance counters ------------------------------------------------------------ */

/* A hypervisor guest (BSP_GUEST) runs in U-mode: it reads the user-level copies (cycle,
 * instret), which the hypervisor lets it read, and cannot change the counters. */
#ifdef BSP_GUEST
#define BSP_CYCLE cycle
#define BSP_CYCLEH cycleh
#define BSP_INSTRET instret
static inline void bsp_counters_enable(void) {}
#else
#define BSP_CYCLE mcycle
#define BSP_CYCLEH mcycleh
#define BSP_INSTRET minstret
/* Lets mcycle and minstret count (clears mcountinhibit, CSR 0x320). */
static inline void bsp_counters_enable(void) { csr_write(0x320, 0); }
#endif
static inline uint32_t bsp_cycles(void) { return csr_read(BSP_CYCLE); }
static inline uint32_t bsp_instret(void) { return csr_read(BSP_INSTRET); }
static inline uint64_t bsp_cycles64(void)
{
    uint32_t hi, lo;
    do {
        hi = csr_read(BSP_CYCLEH);
        lo = csr_read(BSP_CYCLE);
    } while (hi != csr_read(BSP_CYCLEH));
    return ((uint64_t)hi << 32) | lo;
}

/* ---- IO ports and GPIO (recorded by the testbed with their time stamps) -------------- */

static inline void bsp_io_out(unsigned port, uint32_t value) { MMIO32(IO_OUT(port)) = value; }
static inline uint32_t bsp_io_in(unsigned port) { return MMIO32(IO_IN(port)); }
static inline void bsp_gpio_set(uint32_t pins) { MMIO32(IO_GPIO_SET) = pins; }
static inline void bsp_gpio_clear(uint32_t pins) { MMIO32(IO_GPIO_CLEAR) = pins; }
static inline uint32_t bsp_gpio_level(void) { return MMIO32(IO_GPIO_LEVEL); }

/* ---- Clock and power controller ----------------------------------------------------- */

static inline unsigned bsp_opp_count(void) { return MMIO32(POWER_OPP_COUNT); }
static inline uint32_t bsp_cpu_hz(void) { return MMIO32(POWER_FREQ_HZ); }
static inline uint32_t bsp_cpu_millivolts(void) { return MMIO32(POWER_MILLIVOLTS); }
/* Requests operating point `index`; the core runs at the old point until it settles. */
static inline void bsp_opp_select(unsigned index) { MMIO32(POWER_OPP_SELECT) = index; }
static inline int bsp_opp_switching(void) { return (MMIO32(POWER_STATUS) & POWER_STATUS_SWITCHING) != 0; }

/* ---- Linker-script symbols ----------------------------------------------------------- */

extern char __heap_start[], __heap_end[], __stack_top[];

#ifdef __cplusplus
}
#endif

#endif /* BSP_BSP_H */
