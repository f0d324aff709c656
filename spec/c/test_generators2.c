/*
** test_generators2.c: the generation rules (DESIGN.md) for the schemes
** other than FLUID: flax, snowflake, siq, kuid64 and kuid96.
**
**   - 10,000,000 IDs of each from one generator, on the real clock,
**     strictly increasing (ids_value_cmp), and stamped with the time;
**   - two threads sharing one generator: no duplicate, each ordered;
**   - SIQ on a frozen injected clock: exactly 8192 content IDs in a tick,
**     then a wait for the clock; every other type alone gets its whole
**     serial range in a tick (user 2048, message 4096); types share one
**     tail per tick, so IDs of mixed types still increase;
**   - fork: the entropy pool is never shared, Flax generators made after
**     fork in 9 processes never collide; generators made before fork
**     fail with IDS_EFORK in the child when their IDs carry a node, hash
**     or sequence, and a Flax one goes on with fresh randomness;
**   - the pool's output has no obvious defect.
**
** usage: test_generators2
*/
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define NSINGLE   scaled(10000000L, 20000)
#define NTHREAD   scaled(1000000L, 10000)
#define NFORK     8
#define NPERPROC  100000L

/* ------------------------------------------------------------ helpers */

static int64_t wall_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t field (const ids_scheme *s, const ids_value *v,
                       const char *name) {
  uint64_t x[IDS_MAXFIELDS];
  int f = ids_scheme_field(s, name);
  if (f < 0) { fprintf(stderr, "%s: no field %s\n", s->name, name); exit(2); }
  ids_scheme_decompose(s, v, x);
  return x[f];
}

/* Unix ms of an ID's time fields. */
static int64_t id_ms (const ids_scheme *s, const ids_value *v) {
  if (strncmp(s->name, "kuid", 4) == 0)
    return ((int64_t)field(s, v, "megaseconds") * 1000000 +
            (int64_t)field(s, v, "seconds")) * 1000 +
           (int64_t)field(s, v, "microseconds") / 1000;
  if (strcmp(s->name, "siq") == 0)
    return (int64_t)(field(s, v, "timestamp") * 1000 / 65536);
  return s->epoch_ms + (int64_t)field(s, v, "timestamp");
}

/* A generator for each scheme, with the options it needs. */
typedef struct subject {
  const char *name;
  const ids_scheme *s;
  ids_optval o[IDS_MAXOPTS];
} subject;

static subject subjects[5];

static void subjects_init (void) {
  static const char *const names[5] = {"flax", "snowflake", "siq", "kuid64",
                                       "kuid96"};
  for (int i = 0; i < 5; i++) {
    subject *u = &subjects[i];
    memset(u, 0, sizeof *u);
    u->name = names[i];
    u->s = ids_scheme_find(names[i]);
    if (u->s == NULL) { fprintf(stderr, "no scheme %s\n", names[i]); exit(2); }
  }
  setopt(subjects[1].s, subjects[1].o, "worker", 21, NULL);
  setopt(subjects[1].s, subjects[1].o, "shard", 9, NULL);
  setopt(subjects[2].s, subjects[2].o, "domain_name", 0, "example.com");
  setopt(subjects[2].s, subjects[2].o, "shard", 42, NULL);
  setopt(subjects[4].s, subjects[4].o, "node_name", 0, "uid@127.0.0.1");
}

static int init (ids_generator *g, const subject *u, const ids_clock *c) {
  ids_error e;
  int r = gen_init(g, u->s, u->o, IDS_POLICY_HOLD, c, &e);
  CHECKF(r == IDS_OK, "%s: ids_generator_init: %d %s", u->name, r,
         r ? e.msg : "");
  return r;
}

/* ----------------------------------------------------- the real clock */

static void test_single (const subject *u) {
  ids_generator g;
  run_stats r;
  int64_t t0 = wall_ms(), t1;
  if (init(&g, u, NULL) != IDS_OK) return;
  run_ids(&g, NSINGLE, NULL, &r);
  t1 = wall_ms();
  CHECKF(r.err < 0, "%s: ID %ld failed: %d %s", u->name, r.err, r.code,
         r.e.msg);
  CHECKF(r.bad < 0, "%s: ID %ld is not above the one before", u->name,
         r.bad);
  if (r.err == 0) return;
  /* stamped with the time it was made (kuid's tick is 1024 us, SIQ's
  ** 1/65536 s; every ms count truncates) */
  CHECKF(id_ms(u->s, &r.first) >= t0 - 2 && id_ms(u->s, &r.first) <= t1,
         "%s: first ID at %lld ms, clock %lld..%lld", u->name,
         (long long)id_ms(u->s, &r.first), (long long)t0, (long long)t1);
  CHECKF(id_ms(u->s, &r.last) >= t0 - 2 && id_ms(u->s, &r.last) <= t1 + 1,
         "%s: last ID at %lld ms, clock %lld..%lld", u->name,
         (long long)id_ms(u->s, &r.last), (long long)t0, (long long)t1);
  printf("# %s: %ld IDs in %lld ms\n", u->name, NSINGLE,
         (long long)(t1 - t0));
}

