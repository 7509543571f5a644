/* A boosted owner loses the boost as soon as the waiter that lent it leaves: by timeout
 * (checked to the tick, directly and through a chain of two mutexes), by a priority change,
 * by suspension or deletion; and a task deleted while it owns a mutex hands it on.
 * Without the recomputation the timed-out High (1) would queue behind its stale-boosted
 * equal L and wake late, and Medium (5) would stay locked out. Self-checking. */
#include <ubik/ubik.h>
#include "bsp/bsp.h"
#include "check.h"

enum {
    L_BOOSTED = 1,
    H_TIMEOUT,
    M_RUN,
    L_AFTER,
    L2_BOOSTED,
    H2_TIMEOUT,
    M2_RUN,
    L2_AFTER,
    B_GOT_M2,
    W_TIMEOUT,
    W2_GOT_M4,
    L_END
};

static uk_task_t tl, th, tm, tb, th2, tm2, tw, to, tw2;
static uint32_t l_stack[256], h_stack[192], m_stack[192], b_stack[192], h2_stack[192],
    m2_stack[192], w_stack[192], o_stack[192], w2_stack[192];
static uk_mutex_t mx, m1, m2, m4;
static volatile int lg[32], nlg;

static void note(int v)
{
    if (nlg < 32)
        lg[nlg++] = v;
}

static void spin(uk_tick_t ticks)
{
    uk_tick_t t0 = uk_time();
    while (uk_time() - t0 < ticks) {
    }
}

/* Phase 1: direct. */
static void h_task(void *arg)
{
    (void)arg;
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_mutex_lock(&mx, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5); /* woke at the very tick: L no longer shares priority 1 */
    CHECK_EQ(uk_task_prio(&tl), 10);
    note(H_TIMEOUT);
}

static void m_task(void *arg)
{
    (void)arg;
    note((int)(intptr_t)arg);
}

/* Phase 2: through a chain. B (8) holds M1, waits on M2 held by L; H2 (1) waits on M1. */
static void b_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m1, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m2, UK_FOREVER), UK_OK);
    note(B_GOT_M2);
    CHECK_EQ(uk_task_prio(&tb), 8);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK);
    CHECK_EQ(uk_mutex_unlock(&m1), UK_OK);
}

static void h2_task(void *arg)
{
    (void)arg;
    uk_tick_t t0 = uk_time();
    CHECK_EQ(uk_mutex_lock(&m1, 5), UK_ETIMEOUT);
    CHECK_EQ(uk_time() - t0, 5);
    CHECK_EQ(uk_task_prio(&tb), 8); /* back to its base */
    CHECK_EQ(uk_task_prio(&tl), 8); /* still lent B's 8 through M2, no longer H2's 1 */
    note(H2_TIMEOUT);
}

/* Phase 3: a waiter that changes priority, is suspended, deleted. */
static void w_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_ETIMEOUT); /* suspended: the wait ends */
    note(W_TIMEOUT);
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_OK); /* deleted while waiting */
    CHECK(0);
}

/* Phase 4: an owner deleted while a waiter waits. */
static void o_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m4, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_mutex_lock(&m4, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_suspend(0), UK_OK);
    CHECK(0);
}

static void w2_task(void *arg)
{
    (void)arg;
    CHECK_EQ(uk_mutex_lock(&m4, UK_FOREVER), UK_OK); /* handed on by O's deletion */
    CHECK(m4.owner == &tw2);
    CHECK_EQ(m4.depth, 1);
    note(W2_GOT_M4);
    CHECK_EQ(uk_mutex_unlock(&m4), UK_OK);
    CHECK(m4.owner == 0);
}

