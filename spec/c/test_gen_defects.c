/*
** test_gen_defects.c: the generator and ids_scheme_define defects of the tracker
** (items 1-12, issue 16), each on an injected clock where time matters:
**
**   1  time + sequence = 64 bits: past the last tick is an error, never a
**      repeat of the last tick's first ID
**   2  time + sequence over 64 bits (52-bit us + 16, ns + 22, a 64-bit
**      sequence): true times and full sequences
**   3  SIQ: one generator's IDs strictly increase across types; policy
**      error refuses every type after a step back
**   4  no sequence: every random field is filled, not only the first
**   5  a narrow random field without sequence: many IDs per tick
**   6  fractional units: exact ticks (1000/999999999 s)
**   7  field names that are generator option names are refused
**   8  fork while another thread is inside a Flax generator's lock
**   9  layouts whose IDs would decrease are refused
**  10  b64sort alphabets out of order; node fields over 63 bits
**  11  max_ahead_ms: hold runs ahead of a stalled clock, within the limit
**  12  define: name length, strict units, bytes range, default encodings
**
** A watchdog (alarm) turns a hang into a failure naming the case.
*/
#include <setjmp.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define NS  INT64_C(1000000000)
#define MS  INT64_C(1000000)

static const char *volatile current = "start";
static sigjmp_buf watchdog;

/* A hang is one failure; the run goes on with the next case. */
static void hung (int sig) {
  (void)sig;
  siglongjmp(watchdog, 1);
}

static void begin (const char *name, unsigned seconds) {
  current = name;
  alarm(slowed(seconds));
}

static int64_t wallns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

/* ids_scheme_define of fields[n] with encodings dec, hex (hex only over 64 bits);
** the scheme, or NULL with e filled. */
static const ids_scheme *define (const char *name, const ids_fieldspec *f,
                                 int n, ids_error *e) {
  static const char *const enc[] = {"hex"};
  ids_defspec sp = {name, f, n, enc, 1, NULL, 0, NULL};
  const ids_scheme *s = NULL;
  memset(e, 0, sizeof *e);
  if (ids_scheme_define(&sp, &s, e) != IDS_OK) return NULL;
  return s;
}

static uint64_t fieldof (const ids_scheme *s, const ids_value *v,
                         const char *name) {
  uint64_t x[IDS_MAXFIELDS];
  int i = ids_scheme_field(s, name);
  ids_scheme_decompose(s, v, x);
  return i < 0 ? SENTINEL : x[i];
}

/* n IDs; counts failures, duplicates and pairs not above the previous. */
typedef struct tally { long made, fails, dups, notup; int code; } tally;

static void count (ids_value *a, long n, tally *t) {
  t->made = n;
  t->notup = 0;
  for (long i = 1; i < n; i++)
    if (ids_value_cmp(&a[i], &a[i - 1]) <= 0) t->notup++;
  qsort(a, (size_t)n, sizeof *a, cmpval);
  t->dups = 0;
  for (long i = 1; i < n; i++)
    if (ids_value_cmp(&a[i], &a[i - 1]) == 0) t->dups++;
}

/* n IDs from g into a, none twice and each above the one before (a
** failure fails a check, and stops); how many have `field` equal to
** `value`, or -1 after a failure. */
static long ids_with (ids_generator *g, const ids_scheme *s, ids_value *a,
                      long n, const char *field, uint64_t value) {
  ids_error e;
  tally t = {0};
  long k = 0;
  for (long i = 0; i < n; i++) {
    if (!CHECK(ids_generator_next(g, &a[i], &e) == IDS_OK)) return -1;
    if (fieldof(s, &a[i], field) == value) k++;
  }
  count(a, n, &t);
  CHECK(t.dups == 0 && t.notup == 0);
  return k;
}

/* ----------------------------------------------------------- item 1 */

static void test_end_of_range (void) {
  ids_fieldspec f[] = {
    {"time", "time", 56, "ns", 0, 0, NULL},
    {"sequence", "sequence", 8, NULL, 0, 0, NULL},
  };
  ids_error e;
  const ids_scheme *s;
  int64_t clk;
  ids_clock c = {frozen_now, &clk};
  ids_generator g;
  ids_value a[300];
  tally t = {0};
  begin("item 1: end of range", 10);
  f[0].epoch_ms = wallns() / MS - 86400000;          /* yesterday */
  s = define("t_end64", f, 2, &e);
  if (!CHECKF(s != NULL, "%s", e.msg)) return;
  clk = f[0].epoch_ms * MS + ((INT64_C(1) << 56) - 1);  /* the last tick */
  if (!CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK))
    return;
  for (long i = 0; i < 300; i++) {
    int r = ids_generator_next(&g, &a[t.made], &e);
    if (r != IDS_OK) { t.fails++; t.code = r; continue; }
    t.made++;
  }
  CHECKF(t.made == 256, "made %ld IDs in the last tick, want 256", t.made);
  CHECKF(t.fails == 44 && t.code == IDS_ERANGE, "%ld failures, code %d",
         t.fails, t.code);
  CHECKF(strstr(e.msg, "past its end") != NULL, "message: %s", e.msg);
  count(a, t.made, &t);
  CHECKF(t.dups == 0 && t.notup == 0, "%ld duplicates, %ld not increasing",
         t.dups, t.notup);
}

/* ----------------------------------------------------------- item 2 */

/* n IDs at a frozen clock: all at `tick`, sequence 0..n-1. */
static void wide_case (const char *name, ids_fieldspec *f, int nf,
                       int64_t ns, uint64_t tick, long n) {
  ids_error e;
  const ids_scheme *s = define(name, f, nf, &e);
  int64_t clk = ns;
  ids_clock c = {frozen_now, &clk};
  ids_generator g;
  ids_value *a = malloc((size_t)n * sizeof *a);
  tally t = {0};
  long badtime = 0, badseq = 0;
  if (!CHECKF(s != NULL, "%s: %s", name, e.msg) || !CHECK(a != NULL) ||
      !CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK)) {
    free(a);
    return;
  }
  for (long i = 0; i < n; i++) {
    int r = ids_generator_next(&g, &a[i], &e);
    if (!CHECKF(r == IDS_OK, "%s ID %ld: %s", name, i, e.msg)) return;
    if (fieldof(s, &a[i], "time") != tick) badtime++;
    if (fieldof(s, &a[i], "sequence") != (uint64_t)i) badseq++;
  }
  CHECKF(badtime == 0, "%s: %ld of %ld IDs with a wrong time (first: %"
         PRIu64 ", want %" PRIu64 ")", name, badtime, n,
         fieldof(s, &a[0], "time"), tick);
  CHECKF(badseq == 0, "%s: %ld IDs with the wrong sequence", name, badseq);
  count(a, n, &t);
  CHECKF(t.dups == 0 && t.notup == 0, "%s: %ld duplicates, %ld not "
         "increasing", name, t.dups, t.notup);
  free(a);
}

