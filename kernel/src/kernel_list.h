/* Ubik internals: the kernel's doubly linked lists. */
#ifndef UBIK_KERNEL_LIST_H
#define UBIK_KERNEL_LIST_H

#include "kernel_config.h"

/* ---- Lists (circular, sentinel head; invariant: next->prev == self) -------------------- */

#define UK_CONTAINER_OF(p, type, member) ((type *)((char *)(p) - __builtin_offsetof(type, member)))

static inline void uk__list_init(uk_list_t *h) { h->next = h->prev = h; }
static inline bool uk__list_empty(const uk_list_t *h) { return h->next == h; }
static inline bool uk__list_linked(const uk_list_t *n) { return n->next != 0 && n->next != n; }

/* Insert `n` before `at` (at the tail when `at` is the head). */
static inline void uk__list_insert_before(uk_list_t *at, uk_list_t *n)
{
    n->prev = at->prev;
    n->next = at;
    at->prev->next = n;
    at->prev = n;
}

static inline void uk__list_remove(uk_list_t *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = n;
}

/* Move n, an element of the list at h, to the tail; returns the (new) first element. The
 * usual case of a yield -- n is the first -- moves the sentinel from before n to after it
 * instead, which takes fewer memory accesses than unlinking and relinking n. */
static inline uk_list_t *uk__list_to_tail(uk_list_t *h, uk_list_t *n)
{
    uk_list_t *next = n->next;
    if (next == h)
        return h->next; /* n is the last already */
    if (h->next == n) {
        uk_list_t *last = h->prev;
        last->next = n;
        n->prev = last;
        n->next = h;
        h->prev = n;
        h->next = next;
        next->prev = h;
        return next;
    }
    uk__list_remove(n);
    uk__list_insert_before(h, n);
    return h->next;
}

#endif
