/*
** test_torture.c: every generator, built-in and scripted, under load and
** under a hostile clock (the reliability issue's torture part):
**
**   threads    2 threads on one generator for IDS_TORTURE_SECONDS (one by
**              single calls, one by batches of 1..256), IDS_TORTURE_ROUNDS
**              times
**   clocks     an injected clock that jumps forward, back 1 ms, 5 s, 1 h,
**              stalls and jitters, under `hold` and `error`
**   fork       16 children forked from a parent that already generated:
**              the inherited generator refuses (or, purely random, goes
**              on), each child's own generator (node i + 1) generates
**   exhaustion a clock that moves only while the generator waits: every
**              tick is used up, and holds exactly its sequence's capacity
**   epoch      before the epoch, the first tick, the last tick the clock
**              can reach (found by bisection), one past it
**
** Every ID of every run is collected and checked: no duplicate (sorted,
** or merged when each thread's IDs are already known to increase), strictly
** increasing per generator (per thread where shared), every ID inside the
** scheme's width, each field in range, constants as defined, and decoding
** its default text gives it back.  An `error` policy's refusals are
** counted, must carry IDS_ECLOCK and a message, and are printed.
**
** The shipped schemes (ulid, uuidv7, twitter, sonyflake, instagram, ksuid)
** are defined by ids_init from their specs (schemes/shipped.c) through
** ids_scheme_define, as a Lua idscheme.define would: registered C schemes
** that go through the same C calls as the built-ins.  Torturing them from
** Lua would add the interpreter's cost per ID and test the binding rather
** than the generator; the binding's own paths are the busted specs'.
**
** kuid64 has no node and no random field: its IDs are unique per
** generator only, so its forked children are checked each on its own.
*/
#include <errno.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define NS  INT64_C(1000000000)
#define MS  INT64_C(1000000)
#define NCHILD  16

static const char *const names[] = {
  "fluid", "flax", "snowflake", "siq", "kuid64", "kuid96",
  "ulid", "uuidv7", "twitter", "sonyflake", "instagram", "ksuid",
  "mastodon", "tsid", "timeflake", "pushid", "uuidv4", "uuidv8", "nanoid",
  "uuidv1", "uuidv6", "objectid", "xid", "typeid",
  "t_counter",
};

/* ObjectId's layout with an 8-bit counter and ms: its ticks fill after
** 256 IDs, where ObjectId's take 16.7 M (too many to fill here). */
static const ids_fieldspec t_counter[] = {
  {"timestamp", "time", 41, "ms", 0, 0, NULL},
  {"random", "instance", 40, NULL, 0, 0, NULL},
  {"counter", "counter", 8, NULL, 0, 0, NULL},
};
#define NSCHEMES  (int)(sizeof names / sizeof names[0])

/* IDs checked and duplicates found, per scheme (index into names). */
static long long checked[NSCHEMES], dupsfound[NSCHEMES];
static double hammer_secs;
static long rounds;

static int64_t wallns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

static double envnum (const char *name, double dflt) {
  const char *v = getenv(name);
  return v && *v ? atof(v) : dflt;
}

static void *xmalloc (size_t n) {
  void *p = malloc(n ? n : 1);
  if (p == NULL) { fprintf(stderr, "out of memory (%zu bytes)\n", n); exit(2); }
  return p;
}

/* ------------------------------------------------------------ schemes */

static int kindof (const ids_scheme *s, ids_kind k) {
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == k) return 1;
  return 0;
}

/* A generator of s: every node option set from `node` (so that no slot is
** claimed: slots "none" makes a missed one an error), a policy, a clock. */
static int mkgen_ahead (ids_generator *g, const ids_scheme *s,
                        uint64_t node, ids_policy p, int64_t ahead_ms,
                        const ids_clock *c, ids_error *e) {
  ids_options o;
  int r;
  ids_options_init(&o, s);
  if ((r = set_nodes(&o, s, node, NULL, e)) != IDS_OK ||
      (r = ids_options_set_string(&o, "slots", 5, "none", 4, e)) != IDS_OK ||
      (p == IDS_POLICY_ERROR &&
       (r = ids_options_set_string(&o, "policy", 6, "error", 5, e)) !=
       IDS_OK) ||
      (ahead_ms &&
       (r = ids_options_set_int(&o, "max_ahead_ms", 12, ahead_ms, e)) !=
       IDS_OK))
    return r;
  return ids_generator_init(g, s, &o, c, e);
}

static int mkgen (ids_generator *g, const ids_scheme *s, uint64_t node,
                  ids_policy p, const ids_clock *c, ids_error *e) {
  return mkgen_ahead(g, s, node, p, 0, c, e);
}

