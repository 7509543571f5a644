/* The debug kernel catches a corrupted wait queue: two tasks wait on a semaphore in priority
 * order, then the test breaks that order behind the kernel's back (writing a waiter's prio
 * instead of calling uk_task_set_prio). The next kernel exit must stop the system with the
 * invariant's name (expect); a run that comes back from the yield missed it. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"

static uk_task_t a, b, corrupter;
static uint32_t a_stack[256], b_stack[256], corrupter_stack[256];
static uk_sem_t sem;

static void waiter(void *arg)
{
    (void)arg;
    (void)uk_sem_take(&sem, UK_FOREVER); /* never given */
}

static void corrupt(void *arg)
{
    (void)arg;
    /* a (5) then b (6) wait, in that order: the queue is ordered. */
    b.prio = 4; /* now b is higher than a, but behind it */
    bsp_printf("corrupted the wait queue\n");
    uk_task_yield(); /* a kernel exit: the checks stop the system here */
    bsp_printf("the checks missed a wait queue out of order\n");
    bsp_exit(1);
}

int main(void)
{
    uk_init();
    (void)uk_sem_init(&sem, 0, 1);
    (void)uk_task_create(&a, "a", waiter, 0, 5, a_stack, sizeof a_stack);
    (void)uk_task_create(&b, "b", waiter, 0, 6, b_stack, sizeof b_stack);
    (void)uk_task_create(&corrupter, "corrupter", corrupt, 0, 10, corrupter_stack,
                         sizeof corrupter_stack);
    (void)uk_task_activate(&a);
    (void)uk_task_activate(&b);
    (void)uk_task_activate(&corrupter);
    uk_start();
    return 99;
}
