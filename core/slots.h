/*
** slots.h: node values (FLUID's generator, Snowflake's worker) handed out
** as leased slots.  A slot is a number in [0, 2^bits) of a namespace, held
** in a store: `local` (flock files on one host), `redis`, `etcd`.  The
** store is named by a URL-like string; backends are registered by name.
**
** The ID path sees one atomic word per lease (ids_slot_limit): claiming,
** renewing and releasing happen at creation, in a background thread and
** at close.  docs/SLOTS.md is the contract (lease rules, handover, fork).
**
** Compiles as C99 and as C++ (C++11 and later): the lease is opaque, its
** atomic word stays inside the library.
*/
#ifndef IDSCHEME_SLOTS_H
#define IDSCHEME_SLOTS_H

#include <stdint.h>

#include "idscheme.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IDS_SLOT_MAXBITS   16
#define IDS_SLOT_URLMAX    512     /* room for TLS file paths */
#define IDS_SLOT_NSMAX     64      /* namespace, with its NUL */
#define IDS_SLOT_NOTEMAX   256     /* a claim's warning, with its NUL */
/* How far another holder's clock may be ahead of ours for its record to
** be believed (the successor waits it out); a record further ahead than
** now + ttl + max_ahead_ms + this is corrupt (docs/SLOTS.md, rule 10). */
#define IDS_SLOT_SKEW_MS   60000

/* The low bits of the limit word count slot changes (see ids_slot_limit):
** the word stays below the limit by less than 2 * 2^16 ns (131 us), which
** only makes it earlier. */
#define IDS_SLOT_GENBITS   16
#define IDS_SLOT_GENMASK   ((int64_t)((1 << IDS_SLOT_GENBITS) - 1))

typedef struct ids_slot ids_slot;

/* Options of a claim; NULL or zero fields take the defaults. */
typedef struct ids_slot_options {
  int64_t ttl_ms;          /* lease time to live (10000; local: 2000) */
  int64_t margin_ms;       /* safe end = send + ttl - margin (ttl / 10) */
  int64_t timeout_ms;      /* each connect and request (2000) */
  int64_t clock_offset_ns; /* added to every CLOCK_REALTIME reading: tests
                              skew a holder's wall clock with it */
  int64_t log_interval_ms; /* at most one log line per lease per interval
                              (10000) */
  /* Where log lines go (NULL: stderr).  Called from the lease thread
  ** with the lease locked: it must not call ids_slot_* on that lease. */
  void (*log) (void *ctx, const char *line);
  void *log_ctx;
  /* How far ahead of their clocks the namespace's holders may issue IDs
  ** (their generators' max_ahead_ms; 0): a record further ahead than now
  ** + ttl + this + IDS_SLOT_SKEW_MS cannot be a holder's and is refused as
  ** corrupt (its slot is skipped, with a log line naming the key or
  ** file). */
  int64_t max_ahead_ms;
  /* Claim only slots k with (k & fixed_mask) == fixed_value: a slot
  ** number is a whole node value, whose bits the caller gave (a generator
  ** with some node fields given) are fixed.  0, 0: any slot. */
  uint32_t fixed_mask, fixed_value;
  /* What a slot number means (a generator: its node fields and widths,
  ** "worker:5,shard:5"; NULL: "N bits"), recorded in the namespace at its
  ** first claim: a claim of another meaning is refused (IDS_EINVAL), so
  ** that two slot spaces never share one namespace.  At most 63 bytes. */
  const char *meaning;
  int keep_log;            /* log lines kept for ids_slot_log_pop, not
                              written (the claim's own included) */
} ids_slot_options;

/* Claims a free slot of [0, 2^bits) (bits 1..16) in `ns` (NULL: "default";
** the generator passes its scheme's name) from the store `url`:
**   local | local:/dir | redis[s]://[user:password@]host[:port][/prefix] |
**   etcd[s]://[user:password@]host[:port][/prefix]   (TLS: ?ca=&cert=&key=)
** Waits at most about opt->timeout_ms per request.  On success *out holds
** a valid lease, renewed in the background until ids_slot_release.
** IDS_EINVAL (bad URL, namespace or bits), IDS_ENOENT (no such backend,
** a store this build was made without, or the stores' module that holds
** redis and etcd cannot be loaded: docs/SLOTS.md),
** IDS_ELEASE (unreachable, timed out, every slot taken), IDS_ENOMEM. */
IDS_API
int ids_slot_claim (const char *url, const char *ns, unsigned bits,
                    const ids_slot_options *opt, ids_slot **out,
                    ids_error *e);

