/* Board support for the Ubik reference MCU and its hypervisor guests: console, halt, timer,
 * interrupts, IO. What differs between the two boards is in bsp/BOARD/include/bsp/board.h.
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
int bsp_snprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
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

/* ---- What differs between boards ------------------------------------------------- */

/* Interrupts (bsp_irq_*, bsp_wfi, bsp_soft_irq_*, bsp_fast_irq_*), the timer's compare
 * (bsp_timer_set_compare, bsp_timer_irq_*) and the counters' CSRs (BSP_CYCLE, BSP_CYCLEH,
 * BSP_INSTRET, bsp_counters_enable): the board's, bsp/BOARD/include/bsp/board.h (the
 * reference MCU's in bsp/reference, a hypervisor guest's in bsp/guest), found on the include
 * path the build chose. */
#include "bsp/board.h"

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

/* ---- Performance counters ------------------------------------------------------------ */

/* The counters' CSRs are the board's (board.h): mcycle on the machine, cycle in a guest. */
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
static inline int bsp_opp_switching(void)
{
    return (MMIO32(POWER_STATUS) & POWER_STATUS_SWITCHING) != 0;
}

/* ---- Linker-script symbols ----------------------------------------------------------- */

extern char __heap_start[], __heap_end[], __stack_top[];

#ifdef __cplusplus
}
#endif

#endif /* BSP_BSP_H */
