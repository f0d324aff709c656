/*
** bench_fluid.c: how fast FLUID ids are made, written and read.
**
** A benchmark, not a test: it prints figures and fails only if the library
** does.  Timed with clock_gettime(CLOCK_MONOTONIC); each ns/op case is
** calibrated to about 0.2 s a run, warmed up once, then run 5 times; the
** line gives the best run and, in brackets, the median.
**
**   bench_fluid [--quick] [WORD]
**     --quick: shorter runs (a smoke test); WORD: only the cases whose
**     name contains it (e.g. "decode", "f58", "thread")
*/
#include <pthread.h>

#include "bench.h"

#define NVALS     1024            /* realistic values for the codecs */
#define NGENS     64              /* round-robin: far from the per-ms cap */
#define RFC_CAP   1024000.0       /* FLUID: 1024 ids per millisecond */

static const ids_scheme *fluid;
static ids_generator gens[NGENS];
static ids_generator leased[NGENS];     /* node values from local slots */
static ids_value vals[NVALS];

static void newgen (ids_generator *g, int64_t id) {
  ids_options o;
  ids_error e;
  ids_options_init(&o, fluid);
  if (ids_options_set_int(&o, "generator", 9, id, &e) != IDS_OK ||
      ids_generator_init(g, fluid, &o, NULL, &e) != IDS_OK)
    die("generator", &e);
}



/* A generator whose node value comes from a local slot of its own
** namespace (the lease check on the ID path). */
static void newleased (ids_generator *g) {
  ids_options o;
  ids_error e;
  ids_options_init(&o, fluid);
  if (ids_options_set_text(&o, "slot_namespace", 14, "bench_fluid", 11,
                           &e) != IDS_OK ||
      ids_generator_init(g, fluid, &o, NULL, &e) != IDS_OK)
    die("leased generator", &e);
}

/* (2) one id, round-robin over 64 generators (arg: gens or leased) */
static void b_next_rr (const void *arg, long n) {
  ids_generator *gs = (ids_generator *)arg;
  uint64_t acc = 0;
  ids_value v;
  ids_error e;
  for (long i = 0; i < n; i++) {
    if (ids_generator_next(&gs[i & (NGENS - 1)], &v, &e) != IDS_OK) die("next", &e);
    acc += v.w[0];
  }
  sink += acc;
}

/* (2') id + default text, what g:next_string() costs in C */
static void b_next_f58 (const void *arg, long n) {
  uint64_t acc = 0;
  char buf[IDS_TEXTMAX];
  ids_value v;
  ids_error e;
  (void)arg;
  for (long i = 0; i < n; i++) {
    if (ids_generator_next(&gens[i & (NGENS - 1)], &v, &e) != IDS_OK) die("next", &e);
    acc += ids_scheme_encode(fluid, NULL, &v, buf) + (unsigned char)buf[3];
  }
  sink += acc;
}

/* (3) codecs */
static void b_encode (const void *arg, long n) {
  const ids_codec *c = arg;
  uint64_t acc = 0;
  char buf[IDS_TEXTMAX];
  for (long i = 0; i < n; i++) {
    size_t len = ids_scheme_encode(fluid, c, &vals[i & (NVALS - 1)], buf);
    acc += len + (unsigned char)buf[len - 1];
  }
  sink += acc;
}

typedef struct texts {
  const ids_codec *c;             /* NULL: RFC 19 detection */
  char *t[NVALS];
  size_t n[NVALS];
} texts;

static void b_decode (const void *arg, long n) {
  const texts *x = arg;
  uint64_t acc = 0;
  ids_value v;
  ids_error e;
  for (long i = 0; i < n; i++) {
    unsigned k = (unsigned)i & (NVALS - 1);
    if (ids_scheme_decode(fluid, x->c, x->t[k], x->n[k], &v, &e) != IDS_OK)
      die("decode", &e);
    acc += v.w[0];
  }
  sink += acc;
}

static texts *maketexts (const ids_codec *enc, const ids_codec *dec) {
  texts *x = calloc(1, sizeof *x);
  char buf[IDS_TEXTMAX];
  x->c = dec;
  for (int i = 0; i < NVALS; i++) {
    x->n[i] = ids_scheme_encode(fluid, enc, &vals[i], buf);
    x->t[i] = malloc(x->n[i] + 1);
    memcpy(x->t[i], buf, x->n[i] + 1);
  }
  return x;
}

static void freetexts (texts *x) {
  for (int i = 0; i < NVALS; i++) free(x->t[i]);
  free(x);
}

/* ------------------------------- (1), (4): sustained, against the cap */

/* Ids counted per ms tick (read from the ids themselves), so that a rate
** is ids over whole ticks of the generator's own clock: no partial ms at
** either end, and ticks the thread did not run in are seen as empty. */
#define HISTN 8192
typedef struct hist {
  uint64_t base;                  /* tick of hist index 0 */
  uint32_t n[HISTN];
} hist;

static void record (hist *h, uint64_t id) {
  uint64_t i = (id >> 24) - h->base;
  if (i < HISTN) h->n[i]++;
}

