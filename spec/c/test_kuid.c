/*
** test_kuid.c: kuid64 and kuid96 against spec/vectors/kuid.json and
** kuid_node_hash.tsv (fogfish/uid 1.3.5 on Erlang/OTP 25): the local and
** global encodings for every interval I, decoding with each I, node
** fingerprints (phash2, and phash for data of 1.3.4 and older), the
** legacy 1.3.4 and 1.3.3 text, and the reference's API calls mapped onto
** ours, where every crash or hang of the reference is a prompt error.
**
** usage: test_kuid [VECTORS_DIR]
*/
#include <time.h>

#include "helpers.h"

#define PROMPT_NS INT64_C(200000000)       /* "returns promptly": 0.2 s */

enum { MEGA, SEC, MICRO };                 /* field order; then node, seq */

static const ids_scheme *K64, *K96;

/* ------------------------------------------------------------ helpers */

/* Vector integers: all of kuid's are small (below 2^53), some negative. */
static int64_t inum (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  if (cJSON_IsNumber(x) && x->valuedouble > -9007199254740992.0 &&
      x->valuedouble < 9007199254740992.0)
    return (int64_t)x->valuedouble;
  fprintf(stderr, "vector without an integer \"%s\"\n", key);
  exit(2);
}

static int64_t mono (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* decodes (helpers.h) with the length given, and one check for the
** message and the code of a failure. */
static int decode_as (const ids_scheme *s, const char *codec, const char *t,
                      size_t n, ids_value *v) {
  const ids_codec *c = codec ? ids_codec_find(s, codec, strlen(codec))
                             : NULL;
  ids_error e;
  int r;
  if (codec && !CHECKF(c != NULL, "%s has no codec %s", s->name, codec))
    return IDS_ENOENT;
  memset(&e, 0, sizeof e);
  v->w[0] = v->w[1] = v->w[2] = SENTINEL;
  r = ids_scheme_decode(s, c, t, n, v, &e);
  if (r < 0)
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s \"%.*s\": code %d, e.code "
           "%d, message \"%s\"", s->name, (int)n, t, r, e.code, e.msg);
  return r;
}

/* kuid96 with interval I and hash ("phash2", "phash" or NULL); NULL and
** the error's code in *code if refused. */
static const ids_scheme *open96 (int64_t interval, const char *hash,
                                 int *code) {
  ids_optval p[2] = {{1, interval, NULL, 0}, {0, 0, NULL, 0}};
  ids_error e;
  const ids_scheme *s;
  if (hash) { p[1].set = 1; p[1].s = hash; p[1].len = strlen(hash); }
  memset(&e, 0, sizeof e);
  s = open_params(K96, p, &e);
  if (code) *code = s ? IDS_OK : e.code;
  if (s == NULL)
    CHECKF(e.msg[0] != '\0' && e.code < 0, "open kuid96 I=%lld: no message",
           (long long)interval);
  return s;
}

/* The node field's fingerprint of a name, through the scheme's hashname. */
static uint64_t fingerprint (const ids_scheme *s, const char *name,
                             size_t n) {
  int f = ids_scheme_field(s, "node");
  uint64_t h = SENTINEL;
  ids_error e;
  if (!CHECKF(f >= 0 && s->layout->hashname && s->fields[f].from &&
              strcmp(s->fields[f].from, "node_name") == 0,
              "%s: node from node_name", s->name))
    return 0;
  CHECKF(s->layout->hashname(s, f, name, n, &h, &e) == IDS_OK, "%s hashname",
         s->name);
  return h;
}

/* ------------------------------------------------------ Erlang terms */

/* {uid, [Node,] {A, B, C}, Seq}: Node an atom ('quoted' or bare) or a
** binary <<...>>. */
typedef struct term {
  int node;                   /* 0 none, 1 atom, 2 binary */
  char atom[300];
  size_t atomlen;
  uint8_t bin[16];
  size_t binlen;
  int64_t a, b, c, seq;
} term;

static int integer (const char **p, int64_t *x) {
  char *end;
  long long v = strtoll(*p, &end, 10);
  if (end == *p) return 0;
  *x = v;
  *p = end;
  return 1;
}

static int lit (const char **p, const char *s) {
  size_t n = strlen(s);
  if (strncmp(*p, s, n) != 0) return 0;
  *p += n;
  return 1;
}

static int parse_term (const char *t, term *out) {
  const char *p = t;
  memset(out, 0, sizeof *out);
  if (!lit(&p, "{uid,")) return 0;
  if (*p == '\'') {                          /* quoted atom */
    const char *q = strchr(p + 1, '\'');
    if (q == NULL || (size_t)(q - p - 1) >= sizeof out->atom) return 0;
    out->node = 1;
    out->atomlen = (size_t)(q - p - 1);
    memcpy(out->atom, p + 1, out->atomlen);
    p = q + 1;
    if (!lit(&p, ",")) return 0;
  }
  else if (lit(&p, "<<")) {                  /* binary */
    int64_t x;
    out->node = 2;
    while (integer(&p, &x)) {
      if (out->binlen == sizeof out->bin) return 0;
      out->bin[out->binlen++] = (uint8_t)x;
      if (!lit(&p, ",")) break;
    }
    if (!lit(&p, ">>,")) return 0;
  }
  else if (*p >= 'a' && *p <= 'z') {         /* bare atom */
    const char *q = strchr(p, ',');
    if (q == NULL || (size_t)(q - p) >= sizeof out->atom) return 0;
    out->node = 1;
    out->atomlen = (size_t)(q - p);
    memcpy(out->atom, p, out->atomlen);
    p = q + 1;
  }
  return lit(&p, "{") && integer(&p, &out->a) && lit(&p, ",") &&
         integer(&p, &out->b) && lit(&p, ",") && integer(&p, &out->c) &&
         lit(&p, "},") && integer(&p, &out->seq) && lit(&p, "}") && !*p;
}

