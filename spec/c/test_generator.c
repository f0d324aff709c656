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
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

#define MS        INT64_C(1000000)          /* ns */
#define MAXTICK   ((INT64_C(1) << 40) - 1)  /* last ms the field holds */

static const ids_scheme *S;
static int FT, FG, FS;                      /* field indices */
static int64_t EPOCH_MS;                    /* the generator's default */

/* ------------------------------------------------------------ helpers */

typedef struct parts { uint64_t ts, gen, seq; } parts;

static parts split (const ids_value *v) {
  uint64_t f[IDS_MAXFIELDS];
  parts p;
  ids_scheme_decompose(S, v, f);
  p.ts = f[FT]; p.gen = f[FG]; p.seq = f[FS];
  return p;
}

/* Unix ns of a FLUID tick under the default epoch. */
static int64_t at (int64_t tick) { return (EPOCH_MS + tick) * MS; }

static int init (ids_generator *g, const ids_optval *opts, ids_policy p,
                 fake *f) {
  ids_clock c = {fake_now, f};
  ids_error e;
  int r = gen_init(g, S, opts, p, f ? &c : NULL, &e);
  CHECKF(r == IDS_OK, "ids_generator_init: %d %s", r, r ? e.msg : "");
  return r;
}

/* ids_generator_next that checks what every failure owes: its code and a message;
** and that a failure leaves *v alone rather than half-written. */
static int next (ids_generator *g, ids_value *v, ids_error *e) {
  int r;
  memset(e, 0, sizeof *e);
  v->w[0] = v->w[1] = v->w[2] = SENTINEL;
  r = ids_generator_next(g, v, e);
  if (r < 0) {
    CHECKF(e->msg[0] != '\0', "no message for code %d", r);
    CHECK(e->code == r);
    CHECKF(v->w[0] == SENTINEL, "failed ids_generator_next wrote %" PRIu64,
           v->w[0]);
  }
  return r;
}

/* One ID that must come out; returns its parts. */
static parts take (ids_generator *g, ids_value *v) {
  ids_error e;
  int r = next(g, v, &e);
  CHECKF(r == IDS_OK, "ids_generator_next: %d %s", r, r ? e.msg : "");
  return split(v);
}

/* g, with generator id `gen` and policy hold, on the injected clock f. */
static int start (ids_generator *g, fake *f, int64_t gen) {
  ids_optval o[IDS_MAXOPTS] = {{0}};
  setopt(S, o, "generator", gen, NULL);
  return init(g, o, IDS_POLICY_HOLD, f);
}

/* The IDs `from`..1023 of tick T with generator id `gen`, each above the
** one before (*last: the value before the first; then the last one);
** stops at the first that is not. */
static void fill_tick (ids_generator *g, uint64_t T, uint64_t gen,
                       uint64_t from, uint64_t *last, const char *what) {
  for (uint64_t i = from; i < 1024; i++) {
    ids_value v;
    parts p = take(g, &v);
    if (!CHECKF(v.w[0] > *last && p.ts == T && p.gen == gen && p.seq == i,
                "ID %" PRIu64 " %s: ts %" PRIu64 " gen %" PRIu64 " seq %"
                PRIu64, i, what, p.ts, p.gen, p.seq))
      break;
    *last = v.w[0];
  }
}

/* With the clock at ns, g refuses an ID with IDS_ERANGE. */
static void check_erange (ids_generator *g, fake *f, int64_t ns,
                          const char *what) {
  ids_value v;
  ids_error e;
  int r;
  f->ns = ns;
  r = next(g, &v, &e);
  CHECKF(r == IDS_ERANGE, "%s: got %d", what, r);
}

/* ----------------------------------------------------- the real clock */

#define NSINGLE  scaled(10000000L, 20000)
#define NTHREAD  scaled(5000000L, 10000)

static void test_single (void) {
  ids_generator g;
  run_stats r;
  if (init(&g, NULL, IDS_POLICY_HOLD, NULL) != IDS_OK) return;
  run_ids(&g, NSINGLE, NULL, &r);
  CHECKF(r.err < 0, "ID %ld failed: %d %s", r.err, r.code, r.e.msg);
  CHECKF(r.bad < 0, "ID %ld is not above the one before", r.bad);
}

static void test_threads (void) {
  ids_generator g;
  ids_value *all = malloc(2 * NTHREAD * sizeof *all);
  if (CHECK(all != NULL) && init(&g, NULL, IDS_POLICY_HOLD, NULL) == IDS_OK)
    two_threads("fluid", &g, all, NTHREAD);
  free(all);
}

/* ---------------------------------------------------- injected clocks */

