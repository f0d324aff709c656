/*
** generate.c: a generator per scheme in each backend, made at its first
** call (after the postmaster's fork), its node fields from a slot of its
** own unless idscheme.node gives them.  Why per backend and not one in
** shared memory: docs/POSTGRESQL.md, "One generator per backend".
**
** A node given by hand is held by one backend of the server at a time: a
** session-level advisory lock of the cluster (database 0) on the node
** value, taken before the generator is made and kept while any generator
** of the backend uses it; a generator that lets it go first waits until
** the clock has passed its last ID, so that the next holder starts above.
*/
#include "pg_idscheme.h"

#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lock.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
#include "utils/wait_event.h"

#include "slots.h"

/* A backend's generator of one scheme and the settings it was made with. */
typedef struct pggen {
  const ids_scheme *s;
  ids_generator *g;
  unsigned seen;                /* pg_ids_settings_gen when last compared */
  char *slots, *ns;
  int policy, node, maxwait, ttl;
  int locked;                   /* the node value it holds a lock on, -1 */
  bool haslast;
  ids_value last;               /* its last ID */
} pggen;

static pggen *gens;
static int ngens, capgens;

/* ---------------------------------------------------------- node locks */

/* The lock of node value n: an advisory lock whose database is 0 (the
** whole cluster; the SQL functions' advisory locks name the current
** database) and whose other fields say idscheme's node n.  In pg_locks:
** locktype 'advisory', database 0, classid NODE_CLASS, objid n, objsubid
** NODE_KIND. */
#define NODE_CLASS  0x69647363u       /* "idsc" */
#define NODE_KIND   0x4e44            /* "ND" */

/* How long a backend waits for a node whose holder is letting it go (a
** backend that is exiting, its client gone): then the error. */
#define NODE_GRACE_MS 1000

static void nodetag (LOCKTAG *t, int n) {
  SET_LOCKTAG_ADVISORY(*t, InvalidOid, NODE_CLASS, (uint32)n, NODE_KIND);
}

/* The node values this backend holds, each with its count of generators. */
typedef struct heldnode { int node, refs; } heldnode;
static heldnode *held;
static int nheld, capheld;

static heldnode *findheld (int n) {
  for (int i = 0; i < nheld; i++)
    if (held[i].node == n) return &held[i];
  return NULL;
}

/* The pid of another backend that holds node n's lock, or 0. */
static int holder (const LOCKTAG *t) {
  LockData *d = GetLockStatusData();
  for (int i = 0; i < d->nelements; i++) {
    const LockInstanceData *x = &d->locks[i];
    if (x->holdMask != 0 && x->pid != MyProcPid &&
        x->locktag.locktag_type == t->locktag_type &&
        x->locktag.locktag_lockmethodid == t->locktag_lockmethodid &&
        x->locktag.locktag_field1 == t->locktag_field1 &&
        x->locktag.locktag_field2 == t->locktag_field2 &&
        x->locktag.locktag_field3 == t->locktag_field3 &&
        x->locktag.locktag_field4 == t->locktag_field4)
      return x->pid;
  }
  return 0;
}

