/* SIMCTRL (docs/machine.md): CHAR_OUT sends byte 0 of a write to the console
 * whatever the access size (sb, sh, sw); a byte written to another lane of the
 * register is not byte 0 and prints nothing. CTRL halts only when bit 0 is 1, and
 * the exit status is (value >> 1) & 63: the final write 0xFFFFFF95 gives 10.
 * The .expect compares stdout exactly and the exit status. */
#include "bsp/bsp.h"

#define CHAR8(a) (*(volatile uint8_t *)(uintptr_t)(a))
#define CHAR16(a) (*(volatile uint16_t *)(uintptr_t)(a))

int main(void)
{
    /* sb */
    CHAR8(SIMCTRL_CHAR_OUT) = 's';
    CHAR8(SIMCTRL_CHAR_OUT) = 'b';
    CHAR8(SIMCTRL_CHAR_OUT) = '\n';
    /* sw: only byte 0 is a character */
    MMIO32(SIMCTRL_CHAR_OUT) = 0x7A7A7A00u | 's';
    MMIO32(SIMCTRL_CHAR_OUT) = 0xFFFFFF00u | 'w';
    MMIO32(SIMCTRL_CHAR_OUT) = 0x0A0A0A00u | '\n';
    /* sh */
    CHAR16(SIMCTRL_CHAR_OUT) = 0x5A00u | 's';
    CHAR16(SIMCTRL_CHAR_OUT) = 0x5A00u | 'h';
    CHAR16(SIMCTRL_CHAR_OUT) = 0x5A00u | '\n';
    /* bytes 1..3 of CHAR_OUT are not byte 0: nothing printed */
    CHAR8(SIMCTRL_CHAR_OUT + 1) = 'X';
    CHAR8(SIMCTRL_CHAR_OUT + 2) = 'Y';
    CHAR8(SIMCTRL_CHAR_OUT + 3) = 'Z';

    /* CTRL writes with bit 0 clear do not halt */
    MMIO32(SIMCTRL_CTRL) = 0;
    MMIO32(SIMCTRL_CTRL) = 0xFFFFFFFEu;
    CHAR16(SIMCTRL_CTRL) = 0x0042u;
    bsp_puts("alive\n");

    /* halt: (0xFFFFFF95 >> 1) & 63 = 0x7FFFFFCA & 63 = 10 */
    MMIO32(SIMCTRL_CTRL) = 0xFFFFFF95u;
    bsp_puts("not halted\n");
    return 99;
}