/* Over the ticks strictly between the first and the last that have ids. */
static rate hrate (const hist *h) {
  rate r = {0, 0, 0, 0};
  int lo = 0, hi = HISTN - 1;
  uint64_t ids = 0;
  while (lo < HISTN && h->n[lo] == 0) lo++;
  while (hi > lo && h->n[hi] == 0) hi--;
  for (int i = lo + 1; i < hi; i++) {
    ids += h->n[i];
    r.full += h->n[i] == 1024;
    r.empty += h->n[i] == 0;
  }
  r.ticks = hi > lo + 1 ? (uint64_t)(hi - lo - 1) : 0;
  r.ids_per_s = r.ticks ? (double)ids / (double)r.ticks * 1e3 : 0;
  return r;
}

static uint64_t tickof (ids_generator *g) {
  ids_value v;
  ids_error e;
  if (ids_generator_next(g, &v, &e) != IDS_OK) die("next", &e);
  return v.w[0] >> 24;
}

/* Takes ids from g for `secs` into h; returns ids not strictly increasing. */
static int sustain (ids_generator *g, double secs, hist *h) {
  uint64_t last = 0, acc = 0;
  int backwards = 0;
  ids_value v;
  ids_error e;
  double end = now_ns() + secs * 1e9;
  do {
    for (int k = 0; k < 256; k++) {
      if (ids_generator_next(g, &v, &e) != IDS_OK) die("next", &e);
      if (v.w[0] <= last) backwards++;
      last = v.w[0];
      record(h, v.w[0]);
      acc += v.w[0];
    }
  } while (now_ns() < end);
  sink += acc;
  return backwards;
}

static void printrate (const char *label, const rate *best, double median,
                       double oncpu, int backwards) {
  char cpu[32] = "";
  if (oncpu >= 0) snprintf(cpu, sizeof cpu, "; on CPU %.0f%%", oncpu);
  printf("%-46s %8.1f ns/op %8.3f M ids/s   %.2f%% of RFC cap 1,024,000/s"
         " (median %.2f%%); %llu/%llu ms full, %llu empty%s%s\n",
         label, 1e9 / best->ids_per_s, best->ids_per_s / 1e6,
         100.0 * best->ids_per_s / RFC_CAP, 100.0 * median / RFC_CAP,
         (unsigned long long)best->full, (unsigned long long)best->ticks,
         (unsigned long long)best->empty, cpu,
         backwards ? "; IDS NOT INCREASING" : "");
  fflush(stdout);
}

/* (1) one generator, one thread, the real clock: RUNS windows. */
static void b_sustained (void) {
  static hist h;
  ids_generator g;
  rate r[RUNS];
  double med, oncpu = 0;
  int backwards = 0;
  char label[96];
  snprintf(label, sizeof label, "fluid sustained (1 generator, %dx%.1f s)",
           RUNS, sustain_seconds / RUNS);
  if (!wanted(label)) return;
  newgen(&g, 1000);
  memset(&h, 0, sizeof h);
  h.base = tickof(&g);
  sustain(&g, 0.2, &h);                               /* warm-up */
  for (int i = 0; i < RUNS; i++) {
    double w0, c0;
    memset(&h, 0, sizeof h);
    h.base = tickof(&g);
    w0 = now_ns();
    c0 = cpu_ns();
    backwards += sustain(&g, sustain_seconds / RUNS, &h);
    r[i] = hrate(&h);
    oncpu += oncpu_since(w0, c0);
  }
  qsort(r, RUNS, sizeof *r, cmprate);
  med = r[RUNS / 2].ids_per_s;
  printrate(label, &r[0], med, 100.0 * oncpu / RUNS, backwards);
}

/* ------------------------------------------------- (4) two threads */

typedef struct worker {
  pthread_t th;
  pthread_barrier_t *bar;
  ids_generator *g;               /* one shared generator, or NULL: gens[] */
  hist *h;                        /* shared generator: ids per tick */
  double secs;
  uint64_t ids;
  int backwards;
  double t0, t1;
} worker;

static void *work (void *arg) {
  worker *w = arg;
  uint64_t last = 0, acc = 0, prev[NGENS] = {0};
  ids_value v;
  ids_error e;
  double end;
  pthread_barrier_wait(w->bar);
  w->t0 = now_ns();
  end = w->t0 + w->secs * 1e9;
  for (;;) {
    for (unsigned k = 0; k < 256; k++) {
      if (w->g) {
        if (ids_generator_next(w->g, &v, &e) != IDS_OK) die("next", &e);
        if (v.w[0] <= last) w->backwards++;
        last = v.w[0];
        record(w->h, v.w[0]);
      }
      else {
        unsigned j = k & (NGENS - 1);
        if (ids_generator_next(&gens[j], &v, &e) != IDS_OK) die("next", &e);
        if (v.w[0] <= prev[j]) w->backwards++;
        prev[j] = v.w[0];
      }
      acc += v.w[0];
    }
    w->ids += 256;
    if ((w->t1 = now_ns()) >= end) break;
  }
  sink += acc;
  return NULL;
}

