/*
** test_flax_snowflake_siq.c: Flax, Snowflake and SIQ against every entry
** of spec/vectors/flax.json, snowflake.json and siq.json that applies to
** integer time (python-flax-id's and SUOU's reference output), in both
** directions: fields -> value -> every string form, and every form (and
** the bytes) -> the same value and fields.  Values a reference writes but
** that leave the scheme's width, negative values, and text our strict
** grammar refuses must fail with a code and a message.
**
** usage: test_flax_snowflake_siq [VECTORS_DIR]
*/
#include "helpers.h"

/* ------------------------------------------------------------ helpers */

/* A vector integer written in hex digits (one too wide for num). */
static uint64_t hexnum (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  if (cJSON_IsString(x)) return strtoull(x->valuestring, NULL, 16);
  fprintf(stderr, "vector without \"%s\"\n", key);
  exit(2);
}

/* A decimal string of up to 160 bits.  1: negative, 2: too wide, 0: ok. */
static int bigdec (const char *s, ids_value *v) {
  memset(v, 0, sizeof *v);
  if (*s == '-') return 1;
  for (; *s; s++) {
    unsigned __int128 c = (unsigned)(*s - '0');
    if (*s < '0' || *s > '9') return 2;
    for (int i = 0; i < 3; i++) {
      c += (unsigned __int128)v->w[i] * 10;
      v->w[i] = (uint64_t)c;
      c >>= 64;
    }
    if (c || v->w[2] >> 32) return 2;
  }
  return 0;
}

static int veq (const ids_value *a, const ids_value *b) {
  return ids_value_cmp(a, b) == 0;
}

/* An entry of a list of vectors, in its parts. */
typedef struct vector {
  const char *name;
  const cJSON *in, *out, *der, *gs;
} vector;

static vector parts (const cJSON *o) {
  vector p = {str(o, "name"), item(o, "input"), item(o, "output"),
              item(o, "derived_not_reference"), item(o, "generator_state")};
  return p;
}

/* One string form of a vector: `codec` writes what `key` holds.  `zero`,
** if set, is what we write where the reference writes "" (value 0). */
typedef struct form {
  const char *codec, *key, *zero;
} form;

/* Encodes v with each form and compares with the vector's output, then
** decodes the vector's text and compares with v. */
static void check_forms (const ids_scheme *s, const char *name,
                         const ids_value *v, const form *f, size_t nf,
                         const cJSON *out) {
  for (size_t i = 0; i < nf; i++) {
    const ids_codec *c = ids_codec_find(s, f[i].codec, strlen(f[i].codec));
    const char *want = str(out, f[i].key);
    char got[IDS_TEXTMAX];
    ids_value back;
    size_t n;
    if (!CHECKF(c != NULL, "%s has no codec %s", s->name, f[i].codec) ||
        !CHECKF(want != NULL, "%s: vector has no %s", name, f[i].key))
      continue;
    if (want[0] == '\0' && f[i].zero) {
      CHECKF(v->w[0] == 0 && v->w[1] == 0 && v->w[2] == 0, "%s: %s is "
             "empty for a value that is not 0", name, f[i].key);
      want = f[i].zero;
    }
    n = ids_scheme_encode(s, c, v, got);
    CHECKF(strcmp(got, want) == 0 && n == strlen(want), "%s: %s of %s: got"
           " \"%s\" (%zu), want \"%s\"", name, f[i].codec, vhex(v), got, n,
           want);
    if (CHECKF(decode(s, c, want, strlen(want), &back) == IDS_OK,
               "%s: %s decode of \"%s\"", name, f[i].codec, want))
      CHECKF(veq(&back, v), "%s: %s decode of \"%s\": got %s, want %s",
             name, f[i].codec, want, vhex(&back), vhex(v));
  }
}

/* Every form of a value outside the scheme (too wide or negative) that the
** reference managed to write must be refused; `code` 0: any error. */
static void check_refused (const ids_scheme *s, const char *name,
                           const form *f, size_t nf, const cJSON *out,
                           int code) {
  for (size_t i = 0; i < nf; i++) {
    const char *t = str(out, f[i].key);
    ids_value v;
    int r;
    if (t == NULL || strncmp(t, "ERROR", 5) == 0 || t[0] == '\0') continue;
    r = decodes(s, f[i].codec, t, &v);
    if (code)
      CHECKF(r == code, "%s: %s \"%s\" must be refused with %d: got %d "
             "(%s)", name, f[i].codec, t, code, r, r ? "" : vhex(&v));
    else
      CHECKF(r < 0, "%s: %s \"%s\" must be refused: accepted as %s", name,
             f[i].codec, t, vhex(&v));
  }
}

/* The vector's big-endian bytes: from_bytes gives v, v gives them back. */
static void check_bytes (const ids_scheme *s, const char *name,
                         const ids_value *v, const char *hex) {
  uint8_t want[IDS_MAXBYTES], got[IDS_MAXBYTES];
  size_t n;
  ids_value back;
  if (!CHECKF(hex != NULL, "%s: no bytes", name)) return;
  n = unhex(hex, want, sizeof want);
  if (!CHECKF(n == s->bytes, "%s: %zu bytes in the vector, scheme has %u",
              name, n, (unsigned)s->bytes))
    return;
  ids_value_to_bytes(v, got, n);
  CHECKF(memcmp(got, want, n) == 0, "%s: bytes of %s differ from %s", name,
         vhex(v), hex);
  if (CHECKF(from_bytes(s, want, n, &back) == IDS_OK, "%s: from_bytes %s",
             name, hex))
    CHECKF(veq(&back, v), "%s: from_bytes %s: got %s", name, hex,
           vhex(&back));
}

/* The vector fields x of one entry compose to its value `want`, which
** writes and reads every form of out and out's bytes (at bytes_key), gives
** x back, and is what the texts of out's keys `dflt` (NULL-ended) decode to
** with no codec named.  1 and the value in *value, or 0 if compose fails. */
static int check_entry (const ids_scheme *s, const char *name,
                        const uint64_t *x, const ids_value *want,
                        const form *f, size_t nf, const cJSON *out,
                        const char *bytes_key, const char *const *dflt,
                        ids_value *value) {
  uint64_t back[IDS_MAXFIELDS];
  ids_value v;
  if (!CHECKF(compose(s, x, &v) == IDS_OK, "%s: compose", name)) return 0;
  CHECKF(veq(&v, want), "%s: compose gives %s, want %s", name, vhex(&v),
         vhex(want));
  check_forms(s, name, &v, f, nf, out);
  check_bytes(s, name, &v, str(out, bytes_key));
  ids_scheme_decompose(s, &v, back);
  for (int i = 0; i < s->nfields; i++)
    CHECKF(back[i] == x[i], "%s: field %s: got %" PRIu64 ", want %" PRIu64,
           name, s->fields[i].name, back[i], x[i]);
  for (; *dflt; dflt++) {
    ids_value d;
    const char *t = str(out, *dflt);
    if (CHECKF(decodes(s, NULL, t, &d) == IDS_OK, "%s: default %s", name, t))
      CHECKF(veq(&d, &v), "%s: default decode of %s", name, t);
  }
  *value = v;
  return 1;
}

