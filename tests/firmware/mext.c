/* M extension corner cases (RISC-V spec, division by zero and overflow), as inline asm. */
#include "check.h"
#define RR(op, a, b)                                                                            \
    ({                                                                                          \
        uint32_t r_;                                                                            \
        __asm__ volatile(op " %0, %1, %2" : "=r"(r_) : "r"((uint32_t)(a)), "r"((uint32_t)(b))); \
        r_;                                                                                     \
    })
int main(void)
{
    const uint32_t min = 0x80000000u;
    CHECK_EQ(RR("mul", 7, 6), 42);
    CHECK_EQ(RR("mul", min, 2), 0);
    CHECK_EQ(RR("mul", -3, 5), -15);
    CHECK_EQ(RR("mulh", -1, -1), 0);
    CHECK_EQ(RR("mulh", min, min), 0x40000000u);
    CHECK_EQ(RR("mulh", min, 1), 0xFFFFFFFFu);
    CHECK_EQ(RR("mulhu", 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFEu);
    CHECK_EQ(RR("mulhu", min, 2), 1);
    CHECK_EQ(RR("mulhsu", -1, 0xFFFFFFFFu), 0xFFFFFFFFu);
    CHECK_EQ(RR("mulhsu", min, 0xFFFFFFFFu), 0x80000000u);
    CHECK_EQ(RR("mulhsu", 1, 0xFFFFFFFFu), 0);

    CHECK_EQ(RR("div", 7, -2), -3);
    CHECK_EQ(RR("rem", 7, -2), 1);
    CHECK_EQ(RR("div", -7, 2), -3);
    CHECK_EQ(RR("rem", -7, 2), -1);
    CHECK_EQ(RR("divu", 7, 2), 3);
    CHECK_EQ(RR("remu", 7, 2), 1);

    /* Division by zero: quotient all ones, remainder the dividend. */
    CHECK_EQ(RR("div", 5, 0), 0xFFFFFFFFu);
    CHECK_EQ(RR("div", -5, 0), 0xFFFFFFFFu);
    CHECK_EQ(RR("divu", 5, 0), 0xFFFFFFFFu);
    CHECK_EQ(RR("rem", -5, 0), -5);
    CHECK_EQ(RR("remu", 5, 0), 5);

    /* Overflow: -2^31 / -1 = -2^31, remainder 0. */
    CHECK_EQ(RR("div", min, -1), min);
    CHECK_EQ(RR("rem", min, -1), 0);
    CHECK_EQ(RR("divu", min, 0xFFFFFFFFu), 0);
    CHECK_EQ(RR("remu", min, 0xFFFFFFFFu), min);

    return check_result();
}

/* The lines above main are packed so that each CHECK keeps the line it had when the RTL's
 * figures for this image were taken (tests/rtl): __LINE__ is a constant in the code, and a
 * constant that moves can change an instruction's size and so the cycle count. */