/* IDs one tick holds for the default qualifier (0: no sequence, the random
** field is stepped instead). */
static uint64_t capacity (const ids_scheme *s) {
  if (s->gen && s->gen->suffix) {
    unsigned n;
    uint64_t suf;
    s->gen->suffix(s, s->nquals ? s->quals[0].value : 0, &n, &suf);
    return (uint64_t)1 << (s->gen->seqbits - n);
  }
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_SEQUENCE)
      return (uint64_t)1 << s->fields[i].bits;
  return 0;
}

/* Nanoseconds of one tick (kuid: 1024 us, its unit). */
static int64_t tickns (const ids_scheme *s) {
  int64_t t = (int64_t)(NS * (int64_t)s->unit.per_sec_den /
                        (int64_t)s->unit.per_sec_num);
  return t > 0 ? t : 1;
}

/* The tick an ID holds: its time fields, most significant first, read as
** one number (kuid's mixed radix orders the same way). */
static uint64_t tickof (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS], t = 0;
  ids_scheme_decompose(s, v, x);
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_TIME)
      t = (s->fields[i].bits >= 64 ? 0 : t << s->fields[i].bits) | x[i];
  return t;
}

/* ------------------------------------------------------------- checks */

/* Every ID in the width, each field in range, constants as defined, and
** its default text decoding back to it.  Returns how many were wrong. */
static long verify (const char *what, const ids_scheme *s, const ids_value *a,
                    long n) {
  long bad = 0;
  for (long i = 0; i < n; i++) {
    uint64_t x[IDS_MAXFIELDS];
    char text[IDS_TEXTMAX];
    ids_value back;
    ids_error e;
    size_t len;
    int ok = ids_value_fits(&a[i], s->bits), f;
    ids_scheme_decompose(s, &a[i], x);
    for (f = 0; ok && f < s->nfields; f++) {
      const ids_field *fd = &s->fields[f];
      if (fd->bits < 64 && x[f] >> fd->bits) ok = 0;
      if (fd->kind == IDS_KIND_CONSTANT && x[f] != fd->value) ok = 0;
    }
    len = ids_scheme_encode(s, NULL, &a[i], text);
    if (ok && (ids_scheme_decode(s, NULL, text, len, &back, &e) != IDS_OK ||
               ids_value_cmp(&back, &a[i]) != 0))
      ok = 0;
    if (!ok && bad++ == 0)
      CHECKF(0, "%s: %s %s (\"%.*s\") does not decode to fields in range",
             what, s->name, vhex(&a[i]), (int)len, text);
  }
  return bad;
}

/* The time field of the scheme under test when its IDs do not sort as
** values (UUIDv1's time split low first, ObjectId's counter that wraps
** within a second: !ids_scheme_ordered), else NULL.  Its IDs then only
** never go back in time; duplicates are still counted over all of them. */
static const ids_field *timeonly;

/* Count of IDs of a[0..n) not above the one before (with timeonly: of a
** time before the one before). */
static long notup (const ids_value *a, long n) {
  long k = 0;
  for (long i = 1; i < n; i++)
    if (timeonly ? ids_field_get(timeonly, &a[i]) <
                   ids_field_get(timeonly, &a[i - 1])
                 : ids_value_cmp(&a[i], &a[i - 1]) <= 0)
      k++;
  return k;
}

/* Duplicates among a[0..n) (sorts it). */
static long dups (ids_value *a, long n) {
  long k = 0;
  qsort(a, (size_t)n, sizeof *a, cmpval);
  for (long i = 1; i < n; i++)
    if (ids_value_cmp(&a[i], &a[i - 1]) == 0) k++;
  return k;
}

/* Duplicates between two increasing lists, by merging them (sorted first
** where IDs do not sort as values). */
static long mergedups (ids_value *a, long na, ids_value *b, long nb) {
  long i = 0, j = 0, k = 0;
  if (timeonly) {
    qsort(a, (size_t)na, sizeof *a, cmpval);
    qsort(b, (size_t)nb, sizeof *b, cmpval);
  }
  while (i < na && j < nb) {
    int c = ids_value_cmp(&a[i], &b[j]);
    if (c == 0) k++, i++, j++;
    else if (c < 0) i++;
    else j++;
  }
  return k;
}

static void tally (int si, const char *what, long n, long d) {
  checked[si] += n;
  dupsfound[si] += d;
  CHECKF(d == 0, "%s: %s: %ld duplicate IDs among %ld", names[si], what, d,
         n);
}

/* ------------------------------------------------------------ threads */

typedef struct hammer {
  ids_generator *g;
  ids_value *out;
  long cap, n;
  int64_t until;
  int batch;                  /* 0: single calls; else next_n of 1..256 */
  int code;
  ids_error e;
} hammer;

