/* Memory map and device registers of the Ubik reference MCU (docs/machine.md).
 *
 * Every name is a byte address (usable from C and from assembly). In C,
 * MMIO32(addr) is the register as an lvalue; mmio_read32/mmio_write32 do the same
 * as functions. All registers are 32 bits wide, little-endian.
 */
#ifndef BSP_MMIO_H
#define BSP_MMIO_H

#ifdef __ASSEMBLER__
#define BSP_U(x) x
#else
#define BSP_U(x) x##u
#endif

/* The register table is aligned by hand: */
/* clang-format off */
/* ---- Memory --------------------------------------------------------------- */
#define RAM_BASE                BSP_U(0x00100000)
#define RAM_SIZE                BSP_U(0x00100000)   /* 1 MiB by default */
#define RESET_PC                BSP_U(0x00100080)
#define VECTOR_TABLE            BSP_U(0x00100000)   /* mtvec resets to VECTOR_TABLE | 1 */

/* ---- SIMCTRL (Ibex simple_system) ------------------------------------------ */
#define SIMCTRL_BASE            BSP_U(0x00020000)
#define SIMCTRL_CHAR_OUT        (SIMCTRL_BASE + 0x0)  /* write: byte 0 to the console */
#define SIMCTRL_CTRL            (SIMCTRL_BASE + 0x8)  /* write bit 0 = 1: halt, exit code = value >> 1 */
#define SIMCTRL_CTRL_HALT       BSP_U(0x1)

/* ---- TIMER (RISC-V machine timer) ------------------------------------------ */
#define TIMER_BASE              BSP_U(0x00030000)
#define TIMER_MTIME             (TIMER_BASE + 0x0)    /* low word of the 64-bit time */
#define TIMER_MTIMEH            (TIMER_BASE + 0x4)
#define TIMER_MTIMECMP          (TIMER_BASE + 0x8)    /* writing either half clears the interrupt */
#define TIMER_MTIMECMPH         (TIMER_BASE + 0xC)
#define TIMER_MTIME_HZ          (TIMER_BASE + 0x100)   /* read-only: mtime's rate in Hz ([timer]
                                                         timebase; under "cycle" the core clock) */

/* ---- IO ports: the testbed's oscilloscope and input streams ---------------- */
#define IO_BASE                 BSP_U(0x00040000)
#define IO_PORTS                32
#define IO_OUT(n)               (IO_BASE + 0x000 + 4 * (n))  /* write: recorded with its time stamp */
#define IO_IN(n)                (IO_BASE + 0x100 + 4 * (n))  /* read: next sample of input stream n */
#define IO_GPIO_SET             (IO_BASE + 0x200)   /* write 1s: drive those pins high */
#define IO_GPIO_CLEAR           (IO_BASE + 0x204)   /* write 1s: drive those pins low */
#define IO_GPIO_LEVEL           (IO_BASE + 0x208)   /* the pin levels */
#define IO_GPIO_IN              (IO_BASE + 0x20C)   /* read-only: the scripted input pins' levels */
#define IO_GPIO_RISE            (IO_BASE + 0x210)   /* bit i: input pin i's rising edge latches its line */
#define IO_GPIO_FALL            (IO_BASE + 0x214)   /* bit i: its falling edge does */

/* ---- Interrupt controller + stimulus generators ---------------------------- */
#define INTC_BASE               BSP_U(0x00050000)
#define INTC_PENDING            (INTC_BASE + 0x00)  /* bit i: fast line i latched (mcause 16 + i) */
#define INTC_ENABLE             (INTC_BASE + 0x04)  /* bit i: fast line i may reach the core */
#define INTC_ACK                (INTC_BASE + 0x08)  /* write 1s: clear latched lines */
#define INTC_MSIP               (INTC_BASE + 0x0C)  /* bit 0: machine software interrupt (mcause 3) */
#define INTC_SET                (INTC_BASE + 0x10)  /* write 1s: latch those lines (software-raised) */
#define INTC_FAST_LINES         15                  /* fast lines 0..14 */

