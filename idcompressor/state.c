/*
** state.c: the id-compressor's tables and their lookups.  Sessions are
** kept in first-seen order, with a hash from their string and an index
** sorted by their number; clusters in final-space order; the normalizer
** as sorted runs.  Every lookup is a hash probe or a binary search.
** Growth (reserve) is separate from insertion, so that a call can reserve
** everything it needs, validate, and only then change the state.
*/
#include <stdlib.h>
#include <string.h>

#include "idc.h"

/* A string's hash, 8 bytes a step: FNV-1a's byte a step was a chain of
** 36 multiplications for a UUID, most of a lookup by session ID.  Each
** step folds the product's high half down, since the table takes the low
** bits. */
static uint32_t strhash (const char *s, size_t n) {
  size_t i;
  uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;
  for (i = 0; i + 8 <= n; i += 8) {
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  if (i < n) {
    for (w = 0; i < n; i++) w = w << 8 | (unsigned char)s[i];
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  return (uint32_t)h;
}

uint32_t idc_find_session (const ids_idc *c, const char *id) {
  size_t n = strlen(id);
  uint32_t i = strhash(id, n) & (c->htcap - 1);
  while (c->ht[i]) {
    const idc_session *s = &c->sess[c->ht[i] - 1];
    if (s->idlen == n && memcmp(s->id, id, n) == 0) return c->ht[i] - 1;
    i = (i + 1) & (c->htcap - 1);
  }
  return IDC_NONE;
}

/* the session with the greatest number <= q */
uint32_t idc_pred_session (const ids_idc *c, idc_u128 q) {
  uint32_t lo = 0, hi = c->nsess;   /* first index with n > q */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->byn[mid].n <= q) lo = mid + 1;
    else hi = mid;
  }
  return lo == 0 ? IDC_NONE : c->byn[lo - 1].si;
}

/* How many of a[0], a[stride], ... (n sorted keys) are <= x.  Without
** branches on the data: random lookups would mispredict half the time. */
static size_t count_le (const int64_t *a, size_t n, size_t stride,
                        int64_t x) {
  const int64_t *base = a;
  if (n == 0) return 0;
  while (n > 1) {
    size_t half = n / 2;
    base = base[half * stride] <= x ? base + half * stride : base;
    n -= half;
  }
  return (size_t)(base - a) / stride + (*base <= x);
}

/* How many of a[0], a[stride], ... (n sorted keys, a[0] <= x) are <= x,
** from a guess i: a gallop from i brackets the answer in O(log distance)
** and a search of the bracket finds it, O(log n) at worst. */
static size_t gallop (const int64_t *a, size_t n, size_t stride, size_t i,
                      int64_t x) {
  size_t lo, hi, step = 1;
  if (a[i * stride] <= x) {            /* above i: a[lo] <= x */
    lo = i;
    while (lo + step < n && a[(lo + step) * stride] <= x)
      lo += step, step *= 2;
    hi = lo + step < n ? lo + step : n;
  }
  else {                               /* below i: a[hi] > x */
    hi = i;
    while (hi >= step && a[(hi - step) * stride] > x) hi -= step, step *= 2;
    lo = hi >= step ? hi - step : 0;   /* a[0] <= x */
  }
  /* a[lo] <= x < a[hi] (or hi == n) */
  return lo + 1 + count_le(a + (lo + 1) * stride, hi - lo - 1, stride, x);
}

/* Whether gen g was handed out as a local ID.  The runs lie in order over
** the gens handed out (1..gen_count), so g's place among those guesses its
** run, as the clusters' guesses do: a document that makes IDs at a steady
** pace finds it in a load or two (a search of all the runs was a third of
** recompress). */
int idc_runs_contain (const ids_idc *c, int64_t g) {
  size_t n = c->nruns, i;
  if (n == 0 || g < c->runs[0][0]) return 0;        /* runs may be NULL */
  i = g > c->gen_count ? n - 1
      : (size_t)((double)(g - 1) / (double)c->gen_count * (double)n);
  i = gallop(&c->runs[0][0], n, 2, i < n ? i : n - 1, g) - 1;
  return g - c->runs[i][0] < c->runs[i][1];
}

/* idc_cluster_by_final (idc.h) when its guess i missed */
uint32_t idc_cluster_near (const ids_idc *c, int64_t f, size_t i) {
  const idc_cluster *k = &c->cl[c->ncl - 1];
  if (f >= k->base_final + k->capacity) return IDC_NONE;
  /* bf[0] = 0 <= f, and the tiling puts f in the last cluster at or
  ** below it */
  return (uint32_t)(gallop(c->bf, c->ncl, 1, i, f) - 1);
}

