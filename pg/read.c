/*
** read.c: what an ID holds (its time, its fields), its other forms (text
** in each encoding, bigint, uuid), and the key range of a time interval.
** An ID argument is text, bigint (a scheme of at most 64 bits, not
** negative) or uuid (a scheme of 16 bytes); text that does not decode is
** refused with the library's message (SQLSTATE 22P02).
*/
#include "pg_idscheme.h"

#include <inttypes.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* Unix seconds at PostgreSQL's epoch, 2000-01-01. */
#define PGEPOCH_SEC ((int64)(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * \
                     SECS_PER_DAY)

static void fromtext (FunctionCallInfo fcinfo, const ids_scheme *s, int arg,
                      const ids_codec *c, ids_value *v) {
  text *t = PG_GETARG_TEXT_PP(arg);
  ids_error e;
  if (ids_scheme_decode(s, c, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), v, &e) !=
      IDS_OK)
    pg_ids_raise(&e, ERRCODE_INVALID_TEXT_REPRESENTATION);
}

static void frombytes (const ids_scheme *s, const uint8_t *b, size_t n,
                       ids_value *v) {
  ids_error e;
  if (ids_scheme_from_bytes(s, b, n, v, &e) != IDS_OK)
    pg_ids_raise(&e, ERRCODE_INVALID_TEXT_REPRESENTATION);
}

static void frombigint (const ids_scheme *s, int64 x, ids_value *v) {
  ids_value w = {{(uint64_t)x, 0, 0}};
  uint8_t b[IDS_MAXBYTES];                    /* a defined scheme's bytes may
                                                 exceed its bits' */
  if (s->bits > 64)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bits: no bigint holds one",
                           s->name, (unsigned)s->bits)));
  if (x < 0 || !ids_value_fits(&w, s->bits))
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s: %" PRId64 " is not an ID of %u bits",
                           s->name, (int64_t)x, (unsigned)s->bits)));
  ids_value_to_bytes(&w, b, s->bytes);        /* its constants checked */
  frombytes(s, b, s->bytes, v);
}

static void fromuuid (const ids_scheme *s, const pg_uuid_t *u,
                      ids_value *v) {
  if (s->bytes != UUID_LEN)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bytes: no uuid holds one", s->name,
                           (unsigned)s->bytes)));
  frombytes(s, u->data, UUID_LEN, v);
}

static Datum tobigint (const ids_scheme *s, const ids_value *v) {
  if (s->bits > 64)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bits: no bigint holds one",
                           s->name, (unsigned)s->bits)));
  if (v->w[0] > (uint64_t)INT64_MAX)
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("%s ID %" PRIu64 " is above bigint's largest "
                           "value", s->name, v->w[0])));
  return Int64GetDatum((int64)v->w[0]);
}

static Datum touuid (const ids_scheme *s, const ids_value *v) {
  pg_uuid_t *u;
  if (s->bytes != UUID_LEN)
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%s IDs are %u bytes: no uuid holds one", s->name,
                           (unsigned)s->bytes)));
  u = palloc(sizeof *u);
  ids_value_to_bytes(v, u->data, UUID_LEN);
  return UUIDPGetDatum(u);
}

static Datum totext (const ids_scheme *s, const ids_codec *c,
                     const ids_value *v) {
  char out[IDS_TEXTMAX];
  size_t n = ids_scheme_encode(s, c, v, out);
  return PointerGetDatum(cstring_to_text_with_len(out, (int)n));
}

int pg_ids_time (const ids_scheme *s, const ids_value *v, Datum *out) {
  int64_t sec;
  int32_t ns;
  __int128 us;
  if (!ids_scheme_time(s, v, &sec, &ns)) return 0;
  us = ((__int128)sec - PGEPOCH_SEC) * USECS_PER_SEC + ns / 1000;
  if (us < MIN_TIMESTAMP || us >= END_TIMESTAMP) return -1;
  *out = TimestampTzGetDatum((TimestampTz)us);
  return 1;
}

