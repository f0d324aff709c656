/*
** bench_schemes.c: how fast every scheme other than FLUID makes, writes
** and reads its ids (FLUID has bench_fluid.c), plus the shared pieces an
** id pays for: the entropy pool and kuid's node hash.
**
** A benchmark, not a test: it prints figures and fails only if the library
** does.  Timed with clock_gettime(CLOCK_MONOTONIC); each ns/op case is
** calibrated to about 0.2 s a run, warmed up once, then run 5 times; the
** line gives the best run and, in brackets, the median.  A summary at the
** end sets the figures against the project's targets.
**
**   bench_schemes [--quick] [WORD]
**     --quick: shorter runs (a smoke test); WORD: only the cases whose
**     name contains it (e.g. "kuid", "sustained", "encode")
**
** Schemes: flax, snowflake, siq, kuid64, kuid96 (interval 8, node 1), and
** ulid and uuidv7 (defined at init from schemes/shipped.c with
** ids_scheme_define, as idscheme.define would).
*/
#include "bench.h"

#define NVALS     1024            /* realistic values for the codecs */
#define NGENS     64              /* round-robin: far from any cap */

/* ------------------------------------------------------------ results */

/* Best ns/op (or ids/s share of a cap) of each case, for the summary. */
#define MAXRES 128
static struct { char name[96]; double x; int noisy; } res[MAXRES];
static int nres;

static void keep (const char *name, double x, int noisy) {
  if (nres == MAXRES) return;
  snprintf(res[nres].name, sizeof res[nres].name, "%s", name);
  res[nres].x = x;
  res[nres].noisy = noisy;
  nres++;
}

static int result (const char *name, double *x, int *noisy) {
  for (int i = 0; i < nres; i++)
    if (strcmp(res[i].name, name) == 0) {
      *x = res[i].x;
      *noisy = res[i].noisy;
      return 1;
    }
  return 0;
}

/* Times and prints the case if wanted, and keeps its best for the
** summary. */
static void measure_kept (const char *name, bench_fn f, const void *arg) {
  timing tm;
  if (measure(name, f, arg, &tm)) keep(name, tm.best, tm.oncpu < ONCPU_OK);
}

/* ------------------------------------------------------------ schemes */

typedef struct bscheme bscheme;
struct bscheme {
  const char *name;
  const ids_scheme *s;
  uint64_t cap;                   /* ids per tick from one generator; 0 */
  const char *capdesc;            /* the cap in words */
  double cap_per_s;               /* the cap as ids/s, for the % */
  /* the id's tick (as the generator counts it) and a tick's length in s
  ** (0: a tick number that never occurs) */
  uint64_t (*tick) (const bscheme *b, const ids_value *v);
  double (*ticklen) (const bscheme *b, uint64_t tick);
  unsigned tshift, tbits;         /* linear time field */
  ids_generator gens[NGENS];
  ids_value vals[NVALS];
};

static uint64_t tick_linear (const bscheme *b, const ids_value *v) {
  return ids_value_get(v, b->tshift, b->tbits);
}

static double len_linear (const bscheme *b, uint64_t t) {
  (void)t;
  return (double)b->s->unit.per_sec_den / (double)b->s->unit.per_sec_num;
}

/* kuid: tick = seconds since 1970 * 1024 + microseconds / 1024, the
** generator's own count; ticks 0..975 of a second last 1024 us, tick 976
** the last 576 us, and 977..1023 never occur. */
static uint64_t tick_kuid64 (const bscheme *b, const ids_value *v) {
  uint64_t w = v->w[0];
  (void)b;
  return ((w >> 44) * 1000000 + (w >> 24 & 0xfffff)) * 1024 +
         (w >> 14 & 1023);
}

/* kuid96: megaseconds:20 | seconds>>I | node:32 | seconds&(2^I-1) |
** microseconds/1024:10 | seq:14, read straight from the words (I from
** the node field's shift, 24 + I): cheaper than ids_scheme_decompose, which
** matters when 16384 ids must fit in kuid's short 576-us tick */
static uint64_t tick_kuid96 (const bscheme *b, const ids_value *v) {
  unsigned i = b->s->fields[3].shift - 24u;
  unsigned __int128 x = (unsigned __int128)v->w[1] << 64 | v->w[0];
  uint64_t mega = (uint64_t)(x >> 76) & 0xfffff;
  uint64_t sec = ((uint64_t)(x >> (56 + i)) & ((1u << (20 - i)) - 1)) << i |
                 (v->w[0] >> 24 & ((1u << i) - 1));
  return (mega * 1000000 + sec) * 1024 + (v->w[0] >> 14 & 1023);
}

