/*
** generator.c: clock -> (tick, sequence), never the same twice.
**
** The state is one atomic word, the lowest (tick << seqbits | seq) the next
** ID may take.  A caller loads it, then reads the clock (in that order, so
** that a clock read by a thread that already moved the state is never
** mistaken for a clock going backwards), and claims its ID with one CAS.
** Layouts whose last tick + 1, shifted by seqbits, does not fit 64 bits
** (a ns time with a long sequence) keep it in two words under the lock.
*/
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "slots.h"

/* What an ids_generator holds; nobody outside this file sees it. */
typedef struct gen {
  const ids_scheme *s;
  const ids_gen_ops *ops;     /* the scheme's, or none */
  uint64_t state[2];          /* atomic: the lowest (tick << seqbits |
                                 seq) the next ID may take, in state[0]
                                 (wide: state[1] the high word); step
                                 mode: the last tick + 1 in state[0] */
  ids_value last;             /* step mode: the last random field */
  ids_value base;             /* constant bits: node fields, constants */
  ids_clock clock;
  int64_t base_sec, base_nsec;  /* clock reading at tick base_tick */
  uint64_t base_tick;
  uint64_t max_tick;          /* largest tick the time field holds */
  uint64_t tnum, tden;        /* ticks per nanosecond, num / den */
  uint64_t persec;            /* whole ticks per second, or 0 */
  uint64_t ahead;             /* ticks `hold` may run ahead of the clock
                                 (max_ahead_ms) */
  int64_t maxwait;            /* ns one call may wait (max_wait_ms) */
  uint64_t tick0;             /* suffix mode: the tick the state counts
                                 from */
  int64_t qual;               /* the qualifier to generate by default */
  uint32_t lock;              /* step mode, and the wide state */
  uint32_t stepmask;          /* step mode: a step is 1..stepmask + 1 */
  uint8_t lowhalf;            /* step mode, a field under 48 bits: a tick's
                                 first draw in its lower half */
  unsigned forkgen;           /* ids__forkgen() at creation */
  uint8_t time_field, seq_field, rand_field;
  uint8_t seqbits;
  uint8_t policy;
  uint8_t step;               /* no sequence field: step the random one */
  uint8_t fillrand;           /* random fields drawn afresh per ID (with a
                                 sequence, or beside the stepped one) */
  uint8_t wide;               /* time and sequence overflow 64 bits: the
                                 state is state[0..1], under the lock */
  uint8_t onerun;             /* time and sequence (or stepped random)
                                 fields each one run of bits, the ID one
                                 word (<= 64 bits with a sequence, <= 128
                                 in step mode): put by shifts */
  uint8_t onerun2;            /* the same with a sequence in 65..128 bits
                                 (UUIDv7): put by shifts of two words */
  uint8_t rand1, r1shift, r1bits;  /* the random fields drawn afresh are
                                 one run of at most 64 bits below bit 128
                                 (UUIDv7's 62): drawn a batch at a time */
  /* A node value leased as a slot (node fields the caller did not give).
  ** The ID path loads slot and its word; everything else of the lease is
  ** read under slotlock, which close holds while it takes the lease away
  ** (lease memory is never freed, only reused: slot.c). */
  ids_slot *slot;
  unsigned slotgen;           /* atomic: the slot generation the base
                                 holds; SLOTBUSY while it changes */
  uint32_t slotlock;
  uint64_t limtick;           /* a tick at or before the lease's limit */
  uint64_t floortick;         /* with hasfloor: issue no tick at or below
                                 it (the slot's previous holders') */
  uint8_t hasfloor;
  uint8_t flux;               /* Flux's mode: ticks of the monotonic clock,
                                 on which no wall-clock floor has meaning */
  uint8_t special;            /* suffix mode, a slot, or timeless:
                                 next_special */
  uint8_t timeless;           /* no time field: each ID is its random
                                 fields drawn afresh (UUIDv4, nanoid),
                                 unique by the odds of their bits alone */
  uint8_t carry;              /* the sequence carries on across ticks */
  uint64_t carry_n;           /* carry: IDs made (under the lock) */
  uint64_t carry_start;       /* carry_n at the first ID of the last tick */
  uint64_t carry_add;         /* carry: the random start */
  uint8_t nslotf;
  uint8_t slotf[IDS_MAXFIELDS]; /* the node fields the slot fills, most
                                   significant first */
  uint8_t mono;               /* Flux's mode (start_timestamp): ticks of a
                                 monotonic clock, no time of day */
  /* ids_generator_next_at of a layout without random bits: the last tick
  ** and sequence it made, (tick << seqbits | seq) + 1 (0: none), under
  ** the lock; and the clock's tick when the generator was made (such IDs
  ** are made only for times before it) */
  uint64_t bf, born;
} gen;

_Static_assert(sizeof(gen) <= sizeof(ids_generator),
               "ids_generator too small for its state");

#define G(p) ((gen *)(void *)(p))

static const ids_gen_ops noops;

static void fresh (ids_value *r, unsigned bits);

/* A fresh random value into field f of v (wider than 64 bits too). */
static void draw (const ids_field *f, ids_value *v) {
  ids_value r;
  fresh(&r, f->bits);
  if (f->bits <= 64) ids_field_set(f, v, r.w[0]);
  else
    for (unsigned k = 0; k < f->bits; k += 64) {
      unsigned w = f->bits - k < 64 ? f->bits - k : 64;
      ids_value_set(v, f->shift + k, w, ids_value_get(&r, k, w));
    }
}

/* ---------------------------------------------------------------- time */

/* The clock as seconds and nanoseconds; the wall clock without the
** indirect call (the common case) and without splitting nanoseconds. */
static inline void readnow (const gen *g, int64_t *sec,
                            int64_t *nsec) {
  if (g->clock.now == ids_clock_realtime.now &&
      g->clock.ctx == ids_clock_realtime.ctx) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *sec = ts.tv_sec;
    *nsec = ts.tv_nsec;
  }
  else {
    int64_t ns = g->clock.now(g->clock.ctx);
    *sec = ns / 1000000000;
    *nsec = ns % 1000000000;
    if (*nsec < 0) *nsec += 1000000000, (*sec)--;
  }
}

/* A reading of the generator's clock (seconds and ns) -> tick.
** IDS_ERANGE before the epoch or past the field.  Whole ticks per second
** (every unit but odd fractions) need divisions by constants only, which
** compile to multiplications. */
static inline int tickof (const gen *g, int64_t sec, int64_t nsec,
                          uint64_t *t) {
  unsigned __int128 q;
  if (g->ops->totick) {
    if (sec < 0) return IDS_ERANGE;
    *t = g->ops->totick((uint64_t)sec, (uint64_t)nsec);
    return *t > g->max_tick ? IDS_ERANGE : IDS_OK;
  }
  sec -= g->base_sec;
  nsec -= g->base_nsec;
  if (nsec < 0) nsec += 1000000000, sec--;
  if (sec < 0) return IDS_ERANGE;
  if (g->persec)
    q = (unsigned __int128)(uint64_t)sec * g->persec +   /* 1582 epochs: wide */
        (uint64_t)nsec * g->persec / 1000000000u;
  else    /* exact: ns * tnum does not fit 64 bits for odd fractions */
    q = ((unsigned __int128)sec * 1000000000u + (uint64_t)nsec) * g->tnum /
        g->tden;
  if (q > g->max_tick - g->base_tick) return IDS_ERANGE;
  *t = g->base_tick + (uint64_t)q;
  return IDS_OK;
}

/* The clock now, as a tick. */
static int ticks (const gen *g, uint64_t *t) {
  int64_t sec, nsec;
  readnow(g, &sec, &nsec);
  return tickof(g, sec, nsec, t);
}