/* ---- Clock and power controller -------------------------------------------- */
#define POWER_BASE              BSP_U(0x00060000)
#define POWER_OPP_SELECT        (POWER_BASE + 0x00) /* index into the operating-point table */
#define POWER_STATUS            (POWER_BASE + 0x04) /* bit 0: a switch is settling */
#define POWER_STATUS_SWITCHING  BSP_U(0x1)
#define POWER_FREQ_HZ           (POWER_BASE + 0x08) /* read-only: current core clock */
#define POWER_MILLIVOLTS        (POWER_BASE + 0x0C) /* read-only: current core voltage */
#define POWER_OPP_COUNT         (POWER_BASE + 0x10) /* read-only: number of operating points */

/* ---- RTM: Real-Time Task Manager (docs/machine.md) ------------------------ */
#define RTM_BASE                BSP_U(0x00070000)
#define RTM_RECORD(i)           (RTM_BASE + 8 * (i))        /* status | prio << 8 | event << 16 */
#define RTM_DELAY(i)            (RTM_BASE + 8 * (i) + 4)    /* delay in ticks, 16 bits */
#define RTM_RECORDS             (RTM_BASE + 0x800) /* read-only: the number of records */
#define RTM_READY               (RTM_BASE + 0x804) /* query: highest-priority ready record */
#define RTM_EXPIRED             (RTM_BASE + 0x808) /* query: highest-priority expired record */
#define RTM_TICK                (RTM_BASE + 0x80C) /* write N: delays count down by N */
#define RTM_QUERY_CYCLES        (RTM_BASE + 0x810) /* read-only: cycles a query stalls */
#define RTM_EARLIEST            (RTM_BASE + 0x814) /* query: ready record, earliest deadline */
#define RTM_NOW                 (RTM_BASE + 0x818) /* read-only: the 16-bit tick count */
#define RTM_EVENT(e)            (RTM_BASE + 0xC00 + 4 * (e)) /* query: top record pending on e */
#define RTM_NONE                BSP_U(0xFFFFFFFF)  /* a query with no record qualifying */
#define RTM_VALID               BSP_U(0x01)
#define RTM_DELAYED             BSP_U(0x02)
#define RTM_PENDING             BSP_U(0x04)
#define RTM_SUSPENDED           BSP_U(0x08)
#define RTM_EXPIRED_BIT         BSP_U(0x10)

/* ---- UART (docs/machine.md) ---------------------------------------------- */
#define UART_BASE               BSP_U(0x00080000)
#define UART_TXDATA             (UART_BASE + 0x00) /* write: a byte to send (bits 7:0) */
#define UART_RXDATA             (UART_BASE + 0x04) /* read: the oldest byte received, or UART_RX_EMPTY */
#define UART_STATUS             (UART_BASE + 0x08) /* UART_RX_VALID.., bits 15:8 bytes waiting */
#define UART_CTRL               (UART_BASE + 0x0C) /* interrupt enables */
#define UART_BAUD               (UART_BASE + 0x10) /* read-only: bits per second (0: no time) */
#define UART_RX_EMPTY           BSP_U(0x80000000)
#define UART_RX_VALID           BSP_U(0x01)        /* STATUS: a byte is waiting */
#define UART_TX_READY           BSP_U(0x02)        /* STATUS: TXDATA takes a byte */
#define UART_TX_IDLE            BSP_U(0x04)        /* STATUS: nothing left to send */
#define UART_RX_OVERRUN         BSP_U(0x08)        /* STATUS: a byte was lost (write 1 to clear) */
#define UART_TX_OVERRUN         BSP_U(0x10)        /* STATUS: a byte written while not ready was lost */
#define UART_RX_IRQ             BSP_U(0x01)        /* CTRL: latch the UART's line on each byte received */
#define UART_TX_IRQ             BSP_U(0x02)        /* CTRL: latch it when TXDATA becomes ready */

/* clang-format on */

#ifndef __ASSEMBLER__
#include <stdint.h>

#define MMIO32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

static inline uint32_t mmio_read32(uintptr_t addr) { return MMIO32(addr); }
static inline void mmio_write32(uintptr_t addr, uint32_t value) { MMIO32(addr) = value; }
#endif

#endif /* BSP_MMIO_H */
