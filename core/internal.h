/*
** internal.h: what core files share that is no part of the public API.
*/
#ifndef IDS_INTERNAL_H
#define IDS_INTERNAL_H

#include <stdatomic.h>

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

/* Decimal text, the whole of t[0..n): digits only (leading zeros do no
** harm; no sign, no space).  IDS_OK and *x; IDS_ERANGE past max;
** IDS_EINVAL for anything else, a non-digit even past max (decimal.c). */
int ids__decimal (const char *t, size_t n, uint64_t max, uint64_t *x);
/* The same after an optional '-', within int64. */
int ids__decimal_signed (const char *t, size_t n, int64_t *x);

/* base64, standard alphabet, padded (b64.c).  Encode writes
** 4 * ceil(n / 3) characters and a NUL and returns their count; it
** encodes in place too, from bytes at the end of the text's room (in ==
** out + 4 * ceil(n / 3) - n): each step reads before it writes, and
** writes no further than it has read.  Decode writes at most len / 4 * 3
** bytes, sets *n and returns 0, or -1 for text that is not base64.  The
** _at forms choose the code, for tests: 0 scalar, 1 SSSE3, 2 AVX2 (at
** most what the CPU has). */
size_t ids__b64_encode (char *out, const unsigned char *in, size_t n);
int ids__b64_decode (unsigned char *out, const char *text, size_t len,
                     size_t *n);
size_t ids__b64_encode_at (int level, char *out, const unsigned char *in,
                           size_t n);
int ids__b64_decode_at (int level, unsigned char *out, const char *text,
                        size_t len, size_t *n);

/* Whether codecs a and b write and read every value alike: the same
** functions over the same table, the radix family's compared by content
** (each scheme has its own instance of "dec" or "base62").  make.c; the
** inspector learns a form once for all its equals. */
int ids__codec_same (const ids_codec *a, const ids_codec *b);

/* CRC-32 of n bytes as zlib's crc32(0, p, n) (crc32.c); 0 for none. */
uint32_t ids__crc32 (const void *p, size_t n);

/* Does the process's interrupt check (ids_wait_interrupt) say to stop
** waiting?  wait.c; asked by every wait at least every 10 ms. */
int ids__interrupted (void);

/* What ids_options holds, for the generator and the registry. */
const ids_scheme *ids__options_scheme (const ids_options *o);
int ids__options_generator (const ids_options *o);  /* else: parameters */
const ids_optval *ids__options_values (const ids_options *o);
int ids__options_policy (const ids_options *o);         /* o may be NULL */
int64_t ids__options_ahead (const ids_options *o);      /* ms; o may be NULL */
int64_t ids__options_wait (const ids_options *o);       /* max_wait_ms */
int ids__options_step (const ids_options *o, int *given);  /* step "one" */
int ids__options_slots_given (const ids_options *o);
const char *ids__options_slots (const ids_options *o);
const char *ids__options_namespace (const ids_options *o);
/* The lease options (0: the store's default); 1 if slot_log is "keep". */
int ids__options_lease (const ids_options *o, int64_t *ttl_ms,
                        int64_t *timeout_ms);

/* What a generator makes of one of its scheme's own options.  options.c
** keeps the vocabulary (the names that carry a role, and how the others
** are found); the generator and define ask it, never compare names. */
typedef enum ids_optrole {
  IDS_ROLE_NONE,              /* read by no one here (a plugin's own) */
  IDS_ROLE_NODE,              /* an integer into the node field of its name */
  IDS_ROLE_HASHED,            /* a string hashed into the field whose
                                 `from` names it (SIQ's domain_name) */
  IDS_ROLE_QUALIFIER,         /* the default qualifier, by name */
  IDS_ROLE_EPOCH,             /* epoch_ms: the time field's epoch */
  IDS_ROLE_START              /* start_timestamp: Flux's monotonic start */
} ids_optrole;
/* The role of s's generator option i, and the field it sets (-1: none).
** Read when a generator is made, never per ID. */
/* define's kinds by name (layout.c); ends with a NULL name. */
typedef struct ids__kindname {
  const char *name;
  ids_kind kind;
  uint8_t once, carry, loose;           /* ids_field's */
} ids__kindname;
extern const ids__kindname ids__kinds[];

ids_optrole ids__options_role (const ids_scheme *s, int i, int *field);
/* Would a field of this name be read as a generator option, or could it
** never be set?  (define refuses it) */
int ids__options_reserved (const char *name);

/* The generator's side of a lease (core/slot/slot.c): the highest
** wall-clock time (ns) the holder's IDs carried, or 0 if it issued none.
** The release records it (at least the slot's floor) so that the next
** holder need not wait for the lease's limit. */
struct ids_slot;
/* The head of a lease, first in struct ids_slot (slot.c): the one word
** the ID path reads, here so that generators load it inline; outside the
** library ids_slot_limit reads it, and no public header names an atomic. */
typedef struct ids__slot_head {
  _Atomic int64_t limit;
} ids__slot_head;
static inline int64_t ids__slot_limit (const struct ids_slot *s) {
  return atomic_load_explicit(&((const ids__slot_head *)s)->limit,
                              memory_order_acquire);
}
void ids__slot_settle (struct ids_slot *s, int64_t used_ns);

#endif