Datum pg_ids_fields_jsonb (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  StringInfoData b;
  initStringInfo(&b);
  ids_scheme_decompose(s, v, x);
  appendStringInfoChar(&b, '{');
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    const char *q;
    if (i) appendStringInfoString(&b, ", ");
    escape_json(&b, f->name);
    appendStringInfoString(&b, ": ");
    if (f->bits > 64) {                       /* hex, most significant first */
      uint8_t by[IDS_MAXBYTES];
      char hex[2 * IDS_MAXBYTES + 1];
      size_t n = (f->bits + 7u) / 8u;
      ids_value_getbytes(v, f->shift, f->bits, by);
      for (size_t k = 0; k < n; k++)
        snprintf(hex + 2 * k, 3, "%02x", by[k]);
      escape_json(&b, hex);
    }
    else if (f->kind == IDS_KIND_QUALIFIER &&
             (q = ids_scheme_qualifier_name(s, x[i])) != NULL)
      escape_json(&b, q);
    else
      appendStringInfo(&b, "%" PRIu64, x[i]);
  }
  appendStringInfoChar(&b, '}');
  return DirectFunctionCall1(jsonb_in, CStringGetDatum(b.data));
}

static Datum timeof (const ids_scheme *s, const ids_value *v, bool *isnull) {
  Datum d = 0;
  int r = pg_ids_time(s, v, &d);
  if (r < 0) {
    char t[IDS_TEXTMAX];
    ids_scheme_encode(s, NULL, v, t);
    ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                    errmsg("the time of %s ID %s is out of range for "
                           "timestamptz", s->name, t)));
  }
  *isnull = r == 0;                           /* no time: NULL */
  return d;
}

/* ---------------------------------------------------------- functions */

/* The ID argument `arg` in whichever of its forms the overload takes:
** text (with the encoding argument `enc`, if the function has one),
** bigint or uuid. */
static void idarg (FunctionCallInfo fcinfo, const ids_scheme *s, int arg,
                   int enc, ids_value *v) {
  switch (get_fn_expr_argtype(fcinfo->flinfo, arg)) {
  case INT8OID: frombigint(s, PG_GETARG_INT64(arg), v); break;
  case UUIDOID: fromuuid(s, PG_GETARG_UUID_P(arg), v); break;
  default: fromtext(fcinfo, s, arg, pg_ids_codec(fcinfo, enc, s), v); break;
  }
}

/* idscheme_time(scheme, id text [, encoding] | bigint | uuid) */
PG_FUNCTION_INFO_V1(idscheme_time);
Datum idscheme_time (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  ids_value v;
  Datum d;
  bool isnull;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  idarg(fcinfo, s, 1, 2, &v);
  d = timeof(s, &v, &isnull);
  if (isnull) PG_RETURN_NULL();
  PG_RETURN_DATUM(d);
}

/* idscheme_fields(scheme, id text [, encoding] | bigint | uuid) */
PG_FUNCTION_INFO_V1(idscheme_fields);
Datum idscheme_fields (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  ids_value v;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  idarg(fcinfo, s, 1, 2, &v);
  PG_RETURN_DATUM(pg_ids_fields_jsonb(s, &v));
}

PG_FUNCTION_INFO_V1(idscheme_convert);
Datum idscheme_convert (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  const ids_codec *to;
  ids_value v;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  to = pg_ids_codec(fcinfo, 2, s);
  fromtext(fcinfo, s, 1, pg_ids_codec(fcinfo, 3, s), &v);
  PG_RETURN_DATUM(totext(s, to, &v));
}

PG_FUNCTION_INFO_V1(idscheme_bigint);
Datum idscheme_bigint (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  ids_value v;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  fromtext(fcinfo, s, 1, pg_ids_codec(fcinfo, 2, s), &v);
  PG_RETURN_DATUM(tobigint(s, &v));
}

PG_FUNCTION_INFO_V1(idscheme_uuid);
Datum idscheme_uuid (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  ids_value v;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  fromtext(fcinfo, s, 1, pg_ids_codec(fcinfo, 2, s), &v);
  PG_RETURN_DATUM(touuid(s, &v));
}

