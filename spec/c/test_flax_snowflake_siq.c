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
#include <stdlib.h>

#include <cJSON.h>

#include "idscheme.h"
#include "test.h"

#ifndef IDS_VECTORS
#define IDS_VECTORS "spec/vectors"
#endif

#define SENTINEL  0x5a5a5a5a5a5a5a5aull

/* ------------------------------------------------------------ helpers */

static cJSON *load (const char *dir, const char *file) {
  char path[1024];
  FILE *f;
  long n;
  char *text;
  cJSON *j;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  f = fopen(path, "rb");
  if (f == NULL) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  text = malloc((size_t)n + 1);
  if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: cannot read\n", path);
    exit(2);
  }
  text[n] = '\0';
  fclose(f);
  j = cJSON_Parse(text);
  free(text);
  if (j == NULL) { fprintf(stderr, "%s: bad JSON\n", path); exit(2); }
  return j;
}

static const cJSON *item (const cJSON *o, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* Vector integers: decimal strings below 2^64, or JSON numbers below 2^53
** (cJSON holds numbers as doubles: larger ones are read from their _hex
** twin with hexnum). */
static uint64_t num (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  if (cJSON_IsString(x)) return strtoull(x->valuestring, NULL, 10);
  if (cJSON_IsNumber(x) && x->valuedouble >= 0 &&
      x->valuedouble < 9007199254740992.0)
    return (uint64_t)x->valuedouble;
  fprintf(stderr, "vector without \"%s\" below 2^53\n", key);
  exit(2);
}

static uint64_t hexnum (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  if (cJSON_IsString(x)) return strtoull(x->valuestring, NULL, 16);
  fprintf(stderr, "vector without \"%s\"\n", key);
  exit(2);
}

static const cJSON *section (const cJSON *j, const char *file,
                             const char *key) {
  const cJSON *a = item(j, key);
  if (!cJSON_IsArray(a) && !cJSON_IsObject(a)) {
    fprintf(stderr, "%s: no \"%s\"\n", file, key);
    exit(2);
  }
  return a;
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

/* Hex digits to bytes; returns the count. */
static size_t unhex (const char *h, uint8_t *out, size_t cap) {
  size_t n = 0;
  for (; h[0] && h[1] && n < cap; h += 2) {
    char b[3] = {h[0], h[1], 0};
    out[n++] = (uint8_t)strtoul(b, NULL, 16);
  }
  return n;
}

static const char *vhex (const ids_value *v) {
  static char buf[4][64];
  static int k;
  char *q = buf[k++ & 3];
  snprintf(q, 64, "%08" PRIx64 "%016" PRIx64 "%016" PRIx64, v->w[2] &
           0xffffffffu, v->w[1], v->w[0]);
  return q;
}

static int veq (const ids_value *a, const ids_value *b) {
  return ids_value_cmp(a, b) == 0;
}

/* ids_decode with the checks every call deserves: a failure carries its
** own code and a message, and leaves *v alone. */
static int decode (const ids_scheme *s, const ids_codec *c, const char *t,
                   size_t n, ids_value *v) {
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  v->w[0] = v->w[1] = v->w[2] = SENTINEL;
  r = ids_decode(s, c, t, n, v, &e);
  if (r < 0) {
    CHECKF(e.msg[0] != '\0', "%s: no message for \"%s\" (%s)", s->name, t,
           c ? c->name : "default");
    CHECKF(e.code == r, "%s \"%s\": e.code %d, returned %d", s->name, t,
           e.code, r);
  }
  return r;
}

static int decodes (const ids_scheme *s, const char *codec, const char *t,
                    ids_value *v) {
  const ids_codec *c = codec ? ids_codec_find(s, codec, strlen(codec))
                             : NULL;
  if (codec && !CHECKF(c != NULL, "%s has no codec %s", s->name, codec))
    return IDS_ENOENT;
  return decode(s, c, t, strlen(t), v);
}

static int from_bytes (const ids_scheme *s, const uint8_t *b, size_t n,
                       ids_value *v) {
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  r = ids_from_bytes(s, b, n, v, &e);
  if (r < 0)
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s from_bytes(%zu): code %d,"
           " e.code %d, \"%s\"", s->name, n, r, e.code, e.msg);
  return r;
}

static int compose (const ids_scheme *s, const uint64_t *x, ids_value *v) {
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  r = ids_compose(s, x, v, &e);
  if (r < 0)
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s compose: code %d, e.code "
           "%d, \"%s\"", s->name, r, e.code, e.msg);
  return r;
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
    n = ids_encode(s, c, v, got);
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

/* Texts that must be refused, with the code they must give. */
typedef struct bad {
  const char *codec;          /* NULL: the default (or detection) */
  const char *text;
  int code;
  const char *why;
} bad;

static void check_bad (const ids_scheme *s, const bad *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    ids_value v;
    int r = decodes(s, b[i].codec, b[i].text, &v);
    CHECKF(r == b[i].code, "%s %s \"%s\" (%s): got %d, want %d%s%s",
           s->name, b[i].codec ? b[i].codec : "default", b[i].text,
           b[i].why, r, b[i].code, r == IDS_OK ? ", value " : "",
           r == IDS_OK ? vhex(&v) : "");
  }
}