static int timefail (const gen *g, ids_error *e) {
  return ids_fail(e, IDS_ERANGE, "%s: the clock is outside the range of "
                  "field %s (before its epoch, or past its end)", g->s->name,
                  g->s->fields[g->time_field].name);
}

/* What a generator waits for when its last ID is ahead of the clock. */
#define CLOCK_AHEAD "the clock to reach the generator's last ID"

static int64_t mono_ns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Sleeps ns (under a second), where sleeping is not a spin anyway: a
** WebAssembly build without threads (emscripten's nanosleep spins on
** clock() scaled to ms in a 32-bit long, which overflows once the clock
** passes 2.1 s: the spin never ends) returns at once, and its caller
** spins on its own clock. */
static void nap (long ns) {
#ifdef __EMSCRIPTEN__
  (void)ns;
#else
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
#endif
}

/* Waits until the clock reaches tick `until` (`what` it waits for, for
** the message): sleeps while far, then spins so that the new tick is seen
** at once.  Bounded by max_wait_ms: a wait that would pass it fails at
** once, one that outlasts it (the clock slower than it said) fails then;
** the interrupt check is asked at least every 10 ms. */
static int waitfor (const gen *g, uint64_t until, const char *what,
                    ids_error *e) {
  int64_t deadline = mono_ns() + g->maxwait;
  uint64_t now;
  while (ticks(g, &now) == IDS_OK) {
    unsigned __int128 ns;
    if (now >= until) return IDS_OK;
    ns = (unsigned __int128)(until - now) * g->tden / g->tnum;   /* roughly */
    if (ns > (unsigned __int128)g->maxwait || mono_ns() > deadline)
      return ids_fail(e, IDS_ETIME, "%s: waiting %.3f s for %s would pass "
                      "max_wait_ms (%lld)", g->s->name,
                      ns > (unsigned __int128)INT64_MAX ? 1e18 : (double)ns / 1e9,
                      what, (long long)(g->maxwait / 1000000));
    if (ids__interrupted())
      return ids_fail(e, IDS_EINTR, "%s: interrupted while waiting for %s",
                      g->s->name, what);
    if (ns > 2000000) nap(ns > 11000000 ? 10000000 : 1000000);
#if defined(__x86_64__) || defined(__i386__)
    else __builtin_ia32_pause();
#endif
  }
  return timefail(g, e);
}

/* ------------------------------------------------------------ generate */

/* The fields the engine works with; constants into the base. */
static int scanfields (gen *g, ids_error *e) {
  const ids_scheme *s = g->s;
  int tf = -1, sf = -1, rf = -1;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->kind == IDS_KIND_TIME && tf < 0) tf = i;
    else if (f->kind == IDS_KIND_SEQUENCE) sf = i;
    else if (f->kind == IDS_KIND_RANDOM && f->once) draw(f, &g->base);
    else if (f->kind == IDS_KIND_RANDOM && rf < 0) rf = i;
    else if (f->kind == IDS_KIND_CONSTANT)
      ids_field_set(f, &g->base, f->value);
    else if (f->kind == IDS_KIND_HASH && f->from == NULL)  /* UUIDv5's */
      return ids_fail(e, IDS_EINVAL, "%s: its IDs are hashes of names "
                      "(field '%s'): nothing to generate them from",
                      s->name, f->name);
  }
  if (tf < 0 && sf < 0 && rf >= 0) {    /* random alone: nothing to order */
    for (int i = 0; i < s->nfields; i++)
      if (s->fields[i].kind == IDS_KIND_NODE ||
          s->fields[i].kind == IDS_KIND_HASH)
        return ids_fail(e, IDS_EINVAL, "%s: a node field needs a time field "
                        "to be leased by", s->name);
    g->timeless = g->fillrand = 1;
    return IDS_OK;
  }
  if (tf < 0 && sf < 0) {
    int k = 0;
    while (k < s->nfields && s->fields[k].kind == IDS_KIND_CONSTANT) k++;
    if (k == s->nfields)
      return ids_fail(e, IDS_EINVAL, "%s: every bit is a constant: it has "
                      "one ID and nothing to generate", s->name);
  }
  if (tf < 0 || (sf < 0 && rf < 0))
    return ids_fail(e, IDS_EINVAL, "%s: no time field and sequence or "
                    "random field to generate from", s->name);
  g->time_field = (uint8_t)tf;
  g->step = sf < 0;
  g->seq_field = (uint8_t)(sf < 0 ? 0 : sf);
  g->rand_field = (uint8_t)(rf < 0 ? 0 : rf);
  g->seqbits = g->ops->suffix ? (uint8_t)g->ops->seqbits :
               sf < 0 ? 0 : s->fields[sf].bits;
  g->fillrand = sf >= 0 && rf >= 0;
  g->onerun = !s->fields[tf].nparts &&   /* UUIDv1's time is in 3 runs */
              (sf < 0 ? s->bits <= 128 :
                        s->bits <= 64 && !s->fields[sf].nparts);
  g->onerun2 = !g->onerun && sf >= 0 && !s->fields[tf].nparts &&
               !s->fields[sf].nparts && s->bits <= 128;
  if (sf >= 0 && s->fields[sf].carry) {   /* ObjectId's counter */
    ids_value r;
    if (s->fields[sf].bits >= 64)
      return ids_fail(e, IDS_EINVAL, "%s: a counter of 64 bits cannot "
                      "say when a tick is full", s->name);
    fresh(&r, s->fields[sf].bits);
    g->carry = 1;
    g->carry_add = r.w[0];
  }
  g->max_tick = g->ops->totick ? g->ops->max_tick :
                s->fields[tf].bits >= 64 ? ~(uint64_t)0 :
                ((uint64_t)1 << s->fields[tf].bits) - 1;
  if (rf >= 0) {         /* a step scaled to the field, at most 2^32 */
    unsigned b = s->fields[rf].bits, w = b >= 48 ? 32 : b > 16 ? b - 16 :
                                                      b / 2;
    g->stepmask = w == 32 ? 0xffffffffu : (1u << w) - 1;
    /* a draw near the top of a narrow field would leave a tick room for a
    ** few steps (a 24-bit field's last 0.1%: 100 IDs, then a wait); in
    ** the lower half it holds at least 2^15 steps (2^(b/2 - 1) for 16
    ** bits or fewer), for one bit less of the first ID's randomness */
    g->lowhalf = b < 48;
    for (int i = 0; i < s->nfields; i++)   /* random fields besides it */
      if (s->fields[i].kind == IDS_KIND_RANDOM && !s->fields[i].once &&
          i != rf)
        g->fillrand = 1;
  }
  if (g->fillrand) {                     /* one plain run: the fast way */
    int nf = 0, one = -1;
    for (int i = 0; i < s->nfields; i++)
      if (s->fields[i].kind == IDS_KIND_RANDOM && !s->fields[i].once &&
          (!g->step || i != g->rand_field))
        nf++, one = i;
    if (nf == 1 && !s->fields[one].nparts && s->fields[one].bits <= 64 &&
        s->fields[one].shift + s->fields[one].bits <= 128) {
      g->rand1 = 1;
      g->r1shift = (uint8_t)s->fields[one].shift;
      g->r1bits = (uint8_t)s->fields[one].bits;
    }
  }
  return IDS_OK;
}