/* A text that scheme *s must refuse, with the code it must give. */
typedef struct bad {
  const ids_scheme *const *s;
  const char *codec;          /* NULL: the default (or detection) */
  const char *text;
  int code;
  const char *why;
} bad;

/* The texts of b[0..n) that are s's. */
static void check_bad (const ids_scheme *s, const bad *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    ids_value v;
    int r;
    if (*b[i].s != s) continue;
    r = decodes(s, b[i].codec, b[i].text, &v);
    CHECKF(r == b[i].code, "%s %s \"%s\" (%s): got %d, want %d%s%s",
           s->name, b[i].codec ? b[i].codec : "default", b[i].text,
           b[i].why, r, b[i].code, r == IDS_OK ? ", value " : "",
           r == IDS_OK ? vhex(&v) : "");
  }
}

/* A text of scheme *s that must decode to a value. */
typedef struct good_text {
  const ids_scheme *const *s;
  const char *codec;          /* NULL: the default (or detection) */
  const char *text;
} good_text;

/* The texts of g[0..n) that are s's decode to want. */
static void check_good (const ids_scheme *s, const good_text *g, size_t n,
                        const ids_value *want) {
  for (size_t i = 0; i < n; i++) {
    ids_value v;
    if (*g[i].s != s) continue;
    if (CHECKF(decodes(s, g[i].codec, g[i].text, &v) == IDS_OK,
               "%s %s \"%s\"", s->name, g[i].codec ? g[i].codec :
               "default", g[i].text))
      CHECKF(veq(&v, want), "%s %s \"%s\": %s", s->name, g[i].codec ?
             g[i].codec : "default", g[i].text, vhex(&v));
  }
}

/* from_bytes refuses byte strings of each length in n[] (none the
** scheme's) with IDS_EINVAL. */
static void check_lengths (const ids_scheme *s, const size_t *n,
                           size_t count) {
  static const uint8_t zero[32];
  for (size_t i = 0; i < count; i++) {
    ids_value v;
    CHECKF(from_bytes(s, zero, n[i], &v) == IDS_EINVAL, "%s from_bytes of "
           "%zu bytes", s->name, n[i]);
  }
}

/* A generator of s with options o, on a clock frozen at `now`, issues
** `want` as its (k + 1)th ID; want NULL: by then it fails with
** IDS_ERANGE, the clock being past the time field. */
static void check_generated (const char *name, const ids_scheme *s,
                             const ids_optval *o, int64_t now, uint64_t k,
                             const ids_value *want) {
  ids_clock clk = {frozen_now, &now};
  ids_generator g;
  ids_value v = {{0, 0, 0}};
  ids_error e;
  int r = IDS_OK;
  if (!CHECKF(gen_init(&g, s, o, IDS_POLICY_HOLD, &clk, &e) == IDS_OK,
              "%s: generator: %s", name, e.msg))
    return;
  for (uint64_t i = 0; i <= k && r == IDS_OK; i++)
    r = ids_generator_next(&g, &v, &e);
  if (want == NULL) {
    CHECKF(r == IDS_ERANGE, "%s: a generator past the time field: got %d",
           name, r);
    return;
  }
  if (CHECKF(r == IDS_OK, "%s: ids_generator_next: %d %s", name, r, e.msg))
    CHECKF(veq(&v, want), "%s: generated %s, want %s", name, vhex(&v),
           vhex(want));
}

/* A scheme whose vectors write its value in decimal (format_d): its
** width, its string forms, the fields derived from a vector (`fields`,
** where derived_not_reference has a `fields_key`), the output key of its
** bytes and those of the texts that decode with no codec named; which
** vectors apply (`usable`: integer time), and the check of a generator
** against one (`generated`, given the vector's value or NULL if it is
** refused; 1 if it checked one). */
typedef struct scheme_vectors {
  const ids_scheme *const *s;
  unsigned bits;
  const form *forms;
  size_t nforms;
  const char *fields_key;
  int (*fields) (const char *name, const cJSON *der, uint64_t *x);
  const char *bytes_key;
  const char *const *dflt;
  int (*usable) (const vector *t);
  int (*generated) (const vector *t, const ids_value *v);
} scheme_vectors;

/* One entry, vector or representation: compose, forms, bytes (as
** check_entry); or, for values outside the scheme's width, refusal of
** every form, of its fields and of bytes.  1 and the value in *value for
** a usable value, 0 when refused. */
static int check_value (const scheme_vectors *k, const vector *t,
                        ids_value *value) {
  const ids_scheme *s = *k->s;
  const char *name = t->name, *dec = str(t->out, "format_d");
  const char *bytes = str(t->out, k->bytes_key);
  const cJSON *has = item(t->der, k->fields_key);
  uint64_t x[IDS_MAXFIELDS] = {0};
  ids_value want, v;
  int big = bigdec(dec, &want);
  if (big != 0 || !ids_value_fits(&want, k->bits)) {
    check_refused(s, name, k->forms, k->nforms, t->out,
                  big == 1 ? 0 : IDS_ERANGE);
    if (big == 0 && has && !cJSON_IsNull(has)) {
      k->fields(name, t->der, x);
      CHECKF(compose(s, x, &v) == IDS_ERANGE, "%s: compose must be "
             "IDS_ERANGE", name);
    }
    CHECKF(bytes && strncmp(bytes, "ERROR", 5) == 0, "%s: has %s", name,
           k->bytes_key);
    return 0;
  }
  if (!k->fields(name, t->der, x)) return 0;
  return check_entry(s, name, x, &want, k->forms, k->nforms, t->out,
                     k->bytes_key, k->dflt, value);
}

/* Every representation vector through check_value: `total` of them,
** `good` usable. */
static void check_representations (const cJSON *list,
                                   const scheme_vectors *k, int total,
                                   int good) {
  const cJSON *o;
  int seen = 0, usable = 0;
  cJSON_ArrayForEach(o, list) {
    const vector t = parts(o);
    ids_value v;
    seen++;
    usable += check_value(k, &t, &v);
  }
  CHECK(seen == total);
  CHECK(usable == good);
}