/* The cluster of s whose allocated gens hold g.  A session's clusters tile
** its gens from 1 up in chain order, so a guess, confirmed by one load,
** finds it: the last cluster if g is at or past its base, else counted
** back from there by the ratio of the clusters between the first and the
** last.  Exact where those are of one size, whatever the first and the
** last: a session's first cluster holds its first range and a cluster's
** room besides, and the local session's last grows as it makes IDs.
** Counted back, the guess is surest for the newest IDs. */
uint32_t idc_cluster_by_gen (const ids_idc *c, const idc_session *s,
                             int64_t g) {
  const idc_cluster *k;
  size_t i, back;
  int64_t last;
  if (s->nchain == 0 || g < 1) return IDC_NONE;
  last = s->gens[s->nchain - 1];
  back = g >= last ? 0
         : 1 + (size_t)idc_mulhi((uint64_t)(last - g - 1), s->per_gen);
  i = back < s->nchain ? s->nchain - 1 - back : 0;
  k = &c->cl[s->chain[i]];
  if (g >= k->base_gen && g - k->base_gen < k->capacity) return s->chain[i];
  i = gallop(s->gens, s->nchain, 1, i, g) - 1;          /* gens[0] = 1 <= g */
  k = &c->cl[s->chain[i]];
  return g - k->base_gen < k->capacity ? s->chain[i] : IDC_NONE;
}

/* After a cluster of session si is added or grows: the ratios of the
** guesses, n clusters per span units (the finals' clusters per allocated
** final; session si's, between its first and last, per gen between their
** bases), in 2^-64ths, rounded up, so that a cluster's first unit is
** guessed as its own in a document of clusters of one size (at most
** 2^64 - 1: no cluster is empty).  A ratio that lags costs time, never an
** answer. */
static uint64_t ratio (size_t n, int64_t span) {
  idc_u128 r = (((idc_u128)n << 64) + (idc_u128)span - 1) / (idc_u128)span;
  return r >> 64 ? UINT64_MAX : (uint64_t)r;
}

void idc_retile (ids_idc *c, uint32_t si) {
  idc_session *s = &c->sess[si];
  const idc_cluster *k = &c->cl[c->ncl - 1];
  c->per_final = ratio(c->ncl, k->base_final + k->capacity);
  s->per_gen = s->nchain > 2
    ? ratio(s->nchain - 2, s->gens[s->nchain - 1] - s->gens[1]) : 0;
}

static int grow (void *pp, size_t *cap, size_t need, size_t size) {
  void *p;
  size_t n = *cap ? *cap : 4;
  if (need <= *cap) return 0;
  while (n < need) n *= 2;
  p = realloc(*(void **)pp, n * size);
  if (!p) return -1;
  *(void **)pp = p;
  *cap = n;
  return 0;
}

static int grow32 (void *pp, uint32_t *cap, size_t need, size_t size) {
  size_t k = *cap;
  if (need > UINT32_MAX / 2 || grow(pp, &k, need, size)) return -1;
  *cap = (uint32_t)k;
  return 0;
}

static void ht_put (ids_idc *c, uint32_t si) {
  uint32_t i = strhash(c->sess[si].id, c->sess[si].idlen) & (c->htcap - 1);
  while (c->ht[i]) i = (i + 1) & (c->htcap - 1);
  c->ht[i] = si + 1;
}

/* room for `more` sessions: arrays and a hash at most half full */
int idc_reserve_sessions (ids_idc *c, uint32_t more) {
  size_t need = (size_t)c->nsess + more;
  uint32_t cap = c->sesscap, i;
  if (grow32(&c->sess, &c->sesscap, need, sizeof *c->sess)) return -1;
  if (c->sesscap != cap || !c->byn) {
    idc_byn *b = realloc(c->byn, (size_t)c->sesscap * sizeof *b);
    if (!b) return -1;
    c->byn = b;
  }
  if (need * 2 > c->htcap) {
    uint32_t n = c->htcap ? c->htcap : 8, *old = c->ht, oldcap = c->htcap;
    while ((size_t)n < need * 2) n *= 2;
    if (!(c->ht = calloc(n, sizeof *c->ht))) {
      c->ht = old;
      return -1;
    }
    c->htcap = n;
    for (i = 0; i < oldcap; i++)
      if (old[i]) ht_put(c, old[i] - 1);
    free(old);
  }
  return 0;
}

/* after idc_reserve_sessions; takes a copy of id */
int idc_add_session (ids_idc *c, const char *id, idc_u128 n) {
  idc_session *s = &c->sess[c->nsess];
  uint32_t lo = 0, hi = c->nsess;
  memset(s, 0, sizeof *s);
  /* a chain with room, so that a new session never needs a second step
  ** that could fail once it is registered */
  s->chain = malloc(4 * sizeof *s->chain);
  s->gens = malloc(4 * sizeof *s->gens);
  s->id = strdup(id);
  if (!s->chain || !s->gens || !s->id) {
    free(s->chain);
    free(s->gens);
    free(s->id);
    memset(s, 0, sizeof *s);
    return -1;
  }
  s->chaincap = 4;
  s->idlen = strlen(id);
  s->n = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->byn[mid].n < n) lo = mid + 1;
    else hi = mid;
  }
  memmove(c->byn + lo + 1, c->byn + lo, (c->nsess - lo) * sizeof *c->byn);
  c->byn[lo].n = n;
  c->byn[lo].si = c->nsess;
  ht_put(c, c->nsess++);
  return 0;
}