/* Releases the slot (the store forgets it at once) and frees the lease.
** In a forked child it only frees memory: the parent's slot is not ours. */
IDS_API
void ids_slot_release (ids_slot *s);

/* The ID path: one acquire load (the library's generators load it
** inline).  The word is the wall-clock time (ns
** since 1970, CLOCK_REALTIME plus the clock offset) up to which IDs may
** carry timestamps, its low IDS_SLOT_GENBITS bits replaced by the slot
** generation; 0 when the lease is not valid now.  A generator:
**   w = ids_slot_limit(s);
**   if (t > w) refuse: ids_slot_fail(s, e);
**   if ((w & IDS_SLOT_GENMASK) != cached_gen) re-read ids_slot_state
**     (the slot number may have changed) and load the word again;
**   if (t <= cached_floor) wait or refuse: t is at or below the floor. */
IDS_API
int64_t ids_slot_limit (const ids_slot *s);

/* Slot number, floor (ns: issue no ID at or below it) and generation, read
** together.  Number and floor change only when the generation does. */
IDS_API
void ids_slot_state (const ids_slot *s, uint32_t *number, int64_t *floor_ns,
                     unsigned *gen);
IDS_API
uint32_t ids_slot_number (const ids_slot *s);
IDS_API
int64_t ids_slot_floor (const ids_slot *s);
IDS_API
const char *ids_slot_backend_name (const ids_slot *s);
IDS_API
const char *ids_slot_store (const ids_slot *s);   /* the URL as given */
/* Wall-clock now as this lease sees it (ns; the clock offset applied). */
IDS_API
int64_t ids_slot_now (const ids_slot *s);

/* May an ID carry the timestamp t_ns (wall clock, ns)?  0, or IDS_ELEASE
** with a message: past the limit, or at or below the floor (IDS_EFORK in
** a forked child).  A convenience: it locks the lease for the floor; the
** ID path reads the word as ids_slot_limit says. */
IDS_API
int ids_slot_check (const ids_slot *s, int64_t t_ns, ids_error *e);

/* Fills e with IDS_ELEASE naming the slot, the store and since when the
** store has not answered; returns IDS_ELEASE.  In a forked child (the
** lease is the parent's): IDS_EFORK, saying to claim slots after fork. */
IDS_API
int ids_slot_fail (const ids_slot *s, ids_error *e);

/* Lines the lease logged, kept instead of written when its holder asked
** (a generator's option slot_log = "keep"): the oldest first into line
** (n bytes, cut to fit); 1 if there was one.  At most IDS_SLOT_KEPT are
** kept: when more come, the oldest go. */
#define IDS_SLOT_KEPT  8
IDS_API
int ids_slot_log_pop (ids_slot *s, char *line, size_t n);

/* What the last claim warned of, into buf (n bytes), or "" (see
** ids_lease_info's caution). */
IDS_API
void ids_slot_caution (const ids_slot *s, char *buf, size_t n);

/* Counters and times, for tests and monitoring. */
typedef struct ids_slot_stats {
  int64_t last_send_ns;    /* wall clock at the send of the last successful
                              claim or renewal; its lease ends on the
                              server no earlier than this + ttl */
  int64_t ttl_ns, margin_ns;
  uint64_t renewals, failures, losses;
} ids_slot_stats;
IDS_API
void ids_slot_stats_get (const ids_slot *s, ids_slot_stats *st);

/* A generator's lease, read at once (the generator may be closed
** meanwhile on another thread): 1 with *out filled, or 0 if it holds no
** slot (every node field given, or closed). */
typedef struct ids_lease_info {
  uint32_t number;             /* the slot */
  const char *backend;         /* "local", "redis", "etcd" (static) */
  char store[IDS_SLOT_URLMAX]; /* the store's URL as given */
  int64_t limit_ns;            /* wall clock up to which IDs may be made
                                  now (the word without its generation
                                  bits); 0 while the lease is not valid */
  int64_t floor_ns;            /* no ID at or below it (previous holders) */
  ids_slot_stats st;
  char caution[IDS_SLOT_NOTEMAX]; /* what the last claim warned of (a record
                                  refused as corrupt, a store setting that
                                  may cost waits), or "" */
} ids_lease_info;
IDS_API
int ids_generator_lease (const ids_generator *g, ids_lease_info *out);
/* ids_slot_log_pop on the generator's lease (0 when it has none). */
IDS_API
int ids_generator_lease_log (const ids_generator *g, char *line, size_t n);

/* ----------------------------------------------------------- backends */