/* A term's node as the 32-bit field value: a binary's bytes, an atom's
** fingerprint under scheme s.  -1 if it cannot be one. */
static int64_t term_node (const ids_scheme *s, const term *t) {
  if (t->node == 1) return (int64_t)fingerprint(s, t->atom, t->atomlen);
  if (t->node == 2 && t->binlen == 4)
    return (int64_t)((uint32_t)t->bin[0] << 24 | (uint32_t)t->bin[1] << 16 |
                     (uint32_t)t->bin[2] << 8 | t->bin[3]);
  return -1;
}

/* Fields of a term, indexed like s->fields (as uint64_t, so a negative
** Seq becomes a value no field holds). */
static void term_fields (const ids_scheme *s, const term *t, uint64_t *x) {
  x[MEGA] = (uint64_t)t->a;
  x[SEC] = (uint64_t)t->b;
  x[MICRO] = (uint64_t)t->c;
  if (s->nfields == 5) {
    x[3] = (uint64_t)term_node(s, t);
    x[4] = (uint64_t)t->seq;
  }
  else
    x[3] = (uint64_t)t->seq;
}

/* Could the reference's encode keep every part of this term?  (C on the
** 1024 grid, each part within its width.) */
static int exact (const term *t) {
  return t->a >= 0 && t->a < (1 << 20) && t->b >= 0 && t->b < (1 << 20) &&
         t->c >= 0 && t->c < (1 << 20) && t->c % 1024 == 0 && t->seq >= 0 &&
         t->seq < (1 << 14);
}

/* The value's fields are the term's. */
static void check_fields (const ids_scheme *s, const char *what,
                          const ids_value *v, const term *t) {
  uint64_t got[IDS_MAXFIELDS], want[IDS_MAXFIELDS];
  ids_scheme_decompose(s, v, got);
  term_fields(s, t, want);
  for (int i = 0; i < s->nfields; i++)
    CHECKF(got[i] == want[i], "%s: %s %s: got %" PRIu64 ", want %" PRIu64,
           s->name, what, s->fields[i].name, got[i], want[i]);
}

/* The full round: fields -> value -> hex and text (codec `text`, its
** vector `t64`) -> the value, and bytes -> the value; the value's fields
** are `dec`. */
static void roundtrip (const ids_scheme *s, const char *what,
                       const uint64_t *x, const char *hex,
                       const char *text, const char *t64, const term *dec) {
  ids_value v, back;
  char out[IDS_TEXTMAX];
  uint8_t b[IDS_MAXBYTES], want[IDS_MAXBYTES];
  size_t nb;
  if (!CHECKF(compose(s, x, &v) == IDS_OK, "%s: compose", what)) return;
  ids_scheme_encode(s, ids_codec_find(s, "hex", 3), &v, out);
  CHECKF(strcmp(out, hex) == 0, "%s: hex: got %s, want %s", what, out, hex);
  ids_scheme_encode(s, ids_codec_find(s, text, strlen(text)), &v, out);
  CHECKF(strcmp(out, t64) == 0, "%s: %s: got %s, want %s", what, text, out,
         t64);
  if (CHECKF(decode_as(s, "hex", hex, strlen(hex), &back) == IDS_OK,
             "%s: decode %s", what, hex))
    CHECKF(ids_value_cmp(&back, &v) == 0, "%s: hex %s decodes to %s", what,
           hex, vhex(&back));
  if (CHECKF(decode_as(s, text, t64, strlen(t64), &back) == IDS_OK,
             "%s: decode %s", what, t64))
    CHECKF(ids_value_cmp(&back, &v) == 0, "%s: %s %s decodes to %s", what,
           text, t64, vhex(&back));
  nb = unhex(hex, want, sizeof want);
  if (CHECKF(nb == s->bytes, "%s: %zu bytes", what, nb)) {
    ids_value_to_bytes(&v, b, nb);
    CHECKF(memcmp(b, want, nb) == 0, "%s: bytes", what);
    if (CHECKF(from_bytes(s, want, nb, &back) == IDS_OK, "%s: from_bytes",
               what))
      CHECK(ids_value_cmp(&back, &v) == 0);
  }
  check_fields(s, what, &v, dec);
  /* the other text form reads back what it writes */
  {
    const char *other = strcmp(text, "b64") == 0 ? "b64url" : "b64";
    ids_scheme_encode(s, ids_codec_find(s, other, strlen(other)), &v, out);
    if (CHECKF(decode_as(s, other, out, strlen(out), &back) == IDS_OK,
               "%s: %s %s", what, other, out))
      CHECK(ids_value_cmp(&back, &v) == 0);
  }
}

/* ---------------------------------------------------------- sections */

static void term_from_json (const cJSON *o, term *t, const ids_scheme *s) {
  const cJSON *node = item(o, "node");
  memset(t, 0, sizeof *t);
  t->a = inum(o, "A");
  t->b = inum(o, "B");
  t->c = inum(o, "C");
  t->seq = inum(o, "Seq");
  if (node && str(node, "binary_hex")) {
    t->node = 2;
    t->binlen = unhex(str(node, "binary_hex"), t->bin, sizeof t->bin);
  }
  else if (node && str(node, "utf8_hex")) {
    t->node = 1;
    t->atomlen = unhex(str(node, "utf8_hex"), (uint8_t *)t->atom,
                       sizeof t->atom - 1);
    CHECKF(t->atomlen == strlen(str(node, "atom")) &&
           memcmp(t->atom, str(node, "atom"), t->atomlen) == 0,
           "atom %s: utf8_hex differs", str(node, "atom"));
  }
  (void)s;
}

