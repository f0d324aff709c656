/*
** fuzz_define.c: libFuzzer harness for ids_scheme_define, the entry point
** of idscheme.define.  The input is read as a spec (name, fields with
** names, kinds, widths, units, epochs and constants, encodings, default
** encoding, byte width), each choice a byte picking from a pool of valid,
** nearly valid and wrong values, or a string taken from the input.
** Invariants (a broken one traps, so libFuzzer records the input):
**   - a refused spec gives a negative code, a message, and leaves the
**     registry as it was (the same count, the name still free);
**   - an accepted spec is registered under its name with the widths it
**     asked for; a value made from its fields (ids_fields, as the binding
**     composes) encodes in every encoding to text that decodes back;
**   - if it has a time field and a sequence or random field, a generator
**     on a test clock makes IDs that increase, hold their constants and
**     node fields, and round-trip through every encoding; with random
**     fields alone (no time, sequence or node), IDs that hold their
**     constants and round-trip, in no order; else the generator refuses
**     it with a message (layout-only schemes).
** Every accepted spec stays registered (schemes are never freed: IDs
** point at them), some 10 KB each: fuzz/run.sh gives this harness at most
** 30 s, well below libFuzzer's -rss_limit_mb.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idscheme.h"

#define CHECK(cond) \
  do { if (!(cond)) fail(#cond, __LINE__); } while (0)

static const ids_scheme *cur;          /* the scheme under test, if any */

static void fail (const char *what, int line) {
  fprintf(stderr, "fuzz_define.c:%d: invariant broken: %s (scheme %s)\n",
          line, what, cur ? cur->name : "-");
  __builtin_trap();
}

/* ------------------------------------------------------------- input */

typedef struct reader { const uint8_t *p; size_t n; } reader;

static uint8_t byte (reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

static uint64_t word (reader *r) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = x << 8 | byte(r);
  return x;
}

/* A string from the input: a length byte (at most 80), then the bytes;
** NUL-terminated in buf. */
static const char *text (reader *r, char *buf) {
  size_t k = byte(r) % 81;
  for (size_t i = 0; i < k; i++) buf[i] = (char)byte(r);
  buf[k] = '\0';
  return buf;
}

/* pool[byte % (n + 1)], the last choice a string from the input */
static const char *pick (reader *r, const char *const *pool, size_t n,
                         char *buf) {
  size_t k = byte(r) % (n + 1);
  return k < n ? pool[k] : text(r, buf);
}

#define PICK(r, pool, buf) pick(r, pool, sizeof pool / sizeof *pool, buf)

static const char *const kinds[] = {
  "time", "node", "sequence", "random", "constant", "time", "sequence",
  "random", "hash", "qualifier", "", NULL, "Time", "counter", "instance",
  "version"};
static const char *const units[] = {
  NULL, "ns", "us", "ms", "10ms", "s", "1/65536 s", "3/7 s",
  "1000000000/1 s", "1/1000000000 s", "0/1 s", "1/0 s", " ms", "2/1s",
  "1000000001/1 s", "s ", ""};
static const char *const encs[] = {
  "dec", "hex", "base58", "base62", "crockford", "base32", "base64url",
  "b64sort:-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz",
  "b64sort:0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/",
  "b64sort:-0123456789", "b64sort:", "uuid", "f58", "emoji", "", NULL,
  "hex "};
static const char *const fnames[] = {
  "timestamp", "node", "sequence", "random", "version", "policy",
  "node_name", "slots", "", NULL, "abcdefghijklmnopqrstuvwxyz0123456"};
static const long long widths[] = {
  0, -1, 63, 64, 65, 80, 127, 128, 160, 161, 1ll << 33, -(1ll << 62)};
static const int64_t epochs[] = {
  0, 1600000000000, 1288834974657, 1409529600000, -1, IDS_EPOCH_MAX,
  IDS_EPOCH_MAX + 1, 4102444800000 /* 2100 */, INT64_MIN, IDS_EPOCH_MIN,
  IDS_EPOCH_MIN - 1};
static const char *const orders[] = {
  "high first", "low first", "sideways", "", NULL};

