/* Interrupts: the LISR table, dispatch from the trap entry, masking by line. */
#include "kernel.h"

#define FAST_LINES UK_ARCH_IRQ_LINES
_Static_assert(FAST_LINES == 15, "uk__lisr_table's initialiser");

static uint32_t spurious;

/* An interrupt on a line without a LISR: counted (the line is acknowledged). */
static UK_OTHER_FN(uk__lisr_spurious) void uk__lisr_spurious(unsigned line)
{
    (void)line;
    spurious++;
}

/* Read by the fast-line entry (switch.S): the LISR of line i at index i. */
void (*uk__lisr_table[FAST_LINES])(unsigned line) = {
    uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious,
    uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious,
    uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious, uk__lisr_spurious};

UK_OTHER_FN(uk_irq_install) int uk_irq_install(unsigned line, void (*lisr)(unsigned line))
{
    if (UK_ARG_BAD(line >= FAST_LINES || !lisr))
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    uk__lisr_table[line] = lisr;
    uk__arch_irq_line_enable(line);
    uk_irq_restore(key);
    return UK_OK;
}

UK_OTHER_FN(uk_irq_mask) int uk_irq_mask(uint32_t lines)
{
    if (lines >> FAST_LINES)
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    uk__arch_irq_lines_mask(lines);
    uk_irq_restore(key);
    return UK_OK;
}

UK_OTHER_FN(uk_irq_unmask) int uk_irq_unmask(uint32_t lines)
{
    if (lines >> FAST_LINES)
        return UK_EINVAL;
    unsigned key = uk_irq_disable();
    uk__arch_irq_lines_unmask(lines);
    uk_irq_restore(key);
    return UK_OK;
}

UK_OTHER_FN(uk_in_isr) bool uk_in_isr(void) { return UK_IN_ISR(); }