/* Every vector of list: `total` of them, `used` usable, `good` of those a
** usable value, and as many as `generated` checked against a generator. */
static void check_vectors (const cJSON *list, const scheme_vectors *k,
                           int total, int used, int good, int generated) {
  const cJSON *o;
  int seen = 0, applied = 0, usable = 0, made = 0;
  cJSON_ArrayForEach(o, list) {
    const vector t = parts(o);
    ids_value v;
    int ok;
    seen++;
    if (!k->usable(&t)) continue;
    applied++;
    ok = check_value(k, &t, &v);
    usable += ok;
    made += k->generated(&t, ok ? &v : NULL);
  }
  CHECK(seen == total);
  CHECK(applied == used);
  CHECK(usable == good);
  CHECK(made == generated);
}

/* ============================================================== Flax */

static const ids_scheme *FLAX;

static const form flax_forms[] = {
  {"flax", "string", NULL},
  {"hex", "id_num_hex", NULL},
  {"dec", "id_num_dec", NULL},
};
#define NFLAX (sizeof flax_forms / sizeof *flax_forms)
static const char *const flax_default[] = {"string", NULL};

static void test_flax_vectors (const cJSON *list) {
  const int ft = ids_scheme_field(FLAX, "timestamp");
  const int fr = ids_scheme_field(FLAX, "random");
  const cJSON *o;
  int total = 0, used = 0, inrange = 0, negative = 0;
  if (!CHECK(ft >= 0 && fr >= 0 && FLAX->nfields == 2)) return;
  cJSON_ArrayForEach(o, list) {
    const vector t = parts(o);
    const char *name = t.name, *dec = str(t.out, "id_num_dec");
    uint64_t x[IDS_MAXFIELDS] = {0};
    ids_value want, v;
    int big;
    total++;
    big = bigdec(dec, &want);
    if (big == 1) {
      /* before 2015: the reference writes a negative number; it has no
      ** float flag, and every form of it must be refused */
      ids_value u;
      negative++;
      CHECKF(decodes(FLAX, "dec", dec, &u) == IDS_EINVAL, "%s: dec \"%s\"",
             name, dec);
      CHECKF(decodes(FLAX, "hex", str(t.out, "id_num_hex"), &u) == IDS_EINVAL,
             "%s: hex \"%s\"", name, str(t.out, "id_num_hex"));
      continue;
    }
    if (!cJSON_IsFalse(item(t.in, "float_math_differs_from_exact"))) continue;
    used++;
    x[ft] = num(t.der, "ms_since_flax_epoch");
    x[fr] = hexnum(t.der, "random56_hex");
    CHECKF(x[ft] == num(t.in, "ms_exact_decimal_floor"), "%s: derived ms %"
           PRIu64 " is not the exact ms", name, x[ft]);
    if (x[ft] >> 40) {
      /* 2^40 ms and later: the reference writes garbage; we refuse */
      CHECKF(big == 0 && !ids_value_fits(&want, 96), "%s fits 96 bits",
             name);
      CHECKF(compose(FLAX, x, &v) == IDS_ERANGE, "%s: compose ms %" PRIu64
             " must be IDS_ERANGE", name, x[ft]);
      CHECKF(decodes(FLAX, "dec", dec, &v) == IDS_ERANGE, "%s: dec \"%s\" "
             "must be IDS_ERANGE", name, dec);
      CHECKF(decodes(FLAX, "hex", str(t.out, "id_num_hex"), &v) < 0,
             "%s: hex \"%s\" must be refused", name, str(t.out, "id_num_hex"));
      CHECKF(str(t.out, "bytes12_hex") == NULL, "%s has 12 bytes", name);
      continue;
    }
    inrange++;
    /* no encoding named: the default, flax */
    if (!check_entry(FLAX, name, x, &want, flax_forms, NFLAX, t.out,
                     "bytes12_hex", flax_default, &v))
      continue;
    CHECKF(cJSON_IsTrue(item(t.der, "string_decodes_back_to_id_num")),
           "%s: string does not decode back", name);
  }
  CHECK(total == 31);
  CHECK(used == 29);
  CHECK(inrange == 26);
  CHECK(negative == 2);
}

static void test_flax_encoder (const cJSON *list) {
  const ids_codec *flax = ids_codec_find(FLAX, "flax", 4);
  const cJSON *o;
  int total = 0, ok = 0, wide = 0, neg = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name"), *dec = str(o, "input_dec");
    const char *want = str(o, "output");
    ids_value v, back, n;
    int big = bigdec(dec, &n);
    total++;
    if (big == 1) {
      neg++;
      CHECKF(decodes(FLAX, "dec", dec, &v) == IDS_EINVAL, "%s: dec \"%s\" "
             "must be IDS_EINVAL", name, dec);
      continue;
    }
    if (big != 0 || !ids_value_fits(&n, 96)) {
      wide++;
      CHECKF(decodes(FLAX, "dec", dec, &v) == IDS_ERANGE, "%s: dec \"%s\" "
             "must be IDS_ERANGE", name, dec);
      continue;
    }
    ok++;
    if (!CHECKF(decodes(FLAX, "dec", dec, &v) == IDS_OK, "%s: dec \"%s\"",
                name, dec))
      continue;
    CHECKF(veq(&v, &n), "%s: dec gives %s", name, vhex(&v));
    {
      char got[IDS_TEXTMAX];
      ids_scheme_encode(FLAX, flax, &v, got);
      CHECKF(strcmp(got, want) == 0, "%s: flax of %s: got \"%s\", want "
             "\"%s\"", name, dec, got, want);
    }
    if (CHECKF(decode(FLAX, flax, want, strlen(want), &back) == IDS_OK,
               "%s: flax decode \"%s\"", name, want))
      CHECKF(veq(&back, &v), "%s: flax decode \"%s\" gives %s", name, want,
             vhex(&back));
  }
  CHECK(total == 14);
  CHECK(ok == 9);
  CHECK(wide == 3);
  CHECK(neg == 2);
}


/* ========================================================= Snowflake */

static const ids_scheme *SNOW;

static const form snow_forms[] = {
  {"dec", "format_d", NULL},
  {"hex", "to_hex", NULL},
  {"oct", "to_oct", NULL},
  {"b64", "to_base64", NULL},
  {"cb32", "to_cb32", NULL},
  {"b32l", "to_b32l", "a"},       /* SUOU writes "" for 0 */
};
#define NSNOW (sizeof snow_forms / sizeof *snow_forms)
static const char *const snow_default[] = {"format_d", NULL};   /* dec */