/* A store URL, parsed (core/slot/url.c). */
typedef struct ids_slot_url {
  char scheme[16];             /* the backend: "local", "redis", "etcd"
                                  (rediss:// and etcds:// name redis and
                                  etcd, with tls set) */
  char host[256];              /* empty for local */
  int port;                    /* 0 for local */
  char path[IDS_SLOT_URLMAX];  /* local: the directory; else the prefix */
  char text[IDS_SLOT_URLMAX];  /* the URL as given, for messages; a
                                  password in it reads "***" */
  char user[64];               /* the ACL user, or "" */
  char password[256];          /* the password, or "" (then the backend's
                                  environment variables, if set) */
  int tls;                     /* rediss:// or etcds:// */
  char ca[IDS_SLOT_URLMAX];    /* TLS: ?ca= the CA file, or "" (the
                                  system's trust store) */
  char cert[IDS_SLOT_URLMAX];  /* TLS: ?cert= a client certificate, or "" */
  char key[IDS_SLOT_URLMAX];   /* TLS: ?key= its private key, or "" (then
                                  the key is in the cert file) */
} ids_slot_url;

/* What a backend needs for one request. */
typedef struct ids_slot_req {
  const char *ns;              /* namespace */
  unsigned bits;               /* slots are [0, 2^bits) */
  const char *token;           /* this lease's random token (32 hex) */
  int64_t ttl_ms, timeout_ms;
  int64_t now_ns;              /* wall clock at the send (offset applied) */
  /* release only: the highest wall-clock time the holder's IDs carried
  ** (at least its floor), for a store to record as the slot's last limit
  ** instead of the lease's; -1 when the holder did not say */
  int64_t settle_ns;
  /* acquire only: claim no slot k unless (k & fixmask) == fixval; a
  ** record above max_floor_ns is corrupt: skip its slot; the namespace's
  ** meaning (slots.h, ids_slot_options) */
  uint32_t fixmask, fixval;
  int64_t max_floor_ns;
  const char *meaning;
  /* acquire only: a warning for the lease's log and state (a skipped
  ** slot, a store setting that costs waits), or left "" */
  char *note;
  size_t notelen;
} ids_slot_req;

/* A backend: one const table, like libsodium's randombytes_implementation.
** Each function works on its own handle `h` (one per lease), is called by
** one thread at a time, and fills e naming the store (u->text) on failure.
** Store failures (unreachable, timeout, bad reply) return IDS_ELEASE. */
typedef struct ids_slot_backend {
  const char *name;            /* required: the URL scheme */
  /* required: check the URL's host/path, make a handle; no store traffic
  ** is needed yet (a connection may be opened lazily). */
  int (*open) (const ids_slot_url *u, void **h, ids_error *e);
  /* required: claim the lowest free slot; *floor_ns = the wall-clock time
  ** at or below which the slot's previous holders may have issued IDs
  ** (0 if none).  The slot's lease must not be extended before renew. */
  int (*acquire) (void *h, const ids_slot_req *r, uint32_t *slot,
                  int64_t *floor_ns, ids_error *e);
  /* optional (NULL: the lease never expires, as local's flock): extend the
  ** lease by r->ttl_ms from now if `slot` is still ours (token check) and
  ** store `limit_ns` as the slot's value and its last limit.  0; IDS_ELEASE
  ** with *lost = 1 if the slot is no longer ours; IDS_ELEASE with *lost = 0
  ** if the store failed (we cannot tell). */
  int (*renew) (void *h, const ids_slot_req *r, uint32_t slot,
                int64_t limit_ns, int *lost, ids_error *e);
  /* required: give the slot back (best effort, bounded by the timeout),
  ** only if still ours. */
  void (*release) (void *h, const ids_slot_req *r, uint32_t slot);
  /* optional: in a forked child, drop what the parent holds without any
  ** store traffic and without undoing the parent's locks.  Async-signal-
  ** safe calls only (it runs in the pthread_atfork child handler). */
  void (*forget) (void *h);
  /* required: free the handle (after release or forget). */
  void (*close) (void *h);
} ids_slot_backend;

/* Registers a backend under its name: IDS_EEXIST if taken, IDS_EINVAL for
** a bad name or a missing required function.  local is registered on
** first use; redis and etcd (CMake's IDS_WITH_REDIS, IDS_WITH_ETCD), which
** live in the stores' module, when a claim first names one of them: until
** then ids_slot_find does not know them. */
IDS_API
int ids_slot_register (const ids_slot_backend *b);
IDS_API
const ids_slot_backend *ids_slot_find (const char *name);

/* Parses a store URL strictly; errors quote it. */
IDS_API
int ids_slot_parse_url (const char *url, ids_slot_url *u, ids_error *e);

#ifdef __cplusplus
}
#endif

#endif