/* The scheme's own options by role (ranges were checked when they were
** set): node fields and hashed names into the base, the epoch, Flux's
** start, the default qualifier. */
static int useopts (gen *g, const ids_optval *o, int64_t *epoch_ms,
                    int64_t *start, ids_error *e) {
  const ids_scheme *s = g->s;
  for (int i = 0; i < s->ngenopts; i++) {
    const ids_optdef *d = &s->genopts[i];
    int fi, fj, r;
    uint64_t x = (uint64_t)(o[i].set ? o[i].i : d->dflt);
    switch (ids__options_role(s, i, &fi)) {
    case IDS_ROLE_EPOCH:
      *epoch_ms = (int64_t)x;
      continue;
    case IDS_ROLE_START:
      if (o[i].set) *start = (int64_t)x;
      continue;
    case IDS_ROLE_QUALIFIER:
      if (o[i].set && (g->qual = ids_scheme_qualifier(s, o[i].s, o[i].len))
          < 0)
        return ids_fail(e, IDS_EINVAL, "%s: unknown qualifier '%.*s'",
                        s->name, (int)(o[i].len > 32 ? 32 : o[i].len),
                        o[i].s);
      continue;
    case IDS_ROLE_HASHED:
      if (!o[i].set || !s->layout || !s->layout->hashname) continue;
      for (int j = 0; j < s->ngenopts; j++)  /* one way, not both */
        if (o[j].set && ids__options_role(s, j, &fj) == IDS_ROLE_NODE &&
            fj == fi)
          return ids_fail(e, IDS_EINVAL, "%s: give %s or %s, not both",
                          s->name, d->name, s->fields[fi].name);
      if ((r = s->layout->hashname(s, fi, o[i].s, o[i].len, &x, e)) != IDS_OK)
        return r;
      break;
    case IDS_ROLE_NODE:
      if (!o[i].set) continue;
      break;
    case IDS_ROLE_NONE:
      continue;
    }
    ids_field_set(&s->fields[fi], &g->base, x);
  }
  return IDS_OK;
}

static uint64_t gcd (uint64_t a, uint64_t b) {
  while (b) { uint64_t t = a % b; a = b; b = t; }
  return a;
}

/* Clock and tick arithmetic: the wall clock from the epoch, or Flux's
** monotonic clock from `start`. */
static int settime (gen *g, int64_t epoch_ms, int64_t start,
                    const ids_clock *clock, ids_error *e) {
  const ids_scheme *s = g->s;
  uint64_t num, den, k;
  if (epoch_ms < IDS_EPOCH_MIN || epoch_ms > IDS_EPOCH_MAX)
    return ids_fail(e, IDS_ERANGE, "%s: epoch %lld ms is out of range",
                    s->name, (long long)epoch_ms);
  /* ticks per nanosecond = num / (den * 1e9), reduced */
  num = s->unit.per_sec_num;
  den = s->unit.per_sec_den * 1000000000u;
  k = gcd(num, den);
  g->tnum = num / k;
  g->tden = den / k;
  if (s->unit.per_sec_den == 1 && num <= 1000000000u) g->persec = num;
  if (start >= 0) {            /* Flux's mode: monotonic, from `start` */
    int64_t ns;
    g->mono = 1;
    g->clock = clock ? *clock : ids_clock_monotonic;
    ns = g->clock.now(g->clock.ctx);
    if (g->tnum == 1) ns -= ns % (int64_t)g->tden;   /* on a tick */
    g->base_sec = ns / 1000000000;
    g->base_nsec = ns % 1000000000;
    g->base_tick = (uint64_t)start;
  }
  else {
    g->clock = clock ? *clock : ids_clock_realtime;
    g->base_sec = epoch_ms / 1000;
    g->base_nsec = epoch_ms % 1000 * 1000000;
    if (g->base_nsec < 0) g->base_nsec += 1000000000, g->base_sec--;
  }
  return IDS_OK;
}

/* ------------------------------------------------------------- slots */

#define SLOTBUSY  (~0u)

static void lock (uint32_t *l);
static void unlock (uint32_t *l);

/* Wall time in the generator's clock (ns) -> the tick holding it; 0 before
** the epoch, the last tick past the field. */
static uint64_t tickat (const gen *g, int64_t ns) {
  int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
  uint64_t t;
  if (nsec < 0) nsec += 1000000000, sec--;
  if (tickof(g, sec, nsec, &t) == IDS_OK) return t;
  return sec < g->base_sec ? 0 : g->max_tick;
}

/* Is node field i given by an option (its value, or a name hashed into
** it)? */
static int given (const gen *g, const ids_optval *o, int i) {
  const ids_scheme *s = g->s;
  for (int j = 0; j < s->ngenopts; j++) {
    int fj;
    ids_optrole r = ids__options_role(s, j, &fj);
    if (o[j].set && fj == i && (r == IDS_ROLE_NODE || r == IDS_ROLE_HASHED))
      return 1;
  }
  return 0;
}

static int closed (const gen *g, ids_error *e) {
  return ids_fail(e, IDS_ELEASE, "%s: the generator is closed (its slot "
                  "was released)", g->s->name);
}

/* The lease's own account of why it is not valid now, or "closed". */
static int slotfail (gen *g, ids_error *e) {
  int r;
  lock(&g->slotlock);
  r = g->slot ? ids_slot_fail(g->slot, e) : closed(g, e);
  unlock(&g->slotlock);
  return r;
}

/* The slot's number into its node fields, its floor, and then its
** generation, so that an ID made meanwhile is known to be stale. */
static int refresh (gen *g, ids_error *e) {
  uint32_t num;
  int64_t floor;
  unsigned sgen;
  uint64_t x;
  lock(&g->slotlock);
  if (g->slot == NULL) {
    unlock(&g->slotlock);
    return closed(g, e);
  }
  ids_slot_state(g->slot, &num, &floor, &sgen);
  __atomic_store_n(&g->slotgen, SLOTBUSY, __ATOMIC_RELEASE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  x = num;
  for (int k = g->nslotf - 1; k >= 0; k--) {   /* least significant first */
    const ids_field *f = &g->s->fields[g->slotf[k]];
    ids_field_set(f, &g->base, x);
    x = f->bits >= 64 ? 0 : x >> f->bits;
  }
  g->hasfloor = floor > 0 && !g->flux;
  g->floortick = g->hasfloor ? tickat(g, floor) : 0;
  __atomic_store_n(&g->limtick, 0, __ATOMIC_RELAXED);   /* read unlocked */
  __atomic_store_n(&g->slotgen, sgen, __ATOMIC_RELEASE);
  unlock(&g->slotlock);
  return IDS_OK;
}

/* Claims the slot that fills the node fields no option gave (option
** "slots": a store, "local" by default, or "none" to refuse).  A slot
** number is the whole node value, its fields side by side (most
** significant first), so that generators that give some node fields and
** lease the rest share one slot space with those that lease them all:
** the given fields are the claim's fixed bits, and the namespace records
** the fields and widths a number stands for (its meaning).  Node fields
** wider than a slot's 16 bits together are leased whole or given whole. */
static int claimslot (gen *g, const ids_options *o, const ids_optval *vals,
                      int64_t start, ids_error *e) {
  const ids_scheme *s = g->s;
  const char *url = ids__options_slots(o), *ns = ids__options_namespace(o);
  ids_slot_options so = {0};
  char meaning[64];
  unsigned bits = 0, pos = 0, m = 0;
  int r, free_ = -1, fixed = -1;
  int keep = ids__options_lease(o, &so.ttl_ms, &so.timeout_ms);
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_NODE) {
      g->slotf[g->nslotf++] = (uint8_t)i;
      bits += s->fields[i].bits;
      if (given(g, vals, i)) { if (fixed < 0) fixed = i; }
      else if (free_ < 0) free_ = i;
    }
  if (g->nslotf == 0) return IDS_OK;     /* no node: nothing to lease */
  if (free_ < 0) {                      /* every node field given */
    g->nslotf = 0;
    if (ids__options_slots_given(o) && strcmp(url, "none") != 0)
      return ids_fail(e, IDS_EINVAL, "%s: slots = \"%.60s\" asks for a "
                      "lease, but every node field is given (%s): give "
                      "one or the other", s->name, url,
                      s->fields[g->slotf[0]].name);
    return IDS_OK;
  }
  if (strcmp(url, "none") == 0)
    return ids_fail(e, IDS_EINVAL, "%s: node field %s not given, and slots "
                    "= \"none\"", s->name, s->fields[free_].name);
  if (start >= 0 && strcmp(url, "local") != 0 &&
      strncmp(url, "local:", 6) != 0)
    return ids_fail(e, IDS_EINVAL, "%s: start_timestamp (Flux's monotonic "
                    "clock) takes node field %s given, or a local slot: a "
                    "lease's handover works on wall-clock time", s->name,
                    s->fields[free_].name);
  if (bits > IDS_SLOT_MAXBITS && fixed >= 0)
    return ids_fail(e, IDS_EINVAL, "%s: node fields of %u bits, more than a "
                    "slot's %d: give %s too, or no node field", s->name,
                    bits, IDS_SLOT_MAXBITS, s->fields[free_].name);
  /* least significant first: the fixed bits, and the meaning's text */
  for (int k = g->nslotf - 1; k >= 0; k--) {
    const ids_field *f = &s->fields[g->slotf[k]];
    if (pos < 32 && given(g, vals, g->slotf[k])) {
      uint32_t ones = f->bits >= 32 ? ~0u : (1u << f->bits) - 1;
      so.fixed_mask |= ones << pos;
      so.fixed_value |= (uint32_t)ids_field_get(f, &g->base) << pos;
    }
    pos += f->bits;
  }
  for (int k = 0; k < g->nslotf; k++)
    m += (unsigned)snprintf(meaning + m, m < sizeof meaning ? sizeof meaning
                            - m : 0, "%s%s:%u", k ? "," : "",
                            s->fields[g->slotf[k]].name,
                            s->fields[g->slotf[k]].bits);
  if (bits > IDS_SLOT_MAXBITS && m < sizeof meaning)
    snprintf(meaning + m, sizeof meaning - m, "/%d", IDS_SLOT_MAXBITS);
  so.meaning = meaning;
  so.keep_log = keep;
  so.max_ahead_ms = ids__options_ahead(o);
  /* the slot sees the generator's clock (an injected one, in tests) */
  so.clock_offset_ns = g->clock.now(g->clock.ctx) -
                       ids_clock_realtime.now(ids_clock_realtime.ctx);
  r = ids_slot_claim(url, ns ? ns : s->name,
                     bits < IDS_SLOT_MAXBITS ? bits : IDS_SLOT_MAXBITS, &so,
                     &g->slot, e);
  if (r != IDS_OK) return r;
  g->flux = start >= 0;
  return refresh(g, e);
}