/* Takes node n's lock for this backend if it does not hold it (waiting
** NODE_GRACE_MS for a holder that is letting it go), or raises naming the
** holder. */
static void lock_node (int n) {
  LOCKTAG t;
  int64 waited = 0;
  nodetag(&t, n);
  if (LockHeldByMe(&t, ExclusiveLock)) return;
  while (LockAcquire(&t, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL) {
    int pid;
    if (waited < NODE_GRACE_MS) {
      (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
                      10, PG_WAIT_EXTENSION);
      ResetLatch(MyLatch);
      CHECK_FOR_INTERRUPTS();
      waited += 10;
      continue;
    }
    pid = holder(&t);
    ereport(ERROR,
      (errcode(ERRCODE_OBJECT_IN_USE),
       pid ? errmsg("idscheme.node = %d is in use by another backend "
                    "(pid %d)", n, pid)
           : errmsg("idscheme.node = %d is in use by another backend", n),
       errdetail("A node value given by hand is held by one backend of the "
                 "server at a time, for as long as its generators live: two "
                 "backends with one node would make the same IDs."),
       errhint("Give each session a node of its own (SET idscheme.node), "
               "or let backends lease their nodes from a slot store "
               "(idscheme.node = -1, idscheme.slots).")));
  }
}

/* One more generator of this backend uses node n: its lock taken. */
static void take_node (int n) {
  heldnode *h = findheld(n);
  lock_node(n);                             /* again, if it was let go */
  if (h != NULL) {
    h->refs++;
    return;
  }
  if (nheld == capheld) {
    int cap = capheld ? capheld * 2 : 4;
    held = held ? repalloc(held, cap * sizeof *held)
                : MemoryContextAlloc(TopMemoryContext, cap * sizeof *held);
    capheld = cap;
  }
  held[nheld].node = n;
  held[nheld].refs = 1;
  nheld++;
}

/* One generator fewer uses node n: the last lets the lock go. */
static void drop_node (int n) {
  heldnode *h = findheld(n);
  LOCKTAG t;
  if (h == NULL || --h->refs > 0) return;
  *h = held[--nheld];
  nodetag(&t, n);
  if (LockHeldByMe(&t, ExclusiveLock)) LockRelease(&t, ExclusiveLock, true);
}

/* Does this backend still hold node n?  pg_advisory_unlock_all() and
** DISCARD ALL release every session-level advisory lock of a backend. */
static bool holds_node (int n) {
  LOCKTAG t;
  nodetag(&t, n);
  return LockHeldByMe(&t, ExclusiveLock);
}

static int64 real_ns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits until the wall clock has passed the tick of p's last ID, so that
** whoever makes IDs with its node next (another backend that takes the
** node, or this backend's next generator) starts above it: at most
** `bound` ms, then an error, or at exit a line in the log. */
static void retire (pggen *p, bool exiting) {
  int64 sec, end, bound;
  int32 nsec;
  if (p->locked < 0 || !p->haslast ||
      !ids_scheme_time(p->s, &p->last, &sec, &nsec))
    return;
  /* the end of its tick: its time is the tick's start */
  end = sec * 1000000000 + nsec +
        (int64)((p->s->unit.per_sec_den * UINT64_C(1000000000) +
                 p->s->unit.per_sec_num - 1) / p->s->unit.per_sec_num);
  bound = exiting ? 1000 : pg_ids_max_wait_ms;
  if (end - real_ns() > bound * INT64CONST(1000000)) {
    if (exiting) {
      elog(LOG, "idscheme: node %d let go %.3f s before the clock passes "
           "%s's last ID", p->locked, (end - real_ns()) / 1e9, p->s->name);
      return;
    }
    ereport(ERROR, (errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                    errmsg("%s: waiting %.3f s for the clock to pass the "
                           "last ID of node %d would pass "
                           "idscheme.max_wait_ms (%d)", p->s->name,
                           (end - real_ns()) / 1e9, p->locked,
                           pg_ids_max_wait_ms)));
  }
  for (int64 left; (left = end - real_ns()) > 0;) {
    long ms = (long)(left / 1000000) + 1;
    if (exiting) {
      pg_usleep(ms > 10 ? 10000 : ms * 1000);
      continue;
    }
    (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
                    ms > 10 ? 10 : ms, PG_WAIT_EXTENSION);
    ResetLatch(MyLatch);
    CHECK_FOR_INTERRUPTS();
  }
}

void pg_ids_nodes_retire (void) {
  for (int i = 0; i < ngens; i++)
    if (gens[i].g) retire(&gens[i], false);
}

/* Before the backend lets its locks go at exit (ShutdownPostgres, which
** was registered before this, runs after it). */
static void retireall (int code, Datum arg) {
  (void)code, (void)arg;
  for (int i = 0; i < ngens; i++)
    if (gens[i].g) retire(&gens[i], true);
}

/* Every generator closed: slots released (their last times recorded for
** the next holder) when the backend exits. */
static void closeall (int code, Datum arg) {
  (void)code, (void)arg;
  for (int i = 0; i < ngens; i++)
    if (gens[i].g) ids_generator_close(gens[i].g);
  ngens = 0;
}

static bool same_settings (const pggen *p) {
  return strcmp(p->slots, pg_ids_slots) == 0 &&
         strcmp(p->ns, pg_ids_namespace) == 0 &&
         p->policy == pg_ids_policy && p->node == pg_ids_node &&
         p->maxwait == pg_ids_max_wait_ms && p->ttl == pg_ids_slot_ttl_ms;
}

/* idscheme.node over s's node fields, least significant last, as a slot
** number is spread; every node field is then given.  The node bits s has
** (0: none, the node is not s's concern). */
static unsigned setnode (ids_options *o, const ids_scheme *s, int node) {
  uint64_t rest = (uint64_t)node;
  unsigned bits = 0;
  ids_error e;
  for (int i = s->ngenopts - 1; i >= 0; i--) {
    const ids_optdef *d = &s->genopts[i];
    int f = ids_scheme_field(s, d->name);
    const ids_field *fl;
    uint64_t x;
    if (d->type != IDS_OPT_INT || f < 0 ||
        s->fields[f].kind != IDS_KIND_NODE)
      continue;
    fl = &s->fields[f];
    x = fl->bits >= 64 ? rest : rest & ((UINT64_C(1) << fl->bits) - 1);
    rest = fl->bits >= 64 ? 0 : rest >> fl->bits;
    bits += fl->bits;
    if (ids_options_set_int(o, d->name, strlen(d->name), (int64_t)x, &e) !=
        IDS_OK)
      pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  }
  if (bits != 0 && rest != 0)               /* no node fields: nothing to give */
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("idscheme.node = %d does not fit %s's %u node "
                           "bits", node, s->name, bits)));
  return bits;
}

