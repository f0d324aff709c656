/*
** slot.c: the backend registry and the lease: claim, the renewal thread,
** loss and re-claim, release at close and at exit, fork.
**
** One thread per lease: a store that hangs delays only its own leases, and
** a process holds one or a few.  The thread sleeps on a monotonic condvar
** until the next renewal (a third of the TTL after the last successful
** send) or the safe end, whichever comes first; the ID path never waits on
** it: it reads head.limit, one atomic word (internal.h).
*/
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "slot_internal.h"

#define MS  1000000ll

/* ------------------------------------------------------------ registry */

#define MAXBACKENDS 16

static const ids_slot_backend *backends[MAXBACKENDS];
static int nbackends;
static pthread_mutex_t regmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static int add_backend (const ids_slot_backend *b) {
  int i, r = IDS_OK;
  pthread_mutex_lock(&regmu);
  for (i = 0; i < nbackends; i++)
    if (strcmp(backends[i]->name, b->name) == 0) r = IDS_EEXIST;
  if (r == IDS_OK) {
    if (nbackends == MAXBACKENDS) r = IDS_ENOMEM;
    else backends[nbackends++] = b;
  }
  pthread_mutex_unlock(&regmu);
  return r;
}

/* The stores this library knows by name.  local is in the core; the
** networked stores are optional units (CMake's IDS_WITH_REDIS and
** IDS_WITH_ETCD define IDS_HAVE_REDIS and IDS_HAVE_ETCD), built into the
** stores' module (module.c), registered when a claim first names one.  A
** store not built is still named, so that its URL fails saying why. */
#ifndef IDS_HAVE_REDIS
#define IDS_HAVE_REDIS 0
#endif
#ifndef IDS_HAVE_ETCD
#define IDS_HAVE_ETCD 0
#endif
static const struct store {
  const char *name, *option;
  int built;                   /* in the core (local) or in the module */
} stores[] = {
  {"local", NULL, 1},
  {"redis", "IDS_WITH_REDIS", IDS_HAVE_REDIS},
  {"etcd", "IDS_WITH_ETCD", IDS_HAVE_ETCD},
};

static void builtins (void) { add_backend(&ids__slot_local); }

static const struct store *known_store (const char *name) {
  size_t i;
  for (i = 0; i < sizeof stores / sizeof stores[0]; i++)
    if (strcmp(stores[i].name, name) == 0) return &stores[i];
  return NULL;
}

int ids_slot_register (const ids_slot_backend *b) {
  size_t n;
  pthread_once(&builtin_once, builtins);
  if (b == NULL || b->name == NULL || b->open == NULL || b->acquire == NULL
      || b->release == NULL || b->close == NULL)
    return IDS_EINVAL;
  n = strlen(b->name);
  if (n == 0 || n >= sizeof ((ids_slot_url *)0)->scheme) return IDS_EINVAL;
  return add_backend(b);
}

const ids_slot_backend *ids_slot_find (const char *name) {
  const ids_slot_backend *b = NULL;
  int i;
  pthread_once(&builtin_once, builtins);
  pthread_mutex_lock(&regmu);
  for (i = 0; i < nbackends && b == NULL; i++)
    if (strcmp(backends[i]->name, name) == 0) b = backends[i];
  pthread_mutex_unlock(&regmu);
  return b;
}

/* --------------------------------------------------------------- lease */