static void test_wide_state (void) {
  const int64_t ns = INT64_C(1767225600) * NS + 123456789;   /* 2026 */
  ids_fieldspec us[] = {
    {"time", "time", 52, "us", 0, 0, NULL},
    {"sequence", "sequence", 16, NULL, 0, 0, NULL},
    {"random", "random", 60, NULL, 0, 0, NULL},
  };
  ids_fieldspec nsf[] = {
    {"time", "time", 62, "ns", 0, 0, NULL},
    {"sequence", "sequence", 22, NULL, 0, 0, NULL},
    {"random", "random", 44, NULL, 0, 0, NULL},
  };
  ids_fieldspec s64[] = {
    {"time", "time", 32, "s", 0, 0, NULL},
    {"sequence", "sequence", 64, NULL, 0, 0, NULL},
  };
  begin("item 2: time + sequence over 64 bits", 20);
  wide_case("t_us52_seq16", us, 3, ns, (uint64_t)(ns / 1000), 65536);
  wide_case("t_ns62_seq22", nsf, 3, ns, (uint64_t)ns, 70000);
  wide_case("t_s32_seq64", s64, 2, ns, (uint64_t)(ns / NS), 5000);
  /* and on the real clock: times within the run, in two threads */
  {
    ids_error e;
    const ids_scheme *s = ids_scheme_find("t_ns62_seq22");
    ids_generator g;
    const long n = scaled(200000, 2000);
    ids_value *all = malloc(2 * (size_t)n * sizeof *all);
    int64_t t0 = wallns(), t1;
    if (!CHECK(s != NULL && all != NULL) ||
        !CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, NULL, &e) ==
               IDS_OK)) {
      free(all);
      return;
    }
    two_threads("ns62 + seq22", &g, all, n);
    t1 = wallns();
    {
      long off = 0;
      for (long i = 0; i < 2 * n; i++) {
        uint64_t tm = fieldof(s, &all[i], "time");
        if (tm < (uint64_t)t0 || tm > (uint64_t)t1) off++;
      }
      CHECKF(off == 0, "%ld IDs stamped outside the run", off);
    }
    free(all);
  }
}

/* ----------------------------------------------------------- item 3 */

static void test_siq_order (void) {
  const ids_scheme *s = ids_scheme_find("siq");
  const uint64_t T = (uint64_t)1750000000 * 65536 + 777;
  const int64_t user = ids_scheme_qualifier(s, "user", 4);
  const int64_t msg = ids_scheme_qualifier(s, "message", 7);
  ids_error e;
  ids_generator g;
  ids_value *a = malloc(300000 * sizeof *a), v, prev;
  fake f = {siq_tick_ns(T) + 100, 0, 0, 0};
  ids_clock c = {fake_now, &f};
  tally t = {0};
  long n = 0, bad = 0;
  begin("item 3: siq order across types", 60);
  if (!CHECK(a != NULL)) return;
  /* the real clock, content and user alternating, then three types */
  CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, NULL, &e) == IDS_OK);
  for (long i = 0; i < 200000; i++) {
    int r = (i & 1) ? ids_generator_next_as(&g, user, &a[n], &e)
                    : ids_generator_next(&g, &a[n], &e);
    if (!CHECKF(r == IDS_OK, "siq ID %ld: %s", i, e.msg)) break;
    n++;
  }
  for (long i = 0; i < 90000; i++) {
    int64_t q = i % 3 == 0 ? -1 : i % 3 == 1 ? user : msg;
    if (!CHECKF(ids_generator_next_as(&g, q, &a[n], &e) == IDS_OK, "%s", e.msg))
      break;
    if (fieldof(s, &a[n], "qualifier") != (uint64_t)(q < 0 ? 15 : q)) bad++;
    n++;
  }
  CHECKF(bad == 0, "%ld IDs of the wrong type", bad);
  count(a, n, &t);
  CHECKF(t.notup == 0 && t.dups == 0, "siq mixed types: %ld of %ld IDs not "
         "above the previous one, %ld duplicates", t.notup, n, t.dups);
  /* a frozen tick: one type alone keeps its whole capacity */
  CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK);
  n = 0;
  for (long i = 0; i < 2048; i++) {
    if (!CHECK(ids_generator_next_as(&g, user, &a[n], &e) == IDS_OK)) break;
    if (fieldof(s, &a[n], "timestamp") != T ||
        fieldof(s, &a[n], "serial") != (uint64_t)i) bad++;
    n++;
  }
  CHECKF(bad == 0 && n == 2048, "user alone: %ld IDs off the frozen tick "
         "or serial", bad);
  /* content still fits above the last user ID in this tick */
  f.reads = 0;
  CHECK(ids_generator_next(&g, &a[n], &e) == IDS_OK);
  CHECKF(f.reads <= 2 && fieldof(s, &a[n], "timestamp") == T &&
         fieldof(s, &a[n], "serial") == 8188, "content after user's full "
         "tick: ts %" PRIu64 " serial %" PRIu64, fieldof(s, &a[n],
         "timestamp"), fieldof(s, &a[n], "serial"));
  n++;
  /* user is spent: it waits for the next tick */
  fake_stall(&f, 20, siq_tick_ns(T + 1) + 100);
  CHECK(ids_generator_next_as(&g, user, &a[n], &e) == IDS_OK);
  CHECKF(f.reads > 20 && fieldof(s, &a[n], "timestamp") == T + 1 &&
         fieldof(s, &a[n], "serial") == 0, "user after its full tick: ts %"
         PRIu64 " after %ld reads", fieldof(s, &a[n], "timestamp"), f.reads);
  n++;
  count(a, n, &t);
  CHECK(t.notup == 0 && t.dups == 0);
  /* policy error: a step back of 1 s refuses every type (issue 16.3) */
  f.ns = siq_tick_ns(T + 5);
  CHECK(gen_init(&g, s, NULL, IDS_POLICY_ERROR, &c, &e) == IDS_OK);
  CHECK(ids_generator_next(&g, &prev, &e) == IDS_OK);
  f.ns -= NS;
  v.w[0] = v.w[1] = v.w[2] = SENTINEL;
  CHECK(ids_generator_next(&g, &v, &e) == IDS_ECLOCK);
  CHECKF(ids_generator_next_as(&g, user, &v, &e) == IDS_ECLOCK,
         "a user ID after a step back under policy error: %s (below the "
         "last: %d)", vhex(&v), ids_value_cmp(&v, &prev) <= 0);
  CHECK(ids_generator_next_as(&g, msg, &v, &e) == IDS_ECLOCK);
  /* policy hold: the same step gives IDs above the last, every type */
  f.ns = siq_tick_ns(T + 5);
  CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK);
  CHECK(ids_generator_next(&g, &prev, &e) == IDS_OK);
  f.ns -= NS;
  for (int i = 0; i < 300; i++) {
    int r = ids_generator_next_as(&g, i % 3 == 0 ? -1 : i % 3 == 1 ? user : msg, &v,
                        &e);
    if (!CHECKF(r == IDS_OK, "hold after a step back: %s", e.msg)) break;
    if (!CHECKF(ids_value_cmp(&v, &prev) > 0 &&
                fieldof(s, &v, "timestamp") == T + 5, "hold: ID %d %s "
                "after %s", i, vhex(&v), vhex(&prev)))
      break;
    prev = v;
  }
  free(a);
}