/* p, without a generator, lets its node go. */
static void unlock_gen (pggen *p) {
  if (p->locked >= 0) drop_node(p->locked);
  p->locked = -1;
}

/* p's node, kept from its last generator: taken again if DISCARD ALL or
** pg_advisory_unlock_all() let it go meanwhile, or let go of. */
static void keep_node (pggen *p) {
  PG_TRY();
  {
    lock_node(p->locked);
  }
  PG_CATCH();
  {
    unlock_gen(p);
    PG_RE_THROW();
  }
  PG_END_TRY();
}

/* Makes p's generator with the settings now; on an error p holds none
** (and no node lock).  A node given by hand is locked first. */
static void make (pggen *p) {
  ids_options o;
  ids_error e;
  ids_generator *g;
  const char *pol = pg_ids_policy == IDS_POLICY_ERROR ? "error" : "hold";
  unsigned bits = 0, given = 0;
  int want = -1, r;
  for (int i = 0; i < p->s->nfields; i++)
    if (p->s->fields[i].kind == IDS_KIND_NODE) bits += p->s->fields[i].bits;
  ids_options_init(&o, p->s);
  if (pg_ids_node >= 0 && (given = setnode(&o, p->s, pg_ids_node)) != 0)
    want = pg_ids_node;
  /* the lease's options only where a slot fills node fields: the library
  ** refuses a lease beside a node given whole */
  if (given < bits &&
      (ids_options_set_string(&o, "slots", 5, pg_ids_slots,
                              strlen(pg_ids_slots), &e) != IDS_OK ||
       (pg_ids_namespace[0] != '\0' &&
        ids_options_set_string(&o, "slot_namespace", 14, pg_ids_namespace,
                               strlen(pg_ids_namespace), &e) != IDS_OK) ||
       (pg_ids_slot_ttl_ms > 0 &&
        ids_options_set_int(&o, "slot_ttl_ms", 11, pg_ids_slot_ttl_ms, &e) !=
          IDS_OK)))
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  if (ids_options_set_string(&o, "policy", 6, pol, strlen(pol), &e) != IDS_OK ||
      ids_options_set_int(&o, "max_wait_ms", 11, pg_ids_max_wait_ms, &e) !=
        IDS_OK)
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  /* the node's lock before the generator: a lock kept from the last
  ** generator of the same node is kept (retired already) */
  if (p->locked >= 0 && p->locked != want) {
    drop_node(p->locked);
    p->locked = -1;
  }
  if (want >= 0 && p->locked != want) {
    take_node(want);                            /* raises: none held */
    p->locked = want;
  }
  else if (want >= 0) keep_node(p);
  /* malloc'd, aligned for the atomic state (a 16-byte CAS where the
  ** state is two words): palloc gives 8 */
  if ((g = aligned_alloc(64, sizeof *g)) == NULL) {
    unlock_gen(p);
    ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
  }
  while ((r = ids_generator_init(g, p->s, &o, NULL, &e)) != IDS_OK) {
    PG_TRY();
    {
      if (r != IDS_EINTR) pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
      pg_ids_wait_interrupted(&e);   /* a claim that waited: raises, or on */
    }
    PG_CATCH();
    {
      free(g);
      unlock_gen(p);
      PG_RE_THROW();
    }
    PG_END_TRY();
  }
  if (p->slots) pfree(p->slots);
  if (p->ns) pfree(p->ns);
  p->slots = MemoryContextStrdup(TopMemoryContext, pg_ids_slots);
  p->ns = MemoryContextStrdup(TopMemoryContext, pg_ids_namespace);
  p->policy = pg_ids_policy;
  p->node = pg_ids_node;
  p->maxwait = pg_ids_max_wait_ms;
  p->ttl = pg_ids_slot_ttl_ms;
  p->seen = pg_ids_settings_gen;
  p->haslast = false;
  p->g = g;
}