/* idscheme_text(scheme, id bigint | uuid [, encoding]) */
PG_FUNCTION_INFO_V1(idscheme_text);
Datum idscheme_text (PG_FUNCTION_ARGS) {
  const ids_scheme *s;
  ids_value v;
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) PG_RETURN_NULL();
  s = pg_ids_scheme(fcinfo, 0);
  idarg(fcinfo, s, 1, -1, &v);
  PG_RETURN_DATUM(totext(s, pg_ids_codec(fcinfo, 2, s), &v));
}

/* The IMMUTABLE variants: the same readings of a shipped scheme only, for
** generated columns and expression indexes.  A shipped layout never
** changes; a defined one is a row that may be deleted and written again
** with another layout, so they refuse it (docs/POSTGRESQL.md, "Read"). */
#define SHIPPED(f)                                \
  PG_FUNCTION_INFO_V1(f##_shipped);               \
  Datum f##_shipped (PG_FUNCTION_ARGS) {          \
    pg_ids_shipped_only(fcinfo);                  \
    return f(fcinfo);                             \
  }
SHIPPED(idscheme_time)
SHIPPED(idscheme_fields)
SHIPPED(idscheme_convert)
SHIPPED(idscheme_bigint)
SHIPPED(idscheme_uuid)
SHIPPED(idscheme_text)

/* ----------------------------------------------------------- key range */

/* The least (upper false) or greatest value of s made at the tick holding
** ts; an infinite ts is the first or last tick. */
static void bound (const ids_scheme *s, TimestampTz ts, bool upper,
                   ids_value *v) {
  ids_error e;
  int64_t sec;
  int32_t ns;
  if (TIMESTAMP_IS_NOBEGIN(ts)) sec = -(INT64_C(1) << 40), ns = 0;
  else if (TIMESTAMP_IS_NOEND(ts)) sec = INT64_C(1) << 40, ns = 0;
  else {
    int64 us = ts % USECS_PER_SEC;
    sec = ts / USECS_PER_SEC;
    if (us < 0) us += USECS_PER_SEC, sec--;
    sec += PGEPOCH_SEC;
    ns = (int32_t)(us * 1000);
  }
  if (ids_scheme_bound(s, sec, ns, upper, v, &e) != IDS_OK)
    pg_ids_raise(&e, ERRCODE_INVALID_PARAMETER_VALUE);
}

/* The ends as bigint: no ID of ours is above bigint's largest, so a
** greater upper end is that. */
static Datum bigint_end (FunctionCallInfo fcinfo, bool upper) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  if (s->bits > 64) return tobigint(s, NULL);  /* refused, with its hint */
  bound(s, PG_GETARG_TIMESTAMPTZ(1), upper, &v);
  if (upper && v.w[0] > (uint64_t)INT64_MAX) v.w[0] = (uint64_t)INT64_MAX;
  return tobigint(s, &v);
}

PG_FUNCTION_INFO_V1(idscheme_lo_bigint);
Datum idscheme_lo_bigint (PG_FUNCTION_ARGS) {
  PG_RETURN_DATUM(bigint_end(fcinfo, false));
}

PG_FUNCTION_INFO_V1(idscheme_hi_bigint);
Datum idscheme_hi_bigint (PG_FUNCTION_ARGS) {
  PG_RETURN_DATUM(bigint_end(fcinfo, true));
}

static Datum uuid_end (FunctionCallInfo fcinfo, bool upper) {
  const ids_scheme *s = pg_ids_scheme(fcinfo, 0);
  ids_value v;
  if (s->bytes != UUID_LEN) return touuid(s, NULL);   /* refused */
  bound(s, PG_GETARG_TIMESTAMPTZ(1), upper, &v);
  return touuid(s, &v);
}

PG_FUNCTION_INFO_V1(idscheme_lo_uuid);
Datum idscheme_lo_uuid (PG_FUNCTION_ARGS) {
  PG_RETURN_DATUM(uuid_end(fcinfo, false));
}

PG_FUNCTION_INFO_V1(idscheme_hi_uuid);
Datum idscheme_hi_uuid (PG_FUNCTION_ARGS) {
  PG_RETURN_DATUM(uuid_end(fcinfo, true));
}
