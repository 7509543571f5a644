/* bsp_printf and bsp_snprintf: exact output is compared by printf.expect;
 * bsp_snprintf results are checked here. */
#include "check.h"

int main(void)
{
    const char *volatile null_string = 0; /* volatile: GCC would warn about a literal NULL */
    bsp_printf("%d %d %d %i\n", 0, 42, -42, -2147483647 - 1);
    bsp_printf("%u %u\n", 0u, 4294967295u);
    bsp_printf("%x %X %08x %#x\n", 0xdeadbeefu, 0xdeadbeefu, 0x1234u, 0xffu);
    bsp_printf("%ld %lu %lx\n", -7L, 7UL, 0xabcUL);
    bsp_printf("%lld %llu %llx\n", -1234567890123LL, 18446744073709551615ULL, 0x123456789abcdefULL);
    bsp_printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%.3d]\n", 42, 42, -42, 7, 7, 5);
    bsp_printf("[%s] [%8s] [%-8s] [%.3s] [%c%c] [%%]\n", "ubik", "ubik", "ubik", "ubik", 'o', 'k');
    bsp_printf("[%*d] [%-*d] [%s]\n", 4, 1, 4, 2, null_string);
    bsp_printf("%p %hhx %hd\n", (void *)0x100080, 0x1ff, 70000);

    char buf[8];
    CHECK_EQ(bsp_snprintf(buf, sizeof buf, "%d-%s", 12345, "abcdef"), 12);
    CHECK_EQ(memcmp(buf, "12345-a", 8), 0);
    CHECK_EQ(bsp_snprintf(buf, sizeof buf, "%x", 0xabu), 2);
    CHECK_EQ(memcmp(buf, "ab", 3), 0);
    CHECK_EQ(bsp_snprintf(0, 0, "%u", 1000u), 4);
    return check_result();
}