/* ----------------------------------------------------------- item 4 */

static void test_two_random (void) {
  ids_fieldspec f[] = {
    {"time", "time", 48, "ms", 0, 0, NULL},
    {"r1", "random", 40, NULL, 0, 0, NULL},
    {"r2", "random", 40, NULL, 0, 0, NULL},
  };
  ids_error e;
  const ids_scheme *s = define("t_two_random", f, 3, &e);
  ids_generator g;
  ids_value a[1000];
  long zero;
  begin("item 4: two random fields", 10);
  if (!CHECKF(s != NULL, "%s", e.msg) ||
      !CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, NULL, &e) == IDS_OK))
    return;
  if ((zero = ids_with(&g, s, a, 1000, "r2", 0)) < 0) return;
  CHECKF(zero <= 1, "the second random field is 0 in %ld of 1000 IDs", zero);
}

/* ----------------------------------------------------------- item 5 */

static void test_narrow_random (void) {
  ids_fieldspec f[] = {
    {"time", "time", 48, "ms", 0, 0, NULL},
    {"random", "random", 24, NULL, 0, 0, NULL},
  };
  ids_error e;
  const ids_scheme *s = define("t_rand24", f, 2, &e);
  const int64_t T = INT64_C(1767225600000) * MS;
  fake fk = {T, 0, 0, 0};
  ids_clock c = {fake_now, &fk};
  ids_generator g;
  ids_value a[1000];
  long on, bigstep = 0;
  begin("item 5: narrow random field", 10);
  if (!CHECKF(s != NULL, "%s", e.msg) ||
      !CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK))
    return;
  /* the clock moves on only if the generator waits for it.  A tick's
  ** first draw is in the field's lower half: room for 2^15 steps at
  ** least, whatever it draws (a draw near the top once left room for 100
  ** IDs, then a wait: about one generator in 300) */
  for (int k = 0; k < 300; k++) {
    fk.ns = T;
    if (k > 0 && !CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) ==
                        IDS_OK))
      return;
    fake_stall(&fk, 100000, T + MS);
    if ((on = ids_with(&g, s, a, 500, "time", (uint64_t)(T / MS))) < 0)
      return;
    if (!CHECKF(500 - on == 0, "generator %d: %ld of 500 IDs waited for "
                "another ms", k, 500 - on))
      break;
  }
  /* Flax keeps its step of 1..2^32 */
  {
    const ids_scheme *fx = ids_scheme_find("flax");
    fake fz = {T, 0, 0, 0};
    ids_clock cz = {fake_now, &fz};
    CHECK(gen_init(&g, fx, NULL, IDS_POLICY_HOLD, &cz, &e) == IDS_OK);
    for (int i = 0; i < 1000; i++) {
      CHECK(ids_generator_next(&g, &a[i], &e) == IDS_OK);
      if (i > 0 && fieldof(fx, &a[i], "random") -
                   fieldof(fx, &a[i - 1], "random") > (1u << 24))
        bigstep++;
    }
    CHECKF(bigstep > 900, "flax: only %ld of 999 steps above 2^24", bigstep);
  }
}

/* ----------------------------------------------------------- item 6 */

static void test_fraction_unit (void) {
  ids_fieldspec f[] = {
    {"time", "time", 52, "1000/999999999 s", 0, 0, NULL},
    {"sequence", "sequence", 10, NULL, 0, 0, NULL},
  };
  ids_error e;
  const ids_scheme *s = define("t_fraction", f, 2, &e);
  int64_t clk;
  ids_clock c = {frozen_now, &clk};
  ids_generator g;
  ids_value v;
  long wrong = 0;
  begin("item 6: fractional unit", 10);
  if (!CHECKF(s != NULL, "%s", e.msg)) return;
  for (int64_t k = 0; k < 200; k++) {
    unsigned __int128 want;
    clk = INT64_C(1767225600) * NS + k * INT64_C(7777777777);
    /* a tick is 1000/999999999 s: ns * 999999999 / 1e12 */
    want = (unsigned __int128)clk * 999999999u / 1000000000000u;
    if (!CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK &&
               ids_generator_next(&g, &v, &e) == IDS_OK))
      return;
    if (fieldof(s, &v, "time") != (uint64_t)want) {
      if (wrong++ == 0)
        fprintf(stderr, "  at %lld ns: tick %" PRIu64 ", want %" PRIu64
                "\n", (long long)clk, fieldof(s, &v, "time"),
                (uint64_t)want);
    }
  }
  CHECKF(wrong == 0, "%ld of 200 clock readings gave the wrong tick", wrong);
}

/* ----------------------------------------------------------- item 7 */