/* Fields from derived_not_reference, indexed like SNOW->fields. */
static int snow_fields (const char *name, const cJSON *der, uint64_t *x) {
  static const char *const key[][2] = {
    {"timestamp", "ms_since_epoch"}, {"worker", "local_id5"},
    {"shard", "shard5"}, {"sequence", "seq12"},
  };
  for (int i = 0; i < 4; i++) {
    int f = ids_scheme_field(SNOW, key[i][0]);
    if (!CHECKF(f >= 0, "snowflake has no field %s", key[i][0]) ||
        !CHECKF(item(der, key[i][1]) != NULL, "%s: no %s", name, key[i][1]))
      return 0;
    x[f] = num(der, key[i][1]);
  }
  return SNOW->nfields == 4;
}

/* Integer time only. */
static int snow_usable (const vector *t) {
  return cJSON_IsFalse(item(t->gs, "float_math_differs_from_exact"));
}

/* The generator, at the vector's time with a frozen clock, issues the
** vector's value as its (counter + 1)th ID: the epoch parameter, worker
** and shard options and the sequence land where the reference puts them.
** want NULL: the time is past the field (2^42 ms), and the generator
** refuses; a vector without a time is not for a generator (0). */
static int snow_generated (const vector *t, const ids_value *want) {
  double epoch_s;
  int64_t epoch_ms, now;
  ids_optval p[1] = {{1, 0, NULL, 0}};
  ids_optval o[IDS_MAXOPTS] = {{0}};
  const ids_scheme *s;
  ids_error e;
  if (want)
    CHECKF(num(t->gs, "cur_timestamp_ms") == num(t->der, "ms_since_epoch"),
           "%s: ms", t->name);
  else if (!item(t->der, "ms_since_epoch"))
    return 0;
  epoch_s = item(t->in, "epoch")->valuedouble;
  p[0].i = epoch_ms = (int64_t)epoch_s * 1000;
  if (!CHECKF((double)(int64_t)epoch_s == epoch_s, "%s: epoch", t->name))
    return 1;
  s = open_params(SNOW, p, &e);
  if (!CHECKF(s != NULL, "%s: open epoch_ms=%lld: %s", t->name,
              (long long)epoch_ms, e.msg))
    return 1;
  CHECK(s->epoch_ms == epoch_ms);
  now = (epoch_ms + (int64_t)num(t->der, "ms_since_epoch")) * 1000000 +
        999999;
  setopt(s, o, "worker", (int64_t)num(t->der, "local_id5"), NULL);
  setopt(s, o, "shard", (int64_t)num(t->der, "shard5"), NULL);
  check_generated(t->name, s, o, now, num(t->in, "counter"), want);
  return 1;
}

static const scheme_vectors snow_vectors = {
  &SNOW, 64, snow_forms, NSNOW, "ms_since_epoch", snow_fields,
  "to_bytes_8_hex", snow_default, snow_usable, snow_generated
};

/* Crockford's aliases for 1 (beyond the grammar table below), and
** parameters out of range. */
static void test_snow_grammar (void) {
  static const int64_t badepoch[] = {-1, INT64_C(1) << 60};
  ids_value v, one;
  /* 'I' and 'L' read as 1 in Crockford: value 1 is ...2, so use a 1 in an
  ** earlier digit: "0000000000010" is 16 << 1 >> 1 */
  if (CHECK(decodes(SNOW, "cb32", "00000000000I0", &v) == IDS_OK) &&
      CHECK(decodes(SNOW, "cb32", "0000000000010", &one) == IDS_OK))
    CHECK(veq(&v, &one) && v.w[0] == 16);
  if (CHECK(decodes(SNOW, "cb32", "00000000000l0", &v) == IDS_OK))
    CHECK(v.w[0] == 16);
  /* parameters outside the range the descriptor declares are refused, as
  ** generator options are (a C caller has no binding to check them) */
  for (size_t i = 0; i < 2; i++) {
    ids_optval p[1] = {{1, badepoch[i], NULL, 0}};
    ids_error e;
    const ids_scheme *s;
    CHECK(SNOW->nparams == 1 && strcmp(SNOW->params[0].name,
                                       "epoch_ms") == 0);
    CHECK(badepoch[i] < SNOW->params[0].min ||
          badepoch[i] > SNOW->params[0].max);
    memset(&e, 0, sizeof e);
    s = open_params(SNOW, p, &e);
    CHECKF(s == NULL && e.code == IDS_ERANGE, "snowflake epoch_ms = %lld "
           "(allowed %lld..%lld) accepted by ids_scheme_open", (long long)
           badepoch[i], (long long)SNOW->params[0].min,
           (long long)SNOW->params[0].max);
  }
}

/* =============================================================== SIQ */

static const ids_scheme *SIQ;
static int SF[5];                 /* timestamp shard domain serial qualifier */

static const form siq_forms[] = {
  {"hex", "to_hex", NULL},
  {"dec", "format_d", NULL},
  {"oct", "to_oct", NULL},
  {"b64", "to_base64", NULL},
  {"cb32", "to_cb32", "0"},       /* SUOU writes "" for 0 */
  {"b32l", "to_b32l", NULL},
  {"did", "to_did", NULL},
};
#define NSIQ (sizeof siq_forms / sizeof *siq_forms)
/* no encoding named: did:siq: is read as did, anything else as hex */
static const char *const siq_default[] = {"to_did", "to_hex", NULL};

/* A SIQ type name in lower case, into low (cap bytes); 0 if too long. */
static int lower (const char *type, char *low, size_t cap) {
  size_t n = strlen(type);
  if (n >= cap) return 0;
  for (size_t i = 0; i <= n; i++)
    low[i] = (char)(type[i] >= 'A' && type[i] <= 'Z' ? type[i] + 32 :
                    type[i]);
  return 1;
}

static uint64_t qual (const char *type) {
  char low[32];
  int64_t q;
  if (!lower(type, low, sizeof low)) return 0;
  q = ids_scheme_qualifier(SIQ, low, strlen(low));
  CHECKF(q > 0, "siq has no qualifier \"%s\"", low);
  if (q > 0) CHECK_STR(ids_scheme_qualifier_name(SIQ, (uint64_t)q), low);
  return q > 0 ? (uint64_t)q : 0;
}

static uint64_t hashname (const ids_scheme *s, const char *name, size_t n) {
  int f = -1;
  uint64_t h = SENTINEL;
  ids_error e;
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].from) f = i;
  if (!CHECKF(f >= 0 && s->layout->hashname, "%s hashes no field", s->name))
    return 0;
  CHECKF(s->layout->hashname(s, f, name, n, &h, &e) == IDS_OK, "%s hashname", s->name);
  return h;
}