static void *hammer_run (void *arg) {
  hammer *h = arg;
  uint64_t x = 0x9e3779b97f4a7c15u ^ (uint64_t)(uintptr_t)h;
  /* a few IDs at least, however late the thread starts (valgrind runs
  ** one thread at a time) */
  while (h->n < h->cap && (h->n < 1000 || wallns() < h->until)) {
    long k = 1;
    int r;
    if (h->batch) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift: no rand() */
      k = 1 + (long)(x % 256);
      if (k > h->cap - h->n) k = h->cap - h->n;
    }
    r = k == 1 ? ids_generator_next(h->g, &h->out[h->n], &h->e) :
        ids_generator_next_n(h->g, &h->out[h->n], (size_t)k, &h->e);
    if (r != IDS_OK) { h->code = r; break; }
    h->n += k;
  }
  return NULL;
}

/* Two threads on one generator of s on the wall clock for `secs`. */
static void test_threads (int si, const ids_scheme *s, double secs) {
  /* room for what the fastest generator makes: some 30 M IDs a second
  ** per thread on one core, bounded so a round stays under 2 GB */
  long cap = (long)(secs * 30e6);
  ids_generator g;
  ids_error e;
  hammer h[2];
  pthread_t t[2];
  char what[64];
  long d, bad;
  if (cap > 40000000) cap = 40000000;
  if (cap < 1000) cap = 1000;
  snprintf(what, sizeof what, "2 threads, %.1f s", secs);
  if (!CHECKF(mkgen(&g, s, 7, IDS_POLICY_HOLD, NULL, &e) == IDS_OK, "%s: %s",
              s->name, e.msg))
    return;
  for (int k = 0; k < 2; k++) {
    memset(&h[k], 0, sizeof h[k]);
    h[k].g = &g;
    h[k].cap = cap;
    h[k].out = xmalloc((size_t)cap * sizeof(ids_value));
    h[k].until = wallns() + (int64_t)(secs * 1e9);
    h[k].batch = k;
    CHECK(pthread_create(&t[k], NULL, hammer_run, &h[k]) == 0);
  }
  for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
  for (int k = 0; k < 2; k++) {
    CHECKF(h[k].code == IDS_OK, "%s thread %d: failed with %d: %s", s->name,
           k, h[k].code, h[k].e.msg);
    bad = notup(h[k].out, h[k].n);
    CHECKF(bad == 0, "%s thread %d: %ld IDs not above the one before",
           s->name, k, bad);
    verify(what, s, h[k].out, h[k].n);
  }
  /* each list increases (checked above): a merge finds what both hold */
  d = mergedups(h[0].out, h[0].n, h[1].out, h[1].n);
  tally(si, what, h[0].n + h[1].n, d);
  CHECKF(h[0].n > 0 && h[1].n > 0, "%s: a thread made no ID", s->name);
  ids_generator_close(&g);
  free(h[0].out);
  free(h[1].out);
}

/* ------------------------------------------------------ injected clock */

/* A clock that a test drives: `ns` moves `adv` per read; `off` is a step
** (a clock set back is a negative one), `jitter` noise of +-jitter per
** read.  Time passes while a generator waits: `lastid` is the read count
** when the last call returned, and a generator that reads again more than
** `patience` times without returning is waiting, so each such read moves
** the clock one tick (and, with `heal`, ends a step back, as the clock
** would be corrected).  So no case sleeps for the time it injects. */
typedef struct jclock {
  int64_t ns, adv, off, jitter, tick;
  long reads, lastid, patience, waits;
  int heal;
  uint64_t rng;
} jclock;