/* A frozen clock: all 1024 sequences of the tick, then a wait for the next
** tick (never a borrowed one, never a repeat). */
static void test_frozen (void) {
  const int64_t T = 1000000;
  const long K = 50;
  fake f = {at(T) + 123456, 0, 0, 0};
  ids_generator g;
  ids_value v;
  uint64_t last = 0;
  parts p;
  if (start(&g, &f, 77) != IDS_OK) return;
  fill_tick(&g, T, 77, 0, &last, "at a frozen tick");
  /* the 1025th: the clock stays at T for K reads, then reaches T+1 */
  fake_stall(&f, K, at(T + 1));
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
  ids_generator g;
  ids_value v;
  uint64_t last = 0;
  parts p;
  if (start(&g, &f, 5) != IDS_OK) return;
  for (int i = 0; i < 10; i++) { take(&g, &v); last = v.w[0]; }
  f.ns = at(T - 5000);                       /* 5 s back */
  fill_tick(&g, T, 5, 10, &last, "after the step back");
  /* tick T is used up: it must wait (one real 1 s sleep here) */
  fake_stall(&f, 2, at(T + 1));
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
  if (init(&g, NULL, IDS_POLICY_ERROR, &f) != IDS_OK) return;
  for (int i = 0; i < 10; i++) { take(&g, &v); last = v.w[0]; }
  memcpy(&before, &g, sizeof g);   /* all of it, whatever the layout */
  f.ns = at(T - 5000);
  for (int i = 0; i < 3; i++) {
    int r = next(&g, &v, &e);
    CHECKF(r == IDS_ECLOCK, "5 s back under IDS_POLICY_ERROR: got %d", r);
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
      setopt(S, opt, "generator", init_id, NULL);
      setopt(S, opt, "start_timestamp", init_ts, NULL);
      if (init(&g, opt, IDS_POLICY_HOLD, &f) != IDS_OK) return;
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
    setopt(S, opt, "generator", 1, NULL);
    setopt(S, opt, "start_timestamp", 1000, NULL);
    if (init(&g, opt, IDS_POLICY_HOLD, &f) != IDS_OK) return;
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
    setopt(S, o, bad[i].name, bad[i].x, NULL);
    memset(&e, 0, sizeof e);
    r = gen_init(&g, S, o, IDS_POLICY_HOLD, &c, &e);
    CHECKF(r == IDS_ERANGE, "%s = %lld: got %d", bad[i].name,
           (long long)bad[i].x, r);
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s = %lld: message \"%s\"",
           bad[i].name, (long long)bad[i].x, e.msg);
  }
  if (start(&g, &f, 16383) == IDS_OK) {
    CHECK_U64(take(&g, &v).gen, 16383);
    CHECK_U64(split(&v).ts, 5);
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
  setopt(S, o, "generator", 9, NULL);
  if (init(&g, o, IDS_POLICY_HOLD, NULL) != IDS_OK) return;
  take(&g, &v);
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (!CHECK(pid >= 0)) return;
  if (pid == 0) {
    ids_generator g2;
    int r = ids_generator_next(&g, &v, &e);
    if (r != IDS_EFORK) {
      fprintf(stderr, "child: ids_generator_next gave %d, want IDS_EFORK\n", r);
      _exit(1);
    }
    if (strstr(e.msg, "after fork") == NULL) {
      fprintf(stderr, "child: message \"%s\"\n", e.msg);
      _exit(2);
    }
    if (gen_init(&g2, S, o, IDS_POLICY_HOLD, NULL, &e) != IDS_OK ||
        ids_generator_next(&g2, &v, &e) != IDS_OK) {
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
  ids_generator g;
  ids_value v;
  uint64_t last = 0;
  parts p;
  if (start(&g, &f, 1) != IDS_OK) return;
  check_erange(&g, &f, f.ns, "1 ns before the epoch");
  check_erange(&g, &f, at(-5000), "5 s before the epoch");
  f.ns = at(0);
  p = take(&g, &v);
  CHECK_U64(p.ts, 0);
  last = v.w[0];
  check_erange(&g, &f, at(MAXTICK + 1), "2^40 ms after the epoch");
  check_erange(&g, &f, at(INT64_C(1) << 41), "2^41 ms after the epoch");
  /* the last tick works, all of it; then the clock leaves the field */
  f.ns = at(MAXTICK);
  fill_tick(&g, MAXTICK, 1, 0, &last, "at the last tick");
  CHECK_U64(last, UINT64_C(0xFFFFFFFFFF0007FF));
  fake_stall(&f, 10, at(MAXTICK + 1));
  check_erange(&g, &f, f.ns, "after the last tick's 1024 IDs");
  /* Flux's mode: start at 2^40-1 works once the field is full, not after */
  {
    ids_optval fo[IDS_MAXOPTS] = {{0}};
    fake m = {5 * MS, 0, 0, 0};
    setopt(S, fo, "generator", 1, NULL);
    setopt(S, fo, "start_timestamp", MAXTICK, NULL);
    if (init(&g, fo, IDS_POLICY_HOLD, &m) != IDS_OK) return;
    take(&g, &v);
    CHECK_U64(v.w[0], UINT64_C(0xFFFFFFFFFF000400));
    check_erange(&g, &m, m.ns + MS, "Flux mode past 2^40-1");
  }
}

/* --------------------------------------------------------------- main */

int main (int argc, char **argv) {
  cJSON *j;
  const cJSON *gen;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  S = ids_scheme_find("fluid");
  if (!CHECK(S != NULL)) return t_done();
  FT = ids_scheme_field(S, "timestamp");
  FG = ids_scheme_field(S, "generator");
  FS = ids_scheme_field(S, "sequence");
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
