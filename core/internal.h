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

/* Hex digit value, or -1; 2n hex digits (either case) into n bytes. */
static inline int ids__hexval (unsigned char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  ch |= 0x20;
  return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}
int ids__hexbytes (const char *h, uint8_t *b, size_t n);

/* What ids_options holds, for the generator and the registry. */
const ids_scheme *ids__options_scheme (const ids_options *o);
int ids__options_generator (const ids_options *o);  /* else: parameters */
const ids_optval *ids__options_values (const ids_options *o);
int ids__options_policy (const ids_options *o);         /* o may be NULL */
int64_t ids__options_ahead (const ids_options *o);      /* ms; o may be NULL */
const char *ids__options_slots (const ids_options *o);
const char *ids__options_namespace (const ids_options *o);

#endif