/* Suffix mode's state counts ticks from tick0, 2^(56 - seqbits) ticks
** before the first clock reading (room for a clock stepped back: some 194
** days for SIQ), so that tick and tail fit one word for 2^(64 - seqbits)
** ticks (136 years for SIQ). */
#define BACK(sb)    ((uint64_t)1 << (56 - (sb)))
#define MAXOFF(sb)  (((uint64_t)1 << (64 - (sb))) - 2)

int ids_generator_init (ids_generator *pub, const ids_scheme *s,
                        const ids_options *o, const ids_clock *clock,
                        ids_error *e) {
  static const ids_optval unset[IDS_MAXOPTS];
  const ids_optval *vals = o ? ids__options_values(o) : unset;
  int64_t epoch_ms = s->epoch_ms, start = -1;
  gen *g = G(pub);
  int r;
  if (o && (ids__options_scheme(o) != s || !ids__options_generator(o)))
    return ids_fail(e, IDS_EINVAL, "%s: options made %s", s->name,
                    ids__options_generator(o) ? "for another scheme" :
                    "by ids_params_init (scheme parameters)");
  memset(pub, 0, sizeof *pub);
  g->s = s;
  g->ops = s->gen ? s->gen : &noops;
  g->policy = (uint8_t)ids__options_policy(o);
  g->qual = s->nquals ? (int64_t)s->quals[0].value : -1;
  if ((r = scanfields(g, e)) != IDS_OK ||
      (r = useopts(g, vals, &epoch_ms, &start, e)) != IDS_OK ||
      (r = settime(g, epoch_ms, start, clock, e)) != IDS_OK)
    return r;
  g->ahead = (uint64_t)((unsigned __int128)ids__options_ahead(o) * 1000000u *
                        g->tnum / g->tden);
  g->maxwait = ids__options_wait(o) * 1000000;
  {                                       /* step "one": the ULID spec's */
    int given, one = ids__options_step(o, &given);
    if (given && !g->step)
      return ids_fail(e, IDS_EINVAL, "%s: option 'step' is for layouts "
                      "that step a random field within a tick (ULID, "
                      "KSUID, Flax); this one counts a sequence", s->name);
    if (one) g->stepmask = 0;             /* a step of 1..0 + 1 */
  }
  if (g->ops->suffix) {
    uint64_t now = 0;
    if (ticks(g, &now) == IDS_OK && now > BACK(g->seqbits))
      g->tick0 = now - BACK(g->seqbits);
  }
  /* the state word overflows: (max_tick + 1) << seqbits >= 2^64 */
  else g->wide = !g->step && !g->timeless && (g->seqbits >= 64 ||
                 g->max_tick >= ((uint64_t)1 << (64 - g->seqbits)) - 1);
  g->forkgen = ids__forkgen();
  /* the wall clock's tick now, for next_at; an injected clock is not
  ** read here (tests count its readings): then next_at makes no IDs of
  ** a sequence alone */
  if (g->clock.now != ids_clock_realtime.now ||
      g->clock.ctx != ids_clock_realtime.ctx || ticks(g, &g->born) != IDS_OK)
    g->born = 0;
  if ((r = claimslot(g, o, vals, start, e)) != IDS_OK) return r;
  g->special = g->ops->suffix != NULL || g->nslotf != 0 || g->timeless ||
               g->carry;
  return IDS_OK;
}

const ids_scheme *ids_generator_scheme (const ids_generator *g) {
  return G(g)->s;
}

static int forked (const gen *g, ids_error *e) {
  return ids_fail(e, IDS_EFORK, "%s: generator used in a forked child; "
                  "create generators after fork (OpenResty: in "
                  "init_worker_by_lua)", g->s->name);
}

static int backwards (const gen *g, ids_error *e) {
  return ids_fail(e, IDS_ECLOCK, "%s: the clock went backwards", g->s->name);
}

