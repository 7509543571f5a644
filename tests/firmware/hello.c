/* The smallest firmware: one line on the console, exit 0 by returning from main. */
#include "bsp/bsp.h"

int main(void)
{
    bsp_puts("hello from ubik\n");
    return 0;
}
