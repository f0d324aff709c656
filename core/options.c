/*
** options.c: scheme parameters and generator options by name, the one
** place where their names, types and ranges are checked.  The binding and
** the command translate their own forms (a Lua table, NAME=VALUE words)
** into these calls.  String values are copied, so that a caller need not
** keep them alive.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Options every generator takes, whatever its scheme. */
static const ids_optdef generic[] = {
  {"policy", IDS_OPT_STR, 0, 0, 0},
  {"max_ahead_ms", IDS_OPT_INT, 0, 3600000, 0},
  /* how long one call may wait for the clock (idscheme.h) */
  {"max_wait_ms", IDS_OPT_INT, 0, 86400000, IDS_MAX_WAIT_MS},
  {"slots", IDS_OPT_STR, 0, 0, 0},
  {"slot_namespace", IDS_OPT_STR, 0, 0, 0},
  /* the lease (docs/SLOTS.md, Options); not given: the store's default;
  ** the margin is a tenth of the ttl (ids_slot_options sets it apart) */
  {"slot_ttl_ms", IDS_OPT_INT, 1, 86400000, 0},
  {"slot_timeout_ms", IDS_OPT_INT, 1, 600000, 0},
  {"slot_log", IDS_OPT_STR, 0, 0, 0},
  /* step mode (ULID, KSUID, Flax): within a tick the random field grows
  ** by a random step (default), or by one, as the ULID spec's monotonic
  ** factory does */
  {"step", IDS_OPT_STR, 0, 0, 0},
};
enum { G_POLICY, G_AHEAD, G_WAIT, G_SLOTS, G_NAMESPACE, G_TTL, G_TIMEOUT, G_LOG,
       G_STEP, NGENERIC };
_Static_assert(NGENERIC == sizeof generic / sizeof *generic,
               "one enum name per generic option");

/* Options a scheme may declare (with its own range and default) whose
** name gives them their role; the type is part of it: an option of the
** name but the other type is not read as one.  Any other option of a
** scheme is the node field of its name (an integer) or hashed into the
** field whose `from` names it (a string: "domain_name"; such names end
** in HASHED_SUFFIX).  These, the generic options and that suffix are the
** whole vocabulary: define reserves every name in it. */
static const struct {
  const char *name;
  ids_opttype type;
  ids_optrole role;
} roles[] = {
  {"qualifier", IDS_OPT_STR, IDS_ROLE_QUALIFIER},
  {"epoch_ms", IDS_OPT_INT, IDS_ROLE_EPOCH},
  {"start_timestamp", IDS_OPT_INT, IDS_ROLE_START},
};
#define HASHED_SUFFIX "_name"

static const char *const policies[] = {"hold", "error"};
/* slot_log: the lease's lines to stderr, or kept for the caller to read
** (ids_generator_lease_log; Lua g:lease().log) */
static const char *const logs[] = {"stderr", "keep"};
/* step: the random step (default) or one */
static const char *const steps[] = {"random", "one"};

typedef struct optset {
  const ids_scheme *s;
  const ids_optdef *defs;       /* the scheme's own */
  ids_optval v[IDS_MAXOPTS];    /* the scheme's, indexed like defs */
  ids_optval g[NGENERIC];
  int ndefs;
  uint16_t used;                /* of buf */
  uint8_t generator;            /* generator options (else parameters) */
  uint8_t policy;
  uint8_t keeplog;              /* slot_log "keep" */
  uint8_t stepone;              /* step "one" */
  char buf[IDS_OPTBUF];         /* copies of string values */
} optset;

_Static_assert(sizeof(optset) <= sizeof(ids_options),
               "ids_options too small for optset");

#define OS(o) ((optset *)(void *)(o))
#define COS(o) ((const optset *)(const void *)(o))

static void init (ids_options *o, const ids_scheme *s, int generator) {
  optset *os = OS(o);
  memset(os, 0, sizeof *os);
  os->s = s;
  os->generator = generator;
  os->defs = generator ? s->genopts : s->params;
  os->ndefs = generator ? s->ngenopts : s->nparams;
  os->policy = IDS_POLICY_HOLD;
}

void ids_options_init (ids_options *o, const ids_scheme *s) { init(o, s, 1); }
void ids_params_init (ids_options *o, const ids_scheme *s) { init(o, s, 0); }

static const char *what (const optset *os) {
  return os->generator ? "generator option" : "parameter";
}

const char *ids_options_name (const ids_options *o, int i) {
  const optset *os = COS(o);
  if (i < 0) return NULL;
  if (i < os->ndefs) return os->defs[i].name;
  i -= os->ndefs;
  return os->generator && i < NGENERIC ? generic[i].name : NULL;
}

