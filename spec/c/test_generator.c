/*
** test_generator.c: the FLUID generator's promises (DESIGN.md, "Generation
** rules"): strictly increasing IDs at any rate and from any number of
** threads, all 1024 sequences of a tick, the clock policies, Flux's
** monotonic mode against the reference's `generated` vectors, fork
** safety and the ends of the time field.  Clocks are injected wherever
** time matters, so only the rate tests read the real clock.
**
** usage: test_generator [VECTORS_DIR]
*/
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>

#include "idscheme.h"
#include "test.h"

#ifndef IDS_VECTORS
#define IDS_VECTORS "spec/vectors"
#endif

#define MS        INT64_C(1000000)          /* ns */
#define MAXTICK   ((INT64_C(1) << 40) - 1)  /* last ms the field holds */
#define SENTINEL  0x5a5a5a5a5a5a5a5aull

static const ids_scheme *S;
static int FT, FG, FS;                      /* field indices */
static int64_t EPOCH_MS;                    /* the generator's default */

/* ------------------------------------------------------------ helpers */

typedef struct parts { uint64_t ts, gen, seq; } parts;

static parts split (const ids_value *v) {
  uint64_t f[IDS_MAXFIELDS];
  parts p;
  ids_decompose(S, v, f);
  p.ts = f[FT]; p.gen = f[FG]; p.seq = f[FS];
  return p;
}

/* Generator options are indexed like S->genopts. */
static void setopt (ids_optval *o, const char *name, int64_t x) {
  for (int i = 0; i < S->ngenopts; i++)
    if (strcmp(S->genopts[i].name, name) == 0) {
      o[i].set = 1;
      o[i].i = x;
      return;
    }
  fprintf(stderr, "fluid has no generator option %s\n", name);
  exit(2);
}

/* Unix ns of a FLUID tick under the default epoch. */
static int64_t at (int64_t tick) { return (EPOCH_MS + tick) * MS; }

/* An injected clock: reads `ns`; with stall > 0 it jumps to `then` once
** it has been read `stall` times (counting from reads = 0). */
typedef struct fake {
  int64_t ns, then;
  long reads, stall;
} fake;

static int64_t fake_now (void *ctx) {
  fake *f = ctx;
  f->reads++;
  if (f->stall > 0 && f->reads > f->stall) {
    f->ns = f->then;
    f->stall = 0;
  }
  return f->ns;
}

static int init (ids_generator *g, const ids_optval *opts, ids_policy p,
                 fake *f) {
  ids_clock c = {fake_now, f};
  ids_error e;
  int r = ids_generator_init(g, S, opts, p, f ? &c : NULL, &e);
  CHECKF(r == IDS_OK, "ids_generator_init: %d %s", r, r ? e.msg : "");
  return r;
}

/* ids_next that checks what every failure owes: its code and a message;
** and that a failure leaves *v alone rather than half-written. */
static int next (ids_generator *g, ids_value *v, ids_error *e) {
  int r;
  memset(e, 0, sizeof *e);
  v->w[0] = v->w[1] = v->w[2] = SENTINEL;
  r = ids_next(g, v, e);
  if (r < 0) {
    CHECKF(e->msg[0] != '\0', "no message for code %d", r);
    CHECK(e->code == r);
    CHECKF(v->w[0] == SENTINEL, "failed ids_next wrote %" PRIu64,
           v->w[0]);
  }
  return r;
}

/* One ID that must come out; returns its parts. */
static parts take (ids_generator *g, ids_value *v) {
  ids_error e;
  int r = next(g, v, &e);
  CHECKF(r == IDS_OK, "ids_next: %d %s", r, r ? e.msg : "");
  return split(v);
}

static cJSON *load (const char *dir, const char *file) {
  char path[1024];
  FILE *f;
  long n;
  char *text;
  cJSON *j;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  if ((f = fopen(path, "rb")) == NULL) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  text = malloc((size_t)n + 1);
  if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n) exit(2);
  text[n] = '\0';
  fclose(f);
  j = cJSON_Parse(text);
  free(text);
  if (j == NULL) { fprintf(stderr, "%s: bad JSON\n", path); exit(2); }
  return j;
}