/* A hash from the last 8 hex digits of a SHA-256. */
static uint64_t tail32 (const char *sha) {
  size_t n = strlen(sha);
  return n >= 8 ? strtoull(sha + n - 8, NULL, 16) : SENTINEL;
}

static void test_siq_domains (const cJSON *list) {
  const cJSON *o;
  int total = 0, used = 0, nonascii = 0;
  cJSON_ArrayForEach(o, list) {
    const cJSON *d = item(o, "domain");
    const char *sha = str(o, "sha256_utf8_hex");
    const char *dom = cJSON_IsString(d) ? d->valuestring : NULL;
    uint64_t h;
    total++;
    if (!cJSON_IsNull(item(o, "local_id")) || dom == NULL) continue;
    used++;
    h = hashname(SIQ, dom, strlen(dom));
    if (strcmp(dom, "0") == 0) {
      /* the reference gives 0 (Python truthiness); ours hashes "0" */
      CHECK_U64(num(o, "hash"), 0);
      CHECK_U64(h, 0x27fb57e9u);   /* SHA-256("0") ends 27fb57e9 */
      continue;
    }
    if (str(o, "error")) {
      /* non-ASCII: the reference raises; ours hashes the exact bytes */
      nonascii++;
      CHECKF(h == tail32(sha), "\"%s\": got %08" PRIx64 ", want %08" PRIx64,
             dom, h, tail32(sha));
      continue;
    }
    CHECKF(h == num(o, "hash"), "domain \"%s\": got %08" PRIx64 ", want %08"
           PRIx64, dom, h, num(o, "hash"));
    if (sha) CHECK_U64(tail32(sha), num(o, "hash"));
  }
  CHECK(total == 24);
  CHECK(used == 15);
  CHECK(nonascii == 2);
  CHECK_U64(hashname(SIQ, "", 0), 0);   /* "" means no domain */
}

static void test_siq_types (const cJSON *list) {
  const cJSON *o;
  int total = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name");
    uint64_t q = qual(name), x[IDS_MAXFIELDS] = {0}, back[IDS_MAXFIELDS];
    uint64_t max = num(o, "max_serial");
    static const char *const keys[] = {"prepend(0)", "prepend(1)",
                                       "prepend(max)"};
    ids_value v;
    total++;
    CHECKF(q == num(o, "value"), "%s: value %" PRIu64, name, q);
    CHECK_U64(max, ((uint64_t)1 << num(o, "serial_bits")) - 1);
    x[SF[4]] = q;
    for (int k = 0; k < 3; k++) {
      x[SF[3]] = k == 0 ? 0 : k == 1 ? 1 : max;
      if (!CHECKF(compose(SIQ, x, &v) == IDS_OK, "%s serial %" PRIu64, name,
                  x[SF[3]]))
        continue;
      CHECKF(v.w[0] == num(o, keys[k]) && v.w[1] == 0, "%s %s: got %s", name,
             keys[k], vhex(&v));
      ids_scheme_decompose(SIQ, &v, back);
      CHECK_U64(back[SF[3]], x[SF[3]]);
      CHECK_U64(back[SF[4]], q);
    }
    x[SF[3]] = max + 1;
    CHECKF(compose(SIQ, x, &v) == IDS_ERANGE, "%s: serial %" PRIu64 " must "
           "be IDS_ERANGE", name, max + 1);
  }
  CHECK(total == 15);
  CHECK(SIQ->nquals == 15);
  /* a value that names no type */
  {
    uint64_t x[IDS_MAXFIELDS] = {0};
    ids_value v;
    x[SF[4]] = 18;
    CHECK(compose(SIQ, x, &v) < 0);
    x[SF[4]] = 0;
    CHECK(compose(SIQ, x, &v) < 0);
  }
}

/* Fields from derived_not_reference, indexed like SIQ->fields. */
static int siq_fields (const char *name, const cJSON *der, uint64_t *x) {
  const char *type = str(der, "qualifier_type");
  if (!CHECKF(type != NULL, "%s: no qualifier_type", name)) return 0;
  x[SF[0]] = hexnum(der, "ts56_hex");
  x[SF[1]] = num(der, "shard8");
  x[SF[2]] = num(der, "domain_hash32");
  x[SF[3]] = num(der, "serial");
  x[SF[4]] = qual(type);
  return 1;
}

/* Integer time only; ts56 set directly through the hook is exact. */
static int siq_usable (const vector *t) {
  return cJSON_IsFalse(item(t->gs, "float_math_differs_from_exact")) ||
         cJSON_IsNumber(item(t->in, "direct_ts56"));
}

/* The vector's domain hashes as the reference's; the generator at the
** vector's tick, with the vector's domain, shard and type, issues the
** vector's value as its (serial + 1)th ID.  0 for a refused value, or a
** tick past what the clock holds. */
static int siq_generated (const vector *t, const ids_value *want) {
  const char *dom = str(t->in, "domain");
  int named = cJSON_IsNull(item(t->in, "local_id")) && dom &&
              strcmp(dom, "0") != 0;
  char low[32];
  int64_t now;
  ids_optval o[IDS_MAXOPTS] = {{0}};
  if (want == NULL) return 0;
  if (named)
    CHECKF(hashname(SIQ, dom, strlen(dom)) == num(t->der, "domain_hash32"),
           "%s: domain hash", t->name);
  now = siq_tick_ns(hexnum(t->der, "ts56_hex"));
  if (now < 0) return 0;
  if (!lower(str(t->der, "qualifier_type"), low, sizeof low)) return 1;
  if (named)
    setopt(SIQ, o, "domain_name", 0, dom);
  else
    setopt(SIQ, o, "domain", (int64_t)num(t->der, "domain_hash32"), NULL);
  setopt(SIQ, o, "shard", (int64_t)num(t->der, "shard8"), NULL);
  setopt(SIQ, o, "qualifier", 0, low);
  check_generated(t->name, SIQ, o, now, num(t->der, "serial"), want);
  return 1;
}

static const scheme_vectors siq_vectors = {
  &SIQ, 112, siq_forms, NSIQ, "qualifier_type", siq_fields,
  "to_bytes_default_hex", siq_default, siq_usable, siq_generated
};