static double len_kuid (const bscheme *b, uint64_t t) {
  (void)b;
  t &= 1023;
  return t < 976 ? 1024e-6 : t == 976 ? 576e-6 : 0;
}

/* Option `name` = x, through the named entry point. */
static void setopt (ids_options *o, const char *name, int64_t x) {
  ids_error e;
  if (ids_options_set_int(o, name, strlen(name), x, &e) != IDS_OK)
    die("option", &e);
}

/* Generator k of scheme b (k: to vary node fields where they exist). */
static void newgen (const bscheme *b, ids_generator *g, int k) {
  ids_options o;
  ids_error e;
  ids_options_init(&o, b->s);
  if (strcmp(b->name, "snowflake") == 0) {
    setopt(&o, "worker", k & 31);
    setopt(&o, "shard", (k >> 5) & 31);
  }
  else if (strcmp(b->name, "siq") == 0) setopt(&o, "shard", k & 255);
  else if (strcmp(b->name, "kuid96") == 0) setopt(&o, "node", 1);
  if (ids_generator_init(g, b->s, &o, NULL, &e) != IDS_OK)
    die("generator", &e);
}

/* ------------------------------------------------------------- cases */

/* one id, round-robin over 64 generators */
static void b_next_rr (const void *arg, long n) {
  bscheme *b = (bscheme *)arg;
  uint64_t acc = 0;
  ids_value v;
  ids_error e;
  for (long i = 0; i < n; i++) {
    if (ids_generator_next(&b->gens[i & (NGENS - 1)], &v, &e) != IDS_OK)
      die("next", &e);
    acc += v.w[0] ^ v.w[1];
  }
  sink += acc;
}

/* the bulk call, 1024 IDs a call (n rounded up to whole batches) */
#define BULK 1024
static void b_next_bulk (const void *arg, long n) {
  bscheme *b = (bscheme *)arg;
  static ids_value v[BULK];
  uint64_t acc = 0;
  ids_error e;
  for (long i = 0; i < n; i += BULK) {
    if (ids_generator_next_n(&b->gens[(i / BULK) & (NGENS - 1)], v, BULK, &e)
        != IDS_OK)
      die("next_n", &e);
    acc += v[0].w[0] ^ v[BULK - 1].w[0];
  }
  sink += acc;
}

/* id + default text: what g:next_string() costs in C */
static void b_next_text (const void *arg, long n) {
  bscheme *b = (bscheme *)arg;
  uint64_t acc = 0;
  char buf[IDS_TEXTMAX];
  ids_value v;
  ids_error e;
  for (long i = 0; i < n; i++) {
    if (ids_generator_next(&b->gens[i & (NGENS - 1)], &v, &e) != IDS_OK)
      die("next", &e);
    acc += ids_scheme_encode(b->s, NULL, &v, buf) + (unsigned char)buf[3];
  }
  sink += acc;
}

static void b_encode (const void *arg, long n) {
  const bscheme *b = arg;
  uint64_t acc = 0;
  char buf[IDS_TEXTMAX];
  for (long i = 0; i < n; i++) {
    size_t len = ids_scheme_encode(b->s, NULL, &b->vals[i & (NVALS - 1)], buf);
    acc += len + (unsigned char)buf[len - 1];
  }
  sink += acc;
}

typedef struct texts {
  const ids_scheme *s;
  char *t[NVALS];
  size_t n[NVALS];
} texts;

/* decoding with no encoding named, as s:decode(text) does: the scheme's
** detection (SIQ: did: or its default) or its default */
static void b_decode (const void *arg, long n) {
  const texts *x = arg;
  uint64_t acc = 0;
  ids_value v;
  ids_error e;
  for (long i = 0; i < n; i++) {
    unsigned k = (unsigned)i & (NVALS - 1);
    if (ids_scheme_decode(x->s, NULL, x->t[k], x->n[k], &v, &e) != IDS_OK)
      die("decode", &e);
    acc += v.w[0];
  }
  sink += acc;
}

static texts *maketexts (const bscheme *b) {
  texts *x = calloc(1, sizeof *x);
  char buf[IDS_TEXTMAX];
  if (x == NULL) die("out of memory", NULL);
  x->s = b->s;
  for (int i = 0; i < NVALS; i++) {
    x->n[i] = ids_scheme_encode(b->s, NULL, &b->vals[i], buf);
    if ((x->t[i] = malloc(x->n[i] + 1)) == NULL) die("out of memory", NULL);
    memcpy(x->t[i], buf, x->n[i] + 1);
  }
  return x;
}