static uint64_t num (const cJSON *o, const char *key) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
  if (cJSON_IsString(x)) return strtoull(x->valuestring, NULL, 10);
  if (cJSON_IsNumber(x)) return (uint64_t)x->valuedouble;
  fprintf(stderr, "generated vector without \"%s\"\n", key);
  exit(2);
}

/* ----------------------------------------------------- the real clock */

#define NSINGLE  10000000L
#define NTHREAD  5000000L

static void test_single (void) {
  ids_generator g;
  ids_value v;
  ids_error e;
  uint64_t prev = 0;
  long bad = -1, err = -1;
  int code = 0;
  if (init(&g, NULL, IDS_HOLD, NULL) != IDS_OK) return;
  for (long i = 0; i < NSINGLE; i++) {
    int r = ids_next(&g, &v, &e);
    if (r != IDS_OK) { err = i; code = r; break; }
    if (i > 0 && v.w[0] <= prev && bad < 0) bad = i;
    prev = v.w[0];
  }
  CHECKF(err < 0, "ID %ld failed: %d %s", err, code, e.msg);
  CHECKF(bad < 0, "ID %ld is not above the one before", bad);
}

typedef struct worker {
  ids_generator *g;
  uint64_t *out;
  long bad, err;
  int code;
} worker;

static void *work (void *arg) {
  worker *w = arg;
  ids_value v;
  ids_error e;
  w->bad = w->err = -1;
  for (long i = 0; i < NTHREAD; i++) {
    int r = ids_next(w->g, &v, &e);
    if (r != IDS_OK) { w->err = i; w->code = r; break; }
    w->out[i] = v.w[0];
    if (i > 0 && w->out[i] <= w->out[i - 1] && w->bad < 0) w->bad = i;
  }
  return NULL;
}