static void test_reserved_names (void) {
  static const char *const reserved[] = {
    "epoch_ms", "start_timestamp", "policy", "max_ahead_ms", "slots",
    "qualifier", "node_name", "domain_name", "x_name",
  };
  begin("item 7: reserved field names", 10);
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
    for (int k = 0; k < 2; k++) {          /* as a node, as a constant */
      ids_fieldspec f[] = {
        {"time", "time", 41, "ms", 0, 0, NULL},
        {reserved[i], k ? "constant" : "node", 10, NULL, 0, 0, NULL},
        {"seq", "sequence", 12, NULL, 0, 0, NULL},
      };
      char name[32];
      ids_error e;
      snprintf(name, sizeof name, "t_res%zu_%d", i, k);
      CHECKF(define(name, f, 3, &e) == NULL && e.code == IDS_EINVAL &&
             strstr(e.msg, reserved[i]) && strstr(e.msg, "reserved"),
             "field '%s' (%s): %s", reserved[i], f[1].kind, e.msg);
      CHECK(ids_scheme_find(name) == NULL);
    }
  }
  {
    /* every option every generator takes, asked of the vocabulary itself
    ** (flax has none of its own): a field named slot_namespace was once
    ** taken, and then shadowed the option */
    ids_options o;
    const char *nm;
    int i;
    ids_options_init(&o, ids_scheme_find("flax"));
    for (i = 0; (nm = ids_options_name(&o, i)) != NULL; i++) {
      ids_fieldspec f[] = {
        {"time", "time", 41, "ms", 0, 0, NULL},
        {nm, "node", 10, NULL, 0, 0, NULL},
        {"seq", "sequence", 12, NULL, 0, 0, NULL},
      };
      char name[32];
      ids_error e;
      snprintf(name, sizeof name, "t_resg%d", i);
      CHECKF(define(name, f, 3, &e) == NULL && e.code == IDS_EINVAL &&
             strstr(e.msg, "reserved for a generator option"),
             "field '%s': %s", nm, e.msg);
    }
    CHECKF(i >= 7, "%d generic options", i);
  }
  {
    ids_fieldspec f[] = {
      {"time", "time", 41, "ms", 0, 0, NULL},
      {"name", "node", 10, NULL, 0, 0, NULL},        /* not reserved */
      {"epoch", "node", 4, NULL, 0, 0, NULL},
      {"seq", "sequence", 8, NULL, 0, 0, NULL},
    };
    ids_error e;
    CHECKF(define("t_res_ok", f, 4, &e) != NULL, "%s", e.msg);
  }
}

/* Generator options by role (issue 23): the generic ones set by name,
** unknown names refused by name, and each role a scheme's option carries
** doing its one thing. */
static int genwith (const char *scheme, const char *const *kv, int n,
                    ids_generator *g, ids_error *e) {
  const ids_scheme *s = ids_scheme_find(scheme);
  ids_options o;
  int r;
  memset(e, 0, sizeof *e);
  ids_options_init(&o, s);
  for (int i = 0; i < n; i += 2)
    if ((r = ids_options_set_text(&o, kv[i], strlen(kv[i]), kv[i + 1],
                                  strlen(kv[i + 1]), e)) != IDS_OK)
      return r;
  return ids_generator_init(g, s, &o, NULL, e);
}

static void test_option_roles (void) {
  static const char *const generic[] = {
    "policy", "error", "max_ahead_ms", "5", "slots", "local",
    "slot_namespace", "t_roles", "slot_ttl_ms", "60000",
    "slot_timeout_ms", "5000", "slot_log", "keep",
  };
  ids_generator g;
  ids_value v;
  ids_error e;
  begin("issue 23: generator options by role", 20);
  for (size_t i = 0; i < sizeof generic / sizeof *generic; i += 2) {
    const char *kv[] = {generic[i], generic[i + 1], "generator", "3"};
    CHECKF(genwith("fluid", kv, 2, &g, &e) == IDS_OK, "%s: %s", kv[0],
           e.msg);
    ids_generator_close(&g);
  }
  {
    const char *kv[] = {"slot_namespaces", "x"};
    CHECKF(genwith("fluid", kv, 2, &g, &e) == IDS_ENOENT &&
           strstr(e.msg, "no generator option \"slot_namespaces\""),
           "%s", e.msg);
  }
  {                             /* node: the field, and no slot for it */
    const char *kv[] = {"generator", "5", "slots", "none"};
    if (CHECKF(genwith("fluid", kv, 4, &g, &e) == IDS_OK, "%s", e.msg) &&
        CHECK(ids_generator_next(&g, &v, &e) == IDS_OK))
      CHECK_U64(fieldof(ids_scheme_find("fluid"), &v, "generator"), 5);
    ids_generator_close(&g);
    CHECKF(genwith("fluid", kv + 2, 2, &g, &e) == IDS_EINVAL &&
           strstr(e.msg, "node field generator not given"), "%s", e.msg);
  }
  {                             /* hashed: gives its field, one way only */
    const char *kv[] = {"domain_name", "example.com", "shard", "1",
                        "slots", "none", "domain", "7"};
    CHECKF(genwith("siq", kv, 6, &g, &e) == IDS_OK, "%s", e.msg);
    ids_generator_close(&g);
    CHECKF(genwith("siq", kv, 8, &g, &e) == IDS_EINVAL &&
           strstr(e.msg, "give domain_name or domain, not both"), "%s",
           e.msg);
  }
  {                             /* qualifier: by name */
    const char *kv[] = {"qualifier", "nope", "shard", "1", "domain", "7"};
    CHECKF(genwith("siq", kv, 6, &g, &e) == IDS_EINVAL &&
           strstr(e.msg, "unknown qualifier 'nope'"), "%s", e.msg);
  }
  {                             /* epoch: IDs count from it */
    const char *kv[] = {"epoch_ms", "1700000000000", "generator", "1"};
    if (CHECKF(genwith("fluid", kv, 4, &g, &e) == IDS_OK, "%s", e.msg) &&
        CHECK(ids_generator_next(&g, &v, &e) == IDS_OK)) {
      int64_t t = (int64_t)fieldof(ids_scheme_find("fluid"), &v,
                                   "timestamp") + 1700000000000;
      CHECKF(t > wallns() / 1000000 - 60000 && t <= wallns() / 1000000,
             "%" PRId64, t);
    }
    ids_generator_close(&g);
  }
  {                             /* start: Flux's monotonic count from it */
    const char *kv[] = {"start_timestamp", "1000000", "generator", "1"};
    if (CHECKF(genwith("fluid", kv, 4, &g, &e) == IDS_OK, "%s", e.msg) &&
        CHECK(ids_generator_next(&g, &v, &e) == IDS_OK)) {
      uint64_t t = fieldof(ids_scheme_find("fluid"), &v, "timestamp");
      CHECKF(t >= 1000000 && t < 1000000 + 60000, "%" PRIu64, t);
    }
    ids_generator_close(&g);
  }
}

/* ----------------------------------------------------------- item 8 */

/* atomic, not volatile: volatile orders nothing between threads (a data
** race that ThreadSanitizer reports) */
static int spinning = 1;

static void *busy (void *arg) {
  ids_generator *g = arg;
  ids_value v;
  ids_error e;
  while (__atomic_load_n(&spinning, __ATOMIC_ACQUIRE))
    ids_generator_next(g, &v, &e);
  return NULL;
}

/* What a forked child does with the parent's generator; its exit status. */
typedef int child_fn (ids_generator *g);

