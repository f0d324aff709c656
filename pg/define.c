/*
** define.c: schemes defined as rows of idscheme_defined.  A row's spec is
** the table idscheme.define takes in Lua, written as JSON, and is checked
** by the library's ids_scheme_define with the same messages (the binding's
** own, about the spec's shape, say "object" and "array" where Lua says
** "table").  Each backend defines a row's scheme at its first use; the
** table's trigger checks rows as they are written and tells every backend
** (a relcache invalidation) that the rows changed.  A layout cannot change
** once a backend has used it: the library keeps a scheme for the life of
** the process, since IDs point at it.
*/
#include "pg_idscheme.h"

#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

/* A scheme this backend defined from a row, and the row's spec as jsonb
** prints it (canonical: the same spec prints the same). */
typedef struct defrow {
  const ids_scheme *s;
  char *spec;
  unsigned gen;                 /* defgen when last found in the table */
  bool present;                 /* its row was there then */
} defrow;

static defrow *rows;
static int nrows, caprows;
static unsigned defgen = 1, allgen;
static bool callback;

/* idscheme_defined's oid, once table() has looked it up */
static Oid tableoid = InvalidOid;

/* A relcache invalidation: of the table (its trigger sends one for every
** change of its rows), of every relation, or any before the table is
** known (the extension dropped and created again is one of these). */
static void invalidated (Datum arg, Oid relid) {
  (void)arg;
  if (relid == InvalidOid || tableoid == InvalidOid || relid == tableoid)
    defgen++;
}

unsigned pg_ids_defgen (void) {
  if (!callback) {
    CacheRegisterRelcacheCallback(invalidated, (Datum)0);
    callback = true;
  }
  return defgen;
}

bool pg_ids_is_defined (const ids_scheme *s) {
  for (int i = 0; i < nrows; i++)
    if (rows[i].s == s) return true;
  return false;
}

static defrow *findrow (const char *name) {
  for (int i = 0; i < nrows; i++)
    if (strcmp(rows[i].s->name, name) == 0) return &rows[i];
  return NULL;
}

/* ------------------------------------------------------ spec from JSON */

/* What a message calls a value: its JSON text. */
static const char *show (const JsonbValue *v) {
  if (v->type == jbvBinary)
    return JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
  if (v->type == jbvString)
    return psprintf("\"%.*s\"", v->val.string.len, v->val.string.val);
  if (v->type == jbvNumeric)
    return DatumGetCString(DirectFunctionCall1(numeric_out,
                             NumericGetDatum(v->val.numeric)));
  if (v->type == jbvBool) return v->val.boolean ? "true" : "false";
  return "null";
}

pg_attribute_noreturn() pg_attribute_printf(1, 2)
static void bad (const char *fmt, ...);
static void bad (const char *fmt, ...) {
  va_list ap;
  char msg[512];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("%s", msg)));
}

static const char *what (int field) {
  return field ? psprintf("field %d", field) : "spec";
}

static bool isobject (const JsonbValue *v) {
  return v->type == jbvBinary && JsonContainerIsObject(v->val.binary.data);
}
static bool isarray (const JsonbValue *v) {
  return v->type == jbvBinary && JsonContainerIsArray(v->val.binary.data) &&
         !JsonContainerIsScalar(v->val.binary.data);
}

/* The key of object c that `keys` does not list, or NULL. */
static char *badkey (JsonbContainer *c, const char *const *keys) {
  JsonbIterator *it = JsonbIteratorInit(c);
  JsonbValue v;
  JsonbIteratorToken tok;
  while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE) {
    const char *const *k;
    if (tok != WJB_KEY) continue;
    for (k = keys; *k; k++)
      if ((int)strlen(*k) == v.val.string.len &&
          memcmp(*k, v.val.string.val, v.val.string.len) == 0)
        break;
    if (*k == NULL) return pnstrdup(v.val.string.val, v.val.string.len);
  }
  return NULL;
}

static bool get (JsonbContainer *c, const char *k, JsonbValue *out) {
  return getKeyJsonValueFromContainer(c, k, strlen(k), out) != NULL &&
         out->type != jbvNull;
}

static const char *getstr (JsonbContainer *c, const char *k, int field) {
  JsonbValue v;
  if (!get(c, k, &v)) return NULL;
  if (v.type != jbvString) bad("%s '%s' must be a string", what(field), k);
  return pnstrdup(v.val.string.val, v.val.string.len);
}