static void freetexts (texts *x) {
  for (int i = 0; i < NVALS; i++) free(x->t[i]);
  free(x);
}

/* the entropy pool: 7 bytes a call (Flax steps take 4, UUIDv7 8) */
static void b_random7 (const void *arg, long n) {
  uint64_t acc = 0;
  uint8_t buf[8];
  (void)arg;
  for (long i = 0; i < n; i++) {
    ids_random(buf, 7);
    acc += buf[0] ^ buf[6];
  }
  sink += acc;
}

/* kuid96's node hash (Erlang phash2 of an atom) of 20-byte names */
static const char *const nodenames[8] = {
  "idscheme@host-01.lan", "idscheme@host-02.lan", "idscheme@host-03.lan",
  "idscheme@host-04.lan", "worker_7@10.0.0.17.x", "worker_8@10.0.0.18.x",
  "rabbit@node-aa-bb-cc", "ejabberd@xmpp.exampl",
};

static void b_hashname (const void *arg, long n) {
  const ids_scheme *s = arg;
  int f = ids_scheme_field(s, "node");
  uint64_t acc = 0, x;
  ids_error e;
  for (long i = 0; i < n; i++) {
    if (s->layout->hashname(s, f, nodenames[i & 7], 20, &x, &e) != IDS_OK)
      die("hashname", &e);
    acc += x;
  }
  sink += acc;
}

/* -------------------------------- sustained: one generator, its cap */

/* Ids counted per tick of the generator's own clock (read from the ids
** themselves), so that a rate is ids over whole ticks: no partial tick at
** either end, and ticks the thread did not run in are seen as empty. */
#define HISTN 65536               /* 1 s of SIQ's 1/65536 s ticks */
typedef struct hist {
  uint64_t base;                  /* tick of hist index 0 */
  uint32_t n[HISTN];
} hist;

/* Over the ticks strictly between the first and the last that have ids. */
static rate hrate (const bscheme *b, const hist *h) {
  rate r = {0, 0, 0, 0};
  int lo = 0, hi = HISTN - 1;
  uint64_t ids = 0;
  double secs = 0;
  while (lo < HISTN && h->n[lo] == 0) lo++;
  while (hi > lo && h->n[hi] == 0) hi--;
  for (int i = lo + 1; i < hi; i++) {
    double len = b->ticklen(b, h->base + (uint64_t)i);
    if (len == 0) continue;                 /* no such tick */
    ids += h->n[i];
    secs += len;
    r.ticks++;
    r.full += b->cap && h->n[i] >= b->cap;
    r.empty += h->n[i] == 0;
  }
  r.ids_per_s = secs > 0 ? (double)ids / secs : 0;
  return r;
}

static uint64_t firsttick (bscheme *b, ids_generator *g) {
  ids_value v;
  ids_error e;
  if (ids_generator_next(g, &v, &e) != IDS_OK) die("next", &e);
  return b->tick(b, &v);
}

/* Takes ids from g for `secs` into h; returns ids not strictly increasing. */
static int sustain (bscheme *b, ids_generator *g, double secs, hist *h) {
  ids_value last = {{0, 0, 0}}, v;
  uint64_t acc = 0;
  int backwards = 0;
  ids_error e;
  double end = now_ns() + secs * 1e9;
  do {
    for (int k = 0; k < 256; k++) {
      uint64_t i;
      if (ids_generator_next(g, &v, &e) != IDS_OK) die("next", &e);
      if (ids_value_cmp(&v, &last) <= 0) backwards++;
      last = v;
      i = b->tick(b, &v) - h->base;
      if (i < HISTN) h->n[i]++;
      acc += v.w[0];
    }
  } while (now_ns() < end);
  sink += acc;
  return backwards;
}

