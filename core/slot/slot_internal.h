/*
** slot_internal.h: what the slot room's files share (not public).
*/
#ifndef IDS_SLOT_INTERNAL_H
#define IDS_SLOT_INTERNAL_H

#include <stddef.h>

#include "slots.h"

/* Not exported from the shared library: the room's own business. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

extern const ids_slot_backend ids__slot_local;
/* In the stores' module (stores.c), not in the core. */
extern const ids_slot_backend ids__slot_redis;
extern const ids_slot_backend ids__slot_etcd;

/* The stores' module: redis and etcd with the libraries they need
** (hiredis, OpenSSL, libcurl, cJSON: some 30 shared objects, whose
** loading cost every process ~15 ms), built as a module of its own and
** opened by the first claim that names one of them (module.c).  Its one
** export, IDS_SLOT_MODULE_SYMBOL, is this table, as libsodium's
** randombytes_implementation: abi and version come first and never move,
** so that any module's can be read; the rest only when abi is ours.
** Bump IDS_SLOT_MODULE_ABI whenever what the core and the module pass
** each other changes: this table, ids_slot_backend, ids_slot_url,
** ids_slot_req or ids_error. */
#define IDS_SLOT_MODULE_ABI     1
#define IDS_SLOT_MODULE_SYMBOL  "ids_slot_stores"
typedef struct ids_slot_module {
  unsigned abi;                /* IDS_SLOT_MODULE_ABI as the module saw it */
  const char *version;         /* IDS_VERSION it was built from */
  const ids_slot_backend *const *backends;   /* NULL-terminated */
} ids_slot_module;

/* The module's backends, the module opened on the first call (later
** calls return the same); NULL with e naming u's store, the path tried
** and why, if it cannot be opened or is not ours (module.c). */
const ids_slot_backend *const *ids__slot_stores (const ids_slot_url *u,
                                                 ids_error *e);

/* Key names of a slot in a networked store, under `prefix/ns/`:
**   slot/NNNNN   the lease: "token limit_ns" (expires with the lease)
**   last/NNNNN   the highest limit any holder stored (never expires)
**   epoch        wall-clock ns when this store's slot history began */
int ids__slot_key (char *out, size_t n, const char *prefix, const char *ns,
                   const char *kind, long slot);

/* The slots a claim may take: k of [0, 2^bits) whose fixed bits are the
** caller's (ids_slot_options' fixed_mask and fixed_value); how many. */
static inline int ids__slot_ours (const ids_slot_req *r, uint32_t k) {
  return (k & r->fixmask) == r->fixval;
}
unsigned long ids__slot_candidates (const ids_slot_req *r);
/* Says in r->note that a slot was skipped: `what` (its key or file) and
** why (IDS_SLOT_CORRUPT for a record past any holder's limit). */
void ids__slot_skipped (const ids_slot_req *r, const char *what,
                        const char *why);
#define IDS_SLOT_CORRUPT "holds a time past any holder's limit: corrupt " \
  "(delete it if no clock was ever that far ahead)"


/* Wall-clock ns as 20 zero-padded digits: stored values compare as
** strings the way they compare as numbers. */
void ids__slot_fmt_ns (char out[21], int64_t ns);
/* Parses what ids__slot_fmt_ns (or any decimal) wrote; -1 if malformed. */
int64_t ids__slot_parse_ns (const char *s, size_t n);

/* How messages name a store: how many bytes of u->text to print (the URL
** up to its TLS query, whose file paths would crowd the reason out of
** IDS_ERRMAX, and at most 80), for "%.*s" (keys.c). */
int ids__slot_shown (const ids_slot_url *u);

/* etcd JSON replies (slot_etcd.c), exposed for the fuzz harness. */
enum { IDS_ETCD_GRANT, IDS_ETCD_KEEPALIVE, IDS_ETCD_TXN, IDS_ETCD_RANGE };
typedef struct ids__etcd_reply {
  int ok;                /* no "error" member */
  uint64_t member, cluster;  /* the header's member_id, cluster_id (0 if
                            absent or malformed) */
  int64_t id, ttl;       /* grant, keepalive: lease ID and TTL (s) */
  int succeeded;         /* txn */
  int nvalues;           /* txn: values found by its range responses */
  int64_t values[4];     /* ... parsed as ns (-1 if malformed) */
  int nkeys;             /* range: keys found */
  unsigned char *taken;  /* range: if not NULL, taken[slot] = 1 for each
                            key ".../slot/N" with N < ntaken */
  size_t ntaken;
} ids__etcd_reply;
int ids__etcd_parse (const char *body, size_t n, int kind,
                     ids__etcd_reply *r);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
