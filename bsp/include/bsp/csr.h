/* RISC-V machine-mode CSR access and the bits the reference core (Ibex) implements. */
#ifndef BSP_CSR_H
#define BSP_CSR_H

#ifdef __ASSEMBLER__
#define BSP_CSR_U(x) x
#else
#define BSP_CSR_U(x) x##u
#endif

/* The bit table is aligned by hand: */
/* clang-format off */
#define MSTATUS_MIE             BSP_CSR_U(0x00000008)  /* global machine interrupt enable */
#define MSTATUS_MPIE            BSP_CSR_U(0x00000080)
#define MSTATUS_MPP             BSP_CSR_U(0x00001800)

#define MIE_MSIE                BSP_CSR_U(0x00000008)  /* software interrupt (mcause 3) */
#define MIE_MTIE                BSP_CSR_U(0x00000080)  /* timer interrupt (mcause 7) */
#define MIE_MEIE                BSP_CSR_U(0x00000800)  /* external interrupt (mcause 11) */
#define MIE_FAST(line)          (BSP_CSR_U(1) << (16 + (line)))  /* fast line 0..14 */
#define MIE_FAST_ALL            BSP_CSR_U(0x7FFF0000)

#define MCAUSE_INTERRUPT        BSP_CSR_U(0x80000000)
#define MCAUSE_CODE_MASK        BSP_CSR_U(0x0000001F)
/* Exception codes (mcause with bit 31 clear). */
#define MCAUSE_INSN_ACCESS      1
#define MCAUSE_ILLEGAL_INSN     2
#define MCAUSE_BREAKPOINT       3
#define MCAUSE_LOAD_ACCESS      5
#define MCAUSE_STORE_ACCESS     7
#define MCAUSE_ECALL_M          11
/* Interrupt codes (mcause with bit 31 set). */
#define MCAUSE_IRQ_SOFTWARE     3
#define MCAUSE_IRQ_TIMER        7
#define MCAUSE_IRQ_EXTERNAL     11
#define MCAUSE_IRQ_FAST(line)   (16 + (line))
/* clang-format on */

#ifndef __ASSEMBLER__
#include <stdint.h>

#define BSP_CSR_STR_(x) #x
#define BSP_CSR_STR(x) BSP_CSR_STR_(x)

#define csr_read(csr)                                              \
    ({                                                             \
        uint32_t v_;                                               \
        __asm__ volatile("csrr %0, " BSP_CSR_STR(csr) : "=r"(v_)); \
        v_;                                                        \
    })
#define csr_write(csr, val) \
    __asm__ volatile("csrw " BSP_CSR_STR(csr) ", %0" ::"rK"((uint32_t)(val)) : "memory")
#define csr_set(csr, bits) \
    __asm__ volatile("csrs " BSP_CSR_STR(csr) ", %0" ::"rK"((uint32_t)(bits)) : "memory")
#define csr_clear(csr, bits) \
    __asm__ volatile("csrc " BSP_CSR_STR(csr) ", %0" ::"rK"((uint32_t)(bits)) : "memory")
#define csr_read_set(csr, bits)                               \
    ({                                                        \
        uint32_t v_;                                          \
        __asm__ volatile("csrrs %0, " BSP_CSR_STR(csr) ", %1" \
                         : "=r"(v_)                           \
                         : "rK"((uint32_t)(bits))             \
                         : "memory");                         \
        v_;                                                   \
    })
#define csr_read_clear(csr, bits)                             \
    ({                                                        \
        uint32_t v_;                                          \
        __asm__ volatile("csrrc %0, " BSP_CSR_STR(csr) ", %1" \
                         : "=r"(v_)                           \
                         : "rK"((uint32_t)(bits))             \
                         : "memory");                         \
        v_;                                                   \
    })
#endif

#endif /* BSP_CSR_H */
