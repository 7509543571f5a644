/* The debug kernel catches a corrupted timer list: a started timer's magic is overwritten
 * behind the kernel's back (as a stray write into a deleted or reused object would). The next
 * kernel exit must stop the system with the invariant's name (expect); a run that comes back
 * from the yield missed it. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static uk_task_t corrupter;
static uint32_t corrupter_stack[256];
static uk_timer_t tm;

static void never(uk_timer_t *t, void *arg)
{
    (void)t;
    (void)arg;
}

static void corrupt(void *arg)
{
    (void)arg;
    (void)uk_timer_init(&tm, never, 0);
    (void)uk_timer_start(&tm, 1000, 0);
    uk_task_yield(); /* the list is sound: the checks pass */
    tm.magic = 0;
    bsp_printf("corrupted the timer list\n");
    uk_task_yield(); /* a kernel exit: the checks stop the system here */
    bsp_printf("the checks missed a dead timer in the delta list\n");
    bsp_exit(1);
}

int main(void)
{
    uk_init();
    (void)uk_task_create(&corrupter, "corrupter", corrupt, 0, 10, corrupter_stack,
                         sizeof corrupter_stack);
    (void)uk_task_activate(&corrupter);
    uk_start();
    return 99;
}
