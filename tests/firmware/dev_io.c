/* IO ports (docs/machine.md): IN[n] returns the next sample of input stream n
 * (dev_io.machine.toml: sine, lfsr, file; the file wraps around), GPIO set /
 * clear / level. The OUT[n] writes and GPIO edges below are the fixed sequence
 * that the CLI test (sim/crates/cli/tests/cli_devices.rs) finds in --io:
 *   out 0 = 1, out 31 = 0xdeadbeef, gpio 0 -> 1, gpio 2 -> 1, gpio 0 -> 0,
 *   out 1 = 0..9, gpio 2 -> 0, out 2 = 0x80000000.
 * Self-checking for the inputs and pin levels. */
#include "check.h"

static uint32_t lfsr_state = 1;

/* 32-bit Galois LFSR, mask 0x80200003, output = bit 0, first bit in bit 0. */
static uint32_t lfsr_sample(uint32_t *state, unsigned bits)
{
    uint32_t out = 0;
    for (unsigned i = 0; i < bits; i++) {
        uint32_t b = *state & 1;
        out |= b << i;
        *state = (*state >> 1) ^ (b ? 0x80200003u : 0);
    }
    return out;
}

static void test_inputs(void)
{
    static const uint32_t sine[] = {2048, 3048, 2048, 1048};
    for (int i = 0; i < 10; i++)
        CHECK_EQ(bsp_io_in(0), sine[i % 4]);
    static const int32_t sine0[] = {0, 100, 0, -100};
    for (int i = 0; i < 6; i++)
        CHECK_EQ(bsp_io_in(5), (uint32_t)sine0[i % 4]);

    for (int i = 0; i < 8; i++)
        CHECK_EQ(bsp_io_in(1), lfsr_sample(&lfsr_state, 32));
    uint32_t s12 = 0xACE1;
    for (int i = 0; i < 8; i++) {
        uint32_t v = bsp_io_in(4);
        CHECK(v < 4096);
        CHECK_EQ(v, lfsr_sample(&s12, 12));
    }

    static const uint32_t file[] = {1, 0xFFFFFFFEu, 0x10, 42};
    for (int i = 0; i < 9; i++)
        CHECK_EQ(bsp_io_in(2), file[i % 4]);

    /* streams are independent: port 0 carries on where it was */
    CHECK_EQ(bsp_io_in(0), sine[10 % 4]);
    /* writes to IN are ignored: the stream does not move */
    MMIO32(IO_IN(2)) = 7;
    CHECK_EQ(bsp_io_in(2), file[9 % 4]);
}

static void outputs_and_gpio(void)
{
    bsp_io_out(0, 1);
    bsp_io_out(31, 0xdeadbeef);
    CHECK_EQ(bsp_gpio_level(), 0);
    bsp_gpio_set(0x5); /* edges: pin 0 and pin 2 rise */
    CHECK_EQ(bsp_gpio_level(), 0x5);
    bsp_gpio_set(0x4); /* already high: no edge */
    CHECK_EQ(bsp_gpio_level(), 0x5);
    bsp_gpio_clear(0x1); /* pin 0 falls */
    CHECK_EQ(bsp_gpio_level(), 0x4);
    bsp_gpio_clear(0x1); /* already low: no edge */
    for (uint32_t k = 0; k < 10; k++)
        bsp_io_out(1, k);
    bsp_gpio_clear(0x4); /* pin 2 falls */
    CHECK_EQ(bsp_gpio_level(), 0);
    bsp_io_out(2, 0x80000000u);
}

int main(void)
{
    test_inputs();
    outputs_and_gpio();
    return check_result();
}