static void l_task(void *arg)
{
    (void)arg;
    /* Phase 1. */
    CHECK_EQ(uk_mutex_lock(&mx, UK_FOREVER), UK_OK);
    CHECK_EQ(uk_task_activate(&th), UK_OK);
    CHECK_EQ(uk_task_prio(&tl), 1);
    note(L_BOOSTED);
    CHECK_EQ(uk_task_create(&tm, "M", m_task, (void *)M_RUN, 5, m_stack, sizeof m_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&tm), UK_OK);
    spin(10); /* H times out at 5 and runs; then M */
    note(L_AFTER);
    CHECK_EQ(uk_task_prio(&tl), 10);
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK);

    /* Phase 2. */
    CHECK_EQ(uk_mutex_lock(&m2, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_activate(&tb), UK_OK); /* B takes M1, waits on M2 */
    CHECK_EQ(uk_task_prio(&tl), 8);
    CHECK_EQ(uk_task_activate(&th2), UK_OK); /* H2 waits on M1 */
    CHECK_EQ(uk_task_prio(&tb), 1);
    CHECK_EQ(uk_task_prio(&tl), 1);
    note(L2_BOOSTED);
    CHECK_EQ(uk_task_create(&tm2, "M2", m_task, (void *)M2_RUN, 5, m2_stack, sizeof m2_stack),
             UK_OK);
    CHECK_EQ(uk_task_activate(&tm2), UK_OK);
    spin(10);
    note(L2_AFTER);
    CHECK_EQ(uk_task_prio(&tl), 8);
    CHECK_EQ(uk_mutex_unlock(&m2), UK_OK); /* B gets M2 and runs */
    CHECK_EQ(uk_task_prio(&tl), 10);

    /* Phase 3. */
    CHECK_EQ(uk_mutex_lock(&mx, UK_NO_WAIT), UK_OK);
    CHECK_EQ(uk_task_activate(&tw), UK_OK); /* W (2) waits on mx */
    CHECK_EQ(uk_task_prio(&tl), 2);
    CHECK_EQ(uk_task_set_prio(&tw, 7), UK_OK); /* the waiter drops: so does the owner */
    CHECK_EQ(uk_task_prio(&tl), 7);
    CHECK_EQ(uk_task_set_prio(&tw, 3), UK_OK);
    CHECK_EQ(uk_task_prio(&tl), 3);
    CHECK_EQ(uk_task_set_prio(0, 12), UK_OK); /* a new base below the inherited 3 */
    CHECK_EQ(uk_task_prio(&tl), 3);
    CHECK_EQ(uk_task_suspend(&tw), UK_OK); /* the waiter leaves: the owner drops */
    CHECK_EQ(uk_task_prio(&tl), 12);
    CHECK_EQ(uk_task_set_prio(0, 10), UK_OK);
    CHECK_EQ(uk_task_prio(&tl), 10);
    CHECK_EQ(uk_task_resume(&tw), UK_OK); /* W runs: ETIMEOUT, then waits again */
    CHECK_EQ(uk_task_state(&tw), UK_TASK_PENDING);
    CHECK_EQ(uk_task_prio(&tl), 3);
    CHECK_EQ(uk_task_set_prio(0, 1), UK_OK); /* a new base above the inherited one */
    CHECK_EQ(uk_task_prio(&tl), 1);
    CHECK_EQ(uk_task_set_prio(0, 10), UK_OK);
    CHECK_EQ(uk_task_prio(&tl), 3);
    CHECK_EQ(uk_task_delete(&tw), UK_OK); /* deleted waiter: the owner drops */
    CHECK_EQ(uk_task_prio(&tl), 10);
    CHECK(mx.waiters.next == &mx.waiters);
    CHECK_EQ(uk_mutex_unlock(&mx), UK_OK);
    CHECK(mx.owner == 0);

    /* Phase 4. */
    CHECK_EQ(uk_task_activate(&to), UK_OK); /* O (9) takes m4 twice, suspends itself */
    CHECK(m4.owner == &to);
    CHECK_EQ(uk_task_activate(&tw2), UK_OK); /* W2 (3) waits on m4: O inherits 3 */
    CHECK_EQ(uk_task_prio(&to), 3);
    CHECK_EQ(uk_task_delete(&to), UK_OK); /* m4 passes to W2, which runs at once */
    CHECK_EQ(uk_task_state(&tw2), UK_TASK_DELETED);
    note(L_END);

    static const int want[] = {L_BOOSTED, H_TIMEOUT, M_RUN,    L_AFTER,   L2_BOOSTED, H2_TIMEOUT,
                               M2_RUN,    L2_AFTER,  B_GOT_M2, W_TIMEOUT, W2_GOT_M4,  L_END};
    int n = sizeof want / sizeof want[0];
    CHECK_EQ(nlg, n);
    for (int i = 0; i < n; i++)
        CHECK_EQ(lg[i], want[i]);
    CHECK(tl.mutexes == 0);
    bsp_exit(check_result());
}

int main(void)
{
    uk_init();
    CHECK_EQ(uk_mutex_init(&mx), UK_OK);
    CHECK_EQ(uk_mutex_init(&m1), UK_OK);
    CHECK_EQ(uk_mutex_init(&m2), UK_OK);
    CHECK_EQ(uk_mutex_init(&m4), UK_OK);
    CHECK_EQ(uk_task_create(&tl, "L", l_task, 0, 10, l_stack, sizeof l_stack), UK_OK);
    CHECK_EQ(uk_task_create(&th, "H", h_task, 0, 1, h_stack, sizeof h_stack), UK_OK);
    CHECK_EQ(uk_task_create(&tb, "B", b_task, 0, 8, b_stack, sizeof b_stack), UK_OK);
    CHECK_EQ(uk_task_create(&th2, "H2", h2_task, 0, 1, h2_stack, sizeof h2_stack), UK_OK);
    CHECK_EQ(uk_task_create(&tw, "W", w_task, 0, 2, w_stack, sizeof w_stack), UK_OK);
    CHECK_EQ(uk_task_create(&to, "O", o_task, 0, 9, o_stack, sizeof o_stack), UK_OK);
    CHECK_EQ(uk_task_create(&tw2, "W2", w2_task, 0, 3, w2_stack, sizeof w2_stack), UK_OK);
    CHECK_EQ(uk_task_activate(&tl), UK_OK);
    uk_start();
    return 99;
}