/* room for one more cluster, in the final space and in session si */
/* room for `more` clusters in all, `n` of them in session si's chain */
int idc_reserve_clusters (ids_idc *c, uint32_t more, uint32_t si, uint32_t n) {
  uint32_t cap = c->clcap;
  if (grow32(&c->cl, &cap, (size_t)c->ncl + more, sizeof *c->cl)) return -1;
  if (cap != c->clcap) {
    int64_t *bf = realloc(c->bf, (size_t)cap * sizeof *bf);
    if (!bf) return -1;      /* cl grew alone: harmless, clcap unchanged */
    c->bf = bf;
    c->clcap = cap;
  }
  if (si != IDC_NONE) {
    idc_session *s = &c->sess[si];
    cap = s->chaincap;
    if (grow32(&s->chain, &cap, (size_t)s->nchain + n, sizeof *s->chain))
      return -1;
    if (cap != s->chaincap) {
      int64_t *g = realloc(s->gens, (size_t)cap * sizeof *g);
      if (!g) return -1;
      s->gens = g;
      s->chaincap = cap;
    }
  }
  return 0;
}

/* after idc_reserve_clusters: a cluster at the allocated limit */
int idc_add_cluster (ids_idc *c, uint32_t si, int64_t capacity,
                     int64_t count) {
  idc_session *s = &c->sess[si];
  idc_cluster *k = &c->cl[c->ncl];
  const idc_cluster *last = c->ncl ? &c->cl[c->ncl - 1] : NULL;
  const idc_cluster *prev = s->nchain ? &c->cl[s->chain[s->nchain - 1]] : NULL;
  k->base_final = last ? last->base_final + last->capacity : 0;
  k->base_gen = prev ? prev->base_gen + prev->capacity : 1;
  k->capacity = capacity;
  k->count = count;
  k->sess = si;
  c->bf[c->ncl] = k->base_final;
  s->gens[s->nchain] = k->base_gen;
  s->chain[s->nchain++] = c->ncl;
  if (si == 0) c->local_last = c->ncl;
  c->ncl++;
  idc_retile(c, si);
  return 0;
}

/* room for `more` runs beyond those there are */
int idc_reserve_runs (ids_idc *c, size_t more) {
  return grow(&c->runs, &c->runcap, c->nruns + more, sizeof *c->runs);
}

ids_idc *idc_alloc (void) {
  ids_idc *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->next_base = 1;
  c->cluster_size = IDS_IDC_DEFAULT_CLUSTER;
  c->local_last = IDC_NONE;
  c->ghost_cl = IDC_NONE;
  if (idc_reserve_sessions(c, 1)) {
    ids_idc_free(c);
    return NULL;
  }
  return c;
}

void ids_idc_free (ids_idc *c) {
  uint32_t i;
  if (!c) return;
  for (i = 0; i < c->nsess; i++) {
    free(c->sess[i].id);
    free(c->sess[i].chain);
    free(c->sess[i].gens);
  }
  free(c->sess);
  free(c->byn);
  free(c->ht);
  free(c->cl);
  free(c->bf);
  free(c->runs);
  free(c->rbuf);
  free(c->ghost_id);
  free(c);
}

/* ------------------------------------------------------------ equality */

static int same_cluster (const ids_idc *a, const idc_cluster *x,
                         const ids_idc *b, const idc_cluster *y) {
  return a->sess[x->sess].n == b->sess[y->sess].n
      && x->base_final == y->base_final && x->base_gen == y->base_gen
      && x->capacity == y->capacity && x->count == y->count;
}

/* Every session of a that holds clusters (or any, with local state) is
** in b with the same chain. */
static int sessions_within (const ids_idc *a, const ids_idc *b,
                            int with_local) {
  uint32_t i, j;
  for (i = 0; i < a->nsess; i++) {
    const idc_session *s = &a->sess[i], *t;
    uint32_t k = idc_pred_session(b, s->n);
    if (k == IDC_NONE || b->sess[k].n != s->n) {
      if (s->nchain || with_local) return 0;
      continue;
    }
    t = &b->sess[k];
    if (s->nchain != t->nchain) return 0;
    for (j = 0; j < s->nchain; j++)
      if (!same_cluster(a, &a->cl[s->chain[j]], b, &b->cl[t->chain[j]]))
        return 0;
  }
  return 1;
}

/* The reference's equals(other, includeLocalState): the same sessions and
** final space; with local state also the same local session, IDs made,
** next range and normalizer. */
int ids_idc_equals (const ids_idc *a, const ids_idc *b, int with_local) {
  uint32_t i;
  if (with_local &&
      (a->sess[0].n != b->sess[0].n || a->gen_count != b->gen_count
       || a->next_base != b->next_base || a->nruns != b->nruns
       || (a->nruns && memcmp(a->runs, b->runs,
                               a->nruns * sizeof *a->runs) != 0)))
    return 0;
  if (a->ncl != b->ncl) return 0;
  for (i = 0; i < a->ncl; i++)
    if (!same_cluster(a, &a->cl[i], b, &b->cl[i])) return 0;
  return sessions_within(a, b, with_local) && sessions_within(b, a,
                                                              with_local);
}