static void test_threads (const subject *u, ids_value *all) {
  ids_generator g;
  if (init(&g, u, NULL) == IDS_OK) two_threads(u->name, &g, all, NTHREAD);
}

/* ------------------------------------------------------- SIQ, frozen */

typedef struct siqid { uint64_t ts, serial, qual; } siqid;

static siqid siq_take (const ids_scheme *s, ids_generator *g, int64_t q,
                       ids_value *v) {
  ids_error e;
  siqid p = {SENTINEL, SENTINEL, SENTINEL};
  int r = ids_generator_next_as(g, q, v, &e);
  if (!CHECKF(r == IDS_OK, "siq ids_generator_next_as(%lld): %d %s", (long long)q, r,
              e.msg))
    return p;
  p.ts = field(s, v, "timestamp");
  p.serial = field(s, v, "serial");
  p.qual = field(s, v, "qualifier");
  return p;
}

static void test_siq_frozen (const subject *u) {
  const ids_scheme *s = u->s;
  const uint64_t T = (uint64_t)1750000000 * 65536 + 12345;
  const long K = 50;
  static const struct { const char *name; uint64_t per; } lanes[] = {
    {"content", 8192}, {"user", 2048}, {"message", 4096},
    {"ternary", 8192}, {"premium", 2048},
  };
  enum { NL = sizeof lanes / sizeof *lanes };
  fake f = {siq_tick_ns(T) + 7000, 0, 0, 0};
  ids_clock clk = {fake_now, &f};
  ids_generator g;
  ids_value *all, v, last[NL];
  size_t n = 0;
  long dup = -1;
  int64_t q[NL];
  siqid p;
  ids_error e;
  all = malloc((8192 * 2 + 2048 * 2 + 4096 + 16) * sizeof *all);
  if (!CHECK(all != NULL) || init(&g, u, &clk) != IDS_OK) {
    free(all);
    return;
  }
  for (int l = 0; l < NL; l++) {
    q[l] = ids_scheme_qualifier(s, lanes[l].name, strlen(lanes[l].name));
    CHECKF(q[l] > 0, "siq type %s", lanes[l].name);
  }
  /* each type alone, at a frozen tick of its own (T + l), from serial 0
  ** up to its limit: the generator's own (content) with ids_generator_next, the
  ** others by name */
  for (int l = 0; l < NL; l++) {
    f.ns = siq_tick_ns(T + (uint64_t)l) + 7000;
    for (uint64_t i = 0; i < lanes[l].per; i++) {
      p = siq_take(s, &g, l == 0 ? -1 : q[l], &v);
      if (!CHECKF(p.ts == T + (uint64_t)l && p.serial == i &&
                  p.qual == (uint64_t)q[l],
                  "%s %" PRIu64 " at the frozen tick: ts %" PRIu64
                  " serial %" PRIu64 " qualifier %" PRIu64, lanes[l].name,
                  i, p.ts, p.serial, p.qual))
        break;
      if (i > 0) CHECK(ids_value_cmp(&v, &last[l]) > 0);
      last[l] = v;
      all[n++] = v;
    }
  }
  CHECK(f.ns == siq_tick_ns(T + NL - 1) + 7000);
  /* all 24576 distinct */
  dup = first_dup(all, n);
  CHECKF(dup < 0, "siq: duplicate %s at one tick", dup < 0 ? "" :
         vhex(&all[dup]));
  CHECK(n == 8192 * 2 + 2048 * 2 + 4096);
  /* content fills tick T + NL; then the next one waits until the clock
  ** moves on */
  f.ns = siq_tick_ns(T + NL) + 7000;
  for (uint64_t i = 0; i < 8192; i++) {
    p = siq_take(s, &g, -1, &v);
    if (!CHECK(p.ts == T + NL && p.serial == i)) break;
  }
  last[0] = v;
  fake_stall(&f, K, siq_tick_ns(T + NL + 1) + 100);
  p = siq_take(s, &g, -1, &v);
  CHECKF(f.reads > K, "it returned before the clock moved (%ld reads)",
         f.reads);
  CHECK_U64(p.ts, T + NL + 1);
  CHECK_U64(p.serial, 0);
  CHECK_U64(p.qual, (uint64_t)q[0]);
  CHECK(ids_value_cmp(&v, &last[0]) > 0);
  last[0] = v;
  /* at the new tick every type comes without waiting, above the last ID
  ** of any type (one tail per tick) */
  for (int l = 1; l < NL; l++) {
    f.reads = 0;
    p = siq_take(s, &g, q[l], &v);
    CHECKF(p.ts == T + NL + 1 && f.reads <= 2, "%s at the new tick: ts %"
           PRIu64 " serial %" PRIu64 " (%ld reads)", lanes[l].name, p.ts,
           p.serial, f.reads);
    CHECK(ids_value_cmp(&v, &last[0]) > 0);
    last[0] = v;
  }
  /* user: up to serial 2047 in this tick, then a wait of its own */
  for (uint64_t i = p.serial + 1; i < 2048; i++) {
    p = siq_take(s, &g, q[1], &v);
    if (!CHECK(p.ts == T + NL + 1 && p.serial >= i)) break;
    i = p.serial;
  }
  CHECK_U64(p.serial, 2047);
  fake_stall(&f, K, siq_tick_ns(T + NL + 2));
  p = siq_take(s, &g, q[1], &v);
  CHECKF(f.reads > K && p.ts == T + NL + 2 && p.serial == 0, "user after "
         "serial 2047: ts %" PRIu64 " serial %" PRIu64 " after %ld reads",
         p.ts, p.serial, f.reads);
  /* a value that is no type is refused */
  {
    ids_value w = {{SENTINEL, SENTINEL, SENTINEL}};
    int r = ids_generator_next_as(&g, 18, &w, &e);
    CHECKF(r == IDS_EINVAL && e.msg[0], "qualifier 18: got %d", r);
    CHECK(w.w[0] == SENTINEL);
  }
  free(all);
}