static void test_local (const cJSON *list) {
  const cJSON *o;
  int total = 0, lossy = 0;
  cJSON_ArrayForEach(o, list) {
    term in, dec, parsed;
    uint64_t x[IDS_MAXFIELDS];
    ids_value v;
    const char *what = str(o, "input_term");
    total++;
    term_from_json(item(o, "input"), &in, K64);
    term_from_json(item(o, "decode"), &dec, K64);
    CHECKF(parse_term(str(o, "decode_term"), &parsed) && parsed.node == 0 &&
           parsed.a == dec.a && parsed.b == dec.b && parsed.c == dec.c &&
           parsed.seq == dec.seq, "%s: decode_term", what);
    CHECK(exact(&dec));
    if (cJSON_IsTrue(item(o, "roundtrip_identity"))) {
      CHECKF(exact(&in), "%s: marked exact", what);
    }
    else {
      /* lossy in the reference: we refuse the input instead */
      lossy++;
      CHECKF(!exact(&in), "%s: marked lossy", what);
      term_fields(K64, &in, x);
      CHECKF(compose(K64, x, &v) == IDS_ERANGE, "%s: compose must be "
             "IDS_ERANGE", what);
    }
    term_fields(K64, &dec, x);
    roundtrip(K64, what, x, str(o, "encode_hex"), "b64", str(o, "encode64"),
              &dec);
  }
  CHECK(total == 32);
  CHECK(lossy == 21);
}

static void test_global (const cJSON *list) {
  const cJSON *o;
  int total = 0, done = 0, refused = 0, lossy = 0;
  cJSON_ArrayForEach(o, list) {
    int64_t I = inum(o, "I");
    const char *what = str(o, "input_term");
    const cJSON *view;
    const ids_scheme *s;
    term in, dec;
    uint64_t x[IDS_MAXFIELDS];
    ids_value v;
    int code, views = 0;
    total++;
    if (I < 5 || I > 10) {
      /* the reference hangs: ours refuses the interval at once */
      int64_t t0 = mono();
      const cJSON *res = item(o, "encode_result");
      CHECKF(res && strcmp(str(res, "outcome"), "timeout") == 0,
             "%s I=%lld: not a timeout", what, (long long)I);
      s = open96(I, NULL, &code);
      CHECKF(s == NULL && code == IDS_ERANGE, "%s: interval %lld: got %d",
             what, (long long)I, code);
      CHECKF(mono() - t0 < PROMPT_NS, "interval %lld: slow refusal",
             (long long)I);
      refused++;
      continue;
    }
    if (!CHECKF((s = open96(I, NULL, &code)) != NULL, "open I=%lld",
                (long long)I))
      continue;
    CHECK(s->nfields == 5 && s->bits == 96 && s->bytes == 12);
    term_from_json(item(o, "input"), &in, s);
    /* both views of the decode: the atom when the decoding node's own
    ** fingerprint matches, else the binary; either is one FP */
    cJSON_ArrayForEach(view, o) {
      term d;
      if (strncmp(view->string, "decode_as_", 10) != 0) continue;
      term_from_json(item(view, "decode"), &d, s);
      if (views++ == 0) dec = d;
      CHECKF(term_node(s, &d) == term_node(s, &dec) &&
             term_node(s, &d) == term_node(s, &in), "%s: %s node", what,
             view->string);
    }
    if (!CHECKF(views == 2, "%s: %d decode views", what, views)) continue;
    if (!exact(&in)) {
      lossy++;
      term_fields(s, &in, x);
      CHECKF(compose(s, x, &v) == IDS_ERANGE, "%s: compose must be "
             "IDS_ERANGE", what);
    }
    term_fields(s, &dec, x);
    {
      char label[400];
      snprintf(label, sizeof label, "%s I=%lld", what, (long long)I);
      roundtrip(s, label, x, str(o, "encode_hex"), "b64",
                str(o, "encode64"), &dec);
    }
    done++;
  }
  CHECK(total == 62);
  CHECK(done == 56);
  CHECK(refused == 6);
  CHECK(lossy > 0);
}

static void test_decode_with_I (const cJSON *d) {
  const char *hex = str(d, "encode_hex");
  const cJSON *o;
  int total = 0, ok = 0;
  CHECK(inum(d, "encoded_with_I") == 8);
  cJSON_ArrayForEach(o, item(d, "decodes")) {
    int64_t I = inum(o, "I");
    const cJSON *res = item(o, "result");
    int code;
    int64_t t0 = mono();
    const ids_scheme *s = open96(I, NULL, &code);
    total++;
    if (I < 5 || I > 10) {
      /* the reference reads garbage, or crashes at 21: ours refuses I */
      CHECKF(s == NULL && code == IDS_ERANGE, "decode with I=%lld: got %d",
             (long long)I, code);
      CHECK(mono() - t0 < PROMPT_NS);
      continue;
    }
    if (!CHECKF(s != NULL, "I=%lld", (long long)I)) continue;
    ok++;
    {
      term want;
      ids_value v;
      CHECKF(strcmp(str(res, "outcome"), "ok") == 0, "I=%lld", (long long)I);
      if (!CHECKF(parse_term(str(res, "value"), &want) && want.node == 2,
                  "term %s", str(res, "value")))
        continue;
      if (CHECKF(decode_as(s, "hex", hex, strlen(hex), &v) == IDS_OK, "%s",
                 hex))
        check_fields(s, str(res, "value"), &v, &want);
    }
  }
  CHECK(total == 11);
  CHECK(ok == 5);
}