/* v, an integer; false if it is not one (a fraction, out of range). */
static bool integer (const JsonbValue *v, long long *x) {
  char *t, *end;
  if (v->type != jbvNumeric) return false;
  t = DatumGetCString(DirectFunctionCall1(numeric_out,
                        NumericGetDatum(v->val.numeric)));
  errno = 0;
  *x = strtoll(t, &end, 10);
  if (*end == '.') {                          /* 3.0 is 3, as Lua says */
    for (end++; *end == '0'; end++) ;
  }
  return errno == 0 && *end == '\0' && end != t;
}

static long long getint (JsonbContainer *c, const char *k, long long dflt,
                         int field) {
  JsonbValue v;
  long long x = dflt;
  if (get(c, k, &v) && !integer(&v, &x))
    bad("%s '%s' must be an integer, got %s", what(field), k, show(&v));
  return x;
}

static void getabout (JsonbContainer *spec, ids_about *a) {
  JsonbValue v, w;
  JsonbContainer *c;
  char *k;
  if (!get(spec, "about", &v)) return;
  if (!isobject(&v)) bad("spec 'about' must be an object, got %s", show(&v));
  c = v.val.binary.data;
  if ((k = badkey(c, ids_define_about_keys)) != NULL)
    bad("about: unknown key '%s'", k);
  a->title = getstr(c, "title", 0);
  a->note = getstr(c, "note", 0);
  a->since_ms = (int64_t)getint(c, "since", 0, 0);
  if (get(c, "lengths", &v)) {                /* [min, max] */
    bool ok = isarray(&v) && JsonContainerSize(v.val.binary.data) == 2;
    for (int i = 0; ok && i < 2; i++) {
      JsonbValue *e = getIthJsonbValueFromContainer(v.val.binary.data, i);
      long long x;
      ok = e && integer(e, &x) && x >= 1 && x < IDS_TEXTMAX;
      if (ok) a->lengths[i] = (uint8_t)x;
    }
    if (!ok)
      bad("about.lengths must be [min, max], integers 1..%d, got %s",
          IDS_TEXTMAX - 1, show(&v));
  }
  if (!get(c, "aliases", &v)) return;
  if (!isarray(&v) || JsonContainerSize(v.val.binary.data) > IDS_MAXALIASES)
    bad("about.aliases must be a list of at most %d names", IDS_MAXALIASES);
  for (int i = 0; i < (int)JsonContainerSize(v.val.binary.data); i++) {
    JsonbValue *e = getIthJsonbValueFromContainer(v.val.binary.data, i);
    if (e == NULL || e->type != jbvString)
      bad("about.aliases[%d] must be a name, got %s", i + 1,
          e ? show(e) : "null");
    a->aliases[i] = pnstrdup(e->val.string.val, e->val.string.len);
  }
  (void)w;
}

