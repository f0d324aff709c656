/*
** module.c: the extension's settings, its errors, and a scheme by name.
*/
#include "pg_idscheme.h"

#include <ctype.h>
#include <limits.h>
#include <time.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/wait_event.h"

PG_MODULE_MAGIC;

char *pg_ids_slots;
char *pg_ids_namespace;
int pg_ids_policy = IDS_POLICY_HOLD;
int pg_ids_node = -1;
int pg_ids_max_wait_ms = IDS_MAX_WAIT_MS;
int pg_ids_slot_ttl_ms = 0;
unsigned pg_ids_settings_gen;

static const struct config_enum_entry policies[] = {
  {"hold", IDS_POLICY_HOLD, false},
  {"error", IDS_POLICY_ERROR, false},
  {NULL, 0, false}
};

/* Any change of a setting: generators compare theirs at their next call. */
static void changed (const char *v, void *extra) {
  (void)v, (void)extra;
  pg_ids_settings_gen++;
}
static void changed_int (int v, void *extra) {
  (void)v, (void)extra;
  pg_ids_settings_gen++;
}

/* ------------------------------------------------------------- waits */

/* The bound of the call now running (pg_ids_wait_begin): the smallest of
** idscheme.max_wait_ms, statement_timeout and lock_timeout, counted from
** the first time the library asks the check (the start of its wait). */
enum { BY_MAX_WAIT, BY_STATEMENT_TIMEOUT, BY_LOCK_TIMEOUT };
static int bound_ms, bound_by;
static int64 bound_start;           /* CLOCK_MONOTONIC ns; 0: not yet */
static bool bound_passed;

static int64 mono_ns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void pg_ids_wait_begin (void) {
  int b = pg_ids_max_wait_ms, by = BY_MAX_WAIT;
  if (StatementTimeout > 0 && StatementTimeout < b)
    b = StatementTimeout, by = BY_STATEMENT_TIMEOUT;
  if (LockTimeout > 0 && LockTimeout < b)
    b = LockTimeout, by = BY_LOCK_TIMEOUT;
  bound_ms = b;
  bound_by = by;
  bound_start = 0;
  bound_passed = false;
}

/* The library's interrupt check (ids_wait_interrupt), asked at least every
** 10 ms of any wait, on the backend's own thread: the call's bound has
** passed, or an interrupt is pending that may be served now (a cancel, a
** terminate, statement_timeout's, a barrier).  It only answers: the
** library returns IDS_EINTR and pg_ids_wait_interrupted serves it, so no
** longjmp ever crosses the library. */
static int interrupt_check (void *ctx) {
  int64 now = mono_ns();
  (void)ctx;
  if (bound_start == 0) {
    bound_start = now;
    /* pg_stat_activity: wait_event_type "Extension" until the call ends
    ** (pg_ids_wait_end, or the error's abort) */
    pgstat_report_wait_start(PG_WAIT_EXTENSION);
  }
  else if (now - bound_start >= (int64)bound_ms * 1000000) {
    bound_passed = true;
    return 1;
  }
  return INTERRUPTS_PENDING_CONDITION() && INTERRUPTS_CAN_BE_PROCESSED();
}

void pg_ids_wait_end (void) {
  if (bound_start != 0) pgstat_report_wait_end();
}

static void wait_context (void *arg) {
  errcontext("%s", (const char *)arg);
}

void pg_ids_wait_interrupted (const ids_error *e) {
  ErrorContextCallback cb;
  if (bound_passed) {
    /* as PostgreSQL says its own timeouts; max_wait_ms passes here only
    ** when served interrupts made the library start its wait again */
    if (bound_by == BY_STATEMENT_TIMEOUT)
      ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
                      errmsg("canceling statement due to statement timeout"),
                      errdetail("%s", e->msg)));
    ereport(ERROR, (errcode(ERRCODE_LOCK_NOT_AVAILABLE),
                    bound_by == BY_LOCK_TIMEOUT ?
                      errmsg("canceling statement due to lock timeout") :
                      errmsg("idscheme: waited idscheme.max_wait_ms (%d ms)",
                             bound_ms),
                    errdetail("%s", e->msg)));
  }
  /* PostgreSQL raises the cancel or the termination, naming the wait */
  cb.callback = wait_context;
  cb.arg = (void *)e->msg;
  cb.previous = error_context_stack;
  error_context_stack = &cb;
  CHECK_FOR_INTERRUPTS();
  error_context_stack = cb.previous;
  /* served without an error (a barrier, a request to log memory): the
  ** caller waits on, within the same bound */
}