/* p's generator goes: it let its node go above its last ID (retire
** first, which may raise: then it stays). */
static void unmake (pggen *p, bool lost) {
  if (!lost) retire(p, false);
  ids_generator_close(p->g);
  free(p->g);
  p->g = NULL;
  if (lost && p->locked >= 0) {
    drop_node(p->locked);
    p->locked = -1;
  }
}

/* p's node, after a DISCARD ALL or pg_advisory_unlock_all() let its lock
** go: taken again, or the generator goes and the call raises. */
static void relock (pggen *p) {
  PG_TRY();
  {
    lock_node(p->locked);
  }
  PG_CATCH();
  {
    /* another backend has the node now: this generator makes no more */
    for (int i = 0; i < ngens; i++)
      if (gens[i].g && gens[i].locked == p->locked && &gens[i] != p)
        unmake(&gens[i], true);
    unmake(p, true);
    PG_RE_THROW();
  }
  PG_END_TRY();
}

/* This backend's generator of s, made or remade as the settings say. */
static pggen *generator (const ids_scheme *s) {
  pggen *p = NULL;
  for (int i = 0; i < ngens; i++)
    if (gens[i].s == s) { p = &gens[i]; break; }
  if (p != NULL && p->g != NULL && p->seen == pg_ids_settings_gen) {
    if (p->locked >= 0 && !holds_node(p->locked)) relock(p);
    return p;
  }
  if (p == NULL) {
    if (gens == NULL) {
      on_proc_exit(closeall, 0);
      before_shmem_exit(retireall, 0);
    }
    if (ngens == capgens) {
      int cap = capgens ? capgens * 2 : 8;
      gens = gens ? repalloc(gens, cap * sizeof *gens)
                  : MemoryContextAllocZero(TopMemoryContext,
                                           cap * sizeof *gens);
      memset(gens + capgens, 0, (cap - capgens) * sizeof *gens);
      capgens = cap;
    }
    p = &gens[ngens++];
    p->s = s;
    p->locked = -1;
  }
  else if (p->g != NULL) {
    if (same_settings(p)) {
      p->seen = pg_ids_settings_gen;
      if (p->locked >= 0 && !holds_node(p->locked)) relock(p);
      return p;
    }
    /* the settings changed: the old slot is released (its last time
    ** recorded, so that its next holder starts above it) first, and a
    ** node given by hand is let go above its last ID (kept if the
    ** next generator has it too) */
    unmake(p, false);
    if (p->locked >= 0 && p->locked != pg_ids_node) {
      drop_node(p->locked);
      p->locked = -1;
    }
  }
  make(p);
  return p;
}

/* The next ID of s, waiting at most as pg_ids_wait_begin says. */
static void next (const ids_scheme *s, ids_value *v) {
  ids_error e;
  pggen *p;
  int r;
  pg_ids_wait_begin();
  p = generator(s);
  while ((r = ids_generator_next(p->g, v, &e)) != IDS_OK) {
    if (r != IDS_EINTR)
      pg_ids_raise(&e, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE);
    pg_ids_wait_interrupted(&e);           /* raises, or waits on */
  }
  pg_ids_wait_end();
  p->last = *v;
  p->haslast = true;
}

/* An ID of s whose time is the timestamptz argument `arg`, from this
** backend's generator of s (ids_generator_next_at; docs/POSTGRESQL.md,
** "IDs for a given time"): a layout with a random part draws fresh bits
** beside the time; one with a sequence alone counts a sequence of its own
** in this generator, for past times given in order, its node given by
** hand.  The generator's last ID (which a node let go waits past) stays:
** these IDs are random, or in the past.  An error quotes the time as the
** caller's session writes it. */
static void next_at (FunctionCallInfo fcinfo, int arg, const ids_scheme *s,
                     ids_value *v) {
  TimestampTz at = PG_GETARG_TIMESTAMPTZ(arg);
  ids_error e;
  const char *why;
  size_t skip;
  int r;
  if (TIMESTAMP_NOT_FINITE(at))
    r = ids_fail(&e, IDS_ERANGE, "no time field holds it");
  else {
    /* microseconds since 2000 to Unix ms, floored (before 1970 too) */
    int64 ms = at / 1000 - (at % 1000 < 0) +
               (int64)(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) *
               SECS_PER_DAY * 1000;
    pg_ids_wait_begin();
    r = ids_generator_next_at(generator(s)->g, ms, v, &e);
    pg_ids_wait_end();
  }
  if (r == IDS_OK) return;
  if (r != IDS_ERANGE && r != IDS_EINVAL)
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  /* the library's reason, without its "scheme: next_at: " */
  why = e.msg;
  skip = strlen(s->name);
  if (strncmp(why, s->name, skip) == 0 &&
      strncmp(why + skip, ": next_at: ", 11) == 0)
    why += skip + 11;
  ereport(ERROR,
    (errcode(r == IDS_ERANGE ? ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE
                             : ERRCODE_INVALID_PARAMETER_VALUE),
     errmsg("%s: at '%s': %s", s->name,
            DatumGetCString(DirectFunctionCall1(timestamptz_out,
                                                TimestampTzGetDatum(at))),
            why)));
}

