/* The BSP's glue for picolibc, linked only into applications built with `[build] libc =
 * "picolibc"` (`ubik build`; docs/system.md): picolibc's standard streams on the board's
 * console, and its thread-local storage (errno, rand's state) set up before main.
 *
 * stdout and stderr write each character with bsp_putc (SIMCTRL.CHAR_OUT on the machine, the
 * hypervisor's console for a guest); stdin has no source and reads end of file.
 *
 * picolibc keeps errno and a few other variables in thread-local storage, reached through
 * the tp register. The kernel does not switch tp, so every task shares one block: the one
 * set up here, a copy of the program's .tdata followed by its zeroed .tbss (bsp/libc/tls.ld
 * bounds both and checks that they fit in TLS_BYTES). The link wraps main (--wrap=main), so
 * crt0 calls __wrap_main, which sets tp and calls the application's main. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bsp/bsp.h"

static int console_put(char c, FILE *f)
{
    (void)f;
    bsp_putc(c);
    return (unsigned char)c;
}

static int console_get(FILE *f)
{
    (void)f;
    return EOF;
}

static FILE console = FDEV_SETUP_STREAM(console_put, console_get, NULL, _FDEV_SETUP_RW);

FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;

/* The program's thread-local storage: bsp/libc/tls.ld asserts it fits. */
#define TLS_BYTES 1024
static uint8_t tls_block[TLS_BYTES] __attribute__((aligned(16)));

/* bsp/libc/tls.ld: the .tdata image, and the end of .tbss after it. */
extern const uint8_t __uk_libc_tdata_start[], __uk_libc_tdata_end[];

int __real_main(int argc, char **argv);
int __wrap_main(int argc, char **argv);

int __wrap_main(int argc, char **argv)
{
    /* .tbss is already zero: tls_block is in .bss, which crt0 clears. */
    memcpy(tls_block, __uk_libc_tdata_start, (size_t)(__uk_libc_tdata_end - __uk_libc_tdata_start));
    __asm__ volatile("mv tp, %0" : : "r"(tls_block));
    return __real_main(argc, argv);
}