static void test_node_hash (const cJSON *list) {
  const ids_scheme *ph = open96(8, "phash", NULL);
  const ids_scheme *p2 = open96(8, "phash2", NULL);
  const cJSON *o;
  int total = 0;
  if (!CHECK(ph && p2)) return;
  cJSON_ArrayForEach(o, list) {
    uint8_t name[300];
    size_t n = unhex(str(o, "utf8_hex"), name, sizeof name);
    uint64_t h2 = (uint64_t)inum(o, "phash2_2pow32");
    uint64_t h1 = (uint64_t)inum(o, "phash_2pow32");
    uint64_t x[IDS_MAXFIELDS];
    ids_value v;
    char hex[IDS_TEXTMAX];
    total++;
    CHECK_U64(n, (uint64_t)inum(o, "name_len_bytes"));
    /* "node" of a non-ASCII name is double-encoded in the vectors (its
    ** UTF-8 bytes read as Latin-1): utf8_hex is the name */
    {
      int ascii = 1;
      for (size_t i = 0; i < n; i++) ascii &= name[i] < 0x80;
      if (ascii)
        CHECKF(n == strlen(str(o, "node")) &&
               memcmp(name, str(o, "node"), n) == 0, "node %s",
               str(o, "node"));
    }
    CHECKF(fingerprint(K96, (char *)name, n) == h2, "default %s",
           str(o, "node"));
    CHECKF(fingerprint(p2, (char *)name, n) == h2, "phash2 %s",
           str(o, "node"));
    CHECKF(fingerprint(ph, (char *)name, n) == h1, "phash %s",
           str(o, "node"));
    CHECK_U64(h2, strtoull(str(o, "fingerprint_hex_v135"), NULL, 16));
    CHECK_U64(h1, strtoull(str(o, "fingerprint_hex_v134_and_older"), NULL,
                           16));
    /* {uid, Node, {1761,234567,891011}, 4242} with I = 8, 1.3.5 */
    x[MEGA] = 1761; x[SEC] = 234567; x[MICRO] = 890880; x[3] = h2;
    x[4] = 4242;
    if (CHECK(compose(K96, x, &v) == IDS_OK)) {
      ids_scheme_encode(K96, ids_codec_find(K96, "hex", 3), &v, hex);
      CHECKF(strcmp(hex, str(o, "encode_I8_hex")) == 0, "%s: got %s, want "
             "%s", str(o, "node"), hex, str(o, "encode_I8_hex"));
    }
  }
  CHECK(total == 27);
}

static void test_node_tsv (const char *dir) {
  char path[1024], line[4096];
  const ids_scheme *ph = open96(8, "phash", NULL);
  FILE *f;
  int rows = 0, bad = 0;
  if (!CHECK(ph != NULL)) return;
  snprintf(path, sizeof path, "%s/kuid_node_hash.tsv", dir);
  if (!CHECKF((f = fopen(path, "r")) != NULL, "%s", path)) return;
  while (fgets(line, sizeof line, f)) {
    char *hexname, *text, *p2, *p1, *save;
    uint8_t name[1024];
    size_t n;
    uint64_t h2, h1;
    if (line[0] == '#') continue;
    line[strcspn(line, "\r\n")] = '\0';
    hexname = strtok_r(line, "\t", &save);
    text = strtok_r(NULL, "\t", &save);
    p2 = strtok_r(NULL, "\t", &save);
    p1 = strtok_r(NULL, "\t", &save);
    if (!CHECKF(hexname && text && p2 && p1, "row %d", rows + 1)) break;
    rows++;
    n = unhex(hexname, name, sizeof name);
    h2 = fingerprint(K96, (char *)name, n);
    h1 = fingerprint(ph, (char *)name, n);
    if (h2 != strtoull(p2, NULL, 10) || h1 != strtoull(p1, NULL, 10)) {
      if (bad++ < 10)
        CHECKF(0, "node %s: phash2 %" PRIu64 " (want %s), phash %" PRIu64
               " (want %s)", text, h2, p2, h1, p1);
    }
    else
      t_passed++;
  }
  fclose(f);
  CHECKF(bad == 0, "%d of %d rows differ", bad, rows);
  CHECK(rows == 2000);
}

static void test_legacy (const cJSON *leg) {
  static const struct { const char *key, *codec; int n; } sets[] = {
    {"1.3.4_phash_d64", "b64", 7},
    {"1.3.3_phash_rfc4648_urlsafe_nopad", "b64url", 7},
  };
  const ids_scheme *ph = open96(8, "phash", NULL);
  if (!CHECK(ph != NULL)) return;
  for (size_t k = 0; k < 2; k++) {
    const cJSON *o;
    int total = 0;
    cJSON_ArrayForEach(o, item(leg, sets[k].key)) {
      term in, dec;
      uint64_t x[IDS_MAXFIELDS];
      ids_value v;
      const ids_scheme *s;
      char label[400];
      total++;
      if (!CHECKF(parse_term(str(o, "input_term"), &in) &&
                  parse_term(str(o, "decode64_roundtrip"), &dec),
                  "terms of %s", str(o, "input_term")))
        continue;
      s = in.node ? ph : K64;
      snprintf(label, sizeof label, "%s %s", sets[k].key,
               str(o, "input_term"));
      if (!exact(&in)) {
        term_fields(s, &in, x);
        CHECKF(compose(s, x, &v) == IDS_ERANGE, "%s: compose", label);
      }
      term_fields(s, &dec, x);
      roundtrip(s, label, x, str(o, "encode_hex"), sets[k].codec,
                str(o, "encode64"), &dec);
    }
    CHECK(total == sets[k].n);
  }
}