/* ----------------------------------------------------------- fork */

static int cmp12 (const void *a, const void *b) { return memcmp(a, b, 12); }

static int writeall (int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

static size_t readall (int fd, void *buf, size_t n) {
  char *p = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, p + got, n - got);
    if (k <= 0) break;
    got += (size_t)k;
  }
  return got;
}

/* Flax IDs into out (12 bytes each), from a generator made here; 0, or
** the number of the first check that failed. */
static int flax_run (const ids_scheme *s, uint8_t *out, long n) {
  ids_generator g;
  ids_value v, prev = {{0, 0, 0}};
  ids_error e;
  if (gen_init(&g, s, NULL, IDS_POLICY_HOLD, NULL, &e) != IDS_OK)
    return 10;
  for (long i = 0; i < n; i++) {
    if (ids_generator_next(&g, &v, &e) != IDS_OK) return 11;
    if (i > 0 && ids_value_cmp(&v, &prev) <= 0) return 12;
    prev = v;
    ids_value_to_bytes(&v, out + 12 * i, 12);
  }
  return 0;
}

/* A Flax generator made before fork, used in the child.  docs/API.md
** ("Generators and fork"): a purely random generator may be created before
** fork, and the child draws fresh randomness; so it must go on, and never
** repeat an ID of the parent or of another child.  Build with
** -DFLAX_SURVIVES_FORK=0 for the stricter rule (IDS_EFORK for every
** generator made before fork). */
#ifndef FLAX_SURVIVES_FORK
#define FLAX_SURVIVES_FORK 1
#endif
#define NPRE      1000L          /* IDs of a pre-fork Flax generator */

