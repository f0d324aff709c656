/*
** internal.h: what core files share that is no part of the public API.
*/
#ifndef IDS_INTERNAL_H
#define IDS_INTERNAL_H

#include "idscheme.h"

/* Forks seen by this process: bumped in the child (pthread_atfork).  A
** generation mismatch is how generators and the pool notice a fork. */
extern _Atomic unsigned ids__forks;
/* The same, after making sure that forks are being counted (fork.c). */
unsigned ids__forkgen (void);

/* Writes at most 40 bytes of t into q (cap bytes) for a message, with
** what is not printable escaped. */
void ids__quote (char *q, size_t cap, const char *t, size_t n);

/* The generator's clock as a tick (IDS_ERANGE outside the field). */
int ids__ticks (const ids_generator *g, uint64_t *t);

/* The counter with the state word (tick - g->tick0) << sb | seq, up to
** tick g->tick0 + maxoff, taking the smallest value whose low n bits are
** `suf` (SIQ: one tail per tick, shared by every type). */
int ids__counter_suffix (ids_generator *g, unsigned sb, uint64_t maxoff,
                         unsigned n, uint64_t suf, uint64_t *tick,
                         uint64_t *seq, ids_error *e);

#endif