/* Two threads for `secs`: on one shared generator (g), or round-robin
** over the same 64 generators (g NULL).  Returns ids/s; fills h. */
static double twothreads (ids_generator *g, double secs, hist *h,
                          int *backwards) {
  static hist hh[2];
  pthread_barrier_t bar;
  worker w[2];
  double t0, t1;
  uint64_t base = g ? tickof(g) : 0;
  pthread_barrier_init(&bar, NULL, 2);
  for (int i = 0; i < 2; i++) {
    memset(&w[i], 0, sizeof w[i]);
    memset(&hh[i], 0, sizeof hh[i]);
    hh[i].base = base;
    w[i].bar = &bar;
    w[i].g = g;
    w[i].h = &hh[i];
    w[i].secs = secs;
    pthread_create(&w[i].th, NULL, work, &w[i]);
  }
  for (int i = 0; i < 2; i++) pthread_join(w[i].th, NULL);
  pthread_barrier_destroy(&bar);
  if (h) {
    h->base = base;
    for (int i = 0; i < HISTN; i++) h->n[i] = hh[0].n[i] + hh[1].n[i];
  }
  *backwards += w[0].backwards + w[1].backwards;
  t0 = w[0].t0 < w[1].t0 ? w[0].t0 : w[1].t0;
  t1 = w[0].t1 > w[1].t1 ? w[0].t1 : w[1].t1;
  return (double)(w[0].ids + w[1].ids) / (t1 - t0) * 1e9;
}

static void b_threads_shared (void) {
  static hist h;
  ids_generator g;
  rate r[RUNS];
  int backwards = 0;
  char label[96] = "fluid 2 threads, 1 shared generator";
  if (!wanted(label)) return;
  newgen(&g, 77);
  for (int i = 0; i < RUNS; i++) {
    memset(&h, 0, sizeof h);
    twothreads(&g, sustain_seconds / RUNS, &h, &backwards);
    r[i] = hrate(&h);
  }
  qsort(r, RUNS, sizeof *r, cmprate);
  printrate(label, &r[0], r[RUNS / 2].ids_per_s, -1, backwards);
}

static void b_threads_rr (void) {
  double r[RUNS];
  int backwards = 0;
  if (!wanted("fluid 2 threads, 64 shared gens round-robin")) return;
  for (int i = 0; i < RUNS; i++)
    r[i] = 1e9 / twothreads(NULL, run_seconds, NULL, &backwards);
  qsort(r, RUNS, sizeof *r, cmpd);
  printf("%-46s %8.1f ns/op %8.2f M ids/s   (median %.1f ns; wall time / "
         "ids of both)%s\n", "fluid 2 threads, 64 shared gens round-robin",
         r[0], 1e3 / r[0], r[RUNS / 2],
         backwards ? "; IDS NOT INCREASING" : "");
  fflush(stdout);
}

/* ---------------------------------------------------------------- main */

int main (int argc, char **argv) {
  static const char *const encodings[] = {
    "f58", "dec", "hex", "dothex", "words", "emoji"
  };
  ids_generator g;
  ids_error e;
  bench_name = "bench_fluid";
  bench_start(argc, argv);
  if ((fluid = ids_scheme_find("fluid")) == NULL) die("no scheme fluid", NULL);

  /* realistic values: real ids of a few generators */
  for (int i = 0; i < NGENS; i++) newgen(&gens[i], i);
  newgen(&g, 4242);
  for (int i = 0; i < NVALS; i++)
    if (ids_generator_next(i % 3 ? &gens[i % NGENS] : &g, &vals[i], &e) != IDS_OK)
      die("next", &e);

  b_sustained();
  for (int i = 0; i < NGENS; i++) newleased(&leased[i]);
  /* side by side, twice each: the lease check costs what A/B shows */
  for (int k = 0; k < 2; k++) {
    measure("fluid next (64 generators round-robin)", b_next_rr, gens, NULL);
    measure("fluid next, node from a local slot (64 round-robin)",
            b_next_rr, leased, NULL);
  }
  measure("fluid next + f58 encode (64 generators)", b_next_f58, NULL, NULL);
  measure("  floor: clock_gettime(CLOCK_REALTIME)", b_clock, NULL, NULL);

  for (size_t i = 0; i < sizeof encodings / sizeof *encodings; i++) {
    const ids_codec *c = ids_codec_find(fluid, encodings[i],
                                        strlen(encodings[i]));
    char label[64];
    texts *x;
    if (c == NULL) die(encodings[i], NULL);
    snprintf(label, sizeof label, "fluid encode %s", encodings[i]);
    measure(label, b_encode, c, NULL);
    x = maketexts(c, c);
    snprintf(label, sizeof label, "fluid decode %s", encodings[i]);
    measure(label, b_decode, x, NULL);
    x->c = NULL;
    snprintf(label, sizeof label, "fluid decode %s (RFC 19 detection)",
             encodings[i]);
    measure(label, b_decode, x, NULL);
    freetexts(x);
  }

  b_threads_shared();
  b_threads_rr();
  return 0;
}