/* a + b, wrapping: the epoch edges run the clock up to the last
** nanosecond an int64_t holds, and one more step wraps it to 1677 (the
** generator then sees a clock before its epoch and refuses, as at any end
** of its range).  Wrapped in unsigned arithmetic: signed overflow is
** undefined. */
static int64_t wrapadd (int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t jnow (void *ctx) {
  jclock *c = ctx;
  int64_t j = 0;
  c->reads++;
  if (c->reads - c->lastid > c->patience) {
    c->ns = wrapadd(c->ns, c->tick);
    c->waits++;
    if (c->heal) c->off = 0;
  }
  else c->ns = wrapadd(c->ns, c->adv);
  if (c->jitter) {
    c->rng ^= c->rng << 13, c->rng ^= c->rng >> 7, c->rng ^= c->rng << 17;
    j = (int64_t)(c->rng % (uint64_t)(2 * c->jitter + 1)) - c->jitter;
  }
  return wrapadd(wrapadd(c->ns, c->off), j);
}

/* ns per read for a clock that runs at twice what a tick holds (a tick
** per 64 IDs in step mode): no wait in steady state. */
static int64_t steady (const ids_scheme *s) {
  uint64_t cap = capacity(s);
  int64_t adv = cap ? tickns(s) * 2 / (int64_t)cap : tickns(s) / 64;
  return adv > 0 ? adv : 1;
}

enum { J_FORWARD, J_BACK, J_STALL, J_JITTER };

typedef struct jcase {
  const char *name;
  int kind;
  int64_t by;                 /* ns: the jump, or (jitter) in ticks */
} jcase;

static const jcase jcases[] = {
  {"jump forward 1 h", J_FORWARD, 3600 * NS},
  {"back 1 ms", J_BACK, MS},
  {"back 5 s", J_BACK, 5 * NS},
  {"back 1 h", J_BACK, 3600 * NS},
  {"stall", J_STALL, 0},
  {"jitter +-3 ticks", J_JITTER, 3},
};

/* One case under one policy: n calls; the event at n/3, undone at 2n/3
** (a step back is corrected, a stall ends). */
static void clock_case (int si, const ids_scheme *s, const jcase *jc,
                        ids_policy p, long n) {
  uint64_t cap = capacity(s);
  jclock c = {0};
  ids_clock clk = {jnow, &c};
  ids_generator g;
  ids_error e;
  ids_value *a = xmalloc((size_t)n * sizeof *a);
  long made = 0, fails = 0, wrong = 0, bad;
  char what[96];
  snprintf(what, sizeof what, "%s, %s", jc->name,
           p == IDS_POLICY_HOLD ? "hold" : "error");
  c.tick = tickns(s);
  c.adv = steady(s);
  c.ns = wallns();
  c.patience = cap ? 1 : 2;   /* step mode reads twice when behind */
  c.heal = p == IDS_POLICY_HOLD;
  c.rng = 0x2545f4914f6cdd1du + (uint64_t)si;
  if (!CHECKF(mkgen(&g, s, 3, p, &clk, &e) == IDS_OK, "%s: %s", s->name,
              e.msg)) {
    free(a);
    return;
  }
  c.lastid = c.reads;         /* SIQ's init reads the clock */
  for (long i = 0; i < n; i++) {
    int r;
    if (i == n / 3) {
      if (jc->kind == J_FORWARD) c.ns += jc->by;
      else if (jc->kind == J_BACK) c.off = -jc->by;
      else if (jc->kind == J_STALL) c.adv = 0;
      else c.jitter = jc->by * c.tick;
    }
    else if (i == 2 * n / 3) {
      c.off = 0;
      c.jitter = 0;
      c.adv = steady(s);
    }
    r = ids_generator_next(&g, &a[made], &e);
    c.lastid = c.reads;
    if (r == IDS_OK) { made++; continue; }
    fails++;
    if (r != IDS_ECLOCK || e.code != r || e.msg[0] == '\0') wrong++;
  }
  if (p == IDS_POLICY_HOLD || jc->kind == J_FORWARD || jc->kind == J_STALL)
    CHECKF(fails == 0, "%s %s: %ld refusals", s->name, what, fails);
  else if (jc->kind == J_BACK && jc->by >= 2 * c.tick)
    CHECKF(fails > 0, "%s %s: a step back of %lld ns went unnoticed",
           s->name, what, (long long)jc->by);
  CHECKF(wrong == 0, "%s %s: %ld refusals without IDS_ECLOCK and a message",
         s->name, what, wrong);
  if (p == IDS_POLICY_ERROR && fails)
    printf("  %-10s %-18s error: %ld of %ld calls refused (IDS_ECLOCK)\n",
           s->name, jc->name, fails, n);
  bad = notup(a, made);
  CHECKF(bad == 0, "%s %s: %ld IDs not above the one before", s->name, what,
         bad);
  verify(what, s, a, made);
  tally(si, what, made, dups(a, made));
  free(a);
}

/* Sequence exhaustion at every tick: a frozen clock that moves a tick only
** while the generator waits, so each tick is used up, and every tick but
** the last holds exactly the capacity. */
static void test_exhaustion (int si, const ids_scheme *s, long n) {
  uint64_t cap = capacity(s);
  jclock c = {0};
  ids_clock clk = {jnow, &c};
  ids_generator g;
  ids_error e;
  ids_value *a;
  long made = 0, short_ticks = 0, run = 0;
  if (cap > ((uint64_t)1 << 20)) {     /* ObjectId's: see t_counter */
    printf("  %-10s exhaustion: a tick holds %" PRIu64 " IDs, too many to "
           "fill here\n", s->name, cap);
    return;
  }
  if (cap)                    /* at least 4 whole ticks, and a part */
    n = (long)cap * (n / (long)cap > 4 ? n / (long)cap : 4) + 7;
  a = xmalloc((size_t)n * sizeof *a);
  c.tick = tickns(s);
  c.ns = wallns();
  c.patience = 1;
  if (!CHECKF(mkgen(&g, s, 5, IDS_POLICY_HOLD, &clk, &e) == IDS_OK, "%s",
              e.msg)) {
    free(a);
    return;
  }
  c.lastid = c.reads;
  for (long i = 0; i < n; i++) {
    int r = ids_generator_next(&g, &a[made], &e);
    c.lastid = c.reads;
    if (r != IDS_OK) {
      CHECKF(0, "%s exhaustion: ID %ld: %s", s->name, i, e.msg);
      break;
    }
    made++;
  }
  /* IDs per tick: every completed tick holds exactly the capacity */
  for (long i = 0; cap && i < made; i++) {
    run++;
    if (i + 1 < made && tickof(s, &a[i + 1]) == tickof(s, &a[i])) continue;
    if (i + 1 < made && (uint64_t)run != cap) short_ticks++;
    run = 0;
  }
  CHECKF(short_ticks == 0, "%s: %ld ticks did not hold %" PRIu64 " IDs",
         s->name, short_ticks, cap);
  CHECKF(!cap || c.waits > 0, "%s: the sequence never ran out", s->name);
  CHECKF(notup(a, made) == 0, "%s exhaustion: IDs not increasing", s->name);
  verify("exhaustion", s, a, made);
  tally(si, "exhaustion at every tick", made, dups(a, made));
  free(a);
}

/* ------------------------------------------------------------- epochs */

/* next() at a frozen clock reading: its code, the ID in *v. */
static int at (const ids_scheme *s, int64_t ns, ids_policy p, ids_value *v,
               ids_error *e) {
  ids_clock clk = {frozen_now, &ns};
  ids_generator g;
  int r = mkgen(&g, s, 1, p, &clk, e);
  if (r == IDS_OK) r = ids_generator_next(&g, v, e);
  return r;
}

/* Before the epoch, its first tick, the last tick the clock reaches (an
** int64_t of ns: some schemes' last tick lies past 2262), one past it;
** at the last tick, exactly a tick's capacity, then IDS_ERANGE, never a
** repeat. */
static void test_epoch (int si, const ids_scheme *s, ids_policy p,
                        int64_t ahead_ms) {
  int64_t first, lo, hi;
  ids_value v, *a;
  ids_error e;
  uint64_t cap = capacity(s);
  long made = 0, n = cap ? (long)cap + 50 : 5000, fails = 0;
  int r;
  if (s->epoch_ms < INT64_MIN / MS) {
    /* an epoch before 1677 (UUIDv1's 1582): every reading of an int64_t
    ** clock lies after it, and a clock wrapped past 2262 reads 1677, a
    ** time in range; readings across the clock's range give increasing
    ** ticks */
    const int64_t ns[] = {INT64_MIN, -NS, 0, INT64_MAX};
    uint64_t last = 0;
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
      r = at(s, ns[k], p, &v, &e);
      if (CHECKF(r == IDS_OK, "%s at %lld ns: %s", s->name,
                 (long long)ns[k], e.msg))
        CHECKF(k == 0 || tickof(s, &v) > last, "%s at %lld ns: tick %"
               PRIu64 " not above %" PRIu64, s->name, (long long)ns[k],
               tickof(s, &v), last);
      last = tickof(s, &v);
    }
    return;
  }
  first = s->epoch_ms * MS;
  if (first > 0) {
    r = at(s, first - 1, p, &v, &e);
    CHECKF(r == IDS_ERANGE && e.msg[0], "%s 1 ns before the epoch: %d (%s)",
           s->name, r, e.msg);
  }
  CHECKF(at(s, -NS, p, &v, &e) == IDS_ERANGE, "%s at 1969: %s", s->name,
         e.msg);
  if (CHECKF(at(s, first, p, &v, &e) == IDS_OK, "%s at the epoch: %s",
             s->name, e.msg))
    CHECKF(tickof(s, &v) == 0, "%s at the epoch: tick %" PRIu64, s->name,
           tickof(s, &v));
  /* the last reading that gives an ID: valid readings are one interval */
  lo = first, hi = INT64_MAX;
  if (at(s, hi, p, &v, &e) != IDS_OK)
    while (hi - lo > 1) {
      int64_t mid = lo + (hi - lo) / 2;
      if (at(s, mid, p, &v, &e) == IDS_OK) lo = mid; else hi = mid;
    }
  else lo = hi;
  if (lo < INT64_MAX) {
    int time_full = 1;
    r = at(s, lo + 1, p, &v, &e);
    CHECKF(r == IDS_ERANGE && e.msg[0], "%s one past the last tick: %d",
           s->name, r);
    /* the last tick is the time field's largest value, every bit set */
    at(s, lo, p, &v, &e);
    {
      uint64_t x[IDS_MAXFIELDS];
      ids_scheme_decompose(s, &v, x);
      for (int i = 0; i < s->nfields; i++)
        if (s->fields[i].kind == IDS_KIND_TIME && i == 0 &&
            x[i] != ((uint64_t)1 << s->fields[i].bits) - 1)
          time_full = 0;
    }
    CHECKF(time_full || s->gen, "%s: the last tick is not the field's "
           "largest value", s->name);
  }
  if (cap > ((uint64_t)1 << 20)) return;    /* ObjectId's: see t_counter */
  /* at the last reading: a tick's worth, then refusals */
  a = xmalloc((size_t)n * sizeof *a);
  {
    /* a clock that stays at the last reading, and moves (past the end)
    ** only while the generator waits, as a real one would */
    jclock c = {0};
    ids_clock clk = {jnow, &c};
    ids_generator g;
    c.ns = lo;
    c.tick = tickns(s);
    c.patience = 1;
    r = mkgen_ahead(&g, s, 1, p, ahead_ms, &clk, &e);
    c.lastid = c.reads;         /* SIQ's init reads the clock */
    if (CHECK(r == IDS_OK))
      for (long i = 0; i < n; i++) {
        r = ids_generator_next(&g, &a[made], &e);
        c.lastid = c.reads;
        if (r == IDS_OK) made++;
        else fails++;
        if (r != IDS_OK && r != IDS_ERANGE) break;
      }
  }
  if (lo < INT64_MAX && cap)
    CHECKF((uint64_t)made == cap && fails == n - made,
           "%s at the last tick (max_ahead_ms %lld): %ld IDs, %ld refusals "
           "(want %" PRIu64 ")", s->name, (long long)ahead_ms, made, fails,
           cap);
  else
    CHECKF(fails == 0 || cap, "%s at the clock's end: %ld refusals",
           s->name, fails);
  CHECKF(notup(a, made) == 0, "%s at the last tick: not increasing", s->name);
  verify("epoch edge", s, a, made);
  tally(si, "epoch edges", made, dups(a, made));
  free(a);
}