static void b_sustained (bscheme *b) {
  static hist h;
  ids_generator g;
  rate r[RUNS];
  double med, oncpu = 0;
  int backwards = 0;
  char label[96], key[64];
  snprintf(label, sizeof label, "%s sustained (1 generator, %dx%.1f s)",
           b->name, RUNS, sustain_seconds / RUNS);
  if (!wanted(label)) return;
  newgen(b, &g, 1000);
  memset(&h, 0, sizeof h);
  h.base = firsttick(b, &g);
  sustain(b, &g, 0.2, &h);                            /* warm-up */
  for (int i = 0; i < RUNS; i++) {
    double w0, c0;
    memset(&h, 0, sizeof h);
    h.base = firsttick(b, &g);
    w0 = now_ns();
    c0 = cpu_ns();
    backwards += sustain(b, &g, sustain_seconds / RUNS, &h);
    r[i] = hrate(b, &h);
    oncpu += oncpu_since(w0, c0);
  }
  qsort(r, RUNS, sizeof *r, cmprate);
  med = r[RUNS / 2].ids_per_s;
  oncpu /= RUNS;
  printf("%-46s %8.1f ns/op %8.3f M ids/s", label, 1e9 / r[0].ids_per_s,
         r[0].ids_per_s / 1e6);
  if (b->cap)
    printf("   %.2f%% of cap %s (median %.2f%%); %llu/%llu ticks full,"
           " %llu empty", 100.0 * r[0].ids_per_s / b->cap_per_s, b->capdesc,
           100.0 * med / b->cap_per_s, (unsigned long long)r[0].full,
           (unsigned long long)r[0].ticks, (unsigned long long)r[0].empty);
  else
    printf("   (median %.3f M; no per-tick cap); %llu ms, %llu empty",
           med / 1e6, (unsigned long long)r[0].ticks,
           (unsigned long long)r[0].empty);
  printf("; on CPU %.0f%%%s\n", 100.0 * oncpu,
         backwards ? "; IDS NOT INCREASING" : "");
  fflush(stdout);
  snprintf(key, sizeof key, "%s sustained", b->name);
  keep(key, b->cap ? 100.0 * r[0].ids_per_s / b->cap_per_s
                   : r[0].ids_per_s, oncpu < ONCPU_OK);
}

/* ------------------------------------------------------------ summary */

typedef struct target {
  const char *what;
  const char *key;                /* a kept result */
  double limit;
  int atleast;                    /* 1: a floor (%), 0: a ceiling (ns) */
} target;

#define CLOCKFLOOR "  floor: clock_gettime(CLOCK_REALTIME)"

static void summary (void) {
  static const target t[] = {
    {"Flax id (round-robin)", "flax next (64 generators round-robin)",
     45, 0},
    {"Snowflake id (round-robin)",
     "snowflake next (64 generators round-robin)", 40, 0},
    {"SIQ id (round-robin)", "siq next (64 generators round-robin)", 40, 0},
    {"kuid64 id (round-robin)", "kuid64 next (64 generators round-robin)",
     35, 0},
    {"kuid96 id (round-robin)", "kuid96 next (64 generators round-robin)",
     35, 0},
    {"kuid64 bulk, 1024 a call (per ID)",
     "kuid64 next_n 1024 (64 generators, per ID)", 6, 0},
    {"kuid64 one generator, % of 16M/s cap", "kuid64 sustained", 99, 1},
    {"kuid96 one generator, % of 16M/s cap", "kuid96 sustained", 99, 1},
    {"entropy pool, 7 bytes", "ids_random(7 bytes) (entropy pool)", 6, 0},
    {"Flax string encode", "flax encode flax (default)", 30, 0},
    {"kuid64 b64 encode", "kuid64 encode b64 (default)", 25, 0},
    {"kuid96 b64 encode", "kuid96 encode b64 (default)", 25, 0},
    {"phash2 of a 20-byte name", "kuid96 hashname (phash2, 20-byte name)",
     30, 0},
  };
  printf("\ntargets (best of %d; * = other load took the core during the "
         "case)\n", RUNS);
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    double x, clk;
    int noisy;
    if (!result(t[i].key, &x, &noisy)) {
      printf("  %-40s %s %5.0f%s  not run\n", t[i].what,
             t[i].atleast ? ">=" : "<=", t[i].limit,
             t[i].atleast ? " %" : " ns");
      continue;
    }
    printf("  %-40s %s %5.0f%s  %8.2f%s  %s%s", t[i].what,
           t[i].atleast ? ">=" : "<=", t[i].limit,
           t[i].atleast ? " %" : " ns", x, t[i].atleast ? " %" : " ns",
           (t[i].atleast ? x >= t[i].limit : x <= t[i].limit) ? "met"
                                                               : "MISSED",
           noisy ? " *" : "");
    if (strstr(t[i].key, " next ") && result(CLOCKFLOOR, &clk, &noisy))
      printf("  (clock read %.1f + the rest %.1f)", clk, x - clk);
    printf("\n");
  }
  fflush(stdout);
}

/* ---------------------------------------------------------------- main */