/* ------------------------------------------------------------- calls */

/* How each reference call maps onto our API, and the code we give where
** it fails. */
enum {
  BYTES,      /* from_bytes(arg hex) on kuid64 and kuid96: IDS_EINVAL */
  TEXT,       /* decode(arg) with b64 on kuid64 and kuid96: IDS_EINVAL */
  PREFIX,     /* b64 of a value whose bytes start with arg begins with the
                 reference's output, in both schemes */
  COMPOSE5,   /* kuid96 compose with a 5-byte node: IDS_ERANGE */
  INTERVAL,   /* open_params(kuid96, interval = arg): IDS_ERANGE */
  LOCAL,      /* kuid64 compose of {1,2,3},1 (IDS_ERANGE) and {1,2,0},1 */
  ZERO,       /* the zero local ID */
};

typedef struct call {
  const char *call;
  int kind;
  const char *arg;
  int scheme;                 /* BYTES, TEXT: 64 or 96, the one that
                                 accepts; 0 none */
  const char *note;
} call;

static call calls[] = {
  {"uid:decode(<<>>)",
   BYTES, "", 0, "no bytes"},
  {"uid:decode(<<0:56>>) 7 bytes",
   BYTES, "00000000000000", 0, "7 bytes"},
  {"uid:decode(<<0:72>>) 9 bytes",
   BYTES, "000000000000000000", 0, "9 bytes"},
  {"uid:decode(<<0:88>>) 11 bytes",
   BYTES, "0000000000000000000000", 0, "11 bytes"},
  {"uid:decode(<<0:104>>) 13 bytes",
   BYTES, "00000000000000000000000000", 0, "13 bytes"},
  {"uid:decode(<<0:128>>) 16 bytes",
   BYTES, "00000000000000000000000000000000", 0, "16 bytes"},
  {"uid:decode(\"abc\") list",
   BYTES, "616263", 0, "3 bytes"},
  {"uid:decode(<<255,255,255,255,255,255,255,255>>)",
   BYTES, "ffffffffffffffff", 64, "8 bytes: local"},
  {"uid:decode64(<<>>)",
   TEXT, "", 0, "empty text"},
  {"uid:decode64(<<\"...........\">>) 11 dots",
   TEXT, "...........", 64, "11 digits: local"},
  {"uid:decode64(<<\"..........\">>) 10 chars",
   TEXT, "..........", 0, "10 digits"},
  {"uid:decode64(<<\"............\">>) 12 chars",
   TEXT, "............", 0, "12 digits"},
  {"uid:decode64(<<\"................\">>) 16 chars",
   TEXT, "................", 96, "16 digits: global"},
  {"uid:decode64(<<\"...............\">>) 15 chars",
   TEXT, "...............", 0, "15 digits"},
  /* the reference ignores the 17th digit; we refuse */
  {"uid:decode64(<<\"................\">>) 17 chars",
   TEXT, ".................", 0, "17 digits"},
  /* the reference drops the pad bits; we refuse */
  {"uid:decode64(<<\"zzzzzzzzzzz\">>) 11 z (non-canonical tail)",
   TEXT, "zzzzzzzzzzz", 0, "non-zero pad bits"},
  {"uid:decode64(<<\"zzzzzzzzzzw\">>) 11 chars canonical all-ones",
   TEXT, "zzzzzzzzzzw", 64, "local"},
  {"uid:decode64(<<\"zzzzzzzzzzzzzzzz\">>) 16 z",
   TEXT, "zzzzzzzzzzzzzzzz", 96, "global"},
  {"uid:decode64(<<\"..........-\">>) '-' invalid char",
   TEXT, "..........-", 0, "'-'"},
  {"uid:decode64(<<\"..........+\">>) '+' invalid char",
   TEXT, "..........+", 0, "'+'"},
  {"uid:decode64(<<\"..........=\">>) '=' invalid char",
   TEXT, "..........=", 0, "'='"},
  {"uid:decode64(<<\"........../\">>) '/' invalid char",
   TEXT, "........../", 0, "'/'"},
  /* the same nonsense as the reference's */
  {"uid:decode64(<<\"AGA5igPrJzJ7aYAB\">>) old (<=1.3.3) README string",
   TEXT, "AGA5igPrJzJ7aYAB", 96, "1.3.3 text read as d64"},
  {"uid:decode64(<<\".5.tXVEf8n8vPN.0\">>) README string",
   TEXT, ".5.tXVEf8n8vPN.0", 96, "1.3.4 README, FP by phash"},
  {"uid_b64:decode(<<\"0\">>) 1 char",
   TEXT, "0", 0, "1 digit"},
  {"uid_b64:decode(<<\"01\">>) 2 chars",
   TEXT, "01", 0, "2 digits"},
  {"uid_b64:encode(<<1>>)",
   PREFIX, "01", 0, ""},
  {"uid_b64:encode(<<1,2>>)",
   PREFIX, "0102", 0, ""},
  {"uid_b64:encode(<<1,2,3>>)",
   PREFIX, "010203", 0, ""},
  {"uid_b64:encode(<<255,255,255,255>>)",
   PREFIX, "ffffffff", 0, ""},
  {"uid:encode(8, {uid, <<1,2,3,4,5>>, {1761,234567,891011}, 1}) 5-byte node "
   "bin",
   COMPOSE5, NULL, 0, "a node past 32 bits"},
  {"uid:encode(4, {uid, 'uid@127.0.0.1', {1,2,3}, 1}) I below range",
   INTERVAL, "4", 0, "the reference hangs"},
  {"uid:encode(11, {uid, <<1,2,3,4>>, {1,2,3}, 1}) I above range",
   INTERVAL, "11", 0, "the reference hangs"},
  {"uid:encode(99, {uid, {1,2,3}, 1}) local ignores I",
   LOCAL, NULL, 0, "C = 3 is off the 1024 grid"},
  {"uid:z()",
   ZERO, NULL, 0, ""},
  {"uid:encode(uid:z())",
   ZERO, NULL, 0, ""},
  {"uid:encode64(uid:z())",
   ZERO, NULL, 0, ""},
  {NULL, 0, NULL, 0, NULL}
};
/* how many of the reference's calls each of calls[] matched */
static int call_seen[sizeof calls / sizeof *calls];

