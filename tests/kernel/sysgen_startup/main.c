/* See system.toml: uk_init() stops the system with exit code 61 before main goes on. */
#include "uk_gen.h"
#include "bsp/bsp.h"

void never_entry(void *arg)
{
    (void)arg;
    bsp_printf("never_entry ran\n");
    bsp_exit(1);
}

int main(void)
{
    uk_init(); /* exits 61: uk_pool_create(carved) returns UK_ENOMEM */
    bsp_printf("uk_init returned\n");
    return 2;
}