/* What each child reports: exit status, then on its pipe 16 bytes of
** ids_random, the code of its pre-fork Flax generator and how many IDs
** that gave (int32 each), those IDs, and NPERPROC Flax IDs of a generator
** made in the child. */
static int child (int fd, ids_generator *before) {
  const ids_scheme *flax = subjects[0].s;
  uint8_t rnd[16], *ids = malloc(12 * (NPERPROC + NPRE));
  int32_t head[2] = {0, 0};
  ids_value v;
  ids_error e;
  int r;
  if (ids == NULL) return 20;
  /* generators made before fork with a node, hash or sequence refuse */
  for (int k = 1; k < 5; k++) {
    memset(&e, 0, sizeof e);
    if (ids_generator_next(&before[k], &v, &e) != IDS_EFORK) return 21 + k;
    if (e.code != IDS_EFORK || strstr(e.msg, "after fork") == NULL)
      return 26;
  }
  ids_random(rnd, sizeof rnd);
  /* the pre-fork Flax generator: whatever it does, it must not repeat */
  memset(&e, 0, sizeof e);
  head[0] = ids_generator_next(&before[0], &v, &e);
  if (head[0] == IDS_EFORK && strstr(e.msg, "after fork") == NULL) return 27;
  if (head[0] == IDS_OK) {
    ids_value prev = v;
    ids_value_to_bytes(&v, ids, 12);
    for (head[1] = 1; head[1] < NPRE; head[1]++) {
      if (ids_generator_next(&before[0], &v, &e) != IDS_OK) return 28;
      if (ids_value_cmp(&v, &prev) <= 0) return 29;
      prev = v;
      ids_value_to_bytes(&v, ids + 12 * head[1], 12);
    }
  }
  if (writeall(fd, rnd, sizeof rnd) || writeall(fd, head, sizeof head) ||
      writeall(fd, ids, 12 * (size_t)head[1]))
    return 30;
  if ((r = flax_run(flax, ids, NPERPROC)) != 0) return r;
  if (writeall(fd, ids, 12 * NPERPROC)) return 30;
  free(ids);
  return 0;
}

static void test_fork (void) {
  const ids_scheme *flax = subjects[0].s;
  const size_t cap = (size_t)(NPERPROC + NPRE) * (NFORK + 1);
  ids_generator before[5];
  uint8_t pre[37], rnd[NFORK + 1][16];
  uint8_t *all = malloc(12 * cap), *first[NFORK + 1], *prefirst[NFORK];
  pid_t pid[NFORK];
  int fd[NFORK];
  size_t n = 0;
  ids_value v;
  ids_error e;
  long dup = -1;
  int ok = 1;
  if (!CHECK(all != NULL)) return;
  /* the parent's pool is in use before fork: part of a block is left */
  ids_random(pre, sizeof pre);
  for (int k = 0; k < 5; k++)
    if (init(&before[k], &subjects[k], NULL) != IDS_OK ||
        !CHECK(ids_generator_next(&before[k], &v, &e) == IDS_OK))
      ok = 0;
  if (!ok) { free(all); return; }
  fflush(stdout);
  fflush(stderr);
  for (int c = 0; c < NFORK; c++) {
    int p[2];
    if (!CHECK(pipe(p) == 0)) { free(all); return; }
    pid[c] = fork();
    if (!CHECK(pid[c] >= 0)) { free(all); return; }
    if (pid[c] == 0) {
      close(p[0]);
      _exit(child(p[1], before));
    }
    close(p[1]);
    fd[c] = p[0];
  }
  /* the parent: its own draw, and 100,000 IDs of a new generator */
  ids_random(rnd[NFORK], 16);
  first[NFORK] = all;
  CHECK(flax_run(flax, all, NPERPROC) == 0);
  n = NPERPROC;
  /* its generators made before fork are still its own */
  for (int k = 0; k < 5; k++)
    CHECKF(ids_generator_next(&before[k], &v, &e) == IDS_OK, "parent %s after fork: "
           "%s", subjects[k].name, e.msg);
  for (int c = 0; c < NFORK; c++) {
    int status = -1;
    int32_t head[2] = {-99, 0};
    size_t got = readall(fd[c], rnd[c], 16), want = 16 + sizeof head;
    got += readall(fd[c], head, sizeof head);
    if (head[1] < 0 || head[1] > NPRE) head[1] = 0;
    prefirst[c] = head[1] > 0 ? all + 12 * n : NULL;
    got += readall(fd[c], all + 12 * n, 12 * (size_t)head[1]);
    n += (size_t)head[1];
    first[c] = all + 12 * n;
    got += readall(fd[c], all + 12 * n, 12 * NPERPROC);
    n += NPERPROC;
    want += 12 * ((size_t)head[1] + NPERPROC);
    close(fd[c]);
    CHECK(waitpid(pid[c], &status, 0) == pid[c]);
    if (!CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == want,
                "child %d: status 0x%x, %zu of %zu bytes (exit 10-12: its "
                "Flax generator failed or went down; 22-25: a snowflake, "
                "siq, kuid64 or kuid96 generator made before fork did not "
                "give IDS_EFORK; 26, 27: the message lacks \"after fork\"; "
                "28, 29: the pre-fork Flax generator failed or went down)",
                c, status, got, want))
      ok = 0;
    if (FLAX_SURVIVES_FORK)
      CHECKF(head[0] == IDS_OK && head[1] == NPRE, "child %d: a Flax "
             "generator made before fork gave %d", c, (int)head[0]);
    else
      CHECKF(head[0] == IDS_EFORK, "child %d: a Flax generator made before "
             "fork gave %d, want IDS_EFORK (%d)%s", c, (int)head[0],
             IDS_EFORK, head[0] == IDS_OK ? "; it went on issuing IDs" : "");
  }
  if (!ok) { free(all); return; }
  /* no process shares the pool: every draw after fork differs */
  for (int a = 0; a <= NFORK; a++)
    for (int b = a + 1; b <= NFORK; b++)
      CHECKF(memcmp(rnd[a], rnd[b], 16) != 0, "processes %d and %d drew "
             "the same bytes", a, b);
  /* the random parts (low 56 bits) of each process's first ID differ */
  for (int a = 0; a <= NFORK; a++)
    for (int b = a + 1; b <= NFORK; b++)
      CHECKF(memcmp(first[a] + 5, first[b] + 5, 7) != 0, "processes %d and "
             "%d: same random part of the first ID", a, b);
  /* a pre-fork Flax generator that goes on draws afresh in each child */
  for (int a = 0; a < NFORK; a++)
    for (int b = a + 1; b < NFORK; b++)
      if (prefirst[a] && prefirst[b])
        CHECKF(memcmp(prefirst[a] + 5, prefirst[b] + 5, 7) != 0, "children "
               "%d and %d: the pre-fork generator's first IDs share their "
               "random part", a, b);
  /* 900,000 IDs (and any of pre-fork generators), no duplicate */
  CHECK(n >= (size_t)NPERPROC * (NFORK + 1));
  qsort(all, n, 12, cmp12);
  for (size_t i = 1; i < n && dup < 0; i++)
    if (memcmp(all + 12 * i, all + 12 * (i - 1), 12) == 0) dup = (long)i;
  CHECKF(dup < 0, "a Flax ID was made twice across %d processes",
         NFORK + 1);
  free(all);
}