/* The state word holds (tick - base) << sb | seq, up to tick base + maxoff.
** The next ID is the smallest at or above both the state and the clock
** whose low bits under smask are `suf` (SIQ's type suffix; smask 0 for a
** plain sequence).  A tick ahead of the clock that no ID has used yet is
** taken only within g->ahead; else the clock is awaited.  A plain
** sequence (smask 0) may claim up to `want` values of one tick at once:
** *seq is the first, *got how many.  Callers pass constants where they
** can, so the plain case compiles to what it needs. */
static inline int counter (gen *g, uint64_t *state, unsigned sb,
                           uint64_t base, uint64_t maxoff, uint64_t smask,
                           uint64_t suf, uint64_t want, uint64_t *tick,
                           uint64_t *seq, uint64_t *got, ids_error *e) {
  const uint64_t seqmask = ((uint64_t)1 << sb) - 1;
  uint64_t c, id, now, t, k = 1;
  for (;;) {
    c = __atomic_load_n(state, __ATOMIC_ACQUIRE);
    if (ticks(g, &now) != IDS_OK) return timefail(g, e);
    if (now < base) {                    /* never when base is 0 */
      if (c == 0) return timefail(g, e);
      id = 0;
    }
    else id = (now - base) << sb;
    if (id < c) {                        /* the clock is at or behind c */
      if (g->policy == IDS_POLICY_ERROR && now < base + ((c - 1) >> sb))
        return backwards(g, e);
      id = c + ((suf - c) & smask);
      t = id >> sb;
      if (t > maxoff) return timefail(g, e);
      if (base + t > now && t != (c - 1) >> sb &&   /* a new tick, ahead */
          base + t - now > g->ahead) {
        int r = waitfor(g, base + t - g->ahead, CLOCK_AHEAD, e);
        if (r != IDS_OK) return r;
        continue;
      }
    }
    else {
      id += suf;                         /* the low sb bits of id are 0 */
      t = id >> sb;
      if (t > maxoff) return timefail(g, e);
    }
    if (want > 1) {                      /* the rest of the tick at most */
      k = seqmask - (id & seqmask) + 1;
      if (k > want) k = want;
    }
    if (__atomic_compare_exchange_n(state, &c, id + k, 0,
                                    __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
      break;
  }
  *tick = base + t;
  *seq = id & seqmask;
  *got = k;
  return IDS_OK;
}

static void lock (uint32_t *l);
static void unlock (uint32_t *l);

/* The same rules with the state in two words (state[1] high), under the
** lock: for time and sequence fields that together pass 64 bits. */
static int counter_wide (gen *g, uint64_t *tick, uint64_t *seq,
                         ids_error *e) {
  typedef unsigned __int128 u128;
  const unsigned sb = g->seqbits;
  u128 c, id;
  uint64_t now, t;
  int r = IDS_OK;
  lock(&g->lock);
  for (;;) {
    c = (u128)g->state[1] << 64 | g->state[0];
    if (ticks(g, &now) != IDS_OK) { r = timefail(g, e); break; }
    id = (u128)now << sb;
    if (id < c) {
      if (g->policy == IDS_POLICY_ERROR && now < (uint64_t)((c - 1) >> sb))
        { r = backwards(g, e); break; }
      id = c;
    }
    if ((id >> sb) > g->max_tick) { r = timefail(g, e); break; }
    t = (uint64_t)(id >> sb);
    if (t > now && t != (uint64_t)((c - 1) >> sb) && t - now > g->ahead) {
      unlock(&g->lock);                  /* wait without holding it */
      if ((r = waitfor(g, t - g->ahead, CLOCK_AHEAD, e)) != IDS_OK) return r;
      lock(&g->lock);
      continue;
    }
    c = id + 1;
    g->state[0] = (uint64_t)c;
    g->state[1] = (uint64_t)(c >> 64);
    *tick = t;
    *seq = (uint64_t)(id & (((u128)1 << sb) - 1));
    break;
  }
  unlock(&g->lock);
  return r;
}

/* Random fields drawn afresh per ID: beside a sequence (UUIDv7's), or
** beside the one field that step mode steps. */
static void fillrand (const gen *g, ids_value *v) {
  if (g->rand1) {                        /* one run: OR the bits in */
    typedef unsigned __int128 u128;
    uint64_t r;
    u128 x;
    ids_random(&r, sizeof r);
    if (g->r1bits < 64) r &= ((uint64_t)1 << g->r1bits) - 1;
    x = (u128)r << g->r1shift;
    v->w[0] |= (uint64_t)x;
    v->w[1] |= (uint64_t)(x >> 64);
    return;
  }
  for (int i = 0; i < g->s->nfields; i++) {
    const ids_field *f = &g->s->fields[i];
    if (f->kind == IDS_KIND_RANDOM && !f->once &&
        (!g->step || i != g->rand_field))
      draw(f, v);
  }
}

/* Tick and sequence into the layout. */
static inline void put (const gen *g, uint64_t tick, uint64_t seq,
                        ids_value *v) {
  const ids_field *tf = &g->s->fields[g->time_field];
  const ids_field *sf = &g->s->fields[g->seq_field];
  if (g->ops->place) {
    *v = g->base;
    g->ops->place(g->s, tick, seq, v);
  }
  else if (g->onerun) {
    v->w[0] = g->base.w[0] | tick << tf->shift | seq << sf->shift;
    v->w[1] = v->w[2] = 0;
  }
  else if (g->onerun2) {                 /* UUIDv7: two words by shifts */
    typedef unsigned __int128 u128;
    u128 x = ((u128)g->base.w[1] << 64 | g->base.w[0]) |
             (u128)tick << tf->shift | (u128)seq << sf->shift;
    v->w[0] = (uint64_t)x;
    v->w[1] = (uint64_t)(x >> 64);
    v->w[2] = 0;
  }
  else {                                 /* wide, or split (UUIDv1) */
    *v = g->base;
    ids_field_set(tf, v, tick);
    ids_field_set(sf, v, seq);
  }
}

/* put, and the random fields: one ID */
static inline void put1 (const gen *g, uint64_t tick, uint64_t seq,
                         ids_value *v) {
  put(g, tick, seq, v);
  if (g->fillrand) fillrand(g, v);
}

/* The random fields of k IDs: one run's bits drawn for many IDs with one
** call to the pool (a call a draw cost more than the draw itself). */
static void fillrand_n (const gen *g, ids_value *v, size_t k) {
  typedef unsigned __int128 u128;
  uint64_t r[64];
  uint64_t mask = g->r1bits < 64 ? ((uint64_t)1 << g->r1bits) - 1 : ~0ull;
  if (!g->rand1) {
    for (size_t i = 0; i < k; i++) fillrand(g, &v[i]);
    return;
  }
  while (k > 0) {
    size_t m = k < 64 ? k : 64;
    ids_random(r, m * sizeof *r);
    for (size_t i = 0; i < m; i++) {
      u128 x = (u128)(r[i] & mask) << g->r1shift;
      v[i].w[0] |= (uint64_t)x;
      v[i].w[1] |= (uint64_t)(x >> 64);
    }
    v += m;
    k -= m;
  }
}

/* Tick and sequence from the one atomic word. */
static int next_counter (gen *g, ids_value *v, uint64_t *tk, ids_error *e) {
  uint64_t tick = 0, seq = 0, one;
  int r = g->wide ? counter_wide(g, &tick, &seq, e) :
          counter(g, &g->state[0], g->seqbits, 0, g->max_tick, 0, 0, 1,
                  &tick, &seq, &one, e);
  if (r != IDS_OK) return r;
  *tk = tick;
  put1(g, tick, seq, v);
  return IDS_OK;
}

static void lock (uint32_t *l) {
  while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
}

static void unlock (uint32_t *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/* r = random bits for a field of `bits` bits. */
static void fresh (ids_value *r, unsigned bits) {
  /* random words straight from the pool (their byte order is as random as
  ** any other), then only `bits` bits kept */
  unsigned nw = (bits + 63) / 64;
  r->w[0] = r->w[1] = r->w[2] = 0;
  ids_random(r->w, (bits + 7) / 8 <= 8 * nw ? (bits + 7) / 8 : 8 * nw);
  if (bits % 64) r->w[nw - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
}

/* r += a positive step of 1..mask + 1 (2^32 for wide fields, less for
** narrow ones, so that a tick holds many), unpredictable; 0 if it leaves
** `bits`. */
static int stepup (ids_value *r, unsigned bits, uint32_t mask) {
  uint32_t k;
  unsigned __int128 c;
  ids_random(&k, sizeof k);
  c = (unsigned __int128)r->w[0] + (k & mask) + 1;
  r->w[0] = (uint64_t)c;
  c = (unsigned __int128)r->w[1] + (uint64_t)(c >> 64);
  r->w[1] = (uint64_t)c;
  r->w[2] += (uint64_t)(c >> 64);
  return ids_value_fits(r, bits);
}

/* A step-mode ID: tick `now`, random field r. */
static inline void step_put (const gen *g, uint64_t now, const ids_value *r,
                             ids_value *v) {
  const ids_field *tf = &g->s->fields[g->time_field];
  const ids_field *rf = &g->s->fields[g->rand_field];
  if (g->onerun) {                       /* Flax, ULID: one wide word */
    unsigned __int128 x = (unsigned __int128)g->base.w[1] << 64 |
                          g->base.w[0];
    x |= (unsigned __int128)now << tf->shift |
         ((unsigned __int128)r->w[1] << 64 | r->w[0]) << rf->shift;
    v->w[0] = (uint64_t)x;
    v->w[1] = (uint64_t)(x >> 64);
    v->w[2] = 0;
  }
  else {
    *v = g->base;
    ids_field_set(tf, v, now);
    for (unsigned k = 0; k < rf->bits; k += 64) {    /* fields over 64 bits */
      unsigned w = rf->bits - k < 64 ? rf->bits - k : 64;
      ids_value_set(v, rf->shift + k, w, ids_value_get(r, k, w));
    }
  }
}

/* Schemes without a sequence: within one tick, each ID adds a random
** positive step to the first (most significant) random field instead of
** drawing a fresh one (so IDs still increase); a new tick draws afresh.
** Other random fields are drawn afresh for every ID.  Makes up to n IDs
** of one tick with one clock read and one hold of the lock, each a step
** above the one before; *got says how many. */
static int next_step (gen *g, ids_value *v, size_t n, size_t *got,
                      uint64_t *tk, ids_error *e) {
  const ids_field *rf = &g->s->fields[g->rand_field];
  uint64_t now = 0, last;
  ids_value r;
  size_t k = 0;
  int rc;
  /* the clock is read before the lock, to keep the lock short; a reading
  ** that another thread overtook meanwhile is read again under it */
  if ((rc = ticks(g, &now)) != IDS_OK) return timefail(g, e);
  lock(&g->lock);
  for (int again = 1;; ) {
    last = g->state[0] - 1;              /* state 0: nothing issued yet */
    if (g->state[0] == 0 || now > last) {
      fresh(&r, rf->bits);
      if (g->lowhalf) r.w[0] &= ~((uint64_t)1 << (rf->bits - 1));
      break;
    }
    if (now < last && again) {
      again = 0;
      if (ticks(g, &now) != IDS_OK) { rc = timefail(g, e); break; }
      continue;
    }
    if (g->policy == IDS_POLICY_ERROR && now < last) {
      rc = ids_fail(e, IDS_ECLOCK, "%s: the clock went backwards",
                    g->s->name);
      break;
    }
    r = g->last;
    if (stepup(&r, rf->bits, g->stepmask)) {
      now = last;                        /* hold the last tick */
      break;
    }
    if (last < g->max_tick && last + 1 - now <= g->ahead) {
      now = last + 1;                    /* run ahead, within max_ahead: */
      continue;                          /* a fresh draw at the next tick */
    }
    if ((rc = waitfor(g, last + 1 - g->ahead, CLOCK_AHEAD, e)) != IDS_OK)
      break;
    if (ticks(g, &now) != IDS_OK) { rc = timefail(g, e); break; }
  }
  if (rc == IDS_OK) {
    step_put(g, now, &r, &v[k++]);
    while (k < n) {                      /* the rest of a batch: steps */
      ids_value s = r;
      if (!stepup(&s, rf->bits, g->stepmask)) break;
      r = s;
      step_put(g, now, &r, &v[k++]);
    }
    *tk = now;
    g->state[0] = now + 1;
    /* word by word: r was just written so (stepup, fresh), and a 16-byte
    ** load of it would stall on store forwarding */
    g->last.w[0] = __atomic_load_n(&r.w[0], __ATOMIC_RELAXED);
    g->last.w[1] = __atomic_load_n(&r.w[1], __ATOMIC_RELAXED);
    g->last.w[2] = __atomic_load_n(&r.w[2], __ATOMIC_RELAXED);
  }
  unlock(&g->lock);
  if (__builtin_expect(g->fillrand, 0)) fillrand_n(g, v, k);
  *got = k;
  return rc;
}

/* After fork, a purely random generator (no sequence, no node) draws
** afresh in the child; any other would repeat its parent's IDs. */
/* forkgen while one thread of a child resets the generator */
#define RESETTING (~0u)

static int afterfork (gen *g, ids_error *e) {
  for (int i = 0; i < g->s->nfields; i++)
    if (g->s->fields[i].kind == IDS_KIND_NODE || g->s->fields[i].kind == IDS_KIND_HASH)
      return forked(g, e);
  if (!g->step) return forked(g, e);
  /* Another thread of the parent may have held the lock at fork: it does
  ** not exist here, so nobody will release it.  One thread of the child
  ** resets the lock and the state; any other that comes meanwhile waits
  ** for it (two resets could free a lock that the first one's caller
  ** already holds again). */
  for (unsigned seen = __atomic_load_n(&g->forkgen, __ATOMIC_ACQUIRE);
       seen != ids__forks; seen = __atomic_load_n(&g->forkgen, __ATOMIC_ACQUIRE)) {
    if (seen != RESETTING &&
        __atomic_compare_exchange_n(&g->forkgen, &seen, RESETTING, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      __atomic_store_n(&g->lock, 0, __ATOMIC_RELAXED);
      g->state[0] = 0;
      __atomic_store_n(&g->forkgen, ids__forks, __ATOMIC_RELEASE);
      break;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  return IDS_OK;
}

/* Schemes whose sequence ends in the qualifier (SIQ): one tail per tick
** shared by every qualifier, so that a generator's IDs strictly increase
** whatever they are; each ID takes the smallest tail above the last that
** ends in its qualifier's suffix.  A qualifier alone still gets all of its
** values in a tick. */
static int next_suffix (gen *g, int64_t qual, ids_value *v, uint64_t *tk,
                        ids_error *e) {
  unsigned n;
  uint64_t q = (uint64_t)(qual < 0 ? g->qual : qual), suf, tick = 0,
           tail = 0, one, maxoff = MAXOFF(g->seqbits);
  int r;
  if (g->ops->suffix(g->s, q, &n, &suf) != 0)
    return ids_fail(e, IDS_EINVAL, "%s: %lld is not a qualifier", g->s->name,
                    (long long)qual);
  /* the state word's room, and the time field's last tick (tick0 is at
  ** or below it): running ahead must not pass the field's end */
  if (g->max_tick - g->tick0 < maxoff) maxoff = g->max_tick - g->tick0;
  r = counter(g, &g->state[0], g->seqbits, g->tick0, maxoff,
              ((uint64_t)1 << n) - 1, suf, 1, &tick, &tail, &one, e);
  if (r != IDS_OK) return r;
  *tk = tick;
  *v = g->base;
  g->ops->place(g->s, tick, tail, v);
  return IDS_OK;
}

/* A sequence that carries on across ticks (ObjectId's counter): it
** counts every ID of the generator from a random start, and a tick holds
** at most 2^seqbits of them, so that no value repeats within a tick; a
** full tick runs ahead as a plain sequence does.  Under the lock:
** state[0] is the last tick + 1 (0: none yet). */
static int next_carry (gen *g, ids_value *v, uint64_t *tk, ids_error *e) {
  const uint64_t room = (uint64_t)1 << g->seqbits;
  uint64_t now, t, last;
  int r = IDS_OK;
  lock(&g->lock);
  for (;;) {
    last = g->state[0];
    if (ticks(g, &now) != IDS_OK) { r = timefail(g, e); break; }
    if (last == 0 || now >= last) {      /* a tick after the last */
      t = now;
      g->carry_start = g->carry_n;
    }
    else {                               /* the last tick, or behind it */
      if (g->policy == IDS_POLICY_ERROR && now < last - 1) {
        r = backwards(g, e);
        break;
      }
      t = last - 1;
      if (g->carry_n - g->carry_start >= room) {   /* it is full */
        t++;
        if (t > g->max_tick) { r = timefail(g, e); break; }
        if (t > now && t - now > g->ahead) {
          unlock(&g->lock);              /* wait without holding it */
          if ((r = waitfor(g, t - g->ahead, CLOCK_AHEAD, e)) != IDS_OK)
            return r;
          lock(&g->lock);
          continue;
        }
        g->carry_start = g->carry_n;
      }
    }
    g->state[0] = t + 1;
    *tk = t;
    put1(g, t, (g->carry_n++ + g->carry_add) & (room - 1), v);
    break;
  }
  unlock(&g->lock);
  return r;
}

static inline int dispatch (gen *g, int64_t qual, ids_value *v,
                            uint64_t *tk, ids_error *e) {
  size_t one;
  if (g->ops->suffix) return next_suffix(g, qual, v, tk, e);
  if (g->carry) return next_carry(g, v, tk, e);
  return g->step ? next_step(g, v, 1, &one, tk, e)
                 : next_counter(g, v, tk, e);
}

/* With a leased slot: the lease word is read before the ID is made, and
** the ID is kept only if its tick is within the lease (at or before its
** limit, above the slot's previous holders' floor) and the base (the slot
** number) did not change while it was made.  A discarded ID only skips a
** value; it was never handed out. */
static int next_leased (gen *g, int64_t qual, ids_value *v, ids_error *e) {
  for (;;) {
    unsigned sgen = __atomic_load_n(&g->slotgen, __ATOMIC_ACQUIRE);
    ids_slot *s = __atomic_load_n(&g->slot, __ATOMIC_ACQUIRE);
    int64_t w = s ? ids__slot_limit(s) : 0;
    uint64_t t = 0;
    int r;
    if (w == 0) return slotfail(g, e);
    if ((unsigned)(w & IDS_SLOT_GENMASK) != sgen) {
      if ((r = refresh(g, e)) != IDS_OK) return r;
      continue;
    }
    if ((r = dispatch(g, qual, v, &t, e)) != IDS_OK) return r;
    /* after the claim (a seq_cst CAS, or the generator's lock): close
    ** stores SLOTBUSY before it reads the state, so either it sees this
    ** ID or this sees SLOTBUSY and drops it */
    if (__atomic_load_n(&g->slotgen, __ATOMIC_SEQ_CST) != sgen) continue;
    if (g->hasfloor && t <= g->floortick) {
      if (g->policy == IDS_POLICY_ERROR) {
        lock(&g->slotlock);
        r = g->slot == NULL ? closed(g, e) :
            ids_fail(e, IDS_ECLOCK, "%s: slot %u of %s was held until a "
                     "time the clock has not passed yet (its previous "
                     "holder's clock was ahead, or its file is new)",
                     g->s->name, (unsigned)ids_slot_number(g->slot),
                     ids_slot_store(g->slot));
        unlock(&g->slotlock);
        return r;
      }
      if ((r = waitfor(g, g->floortick + 1, "the clock to pass the slot's "
                       "handover floor (its previous holders' last time)",
                       e)) != IDS_OK)
        return r;
      continue;
    }
    if (t > __atomic_load_n(&g->limtick, __ATOMIC_RELAXED)) {
      /* past the limit the store holds for this slot: hold waits for a
      ** renewal to cover t (a run-ahead is bounded by the lease), error
      ** refuses; the ID is dropped if the slot changes meanwhile */
      int64_t deadline = mono_ns() + g->maxwait;
      for (;;) {
        uint64_t lim = tickat(g, w & ~IDS_SLOT_GENMASK);
        lock(&g->slotlock);     /* limits of one generation only grow */
        if (g->slotgen == sgen && lim > g->limtick)   /* read unlocked */
          __atomic_store_n(&g->limtick, lim, __ATOMIC_RELAXED);
        unlock(&g->slotlock);
        if (t <= lim) break;
        if (g->policy == IDS_POLICY_ERROR) return slotfail(g, e);
        if (mono_ns() > deadline)
          return ids_fail(e, IDS_ETIME, "%s: waited max_wait_ms (%lld) for "
                          "the lease's renewal to cover the clock",
                          g->s->name, (long long)(g->maxwait / 1000000));
        if (ids__interrupted())
          return ids_fail(e, IDS_EINTR, "%s: interrupted while waiting for "
                          "the lease's renewal", g->s->name);
        nap(1000000);
        s = __atomic_load_n(&g->slot, __ATOMIC_ACQUIRE);
        w = s ? ids__slot_limit(s) : 0;
        if (w == 0) return slotfail(g, e);
        if ((unsigned)(w & IDS_SLOT_GENMASK) != sgen) break;
      }
      if ((unsigned)(w & IDS_SLOT_GENMASK) != sgen) continue;
    }
    return IDS_OK;
  }
}

/* Everything but the plain case: another qualifier, a fork, a scheme
** whose sequence ends in the qualifier, a leased slot. */
static int next_special (gen *g, int64_t qual, ids_value *v, ids_error *e) {
  uint64_t t;
  int r;
  if (qual != -1 && (qual < 0 || !g->ops->suffix))
    return ids_fail(e, IDS_EINVAL, "%s: %s qualifier %lld", g->s->name,
                    g->ops->suffix ? "no" : "IDs of this scheme take no",
                    (long long)qual);
  if (g->timeless) {     /* no state: a fork is nothing to it (the pool
                            reseeds in the child) */
    *v = g->base;
    fillrand(g, v);
    return IDS_OK;
  }
  if (g->forkgen != ids__forks && (r = afterfork(g, e)) != IDS_OK) return r;
  if (g->nslotf != 0) return next_leased(g, qual, v, e);
  return dispatch(g, qual, v, &t, e);
}

int ids_generator_next_as (ids_generator *pub, int64_t qual, ids_value *v,
                           ids_error *e) {
  gen *g = G(pub);
  uint64_t t;
  size_t one;
  /* one test for the common case, which goes straight to the engine */
  if (__builtin_expect(qual == -1 && !g->special &&
                       g->forkgen == ids__forks, 1))
    return g->step ? next_step(g, v, 1, &one, &t, e)
                   : next_counter(g, v, &t, e);
  return next_special(g, qual, v, e);
}

int ids_generator_next (ids_generator *g, ids_value *v, ids_error *e) {
  return ids_generator_next_as(g, -1, v, e);
}

/* Steps of one tick made under one hold of the lock at most: other
** threads of the generator wait no longer than this many steps. */
#define STEPRUN 256

/* n IDs: with a plain sequence, one clock read and one claim for as many
** as the tick has room for; in step mode, one clock read and one hold of
** the lock for a run of steps; else n calls of the single path. */
int ids_generator_next_n (ids_generator *pub, ids_value *v, size_t n,
                          ids_error *e) {
  gen *g = G(pub);
  uint64_t t;
  int r;
  if (g->special || g->forkgen != ids__forks || g->wide) {
    for (; n > 0; n--, v++)
      if ((r = ids_generator_next_as(pub, -1, v, e)) != IDS_OK) return r;
    return IDS_OK;
  }
  while (n > 0) {
    uint64_t seq = 0, k = 0;
    if (g->step) {
      size_t got = 0;
      r = next_step(g, v, n < STEPRUN ? n : STEPRUN, &got, &t, e);
      if (r != IDS_OK) return r;
      k = got;
    }
    else {
      r = counter(g, &g->state[0], g->seqbits, 0, g->max_tick, 0, 0, n,
                  &t, &seq, &k, e);
      if (r != IDS_OK) return r;
      for (uint64_t i = 0; i < k; i++) put(g, t, seq + i, &v[i]);
      if (g->fillrand) fillrand_n(g, v, (size_t)k);
    }
    v += k;
    n -= (size_t)k;
  }
  return IDS_OK;
}

/* Fresh random bits in each of the generator's IDs: its random fields
** drawn afresh, and step mode's stepped one. */
static unsigned randbits (const gen *g) {
  unsigned n = 0;
  for (int i = 0; i < g->s->nfields; i++) {
    const ids_field *f = &g->s->fields[i];
    if (f->kind == IDS_KIND_RANDOM && !f->once) n += f->bits;
  }
  return n;
}

int ids_generator_next_at (ids_generator *pub, int64_t unix_ms, ids_value *v,
                           ids_error *e) {
  gen *g = G(pub);
  const ids_scheme *s = g->s;
  int64_t sec = unix_ms / 1000, nsec = unix_ms % 1000 * 1000000;
  uint64_t t, seq = 0;
  int r;
  if (nsec < 0) nsec += 1000000000, sec--;
  if (g->timeless || g->mono)
    return ids_fail(e, IDS_EINVAL, "%s: next_at: %s", s->name, g->timeless
                    ? "its IDs carry no time" : "its ticks count a monotonic "
                    "clock from start_timestamp, not the time of day");
  if (g->forkgen != ids__forks && (r = afterfork(g, e)) != IDS_OK) return r;
  if (tickof(g, sec, nsec, &t) != IDS_OK)
    return ids_fail(e, IDS_ERANGE, "%s: next_at: %lld ms is outside the "
                    "range of field %s", s->name, (long long)unix_ms,
                    s->fields[g->time_field].name);
  if (randbits(g) > 0 && !g->ops->suffix && !g->carry) {
    /* a random part: unique by its odds, as the format's own IDs are;
    ** the sequence (UUIDv7's) starts the tick */
    const ids_field *tf = &s->fields[g->time_field];
    *v = g->base;
    if (g->ops->place) g->ops->place(s, t, 0, v);
    else {
      ids_field_set(tf, v, t);
      if (!g->step) ids_field_set(&s->fields[g->seq_field], v, 0);
    }
    if (g->step) draw(&s->fields[g->rand_field], v);
    fillrand(g, v);
    return IDS_OK;
  }
  /* a sequence alone: one of its own for the times it is given, which
  ** must not go back, before the generator was made, with a node that
  ** no other generator had then (a leased node's earlier holders did) */
  if (g->ops->suffix || g->carry || g->wide)
    return ids_fail(e, IDS_EINVAL, "%s: next_at: not offered for this "
                    "layout (%s)", s->name, g->ops->suffix ? "a sequence "
                    "that carries a qualifier" : g->carry ? "a counter "
                    "that runs on across ticks" : "time and sequence wider "
                    "than a word");
  if (g->nslotf != 0)
    return ids_fail(e, IDS_EINVAL, "%s: next_at: its node is leased, and "
                    "the slot's earlier holders may have made IDs at that "
                    "time: give the node (one kept for backfills)", s->name);
  if (t >= g->born)
    return ids_fail(e, IDS_EINVAL, "%s: next_at: %lld ms is not before the "
                    "generator was made (no random part: past times only; "
                    "next makes the present's)", s->name,
                    (long long)unix_ms);
  r = IDS_OK;
  lock(&g->lock);
  if (g->bf != 0) {
    uint64_t lt = (g->bf - 1) >> g->seqbits;
    uint64_t ls = (g->bf - 1) & (((uint64_t)1 << g->seqbits) - 1);
    if (t < lt) r = ids_fail(e, IDS_EINVAL, "%s: next_at: %lld ms is "
                             "before the last time it was given: with no "
                             "random part, times must not go back",
                             s->name, (long long)unix_ms);
    else if (t == lt && ls + 1 > ((uint64_t)1 << g->seqbits) - 1)
      r = ids_fail(e, IDS_ERANGE, "%s: next_at: the sequence of %lld ms is "
                   "spent (%llu IDs)", s->name, (long long)unix_ms,
                   (unsigned long long)ls + 1);
    else seq = t == lt ? ls + 1 : 0;
  }
  if (r == IDS_OK) g->bf = (t << g->seqbits | seq) + 1;
  unlock(&g->lock);
  if (r != IDS_OK) return r;
  put(g, t, seq, v);
  return IDS_OK;
}

int ids_generator_slot (const ids_generator *pub, uint32_t *number,
                        const char **store) {
  gen *g = G((ids_generator *)pub);
  int held;
  lock(&g->slotlock);
  held = g->slot != NULL;
  if (held && number) *number = ids_slot_number(g->slot);
  if (held && store) *store = ids_slot_backend_name(g->slot);
  unlock(&g->slotlock);
  return held;
}

int ids_generator_lease (const ids_generator *pub, ids_lease_info *out) {
  gen *g = G((ids_generator *)pub);
  int held;
  lock(&g->slotlock);
  if ((held = g->slot != NULL) != 0) {
    unsigned sgen;
    ids_slot_state(g->slot, &out->number, &out->floor_ns, &sgen);
    out->backend = ids_slot_backend_name(g->slot);
    snprintf(out->store, sizeof out->store, "%s", ids_slot_store(g->slot));
    out->limit_ns = ids__slot_limit(g->slot) & ~IDS_SLOT_GENMASK;
    ids_slot_stats_get(g->slot, &out->st);
    ids_slot_caution(g->slot, out->caution, sizeof out->caution);
  }
  unlock(&g->slotlock);
  return held;
}

int ids_generator_lease_log (const ids_generator *pub, char *line,
                             size_t n) {
  gen *g = G((ids_generator *)pub);
  int got = 0;
  lock(&g->slotlock);
  if (g->slot) got = ids_slot_log_pop(g->slot, line, n);
  unlock(&g->slotlock);
  return got;
}

/* The wall-clock time (ns, the generator's clock) at the end of tick t,
** or -1 where ticks have no inverse (a scheme's own totick, Flux's mode). */
static int64_t tick_end (const gen *g, uint64_t t) {
  unsigned __int128 ns;
  if (g->ops->totick || g->flux) return -1;
  if (t + 1 <= g->base_tick) return 0;
  /* the first ns of tick t + 1, rounded up, less one */
  ns = ((unsigned __int128)(t + 1 - g->base_tick) * g->tden + g->tnum - 1) /
       g->tnum;
  ns += (unsigned __int128)g->base_sec * 1000000000u + (uint64_t)g->base_nsec;
  return ns > INT64_MAX ? INT64_MAX : (int64_t)ns - 1;
}

/* The end of the last tick the generator issued (0: none), -1 unknown.
** Read after close stored SLOTBUSY: see next_leased. */
static int64_t issued_until (gen *g) {
  uint64_t t;
  if (g->carry) {
    lock(&g->lock);
    t = g->state[0];
    unlock(&g->lock);
    return t == 0 ? 0 : tick_end(g, t - 1);
  }
  if (g->wide || g->step) {
    unsigned __int128 c;
    lock(&g->lock);
    c = (unsigned __int128)g->state[1] << 64 | g->state[0];
    unlock(&g->lock);
    if (c == 0) return 0;
    /* step mode: the last tick + 1; wide: the next (tick, sequence) */
    t = g->step ? (uint64_t)c - 1 : (uint64_t)((c - 1) >> g->seqbits);
  }
  else {
    uint64_t c = __atomic_load_n(&g->state[0], __ATOMIC_SEQ_CST);
    if (c == 0) return 0;
    t = ((c - 1) >> g->seqbits) + (g->ops->suffix ? g->tick0 : 0);
  }
  return tick_end(g, t);
}

/* Thread-safe against next: the lease is taken away under slotlock (a
** next that had read the word still finishes, within the lease, or sees
** SLOTBUSY and says "closed"), then it records what was issued, so the
** slot's next holder waits for nothing it need not, and is released. */
void ids_generator_close (ids_generator *pub) {
  gen *g = G(pub);
  ids_slot *s;
  int64_t used;
  lock(&g->slotlock);
  s = g->slot;
  __atomic_store_n(&g->slot, NULL, __ATOMIC_RELEASE);
  __atomic_store_n(&g->slotgen, SLOTBUSY, __ATOMIC_SEQ_CST);
  unlock(&g->slotlock);
  if (s == NULL) return;
  if ((used = issued_until(g)) >= 0) ids__slot_settle(s, used);
  ids_slot_release(s);
}