/* Defines the scheme that row `name` with spec `json` (jsonb) says: NULL
** with *e set if the library refuses it (a spec whose shape is wrong
** raises here). */
static const ids_scheme *define (const char *name, Jsonb *json,
                                 ids_error *e) {
  ids_fieldspec fs[IDS_MAXFIELDS];
  const char *encs[IDS_MAXCODECS];
  JsonbContainer *spec = &json->root;
  ids_defspec sp;
  ids_about about;
  JsonbValue v;
  const ids_scheme *s;
  const char *given;
  char *k;
  int n;
  if (!JsonContainerIsObject(spec))
    bad("scheme '%s': the spec must be a JSON object", name);
  if ((k = badkey(spec, ids_define_keys)) != NULL)
    bad("spec: unknown key '%s'", k);
  memset(&sp, 0, sizeof sp);
  memset(&about, 0, sizeof about);
  memset(fs, 0, sizeof fs);
  getabout(spec, &about);
  if (memcmp(&about, &(ids_about){0}, sizeof about) != 0) sp.about = &about;
  given = getstr(spec, "name", 0);
  if (given && strcmp(given, name) != 0)
    bad("scheme '%s': spec 'name' is '%s', not the row's name", name, given);
  sp.name = name;
  sp.default_encoding = getstr(spec, "default_encoding", 0);
  sp.bytes = getint(spec, "bytes", 0, 0);
  if (!get(spec, "fields", &v) || !isarray(&v))
    bad("scheme '%s': 'fields' must be an array", name);
  n = (int)JsonContainerSize(v.val.binary.data);
  if (n > IDS_MAXFIELDS)
    bad("scheme '%s': more than %d fields", name, IDS_MAXFIELDS);
  for (int i = 0; i < n; i++) {
    JsonbValue *f = getIthJsonbValueFromContainer(v.val.binary.data, i);
    JsonbContainer *c;
    if (f == NULL || !isobject(f)) bad("field %d must be an object", i + 1);
    c = f->val.binary.data;
    if ((k = badkey(c, ids_define_field_keys)) != NULL)
      bad("%s: unknown key '%s'", what(i + 1), k);
    fs[i].name = getstr(c, "name", i + 1);
    fs[i].kind = getstr(c, "kind", i + 1);
    fs[i].unit = getstr(c, "unit", i + 1);
    fs[i].bits = getint(c, "bits", 0, i + 1);
    fs[i].epoch_ms = (int64_t)getint(c, "epoch", 0, i + 1);
    fs[i].value = (uint64_t)getint(c, "value", 0, i + 1);
    fs[i].order = getstr(c, "order", i + 1);
  }
  sp.fields = fs;
  sp.nfields = n;
  if (get(spec, "encodings", &v)) {           /* none: the core's default */
    if (!isarray(&v))
      bad("scheme '%s': 'encodings' must be an array", name);
    n = (int)JsonContainerSize(v.val.binary.data);
    if (n > IDS_MAXCODECS) bad("more than %d encodings", IDS_MAXCODECS);
    for (int i = 0; i < n; i++) {
      JsonbValue *x = getIthJsonbValueFromContainer(v.val.binary.data, i);
      if (x == NULL || x->type != jbvString)
        bad("encodings[%d] must be a string", i + 1);
      encs[i] = pnstrdup(x->val.string.val, x->val.string.len);
    }
    sp.encodings = encs;
    sp.nencodings = n;
  }
  return ids_scheme_define(&sp, &s, e) == IDS_OK ? s : NULL;
}

/* Row `name` with its spec (as printed) found in the table: the scheme,
** defined now if this backend has not yet.  raise false: NULL instead of
** an error for a layout that changed since this backend used it. */
static const ids_scheme *use (const char *name, Jsonb *json, bool raise) {
  char *spec = JsonbToCString(NULL, &json->root, VARSIZE(json));
  defrow *r = findrow(name);
  ids_error e = {IDS_EEXIST, ""};
  if (r != NULL) {
    if (strcmp(r->spec, spec) == 0 ||
        (raise && define(name, json, &e) == r->s)) {  /* spelled otherwise */
      r->present = true;
      r->gen = defgen;
      return r->s;
    }
    if (!raise) return NULL;
    /* a spec that is wrong says so (define raised, or e says why) before
    ** its name is said to be taken by this session's layout */
    if (e.code != IDS_EEXIST) pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
    ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("scheme '%s' has another layout than when this "
                           "session first used it", name),
                    errhint("A layout is kept for the life of a session: "
                            "reconnect to use the new one.")));
  }
  if (nrows == caprows) {
    int cap = caprows ? caprows * 2 : 8;
    rows = rows ? repalloc(rows, cap * sizeof *rows)
                : MemoryContextAlloc(TopMemoryContext, cap * sizeof *rows);
    caprows = cap;
  }
  r = &rows[nrows];
  if ((r->s = define(name, json, &e)) == NULL)
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
  r->spec = MemoryContextStrdup(TopMemoryContext, spec);
  r->gen = defgen;
  r->present = true;
  nrows++;
  return r->s;
}

/* "schema".idscheme_defined, for queries (within SPI): the extension's
** schema, looked up again when any relation may have changed. */
static const char *table (void) {
  static char *qualified;
  static unsigned seen;
  if (qualified == NULL || seen != defgen) {
    bool isnull;
    Datum d;
    if (SPI_execute("SELECT n.nspname, n.oid FROM pg_catalog.pg_extension e "
                    "JOIN pg_catalog.pg_namespace n ON n.oid = "
                    "e.extnamespace WHERE e.extname = 'idscheme'", true, 1) !=
        SPI_OK_SELECT || SPI_processed != 1)
      ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                      errmsg("idscheme: the extension is not created in "
                             "this database")));
    d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1,
                      &isnull);
    if (qualified) pfree(qualified);
    qualified = MemoryContextStrdup(TopMemoryContext,
                  quote_qualified_identifier(NameStr(*DatumGetName(d)),
                                             "idscheme_defined"));
    tableoid = get_relname_relid("idscheme_defined", DatumGetObjectId(
                 SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
                               2, &isnull)));
    seen = defgen;
  }
  return qualified;
}