/* Forks up to `rounds` children (scaled, at least `least`; fewer once
** `most_hangs` hung) while a thread of the parent spins on a Flax
** generator, so that some forks happen with its lock held.  Each child
** runs child(g) under an alarm of `seconds` (slowed).  Checks that none
** hung (killed by the alarm) and none failed (exit status not 0); `what`
** says what a failure would be. */
static void fork_while_busy (long rounds, long least, int most_hangs,
                             unsigned seconds, child_fn *child,
                             const char *what) {
  const ids_scheme *s = ids_scheme_find("flax");
  ids_generator g;
  ids_error e;
  pthread_t th;
  int hangs = 0, fails = 0, forks = 0;
  if (!CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, NULL, &e) == IDS_OK))
    return;
  __atomic_store_n(&spinning, 1, __ATOMIC_RELEASE);
  if (!CHECK(pthread_create(&th, NULL, busy, &g) == 0)) return;
  for (long i = 0; i < scaled(rounds, least) && hangs < most_hangs; i++) {
    pid_t p = fork();
    int st;
    if (p == 0) {
      signal(SIGALRM, SIG_DFL);
      alarm(slowed(seconds));                /* default action: killed */
      _exit(child(&g));
    }
    if (p < 0) { fails++; break; }
    forks++;
    if (waitpid(p, &st, 0) != p) { fails++; continue; }
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) hangs++;
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) fails++;
  }
  __atomic_store_n(&spinning, 0, __ATOMIC_RELEASE);
  pthread_join(th, NULL);
  CHECKF(hangs == 0 && fails == 0, "%d of %d children hung, %d failed (%s)",
         hangs, forks, fails, what);
}

/* The child's first ID. */
static int child_next (ids_generator *g) {
  ids_value v;
  ids_error e;
  return ids_generator_next(g, &v, &e) == IDS_OK ? 0 : 3;
}

static void test_fork_lock (void) {
  begin("item 8: fork under a held lock", 200);
  fork_while_busy(300, 10, 5, 2, child_next, "in ids_generator_next");
}


/* A child whose first use of the parent's generator is from two threads at
** once: one of them resets it, the other waits; no hang, no duplicate. */
#define CHILD_IDS 20000
static ids_generator *child_gen;
static ids_value child_ids[2][CHILD_IDS];

static void *child_run (void *arg) {
  ids_value *out = arg;
  ids_error e;
  for (int i = 0; i < CHILD_IDS; i++)
    if (ids_generator_next(child_gen, &out[i], &e) != IDS_OK) return (void *)1;
  return NULL;
}

/* Two threads' IDs: each thread's increase, none repeats. */
static int child_threads (ids_generator *g) {
  pthread_t t[2];
  void *r0 = NULL, *r1 = NULL;
  static ids_value all[2 * CHILD_IDS];
  child_gen = g;
  if (pthread_create(&t[0], NULL, child_run, child_ids[0]) != 0 ||
      pthread_create(&t[1], NULL, child_run, child_ids[1]) != 0)
    return 4;
  pthread_join(t[0], &r0);
  pthread_join(t[1], &r1);
  if (r0 || r1) return 3;
  for (int k = 0; k < 2; k++)
    for (int j = 1; j < CHILD_IDS; j++)
      if (ids_value_cmp(&child_ids[k][j - 1], &child_ids[k][j]) >= 0)
        return 5;
  memcpy(all, child_ids, sizeof all);
  qsort(all, 2 * CHILD_IDS, sizeof *all, cmpval);
  for (int j = 1; j < 2 * CHILD_IDS; j++)
    if (ids_value_cmp(&all[j - 1], &all[j]) == 0) return 6;
  return 0;
}

static void test_fork_threads (void) {
  begin("item 8: two threads of a child reset the generator once", 50);
  fork_while_busy(50, 5, 3, 10, child_threads,
                  "duplicates, order or errors");
}

/* ----------------------------------------------------------- item 9 */

static void test_decreasing_layouts (void) {
  static const struct { const char *k[3]; } bad[] = {
    {{"random", "time", "node"}},
    {{"sequence", "time", "node"}},
    {{"node", "random", "time"}},
    {{"time", "random", "sequence"}},     /* fresh random above the count */
  };
  begin("item 9: decreasing layouts", 10);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ids_fieldspec f[3];
    char name[32];
    ids_error e;
    for (int k = 0; k < 3; k++) {
      static const char *const names[] = {"a", "b", "c"};
      int tm = strcmp(bad[i].k[k], "time") == 0;
      f[k] = (ids_fieldspec){names[k], bad[i].k[k], tm ? 40 : 8, "s", 0, 0, NULL};
    }
    snprintf(name, sizeof name, "t_dec%zu", i);
    CHECKF(define(name, f, 3, &e) == NULL && e.code == IDS_EINVAL &&
           strstr(e.msg, "above"), "%s, %s, %s: %s", bad[i].k[0],
           bad[i].k[1], bad[i].k[2], e.msg);
  }
  {
    ids_fieldspec f[] = {
      {"node", "node", 8, NULL, 0, 0, NULL}, {"time", "time", 41, "ms", 0, 0, NULL},
      {"c", "constant", 3, NULL, 0, 5, NULL}, {"seq", "sequence", 8, NULL, 0, 0, NULL},
      {"r", "random", 4, NULL, 0, 0, NULL},
    };
    ids_error e;
    CHECKF(define("t_dec_ok", f, 5, &e) != NULL, "%s", e.msg);
  }
}

/* ---------------------------------------------------------- item 10 */

static void test_alphabet_and_node (void) {
  static const char asc[] =
    "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
  char desc[65], swapped[65], enc[3][80];
  ids_fieldspec f[] = {
    {"time", "time", 41, "ms", 0, 0, NULL}, {"seq", "sequence", 23, NULL, 0, 0, NULL},
  };
  ids_error e;
  begin("item 10: b64sort order, 64-bit node", 10);
  for (int i = 0; i < 64; i++) desc[i] = asc[63 - i];
  desc[64] = '\0';
  memcpy(swapped, asc, 65);
  swapped[10] = asc[11], swapped[11] = asc[10];
  snprintf(enc[0], sizeof enc[0], "b64sort:%s", desc);
  snprintf(enc[1], sizeof enc[1], "b64sort:%s", swapped);
  snprintf(enc[2], sizeof enc[2], "b64sort:%s", asc);
  for (int i = 0; i < 3; i++) {
    const char *en[] = {enc[i]};
    ids_defspec sp = {NULL, f, 2, en, 1, NULL, 0, NULL};
    const ids_scheme *s = NULL;
    char name[32];
    int r;
    snprintf(name, sizeof name, "t_b64sort%d", i);
    sp.name = name;
    r = ids_scheme_define(&sp, &s, &e);
    if (i < 2)
      CHECKF(r == IDS_EINVAL && strstr(e.msg, "ascending"), "alphabet %d: "
             "%d %s", i, r, r ? e.msg : "accepted");
    else
      CHECKF(r == IDS_OK, "the ascending alphabet: %s", e.msg);
  }
  {
    ids_fieldspec n64[] = {
      {"time", "time", 41, "ms", 0, 0, NULL}, {"node", "node", 64, NULL, 0, 0, NULL},
      {"seq", "sequence", 12, NULL, 0, 0, NULL},
    };
    const ids_scheme *s;
    CHECKF(define("t_node64", n64, 3, &e) == NULL && e.code == IDS_EINVAL &&
           strstr(e.msg, "63"), "a 64-bit node field: %s", e.msg);
    n64[1].bits = 63;
    s = define("t_node63", n64, 3, &e);
    if (CHECKF(s != NULL, "%s", e.msg)) {
      ids_optval o[IDS_MAXOPTS] = {{0}};
      ids_generator g;
      ids_value v;
      CHECK(s->genopts[0].max == INT64_MAX);
      setopt(s, o, "node", INT64_MAX, NULL);
      CHECK(gen_init(&g, s, o, IDS_POLICY_HOLD, NULL, &e) == IDS_OK &&
            ids_generator_next(&g, &v, &e) == IDS_OK &&
            fieldof(s, &v, "node") == (uint64_t)INT64_MAX);
    }
  }
}