/* A scheme whose sequence ends in its qualifier (the `suffix` hook, SIQ's)
** with a time field whose last tick a clock reaches: SIQ's layout with a
** 40-bit timestamp (its last tick falls in 1970).  At that tick, with
** max_ahead_ms, exactly a tick's worth of IDs, then IDS_ERANGE: the
** generator once ran on past the field's end there (its bound was the
** state word's room, not the field's), stamping tick 2^40. */
static void test_suffix_end (void) {
  static ids_scheme narrow;
  const uint64_t last = ((uint64_t)1 << 40) - 1;
  uint64_t cap;
  ids_value a[9000];
  ids_error e;
  long made = 0, fails = 0, outside = 0;
  int64_t ahead;
  narrow = *ids_scheme_find("siq");
  narrow.name = "t_siq40";
  narrow.fields[0].bits = 40;
  if (!CHECK(ids_scheme_register(&narrow) == IDS_OK)) return;
  cap = capacity(&narrow);
  for (ahead = 0; ahead <= 1000; ahead += 1000) {
    jclock c = {0};
    ids_clock clk = {jnow, &c};
    ids_generator g;
    c.ns = siq_tick_ns(last);
    c.tick = tickns(&narrow);
    c.patience = 1;
    made = fails = outside = 0;
    if (!CHECKF(mkgen_ahead(&g, &narrow, 1, IDS_POLICY_HOLD, ahead, &clk,
                            &e) == IDS_OK, "%s", e.msg))
      return;
    c.lastid = c.reads;
    for (long i = 0; i < (long)(sizeof a / sizeof a[0]); i++) {
      int r = ids_generator_next(&g, &a[made], &e);
      c.lastid = c.reads;
      if (r == IDS_OK && tickof(&narrow, &a[made]) > last) outside++;
      if (r == IDS_OK) made++;
      else if (r == IDS_ERANGE) fails++;
      else if (fails++ >= 0) CHECKF(0, "suffix scheme: %d %s", r, e.msg);
    }
    CHECKF((uint64_t)made == cap && outside == 0,
           "suffix scheme at its last tick, max_ahead_ms %lld: %ld IDs (want "
           "%" PRIu64 "), %ld past the field's end", (long long)ahead, made,
           cap, outside);
    CHECKF(made + fails == (long)(sizeof a / sizeof a[0]),
           "suffix scheme at its last tick: refusals other than IDS_ERANGE");
  }
}