static int cmpu64 (const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void test_threads (void) {
  ids_generator g;
  worker w[2];
  pthread_t t[2];
  uint64_t *all = malloc(2 * NTHREAD * sizeof *all);
  long dup = -1;
  if (!CHECK(all != NULL) || init(&g, NULL, IDS_HOLD, NULL) != IDS_OK) {
    free(all);
    return;
  }
  for (int k = 0; k < 2; k++) {
    w[k].g = &g;
    w[k].out = all + k * NTHREAD;
    CHECK(pthread_create(&t[k], NULL, work, &w[k]) == 0);
  }
  for (int k = 0; k < 2; k++) {
    pthread_join(t[k], NULL);
    CHECKF(w[k].err < 0, "thread %d: ID %ld failed with %d", k, w[k].err,
           w[k].code);
    CHECKF(w[k].bad < 0, "thread %d: ID %ld is not above its previous one",
           k, w[k].bad);
  }
  qsort(all, 2 * NTHREAD, sizeof *all, cmpu64);
  for (long i = 1; i < 2 * NTHREAD && dup < 0; i++)
    if (all[i] == all[i - 1]) dup = i;
  CHECKF(dup < 0, "duplicate ID %" PRIu64, dup < 0 ? 0 : all[dup]);
  free(all);
}

/* ---------------------------------------------------- injected clocks */

/* A frozen clock: all 1024 sequences of the tick, then a wait for the next
** tick (never a borrowed one, never a repeat). */
static void test_frozen (void) {
  const int64_t T = 1000000;
  const long K = 50;
  fake f = {at(T) + 123456, 0, 0, 0};
  ids_optval o[IDS_MAXOPTS] = {{0}};
  ids_generator g;
  ids_value v;
  uint64_t last = 0;
  int ok = 1;
  parts p;
  setopt(o, "generator", 77);
  if (init(&g, o, IDS_HOLD, &f) != IDS_OK) return;
  for (uint64_t i = 0; i < 1024 && ok; i++) {
    p = take(&g, &v);
    ok = CHECKF(p.ts == (uint64_t)T && p.gen == 77 && p.seq == i,
                "ID %" PRIu64 ": ts %" PRIu64 " gen %" PRIu64 " seq %"
                PRIu64, i, p.ts, p.gen, p.seq);
    last = v.w[0];
  }
  /* the 1025th: the clock stays at T for K reads, then reaches T+1 */
  f.reads = 0;
  f.stall = K;
  f.then = at(T + 1);
  p = take(&g, &v);
  CHECK_U64(p.ts, T + 1);
  CHECK_U64(p.seq, 0);
  CHECK_U64(p.gen, 77);
  CHECK(v.w[0] > last);
  CHECKF(f.reads > 1, "the clock was read %ld times while waiting", f.reads);
  CHECKF(f.reads > K, "it returned before the clock moved (%ld reads)",
         f.reads);
}

/* hold: the timestamp stays, the sequence goes on; when it runs out, the
** generator waits for the clock to pass the held tick. */
static void test_back_hold (void) {
  const int64_t T = 2000000;
  fake f = {at(T), 0, 0, 0};
  ids_optval o[IDS_MAXOPTS] = {{0}};
  ids_generator g;
  ids_value v;
  uint64_t last = 0;
  int ok = 1;
  parts p;
  setopt(o, "generator", 5);
  if (init(&g, o, IDS_HOLD, &f) != IDS_OK) return;
  for (int i = 0; i < 10; i++) { take(&g, &v); last = v.w[0]; }
  f.ns = at(T - 5000);                       /* 5 s back */
  for (uint64_t i = 10; i < 1024 && ok; i++) {
    p = take(&g, &v);
    ok = CHECKF(v.w[0] > last && p.ts == (uint64_t)T && p.seq == i &&
                p.gen == 5, "ID %" PRIu64 " after the step back: ts %"
                PRIu64 " seq %" PRIu64, i, p.ts, p.seq);
    last = v.w[0];
  }
  /* tick T is used up: it must wait (one real 1 s sleep here) */
  f.reads = 0;
  f.stall = 2;
  f.then = at(T + 1);
  p = take(&g, &v);
  CHECK(v.w[0] > last);
  CHECK_U64(p.ts, T + 1);
  CHECK_U64(p.seq, 0);
}

/* error: IDS_ECLOCK while behind the last ID, with the state untouched. */
static void test_back_error (void) {
  const int64_t T = 3000000;
  fake f = {at(T), 0, 0, 0};
  ids_generator g;
  ids_value v;
  ids_error e;
  ids_generator before;
  uint64_t last = 0;
  parts p;
  if (init(&g, NULL, IDS_ERROR, &f) != IDS_OK) return;
  for (int i = 0; i < 10; i++) { take(&g, &v); last = v.w[0]; }
  memcpy(&before, &g, sizeof g);   /* all of it, whatever the layout */
  f.ns = at(T - 5000);
  for (int i = 0; i < 3; i++) {
    int r = next(&g, &v, &e);
    CHECKF(r == IDS_ECLOCK, "5 s back under IDS_ERROR: got %d", r);
  }
  CHECKF(memcmp(&before, &g, sizeof g) == 0,
         "a refused ID changed the generator");
  f.ns = at(T) + 999999;                     /* back, later in tick T */
  p = take(&g, &v);
  CHECK(v.w[0] > last);
  CHECK_U64(p.ts, T);
  CHECK_U64(p.seq, 10);
  f.ns = at(T);                              /* back within the tick: fine */
  last = v.w[0];
  p = take(&g, &v);
  CHECK(v.w[0] > last);
  CHECK_U64(p.seq, 11);
  f.ns = at(T + 1);
  p = take(&g, &v);
  CHECK_U64(p.ts, T + 1);
  CHECK_U64(p.seq, 0);
}

/* Flux's mode: counts from start_timestamp on a monotonic clock. */
static void test_flux (const cJSON *gen) {
  const cJSON *o;
  int groups = 0, checked = 0;
  int64_t init_id = -1, init_ts = -1;
  fake f = {7777777777, 0, 0, 0};
  ids_generator g;
  ids_value v;
  cJSON_ArrayForEach(o, gen) {
    const cJSON *preset = cJSON_GetObjectItemCaseSensitive(o, "preset_seq");
    parts p;
    /* preset sequences cannot be set through the API; the reference also
    ** never issues sequence 1023, which we do */
    if (!cJSON_IsNull(preset)) continue;
    if ((int64_t)num(o, "init_id") != init_id ||
        (int64_t)num(o, "init_timestamp") != init_ts) {
      ids_optval opt[IDS_MAXOPTS] = {{0}};
      init_id = (int64_t)num(o, "init_id");
      init_ts = (int64_t)num(o, "init_timestamp");
      setopt(opt, "generator", init_id);
      setopt(opt, "start_timestamp", init_ts);
      if (init(&g, opt, IDS_HOLD, &f) != IDS_OK) return;
      groups++;
    }
    p = take(&g, &v);
    checked++;
    CHECKF(v.w[0] == num(o, "value"), "init(%lld, %lld): got %" PRIu64
           ", want %" PRIu64, (long long)init_id, (long long)init_ts,
           v.w[0], num(o, "value"));
    CHECK_U64(p.ts, num(o, "timestamp"));
    CHECK_U64(p.gen, num(o, "generator"));
    CHECK_U64(p.seq, num(o, "sequence"));
  }
  CHECK(groups == 2);
  CHECK(checked == 6);
  /* the clock moving on: whole ms of the monotonic clock, as Flux counts */
  {
    ids_optval opt[IDS_MAXOPTS] = {{0}};
    int64_t t0 = f.ns;
    parts p;
    setopt(opt, "generator", 1);
    setopt(opt, "start_timestamp", 1000);
    if (init(&g, opt, IDS_HOLD, &f) != IDS_OK) return;
    take(&g, &v);
    f.ns += 2500000;
    p = take(&g, &v);
    CHECK_U64(p.ts, 1000 + (uint64_t)(f.ns / MS - t0 / MS));
    CHECK_U64(p.seq, 0);
    f.ns = t0;
  }
}

/* Options out of range are refused with IDS_ERANGE. */
static void test_options (void) {
  static const struct { const char *name; int64_t x; } bad[] = {
    {"generator", 16384}, {"generator", -1},
    {"start_timestamp", INT64_C(1) << 40}, {"start_timestamp", -1},
  };
  ids_generator g;
  ids_value v;
  ids_error e;
  fake f = {at(5), 0, 0, 0};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ids_optval o[IDS_MAXOPTS] = {{0}};
    ids_clock c = {fake_now, &f};
    int r;
    setopt(o, bad[i].name, bad[i].x);
    memset(&e, 0, sizeof e);
    r = ids_generator_init(&g, S, o, IDS_HOLD, &c, &e);
    CHECKF(r == IDS_ERANGE, "%s = %lld: got %d", bad[i].name,
           (long long)bad[i].x, r);
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s = %lld: message \"%s\"",
           bad[i].name, (long long)bad[i].x, e.msg);
  }
  {
    ids_optval o[IDS_MAXOPTS] = {{0}};
    setopt(o, "generator", 16383);
    if (init(&g, o, IDS_HOLD, &f) == IDS_OK) {
      CHECK_U64(take(&g, &v).gen, 16383);
      CHECK_U64(split(&v).ts, 5);
    }
  }
}