const ids_scheme *pg_ids_defined (const char *name) {
  defrow *r = findrow(name);
  const ids_scheme *s = NULL;
  Oid types[1] = {TEXTOID};
  Datum args[1];
  MemoryContext mc = CurrentMemoryContext;
  if (r != NULL && r->gen == pg_ids_defgen())
    return r->present ? r->s : NULL;
  args[0] = CStringGetTextDatum(name);
  SPI_connect();
  if (SPI_execute_with_args(psprintf("SELECT spec FROM %s WHERE name = $1",
                                     table()),
                            1, types, args, NULL, true, 1) != SPI_OK_SELECT)
    elog(ERROR, "idscheme: reading idscheme_defined failed");
  if (SPI_processed == 1) {
    bool isnull;
    Datum d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1,
                            &isnull);
    MemoryContext spi = MemoryContextSwitchTo(mc);
    s = use(name, DatumGetJsonbP(d), true);
    MemoryContextSwitchTo(spi);
  }
  else if (r != NULL) {
    r->present = false;
    r->gen = defgen;
  }
  SPI_finish();
  return s;
}

void pg_ids_define_all (void) {
  if (allgen == pg_ids_defgen()) return;
  SPI_connect();
  if (SPI_execute(psprintf("SELECT name, spec FROM %s ORDER BY name",
                           table()), true, 0) != SPI_OK_SELECT)
    elog(ERROR, "idscheme: reading idscheme_defined failed");
  for (int i = 0; i < nrows; i++) rows[i].present = false;
  for (uint64 i = 0; i < SPI_processed; i++) {
    bool n1, n2;
    Datum name = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
                               1, &n1),
          spec = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
                               2, &n2);
    use(TextDatumGetCString(name), DatumGetJsonbP(spec), false);
  }
  for (int i = 0; i < nrows; i++) rows[i].gen = defgen;
  allgen = defgen;
  SPI_finish();
}

/* The table's trigger: a row written is checked by defining its scheme
** (in this backend, as the statement's later uses would); a layout that
** a row had is not changed in place; every backend is told. */
PG_FUNCTION_INFO_V1(idscheme_defined_check);
Datum idscheme_defined_check (PG_FUNCTION_ARGS) {
  TriggerData *td = (TriggerData *)fcinfo->context;
  HeapTuple row;
  bool isnull;
  Datum name, spec;
  defrow *r;
  if (!CALLED_AS_TRIGGER(fcinfo))
    elog(ERROR, "idscheme_defined_check: not called as a trigger");
  CacheInvalidateRelcache(td->tg_relation);    /* at commit, to everyone */
  if (!TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
      TRIGGER_FIRED_BY_DELETE(td->tg_event))
    return PointerGetDatum(NULL);
  row = TRIGGER_FIRED_BY_UPDATE(td->tg_event) ? td->tg_newtuple
                                               : td->tg_trigtuple;
  name = heap_getattr(row, 1, td->tg_relation->rd_att, &isnull);
  spec = heap_getattr(row, 2, td->tg_relation->rd_att, &isnull);
  if (TRIGGER_FIRED_BY_UPDATE(td->tg_event)) {
    bool n0;
    Datum oldname = heap_getattr(td->tg_trigtuple, 1,
                                 td->tg_relation->rd_att, &n0),
          oldspec = heap_getattr(td->tg_trigtuple, 2,
                                 td->tg_relation->rd_att, &n0);
    if (!DatumGetBool(DirectFunctionCall2Coll(texteq, C_COLLATION_OID, name,
                                              oldname)) ||
        !DatumGetBool(DirectFunctionCall2Coll(jsonb_eq, C_COLLATION_OID, spec,
                                              oldspec)))
      ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                      errmsg("scheme '%s': a defined layout does not change "
                             "in place", TextDatumGetCString(oldname)),
                      errdetail("IDs made by it would read differently."),
                      errhint("Define the new layout under a new name.")));
  }
  {
    char *n = TextDatumGetCString(name);
    if (strlen(n) == 0 || strlen(n) >= IDS_NAMEMAX)
      ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                      errmsg("a scheme's name is 1..%d characters: '%s'",
                             IDS_NAMEMAX - 1, n)));
    use(n, DatumGetJsonbP(spec), true);
    /* until the row is committed, only this statement sees it: this
    ** backend looks it up again (a rolled-back row is then gone) */
    if ((r = findrow(n)) != NULL) r->gen = defgen - 1;
  }
  return PointerGetDatum(row);
}