/* DISCARD ALL and pg_advisory_unlock_all() release every session-level
** advisory lock of the backend, a node's too: the generators that hold one
** first wait until the clock has passed their last IDs
** (pg_ids_nodes_retire), so that whoever takes the node next starts above
** them.  (generate.c takes the node again at the next call.)  The function
** is hooked where PostgreSQL looks it up after this library was loaded;
** one looked up before (in a plan made earlier) releases without the
** wait, and the next call still sees the lock gone. */
static needs_fmgr_hook_type prev_needs_fmgr;
static fmgr_hook_type prev_fmgr;
static bool needs_fmgr (Oid fn) {
  return fn == F_PG_ADVISORY_UNLOCK_ALL ||
         (prev_needs_fmgr != NULL && prev_needs_fmgr(fn));
}
static void fmgr_event (FmgrHookEventType ev, FmgrInfo *fl, Datum *arg) {
  if (ev == FHET_START && fl->fn_oid == F_PG_ADVISORY_UNLOCK_ALL)
    pg_ids_nodes_retire();
  if (prev_fmgr != NULL) prev_fmgr(ev, fl, arg);
}

static ProcessUtility_hook_type prev_utility;
static void utility (PlannedStmt *pstmt, const char *query, bool ro,
                     ProcessUtilityContext ctx, ParamListInfo params,
                     QueryEnvironment *env, DestReceiver *dest,
                     QueryCompletion *qc) {
  Node *n = pstmt->utilityStmt;
  if (n != NULL && IsA(n, DiscardStmt) &&
      ((DiscardStmt *)n)->target == DISCARD_ALL)
    pg_ids_nodes_retire();
  if (prev_utility)
    prev_utility(pstmt, query, ro, ctx, params, env, dest, qc);
  else
    standard_ProcessUtility(pstmt, query, ro, ctx, params, env, dest, qc);
}

void _PG_init (void);
void _PG_init (void) {
  if (ids_init() != IDS_OK)
    ereport(ERROR, (errcode(ERRCODE_SYSTEM_ERROR),
                    errmsg("idscheme: the library failed to initialize "
                           "(libsodium)")));
  if (strcmp(ids_version(), IDS_VERSION) != 0)
    ereport(ERROR, (errcode(ERRCODE_SYSTEM_ERROR),
                    errmsg("idscheme: built against libidscheme %s, "
                           "loaded %s", IDS_VERSION, ids_version())));
  /* PGC_SUSET: postgresql.conf, ALTER SYSTEM, ALTER DATABASE/ROLE, or a
  ** superuser's SET; a slot is the store's to keep distinct, a node
  ** given by hand is held by one backend of the server at a time (an
  ** advisory lock of the cluster: generate.c).  The store's URL may hold
  ** a password (redis://user:secret@host): SHOW, current_setting() and
  ** pg_settings show it to superusers and pg_read_all_settings only
  ** (docs/POSTGRESQL.md: the secret belongs in the server's environment) */
  DefineCustomStringVariable("idscheme.slots",
    "Where generators lease their node value: a slot store.",
    "local, local:/dir, redis://host:port[/prefix], etcd://host:port"
    "[/prefix], or none (then idscheme.node must give it).",
    &pg_ids_slots, "local", PGC_SUSET, GUC_SUPERUSER_ONLY, NULL, changed,
    NULL);
  DefineCustomStringVariable("idscheme.slot_namespace",
    "The namespace of the slots (empty: each scheme's name).",
    "Servers whose generators of a scheme share a store and a namespace "
    "hold distinct node values.",
    &pg_ids_namespace, "", PGC_SUSET, 0, NULL, changed, NULL);
  DefineCustomEnumVariable("idscheme.policy",
    "What a generator does when the clock goes back: hold or error.",
    NULL, &pg_ids_policy, IDS_POLICY_HOLD, policies, PGC_SUSET, 0, NULL,
    changed_int, NULL);
  DefineCustomIntVariable("idscheme.node",
    "The node value given by hand (-1: lease a slot).",
    "Spread over a scheme's node fields as a slot number is, the least "
    "significant last.",
    &pg_ids_node, -1, -1, INT_MAX, PGC_SUSET, 0, NULL, changed_int, NULL);
  /* the generators' max_wait_ms: a wait that would pass it fails at once;
  ** anyone may shorten or lengthen their own waits */
  DefineCustomIntVariable("idscheme.max_wait_ms",
    "The longest a call waits for the clock or a slot (0: never wait).",
    "A wait that would pass it fails at once (SQLSTATE 55P03); "
    "statement_timeout and lock_timeout bound a wait too, when smaller.",
    &pg_ids_max_wait_ms, IDS_MAX_WAIT_MS, 0, 86400000, PGC_USERSET,
    GUC_UNIT_MS, NULL, changed_int, NULL);
  DefineCustomIntVariable("idscheme.slot_ttl_ms",
    "The slot leases' time to live (0: the store's default).",
    "Every client of a store's namespace must use the same TTL "
    "(docs/SLOTS.md, rule 7).",
    &pg_ids_slot_ttl_ms, 0, 0, 86400000, PGC_SUSET, GUC_UNIT_MS, NULL,
    changed_int, NULL);
  MarkGUCPrefixReserved("idscheme");
  /* every wait of the library answers a cancel, a termination and the
  ** timeouts (a process-wide check: set once, before any generator) */
  ids_wait_interrupt(interrupt_check, NULL);
  prev_utility = ProcessUtility_hook;
  ProcessUtility_hook = utility;
  prev_needs_fmgr = needs_fmgr_hook;
  needs_fmgr_hook = needs_fmgr;
  prev_fmgr = fmgr_hook;
  fmgr_hook = fmgr_event;
}