struct ids_slot {
  ids__slot_head head;         /* first: ids__slot_limit reads it; the
                                  only field written atomically when a
                                  spare lease is reused (see spare) */
  const ids_slot_backend *be;
  void *h;
  ids_slot_url url;
  char ns[IDS_SLOT_NSMAX];
  char token[33];
  unsigned bits;
  uint32_t fixmask, fixval;    /* the slots we may claim (slots.h) */
  char meaning[64];
  int64_t ttl, margin, timeout_ms, offset, log_every;   /* ns but timeout */
  int64_t ahead;               /* ns: the holders' run-ahead */
  void (*log) (void *ctx, const char *line);
  void *log_ctx;
  pthread_mutex_t mu;          /* guards what follows */
  pthread_cond_t cv;
  pthread_t thread;
  int running, stop, retired;
  int held;                    /* the store holds a slot for us */
  uint32_t number;
  int64_t floor;
  unsigned gen;
  int64_t written;             /* highest last-limit sent for this slot */
  int64_t settle;              /* the holder's word on what it issued (ns;
                                  -1: not said), recorded at release */
  char caution[IDS_SLOT_NOTEMAX];  /* the last claim's warning, or "" */
  int lockheld;                /* the store is a lock held while we live
                                  (local): no safe end (see run) */
  int keep;                    /* log lines kept for the holder to read
                                  (ids_slot_log_pop), not written */
  unsigned nkept, firstkept;
  char kept[IDS_SLOT_KEPT][320];
  int64_t safe_end;            /* monotonic */
  int64_t next;                /* monotonic: next renewal */
  int64_t last_log;            /* monotonic */
  ids_slot_stats st;
  _Atomic int64_t answered;    /* wall clock of the store's last answer */
  _Atomic int forked;
  pid_t pid;
  struct ids_slot *link;       /* all leases of the process; spares */
};

/* Lease memory is never given back to malloc: a released lease becomes a
** spare for the next claim.  A generator's next may still load the word
** of a lease that close released meanwhile (it reads the word before it
** knows); the memory stays a lease, and that generator discards the ID
** (generator.c).  Spares number at most the leases held at once. */
static pthread_mutex_t sparemu = PTHREAD_MUTEX_INITIALIZER;
static ids_slot *spares;

static ids_slot *lease_new (void) {
  ids_slot *s;
  pthread_mutex_lock(&sparemu);
  if ((s = spares) != NULL) spares = s->link;
  pthread_mutex_unlock(&sparemu);
  if (s == NULL) return calloc(1, sizeof *s);
  memset((char *)s + sizeof s->head, 0, sizeof *s - sizeof s->head);
  atomic_store_explicit(&s->head.limit, 0, memory_order_release);
  return s;
}

static void lease_free (ids_slot *s) {
  atomic_store_explicit(&s->head.limit, 0, memory_order_release);
  pthread_mutex_lock(&sparemu);
  s->link = spares;
  spares = s;
  pthread_mutex_unlock(&sparemu);
}

static int64_t mono (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t real (const ids_slot *s) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + s->offset;
}

/* The limit word: the limit rounded down and one unit lower, so that the
** generation in its low bits keeps it strictly below the limit. */
static int64_t word (int64_t limit, unsigned gen) {
  int64_t w = (limit & ~IDS_SLOT_GENMASK) - (IDS_SLOT_GENMASK + 1);
  if (w <= 0) return 0;
  return w | (int64_t)(gen & IDS_SLOT_GENMASK);
}

static void publish (ids_slot *s, int64_t w) {
  atomic_store_explicit(&s->head.limit, w, memory_order_release);
}

/* One line per lease per log_every at most; the caller holds s->mu. */
static void slog (ids_slot *s, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));
static void slog (ids_slot *s, const char *fmt, ...) {
  char line[400];
  int n;
  va_list ap;
  int64_t now = mono();
  if (s->last_log != 0 && now - s->last_log < s->log_every) return;
  s->last_log = now;
  /* backends' messages name the store already */
  n = snprintf(line, sizeof line, "idscheme: slot %u of '%s': ",
               (unsigned)s->number, s->ns);
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof line)
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  va_end(ap);
  if (s->keep) {                /* a ring: the oldest line goes first */
    unsigned i = (s->firstkept + s->nkept) % IDS_SLOT_KEPT;
    snprintf(s->kept[i], sizeof s->kept[i], "%.319s", line);
    if (s->nkept < IDS_SLOT_KEPT) s->nkept++;
    else s->firstkept = (s->firstkept + 1) % IDS_SLOT_KEPT;
  }
  else if (s->log) s->log(s->log_ctx, line);
  else fprintf(stderr, "%s\n", line);
}