/* A generator made before fork() refuses to work in the child. */
static void test_fork (void) {
  ids_optval o[IDS_MAXOPTS] = {{0}};
  ids_generator g;
  ids_value v;
  ids_error e;
  pid_t pid;
  int status = -1;
  setopt(o, "generator", 9);
  if (init(&g, o, IDS_HOLD, NULL) != IDS_OK) return;
  take(&g, &v);
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (!CHECK(pid >= 0)) return;
  if (pid == 0) {
    ids_generator g2;
    int r = ids_next(&g, &v, &e);
    if (r != IDS_EFORK) {
      fprintf(stderr, "child: ids_next gave %d, want IDS_EFORK\n", r);
      _exit(1);
    }
    if (strstr(e.msg, "after fork") == NULL) {
      fprintf(stderr, "child: message \"%s\"\n", e.msg);
      _exit(2);
    }
    if (ids_generator_init(&g2, S, o, IDS_HOLD, NULL, &e) != IDS_OK ||
        ids_next(&g2, &v, &e) != IDS_OK) {
      fprintf(stderr, "child: a new generator fails: %s\n", e.msg);
      _exit(3);
    }
    _exit(0);
  }
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 0,
         "child status 0x%x (exit 1: not IDS_EFORK; 2: message lacks "
         "\"after fork\"; 3: a generator made in the child failed)", status);
  /* the parent's generator is still its own */
  CHECKF(next(&g, &v, &e) == IDS_OK, "parent after fork: %s", e.msg);
}

