/*
** inspect.c: which scheme wrote this text (the library's inspect engine,
** with its ranking and its doubt), and the schemes a backend knows.
*/
#include "pg_idscheme.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "inspect.h"

/* Every scheme's inspector, remade when the defined rows may have changed
** (a reading is of the schemes as they are now). */
static ids_inspector *every;
static unsigned every_gen;

static ids_inspector *inspector_all (void) {
  ids_error e;
  if (every != NULL && every_gen == pg_ids_defgen()) return every;
  pg_ids_define_all();
  if (every) ids_inspector_free(every);
  every_gen = pg_ids_defgen();
  if ((every = ids_inspector_new(NULL, 0, &e)) == NULL)
    pg_ids_raise(&e, ERRCODE_OUT_OF_MEMORY);
  return every;
}

/* An inspector of the schemes a comma list names (each a scheme or an
** alias: "uuid" is every UUID version). */
static ids_inspector *inspector_of (text *list) {
  const ids_scheme *s[IDS_INSPECT_MAX];
  char *names = text_to_cstring(list), *save = NULL, *w;
  size_t n = 0;
  ids_error e;
  ids_inspector *ins;
  for (w = strtok_r(names, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
    n += pg_ids_answering(w, s + n, IDS_INSPECT_MAX - n);
  if (n == 0)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("idscheme_inspect: schemes names none: '%s'",
                           text_to_cstring(list))));
  if ((ins = ids_inspector_new(s, n, &e)) == NULL)
    pg_ids_raise(&e, ERRCODE_OUT_OF_MEMORY);
  return ins;
}

PG_FUNCTION_INFO_V1(idscheme_inspect);
Datum idscheme_inspect (PG_FUNCTION_ARGS) {
  ReturnSetInfo *rsi = (ReturnSetInfo *)fcinfo->resultinfo;
  ids_candidate c[IDS_INSPECT_MAX];
  ids_inspector *ins;
  ids_error e;
  text *t;
  int n;
  InitMaterializedSRF(fcinfo, 0);
  if (PG_ARGISNULL(0)) return (Datum)0;
  t = PG_GETARG_TEXT_PP(0);
  ins = PG_ARGISNULL(1) ? inspector_all() : inspector_of(PG_GETARG_TEXT_PP(1));
  n = ids_inspect(ins, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), NULL, 0,
                  (int64_t)(GetCurrentTimestamp() / 1000 +
                            (int64)(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) *
                            SECS_PER_DAY * 1000),
                  c, IDS_INSPECT_MAX, &e);
  if (ins != every) ids_inspector_free(ins);
  for (int i = 0; i < n; i++) {               /* none decodes it: no row */
    Datum d[7];
    bool nulls[7] = {false};
    d[0] = Int32GetDatum(i + 1);
    d[1] = CStringGetTextDatum(c[i].scheme->name);
    d[2] = CStringGetTextDatum(c[i].codec->name);
    nulls[3] = c[i].length != 0 || pg_ids_time(c[i].scheme, &c[i].value,
                                               &d[3]) != 1;
    d[4] = BoolGetDatum(c[i].plausible != 0);
    d[5] = BoolGetDatum(c[i].ambiguous != 0);
    if (c[i].length) nulls[6] = true;     /* read by its alphabet alone */
    else d[6] = pg_ids_fields_jsonb(c[i].scheme, &c[i].value);
    tuplestore_putvalues(rsi->setResult, rsi->setDesc, d, nulls);
  }
  return (Datum)0;
}

static Datum textarray (const char *const *w, int n) {
  Datum *d = palloc(sizeof(Datum) * (n ? n : 1));
  for (int i = 0; i < n; i++) d[i] = CStringGetTextDatum(w[i]);
  return PointerGetDatum(construct_array(d, n, TEXTOID, -1, false,
                                         TYPALIGN_INT));
}

PG_FUNCTION_INFO_V1(idscheme_schemes);
Datum idscheme_schemes (PG_FUNCTION_ARGS) {
  ReturnSetInfo *rsi = (ReturnSetInfo *)fcinfo->resultinfo;
  size_t n;
  const char **names;
  InitMaterializedSRF(fcinfo, 0);
  pg_ids_define_all();
  n = ids_scheme_list(NULL, 0);
  names = palloc(sizeof *names * (n ? n : 1));
  n = ids_scheme_list(names, n);
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *s = ids_scheme_find(names[i]);
    const char *enc[IDS_MAXCODECS], *al[IDS_MAXALIASES];
    Datum d[8];
    bool nulls[8] = {false};
    ids_error e;
    int na = 0, timed = 0;
    bool defined = pg_ids_is_defined(s);
    if (defined && pg_ids_defined(names[i]) == NULL) continue;  /* row gone */
    if ((s = ids_scheme_open(s, NULL, &e)) == NULL) continue;
    for (int k = 0; k < s->ncodecs; k++) enc[k] = s->codecs[k]->name;
    while (s->about && na < IDS_MAXALIASES && s->about->aliases[na])
      al[na] = s->about->aliases[na], na++;
    for (int k = 0; k < s->nfields; k++)
      timed |= s->fields[k].kind == IDS_KIND_TIME;
    d[0] = CStringGetTextDatum(s->name);
    d[1] = Int32GetDatum(s->bits);
    d[2] = textarray(enc, s->ncodecs);
    nulls[3] = s->about == NULL || s->about->title == NULL;
    if (!nulls[3]) d[3] = CStringGetTextDatum(s->about->title);
    d[4] = textarray(al, na);
    nulls[5] = nulls[6] = !timed;
    if (timed) {
      char u[48];
      int64 ms = s->epoch_ms - (int64)(POSTGRES_EPOCH_JDATE -
                                       UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000;
      d[5] = TimestampTzGetDatum((TimestampTz)ms * 1000);
      ids_unit_name(s->unit, u, sizeof u);
      d[6] = CStringGetTextDatum(u);
    }
    d[7] = BoolGetDatum(defined);
    tuplestore_putvalues(rsi->setResult, rsi->setDesc, d, nulls);
  }
  return (Datum)0;
}