/* Storage for one spec and the strings it points at. */
typedef struct spec {
  ids_defspec d;
  ids_fieldspec f[IDS_MAXFIELDS + 2];
  char fname[IDS_MAXFIELDS + 2][96], kind[IDS_MAXFIELDS + 2][96];
  char unit[IDS_MAXFIELDS + 2][96], order[IDS_MAXFIELDS + 2][96];
  const char *enc[IDS_MAXCODECS + 2];
  char encbuf[IDS_MAXCODECS + 2][96], dflt[96], name[96];
  int fresh;                         /* name is one no spec took */
} spec;

static unsigned long fresh;            /* names no spec took before */

static void readfield (reader *r, spec *sp, int i) {
  ids_fieldspec *f = &sp->f[i];
  uint8_t b = byte(r);
  if (b < 140) {                       /* mostly a fresh name */
    snprintf(sp->fname[i], sizeof sp->fname[i], "f%d", i);
    f->name = sp->fname[i];
  } else if (b < 160 && i > 0)   /* an earlier field's: a run of it */
    f->name = sp->f[b % i].name;
  else f->name = PICK(r, fnames, sp->fname[i]);
  f->kind = PICK(r, kinds, sp->kind[i]);
  b = byte(r);
  f->bits = b & 0x80 ? widths[b % (sizeof widths / sizeof *widths)]
                     : b & 0x3f;
  f->unit = PICK(r, units, sp->unit[i]);
  b = byte(r);
  f->epoch_ms = b < 200 ? epochs[b % (sizeof epochs / sizeof *epochs)]
                        : (int64_t)word(r);
  b = byte(r);
  f->value = b < 128 ? b % 8 : word(r);
  f->order = byte(r) < 32 ? PICK(r, orders, sp->order[i]) : NULL;
}

static void readspec (reader *r, spec *sp) {
  uint8_t b;
  memset(sp, 0, sizeof *sp);
  b = byte(r);
  if (b < 64) {    /* a quarter: each one accepted stays (see the top) */
    snprintf(sp->name, sizeof sp->name, "fz%lu", fresh++);
    sp->d.name = sp->name;
    sp->fresh = 1;
  } else {
    static const char *const names[] = {"fluid", "", NULL,
      "abcdefghijklmnopqrstuvwxyz0123456789"};
    sp->d.name = PICK(r, names, sp->name);
  }
  sp->d.nfields = byte(r) % (IDS_MAXFIELDS + 2);
  for (int i = 0; i < sp->d.nfields; i++) readfield(r, sp, i);
  sp->d.fields = sp->f;
  b = byte(r);
  sp->d.nencodings = b % (IDS_MAXCODECS + 2) - (b >= 250);
  sp->d.encodings = b == 249 ? NULL : sp->enc;
  for (int i = 0; i < sp->d.nencodings && i < IDS_MAXCODECS + 2; i++)
    sp->enc[i] = PICK(r, encs, sp->encbuf[i]);
  b = byte(r);
  sp->d.default_encoding = b < 128 ? NULL : PICK(r, encs, sp->dflt);
  b = byte(r);
  sp->d.bytes = b < 128 ? 0 : b < 250 ? b % 22 : -(long long)(b % 3);
}

/* --------------------------------------------------------- checks */

/* A failure: negative, a known code, the code in e, a message. */
static void check_error (int r, const ids_error *e) {
  CHECK(r < 0 && r >= IDS_ELEASE);
  CHECK(e->code == r);
  CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL && e->msg[0] != '\0');
}

/* v, a value of cur, through the default and every encoding, and bytes */
static void roundtrip (const ids_value *v) {
  const ids_scheme *s = cur;
  char out[IDS_TEXTMAX];
  uint8_t b[IDS_MAXBYTES];
  ids_value w;
  ids_error e;
  size_t n;
  CHECK(ids_value_fits(v, s->bits));
  for (int i = -1; i < s->ncodecs; i++) {
    const ids_codec *c = i < 0 ? NULL : s->codecs[i];
    int r;
    n = ids_scheme_encode(s, c, v, out);
    CHECK(n > 0 && n < IDS_TEXTMAX && strlen(out) == n);
    memset(&w, 0xa5, sizeof w);
    r = ids_scheme_decode(s, c, out, n, &w, &e);
    if (r != IDS_OK) fprintf(stderr, "\"%s\" (%s): %s\n", out,
                             c ? c->name : "default", e.msg);
    CHECK(r == IDS_OK && ids_value_cmp(v, &w) == 0);
  }
  ids_value_to_bytes(v, b, s->bytes);
  CHECK(ids_scheme_from_bytes(s, b, s->bytes, &w, &e) == IDS_OK);
  CHECK(ids_value_cmp(v, &w) == 0);
}