/* --------------------------------------------------------------- fork */

static int writeall (int fd, const void *p, size_t n) {
  const char *q = p;
  while (n > 0) {
    ssize_t k = write(fd, q, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    q += k, n -= (size_t)k;
  }
  return 0;
}

/* In the child: the inherited generator refuses (or, purely random, goes
** on: its IDs join the rest), then a generator of its own with node
** `node` makes n IDs; all go up the pipe.  Exit status: 0 if all went
** as it should. */
static int child (const ids_scheme *s, ids_generator *inherited,
                  uint64_t node, long n, int fd) {
  int random_only = !kindof(s, IDS_KIND_NODE) &&
                    !kindof(s, IDS_KIND_SEQUENCE) && !(s->gen && s->gen->suffix);
  ids_value *a = malloc(((size_t)n + 100) * sizeof *a);
  ids_generator g;
  ids_error e;
  long made = 0;
  int status = 0;
  if (a == NULL) return 3;
  for (int i = 0; i < 100; i++) {
    int r = ids_generator_next(inherited, &a[made], &e);
    if (random_only ? r != IDS_OK : r != IDS_EFORK) status = 4;
    if (r == IDS_OK) made++;
  }
  if (mkgen(&g, s, node, IDS_POLICY_HOLD, NULL, &e) != IDS_OK) status = 5;
  else {
    long first = made;
    for (long i = 0; i < n; i++)
      if (ids_generator_next(&g, &a[made], &e) == IDS_OK) made++;
      else status = 6;
    if (kindof(s, IDS_KIND_TIME) && notup(a + first, made - first))
      status = 7;                     /* without time: in no order */
  }
  if (writeall(fd, &made, sizeof made) || writeall(fd, a, (size_t)made *
                                                   sizeof *a))
    status = 8;
  free(a);
  return status;
}

static void test_fork (int si, const ids_scheme *s, long n) {
  long per = n + 100, total = 0, d = 0;
  ids_value *all = xmalloc((size_t)(NCHILD + 2) * (size_t)per * sizeof *all);
  ids_generator g;
  ids_error e;
  pid_t pid[NCHILD];
  int fds[NCHILD];
  long made[NCHILD];
  long count[NCHILD + 2];
  long mine = 0;
  if (!CHECKF(mkgen(&g, s, 0, IDS_POLICY_HOLD, NULL, &e) == IDS_OK, "%s",
              e.msg)) {
    free(all);
    return;
  }
  for (long i = 0; i < n; i++)        /* the parent generates first */
    if (ids_generator_next(&g, &all[mine], &e) == IDS_OK) mine++;
  fflush(NULL);
  for (int k = 0; k < NCHILD; k++) {
    int p[2];
    if (!CHECK(pipe(p) == 0)) return;
    if ((pid[k] = fork()) == 0) {
      int st;
      close(p[0]);
      st = child(s, &g, (uint64_t)k + 1, n, p[1]);
      free(all);                /* the child's copy (memcheck) */
      _exit(st);
    }
    close(p[1]);
    fds[k] = p[0];
  }
  for (long i = 0; i < n; i++)        /* and goes on while they run */
    if (ids_generator_next(&g, &all[mine], &e) == IDS_OK) mine++;
  CHECKF(mine == 2 * n, "%s: the parent made %ld of %ld IDs", s->name, mine,
         2 * n);
  count[0] = mine;
  total = mine;
  for (int k = 0; k < NCHILD; k++) {
    int st = 0;
    ssize_t got;
    size_t want;
    char *q;
    made[k] = 0;
    if (read(fds[k], &made[k], sizeof made[k]) != sizeof made[k] ||
        made[k] < 0 || made[k] > per)
      made[k] = 0;
    want = (size_t)made[k] * sizeof *all;
    q = (char *)&all[total];
    while (want > 0 && (got = read(fds[k], q, want)) > 0)
      q += got, want -= (size_t)got;
    close(fds[k]);
    waitpid(pid[k], &st, 0);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0 && want == 0,
           "%s: child %d ended with status %d (4: the inherited generator "
           "did not refuse, 5-7: its own generator failed)", s->name, k,
           WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st));
    CHECKF(made[k] >= n, "%s: child %d sent %ld IDs", s->name, k, made[k]);
    count[k + 1] = made[k];
    total += made[k];
  }
  verify("fork", s, all, total);
  if (kindof(s, IDS_KIND_NODE) || kindof(s, IDS_KIND_RANDOM))
    d = dups(all, total);             /* parent and children together */
  else {                              /* kuid64: each process on its own */
    long off = 0;
    for (int k = 0; k < NCHILD + 1; k++) {
      d += dups(all + off, count[k]);
      off += count[k];
    }
  }
  tally(si, "16 forked children", total, d);
  free(all);
}

