/* Dynamic power management (ubik/power.h): the operating point follows the power class of the
 * task the kernel switches to. uk__power_switch runs under the kernel lock on every switch
 * while a policy other than DEFAULT is selected (uk__power_on); with DEFAULT the switch paths
 * pay one load and a branch. */
#include "kernel.h"

#ifdef UK_FEATURE_POWER /* the whole file: [kernel] features in system.toml */

#ifndef UK_POWER_POLICY
#define UK_POWER_POLICY 0 /* [power] policy of system.toml */
#endif

/* [policy][class: normal, high, low, idle] -> operating point (power.h's table). */
static const uint8_t table[5][4] = {
    {0, 0, 0, 0}, /* DEFAULT */
    {0, 0, 0, 2}, /* IDLE */
    {0, 0, 1, 2}, /* LS0 */
    {1, 0, 2, 2}, /* LS1 */
    {2, 0, 2, 2}, /* LS2 */
};

uint8_t uk__power_on = UK_POWER_POLICY != 0;
static uint8_t policy = UK_POWER_POLICY;
static uint8_t current = 0xFF; /* the point last selected (0xFF: none yet) */
static uint32_t n_opps;        /* the machine's operating points (0: not read yet) */

static UK_SCHED_FN(select_opp) void select_opp(unsigned opp)
{
    if (!n_opps) /* read once: a device access on every switch would be wasted */
        n_opps = uk__arch_opp_count();
    if (n_opps && opp >= n_opps)
        opp = n_opps - 1u; /* a machine with fewer points: its slowest */
    if (opp != current) {
        current = (uint8_t)opp;
        uk__arch_opp_select(opp);
    }
}

UK_SCHED_FN(uk__power_switch) void uk__power_switch(const uk_task_t *next)
{
    unsigned cls = next == &uk__idle_task ? 3 : next->power_class;
    select_opp(table[policy][cls]);
}

/* The first switch (uk_start): the machine may have started at any operating point, so
 * every policy selects the first task's point here, DEFAULT included (its point 0). The
 * switches after it pay for a policy other than DEFAULT only: under DEFAULT the point stays
 * where this put it, until uk_power_set_policy. */
UK_OTHER_FN(uk__power_start) void uk__power_start(const uk_task_t *first)
{
    current = (uint8_t)uk__arch_opp_selected(); /* already there: no selection, no settling */
    uk__power_switch(first);
}

UK_OTHER_FN(uk_task_set_power_class) int uk_task_set_power_class(uk_task_t *t, uk_power_class_t cls)
{
    if (!t || t->magic != UK_TASK_MAGIC || (unsigned)cls > UK_POWER_LOW)
        return UK_EINVAL;
    t->power_class = (uint8_t)cls;
    return UK_OK;
}

UK_OTHER_FN(uk_power_set_policy) int uk_power_set_policy(uk_power_policy_t p)
{
    if ((unsigned)p > UK_POWER_LS2)
        return UK_EINVAL;
    if (UK_IN_LISR())
        return UK_EPERM;
    unsigned key = uk__lock();
    policy = (uint8_t)p;
    uk__power_on = p != UK_POWER_DEFAULT;
    if (uk__started)
        uk__power_switch(uk__current); /* DEFAULT too: back to full speed */
    uk__unlock(key);
    return UK_OK;
}

UK_OTHER_FN(uk_power_policy) uk_power_policy_t uk_power_policy(void)
{
    return (uk_power_policy_t)policy;
}

UK_OTHER_FN(uk_power_opp) unsigned uk_power_opp(void)
{
    return current == 0xFF ? uk__arch_opp_selected() : current;
}

#endif /* UK_FEATURE_POWER */