/* ---------------------------------------------------------- item 11 */

static void test_max_ahead (void) {
  const ids_scheme *s = ids_scheme_find("fluid");
  const int64_t E = INT64_C(1735689600000) * MS;     /* FLUID's epoch */
  const int64_t T = E + INT64_C(3600000) * MS;       /* tick 3600000 */
  fake f = {T, 0, 0, 0};
  ids_clock c = {fake_now, &f};
  ids_generator g;
  ids_error e;
  ids_value *a = malloc(20000 * sizeof *a);
  long n = 0, wrong = 0;
  tally t = {0};
  begin("item 11: max_ahead_ms", 20);
  if (!CHECK(a != NULL) ||
      !CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK))
    return;
  /* range-checked, naming the option */
  CHECKF(gen_init_ahead(&g, s, NULL, IDS_POLICY_HOLD, &c, -1, &e) ==
         IDS_ERANGE && strstr(e.msg, "max_ahead_ms"), "%s", e.msg);
  CHECK(gen_init_ahead(&g, s, NULL, IDS_POLICY_HOLD, &c, 3600001, &e) ==
        IDS_ERANGE);
  CHECK(gen_init_ahead(&g, s, NULL, IDS_POLICY_HOLD, &c, 3600000, &e) ==
        IDS_OK);
  CHECK(gen_init_ahead(&g, s, NULL, IDS_POLICY_HOLD, &c, 3, &e) == IDS_OK);
  /* a stalled clock: ticks 0..3 ms ahead of it, 1024 IDs each, without
  ** waiting */
  f.reads = 0;
  for (long i = 0; i < 4 * 1024; i++) {
    if (!CHECK(ids_generator_next(&g, &a[n], &e) == IDS_OK)) break;
    if (fieldof(s, &a[n], "timestamp") != (uint64_t)(3600000 + i / 1024))
      wrong++;
    n++;
  }
  CHECKF(wrong == 0, "%ld IDs off the expected ticks", wrong);
  CHECKF(f.reads < 10000, "the generator waited (%ld clock reads)",
         f.reads);
  /* 4 ms ahead is too far: it waits until the clock is 3 ms behind */
  fake_stall(&f, 50, T + 1 * MS);
  CHECK(ids_generator_next(&g, &a[n], &e) == IDS_OK);
  CHECKF(f.reads > 50 && fieldof(s, &a[n], "timestamp") == 3600004,
         "after the ahead limit: %ld reads, tick %" PRIu64, f.reads,
         fieldof(s, &a[n], "timestamp"));
  n++;
  /* the clock catches up and passes */
  f.ns = T + 10 * MS;
  for (int i = 0; i < 3000; i++) {
    if (!CHECK(ids_generator_next(&g, &a[n], &e) == IDS_OK)) break;
    n++;
  }
  CHECK(fieldof(s, &a[n - 3000], "timestamp") == 3600010);
  /* stepped back 2 s with max_ahead_ms 2500: the held tick, then the next
  ** ones, without waiting */
  CHECK(gen_init_ahead(&g, s, NULL, IDS_POLICY_HOLD, &c, 2500, &e) ==
        IDS_OK);
  f.ns = T + 2000 * MS;
  CHECK(ids_generator_next(&g, &a[n++], &e) == IDS_OK);
  f.ns = T;
  f.reads = 0;
  wrong = 0;
  for (long i = 0; i < 1023 + 3 * 1024; i++) {
    if (!CHECK(ids_generator_next(&g, &a[n], &e) == IDS_OK)) break;
    if (fieldof(s, &a[n], "timestamp") != (uint64_t)(3602000 + (i + 1) /
                                                     1024))
      wrong++;
    n++;
  }
  CHECKF(wrong == 0 && f.reads < 10000, "stepped back: %ld IDs off the "
         "expected ticks, %ld clock reads", wrong, f.reads);
  count(a, n, &t);
  CHECKF(t.dups == 0 && t.notup == 0, "%ld duplicates, %ld not increasing "
         "in %ld IDs", t.dups, t.notup, n);
  /* default 0: a stalled clock means waiting, as before */
  f.ns = T + 5000 * MS;
  CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK);
  for (int i = 0; i < 1024; i++) CHECK(ids_generator_next(&g, &a[0], &e) == IDS_OK);
  fake_stall(&f, 50, f.ns + MS);
  CHECK(ids_generator_next(&g, &a[0], &e) == IDS_OK);
  CHECK(f.reads > 50);
  /* step mode (no sequence): when the random field is spent, the next
  ** ticks up to 3 ms ahead draw afresh; the 4th waits for the clock */
  {
    ids_fieldspec fs[] = {
      {"time", "time", 48, "ms", 0, 0, NULL}, {"random", "random", 6, NULL, 0, 0, NULL},
    };
    const ids_scheme *r6 = define("t_ahead_step", fs, 2, &e);
    long reads3 = -1;
    n = 0;
    f.ns = T;
    if (!CHECKF(r6 != NULL, "%s", e.msg) ||
        !CHECK(gen_init_ahead(&g, r6, NULL, IDS_POLICY_HOLD, &c, 3, &e) ==
               IDS_OK))
      return;
    fake_stall(&f, 100000, T + MS);
    for (; n < 1000; n++) {
      uint64_t tk;
      if (!CHECK(ids_generator_next(&g, &a[n], &e) == IDS_OK)) break;
      tk = fieldof(r6, &a[n], "time");
      if (tk == (uint64_t)(T / MS) + 3 && reads3 < 0) reads3 = f.reads;
      if (tk == (uint64_t)(T / MS) + 4) break;
    }
    CHECKF(reads3 >= 0 && reads3 < 1000, "step mode reached 3 ms ahead "
           "after %ld clock reads", reads3);
    CHECKF(n < 1000 && f.reads > 100000, "the tick 4 ms ahead came after "
           "%ld reads (ID %ld)", f.reads, n);
    count(a, n + 1, &t);
    CHECK(t.dups == 0 && t.notup == 0);
  }
  free(a);
}