/* ---------------------------------------------------------- the pool */

static void *draw32 (void *arg) {
  ids_random(arg, 32);
  return NULL;
}

static void test_pool (void) {
  const size_t N = 1 << 20;
  uint8_t *buf = malloc(N), a[32], b[32], t[32];
  long count[256] = {0}, lo = N, hi = 0;
  size_t off = 0, zero = 0, k = 1;
  pthread_t th;
  if (!CHECK(buf != NULL)) return;
  memset(buf, 0, N);
  /* pieces of every size around the pool's blocks */
  while (off < N) {
    size_t n = k % 5000 + 1;
    if (n > N - off) n = N - off;
    ids_random(buf + off, n);
    off += n;
    k = k * 1103515245u + 12345u;
  }
  for (size_t i = 0; i < N; i++) {
    count[buf[i]]++;
    zero += buf[i] == 0;
  }
  for (int i = 0; i < 256; i++) {
    if (count[i] < lo) lo = count[i];
    if (count[i] > hi) hi = count[i];
  }
  CHECKF(zero < N / 128, "%zu zero bytes in 1 MB", zero);
  CHECKF(lo >= 3000 && hi <= 5200, "byte counts %ld..%ld (expected ~4096)",
         lo, hi);
  /* no run of 16 equal bytes anywhere */
  {
    long run = 1, longest = 1;
    for (size_t i = 1; i < N; i++) {
      run = buf[i] == buf[i - 1] ? run + 1 : 1;
      if (run > longest) longest = run;
    }
    CHECKF(longest < 16, "a run of %ld equal bytes", longest);
  }
  /* successive draws, and another thread's, differ */
  ids_random(a, sizeof a);
  ids_random(b, sizeof b);
  CHECK(memcmp(a, b, 32) != 0);
  CHECK(pthread_create(&th, NULL, draw32, t) == 0);
  pthread_join(th, NULL);
  CHECK(memcmp(t, a, 32) != 0 && memcmp(t, b, 32) != 0);
  ids_random(buf, 0);                          /* nothing asked, nothing */
  free(buf);
}

/* --------------------------------------------------------------- main */

int main (void) {
  ids_value *all;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  subjects_init();
  test_pool();
  test_siq_frozen(&subjects[2]);
  test_fork();
  for (int i = 0; i < 5; i++) test_single(&subjects[i]);
  all = malloc(2 * NTHREAD * sizeof *all);
  if (CHECK(all != NULL))
    for (int i = 0; i < 5; i++) test_threads(&subjects[i], all);
  free(all);
  return t_done();
}