static void request (const ids_slot *s, ids_slot_req *r) {
  memset(r, 0, sizeof *r);
  r->ns = s->ns;
  r->bits = s->bits;
  r->token = s->token;
  r->ttl_ms = s->ttl / MS;
  r->timeout_ms = s->timeout_ms;
  r->now_ns = real(s);
  r->settle_ns = -1;
  r->fixmask = s->fixmask;
  r->fixval = s->fixval;
  r->meaning = s->meaning;
  /* a holder records at most its clock + ttl (renewals), or what it
  ** issued, which its word kept below that; and its clock may be ahead
  ** of ours (a successor waits that out: skew.sh hands a slot over from
  ** a clock 3 s ahead), by less than IDS_SLOT_SKEW_MS.  Beyond, a record
  ** is corrupt. */
  r->max_floor_ns = r->now_ns + s->ttl + s->ahead + IDS_SLOT_SKEW_MS * MS;
}

/* One renewal of the current slot; publishes the new limit on success.
** The store is written max(limit, floor, every limit written before):
** the next holder's floor must cover every ID we may have issued, and
** every ID the holders before us may have issued. */
static int renew_now (ids_slot *s, int *lost, ids_error *e) {
  ids_slot_req r;
  int64_t sent, limit, w;
  uint32_t number;
  unsigned gen;
  int rc;
  *lost = 0;
  request(s, &r);
  sent = mono();
  limit = r.now_ns + s->ttl - s->margin;
  pthread_mutex_lock(&s->mu);
  w = limit;
  if (w < s->floor) w = s->floor;
  if (w < s->written) w = s->written;
  /* a renewal that times out may still land: count it as written */
  s->written = w;
  number = s->number;
  gen = s->gen;
  pthread_mutex_unlock(&s->mu);
  rc = s->be->renew(s->h, &r, number, w, lost, e);
  pthread_mutex_lock(&s->mu);
  if (rc == IDS_OK) {
    s->safe_end = sent + s->ttl - s->margin;
    s->next = sent + s->ttl / 3;
    s->st.last_send_ns = r.now_ns;
    s->st.renewals++;
    atomic_store(&s->answered, real(s));
    /* w is in the store now: IDs up to it are covered (after a clock
    ** stepped back, hold keeps ticks that earlier limits covered) */
    if (s->gen == gen && !s->stop) publish(s, word(w, gen));
  } else {
    s->st.failures++;
    if (*lost) {
      s->held = 0;
      s->st.losses++;
      publish(s, 0);
      atomic_store(&s->answered, real(s));
    }
  }
  pthread_mutex_unlock(&s->mu);
  return rc;
}

/* Acquires a free slot and makes it valid (first renewal).  The word
** stays 0 from the acquire until that renewal has stored our limit: a
** holder that dies in between has issued nothing. */
static int take (ids_slot *s, ids_error *e) {
  ids_slot_req r;
  uint32_t number;
  int64_t floor;
  int rc, lost;
  char note[IDS_SLOT_NOTEMAX] = "";
  request(s, &r);
  r.note = note;
  r.notelen = sizeof note;
  rc = s->be->acquire(s->h, &r, &number, &floor, e);
  pthread_mutex_lock(&s->mu);
  if (rc == IDS_OK) s->number = number;
  if (note[0]) {
    memcpy(s->caution, note, sizeof note);
    s->last_log = 0;            /* a warning is never swallowed */
    slog(s, "%s", note);
  }
  if (rc != IDS_OK) {
    pthread_mutex_unlock(&s->mu);
    return rc;
  }
  s->held = 1;
  s->floor = floor;
  s->gen++;
  s->written = 0;
  atomic_store(&s->answered, real(s));
  if (s->be->renew == NULL) {   /* the lock is the lease: no end */
    s->safe_end = INT64_MAX;
    s->next = INT64_MAX;
    s->st.last_send_ns = r.now_ns;
    publish(s, word(INT64_MAX, s->gen));
  }
  pthread_mutex_unlock(&s->mu);
  if (s->be->renew == NULL) return IDS_OK;
  rc = renew_now(s, &lost, e);
  if (rc != IDS_OK) {
    s->be->release(s->h, &r, number);
    pthread_mutex_lock(&s->mu);
    s->held = 0;
    pthread_mutex_unlock(&s->mu);
  }
  return rc;
}

/* Wait after the k-th failure in a row: an eighth of the TTL, doubling,
** at most the TTL, times a random factor in [0.5, 1) so that the holders
** of a store that comes back do not all call at once. */
static int64_t backoff (const ids_slot *s, uint64_t k) {
  uint32_t rnd;
  int64_t d = s->ttl / 8;
  while (k-- > 1 && d < s->ttl) d *= 2;
  if (d > s->ttl) d = s->ttl;
  ids_random(&rnd, sizeof rnd);
  return d / 2 + (int64_t)((uint64_t)(d / 2) * rnd >> 32);
}