/* Before the epoch, or past 2^40 ms: an error, never a garbage ID. */
static void test_range (void) {
  fake f = {at(0) - 1, 0, 0, 0};
  ids_optval o[IDS_MAXOPTS] = {{0}};
  ids_generator g;
  ids_value v;
  ids_error e;
  uint64_t last;
  parts p;
  int r;
  setopt(o, "generator", 1);
  if (init(&g, o, IDS_HOLD, &f) != IDS_OK) return;
  r = next(&g, &v, &e);
  CHECKF(r == IDS_ERANGE, "1 ns before the epoch: got %d", r);
  f.ns = at(-5000);
  r = next(&g, &v, &e);
  CHECKF(r == IDS_ERANGE, "5 s before the epoch: got %d", r);
  f.ns = at(0);
  p = take(&g, &v);
  CHECK_U64(p.ts, 0);
  f.ns = at(MAXTICK + 1);
  r = next(&g, &v, &e);
  CHECKF(r == IDS_ERANGE, "2^40 ms after the epoch: got %d", r);
  f.ns = at(INT64_C(1) << 41);
  r = next(&g, &v, &e);
  CHECKF(r == IDS_ERANGE, "2^41 ms after the epoch: got %d", r);
  /* the last tick works, all of it; then the clock leaves the field */
  f.ns = at(MAXTICK);
  for (uint64_t i = 0; i < 1024; i++) {
    p = take(&g, &v);
    if (!CHECKF(p.ts == (uint64_t)MAXTICK && p.seq == i && p.gen == 1,
                "ID %" PRIu64 " at the last tick: ts %" PRIu64 " seq %"
                PRIu64, i, p.ts, p.seq))
      break;
  }
  last = v.w[0];
  CHECK_U64(last, UINT64_C(0xFFFFFFFFFF0007FF));
  f.reads = 0;
  f.stall = 10;
  f.then = at(MAXTICK + 1);
  r = next(&g, &v, &e);
  CHECKF(r == IDS_ERANGE, "after the last tick's 1024 IDs: got %d", r);
  /* Flux's mode: start at 2^40-1 works once the field is full, not after */
  {
    ids_optval fo[IDS_MAXOPTS] = {{0}};
    fake m = {5 * MS, 0, 0, 0};
    setopt(fo, "generator", 1);
    setopt(fo, "start_timestamp", MAXTICK);
    if (init(&g, fo, IDS_HOLD, &m) != IDS_OK) return;
    take(&g, &v);
    CHECK_U64(v.w[0], UINT64_C(0xFFFFFFFFFF000400));
    m.ns += MS;
    r = next(&g, &v, &e);
    CHECKF(r == IDS_ERANGE, "Flux mode past 2^40-1: got %d", r);
  }
}

/* --------------------------------------------------------------- main */

int main (int argc, char **argv) {
  cJSON *j;
  const cJSON *gen;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  S = ids_find("fluid");
  if (!CHECK(S != NULL)) return t_done();
  FT = ids_field_index(S, "timestamp");
  FG = ids_field_index(S, "generator");
  FS = ids_field_index(S, "sequence");
  if (!CHECK(FT >= 0 && FG >= 0 && FS >= 0)) return t_done();
  EPOCH_MS = -1;
  for (int i = 0; i < S->ngenopts; i++)
    if (strcmp(S->genopts[i].name, "epoch_ms") == 0)
      EPOCH_MS = S->genopts[i].dflt;
  if (!CHECK(EPOCH_MS == S->epoch_ms)) return t_done();
  j = load(argc > 1 ? argv[1] : IDS_VECTORS, "fluid.json");
  gen = cJSON_GetObjectItemCaseSensitive(j, "generated");
  if (!CHECK(cJSON_IsArray(gen))) return t_done();

  test_options();
  test_frozen();
  test_back_hold();
  test_back_error();
  test_flux(gen);
  test_range();
  test_fork();
  test_single();
  test_threads();
  cJSON_Delete(j);
  return t_done();
}