/* A generator for example.com and `shard` (and `qualifier`, if set), on
** the scenarios' frozen clock, issues the IDs of `steps`: each {"type",
** "hex"} (an ID of that type) or a bare hex string (its own type). */
static void siq_sequence (int64_t shard, const char *qualifier,
                          const cJSON *steps) {
  int64_t now = 1700000000500000000;
  ids_optval opt[IDS_MAXOPTS] = {{0}};
  ids_clock clk = {frozen_now, &now};
  ids_generator g;
  ids_error e;
  const cJSON *step;
  ids_value last = {{0, 0, 0}};
  int n = 0;
  setopt(SIQ, opt, "domain_name", 0, "example.com");
  setopt(SIQ, opt, "shard", shard, NULL);
  if (qualifier) setopt(SIQ, opt, "qualifier", 0, qualifier);
  if (!CHECK(gen_init(&g, SIQ, opt, IDS_POLICY_HOLD, &clk, &e) == IDS_OK))
    return;
  cJSON_ArrayForEach(step, steps) {
    const char *type = str(step, "type");
    const char *hex = type ? str(step, "hex") : step->valuestring;
    const char *what = type ? type : "ids_generator_next";
    ids_value v, want;
    int r = ids_generator_next_as(&g, type ? (int64_t)qual(type) : -1, &v, &e);
    if (!CHECKF(r == IDS_OK, "%s: %d %s", what, r, e.msg)) break;
    if (!CHECK(decodes(SIQ, "hex", hex, &want) == IDS_OK)) continue;
    if (n > 0 && ids_value_cmp(&want, &last) <= 0) {
      /* the reference's ID is not above our last one (its per-type
      ** counters restart at 0); ours is the smallest above it with the
      ** same time, shard, domain and type */
      uint64_t x[IDS_MAXFIELDS], y[IDS_MAXFIELDS];
      ids_scheme_decompose(SIQ, &v, x);
      ids_scheme_decompose(SIQ, &want, y);
      CHECKF(ids_value_cmp(&v, &last) > 0 && x[0] == y[0] && x[1] == y[1] &&
             x[2] == y[2] && x[4] == y[4] && x[3] > y[3], "%s: got %s, the "
             "reference %s, the last %s", what, vhex(&v), hex, vhex(&last));
      CHECKF(ids_value_cmp(&v, &last) > 0 &&
             ((v.w[0] & 0xffff) - (last.w[0] & 0xffff)) <=
             ((uint64_t)1 << ((v.w[0] & 1) ? 3 : (v.w[0] & 7) == 6 ? 4 : 5)),
             "%s: %s is not the smallest above %s", what, vhex(&v),
             vhex(&last));
    }
    else
      CHECKF(veq(&v, &want), "%s: got %s, want %s", what, vhex(&v), hex);
    last = v;
    n++;
  }
}

/* The reference's test-mode counters: one serial per type per tick.  Ours
** share one tail per tick, so that a generator's IDs increase: where the
** reference's ID is not above the last, ours is the next above it. */
static void test_siq_scenarios (const cJSON *list) {
  const cJSON *o;
  int seen = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name");
    if (strcmp(name, "per_type_counters_test_mode") == 0) {
      seen++;
      siq_sequence(7, NULL, item(o, "sequence"));
    }
    else if (strcmp(name, "fresh_gen_fixed_clock_generate_list_4") == 0) {
      /* within one generate() call the reference counts 0, 1, 2, 3 (shard
      ** 64 from its patched PID); ours does so across calls as well */
      seen++;
      siq_sequence(64, "user", item(o, "ids_hex"));
    }
    else if (strcmp(name, "parse_errors") == 0) {
      ids_value v, want;
      uint8_t b13[13] = {0};
      seen++;
      CHECK(decodes(SIQ, NULL, str(o, "did_good"), &v) == IDS_OK);
      CHECK(decodes(SIQ, "did", str(o, "did_good"), &want) == IDS_OK);
      CHECK(veq(&v, &want));
      CHECK(decodes(SIQ, NULL, str(o, "did_tampered"), &v) == IDS_EINVAL);
      CHECK(decodes(SIQ, "did", str(o, "did_tampered"), &v) == IDS_EINVAL);
      /* the reference reads 13 bytes with a warning; we refuse */
      CHECK(from_bytes(SIQ, b13, sizeof b13, &v) == IDS_EINVAL);
    }
  }
  CHECK(seen == 3);
}

/* Unassigned qualifier suffixes in bytes and in a DID with a good checksum
** (beyond the grammar table below); every type through every form. */
static void test_siq_grammar (void) {
  ids_value v;
  ids_value bad5 = {{0}};
  char did[IDS_TEXTMAX];
  uint8_t b14[14];
  /* an unassigned suffix in bytes, and in a DID with a good checksum */
  bigdec("8258376282380787072694709846034", &bad5);   /* low 5 bits 10010 */
  CHECK((bad5.w[0] & 31) == 0x12);
  ids_value_to_bytes(&bad5, b14, sizeof b14);
  CHECK(from_bytes(SIQ, b14, sizeof b14, &v) == IDS_EINVAL);
  ids_scheme_encode(SIQ, ids_codec_find(SIQ, "did", 3), &bad5, did);
  CHECKF(decodes(SIQ, "did", did, &v) == IDS_EINVAL, "%s", did);
  CHECKF(decodes(SIQ, NULL, did, &v) == IDS_EINVAL, "%s", did);
  /* every type's value composes and decodes back through every form */
  for (int i = 0; i < SIQ->nquals; i++) {
    uint64_t x[IDS_MAXFIELDS] = {0}, back[IDS_MAXFIELDS];
    x[SF[0]] = 114607993683968;
    x[SF[1]] = 9;
    x[SF[2]] = 0xdeadbeef;
    x[SF[3]] = 5;
    x[SF[4]] = SIQ->quals[i].value;
    if (!CHECK(compose(SIQ, x, &v) == IDS_OK)) continue;
    for (size_t k = 0; k < NSIQ; k++) {
      const ids_codec *c = ids_codec_find(SIQ, siq_forms[k].codec,
                                          strlen(siq_forms[k].codec));
      char t[IDS_TEXTMAX];
      ids_value d;
      ids_scheme_encode(SIQ, c, &v, t);
      if (CHECKF(decode(SIQ, c, t, strlen(t), &d) == IDS_OK, "%s %s",
                 siq_forms[k].codec, t))
        CHECK(veq(&d, &v));
    }
    ids_scheme_decompose(SIQ, &v, back);
    for (int f = 0; f < 5; f++) CHECK_U64(back[SF[f]], x[SF[f]]);
  }
}

/* =========================================================== grammar */