static void waituntil (ids_slot *s, int64_t t) {
  struct timespec ts;
  ts.tv_sec = (time_t)(t / 1000000000);
  ts.tv_nsec = (long)(t % 1000000000);
  pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

static void *run (void *arg) {
  ids_slot *s = arg;
  uint64_t fails = 0;
  pthread_mutex_lock(&s->mu);
  while (!s->stop) {
    int64_t now = mono(), wake = s->next;
    int64_t w = atomic_load(&s->head.limit);
    int rc, lost = 0, held = s->held;
    ids_error e;
    /* A local slot is a lock held while the process lives; only deletion
    ** takes it, and a file born after that waits out any limit we wrote
    ** (slot_local.c).  So a late renewal (a starved thread) leaves its
    ** word valid: IDs stop at the limit and wait, rather than fail. */
    if (w != 0 && now >= s->safe_end && !s->lockheld) {
      publish(s, 0);
      w = 0;
      slog(s, "lease at %s not renewed in time: no IDs until the store "
           "answers", s->url.text);
    }
    if (w != 0 && !s->lockheld && s->safe_end < wake) wake = s->safe_end;
    if (now < wake) {
      waituntil(s, wake);
      continue;
    }
    pthread_mutex_unlock(&s->mu);
    rc = held ? renew_now(s, &lost, &e) : take(s, &e);
    if (rc != IDS_OK && lost) {
      pthread_mutex_lock(&s->mu);
      slog(s, "%s; claiming another slot", e.msg);
      pthread_mutex_unlock(&s->mu);
      fails = 0;   /* the store answered: back off from the start */
      rc = take(s, &e);
    }
    pthread_mutex_lock(&s->mu);
    if (rc == IDS_OK) {
      if (fails) slog(s, "store answers again");
      fails = 0;
    } else {
      fails++;
      s->next = mono() + backoff(s, fails);
      slog(s, "%s", e.msg);
    }
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* ------------------------------------------------ process-wide: exit, fork */

static pthread_mutex_t listmu = PTHREAD_MUTEX_INITIALIZER;
static ids_slot *leases;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void retire (ids_slot *s);

static void at_exit (void) {
  ids_slot *s;
  pthread_mutex_lock(&listmu);
  for (s = leases; s; s = s->link)
    if (!atomic_load(&s->forked) && s->pid == getpid()) retire(s);
  pthread_mutex_unlock(&listmu);
}

static void fork_prepare (void) { pthread_mutex_lock(&listmu); }
static void fork_parent (void) { pthread_mutex_unlock(&listmu); }

/* In the child: no lease is ours (the thread is gone, the parent still
** holds the slots).  Never touch the store: just forget. */
static void fork_child (void) {
  ids_slot *s;
  for (s = leases; s; s = s->link) {
    publish(s, 0);
    atomic_store(&s->forked, 1);
    pthread_mutex_init(&s->mu, NULL);  /* the thread may have held it */
    if (s->be->forget) s->be->forget(s->h);
  }
  pthread_mutex_unlock(&listmu);
}

static void hooks (void) {
  atexit(at_exit);
  pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* -------------------------------------------------------------- public */

static int check_ns (const char *ns, ids_error *e) {
  size_t i, n = strlen(ns);
  if (n == 0 || n >= IDS_SLOT_NSMAX)
    return ids_fail(e, IDS_EINVAL, "slot namespace \"%.70s\": want 1..%d "
                    "characters", ns, IDS_SLOT_NSMAX - 1);
  for (i = 0; i < n; i++) {
    char c = ns[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
      return ids_fail(e, IDS_EINVAL, "slot namespace \"%.70s\": only "
                      "letters, digits, '_', '-' and '.'", ns);
  }
  return IDS_OK;
}

/* A meaning is stored in the namespace and quoted in messages: printable
** ASCII without spaces, 1..63 bytes. */
static int check_meaning (const char *m, char *out, size_t n,
                          ids_error *e) {
  size_t i, len = strlen(m);
  for (i = 0; i < len; i++)
    if (m[i] <= ' ' || m[i] > '~') break;
  if (len == 0 || len >= n || i < len)
    return ids_fail(e, IDS_EINVAL, "slot options: meaning \"%.70s\": want "
                    "1..%zu printable characters, no space", m, n - 1);
  memcpy(out, m, len + 1);
  return IDS_OK;
}

static int64_t opt_or (int64_t v, int64_t dflt) { return v > 0 ? v : dflt; }

/* The backend of u's scheme: registered, or one of the stores' module
** (opened now, its backends registered), or IDS_ENOENT saying why not. */
static int find_backend (const ids_slot_url *u, const ids_slot_backend **be,
                         ids_error *e) {
  const struct store *st = known_store(u->scheme);
  const ids_slot_backend *const *b;
  if ((*be = ids_slot_find(u->scheme)) != NULL) return IDS_OK;
  if (st == NULL)
    return ids_fail(e, IDS_ENOENT, "slot store \"%.*s\": no backend '%s'",
                    ids__slot_shown(u), u->text, u->scheme);
  if (!st->built)
    return ids_fail(e, IDS_ENOENT, "slot store \"%.*s\": this build has no "
                    "%s store (built without %s)", ids__slot_shown(u),
                    u->text, u->scheme, st->option);
  if ((b = ids__slot_stores(u, e)) == NULL) return IDS_ENOENT;
  for (; *b; b++) add_backend(*b);     /* IDS_EEXIST: already there */
  if ((*be = ids_slot_find(u->scheme)) == NULL)
    return ids_fail(e, IDS_ENOENT, "slot store \"%.*s\": the stores' module "
                    "has no %s store", ids__slot_shown(u), u->text, u->scheme);
  return IDS_OK;
}

/* A local lease's ttl is how far ahead of its clock a holder records its
** limit, and so how long the first holder of a new slot file waits
** (slot_local.c): short, since renewing it costs a pwrite.  A networked
** lease's ttl bounds how long a slot stays taken after its holder died. */
static int64_t default_ttl (const ids_slot_backend *be) {
  return be == &ids__slot_local ? 2000 : 10000;
}

int ids_slot_claim (const char *url, const char *ns, unsigned bits,
                    const ids_slot_options *opt, ids_slot **out,
                    ids_error *e) {
  ids_slot_options o;
  ids_slot_url u;
  ids_slot *s;
  const ids_slot_backend *be;
  unsigned char tok[16];
  char meaning[64];
  int rc, i;
  pthread_condattr_t ca;
  *out = NULL;
  if (opt) o = *opt;
  else memset(&o, 0, sizeof o);
  if (ns == NULL) ns = "default";
  if ((rc = ids_slot_parse_url(url, &u, e)) != IDS_OK) return rc;
  if ((rc = check_ns(ns, e)) != IDS_OK) return rc;
  if (bits < 1 || bits > IDS_SLOT_MAXBITS)
    return ids_fail(e, IDS_EINVAL, "slot bits %u out of range (1..%d)",
                    bits, IDS_SLOT_MAXBITS);
  if (o.ttl_ms < 0 || o.margin_ms < 0 || o.timeout_ms < 0
      || o.log_interval_ms < 0 || o.ttl_ms > 86400000 || o.timeout_ms > 600000)
    return ids_fail(e, IDS_EINVAL, "slot options: ttl_ms (0..86400000), "
                    "margin_ms, timeout_ms (0..600000) and log_interval_ms "
                    "must not be negative");
  if ((rc = find_backend(&u, &be, e)) != IDS_OK) return rc;
  o.ttl_ms = opt_or(o.ttl_ms, default_ttl(be));
  o.margin_ms = opt_or(o.margin_ms, o.ttl_ms / 10);
  if (o.margin_ms >= o.ttl_ms)
    return ids_fail(e, IDS_EINVAL, "slot options: margin_ms %lld must be "
                    "less than ttl_ms %lld", (long long)o.margin_ms,
                    (long long)o.ttl_ms);
  if (o.max_ahead_ms < 0 || o.max_ahead_ms > 86400000)
    return ids_fail(e, IDS_EINVAL, "slot options: max_ahead_ms %lld out of "
                    "range (0..86400000)", (long long)o.max_ahead_ms);
  if ((o.fixed_value & ~o.fixed_mask) != 0 ||
      (bits < 32 && (o.fixed_mask >> bits) != 0) ||
      (bits < 32 && o.fixed_mask == (1u << bits) - 1))
    return ids_fail(e, IDS_EINVAL, "slot options: fixed_mask 0x%x and "
                    "fixed_value 0x%x must lie within the %u slot bits, "
                    "leave a bit free, and the value within the mask",
                    (unsigned)o.fixed_mask, (unsigned)o.fixed_value, bits);
  if (o.meaning == NULL) snprintf(meaning, sizeof meaning, "%u bits", bits);
  else if (check_meaning(o.meaning, meaning, sizeof meaning, e) != IDS_OK)
    return IDS_EINVAL;
  s = lease_new();
  if (s == NULL) return ids_fail(e, IDS_ENOMEM, "out of memory");
  s->be = be;
  s->url = u;
  strcpy(s->ns, ns);
  s->bits = bits;
  s->fixmask = o.fixed_mask;
  s->fixval = o.fixed_value;
  memcpy(s->meaning, meaning, sizeof meaning);
  s->ahead = o.max_ahead_ms * MS;
  s->ttl = o.ttl_ms * MS;
  s->margin = o.margin_ms * MS;
  s->timeout_ms = opt_or(o.timeout_ms, 2000);
  s->offset = o.clock_offset_ns;
  s->lockheld = be == &ids__slot_local;
  s->log_every = opt_or(o.log_interval_ms, 10000) * MS;
  s->log = o.log;
  s->log_ctx = o.log_ctx;
  s->keep = o.keep_log != 0;
  s->pid = getpid();
  s->settle = -1;
  ids_random(tok, sizeof tok);
  for (i = 0; i < 16; i++)
    snprintf(s->token + 2 * i, 3, "%02x", tok[i]);
  pthread_mutex_init(&s->mu, NULL);
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&s->cv, &ca);
  pthread_condattr_destroy(&ca);
  rc = be->open(&s->url, &s->h, e);
  if (rc == IDS_OK) {
    rc = take(s, e);
    if (rc != IDS_OK) be->close(s->h);
  }
  if (rc == IDS_OK && be->renew) {
    /* The thread takes no signal: the process's handlers stay where the
    ** program expects them, and a write to a closed socket gives it EPIPE
    ** rather than a SIGPIPE that kills the process. */
    sigset_t all, old;
    int made;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    made = pthread_create(&s->thread, NULL, run, s) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!made) {
      ids_slot_req r;
      request(s, &r);
      be->release(s->h, &r, s->number);
      be->close(s->h);
      rc = ids_fail(e, IDS_ENOMEM, "slot store \"%.80s\": cannot start the "
                    "lease thread", url);
    } else s->running = 1;
  }
  if (rc != IDS_OK) {
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    lease_free(s);
    return rc;
  }
  pthread_once(&hooks_once, hooks);
  pthread_mutex_lock(&listmu);
  s->link = leases;
  leases = s;
  pthread_mutex_unlock(&listmu);
  *out = s;
  return IDS_OK;
}

/* Stops the thread and gives the slot back; the memory stays (at_exit
** runs this while the owner may still hold the pointer). */
static void retire (ids_slot *s) {
  ids_slot_req r;
  if (s->retired) return;
  s->retired = 1;
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  publish(s, 0);
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (s->running) pthread_join(s->thread, NULL);
  s->running = 0;
  request(s, &r);
  /* never below what the slot's holders before us may have issued */
  if (s->settle >= 0) r.settle_ns = s->settle > s->floor ? s->settle : s->floor;
  if (s->held) s->be->release(s->h, &r, s->number);
  s->be->close(s->h);
  s->h = NULL;
}

void ids_slot_release (ids_slot *s) {
  ids_slot **p;
  if (s == NULL) return;
  pthread_mutex_lock(&listmu);
  for (p = &leases; *p; p = &(*p)->link)
    if (*p == s) {
      *p = s->link;
      break;
    }
  if (atomic_load(&s->forked) || s->pid != getpid()) {
    /* a fork's copy: the thread never existed here, the slot is the
    ** parent's; the handle's sockets were inherited, closing them is ours */
    if (!s->retired && s->h) s->be->close(s->h);
    pthread_mutex_unlock(&listmu);
    lease_free(s);
    return;
  }
  retire(s);
  pthread_mutex_unlock(&listmu);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  lease_free(s);
}

int ids_slot_log_pop (ids_slot *s, char *line, size_t n) {
  int got;
  pthread_mutex_lock(&s->mu);
  if ((got = s->nkept > 0) != 0) {
    if (n) snprintf(line, n, "%s", s->kept[s->firstkept]);
    s->firstkept = (s->firstkept + 1) % IDS_SLOT_KEPT;
    s->nkept--;
  }
  pthread_mutex_unlock(&s->mu);
  return got;
}

void ids__slot_settle (ids_slot *s, int64_t used_ns) {
  pthread_mutex_lock(&s->mu);
  s->settle = used_ns < 0 ? 0 : used_ns;
  pthread_mutex_unlock(&s->mu);
}

void ids_slot_state (const ids_slot *cs, uint32_t *number, int64_t *floor,
                     unsigned *gen) {
  ids_slot *s = (ids_slot *)cs;
  pthread_mutex_lock(&s->mu);
  if (number) *number = s->number;
  if (floor) *floor = s->floor;
  if (gen) *gen = s->gen & IDS_SLOT_GENMASK;
  pthread_mutex_unlock(&s->mu);
}

uint32_t ids_slot_number (const ids_slot *s) {
  uint32_t n;
  ids_slot_state(s, &n, NULL, NULL);
  return n;
}

int64_t ids_slot_floor (const ids_slot *s) {
  int64_t f;
  ids_slot_state(s, NULL, &f, NULL);
  return f;
}

const char *ids_slot_backend_name (const ids_slot *s) { return s->be->name; }
const char *ids_slot_store (const ids_slot *s) { return s->url.text; }
int64_t ids_slot_now (const ids_slot *s) { return real(s); }

/* "2026-11-22T18:55:07.123Z" */
static void isotime (char *out, size_t n, int64_t ns) {
  time_t t = (time_t)(ns / 1000000000);
  struct tm tm;
  gmtime_r(&t, &tm);
  snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
           (int)(ns % 1000000000 / 1000000));
}

int ids_slot_fail (const ids_slot *cs, ids_error *e) {
  ids_slot *s = (ids_slot *)cs;
  char when[64];
  int64_t a = atomic_load(&s->answered), now = real(s);
  if (atomic_load(&s->forked) || s->pid != getpid())
    return ids_fail(e, IDS_EFORK, "slot of '%s' at %.60s was claimed before "
                    "fork(): claim slots in the child", s->ns, s->url.text);
  isotime(when, sizeof when, a);
  return ids_fail(e, IDS_ELEASE, "slot %u of '%s' at %.60s: lease not valid; "
                  "store last answered %s (%.1f s ago)", (unsigned)s->number,
                  s->ns, s->url.text, when, (double)(now - a) / 1e9);
}

int64_t ids_slot_limit (const ids_slot *s) { return ids__slot_limit(s); }

int ids_slot_check (const ids_slot *s, int64_t t, ids_error *e) {
  int64_t w = ids__slot_limit(s), floor;
  if (t > w) return ids_slot_fail(s, e);
  floor = ids_slot_floor(s);
  if (t <= floor)
    return ids_fail(e, IDS_ELEASE, "slot %u of '%s': time %lld is at or "
                    "below the previous holder's limit %lld",
                    (unsigned)ids_slot_number(s), s->ns, (long long)t,
                    (long long)floor);
  return IDS_OK;
}

void ids_slot_caution (const ids_slot *cs, char *buf, size_t n) {
  ids_slot *s = (ids_slot *)cs;
  pthread_mutex_lock(&s->mu);
  if (n) snprintf(buf, n, "%s", s->caution);
  pthread_mutex_unlock(&s->mu);
}

void ids_slot_stats_get (const ids_slot *cs, ids_slot_stats *st) {
  ids_slot *s = (ids_slot *)cs;
  pthread_mutex_lock(&s->mu);
  *st = s->st;
  st->ttl_ns = s->ttl;
  st->margin_ns = s->margin;
  pthread_mutex_unlock(&s->mu);
}