void pg_ids_raise (const ids_error *e, int einval) {
  int code;
  switch (e->code) {
  case IDS_EINVAL: code = einval; break;
  case IDS_ERANGE: code = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE; break;
  case IDS_ENOENT: code = ERRCODE_UNDEFINED_OBJECT; break;
  case IDS_EEXIST: code = ERRCODE_DUPLICATE_OBJECT; break;
  case IDS_ENOMEM: code = ERRCODE_OUT_OF_MEMORY; break;
  /* the generator cannot issue now: the clock went back under "error",
  ** its slot's lease is not valid (store unreachable, every slot taken) */
  case IDS_ECLOCK: case IDS_ELEASE: case IDS_EFORK:
    code = ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE; break;
  /* a wait that would pass max_wait_ms: what NOWAIT and lock_timeout
  ** raise, an error to retry later */
  case IDS_ETIME: code = ERRCODE_LOCK_NOT_AVAILABLE; break;
  /* an interrupted wait that no pending interrupt explains (generate.c
  ** serves the ones that do) */
  case IDS_EINTR: code = ERRCODE_QUERY_CANCELED; break;
  default: code = ERRCODE_INTERNAL_ERROR; break;
  }
  ereport(ERROR, (errcode(code), errmsg("%s", e->msg),
                  e->code == IDS_ETIME ?
                    errhint("idscheme.max_wait_ms bounds every wait of a "
                            "call (now %d ms).", pg_ids_max_wait_ms) : 0));
}

/* A name argument as a C string; a name longer than any scheme's is
** refused here, quoted. */
static void argname (FunctionCallInfo fcinfo, int arg, const char *what,
                     char *out) {
  text *t = PG_GETARG_TEXT_PP(arg);
  size_t n = VARSIZE_ANY_EXHDR(t);
  if (n == 0 || n >= IDS_NAMEMAX || memchr(VARDATA_ANY(t), '\0', n))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("no %s '%s'", what,
                           text_to_cstring(t))));
  memcpy(out, VARDATA_ANY(t), n);
  out[n] = '\0';
}

/* Schemes one name may answer to, at most ("uuid": every version). */
#define MAXANSWERING 32

/* What a call site keeps of its scheme argument. */
typedef struct site {
  char name[IDS_NAMEMAX];       /* "": none yet, or its lookup raised */
  const ids_scheme *s;
  unsigned defgen;              /* pg_ids_defgen() then: defined only */
  bool shipped;                 /* an IMMUTABLE variant: shipped only */
} site;

/* s opened with its default parameters, or raised. */
static const ids_scheme *opened (const ids_scheme *s) {
  ids_error e;
  if ((s = ids_scheme_open(s, NULL, &e)) == NULL)
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  return s;
}

size_t pg_ids_answering (const char *name, const ids_scheme **out,
                         size_t max) {
  const ids_scheme *s;
  size_t n, k = 0;
  if (max == 0) return 0;
  s = ids_scheme_find(name);
  /* a shipped scheme by its own name: no row may take it */
  if (s != NULL && !pg_ids_is_defined(s) && strcmp(s->name, name) == 0) {
    out[0] = opened(s);
    return 1;
  }
  /* a row by its name (a layout that changed under the session raises),
  ** unless the name is a shipped scheme's alias, which no row may take */
  if ((s == NULL || pg_ids_is_defined(s)) &&
      (s = pg_ids_defined(name)) != NULL) {
    out[0] = s;
    return 1;
  }
  /* an alias: of shipped schemes, and of the rows, every one of them
  ** defined in this backend first (a fresh session knows no row yet;
  ** the table is read again only after it changed) */
  pg_ids_define_all();
  n = ids_scheme_answering(name, out, max);
  for (size_t i = 0; i < n && i < max; i++) {
    /* a defined scheme answers only while its row is there */
    if (pg_ids_is_defined(out[i]) && pg_ids_defined(out[i]->name) == NULL)
      continue;
    out[k++] = opened(out[i]);
  }
  return k;
}