/* " (valid names: a b c)" or " (it has none)" into list, for an error
** message of at most IDS_ERRMAX bytes that begins with `used` of them:
** whole names only, then " ...)" where the rest would not fit (the
** command's info lists them all). */
static const char *validnames (const ids_options *o, char *list,
                               size_t cap, size_t used) {
  const char *nm;
  size_t k = 0, all = 0, room = IDS_ERRMAX - 1 > used ? IDS_ERRMAX - 1 - used
                                                      : 0;
  int i, cut;
  if (room > cap - 1) room = cap - 1;
  for (i = 0; (nm = ids_options_name(o, i)) != NULL; i++)
    all += strlen(i ? " " : " (valid names: ") + strlen(nm);
  if (i == 0) return " (it has none)";
  cut = all + 1 > room;                /* then keep room for " ...)" */
  for (i = 0; (nm = ids_options_name(o, i)) != NULL; i++) {
    const char *sep = i ? " " : " (valid names: ";
    if (k + strlen(sep) + strlen(nm) + (cut ? 5 : 1) > room) break;
    k += (size_t)snprintf(list + k, cap - k, "%s%s", sep, nm);
  }
  if (k == 0) return " (its info lists the valid names)";
  memcpy(list + k, cut ? " ...)" : ")", cut ? 6 : 2);
  return list;
}

/* The definition and value slot of a name, or NULL with an error. */
static ids_optval *find (optset *os, const char *name, size_t len,
                         const ids_optdef **d, ids_error *e) {
  char q[IDS_NAMEMAX + 8], names[IDS_ERRMAX];
  for (int i = 0; i < os->ndefs; i++)
    if (strlen(os->defs[i].name) == len &&
        memcmp(os->defs[i].name, name, len) == 0)
      return *d = &os->defs[i], &os->v[i];
  for (int i = 0; os->generator && i < NGENERIC; i++)
    if (strlen(generic[i].name) == len &&
        memcmp(generic[i].name, name, len) == 0)
      return *d = &generic[i], &os->g[i];
  ids__quote(q, sizeof q, name, len);
  ids_fail(e, IDS_ENOENT, "%s has no %s \"%s\"%s", os->s->name, what(os), q,
           validnames((const ids_options *)(void *)os, names, sizeof names,
                      strlen(os->s->name) + strlen(what(os)) + strlen(q) +
                      11));
  return NULL;
}

/* Claims a name once; NULL with an error when unknown or given twice. */
static ids_optval *claim (optset *os, const char *name, size_t len,
                          const ids_optdef **d, ids_error *e) {
  ids_optval *v = find(os, name, len, d, e);
  if (v && v->set) {
    ids_fail(e, IDS_EINVAL, "%s '%s' given twice", what(os), (*d)->name);
    return NULL;
  }
  return v;
}

static int setint (optset *os, const ids_optdef *d, ids_optval *v,
                   int64_t x, ids_error *e) {
  if (x < d->min || x > d->max)
    return ids_fail(e, IDS_ERANGE, "%s %s '%s' out of range: %" PRId64
                    " (allowed %" PRId64 "..%" PRId64 ")", os->s->name,
                    what(os), d->name, x, d->min, d->max);
  v->i = x;
  v->set = 1;
  return IDS_OK;
}

int ids_options_set_int (ids_options *o, const char *name, size_t len,
                         int64_t x, ids_error *e) {
  optset *os = OS(o);
  const ids_optdef *d;
  ids_optval *v = claim(os, name, len, &d, e);
  if (v == NULL) return e ? e->code : IDS_EINVAL;
  if (d->type != IDS_OPT_INT)
    return ids_fail(e, IDS_EINVAL, "%s '%s' must be a string", what(os),
                    d->name);
  return setint(os, d, v, x, e);
}

/* strict: a string value, never a number in text */
static int settext (ids_options *o, const char *name, size_t len,
                    const char *t, size_t n, int strict, ids_error *e) {
  optset *os = OS(o);
  const ids_optdef *d;
  ids_optval *v = claim(os, name, len, &d, e);
  char q[48];
  if (v == NULL) return e ? e->code : IDS_EINVAL;
  ids__quote(q, sizeof q, t, n);
  if (d->type == IDS_OPT_INT) {        /* decimal text (the command's) */
    int64_t x;
    if (strict || ids__decimal_signed(t, n, &x) != IDS_OK)
      return ids_fail(e, IDS_EINVAL, "%s '%s' must be an integer, not "
                      "\"%s\"", what(os), d->name, q);
    return setint(os, d, v, x, e);
  }
  if (memchr(t, '\0', n))
    return ids_fail(e, IDS_EINVAL, "%s '%s' holds a NUL byte: \"%s\"",
                    what(os), d->name, q);
  if (d == &generic[G_POLICY] || d == &generic[G_LOG] ||
      d == &generic[G_STEP]) {
    const char *const *names = d == &generic[G_POLICY] ? policies :
                               d == &generic[G_LOG] ? logs : steps;
    int p;
    for (p = 0; p < 2; p++)
      if (strlen(names[p]) == n && memcmp(names[p], t, n) == 0) break;
    if (p == 2)
      return ids_fail(e, IDS_EINVAL, "generator option '%s' must be "
                      "'%s' or '%s', not \"%s\"", d->name, names[0],
                      names[1], q);
    if (d == &generic[G_POLICY]) os->policy = p;
    else if (d == &generic[G_LOG]) os->keeplog = p == 1;
    else os->stepone = p == 1;
  }
  if (n >= sizeof os->buf - os->used)
    return ids_fail(e, IDS_ERANGE, "%s '%s' is too long (%zu bytes)",
                    what(os), d->name, n);
  memcpy(os->buf + os->used, t, n);
  os->buf[os->used + n] = '\0';
  v->s = os->buf + os->used;
  v->len = n;
  v->set = 1;
  os->used += n + 1;
  return IDS_OK;
}