static bscheme *setup (const char *name, const ids_scheme *s, uint64_t cap,
                       const char *capdesc, double cap_per_s) {
  bscheme *b = calloc(1, sizeof *b);
  ids_generator g;
  ids_error e;
  int tf;
  if (b == NULL) die("out of memory", NULL);
  b->name = name;
  b->s = s;
  b->cap = cap;
  b->capdesc = capdesc;
  b->cap_per_s = cap_per_s;
  for (tf = 0; tf < s->nfields && s->fields[tf].kind != IDS_KIND_TIME; tf++) {}
  b->tshift = s->fields[tf].shift;
  b->tbits = s->fields[tf].bits;
  b->tick = tick_linear;
  b->ticklen = len_linear;
  if (s->gen && s->gen->totick) {
    b->tick = s->nfields == 5 ? tick_kuid96 : tick_kuid64;
    b->ticklen = len_kuid;
  }
  for (int i = 0; i < NGENS; i++) newgen(b, &b->gens[i], i);
  newgen(b, &g, 4242);
  for (int i = 0; i < NVALS; i++)     /* real ids of a few generators */
    if (ids_generator_next(i % 3 ? &b->gens[i % NGENS] : &g, &b->vals[i], &e)
        != IDS_OK)
      die("next", &e);
  if (s->gen && s->gen->totick) {                    /* the quick tick readers are right */
    uint64_t x[IDS_MAXFIELDS];
    ids_scheme_decompose(s, &b->vals[0], x);
    if (b->tick(b, &b->vals[0]) != (x[0] * 1000000 + x[1]) * 1024 +
                                   (x[2] >> 10))
      die(name, NULL);
  }
  return b;
}

static void run_scheme (bscheme *b) {
  char label[96];
  texts *x;
  snprintf(label, sizeof label, "%s next (64 generators round-robin)",
           b->name);
  measure_kept(label, b_next_rr, b);
  snprintf(label, sizeof label, "%s next_n 1024 (64 generators, per ID)",
           b->name);
  measure_kept(label, b_next_bulk, b);
  snprintf(label, sizeof label, "%s next + %s encode (64 generators)",
           b->name, b->s->codecs[0]->name);
  measure_kept(label, b_next_text, b);
  b_sustained(b);
  snprintf(label, sizeof label, "%s encode %s (default)", b->name,
           b->s->codecs[0]->name);
  measure_kept(label, b_encode, b);
  snprintf(label, sizeof label, "%s decode %s (none named)", b->name,
           b->s->codecs[0]->name);
  if (wanted(label)) {
    x = maketexts(b);
    measure_kept(label, b_decode, x);
    freetexts(x);
  }
}

int main (int argc, char **argv) {
  ids_options p;
  const ids_scheme *kuid96, *k96;
  ids_error e;
  bscheme *b[7];
  bench_name = "bench_schemes";
  bench_start(argc, argv);
  k96 = ids_scheme_find("kuid96");
  ids_params_init(&p, k96);
  if (ids_options_set_int(&p, "interval", 8, 8, &e) != IDS_OK ||
      (kuid96 = ids_scheme_open(k96, &p, &e)) == NULL)
    die("kuid96", &e);

  b[0] = setup("flax", ids_scheme_find("flax"), 0, NULL, 0);
  b[1] = setup("snowflake", ids_scheme_find("snowflake"), 4096,
               "4096/ms = 4,096,000/s", 4096e3);
  b[2] = setup("siq", ids_scheme_find("siq"), 8192,
               "8192 content ids per 1/65536 s = 536,870,912/s",
               8192.0 * 65536);
  b[3] = setup("kuid64", ids_scheme_find("kuid64"), 16384,
               "16384 per 1024 us = 16,000,000/s", 16e6);
  b[4] = setup("kuid96", kuid96, 16384,
               "16384 per 1024 us = 16,000,000/s", 16e6);
  b[5] = setup("ulid", ids_scheme_find("ulid"), 0, NULL, 0);
  b[6] = setup("uuidv7", ids_scheme_find("uuidv7"), 4096,
               "4096/ms = 4,096,000/s", 4096e3);

  measure_kept(CLOCKFLOOR, b_clock, NULL);
  measure_kept("ids_random(7 bytes) (entropy pool)", b_random7, NULL);
  measure_kept("kuid96 hashname (phash2, 20-byte name)", b_hashname, kuid96);
  for (int i = 0; i < 7; i++) run_scheme(b[i]);
  summary();
  return 0;
}