/* ------------------------------------------------------- no time */

/* A scheme without time (UUIDv4, nanoid): no clock to step, no tick to
** exhaust, IDs in no order.  Two threads on one generator, every ID
** collected, sorted and counted twice. */
static void test_unordered (int si, const ids_scheme *s, double secs) {
  /* sorting and checking every ID is what costs here: 4 M a thread */
  long cap = (long)(secs * 4e6), n = 0;
  ids_generator g;
  ids_error e;
  hammer h[2];
  pthread_t t[2];
  ids_value *all;
  if (cap > 8000000) cap = 8000000;
  if (cap < 1000) cap = 1000;
  if (!CHECKF(mkgen(&g, s, 7, IDS_POLICY_HOLD, NULL, &e) == IDS_OK, "%s: %s",
              s->name, e.msg))
    return;
  all = xmalloc(2 * (size_t)cap * sizeof *all);
  for (int k = 0; k < 2; k++) {
    memset(&h[k], 0, sizeof h[k]);
    h[k].g = &g;
    h[k].cap = cap;
    h[k].out = all + k * cap;
    h[k].until = wallns() + (int64_t)(secs * 1e9);
    h[k].batch = k;
    CHECK(pthread_create(&t[k], NULL, hammer_run, &h[k]) == 0);
  }
  for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
  for (int k = 0; k < 2; k++)
    CHECKF(h[k].code == IDS_OK && h[k].n > 0, "%s thread %d: %ld IDs, "
           "code %d: %s", s->name, k, h[k].n, h[k].code, h[k].e.msg);
  memmove(all + h[0].n, all + cap, (size_t)h[1].n * sizeof *all);
  n = h[0].n + h[1].n;
  verify("2 threads, no time", s, all, n);
  tally(si, "2 threads, no time", n, dups(all, n));
  ids_generator_close(&g);
  free(all);
}