/* Texts that each scheme must refuse, with the code they must give. */
static const bad refused[] = {
  /* Flax */
  {&FLAX, "flax", "0RdKJcxqVBiAiQr", IDS_EINVAL, "15 digits"},
  {&FLAX, "flax", "0RdKJcxqVBiAiQr00", IDS_EINVAL, "17 digits"},
  {&FLAX, "flax", "0RdKJcxqVBiAiQr+", IDS_EINVAL, "'+' is not a digit"},
  {&FLAX, "flax", "0RdKJcxqVBiAiQr=", IDS_EINVAL, "'=' is not a digit"},
  {&FLAX, "flax", "0RdKJcxqVB iAiQr", IDS_EINVAL, "space inside"},
  {&FLAX, "hex", "5ca55528f7680cb8bb9bdc1", IDS_EINVAL, "23 digits"},
  {&FLAX, "hex", "005ca55528f7680cb8bb9bdc1", IDS_EINVAL, "25 digits"},
  {&FLAX, "hex", "0x5ca55528f7680cb8bb9bdc", IDS_EINVAL, "0x prefix"},
  {&FLAX, "hex", "05ca55528f7680cb8bb9bdcg", IDS_EINVAL, "'g'"},
  {&FLAX, "dec", "+1", IDS_EINVAL, "sign"},
  {&FLAX, "dec", "1e5", IDS_EINVAL, "exponent"},
  {&FLAX, "dec", "79228162514264337593543950336", IDS_ERANGE, "2^96"},
  {&FLAX, "dec", "1461501637330902918203684832716283019655932542976",
   IDS_ERANGE, "2^160"},
  {&FLAX, "dec", "99999999999999999999999999999999999999999999999999999",
   IDS_ERANGE, "far past 2^160"},
  /* Snowflake */
  {&SNOW, "dec", "-5", IDS_EINVAL, "sign"},
  {&SNOW, "dec", "18446744073709551616", IDS_ERANGE, "2^64"},
  {&SNOW, "dec", "99999999999999999999999", IDS_ERANGE, "far past 2^64"},
  {&SNOW, "hex", "-5", IDS_EINVAL, "sign"},
  {&SNOW, "hex", "0x271065ac1020007", IDS_EINVAL, "0x prefix"},
  {&SNOW, "hex", "271065ac102000g", IDS_EINVAL, "'g'"},
  {&SNOW, "hex", "10000000000000000", IDS_ERANGE, "2^64"},
  {&SNOW, "oct", "11610145530100400008", IDS_EINVAL, "'8'"},
  {&SNOW, "oct", "2000000000000000000000", IDS_ERANGE, "2^64"},
  {&SNOW, "b64", "AAJxBlrBAgA", IDS_EINVAL, "11 digits"},
  {&SNOW, "b64", "AAJxBlrBAgAHA", IDS_EINVAL, "13 digits"},
  {&SNOW, "b64", "AAJxBlrBAg+H", IDS_EINVAL, "'+' (not URL-safe)"},
  {&SNOW, "b64", "AAJxBlrBAgA=", IDS_EINVAL, "padding"},
  {&SNOW, "b64", "AQAAAAAAAAAA", IDS_ERANGE, "2^64"},
  {&SNOW, "b64", "________________", IDS_EINVAL, "16 digits"},
  {&SNOW, "cb32", "09RGCPP10800", IDS_EINVAL, "12 digits"},
  {&SNOW, "cb32", "09RGCPP10800EE", IDS_EINVAL, "14 digits"},
  {&SNOW, "cb32", "09RGCPP10800F", IDS_EINVAL, "pad bit set"},
  {&SNOW, "cb32", "09RGCPP1080UE", IDS_EINVAL, "'U' is not Crockford"},
  {&SNOW, "b32l", "_f", IDS_EINVAL, "SUOU's negative form"},
  {&SNOW, "b32l", "e4igllaqeaa1", IDS_EINVAL, "'1'"},
  {&SNOW, "b32l", "e4igllaqeaa8", IDS_EINVAL, "'8'"},
  {&SNOW, "b32l", "qaaaaaaaaaaaa", IDS_ERANGE, "2^64"},
  /* SIQ: the low 5 bits 10010, 11010, 11100 name no type */
  {&SIQ, "hex", "683c40c080002a86ce19470012", IDS_EINVAL, "suffix 10010"},
  {&SIQ, "hex", "683c40c080002a86ce1947001a", IDS_EINVAL, "suffix 11010"},
  {&SIQ, "hex", "683c40c080002a86ce1947001c", IDS_EINVAL, "suffix 11100"},
  {&SIQ, "hex", "683c40c080002a86ce1947fff2", IDS_EINVAL, "suffix 10010"},
  {&SIQ, "dec", "18", IDS_EINVAL, "suffix 10010"},
  {&SIQ, "dec", "26", IDS_EINVAL, "suffix 11010"},
  {&SIQ, "dec", "28", IDS_EINVAL, "suffix 11100"},
  {&SIQ, "cb32", "J", IDS_EINVAL, "suffix 10010"},
  {&SIQ, "b64", "AAAAAAAAAAAAAAAAAAAc", IDS_EINVAL, "suffix 11100"},
  /* checksums */
  {&SIQ, "did", "did:siq:g626nfyagqpcaycaaakugzymuoaag", IDS_EINVAL,
   "last digit changed"},
  {&SIQ, "did", "did:siq:h626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
   "checksum digit changed"},
  {&SIQ, NULL, "did:siq:g626nfyagqpcaycaaakugzymuoaag", IDS_EINVAL,
   "last digit changed"},
  /* lengths */
  {&SIQ, "did", "did:siq:626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
   "28 digits"},
  {&SIQ, "did", "did:siq:ag626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
   "30 digits"},
  {&SIQ, "did", "did:siq:", IDS_EINVAL, "no digits"},
  {&SIQ, "did", "g626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL, "no prefix"},
  {&SIQ, "did", "did:siQ:g626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
   "prefix case"},
  {&SIQ, "did", "did:siq:g626nfyagqpcaycaaakugzymuoaa1", IDS_EINVAL, "'1'"},
  {&SIQ, "b64", "AABoPEDAgAAqhs4ZRwA", IDS_EINVAL, "19 digits"},
  {&SIQ, "b64", "AABoPEDAgAAqhs4ZRwAHA", IDS_EINVAL, "21 digits"},
  {&SIQ, "b64", "AABoPEDAgAAqhs4ZRw+H", IDS_EINVAL, "'+'"},
  {&SIQ, "b64", "AQAAAAAAAAAAAAAAAAAA", IDS_ERANGE, "2^112"},
  {&SIQ, "b32l", "aaagqpcaycaaakugzymuoaa", IDS_EINVAL, "23 digits"},
  {&SIQ, "b32l", "aaagqpcaycaaakugzymuoaahh", IDS_EINVAL, "25 digits"},
  {&SIQ, "b32l", "aaagqpcaycaaakugzymuoaa8", IDS_EINVAL, "'8'"},
  {&SIQ, "b32l", "aeaaaaaaaaaaaaaaaaaaaaaa", IDS_ERANGE, "2^112"},
  {&SIQ, "cb32", "40000000000000000000000", IDS_ERANGE, "2^112"},
  {&SIQ, "cb32", "6GF20R2000AM6SRCME00U", IDS_EINVAL, "'U'"},
  {&SIQ, "hex", "10000000000000000000000000000", IDS_ERANGE, "2^112"},
  {&SIQ, "hex", "683c40c080002a86ce1947000g", IDS_EINVAL, "'g'"},
  {&SIQ, "hex", "0x683c40c080002a86ce19470007", IDS_EINVAL, "0x"},
  {&SIQ, "oct", "15017040300400000524154703121600008", IDS_EINVAL, "'8'"},
  {&SIQ, "dec", "-1", IDS_EINVAL, "sign"},
  {&SIQ, "dec", "5192296858534827628530496329220096", IDS_ERANGE, "2^112"},
  {&SIQ, NULL, "did:siq", IDS_EINVAL, "hex with ':'"},
};

/* Texts that must decode to their scheme's value (grammars[] below). */
static const good_text accepted[] = {
  /* Flax: trimmed at both ends; hex reads either case */
  {&FLAX, NULL, " \t0RdKJcxqVBiAiQr0\r\n"},
  {&FLAX, "hex", "05CA55528F7680CB8BB9BDC1"},
  {&FLAX, "dec", "0001792030988790530007327423937"},
  /* Snowflake: case and Crockford's aliases; leading zero digits; white
  ** space */
  {&SNOW, "cb32", "09rgcpp10800e"}, {&SNOW, "cb32", "O9RGCPP1O8OOE"},
  {&SNOW, "hex", "271065AC1020007"}, {&SNOW, "hex", "000271065ac1020007"},
  {&SNOW, "b32l", "E4IGLLAQEAAH"}, {&SNOW, "b32l", "aaaae4igllaqeaah"},
  {&SNOW, "dec", " 175928847299117063\n"},
  /* SIQ */
  {&SIQ, "cb32", "6gf20r2000am6srcme007"},
  {&SIQ, "cb32", "6GF2OR2OOOAM6SRCMEOO7"},
  {&SIQ, "cb32", "06GF20R2000AM6SRCME007"},      /* SUOU's '0c' form */
  {&SIQ, "hex", "683C40C080002A86CE19470007"},
  {&SIQ, "hex", "00683c40c080002a86ce19470007"},
  {&SIQ, "b32l", "AAAGQPCAYCAAAKUGZYMUOAAH"},
  {&SIQ, "did", "did:siq:G626NFYAGQPCAYCAAAKUGZYMUOAAH"},
  {&SIQ, NULL, "  did:siq:g626nfyagqpcaycaaakugzymuoaah\t"},
  {&SIQ, NULL, "683c40c080002a86ce19470007\n"},
};

/* Each scheme's value that its accepted texts give, and byte lengths
** (none the scheme's) that from_bytes refuses with IDS_EINVAL. */
static const struct {
  const ids_scheme *const *s;
  const char *value;
  size_t nlengths, lengths[3];
} grammars[] = {
  {&FLAX, "1792030988790530007327423937", 3, {11, 13, 0}},
  {&SNOW, "175928847299117063", 3, {9, 7, 14}},   /* 14: SUOU's default */
  {&SIQ, "8258376282380787072694709846023", 2,   /* type_CONTENT_serial0 */
   {15, 0}},
};

/* Each scheme's texts refused and accepted, and byte lengths refused; no
** text, or white space alone, is no ID of any. */
static void test_grammar (void) {
  static const char *const blank[] = {"", "  ", " \n", " \t\n"};
  for (size_t i = 0; i < sizeof grammars / sizeof *grammars; i++) {
    const ids_scheme *s = *grammars[i].s;
    ids_value want, v;
    bigdec(grammars[i].value, &want);
    check_bad(s, refused, sizeof refused / sizeof *refused);
    for (size_t k = 0; k < sizeof blank / sizeof *blank; k++)
      CHECKF(decodes(s, NULL, blank[k], &v) == IDS_EINVAL, "%s: \"%s\"",
             s->name, show(blank[k], strlen(blank[k])));
    check_good(s, accepted, sizeof accepted / sizeof *accepted, &want);
    check_lengths(s, grammars[i].lengths, grammars[i].nlengths);
  }
}

/* --------------------------------------------------------------- main */

int main (int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : IDS_VECTORS;
  static const char *const siqf[5] = {"timestamp", "shard", "domain",
                                      "serial", "qualifier"};
  cJSON *j;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  FLAX = ids_scheme_find("flax");
  SNOW = ids_scheme_find("snowflake");
  SIQ = ids_scheme_find("siq");
  if (!CHECK(FLAX && SNOW && SIQ)) return t_done();
  for (int i = 0; i < 5; i++)
    if (!CHECKF((SF[i] = ids_scheme_field(SIQ, siqf[i])) >= 0, "siq %s",
                siqf[i]))
      return t_done();
  CHECK(SIQ->nfields == 5);

  j = load(dir, "flax.json");
  test_flax_vectors(section(j, "flax.json", "vectors"));
  test_flax_encoder(section(j, "flax.json", "encoder_vectors"));
  cJSON_Delete(j);

  j = load(dir, "snowflake.json");
  check_vectors(section(j, "snowflake.json", "vectors"), &snow_vectors, 26,
                21, 19, 20);
  check_representations(section(j, "snowflake.json",
                                "representation_vectors"), &snow_vectors,
                        8, 6);
  test_snow_grammar();
  cJSON_Delete(j);

  j = load(dir, "siq.json");
  test_siq_domains(section(j, "siq.json", "domain_hash_vectors"));
  test_siq_types(section(j, "siq.json", "siq_types"));
  check_vectors(section(j, "siq.json", "vectors"), &siq_vectors, 55, 53, 50,
                48);
  check_representations(section(j, "siq.json", "representation_vectors"),
                        &siq_vectors, 7, 6);
  test_siq_scenarios(section(j, "siq.json", "scenarios"));
  test_siq_grammar();
  cJSON_Delete(j);
  test_grammar();
  return t_done();
}