/* A value from fields the input gives, as the binding composes one. */
static void composed (reader *r) {
  const ids_scheme *s = cur;
  ids_fields fs;
  ids_value v;
  ids_error e;
  ids_fields_init(&fs, s);
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    const char *nm = f->name;
    if (f->kind == IDS_KIND_CONSTANT) continue;    /* has its default */
    if (f->bits > 64) {
      uint8_t b[IDS_MAXBYTES];
      size_t k = (f->bits + 7u) / 8;
      for (size_t j = 0; j < k; j++) b[j] = byte(r);
      b[0] &= (uint8_t)(0xffu >> (8 * k - f->bits));
      CHECK(ids_fields_set_bytes(&fs, nm, strlen(nm), b, k, &e) == IDS_OK);
    } else {
      uint64_t x = word(r);
      if (f->bits < 64) x &= ((uint64_t)1 << f->bits) - 1;
      CHECK(ids_fields_set_uint(&fs, nm, strlen(nm), x, &e) == IDS_OK);
    }
  }
  CHECK(ids_fields_compose(&fs, &v, &e) == IDS_OK);
  roundtrip(&v);
}

/* The test clock: starts at the real time of the first call to the
** harness, and each reading is one tick of the scheme later, so that a
** generator waiting for the next tick never waits long. */
typedef struct tclock { int64_t ns, step; } tclock;
static int64_t tnow (void *ctx) {
  tclock *t = ctx;
  int64_t x = t->ns;
  if (t->ns < INT64_MAX - t->step) t->ns += t->step;
  return x;
}
static int64_t start_ns;

/* 1: a generator of increasing IDs (time, and a sequence or random
** field; in order where ids_scheme_ordered); 2: of IDs in no order (random
** fields alone, as UUIDv4); 0: a layout only, which the generator refuses
** (a hash of no name, a counter of 64 bits, an instance field alone). */
static int generates (const ids_scheme *s) {
  int t = 0, sq = 0, rnd = 0, node = 0;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->kind == IDS_KIND_HASH) return 0;        /* of no name */
    if (f->carry && f->bits >= 64) return 0;       /* no room to count */
    t |= f->kind == IDS_KIND_TIME;
    sq |= f->kind == IDS_KIND_SEQUENCE;
    rnd |= f->kind == IDS_KIND_RANDOM && !f->once; /* drawn per ID */
    node |= f->kind == IDS_KIND_NODE;
  }
  return t && (sq || rnd) ? 1 : !t && !sq && !node && rnd ? 2 : 0;
}