int ids_options_set_text (ids_options *o, const char *name, size_t len,
                          const char *t, size_t n, ids_error *e) {
  return settext(o, name, len, t, n, 0, e);
}

int ids_options_set_string (ids_options *o, const char *name, size_t len,
                            const char *t, size_t n, ids_error *e) {
  return settext(o, name, len, t, n, 1, e);
}

/* ------------------------------------------------- for the core's use */

const ids_optval *ids__options_values (const ids_options *o) {
  return o ? COS(o)->v : NULL;
}

int ids__options_policy (const ids_options *o) {
  return o ? COS(o)->policy : IDS_POLICY_HOLD;
}

int64_t ids__options_ahead (const ids_options *o) {
  return o && COS(o)->g[G_AHEAD].set ? COS(o)->g[G_AHEAD].i : 0;
}

/* step "one" (else the random step), and whether it was given at all */
int ids__options_step (const ids_options *o, int *given) {
  *given = o && COS(o)->g[G_STEP].set;
  return o && COS(o)->stepone;
}

int64_t ids__options_wait (const ids_options *o) {
  return o && COS(o)->g[G_WAIT].set ? COS(o)->g[G_WAIT].i : IDS_MAX_WAIT_MS;
}

const ids_scheme *ids__options_scheme (const ids_options *o) {
  return COS(o)->s;
}

int ids__options_generator (const ids_options *o) {
  return COS(o)->generator;
}

/* The "slots" store ("local" when not given) and "slot_namespace" (NULL
** when not given), as NUL-terminated strings. */
const char *ids__options_slots (const ids_options *o) {
  return o && COS(o)->g[G_SLOTS].set ? COS(o)->g[G_SLOTS].s : "local";
}

/* Was "slots" given (a lease asked for, rather than the default)? */
int ids__options_slots_given (const ids_options *o) {
  return o && COS(o)->g[G_SLOTS].set;
}

const char *ids__options_namespace (const ids_options *o) {
  return o && COS(o)->g[G_NAMESPACE].set ? COS(o)->g[G_NAMESPACE].s : NULL;
}

int ids__options_lease (const ids_options *o, int64_t *ttl_ms,
                        int64_t *timeout_ms) {
  const optset *os = o ? COS(o) : NULL;
  *ttl_ms = os && os->g[G_TTL].set ? os->g[G_TTL].i : 0;
  *timeout_ms = os && os->g[G_TIMEOUT].set ? os->g[G_TIMEOUT].i : 0;
  return os && os->keeplog;
}

ids_optrole ids__options_role (const ids_scheme *s, int i, int *field) {
  const ids_optdef *d = &s->genopts[i];
  int f;
  *field = -1;
  for (size_t k = 0; k < sizeof roles / sizeof *roles; k++)
    if (d->type == roles[k].type && strcmp(d->name, roles[k].name) == 0)
      return roles[k].role;
  if (d->type == IDS_OPT_STR) {
    for (f = 0; f < s->nfields; f++)
      if (s->fields[f].from && strcmp(s->fields[f].from, d->name) == 0)
        return *field = f, IDS_ROLE_HASHED;
    return IDS_ROLE_NONE;
  }
  f = ids_scheme_field(s, d->name);
  if (f < 0 || (s->fields[f].kind != IDS_KIND_NODE &&
                s->fields[f].kind != IDS_KIND_HASH))
    return IDS_ROLE_NONE;
  return *field = f, IDS_ROLE_NODE;
}

int ids__options_reserved (const char *name) {
  size_t n = strlen(name), k = sizeof HASHED_SUFFIX - 1;
  for (int i = 0; i < NGENERIC; i++)
    if (strcmp(name, generic[i].name) == 0) return 1;
  for (size_t i = 0; i < sizeof roles / sizeof *roles; i++)
    if (strcmp(name, roles[i].name) == 0) return 1;
  return n >= k && strcmp(name + n - k, HASHED_SUFFIX) == 0;
}