static Datum as_text (const ids_scheme *s, const ids_codec *c,
                      const ids_value *v) {
  char out[IDS_TEXTMAX];
  size_t n = ids_scheme_encode(s, c, v, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int)n));
}

/* s's IDs as bigint: refused for a scheme wider than 64 bits, before an
** ID is made */
static void bigint_scheme (const ids_scheme *s) {
  if (s->bits > 64)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bits: no bigint holds them", s->name,
                           (unsigned)s->bits),
                    errhint(s->bits == 128 ? "idscheme_next_uuid gives them "
                            "as uuid, idscheme_next as text." :
                            "idscheme_next gives them as text.")));
}

static Datum as_bigint (const ids_scheme *s, const ids_value *v) {
  if (v->w[0] > (uint64_t)INT64_MAX)
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s ID %" PRIu64 " is above bigint's largest "
                           "value", s->name, v->w[0])));
  return Int64GetDatum((int64)v->w[0]);
}

static void uuid_scheme (const ids_scheme *s) {
  if (s->bytes != UUID_LEN)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bytes: a uuid holds 16", s->name,
                           (unsigned)s->bytes),
                    errhint("idscheme_next gives them as text.")));
}

static Datum as_uuid (const ids_value *v) {
  pg_uuid_t *u = palloc(sizeof *u);
  ids_value_to_bytes(v, u->data, UUID_LEN);
  PG_RETURN_UUID_P(u);
}

PG_FUNCTION_INFO_V1(idscheme_next);
Datum idscheme_next (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  const ids_codec *c;
  ids_value v;
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  c = pg_ids_codec(fcinfo, 1, s);
  next(s, &v);
  return as_text(s, c, &v);
}

PG_FUNCTION_INFO_V1(idscheme_next_bigint);
Datum idscheme_next_bigint (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  bigint_scheme(s);
  next(s, &v);
  return as_bigint(s, &v);
}

PG_FUNCTION_INFO_V1(idscheme_next_uuid);
Datum idscheme_next_uuid (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  uuid_scheme(s);
  next(s, &v);
  return as_uuid(&v);
}

/* The same for a given time: idscheme_next(scheme, at, encoding),
** idscheme_next_bigint(scheme, at), idscheme_next_uuid(scheme, at). */
PG_FUNCTION_INFO_V1(idscheme_next_at);
Datum idscheme_next_at (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  const ids_codec *c;
  ids_value v;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  c = pg_ids_codec(fcinfo, 2, s);
  next_at(fcinfo, 1, s, &v);
  return as_text(s, c, &v);
}

PG_FUNCTION_INFO_V1(idscheme_next_bigint_at);
Datum idscheme_next_bigint_at (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  bigint_scheme(s);
  next_at(fcinfo, 1, s, &v);
  return as_bigint(s, &v);
}

PG_FUNCTION_INFO_V1(idscheme_next_uuid_at);
Datum idscheme_next_uuid_at (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  uuid_scheme(s);
  next_at(fcinfo, 1, s, &v);
  return as_uuid(&v);
}

PG_FUNCTION_INFO_V1(idscheme_generator);
Datum idscheme_generator (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_generator *g;
  ids_lease_info li;
  TupleDesc td;
  Datum d[3];
  bool nulls[3] = {false, false, false};
  if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
    elog(ERROR, "idscheme_generator: the result is not a row");
  pg_ids_wait_begin();
  g = generator(s)->g;
  pg_ids_wait_end();
  if (ids_generator_lease(g, &li)) {
    d[0] = Int32GetDatum((int32)li.number);
    d[1] = CStringGetTextDatum(li.store);
    d[2] = CStringGetTextDatum(li.backend);
  }
  else nulls[0] = nulls[1] = nulls[2] = true;
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(td), d,
                                                    nulls)));
}
