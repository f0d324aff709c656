/*
** generate.c: a generator per scheme in each backend, made at its first
** call (after the postmaster's fork), its node fields from a slot of its
** own unless idscheme.node gives them.  Why per backend and not one in
** shared memory: docs/POSTGRESQL.md, "One generator per backend".
*/
#include "pg_idscheme.h"

#include <inttypes.h>
#include <stdlib.h>

#include "funcapi.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/uuid.h"

#include "slots.h"

/* A backend's generator of one scheme and the settings it was made with. */
typedef struct pggen {
  const ids_scheme *s;
  ids_generator *g;
  unsigned seen;                /* pg_ids_settings_gen when last compared */
  char *slots, *ns;
  int policy, node;
} pggen;

static pggen *gens;
static int ngens, capgens;

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
         p->policy == pg_ids_policy && p->node == pg_ids_node;
}

/* idscheme.node over s's node fields, least significant last, as a slot
** number is spread; every node field is then given. */
static void setnode (ids_options *o, const ids_scheme *s, int node) {
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
}

/* Makes p's generator with the settings now; on an error p holds none. */
static void make (pggen *p) {
  ids_options o;
  ids_error e;
  ids_generator *g;
  const char *pol = pg_ids_policy == IDS_POLICY_ERROR ? "error" : "hold";
  ids_options_init(&o, p->s);
  if (ids_options_set_string(&o, "slots", 5, pg_ids_slots,
                             strlen(pg_ids_slots), &e) != IDS_OK ||
      (pg_ids_namespace[0] != '\0' &&
       ids_options_set_string(&o, "slot_namespace", 14, pg_ids_namespace,
                              strlen(pg_ids_namespace), &e) != IDS_OK) ||
      ids_options_set_string(&o, "policy", 6, pol, strlen(pol), &e) != IDS_OK)
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  if (pg_ids_node >= 0) setnode(&o, p->s, pg_ids_node);
  /* malloc'd, aligned for the atomic state (a 16-byte CAS where the
  ** state is two words): palloc gives 8 */
  if ((g = aligned_alloc(64, sizeof *g)) == NULL)
    ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
  if (ids_generator_init(g, p->s, &o, NULL, &e) != IDS_OK) {
    free(g);
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  }
  if (p->slots) pfree(p->slots);
  if (p->ns) pfree(p->ns);
  p->slots = MemoryContextStrdup(TopMemoryContext, pg_ids_slots);
  p->ns = MemoryContextStrdup(TopMemoryContext, pg_ids_namespace);
  p->policy = pg_ids_policy;
  p->node = pg_ids_node;
  p->seen = pg_ids_settings_gen;
  p->g = g;
}

/* This backend's generator of s, made or remade as the settings say. */
static ids_generator *generator (const ids_scheme *s) {
  pggen *p = NULL;
  for (int i = 0; i < ngens; i++)
    if (gens[i].s == s) { p = &gens[i]; break; }
  if (p != NULL && p->g != NULL && p->seen == pg_ids_settings_gen)
    return p->g;
  if (p == NULL) {
    if (gens == NULL) on_proc_exit(closeall, 0);
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
  }
  else if (p->g != NULL) {
    if (same_settings(p)) {
      p->seen = pg_ids_settings_gen;
      return p->g;
    }
    /* the settings changed: the old slot is released (its last time
    ** recorded, so that its next holder starts above it) first */
    ids_generator_close(p->g);
    free(p->g);
    p->g = NULL;
  }
  make(p);
  return p->g;
}

static void next (const ids_scheme *s, ids_value *v) {
  ids_error e;
  if (ids_generator_next(generator(s), v, &e) != IDS_OK)
    pg_ids_raise(&e, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE);
}

PG_FUNCTION_INFO_V1(idscheme_next);
Datum idscheme_next (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  const ids_codec *c;
  ids_value v;
  char out[IDS_TEXTMAX];
  size_t n;
  if (PG_ARGISNULL(0)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  c = pg_ids_codec(fcinfo, 1, s);
  next(s, &v);
  n = ids_scheme_encode(s, c, &v, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, (int)n));
}

PG_FUNCTION_INFO_V1(idscheme_next_bigint);
Datum idscheme_next_bigint (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  if (s->bits > 64)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bits: no bigint holds them", s->name,
                           (unsigned)s->bits),
                    errhint(s->bits == 128 ? "idscheme_next_uuid gives them "
                            "as uuid, idscheme_next as text." :
                            "idscheme_next gives them as text.")));
  next(s, &v);
  if (v.w[0] > (uint64_t)INT64_MAX)
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s ID %" PRIu64 " is above bigint's largest "
                           "value", s->name, v.w[0])));
  PG_RETURN_INT64((int64)v.w[0]);
}

PG_FUNCTION_INFO_V1(idscheme_next_uuid);
Datum idscheme_next_uuid (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  pg_uuid_t *u;
  ids_value v;
  if (s->bytes != UUID_LEN)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bytes: a uuid holds 16", s->name,
                           (unsigned)s->bytes),
                    errhint("idscheme_next gives them as text.")));
  next(s, &v);
  u = palloc(sizeof *u);
  ids_value_to_bytes(&v, u->data, UUID_LEN);
  PG_RETURN_UUID_P(u);
}

PG_FUNCTION_INFO_V1(idscheme_generator);
Datum idscheme_generator (PG_FUNCTION_ARGS) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_generator *g = generator(s);
  ids_lease_info li;
  TupleDesc td;
  Datum d[3];
  bool nulls[3] = {false, false, false};
  if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
    elog(ERROR, "idscheme_generator: the result is not a row");
  if (ids_generator_lease(g, &li)) {
    d[0] = Int32GetDatum((int32)li.number);
    d[1] = CStringGetTextDatum(li.store);
    d[2] = CStringGetTextDatum(li.backend);
  }
  else nulls[0] = nulls[1] = nulls[2] = true;
  PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(td), d,
                                                    nulls)));
}
