/* Scheduler policy "prio_rr": preemptive by priority, 256 priorities (0 highest), round robin
 * among equal priorities. Selection as in "prio": the two-level bitmap of prio_map.h, O(1)
 * whatever the number of tasks.
 *
 * Invariants: a task is in the ring at heads[p] iff it is ready or running and its prio is
 * p, in round robin order (the next to run first); priority p is in `map` iff heads[p] is
 * set. The running task is the head of the highest non-empty ring.
 *
 * Time slices: the running task's slice_left counts down one per tick; when it reaches 0 the
 * task gets t->slice again and goes behind its equals. slice_left is reloaded whenever a task
 * enters its list anew (it becomes ready after blocking, sleeping or a suspend, or its
 * priority changes) and when it yields: a task that gave up the processor starts a fresh
 * slice when it runs again. A task preempted by a higher priority is not moved: it stays at
 * the head of its list and finishes the rest of its slice when its priority runs again (as
 * POSIX SCHED_RR does), so preemption never costs it its turn. A task alone at its priority
 * just reloads its slice: there is nobody to rotate with. */
#define UK_PRIO_ROUND_ROBIN 1
#include "prio.c"