/* Reference calls with no counterpart in our API, grouped by why
** (helpers.h): each is only matched, exactly once. */
static group unmapped[] = {
  {0, "from_bytes takes whole bytes",
   .text = {"uid:decode(<<0:63>>) 63-bit bitstring"}},
  {0, "no value has no bytes",
   .text = {"uid_b64:encode(<<>>)"}},
  {0, "C fields are integers",
   .text = {"uid:encode({uid, {a,0,0}, 0}) non-integer field",
            "uid:encode({uid, {0,0,0}, 0.5}) float seq"}},
  {0, "compose takes every field",
   .text = {"uid:encode({uid, {0,0}, 0}) 2-tuple time"}},
  {0, "a C node is a 32-bit integer, not bytes",
   .text = {"uid:encode(8, {uid, <<1,2,3>>, {1761,234567,891011}, 1}) 3-byte "
            "node bin",
            "uid:encode(8, {uid, <<1,2>>, {1761,234567,891011}, 1}) 2-byte "
            "node bin"}},
  {0, "names are hashed as atoms, not as list terms",
   .text = {"uid:encode(8, {uid, \"str\", {1761,234567,891011}, 1}) node "
            "as list"}},
  {0, "no global -> local conversion",
   .text = {"uid:l({uid, 'other@host', {1,2,3}, 1}) foreign atom node",
            "uid:l({uid, <<1,2,3,4>>, {1,2,3}, 1}) foreign binary node",
            "uid:l({uid, node(), {1,2,3}, 1}) own node",
            "uid:l({uid, hid(node()), {1,2,3}, 1}) own node hash",
            "uid:gtol({uid, 'other@host', {1,2,3}, 1})"}},
  {0, "no local -> global",
   .text = {"uid:g({uid, {1,2,3}, 1})",
            "uid:g({uid, 'x@y', {1,2,3}, 1}) passthrough"}},
  {0, "no difference function",
   .text = {"uid:d({uid,{1761,234567,891904},10}, {uid,{1761,234566,1024},3})",
            "uid:d({uid,{1761,234566,1024},3}, {uid,{1761,234567,891904},10}) "
            "negative",
            "uid:d({uid,{1761,0,0},0}, {uid,{1700,0,0},0}) large",
            "uid:d(G1, G2) same node",
            "uid:d(G1, G2) different node"}},
  {0, "no ms accessor",
   .text = {"uid:t({uid,{1761,234567,891904},10})",
            "uid:t({uid,'n@h',{1761,234567,891011},10})"}},
  {0, NULL, .text = {NULL}}
};

/* The reference's successful result, as a term (its node seen from
** nonode@nohost: a binary unless it is that node's own FP). */
static int ref_term (const cJSON *res, term *t) {
  return res && strcmp(str(res, "outcome"), "ok") == 0 &&
         parse_term(str(res, "value"), t);
}