/* ---------------------------------------------------------- item 12 */

static void test_define_checks (void) {
  ids_fieldspec f[] = {
    {"time", "time", 48, "ms", 0, 0, NULL}, {"seq", "sequence", 12, NULL, 0, 0, NULL},
  };
  static const char *const enc[] = {"dec"};
  ids_defspec sp = {"t_def", f, 2, enc, 1, NULL, 0, NULL};
  const ids_scheme *s;
  ids_error e;
  char longname[40];
  begin("item 12: define checks", 10);
  memset(longname, 'n', 32);
  longname[32] = '\0';
  sp.name = longname;
  CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_EINVAL && strstr(e.msg, "31") &&
         !strstr(e.msg, "required"), "a 32-character scheme name: %s", e.msg);
  sp.name = "t_def_fname";
  f[1].name = longname;
  CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_EINVAL && strstr(e.msg, "31") &&
         !strstr(e.msg, "required"), "a 32-character field name: %s", e.msg);
  f[1].name = "seq";
  {
    static const char *const units[] = {
      "1/ +2   s", "1/+2 s", "+1/2 s", " 1/2 s", "1 /2 s", "1/2s", "1/2  s",
      "1/2 s ", "1/-2 s", "-1/2 s", "1/2 S", "1/0 s", "0/1 s", "1/2",
      "1/1000000001 s", "0x10/2 s",
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
      char name[32];
      f[0].unit = units[i];
      snprintf(name, sizeof name, "t_unit%zu", i);
      sp.name = name;
      CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_EINVAL && strstr(e.msg, "unit"),
             "unit '%s' accepted", units[i]);
    }
    f[0].unit = "1/2000 s";
    sp.name = "t_unit_ok";
    CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_OK && s->unit.per_sec_num == 2000,
           "%s", e.msg);
    f[0].unit = "ms";
  }
  {
    static const long long bytes[] = {65544, -65528, -1, 21, 6,
                                      4294967304ll};
    for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++) {
      sp.name = "t_bytes";
      sp.bytes = bytes[i];
      CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_EINVAL && strstr(e.msg, "bytes"),
             "bytes %lld accepted", bytes[i]);
    }
    sp.bytes = 9;
    CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_OK && s->bytes == 9, "%s", e.msg);
    sp.bytes = 0;
  }
  {
    ids_fieldspec w[] = {
      {"time", "time", 48, "ms", 0, 0, NULL}, {"random", "random", 80, NULL, 0, 0, NULL},
    };
    sp.encodings = NULL;
    sp.nencodings = 0;
    sp.name = "t_noenc64";
    if (CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_OK, "%s", e.msg))
      CHECKF(s->ncodecs == 2 && strcmp(s->codecs[0]->name, "dec") == 0 &&
             strcmp(s->codecs[1]->name, "hex") == 0, "%d codecs",
             s->ncodecs);
    sp.fields = w;
    sp.name = "t_noenc128";
    if (CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_OK, "%s", e.msg))
      CHECKF(s->ncodecs == 1 && strcmp(s->codecs[0]->name, "hex") == 0,
             "%d codecs", s->ncodecs);
    sp.name = "t_noenc_bad";
    sp.nencodings = 1;                     /* one, but no array */
    CHECK(ids_scheme_define(&sp, &s, &e) == IDS_EINVAL);
  }
}

static void run (void (*test) (void)) {
  if (sigsetjmp(watchdog, 1) == 0) test();
  else {
    fprintf(stderr, "FAIL: '%s' hung (watchdog)\n", current);
    t_failed++;
  }
  alarm(0);
}

/* An epoch before 1970 (UUIDv1's 1582) with a ns unit: seconds since the
** epoch times ticks a second pass 64 bits past 2166, where a 64-bit time
** field ends; a clock reading there is past the field (IDS_ERANGE), not
** a tick wrapped to some other time. */
static void test_early_epoch (void) {
  ids_fieldspec f[] = {
    {"time", "time", 64, "ns", IDS_EPOCH_MIN, 0, NULL},
  };
  ids_fieldspec r[] = {
    {"time", "time", 64, "ns", IDS_EPOCH_MIN, 0, NULL},
    {"random", "random", 8, NULL, 0, 0, NULL},
  };
  ids_error e;
  const ids_scheme *s;
  int64_t clk;
  ids_clock c = {frozen_now, &clk};
  ids_generator g;
  ids_value v;
  uint64_t x[IDS_MAXFIELDS];
  begin("an epoch in 1582, in ns", 10);
  CHECK(define("t_early_layout", f, 1, &e) != NULL);   /* no generator */
  s = define("t_early", r, 2, &e);
  if (!CHECKF(s != NULL, "%s", e.msg)) return;
  clk = INT64_MAX;                                     /* 2262: past it */
  if (!CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK))
    return;
  CHECKF(ids_generator_next(&g, &v, &e) == IDS_ERANGE, "2262 gave an ID: "
         "%s", e.msg);
  ids_generator_close(&g);
  clk = 0;                                             /* 1970 */
  if (!CHECK(gen_init(&g, s, NULL, IDS_POLICY_HOLD, &c, &e) == IDS_OK))
    return;
  if (CHECKF(ids_generator_next(&g, &v, &e) == IDS_OK, "%s", e.msg)) {
    ids_scheme_decompose(s, &v, x);
    CHECKF(x[0] == (uint64_t)-IDS_EPOCH_MIN * 1000000u, "1970 is tick %"
           PRIu64, x[0]);
  }
  ids_generator_close(&g);
}