/* The shipped schemes a name answers to: its own, or every one its alias
** names; never a defined one, whatever the table holds. */
static size_t answering_shipped (const char *name, const ids_scheme **out,
                                 size_t max) {
  size_t n = ids_scheme_answering(name, out, max), k = 0;
  for (size_t i = 0; i < n && i < max; i++)
    if (!pg_ids_is_defined(out[i])) out[k++] = opened(out[i]);
  return k;
}

static const ids_scheme *lookup (const char *name, bool shipped) {
  const ids_scheme *found[MAXANSWERING];
  size_t n = shipped ? answering_shipped(name, found, MAXANSWERING)
                     : pg_ids_answering(name, found, MAXANSWERING);
  if (n == 1) return found[0];
  if (n > 1) {
    StringInfoData b;
    initStringInfo(&b);
    for (size_t i = 0; i < n; i++)
      appendStringInfo(&b, "%s%s", i ? ", " : "", found[i]->name);
    ereport(ERROR, (errcode(ERRCODE_AMBIGUOUS_PARAMETER),
                    errmsg("'%s' names %zu schemes: %s", name, n, b.data),
                    errhint("Name one of them.")));
  }
  if (shipped)
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                    errmsg("no shipped scheme '%s'", name),
                    errhint("The IMMUTABLE functions (idscheme_*_shipped) "
                            "read the shipped schemes only, whose layouts "
                            "never change; a defined layout is read by the "
                            "STABLE ones (idscheme_time, ...).")));
  ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                  errmsg("no scheme '%s'", name),
                  errhint("SELECT name FROM idscheme_schemes() lists them; "
                          "idscheme_defined holds the defined ones.")));
}

static site *site_of (FunctionCallInfo fcinfo) {
  if (fcinfo->flinfo->fn_extra == NULL)
    fcinfo->flinfo->fn_extra =
      MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(site));
  return fcinfo->flinfo->fn_extra;
}

void pg_ids_shipped_only (FunctionCallInfo fcinfo) {
  site_of(fcinfo)->shipped = true;
}

const ids_scheme *pg_ids_scheme (FunctionCallInfo fcinfo, int arg) {
  site *c = fcinfo->flinfo->fn_extra;
  char name[IDS_NAMEMAX];
  argname(fcinfo, arg, "scheme", name);
  if (c != NULL && c->name[0] != '\0' && strcmp(c->name, name) == 0 &&
      (c->shipped || !pg_ids_is_defined(c->s) ||
       c->defgen == pg_ids_defgen()))
    return c->s;
  c = site_of(fcinfo);
  /* forgotten first: a lookup that raises leaves no name beside a NULL */
  c->name[0] = '\0';
  c->s = NULL;
  c->s = lookup(name, c->shipped);
  strcpy(c->name, name);
  c->defgen = pg_ids_defgen();
  return c->s;
}

const ids_codec *pg_ids_codec (FunctionCallInfo fcinfo, int arg,
                               const ids_scheme *s) {
  const ids_codec *c;
  text *t;
  if (arg < 0 || PG_NARGS() <= arg || PG_ARGISNULL(arg)) return NULL;
  t = PG_GETARG_TEXT_PP(arg);
  c = ids_codec_find(s, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
  if (c == NULL) {
    StringInfoData b;
    initStringInfo(&b);
    for (int i = 0; i < s->ncodecs; i++)
      appendStringInfo(&b, "%s%s", i ? ", " : "", s->codecs[i]->name);
    /* no encoding's name begins with a digit: a time given as text
    ** reached idscheme_next(scheme, encoding), which PostgreSQL prefers
    ** for a literal of no type */
    if (VARSIZE_ANY_EXHDR(t) > 0 && isdigit((unsigned char)*VARDATA_ANY(t)))
      appendStringInfoString(&b, ". A time is given as a timestamptz: "
                             "idscheme_next(scheme, timestamptz '...')");
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s has no encoding '%s'", s->name,
                           text_to_cstring(t)),
                    errhint("Its encodings: %s.", b.data)));
  }
  return c;
}
