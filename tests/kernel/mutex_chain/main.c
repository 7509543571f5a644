/* Transitive priority inheritance through a chain of two mutexes, and the right priority
 * after each unlock. C (20) holds M2; B (10) holds M1 and waits on M2; A (2) waits on M1:
 * B and C both run at 2, and D (5), ready meanwhile, waits until A is done. Each unlock
 * restores the highest of the base priority and the first waiters of the mutexes still
 * held: C drops to 20 at once; B keeps 2 after releasing M2 (A still waits on M1), and
 * 4 after releasing M1 while E (4) waits on M3, which B also holds; then 10.
 * Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum {
    C_LOCKED = 1,
    B_START,
    C_B_WAITS,
    A_START,
    C_A_WAITS,
    C_UNLOCK,
    B_GOT_M2,
    B_UNLOCK_M2,
    B_UNLOCK_M1,
    A_GOT_M1,
    A_DONE,
    B_UNLOCK_M3,
    E_GOT_M3,
    D_RUN,
    B_END,
    C_END
};

static uk_task_t ta, tb, tc, td, te;
static uint32_t a_stack[256], b_stack[256], c_stack[256], d_stack[256], e_stack[256];
static uk_mutex_t m1, m2, m3;
static volatile int lg[32], nlg;

static void note(int v)
{
    if (nlg < 32)
        lg[nlg++] = v;
}

static void a_task(void *arg)
{
    (void)arg;
    note(A_START);
    CHECK_EQ(uk_mutex_lock(&m1, UK_FOREVER), UK_OK);
    note(A_GOT_M1);
    CHECK_EQ(uk_task_prio(&tb), 4); /* B still holds M3, wanted by E (4) */
    CHECK_EQ(uk_task_prio(&tc), 20);
    CHECK_EQ(uk_mutex_unlock(&m1), UK_OK);
    note(A_DONE);
}

static void e_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m3, UK_FOREVER), UK_OK);
    note(E_GOT_M3);
    CHECK_EQ(uk_task_prio(&tb), 10);
    CHECK_EQ(uk_mutex_unlock(&m3), UK_OK);
}

static void d_task(void *arg)
{
    (void)arg;
    note(D_RUN);
}

static void b_task(void *arg)
{
    (void)arg;
    note(B_START);
    CHECK_EQ(uk_mutex_lock(&m1, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m3, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_activate(&te), UK_OK); /* E (4) blocks on M3: B inherits 4 */
    CHECK_EQ(uk_task_prio(&tb), 4);
    CHECK_EQ(uk_mutex_lock(&m2, UK_FOREVER), UK_OK); /* C holds it: C inherits 4 */
    note(B_GOT_M2);
    CHECK(m2.owner == &tb);
    CHECK_EQ(uk_task_prio(&tc), 20); /* C's boost ended with its unlock */
    CHECK_EQ(uk_task_prio(&tb), 2);  /* A still waits on M1 */
    note(B_UNLOCK_M2);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
    CHECK_EQ(uk_task_prio(&tb), 2);
    note(B_UNLOCK_M1);
    CHECK_EQ(uk_mutex_unlock(&m1), UK_OK); /* A gets M1 and runs */
    CHECK_EQ(uk_task_prio(&tb), 4);
    note(B_UNLOCK_M3);
    CHECK_EQ(uk_mutex_unlock(&m3), UK_OK); /* E gets M3 and runs */
    CHECK_EQ(uk_task_prio(&tb), 10);
    note(B_END);
}

static void c_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m2, UK_FOREVER), UK_OK);
    note(C_LOCKED);
    CHECK_EQ(uk_task_activate(&tb), UK_OK); /* B runs, ends up waiting on M2 */
    CHECK_EQ(uk_task_state(&tb), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&tc), 4); /* B lends what E lends it */
    note(C_B_WAITS);
    CHECK_EQ(uk_task_activate(&ta), UK_OK); /* A runs, waits on M1 held by B */
    CHECK_EQ(uk_task_state(&ta), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&tb), 2);
    CHECK_EQ(uk_task_prio(&tc), 2); /* transitive: A -> M1 -> B -> M2 -> C */
    note(C_A_WAITS);
    CHECK_EQ(uk_task_activate(&td), UK_OK); /* D (5) must wait */
    uk_tick_t t0 = uk_time();
    while (uk_time() - t0 < 3) {
    }
    note(C_UNLOCK);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK); /* B gets M2 and runs at 2 */
    CHECK_EQ(uk_task_prio(&tc), 20);
    note(C_END);
    static const int want[] = {C_LOCKED, B_START,     C_B_WAITS,   A_START,  C_A_WAITS, C_UNLOCK,
                               B_GOT_M2, B_UNLOCK_M2, B_UNLOCK_M1, A_GOT_M1, A_DONE,    B_UNLOCK_M3,
                               E_GOT_M3, D_RUN,       B_END,       C_END};
    int n = sizeof want / sizeof want[0];
    CHECK_EQ(nlg, n);
    for (int i = 0; i < n; i++)
        CHECK_EQ(lg[i], want[i]);
    CHECK(tb.mutexes == 0 && tc.mutexes == 0);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_mutex_init(&m1), UK_OK);
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_mutex_init(&m3), UK_OK);
    CHECK_EQ(uk_task_create(&ta, "A", a_task, 0, 2, a_stack, sizeof a_stack), UK_OK);
    CHECK_EQ(uk_task_create(&tb, "B", b_task, 0, 10, b_stack, sizeof b_stack), UK_OK);
    CHECK_EQ(uk_task_create(&tc, "C", c_task, 0, 20, c_stack, sizeof c_stack), UK_OK);
    CHECK_EQ(uk_task_create(&td, "D", d_task, 0, 5, d_stack, sizeof d_stack), UK_OK);
    CHECK_EQ(uk_task_create(&te, "E", e_task, 0, 4, e_stack, sizeof e_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&tc), UK_OK);
    uk_start();
    return 99;
}