/* ids_scheme_time keeps the finest unit and agrees with ids_scheme_time_ms
** (its ms floored) for random values of every registered scheme; the
** unit's name is what define takes. */
static void test_time_exact (void) {
  const char *names[64];
  size_t n = ids_scheme_list(names, 64);
  static const struct { ids_unit u; const char *name; } units[] = {
    {{1000, 1}, "ms"}, {{100, 1}, "10ms"}, {{10000000, 1}, "1/10000000 s"},
    {{65536, 1}, "1/65536 s"}, {{1, 1}, "s"}, {{7, 3}, "3/7 s"},
  };
  char buf[32];
  begin("an ID's time to its finest unit", 20);
  for (size_t i = 0; i < n; i++) {
    ids_error e;
    const ids_scheme *s = ids_scheme_open(ids_scheme_find(names[i]), NULL,
                                          &e);
    if (s == NULL) continue;
    for (int k = 0; k < 200; k++) {
      ids_value v;
      int64_t sec, ms;
      int32_t ns;
      int a, b;
      ids_random(&v, sizeof v);
      for (int w = 0; w < 3; w++)
        if (s->bits <= 64 * w) v.w[w] = 0;
        else if (s->bits < 64 * (w + 1))
          v.w[w] &= ((uint64_t)1 << (s->bits - 64 * w)) - 1;
      a = ids_scheme_time(s, &v, &sec, &ns);
      b = ids_scheme_time_ms(s, &v, &ms);
      if (a && b)
        CHECKF(ns >= 0 && ns < 1000000000 &&
               (__int128)ms == (__int128)sec * 1000 + ns / 1000000,
               "%s: %" PRId64 " s %d ns against %" PRId64 " ms", s->name,
               sec, (int)ns, ms);
      else
        CHECKF(!a || sec > INT64_MAX / 1000 || sec < INT64_MIN / 1000,
               "%s: a time in s, none in ms", s->name);
    }
  }
  {                                   /* UUIDv1: 100 ns ticks since 1582 */
    const ids_scheme *s = ids_scheme_find("uuidv1");
    uint64_t x[IDS_MAXFIELDS] = {0};
    ids_value v;
    int64_t sec;
    int32_t ns;
    ids_error e;
    x[ids_scheme_field(s, "timestamp")] = 12345;
    x[ids_scheme_field(s, "version")] = 1;
    x[ids_scheme_field(s, "variant")] = 2;
    if (CHECKF(ids_scheme_compose(s, x, &v, &e) == IDS_OK, "%s", e.msg) &&
        CHECK(ids_scheme_time(s, &v, &sec, &ns) == 1))
      CHECKF(sec == -12219292800 && ns == 1234500, "%" PRId64 " s %d ns",
             sec, (int)ns);
  }
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    CHECK(ids_unit_name(units[i].u, buf, sizeof buf) ==
          (int)strlen(units[i].name));
    CHECK_STR(buf, units[i].name);
  }
}

/* A clock that moves on 1 us at every read. */
static int64_t stepping_now (void *ctx) {
  return *(int64_t *)ctx += 1000;
}

/* ids_scheme_bound: for every scheme with a key range by time, the IDs a
** generator makes between two instants lie in [lo, hi] of them and above
** hi of an instant before; the others are refused with a message. */
static void test_key_range (void) {
  const char *names[64];
  size_t n = ids_scheme_list(names, 64);
  int ranged = 0;
  begin("key ranges of a time interval", 20);
  for (size_t i = 0; i < n; i++) {
    ids_error e;
    const ids_scheme *s = ids_scheme_open(ids_scheme_find(names[i]), NULL,
                                          &e);
    int64_t t0 = 1764000000123456789ll, t = t0;      /* 2025-11-24, ns */
    ids_value lo, hi, before, v;
    ids_clock c = {stepping_now, &t};
    ids_generator g;
    if (s == NULL) continue;
    if (ids_scheme_bound(s, t0 / 1000000000, t0 % 1000000000, 0, &lo, &e) !=
        IDS_OK) {
      CHECKF(e.code == IDS_EINVAL && strstr(e.msg, s->name) &&
             strstr(e.msg, "no key range by time"), "%s: %s", s->name, e.msg);
      continue;
    }
    ranged++;
    /* an instant well before, in a tick of its own in every unit */
    CHECK(ids_scheme_bound(s, t0 / 1000000000 - 5, 0, 1, &before, &e) ==
          IDS_OK);
    CHECKF(ids_value_cmp(&before, &lo) < 0, "%s", s->name);
    if (!CHECKF(gen_init(&g, s, NULL, IDS_POLICY_ERROR, &c, &e) == IDS_OK,
                "%s: %s", s->name, e.msg))
      continue;
    for (int k = 0; k < 50; k++) {
      if (!CHECKF(ids_generator_next(&g, &v, &e) == IDS_OK, "%s: %s",
                  s->name, e.msg))
        break;
      CHECK(ids_scheme_bound(s, t / 1000000000, t % 1000000000, 1, &hi, &e) ==
            IDS_OK);
      CHECKF(ids_value_cmp(&lo, &v) <= 0 && ids_value_cmp(&v, &hi) <= 0,
             "%s: ID %d outside its instants' range", s->name, k);
    }
    ids_generator_close(&g);
  }
  CHECKF(ranged >= 15, "%d schemes have key ranges", ranged);
  {                                  /* ends before the epoch, past the field */
    const ids_scheme *s = ids_scheme_find("snowflake");
    ids_value v;
    ids_error e;
    CHECK(ids_scheme_bound(s, 0, 0, 0, &v, &e) == IDS_OK &&
          v.w[0] == 0);
    CHECK(ids_scheme_bound(s, 0, 0, 1, &v, &e) == IDS_ERANGE &&
          strstr(e.msg, "before its epoch"));
    CHECK(ids_scheme_bound(s, INT64_MAX / 1000, 0, 1, &v, &e) == IDS_OK &&
          v.w[0] == UINT64_MAX);
    CHECK(ids_scheme_bound(s, INT64_MAX / 1000, 0, 0, &v, &e) ==
          IDS_ERANGE);
    CHECK(ids_scheme_bound(s, 0, 1000000000, 0, &v, &e) == IDS_EINVAL);
    CHECK(ids_scheme_bound(ids_scheme_find("uuidv1"), 0, 0, 0, &v, &e) ==
          IDS_EINVAL && strstr(e.msg, "do not sort by time"));
    CHECK(ids_scheme_bound(ids_scheme_find("uuidv4"), 0, 0, 0, &v, &e) ==
          IDS_EINVAL && strstr(e.msg, "no time field"));
  }
}

int main (void) {
  if (ids_init() != IDS_OK) { fputs("ids_init failed\n", stderr); return 2; }
  signal(SIGALRM, hung);
  run(test_key_range);      /* first: the shipped schemes alone */
  run(test_end_of_range);
  run(test_wide_state);
  run(test_siq_order);
  run(test_two_random);
  run(test_narrow_random);
  run(test_fraction_unit);
  run(test_reserved_names);
  run(test_option_roles);
  run(test_fork_lock);
  run(test_fork_threads);
  run(test_decreasing_layouts);
  run(test_alphabet_and_node);
  run(test_max_ahead);
  run(test_define_checks);
  run(test_early_epoch);
  run(test_time_exact);
  return t_done();
}