/* Whether s has nothing to generate from: only constants (the nil and
** max UUIDs) and hashes of names (UUIDv3, v5): no generator to torture. */
static int constant_only (const ids_scheme *s) {
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind != IDS_KIND_CONSTANT &&
        s->fields[i].kind != IDS_KIND_HASH)
      return 0;
  return 1;
}

/* ---------------------------------------------------------------- run */

/* Every registered scheme (built-in and shipped) is in names[]:
** a new scheme cannot go untortured. */
static void registered (void) {
  size_t n = ids_scheme_list(NULL, 0);
  const char **reg = malloc((n ? n : 1) * sizeof *reg);
  if (!CHECK(reg != NULL)) return;
  n = ids_scheme_list(reg, n);
  for (size_t i = 0; i < n; i++) {
    int found = 0;
    for (int k = 0; k < NSCHEMES; k++) found |= strcmp(reg[i], names[k]) == 0;
    found |= constant_only(ids_scheme_find(reg[i]));
    CHECKF(found, "scheme %s is registered but not tortured (add it to "
           "names[])", reg[i]);
  }
  free(reg);
}

int main (void) {
  double secs = envnum("IDS_TORTURE_SECONDS", 1);
  const char *only = getenv("IDS_TORTURE_ONLY");    /* one scheme, to debug */
  long ncalls = scaled(60000, 3000), nfork = scaled(20000, 200);
  long long total = 0, totaldups = 0;
  int64_t t0 = wallns();
  rounds = (long)envnum("IDS_TORTURE_ROUNDS", 1);
  if (rounds < 1) rounds = 1;
  hammer_secs = secs;
  if (ids_init() != 0) return 2;
  {
    const ids_defspec d = {"t_counter", t_counter, 3, NULL, 0, NULL, 0,
                           NULL};
    const ids_scheme *tc;
    ids_error e;
    CHECKF(ids_scheme_define(&d, &tc, &e) == IDS_OK, "t_counter: %s", e.msg);
  }
  registered();
  for (int si = 0; si < NSCHEMES; si++) {
    const ids_scheme *s = ids_scheme_find(names[si]);
    if (only && strcmp(only, names[si]) != 0) continue;
    if (!CHECKF(s != NULL, "no scheme %s", names[si])) continue;
    timeonly = NULL;
    for (int i = 0; !ids_scheme_ordered(s) && i < s->nfields; i++)
      if (s->fields[i].kind == IDS_KIND_TIME) timeonly = &s->fields[i];
    if (!kindof(s, IDS_KIND_TIME)) {
      for (long r = 0; r < rounds; r++) test_unordered(si, s, secs);
      test_fork(si, s, nfork);
    }
    else {
      for (long r = 0; r < rounds; r++) test_threads(si, s, secs);
      for (size_t k = 0; k < sizeof jcases / sizeof jcases[0]; k++) {
        clock_case(si, s, &jcases[k], IDS_POLICY_HOLD, ncalls);
        clock_case(si, s, &jcases[k], IDS_POLICY_ERROR, ncalls);
      }
      test_exhaustion(si, s, ncalls);
      test_epoch(si, s, IDS_POLICY_HOLD, 0);
      test_epoch(si, s, IDS_POLICY_ERROR, 0);
      test_epoch(si, s, IDS_POLICY_HOLD, 1000); /* no running past the end */
      test_fork(si, s, nfork);
    }
    printf("%-10s %12lld IDs checked, %lld duplicates\n", names[si],
           checked[si], dupsfound[si]);
    fflush(stdout);
    total += checked[si];
    totaldups += dupsfound[si];
  }
  if (!only || strcmp(only, "t_siq40") == 0) test_suffix_end();
  printf("torture: %lld IDs checked, %lld duplicates, %.1f s (threads %.1f s"
         " x %ld rounds per scheme)\n", total, totaldups,
         (double)(wallns() - t0) / 1e9, hammer_secs, rounds);
  return t_done();
}
