/* Exit code 42 through bsp_exit from a nested call (main never returns). */
#include "bsp/bsp.h"

static __attribute__((noinline, noreturn)) void finish(int code) { bsp_exit(code); }

int main(void) { finish(42); }