static void run_call (call *c, const cJSON *res) {
  const ids_scheme *both[2] = {K64, K96};
  ids_value v;
  int r;
  switch (c->kind) {
    case BYTES: case TEXT: {
      uint8_t b[64];
      size_t n = c->kind == BYTES ? unhex(c->arg, b, sizeof b) : 0;
      for (int k = 0; k < 2; k++) {
        const ids_scheme *s = both[k];
        int accepts = c->scheme == (k ? 96 : 64);
        r = c->kind == BYTES ? from_bytes(s, b, n, &v)
                             : decode_as(s, "b64", c->arg, strlen(c->arg),
                                         &v);
        if (!accepts) {
          CHECKF(r == IDS_EINVAL, "%s on %s (%s): got %d, want %d",
                 c->call, s->name, c->note, r, IDS_EINVAL);
          continue;
        }
        if (CHECKF(r == IDS_OK, "%s on %s: got %d", c->call, s->name, r)) {
          term t;
          if (CHECKF(ref_term(res, &t), "%s: reference term", c->call))
            check_fields(s, c->call, &v, &t);
        }
      }
      if (c->scheme == 0)
        CHECKF(res && (strcmp(str(res, "outcome"), "error") == 0 ||
                       c->kind == TEXT), "%s: outcome", c->call);
      break;
    }
    case PREFIX: {
      /* the reference encodes any byte string; ours, whole IDs, whose
      ** text starts with that of their leading bytes */
      uint8_t b[12] = {0};
      size_t n = unhex(c->arg, b, sizeof b);
      uint8_t want[16];
      size_t nw = unhex(str(res, "value_hex"), want, sizeof want);
      for (int k = 0; k < 2; k++) {
        char out[IDS_TEXTMAX];
        ids_value_from_bytes(&v, b, both[k]->bytes);
        ids_scheme_encode(both[k], ids_codec_find(both[k], "b64", 3), &v, out);
        CHECKF(strlen(out) >= nw && memcmp(out, want, nw) == 0, "%s: %s of "
               "%zu leading bytes: %s, want prefix %.*s", c->call,
               both[k]->name, n, out, (int)nw, (const char *)want);
      }
      break;
    }
    case COMPOSE5: {
      uint64_t x[IDS_MAXFIELDS] = {1761, 234567, 890880, 0x0102030405ull, 1};
      r = compose(K96, x, &v);
      CHECKF(r == IDS_ERANGE, "%s: got %d", c->call, r);
      break;
    }
    case INTERVAL: {
      int code;
      const ids_scheme *s = open96(strtoll(c->arg, NULL, 10), NULL, &code);
      CHECKF(s == NULL && code == IDS_ERANGE, "%s: got %d", c->call, code);
      CHECKF(strcmp(str(res, "outcome"), "timeout") == 0, "%s", c->call);
      break;
    }
    case LOCAL: {
      uint64_t x[IDS_MAXFIELDS] = {1, 2, 3, 1};
      uint8_t want[8], got[8];
      r = compose(K64, x, &v);
      CHECKF(r == IDS_ERANGE, "%s: {1,2,3}: got %d", c->call, r);
      x[MICRO] = 0;
      if (CHECK(compose(K64, x, &v) == IDS_OK)) {
        unhex(str(res, "value_hex"), want, sizeof want);
        ids_value_to_bytes(&v, got, 8);
        CHECKF(memcmp(got, want, 8) == 0, "%s: bytes", c->call);
      }
      break;
    }
    case ZERO: {
      uint64_t x[IDS_MAXFIELDS] = {0};
      char out[IDS_TEXTMAX];
      const char *hex = str(res, "value_hex");
      if (!CHECK(compose(K64, x, &v) == IDS_OK)) break;
      ids_scheme_encode(K64, ids_codec_find(K64, "hex", 3), &v, out);
      if (strstr(c->call, "encode64")) {
        ids_scheme_encode(K64, NULL, &v, out);          /* b64 is the default */
        CHECK_STR(out, "...........");
        CHECKF(strlen(hex) == 22, "%s", hex);
      }
      else if (strstr(c->call, "encode("))
        CHECK_STR(out, hex);
      else {
        term t;
        if (CHECK(ref_term(res, &t))) check_fields(K64, c->call, &v, &t);
      }
      break;
    }
  }
}

static void test_calls (const cJSON *list) {
  const cJSON *o;
  int total = 0;
  cJSON_ArrayForEach(o, list) {
    const char *name = str(o, "call");
    call *c;
    group *u;
    int k;
    int64_t t0;
    total++;
    for (c = calls; c->call; c++)
      if (strcmp(c->call, name) == 0) break;
    u = c->call ? NULL : group_find(unmapped, name, strlen(name), &k);
    if (!CHECKF(c->call != NULL || u != NULL, "call %s has no mapping",
                name))
      continue;
    t0 = mono();
    if (u) {
      u->seen[k]++;
      t_passed++;                         /* matched, nothing to run */
    }
    else {
      call_seen[c - calls]++;
      run_call(c, item(o, "result_as_nonode@nohost"));
    }
    CHECKF(mono() - t0 < PROMPT_NS, "%s took %lld ms", name,
           (long long)((mono() - t0) / 1000000));
  }
  CHECK(total == 59);
  for (call *c = calls; c->call; c++)
    CHECKF(call_seen[c - calls] == 1, "mapping \"%s\" matched %d calls",
           c->call, call_seen[c - calls]);
  group_allseen(unmapped, "unmapped");
}

/* Parameters and generator options kuid96 refuses. */
static void test_params (void) {
  static const char *const badhash[] = {"md5", "PHASH2", "phash22", "",
                                        "phas"};
  static const struct {
    int opts;                 /* 0: no options at all */
    const char *node_name;
    int has_node;
    int64_t node;
    int code;
    const char *what;
  } gen[] = {
    {0, NULL, 0, 0, IDS_OK, "no node: a local slot"},
    {1, NULL, 0, 0, IDS_OK, "no node: a local slot"},
    {1, "a@b", 1, 7, IDS_EINVAL, "both node_name and node"},
    {1, NULL, 1, INT64_C(1) << 32, IDS_ERANGE, "node 2^32"},
    {1, NULL, 1, -1, IDS_ERANGE, "node -1"},
  };
  ids_optval p[2] = {{1, 8, NULL, 0}, {1, 0, NULL, 0}};
  ids_generator g;
  ids_error e;
  int code;
  for (size_t i = 0; i < sizeof badhash / sizeof *badhash; i++) {
    p[1].s = badhash[i];
    p[1].len = strlen(badhash[i]);
    memset(&e, 0, sizeof e);
    CHECKF(open_params(K96, p, &e) == NULL && e.code == IDS_EINVAL,
           "hash \"%s\" accepted", badhash[i]);
  }
  for (int64_t I = 5; I <= 10; I++) {
    const ids_scheme *s = open96(I, NULL, &code);
    CHECK(s != NULL);
  }
  CHECK(open96(-1, NULL, &code) == NULL && code == IDS_ERANGE);
  CHECK(open96(INT64_MAX, NULL, &code) == NULL && code == IDS_ERANGE);
  /* the default is I = 8 with phash2 */
  CHECK(fingerprint(K96, "uid@127.0.0.1", 13) == 0x03eb2731);
  /* a kuid96 generator needs exactly one of node_name and node */
  CHECK(K96->ngenopts == 2);
  for (size_t i = 0; i < sizeof gen / sizeof *gen; i++) {
    ids_optval o[IDS_MAXOPTS] = {{0}};
    if (gen[i].node_name) setopt(K96, o, "node_name", 0, gen[i].node_name);
    if (gen[i].has_node) setopt(K96, o, "node", gen[i].node, NULL);
    CHECKF(gen_init(&g, K96, gen[i].opts ? o : NULL, IDS_POLICY_HOLD,
                              NULL, &e) == gen[i].code, "%s", gen[i].what);
    if (gen[i].code == IDS_OK) ids_generator_close(&g);
  }
  {                                  /* no node, and slots refused */
    ids_options o;
    ids_options_init(&o, K96);
    CHECK(ids_options_set_text(&o, "slots", 5, "none", 4, &e) == IDS_OK);
    CHECKF(ids_generator_init(&g, K96, &o, NULL, &e) == IDS_EINVAL &&
           strstr(e.msg, "node"), "%s", e.msg);
  }
  /* kuid64: the generator needs nothing */
  CHECK(gen_init(&g, K64, NULL, IDS_POLICY_HOLD, NULL, &e) == IDS_OK);
}