static void generate (reader *r) {
  const ids_scheme *s = cur;
  uint64_t node[IDS_MAXFIELDS], x[IDS_MAXFIELDS];
  ids_options o;
  ids_generator g;
  ids_value v[4];
  ids_error e;
  unsigned __int128 step = (unsigned __int128)1000000000 *
                           s->unit.per_sec_den / s->unit.per_sec_num;
  tclock tc = {start_ns, step < 1 ? 1 : step > INT64_MAX / 4 ?
               INT64_MAX / 4 : (int64_t)step};
  ids_clock clk = {tnow, &tc};
  int rc;
  ids_options_init(&o, s);
  CHECK(ids_options_set_string(&o, "slots", 5, "none", 4, &e) == IDS_OK);
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->kind != IDS_KIND_NODE) continue;
    node[i] = word(r) & (((uint64_t)1 << f->bits) - 1);
    CHECK(ids_options_set_int(&o, f->name, strlen(f->name),
                              (int64_t)node[i], &e) == IDS_OK);
  }
  rc = ids_generator_init(&g, s, &o, &clk, &e);
  if (!generates(s)) {            /* a layout only: refused, with words */
    CHECK(rc != IDS_OK);
    check_error(rc, &e);
    return;
  }
  if (rc != IDS_OK) fprintf(stderr, "generator: %s\n", e.msg);
  CHECK(rc == IDS_OK);
  rc = ids_generator_next(&g, &v[0], &e);
  if (rc != IDS_OK) fprintf(stderr, "next: %s\n", e.msg);
  CHECK(rc == IDS_OK);
  /* later IDs may only fail once the clock has left the time field */
  rc = ids_generator_next_n(&g, &v[1], 3, &e);
  if (rc != IDS_OK) CHECK(rc == IDS_ERANGE);
  for (int k = 0; k < (rc == IDS_OK ? 4 : 1); k++) {
    if (k > 0 && generates(s) == 1 && ids_scheme_ordered(s))
      CHECK(ids_value_cmp(&v[k - 1], &v[k]) < 0);
    ids_scheme_decompose(s, &v[k], x);
    for (int i = 0; i < s->nfields; i++) {
      const ids_field *f = &s->fields[i];
      if (f->kind == IDS_KIND_CONSTANT && f->bits <= 64)
        CHECK(x[i] == f->value);
      if (f->kind == IDS_KIND_NODE) CHECK(x[i] == node[i]);
    }
    roundtrip(&v[k]);
  }
  ids_generator_close(&g);
}

/* libFuzzer runs LeakSanitizer after every input that allocated more
** than it freed, and every accepted spec does (on purpose: the registry
** keeps it), which made 90% of the time a leak scan.  The flags are read
** after this call, so one more is added here: -detect_leaks=0. */
static void noleakscan (int *argc, char ***argv) {
  static char flag[] = "-detect_leaks=0";
  char **a = malloc(((size_t)*argc + 2) * sizeof *a);
  if (a == NULL) abort();
  memcpy(a, *argv, (size_t)*argc * sizeof *a);
  a[(*argc)++] = flag;
  a[*argc] = NULL;
  *argv = a;                           /* kept for the process' life */
}

int LLVMFuzzerInitialize (int *argc, char ***argv) {
  struct timespec ts;
  noleakscan(argc, argv);
  if (ids_init() != IDS_OK) { fputs("ids_init failed\n", stderr); abort(); }
  clock_gettime(CLOCK_REALTIME, &ts);
  start_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  return 0;
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size) {
  reader r = {data, size};
  static spec sp;
  const ids_scheme *d = NULL;
  ids_error e;
  size_t before = ids_scheme_list(NULL, 0);
  int rc;
  const ids_scheme *old;
  readspec(&r, &sp);
  old = sp.d.name ? ids_scheme_find(sp.d.name) : NULL;
  memset(&e, 0, sizeof e);
  cur = NULL;
  rc = ids_scheme_define(&sp.d, &d, &e);
  if (rc != IDS_OK) {
    check_error(rc, &e);
    CHECK(ids_scheme_list(NULL, 0) == before);
    if (sp.fresh) CHECK(ids_scheme_find(sp.name) == NULL);
    return 0;
  }
  cur = d;
  if (old) {   /* the same spec again: the scheme it made, nothing new */
    CHECK(d == old && ids_scheme_list(NULL, 0) == before);
    return 0;
  }
  CHECK(ids_scheme_list(NULL, 0) == before + 1);
  CHECK(ids_scheme_find(sp.d.name) == d && strcmp(d->name, sp.d.name) == 0);
  {
    long long bits = 0;
    int runs = 0;
    for (int i = 0; i < sp.d.nfields; i++) bits += sp.f[i].bits;
    for (int i = 0; i < d->nfields; i++)   /* split fields: one per run */
      runs += d->fields[i].nparts ? d->fields[i].nparts : 1;
    CHECK(runs == sp.d.nfields && d->bits == bits);
    CHECK(d->bytes == (sp.d.bytes ? sp.d.bytes : (bits + 7) / 8));
  }
  composed(&r);
  generate(&r);
  return 0;
}