/* Generator options are indexed like s->genopts. */
static void setopt (const ids_scheme *s, ids_optval *o, const char *name,
                    int64_t x, const char *text) {
  for (int i = 0; i < s->ngenopts; i++)
    if (strcmp(s->genopts[i].name, name) == 0) {
      o[i].set = 1;
      o[i].i = x;
      o[i].s = text;
      o[i].len = text ? strlen(text) : 0;
      return;
    }
  fprintf(stderr, "%s has no generator option %s\n", s->name, name);
  exit(2);
}

/* A frozen injected clock. */
static int64_t frozen_now (void *ctx) { return *(const int64_t *)ctx; }

/* ============================================================== Flax */

static const ids_scheme *FLAX;

static const form flax_forms[] = {
  {"flax", "string", NULL},
  {"hex", "id_num_hex", NULL},
  {"dec", "id_num_dec", NULL},
};
#define NFLAX (sizeof flax_forms / sizeof *flax_forms)

static void test_flax_vectors (const cJSON *list) {
  const int ft = ids_field_index(FLAX, "timestamp");
  const int fr = ids_field_index(FLAX, "random");
  const cJSON *o;
  int total = 0, used = 0, inrange = 0, negative = 0;
  if (!CHECK(ft >= 0 && fr >= 0 && FLAX->nfields == 2)) return;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name");
    const cJSON *in = item(o, "input"), *out = item(o, "output");
    const cJSON *der = item(o, "derived_not_reference");
    const char *dec = str(out, "id_num_dec");
    uint64_t x[IDS_MAXFIELDS] = {0}, back[IDS_MAXFIELDS];
    ids_value want, v;
    int big;
    total++;
    big = bigdec(dec, &want);
    if (big == 1) {
      /* before 2015: the reference writes a negative number; it has no
      ** float flag, and every form of it must be refused */
      ids_value t;
      negative++;
      CHECKF(decodes(FLAX, "dec", dec, &t) == IDS_EINVAL, "%s: dec \"%s\"",
             name, dec);
      CHECKF(decodes(FLAX, "hex", str(out, "id_num_hex"), &t) == IDS_EINVAL,
             "%s: hex \"%s\"", name, str(out, "id_num_hex"));
      continue;
    }
    if (!cJSON_IsFalse(item(in, "float_math_differs_from_exact"))) continue;
    used++;
    x[ft] = num(der, "ms_since_flax_epoch");
    x[fr] = hexnum(der, "random56_hex");
    CHECKF(x[ft] == num(in, "ms_exact_decimal_floor"), "%s: derived ms %"
           PRIu64 " is not the exact ms", name, x[ft]);
    if (x[ft] >> 40) {
      /* 2^40 ms and later: the reference writes garbage; we refuse */
      CHECKF(big == 0 && !ids_value_fits(&want, 96), "%s fits 96 bits",
             name);
      CHECKF(compose(FLAX, x, &v) == IDS_ERANGE, "%s: compose ms %" PRIu64
             " must be IDS_ERANGE", name, x[ft]);
      CHECKF(decodes(FLAX, "dec", dec, &v) == IDS_ERANGE, "%s: dec \"%s\" "
             "must be IDS_ERANGE", name, dec);
      CHECKF(decodes(FLAX, "hex", str(out, "id_num_hex"), &v) < 0,
             "%s: hex \"%s\" must be refused", name, str(out, "id_num_hex"));
      CHECKF(str(out, "bytes12_hex") == NULL, "%s has 12 bytes", name);
      continue;
    }
    inrange++;
    if (!CHECKF(compose(FLAX, x, &v) == IDS_OK, "%s: compose", name))
      continue;
    CHECKF(veq(&v, &want), "%s: compose gives %s, want %s", name, vhex(&v),
           vhex(&want));
    CHECKF(cJSON_IsTrue(item(der, "string_decodes_back_to_id_num")),
           "%s: string does not decode back", name);
    check_forms(FLAX, name, &v, flax_forms, NFLAX, out);
    check_bytes(FLAX, name, &v, str(out, "bytes12_hex"));
    /* no encoding named: the default, flax */
    {
      ids_value d;
      const char *t = str(out, "string");
      if (CHECKF(decodes(FLAX, NULL, t, &d) == IDS_OK, "%s: default decode",
                 name))
        CHECKF(veq(&d, &v), "%s: default decode of %s", name, t);
      ids_decompose(FLAX, &v, back);
      CHECK_U64(back[ft], x[ft]);
      CHECK_U64(back[fr], x[fr]);
    }
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
      ids_encode(FLAX, flax, &v, got);
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

static void test_flax_grammar (void) {
  static const bad b[] = {
    {"flax", "0RdKJcxqVBiAiQr", IDS_EINVAL, "15 digits"},
    {"flax", "0RdKJcxqVBiAiQr00", IDS_EINVAL, "17 digits"},
    {"flax", "0RdKJcxqVBiAiQr+", IDS_EINVAL, "'+' is not a digit"},
    {"flax", "0RdKJcxqVBiAiQr=", IDS_EINVAL, "'=' is not a digit"},
    {"flax", "0RdKJcxqVB iAiQr", IDS_EINVAL, "space inside"},
    {"hex", "5ca55528f7680cb8bb9bdc1", IDS_EINVAL, "23 digits"},
    {"hex", "005ca55528f7680cb8bb9bdc1", IDS_EINVAL, "25 digits"},
    {"hex", "0x5ca55528f7680cb8bb9bdc", IDS_EINVAL, "0x prefix"},
    {"hex", "05ca55528f7680cb8bb9bdcg", IDS_EINVAL, "'g'"},
    {"dec", "+1", IDS_EINVAL, "sign"},
    {"dec", "1e5", IDS_EINVAL, "exponent"},
    {"dec", "79228162514264337593543950336", IDS_ERANGE, "2^96"},
    {"dec", "1461501637330902918203684832716283019655932542976",
     IDS_ERANGE, "2^160"},
    {"dec", "99999999999999999999999999999999999999999999999999999", IDS_ERANGE,
     "far past 2^160"},
    {NULL, "", IDS_EINVAL, "empty"},
    {NULL, " \t\n", IDS_EINVAL, "blank"},
  };
  ids_value v, want;
  uint8_t b11[11] = {0}, b13[13] = {0};
  check_bad(FLAX, b, sizeof b / sizeof *b);
  bigdec("1792030988790530007327423937", &want);
  /* trimmed at both ends; hex reads either case */
  if (CHECK(decodes(FLAX, NULL, " \t0RdKJcxqVBiAiQr0\r\n", &v) == IDS_OK))
    CHECK(veq(&v, &want));
  if (CHECK(decodes(FLAX, "hex", "05CA55528F7680CB8BB9BDC1", &v) == IDS_OK))
    CHECK(veq(&v, &want));
  if (CHECK(decodes(FLAX, "dec", "0001792030988790530007327423937", &v) ==
            IDS_OK))
    CHECK(veq(&v, &want));
  CHECK(from_bytes(FLAX, b11, sizeof b11, &v) == IDS_EINVAL);
  CHECK(from_bytes(FLAX, b13, sizeof b13, &v) == IDS_EINVAL);
  CHECK(from_bytes(FLAX, b13, 0, &v) == IDS_EINVAL);
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

/* Fields from derived_not_reference, indexed like SNOW->fields. */
static int snow_fields (const cJSON *der, uint64_t *x) {
  static const char *const key[][2] = {
    {"timestamp", "ms_since_epoch"}, {"worker", "local_id5"},
    {"shard", "shard5"}, {"sequence", "seq12"},
  };
  for (int i = 0; i < 4; i++) {
    int f = ids_field_index(SNOW, key[i][0]);
    if (!CHECKF(f >= 0, "snowflake has no field %s", key[i][0]) ||
        !CHECKF(item(der, key[i][1]) != NULL, "no %s", key[i][1]))
      return 0;
    x[f] = num(der, key[i][1]);
  }
  return SNOW->nfields == 4;
}

/* One Snowflake entry, vector or representation: compose, forms, bytes;
** or, for values outside 64 bits, refusal.  Returns 1 for a usable
** value, 0 when refused. */
static int snow_entry (const char *name, const cJSON *out, const cJSON *der,
                       ids_value *value) {
  const char *dec = str(out, "format_d");
  uint64_t x[IDS_MAXFIELDS] = {0}, back[IDS_MAXFIELDS];
  ids_value want, v;
  int big = bigdec(dec, &want);
  if (big == 1 || big == 2 || !ids_value_fits(&want, 64)) {
    check_refused(SNOW, name, snow_forms, NSNOW, out,
                  big == 1 ? 0 : IDS_ERANGE);
    if (big == 0 && der && item(der, "ms_since_epoch")) {
      snow_fields(der, x);
      CHECKF(compose(SNOW, x, &v) == IDS_ERANGE, "%s: compose must be "
             "IDS_ERANGE", name);
    }
    CHECKF(strncmp(str(out, "to_bytes_8_hex"), "ERROR", 5) == 0,
           "%s: has 8 bytes", name);
    return 0;
  }
  if (!snow_fields(der, x)) return 0;
  if (!CHECKF(compose(SNOW, x, &v) == IDS_OK, "%s: compose", name))
    return 0;
  CHECKF(veq(&v, &want), "%s: compose gives %s, want %s", name, vhex(&v),
         vhex(&want));
  check_forms(SNOW, name, &v, snow_forms, NSNOW, out);
  check_bytes(SNOW, name, &v, str(out, "to_bytes_8_hex"));
  ids_decompose(SNOW, &v, back);
  for (int i = 0; i < 4; i++)
    CHECKF(back[i] == x[i], "%s: field %s: got %" PRIu64 ", want %" PRIu64,
           name, SNOW->fields[i].name, back[i], x[i]);
  /* no encoding named: dec */
  {
    ids_value d;
    if (CHECKF(decodes(SNOW, NULL, dec, &d) == IDS_OK, "%s default", name))
      CHECK(veq(&d, &v));
  }
  *value = v;
  return 1;
}

/* The generator, at the vector's time with a frozen clock, issues the
** vector's value as its (counter + 1)th ID: the epoch parameter, worker
** and shard options and the sequence land where the reference puts them. */
static void snow_generate (const char *name, const cJSON *in,
                           const cJSON *der, const ids_value *want,
                           int outside) {
  double epoch_s = item(in, "epoch")->valuedouble;
  int64_t epoch_ms = (int64_t)epoch_s * 1000, now;
  uint64_t counter = num(in, "counter");
  ids_optval p[1] = {{1, epoch_ms, NULL, 0}};
  ids_optval o[IDS_MAXOPTS] = {{0}};
  const ids_scheme *s;
  ids_clock clk = {frozen_now, &now};
  ids_generator g;
  ids_value v = {{0, 0, 0}};
  ids_error e;
  int r = IDS_OK;
  if (!CHECKF((double)(int64_t)epoch_s == epoch_s, "%s: epoch", name))
    return;
  s = ids_open(SNOW, p, &e);
  if (!CHECKF(s != NULL, "%s: open epoch_ms=%lld: %s", name,
              (long long)epoch_ms, e.msg))
    return;
  CHECK(s->epoch_ms == epoch_ms);
  now = (epoch_ms + (int64_t)num(der, "ms_since_epoch")) * 1000000 + 999999;
  setopt(s, o, "worker", (int64_t)num(der, "local_id5"), NULL);
  setopt(s, o, "shard", (int64_t)num(der, "shard5"), NULL);
  if (!CHECKF(ids_generator_init(&g, s, o, IDS_HOLD, &clk, &e) == IDS_OK,
              "%s: generator: %s", name, e.msg))
    return;
  for (uint64_t i = 0; i <= counter && r == IDS_OK; i++)
    r = ids_next(&g, &v, &e);
  if (outside) {
    CHECKF(r == IDS_ERANGE, "%s: a generator at 2^42 ms: got %d", name, r);
    return;
  }
  if (CHECKF(r == IDS_OK, "%s: ids_next: %d %s", name, r, e.msg))
    CHECKF(veq(&v, want), "%s: generated %s, want %s", name, vhex(&v),
           vhex(want));
}

static void test_snow_vectors (const cJSON *list) {
  const cJSON *o;
  int total = 0, used = 0, good = 0, generated = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name");
    const cJSON *in = item(o, "input"), *out = item(o, "output");
    const cJSON *der = item(o, "derived_not_reference");
    ids_value v;
    total++;
    if (!cJSON_IsFalse(item(item(o, "generator_state"),
                            "float_math_differs_from_exact")))
      continue;
    used++;
    if (snow_entry(name, out, der, &v)) {
      good++;
      CHECKF(num(item(o, "generator_state"), "cur_timestamp_ms") ==
             num(der, "ms_since_epoch"), "%s: ms", name);
      snow_generate(name, in, der, &v, 0);
      generated++;
    }
    else if (item(der, "ms_since_epoch")) {   /* 2^42 ms: past the field */
      snow_generate(name, in, der, &v, 1);
      generated++;
    }
  }
  CHECK(total == 26);
  CHECK(used == 21);
  CHECK(good == 19);
  CHECK(generated == 20);
}

static void test_snow_representations (const cJSON *list) {
  const cJSON *o;
  int total = 0, good = 0;
  cJSON_ArrayForEach(o, list) {
    ids_value v;
    total++;
    good += snow_entry(str(o, "name"), item(o, "output"),
                       item(o, "derived_not_reference"), &v);
  }
  CHECK(total == 8);
  CHECK(good == 6);
}

static void test_snow_grammar (void) {
  static const bad b[] = {
    {"dec", "-5", IDS_EINVAL, "sign"},
    {"dec", "18446744073709551616", IDS_ERANGE, "2^64"},
    {"dec", "99999999999999999999999", IDS_ERANGE, "far past 2^64"},
    {"hex", "-5", IDS_EINVAL, "sign"},
    {"hex", "0x271065ac1020007", IDS_EINVAL, "0x prefix"},
    {"hex", "271065ac102000g", IDS_EINVAL, "'g'"},
    {"hex", "10000000000000000", IDS_ERANGE, "2^64"},
    {"oct", "11610145530100400008", IDS_EINVAL, "'8'"},
    {"oct", "2000000000000000000000", IDS_ERANGE, "2^64"},
    {"b64", "AAJxBlrBAgA", IDS_EINVAL, "11 digits"},
    {"b64", "AAJxBlrBAgAHA", IDS_EINVAL, "13 digits"},
    {"b64", "AAJxBlrBAg+H", IDS_EINVAL, "'+' (not URL-safe)"},
    {"b64", "AAJxBlrBAgA=", IDS_EINVAL, "padding"},
    {"b64", "AQAAAAAAAAAA", IDS_ERANGE, "2^64"},
    {"b64", "________________", IDS_EINVAL, "16 digits"},
    {"cb32", "09RGCPP10800", IDS_EINVAL, "12 digits"},
    {"cb32", "09RGCPP10800EE", IDS_EINVAL, "14 digits"},
    {"cb32", "09RGCPP10800F", IDS_EINVAL, "pad bit set"},
    {"cb32", "09RGCPP1080UE", IDS_EINVAL, "'U' is not Crockford"},
    {"b32l", "_f", IDS_EINVAL, "SUOU's negative form"},
    {"b32l", "e4igllaqeaa1", IDS_EINVAL, "'1'"},
    {"b32l", "e4igllaqeaa8", IDS_EINVAL, "'8'"},
    {"b32l", "qaaaaaaaaaaaa", IDS_ERANGE, "2^64"},
    {NULL, "", IDS_EINVAL, "empty"},
    {NULL, "  ", IDS_EINVAL, "blank"},
  };
  const ids_value want = {{175928847299117063ull, 0, 0}};
  ids_value v;
  uint8_t b9[9] = {0};
  check_bad(SNOW, b, sizeof b / sizeof *b);
  /* case and Crockford's aliases; leading zero digits; white space */
  static const struct { const char *codec, *text; } good[] = {
    {"cb32", "09rgcpp10800e"}, {"cb32", "O9RGCPP1O8OOE"},
    {"hex", "271065AC1020007"}, {"hex", "000271065ac1020007"},
    {"b32l", "E4IGLLAQEAAH"}, {"b32l", "aaaae4igllaqeaah"},
    {"dec", " 175928847299117063\n"},
  };
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    if (CHECKF(decodes(SNOW, good[i].codec, good[i].text, &v) == IDS_OK,
               "%s \"%s\"", good[i].codec, good[i].text))
      CHECKF(veq(&v, &want), "%s \"%s\": %s", good[i].codec, good[i].text,
             vhex(&v));
  {
    /* 'I' and 'L' read as 1 in Crockford: value 1 is ...2, so use a 1 in
    ** an earlier digit: "0000000000010" is 16 << 1 >> 1 */
    ids_value one;
    if (CHECK(decodes(SNOW, "cb32", "00000000000I0", &v) == IDS_OK) &&
        CHECK(decodes(SNOW, "cb32", "0000000000010", &one) == IDS_OK))
      CHECK(veq(&v, &one) && v.w[0] == 16);
    if (CHECK(decodes(SNOW, "cb32", "00000000000l0", &v) == IDS_OK))
      CHECK(v.w[0] == 16);
  }
  CHECK(from_bytes(SNOW, b9, sizeof b9, &v) == IDS_EINVAL);
  CHECK(from_bytes(SNOW, b9, 7, &v) == IDS_EINVAL);
  CHECK(from_bytes(SNOW, b9, 14, &v) == IDS_EINVAL);  /* SUOU's default */
  /* parameters outside the range the descriptor declares are refused, as
  ** generator options are (a C caller has no binding to check them) */
  {
    static const int64_t badepoch[] = {-1, INT64_C(1) << 60};
    for (size_t i = 0; i < 2; i++) {
      ids_optval p[1] = {{1, badepoch[i], NULL, 0}};
      ids_error e;
      const ids_scheme *s;
      CHECK(SNOW->nparams == 1 && strcmp(SNOW->params[0].name,
                                         "epoch_ms") == 0);
      CHECK(badepoch[i] < SNOW->params[0].min ||
            badepoch[i] > SNOW->params[0].max);
      memset(&e, 0, sizeof e);
      s = ids_open(SNOW, p, &e);
      CHECKF(s == NULL && e.code == IDS_ERANGE, "snowflake epoch_ms = %lld "
             "(allowed %lld..%lld) accepted by ids_open", (long long)
             badepoch[i], (long long)SNOW->params[0].min,
             (long long)SNOW->params[0].max);
    }
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

static uint64_t qual (const char *type) {
  char low[32];
  size_t n = strlen(type);
  int64_t q;
  if (n >= sizeof low) return 0;
  for (size_t i = 0; i <= n; i++)
    low[i] = (char)(type[i] >= 'A' && type[i] <= 'Z' ? type[i] + 32 :
                    type[i]);
  q = ids_qualifier_value(SIQ, low, n);
  CHECKF(q > 0, "siq has no qualifier \"%s\"", low);
  if (q > 0) CHECK_STR(ids_qualifier_name(SIQ, (uint64_t)q), low);
  return q > 0 ? (uint64_t)q : 0;
}

static uint64_t hashname (const ids_scheme *s, const char *name, size_t n) {
  int f = -1;
  uint64_t h = SENTINEL;
  ids_error e;
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].from) f = i;
  if (!CHECKF(f >= 0 && s->hashname, "%s hashes no field", s->name))
    return 0;
  CHECKF(s->hashname(s, f, name, n, &h, &e) == IDS_OK, "%s hashname", s->name);
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
      ids_decompose(SIQ, &v, back);
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

static int siq_entry (const char *name, const cJSON *out, const cJSON *der,
                      ids_value *value) {
  const char *dec = str(out, "format_d");
  uint64_t x[IDS_MAXFIELDS] = {0}, back[IDS_MAXFIELDS];
  ids_value want, v;
  int big = bigdec(dec, &want);
  if (big != 0 || !ids_value_fits(&want, 112)) {
    check_refused(SIQ, name, siq_forms, NSIQ, out, big == 1 ? 0 : IDS_ERANGE);
    if (big == 0 && der && cJSON_IsString(item(der, "qualifier_type"))) {
      siq_fields(name, der, x);
      CHECKF(compose(SIQ, x, &v) == IDS_ERANGE, "%s: compose must be "
             "IDS_ERANGE", name);
    }
    return 0;
  }
  if (!siq_fields(name, der, x)) return 0;
  if (!CHECKF(compose(SIQ, x, &v) == IDS_OK, "%s: compose", name)) return 0;
  CHECKF(veq(&v, &want), "%s: compose gives %s, want %s", name, vhex(&v),
         vhex(&want));
  check_forms(SIQ, name, &v, siq_forms, NSIQ, out);
  check_bytes(SIQ, name, &v, str(out, "to_bytes_default_hex"));
  ids_decompose(SIQ, &v, back);
  for (int i = 0; i < 5; i++)
    CHECKF(back[SF[i]] == x[SF[i]], "%s: field %s: got %" PRIu64 ", want %"
           PRIu64, name, SIQ->fields[SF[i]].name, back[SF[i]], x[SF[i]]);
  /* no encoding named: did:siq: is read as did, anything else as hex */
  {
    ids_value d;
    const char *t = str(out, "to_did");
    if (CHECKF(decodes(SIQ, NULL, t, &d) == IDS_OK, "%s: default %s", name,
               t))
      CHECK(veq(&d, &v));
    t = str(out, "to_hex");
    if (CHECKF(decodes(SIQ, NULL, t, &d) == IDS_OK, "%s: default %s", name,
               t))
      CHECK(veq(&d, &v));
  }
  *value = v;
  return 1;
}

/* ns at which a clock reads SIQ tick t: the first ns of that tick. */
static int64_t siq_ns (uint64_t t) {
  unsigned __int128 ns = ((unsigned __int128)t * 1000000000u + 65535) / 65536;
  return ns > INT64_MAX ? -1 : (int64_t)ns;
}

/* The generator at the vector's tick, with the vector's domain, shard and
** type, issues the vector's value as its (serial + 1)th ID. */
static void siq_generate (const char *name, const cJSON *in,
                          const cJSON *der, const ids_value *want) {
  const cJSON *dom = item(in, "domain");
  const char *type = str(der, "qualifier_type");
  char low[32];
  int64_t now = siq_ns(hexnum(der, "ts56_hex"));
  uint64_t serial = num(der, "serial");
  ids_optval o[IDS_MAXOPTS] = {{0}};
  ids_clock clk = {frozen_now, &now};
  ids_generator g;
  ids_value v = {{0, 0, 0}};
  ids_error e;
  int r = IDS_OK;
  size_t n = strlen(type);
  if (now < 0 || n >= sizeof low) return;
  for (size_t i = 0; i <= n; i++)
    low[i] = (char)(type[i] >= 'A' && type[i] <= 'Z' ? type[i] + 32 :
                    type[i]);
  if (cJSON_IsNull(item(in, "local_id")) && cJSON_IsString(dom) &&
      strcmp(dom->valuestring, "0") != 0)
    setopt(SIQ, o, "domain_name", 0, dom->valuestring);
  else
    setopt(SIQ, o, "domain", (int64_t)num(der, "domain_hash32"), NULL);
  setopt(SIQ, o, "shard", (int64_t)num(der, "shard8"), NULL);
  setopt(SIQ, o, "qualifier", 0, low);
  if (!CHECKF(ids_generator_init(&g, SIQ, o, IDS_HOLD, &clk, &e) == IDS_OK,
              "%s: generator: %s", name, e.msg))
    return;
  for (uint64_t i = 0; i <= serial && r == IDS_OK; i++)
    r = ids_next(&g, &v, &e);
  if (CHECKF(r == IDS_OK, "%s: ids_next: %d %s", name, r, e.msg))
    CHECKF(veq(&v, want), "%s: generated %s, want %s", name, vhex(&v),
           vhex(want));
}

static void test_siq_vectors (const cJSON *list) {
  const cJSON *o;
  int total = 0, used = 0, good = 0, generated = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name");
    const cJSON *in = item(o, "input"), *out = item(o, "output");
    const cJSON *der = item(o, "derived_not_reference");
    const cJSON *gs = item(o, "generator_state");
    ids_value v;
    total++;
    /* integer time only; ts56 set directly through the hook is exact */
    if (!cJSON_IsFalse(item(gs, "float_math_differs_from_exact")) &&
        !cJSON_IsNumber(item(in, "direct_ts56")))
      continue;
    used++;
    if (!siq_entry(name, out, der, &v)) continue;
    good++;
    if (cJSON_IsNull(item(in, "local_id")) && cJSON_IsString(item(in,
        "domain")) && strcmp(str(in, "domain"), "0") != 0)
      CHECKF(hashname(SIQ, str(in, "domain"), strlen(str(in, "domain"))) ==
             num(der, "domain_hash32"), "%s: domain hash", name);
    if (siq_ns(hexnum(der, "ts56_hex")) >= 0) {
      siq_generate(name, in, der, &v);
      generated++;
    }
  }
  CHECK(total == 55);
  CHECK(used == 53);
  CHECK(good == 50);
  CHECK(generated == 48);
}

static void test_siq_representations (const cJSON *list) {
  const cJSON *o;
  int total = 0, good = 0;
  cJSON_ArrayForEach(o, list) {
    ids_value v;
    total++;
    good += siq_entry(str(o, "name"), item(o, "output"),
                      item(o, "derived_not_reference"), &v);
  }
  CHECK(total == 7);
  CHECK(good == 6);
}

/* The reference's test-mode counters: one serial per type per tick. */
static void test_siq_scenarios (const cJSON *list) {
  const cJSON *o;
  int seen = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "name");
    if (strcmp(name, "per_type_counters_test_mode") == 0) {
      int64_t now = 1700000000500000000;
      ids_optval opt[IDS_MAXOPTS] = {{0}};
      ids_clock clk = {frozen_now, &now};
      ids_generator g;
      ids_error e;
      const cJSON *step;
      seen++;
      setopt(SIQ, opt, "domain_name", 0, "example.com");
      setopt(SIQ, opt, "shard", 7, NULL);
      if (!CHECK(ids_generator_init(&g, SIQ, opt, IDS_HOLD, &clk, &e) ==
                 IDS_OK))
        continue;
      cJSON_ArrayForEach(step, item(o, "sequence")) {
        ids_value v, want;
        char hex[IDS_TEXTMAX];
        const char *type = str(step, "type");
        int r = ids_next_as(&g, (int64_t)qual(type), &v, &e);
        if (!CHECKF(r == IDS_OK, "%s: %d %s", type, r, e.msg)) break;
        ids_encode(SIQ, ids_codec_find(SIQ, "hex", 3), &v, hex);
        if (CHECK(decodes(SIQ, "hex", str(step, "hex"), &want) == IDS_OK))
          CHECKF(veq(&v, &want), "%s: got %s, want %s", type, hex,
                 str(step, "hex"));
      }
    }
    else if (strcmp(name, "fresh_gen_fixed_clock_generate_list_4") == 0) {
      /* within one generate() call the reference counts 0, 1, 2, 3 (shard
      ** 64 from its patched PID); ours does so across calls as well */
      int64_t now = 1700000000500000000;
      ids_optval opt[IDS_MAXOPTS] = {{0}};
      ids_clock clk = {frozen_now, &now};
      ids_generator g;
      ids_error e;
      const cJSON *h;
      seen++;
      setopt(SIQ, opt, "domain_name", 0, "example.com");
      setopt(SIQ, opt, "shard", 64, NULL);
      setopt(SIQ, opt, "qualifier", 0, "user");
      if (!CHECK(ids_generator_init(&g, SIQ, opt, IDS_HOLD, &clk, &e) ==
                 IDS_OK))
        continue;
      cJSON_ArrayForEach(h, item(o, "ids_hex")) {
        ids_value v, want;
        if (!CHECK(ids_next(&g, &v, &e) == IDS_OK)) break;
        if (CHECK(decodes(SIQ, "hex", h->valuestring, &want) == IDS_OK))
          CHECKF(veq(&v, &want), "got %s, want %s", vhex(&v),
                 h->valuestring);
      }
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

/* Unassigned qualifier suffixes, bad checksums, lengths and characters. */
static void test_siq_grammar (void) {
  static const bad b[] = {
    /* the low 5 bits 10010, 11010, 11100 name no type */
    {"hex", "683c40c080002a86ce19470012", IDS_EINVAL, "suffix 10010"},
    {"hex", "683c40c080002a86ce1947001a", IDS_EINVAL, "suffix 11010"},
    {"hex", "683c40c080002a86ce1947001c", IDS_EINVAL, "suffix 11100"},
    {"hex", "683c40c080002a86ce1947fff2", IDS_EINVAL, "suffix 10010"},
    {"dec", "18", IDS_EINVAL, "suffix 10010"},
    {"dec", "26", IDS_EINVAL, "suffix 11010"},
    {"dec", "28", IDS_EINVAL, "suffix 11100"},
    {"cb32", "J", IDS_EINVAL, "suffix 10010"},
    {"b64", "AAAAAAAAAAAAAAAAAAAc", IDS_EINVAL, "suffix 11100"},
    /* checksums */
    {"did", "did:siq:g626nfyagqpcaycaaakugzymuoaag", IDS_EINVAL,
     "last digit changed"},
    {"did", "did:siq:h626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
     "checksum digit changed"},
    {NULL, "did:siq:g626nfyagqpcaycaaakugzymuoaag", IDS_EINVAL,
     "last digit changed"},
    /* lengths */
    {"did", "did:siq:626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL, "28 digits"},
    {"did", "did:siq:ag626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
     "30 digits"},
    {"did", "did:siq:", IDS_EINVAL, "no digits"},
    {"did", "g626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL, "no prefix"},
    {"did", "did:siQ:g626nfyagqpcaycaaakugzymuoaah", IDS_EINVAL,
     "prefix case"},
    {"did", "did:siq:g626nfyagqpcaycaaakugzymuoaa1", IDS_EINVAL, "'1'"},
    {"b64", "AABoPEDAgAAqhs4ZRwA", IDS_EINVAL, "19 digits"},
    {"b64", "AABoPEDAgAAqhs4ZRwAHA", IDS_EINVAL, "21 digits"},
    {"b64", "AABoPEDAgAAqhs4ZRw+H", IDS_EINVAL, "'+'"},
    {"b64", "AQAAAAAAAAAAAAAAAAAA", IDS_ERANGE, "2^112"},
    {"b32l", "aaagqpcaycaaakugzymuoaa", IDS_EINVAL, "23 digits"},
    {"b32l", "aaagqpcaycaaakugzymuoaahh", IDS_EINVAL, "25 digits"},
    {"b32l", "aaagqpcaycaaakugzymuoaa8", IDS_EINVAL, "'8'"},
    {"b32l", "aeaaaaaaaaaaaaaaaaaaaaaa", IDS_ERANGE, "2^112"},
    {"cb32", "40000000000000000000000", IDS_ERANGE, "2^112"},
    {"cb32", "6GF20R2000AM6SRCME00U", IDS_EINVAL, "'U'"},
    {"hex", "10000000000000000000000000000", IDS_ERANGE, "2^112"},
    {"hex", "683c40c080002a86ce1947000g", IDS_EINVAL, "'g'"},
    {"hex", "0x683c40c080002a86ce19470007", IDS_EINVAL, "0x"},
    {"oct", "15017040300400000524154703121600008", IDS_EINVAL, "'8'"},
    {"dec", "-1", IDS_EINVAL, "sign"},
    {"dec", "5192296858534827628530496329220096", IDS_ERANGE, "2^112"},
    {NULL, "", IDS_EINVAL, "empty"},
    {NULL, " \n", IDS_EINVAL, "blank"},
    {NULL, "did:siq", IDS_EINVAL, "hex with ':'"},
  };
  static const struct { const char *codec, *text; } good[] = {
    {"cb32", "6gf20r2000am6srcme007"}, {"cb32", "6GF2OR2OOOAM6SRCMEOO7"},
    {"cb32", "06GF20R2000AM6SRCME007"},      /* SUOU's '0c' form */
    {"hex", "683C40C080002A86CE19470007"},
    {"hex", "00683c40c080002a86ce19470007"},
    {"b32l", "AAAGQPCAYCAAAKUGZYMUOAAH"},
    {"did", "did:siq:G626NFYAGQPCAYCAAAKUGZYMUOAAH"},
    {NULL, "  did:siq:g626nfyagqpcaycaaakugzymuoaah\t"},
    {NULL, "683c40c080002a86ce19470007\n"},
  };
  ids_value v, want;
  ids_value bad5 = {{0}};
  char did[IDS_TEXTMAX];
  uint8_t b14[14], b15[15] = {0};
  check_bad(SIQ, b, sizeof b / sizeof *b);
  bigdec("8258376282380787072694709846023", &want);  /* type_CONTENT_serial0 */
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    if (CHECKF(decodes(SIQ, good[i].codec, good[i].text, &v) == IDS_OK,
               "\"%s\"", good[i].text))
      CHECKF(veq(&v, &want), "\"%s\": %s", good[i].text, vhex(&v));
  /* an unassigned suffix in bytes, and in a DID with a good checksum */
  bigdec("8258376282380787072694709846034", &bad5);   /* low 5 bits 10010 */
  CHECK((bad5.w[0] & 31) == 0x12);
  ids_value_to_bytes(&bad5, b14, sizeof b14);
  CHECK(from_bytes(SIQ, b14, sizeof b14, &v) == IDS_EINVAL);
  ids_encode(SIQ, ids_codec_find(SIQ, "did", 3), &bad5, did);
  CHECKF(decodes(SIQ, "did", did, &v) == IDS_EINVAL, "%s", did);
  CHECKF(decodes(SIQ, NULL, did, &v) == IDS_EINVAL, "%s", did);
  CHECK(from_bytes(SIQ, b15, sizeof b15, &v) == IDS_EINVAL);
  b15[0] = 1;
  CHECK(from_bytes(SIQ, b15, 0, &v) == IDS_EINVAL);
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
      ids_encode(SIQ, c, &v, t);
      if (CHECKF(decode(SIQ, c, t, strlen(t), &d) == IDS_OK, "%s %s",
                 siq_forms[k].codec, t))
        CHECK(veq(&d, &v));
    }
    ids_decompose(SIQ, &v, back);
    for (int f = 0; f < 5; f++) CHECK_U64(back[SF[f]], x[SF[f]]);
  }
}

/* --------------------------------------------------------------- main */

int main (int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : IDS_VECTORS;
  static const char *const siqf[5] = {"timestamp", "shard", "domain",
                                      "serial", "qualifier"};
  cJSON *j;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  FLAX = ids_find("flax");
  SNOW = ids_find("snowflake");
  SIQ = ids_find("siq");
  if (!CHECK(FLAX && SNOW && SIQ)) return t_done();
  for (int i = 0; i < 5; i++)
    if (!CHECKF((SF[i] = ids_field_index(SIQ, siqf[i])) >= 0, "siq %s",
                siqf[i]))
      return t_done();
  CHECK(SIQ->nfields == 5);

  j = load(dir, "flax.json");
  test_flax_vectors(section(j, "flax.json", "vectors"));
  test_flax_encoder(section(j, "flax.json", "encoder_vectors"));
  test_flax_grammar();
  cJSON_Delete(j);

  j = load(dir, "snowflake.json");
  test_snow_vectors(section(j, "snowflake.json", "vectors"));
  test_snow_representations(section(j, "snowflake.json",
                                    "representation_vectors"));
  test_snow_grammar();
  cJSON_Delete(j);

  j = load(dir, "siq.json");
  test_siq_domains(section(j, "siq.json", "domain_hash_vectors"));
  test_siq_types(section(j, "siq.json", "siq_types"));
  test_siq_vectors(section(j, "siq.json", "vectors"));
  test_siq_representations(section(j, "siq.json", "representation_vectors"));
  test_siq_scenarios(section(j, "siq.json", "scenarios"));
  test_siq_grammar();
  cJSON_Delete(j);
  return t_done();
}