/* A few strict-grammar cases beyond the reference's calls. */
static void test_grammar (void) {
  static const struct { int w; const char *codec, *text; int code; } b[] = {
    {64, "hex", "0060398a7b69800", IDS_EINVAL},           /* 15 digits */
    {64, "hex", "0060398a7b69800100", IDS_EINVAL},        /* 18 */
    {64, "hex", "0060398a7b69800g", IDS_EINVAL},
    {96, "hex", "0060398a03eb27317b69800", IDS_EINVAL},   /* 23 */
    {96, "hex", "0060398a03eb27317b6980010", IDS_EINVAL}, /* 25 */
    {64, "b64", ".5.tXbhdV.0", IDS_EINVAL},               /* pad bits */
    {64, "b64url", "AGA5intpgAF", IDS_EINVAL},            /* pad bits */
    {64, "b64url", "AGA5intpgA=", IDS_EINVAL},
    {64, "b64url", "AGA5intpgA.", IDS_EINVAL},
    {96, "b64url", "AGA5igPrJzJ7aYA", IDS_EINVAL},        /* 15 */
    {96, "b64", ".5.tXVEf8n4vPN.", IDS_EINVAL},
    {96, "b64", ".5.tXVEf8n4vPN.0.", IDS_EINVAL},
    {96, NULL, "AGA5igPrJzJ7aYA+", IDS_EINVAL},
  };
  ids_value v, w;
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) {
    const ids_scheme *s = b[i].w == 64 ? K64 : K96;
    int r = decode_as(s, b[i].codec, b[i].text, strlen(b[i].text), &v);
    CHECKF(r == b[i].code, "%s %s \"%s\": got %d", s->name,
           b[i].codec ? b[i].codec : "default", b[i].text, r);
  }
  /* hex in either case, white space trimmed; the default codec is b64 */
  if (CHECK(decode_as(K64, "hex", "0060398A7B698001", 16, &v) == IDS_OK) &&
      CHECK(decode_as(K64, NULL, " .5.tXbhdV.3\n", 13, &w) == IDS_OK))
    CHECK(ids_value_cmp(&v, &w) == 0);
  CHECK(strcmp(K64->codecs[0]->name, "b64") == 0);
  CHECK(strcmp(K96->codecs[0]->name, "b64") == 0);
  /* every stored width composes: seconds and microseconds to 2^20-1024 */
  {
    uint64_t x[IDS_MAXFIELDS] = {1048575, 1048575, 1047552, 16383};
    char out[IDS_TEXTMAX];
    if (CHECK(compose(K64, x, &v) == IDS_OK)) {
      ids_scheme_encode(K64, NULL, &v, out);
      CHECK_STR(out, "zzzzzzzzzzw");
    }
    x[MICRO] = 1048576;
    CHECK(compose(K64, x, &v) == IDS_ERANGE);
    x[MICRO] = 1024;
    x[3] = 16384;
    CHECK(compose(K64, x, &v) == IDS_ERANGE);
  }
}

/* --------------------------------------------------------------- main */

int main (int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : IDS_VECTORS;
  cJSON *j;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  K64 = ids_scheme_find("kuid64");
  K96 = ids_scheme_find("kuid96");
  if (!CHECK(K64 && K96)) return t_done();
  CHECK(K64->nfields == 4 && K96->nfields == 5);
  CHECK(ids_scheme_field(K64, "megaseconds") == MEGA &&
        ids_scheme_field(K64, "seconds") == SEC &&
        ids_scheme_field(K64, "microseconds") == MICRO &&
        ids_scheme_field(K64, "sequence") == 3);
  CHECK(ids_scheme_field(K96, "megaseconds") == MEGA &&
        ids_scheme_field(K96, "seconds") == SEC &&
        ids_scheme_field(K96, "microseconds") == MICRO &&
        ids_scheme_field(K96, "node") == 3 &&
        ids_scheme_field(K96, "sequence") == 4);
  j = load(dir, "kuid.json");
  test_local(section(j, "kuid.json", "local"));
  test_global(section(j, "kuid.json", "global"));
  test_decode_with_I(section(j, "kuid.json", "decode_with_I"));
  test_node_hash(section(j, "kuid.json", "node_hash"));
  test_node_tsv(dir);
  test_legacy(section(j, "kuid.json", "legacy"));
  test_calls(section(j, "kuid.json", "calls"));
  test_params();
  test_grammar();
  cJSON_Delete(j);
  return t_done();
}
