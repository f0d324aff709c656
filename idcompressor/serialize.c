/*
** serialize.c: format version 2, base64 (standard alphabet, padded) of
** little-endian 8-byte words.  Counts and indexes are float64, session
** numbers two raw uint64 (low, high).  Layout: version, hasLocalState,
** sessions, clusters; per session lo, hi; per cluster (session index,
** capacity, count) in final-space order; with local state localGenCount,
** nextRangeBaseGenCount, runs, then (start, count) per run.
** Deserialize builds a new compressor and checks every word first: a bad
** blob is an error and never a partial compressor.
*/
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "idc.h"
#include "internal.h"

/* words are little-endian whatever the host */
static uint64_t get_u (const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return le64toh(v);
}

/* The words are written as bytes, at the end of the text's room when the
** text is wanted, and base64 then turns them into text in place (it reads
** each step's bytes before it writes, and never writes past them): no
** second copy of the blob, and the writer keeps its pointer in a register
** (a writer that flushed 1.5 KB at a time kept its state in memory and
** spent 4x as long: 26 against 6 us for 4,000 clusters in WebAssembly). */
static unsigned char *put_u (unsigned char *o, uint64_t v) {
  v = htole64(v);
  memcpy(o, &v, 8);
  return o + 8;
}

static unsigned char *put_f (unsigned char *o, int64_t v) {
  double d = (double)v;
  uint64_t u;
  memcpy(&u, &d, 8);
  return put_u(o, u);
}

static int nomem (ids_error *e) {
  return ids_fail(e, IDS_ENOMEM, "id-compressor: out of memory");
}

/* the blob's words at o; widx: each session's index in the blob */
static void put_blob (unsigned char *o, ids_idc *c, const uint32_t *widx,
                      uint32_t nw, int with_session) {
  uint32_t i;
  o = put_f(o, 2);
  o = put_f(o, with_session ? 1 : 0);
  o = put_f(o, nw);
  o = put_f(o, c->ncl);
  for (i = 0; i < c->nsess; i++) {
    if (widx[i] == IDC_NONE) continue;
    o = put_u(o, (uint64_t)c->sess[i].n);
    o = put_u(o, (uint64_t)(c->sess[i].n >> 64));
  }
  for (i = 0; i < c->ncl; i++) {
    o = put_f(o, widx[c->cl[i].sess]);
    o = put_f(o, c->cl[i].capacity);
    o = put_f(o, c->cl[i].count);
  }
  if (with_session) {
    size_t r;
    o = put_f(o, c->gen_count);
    o = put_f(o, c->next_base);
    o = put_f(o, (int64_t)c->nruns);
    for (r = 0; r < c->nruns; r++) {
      o = put_f(o, c->runs[r][0]);
      o = put_f(o, c->runs[r][1]);
    }
  }
}

/* The blob as base64 text (NUL-terminated), or (raw) as its bytes. */
static int emit (ids_idc *c, int with_session, int raw, char **out,
                 size_t *len, ids_error *e) {
  uint32_t *widx, nw = 0, i;
  size_t bytes, room;
  char *text;
  *out = NULL;
  if (c->ghost)
    return ids_fail(e, IDS_EINVAL, "serialize: not allowed inside a ghost "
                    "session (0x8a9)");
  if (!(widx = malloc(((size_t)c->nsess + 1) * sizeof *widx)))
    return nomem(e);
  for (i = 0; i < c->nsess; i++)
    widx[i] = with_session || c->sess[i].nchain ? nw++ : IDC_NONE;
  bytes = 8 * (4 + 2 * (size_t)nw + 3 * (size_t)c->ncl
               + (with_session ? 3 + 2 * c->nruns : 0));
  room = raw ? bytes : (bytes + 2) / 3 * 4;
  if (!(text = malloc(room + 1))) {
    free(widx);
    return nomem(e);
  }
  put_blob((unsigned char *)text + room - bytes, c, widx, nw, with_session);
  free(widx);
  if (!raw)
    ids__b64_encode(text, (unsigned char *)text + room - bytes, bytes);
  *out = text;
  *len = room;
  return IDS_OK;
}

int ids_idc_serialize (ids_idc *c, int with_session, char **out, size_t *len,
                       ids_error *e) {
  return emit(c, with_session, 0, out, len, e);
}

int ids_idc_serialize_bytes (ids_idc *c, int with_session, uint8_t **out,
                             size_t *len, ids_error *e) {
  return emit(c, with_session, 1, (char **)out, len, e);
}

/* ------------------------------------------------------------ reading */

/* The reader reads words from b: the blob's bytes themselves, or (text)
** a buffer that it fills as it goes, decoding a few KB at a time, so
** that no copy of the binary blob is made.  Text that is not base64 is an
** error where it is met. */
#define RWORDS 384                /* 3 KB of words from 4 KB of text */

typedef struct reader {
  const char *t, *text;     /* text not yet decoded; all of it */
  size_t tleft, len;
  size_t left;              /* words not yet read */
  const unsigned char *b;   /* words; b[8 * k] the next, n of them */
  size_t k, n;
  ids_error *e;
  unsigned char buf[8 * RWORDS];
} reader;

static int not_base64 (reader *r) {
  return ids_fail(r->e, IDS_EINVAL, "deserialize: '%.40s%s' is not base64",
                  r->text, r->len > 40 ? "..." : "");
}

static int refill (reader *r) {
  size_t chars = r->tleft < RWORDS / 3 * 32 ? r->tleft : RWORDS / 3 * 32;
  size_t nb;
  /* padding is only at the very end */
  if (ids__b64_decode(r->buf, r->t, chars, &nb) ||
      (chars < r->tleft && nb != chars / 4 * 3))
    return not_base64(r);
  r->t += chars;
  r->tleft -= chars;
  r->k = 0;
  r->n = nb / 8;
  return IDS_OK;
}

/* the next word; the caller checked that there is one */
static inline int word (reader *r, uint64_t *w) {
  int rc;
  if (r->k == r->n && (rc = refill(r)) != IDS_OK) return rc;
  *w = get_u(r->b + 8 * r->k++);
  r->left--;
  return IDS_OK;
}

static int short_blob (reader *r, const char *what) {
  return ids_fail(r->e, IDS_EINVAL, "deserialize: the blob ends inside %s "
                  "(0x9d9)", what);
}

static int not_int (reader *r, const char *what, double d, int64_t lo,
                    int64_t hi) {
  return ids_fail(r->e, IDS_EINVAL, "deserialize: %s is %.17g, not an "
                  "integer in %lld..%lld", what, d, (long long)lo,
                  (long long)hi);
}

static double as_double (uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* d as an integer in lo..hi, or 0 (lo and hi within 0..2^53, where every
** integer is a double) */
static inline int whole (double d, double lo, double hi, int64_t *v) {
  if (!(d >= lo && d <= hi)) return 0;
  *v = (int64_t)d;
  return (double)*v == d;
}

/* a count or index: a float64 holding an integer in lo..hi (both within
** 0..2^53); inline, since a document has three per cluster */
static inline int read_int (reader *r, const char *what, int64_t lo,
                            int64_t hi, int64_t *v) {
  uint64_t u;
  double d;
  int rc;
  *v = 0;
  if (__builtin_expect(r->left == 0, 0)) return short_blob(r, what);
  if ((rc = word(r, &u)) != IDS_OK) return rc;
  d = as_double(u);
  if (__builtin_expect(!whole(d, (double)lo, (double)hi, v), 0)) {
    *v = 0;
    return not_int(r, what, d, lo, hi);
  }
  return IDS_OK;
}

static int resume_error (ids_error *e, const char *id) {
  return ids_fail(e, IDS_EEXIST, "deserialize: cannot resume existing "
                  "session '%.60s'", id);
}

static int read_sessions (ids_idc *c, reader *r, int64_t ns) {
  int64_t i;
  int rc;
  if ((size_t)ns > r->left / 2) return short_blob(r, "the sessions");
  if (idc_reserve_sessions(c, (uint32_t)ns)) return nomem(r->e);
  for (i = 0; i < ns; i++) {
    char id[IDS_IDC_UUID_LEN + 1];
    uint64_t lo, hi;
    idc_u128 n;
    uint32_t p;
    if ((rc = word(r, &lo)) != IDS_OK || (rc = word(r, &hi)) != IDS_OK)
      return rc;
    if (hi >> 58)
      return ids_fail(r->e, IDS_EINVAL, "deserialize: session %lld's number "
                      "is above 2^122", (long long)i);
    n = (idc_u128)hi << 64 | lo;
    idc_format(n, id);
    p = idc_pred_session(c, n);
    if ((p != IDC_NONE && c->sess[p].n == n)
        || idc_find_session(c, id) != IDC_NONE)
      return resume_error(r->e, id);
    if (idc_add_session(c, id, n)) return nomem(r->e);
  }
  return IDS_OK;
}

/* A cluster's three words straight from the buffer when they are all
** there and good (integers: session index in 0..smax, capacity in
** 1..cmax, count in 0..capacity); 0 leaves them to read_int, which says
** what is wrong. */
static inline int quick3 (reader *r, double smax, double cmax, int64_t *si,
                          int64_t *cap, int64_t *cnt) {
  const unsigned char *p = r->b + 8 * r->k;
  double b = as_double(get_u(p + 8));
  if (!(whole(as_double(get_u(p)), 0, smax, si)
        && whole(b, 1, cmax, cap)
        && whole(as_double(get_u(p + 16)), 0, b, cnt)))
    return 0;
  r->k += 3;
  r->left -= 3;
  return 1;
}

/* A normalizer run the same way: start in lo..hi, count in
** 1..hi-start+1. */
static inline int quick2 (reader *r, int64_t lo, int64_t hi, int64_t *start,
                          int64_t *cnt) {
  const unsigned char *p = r->b + 8 * r->k;
  double a = as_double(get_u(p));
  if (!(whole(a, (double)lo, (double)hi, start)
        && whole(as_double(get_u(p + 8)), 1, (double)(hi - *start + 1), cnt)))
    return 0;
  r->k += 2;
  r->left -= 2;
  return 1;
}

/* Two passes, into a new compressor (no clusters yet): the first checks
** every cluster and writes it whole into the room reserved for them,
** counting each session's, so that every chain grows once; the second
** only links the chains.  (idc_add_cluster would find each cluster's
** neighbours again: two thirds of the time of a document.) */
static int read_clusters (ids_idc *c, reader *r, int64_t nc, uint32_t off) {
  idc_cluster *k;
  uint32_t *per;
  int64_t i, limit = 0, *gens;
  double smax = (double)c->nsess - off - 1;
  int rc = IDS_OK;
  if ((size_t)nc > r->left / 3) return short_blob(r, "the clusters");
  if (nc == 0) return IDS_OK;    /* nothing to reserve: c->cl may be NULL */
  if (idc_reserve_clusters(c, (uint32_t)nc, IDC_NONE, 0)) return nomem(r->e);
  per = calloc(c->nsess, sizeof *per);
  gens = calloc(c->nsess, sizeof *gens);    /* each session's gens so far */
  if (!per || !gens) {
    rc = nomem(r->e);
    goto done;
  }
  for (i = 0, k = c->cl; i < nc; i++, k++) {
    int64_t si, cap, cnt;
    if (r->n - r->k >= 3 && quick3(r, smax, (double)(IDC_MAX_SAFE - limit),
                                   &si, &cap, &cnt))
      ;
    else if ((rc = read_int(r, "a cluster's session index", 0,
                            (int64_t)c->nsess - off - 1, &si))
             || (rc = read_int(r, "a cluster's capacity", 1,
                               IDC_MAX_SAFE - limit, &cap))
             || (rc = read_int(r, "a cluster's count", 0, cap, &cnt)))
      goto done;
    si += off;
    if (per[si] && gens[si] >= IDC_MAX_SAFE - cap) {
      rc = ids_fail(r->e, IDS_EINVAL, "deserialize: a session has more "
                    "than 2^53-1 IDs");
      goto done;
    }
    k->base_final = c->bf[i] = limit;
    k->base_gen = gens[si] + 1;
    k->capacity = cap;
    k->count = cnt;
    k->sess = (uint32_t)si;
    gens[si] += cap;
    per[si]++;
    limit += cap;
  }
  for (uint32_t s = 0; s < c->nsess; s++)
    if (idc_reserve_clusters(c, 0, s, per[s])) {
      rc = nomem(r->e);
      goto done;
    }
  for (i = 0, k = c->cl; i < nc; i++, k++) {
    idc_session *s = &c->sess[k->sess];
    s->gens[s->nchain] = k->base_gen;
    s->chain[s->nchain++] = (uint32_t)i;
    if (k->sess == 0) c->local_last = (uint32_t)i;
  }
  c->ncl = (uint32_t)nc;
  for (uint32_t s = 0; s < c->nsess; s++)
    if (c->sess[s].nchain) idc_retile(c, s);
done:
  free(per);
  free(gens);
  return rc;
}

static int read_local (ids_idc *c, reader *r) {
  int64_t nr, i, prev = 0, final = 0;
  int rc;
  if ((rc = read_int(r, "localGenCount", 0, IDC_MAX_SAFE, &c->gen_count)))
    return rc;
  /* the local session's finals are IDs it made: fewer made would hand
  ** out finals again and never finalize its own range */
  if (c->local_last != IDC_NONE) {
    const idc_cluster *k = &c->cl[c->local_last];
    final = k->base_gen + k->count - 1;
    if (final > c->gen_count)
      return ids_fail(r->e, IDS_EINVAL, "deserialize: localGenCount %lld "
                      "is below the %lld local IDs its clusters finalized",
                      (long long)c->gen_count, (long long)final);
  }
  /* the next range begins past every local ID finalized: one that began
  ** within them could never be finalized */
  if ((rc = read_int(r, "nextRangeBaseGenCount", final + 1, c->gen_count + 1,
                        &c->next_base))
      || (rc = read_int(r, "the normalizer's run count", 0, IDC_MAX_SAFE,
                        &nr)))
    return rc;
  if ((size_t)nr > r->left / 2) return short_blob(r, "the normalizer");
  if (idc_reserve_runs(c, (size_t)nr)) return nomem(r->e);
  for (i = 0; i < nr; i++) {
    int64_t start, cnt;
    /* runs in increasing order, disjoint, within the generated gens */
    if (r->n - r->k >= 2 && quick2(r, prev + 1, c->gen_count, &start, &cnt))
      ;
    else if ((rc = read_int(r, "a normalizer run's start", prev + 1,
                            c->gen_count, &start))
             || (rc = read_int(r, "a normalizer run's count", 1,
                               c->gen_count - start + 1, &cnt)))
      return rc;
    if (idc_push_run(c, start, cnt)) return nomem(r->e);
    prev = start + cnt - 1;
  }
  return IDS_OK;
}

/* The words the blob holds: raw, all of its bytes, at once; text, from
** its length and padding. */
static int open_reader (reader *r, const char *text, size_t len, int raw,
                        ids_error *e) {
  size_t pad = 0, nb;
  r->t = r->text = text;
  r->tleft = r->len = len;
  r->b = r->buf;
  r->k = r->n = 0;
  r->e = e;
  if (raw) {
    if (len % 8)
      return ids_fail(e, IDS_EINVAL, "deserialize: %zu bytes is not a whole "
                      "number of 8-byte words", len);
    r->b = (const unsigned char *)text;
    r->n = r->left = len / 8;
    r->tleft = 0;
    return IDS_OK;
  }
  if (len % 4) return not_base64(r);
  if (len > 0) pad = (text[len - 1] == '=') + (text[len - 2] == '=');
  {
    const char *eq = memchr(text, '=', len - pad);
    if (eq)   /* the reference reads on past it; a blob never has it */
      return ids_fail(e, IDS_EINVAL, "deserialize: text after the '=' "
                      "padding at offset %zu (padding ends base64)",
                      (size_t)(eq - text));
  }
  nb = len / 4 * 3 - pad;
  if (nb % 8)
    return ids_fail(e, IDS_EINVAL, "deserialize: %zu bytes is not a whole "
                    "number of 8-byte words", nb);
  r->left = nb / 8;
  return IDS_OK;
}

static int read_all (ids_idc *c, reader *r, const char *new_id) {
  int64_t ns = 0, nc = 0;
  uint64_t u;
  double local;
  uint32_t off = 0;
  int rc;
  idc_u128 n;
  double v;
  /* the version is a number: anything but 1 and 2 (-1, 2.5, NaN, 1e20)
  ** is a version we do not know, said in the reference's words */
  if (r->left == 0) return short_blob(r, "the version");
  if ((rc = word(r, &u))) return rc;
  v = as_double(u);
  if (v == 1)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: version 1 is no longer "
                    "supported");
  if (v != 2)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: unknown version %.17g: "
                    "Unknown IdCompressor serialized version.", v);
  if (r->left == 0) return short_blob(r, "the header");
  if ((rc = word(r, &u))) return rc;
  local = as_double(u);
  if ((rc = read_int(r, "the session count", 0, UINT32_MAX / 4, &ns))
      || (rc = read_int(r, "the cluster count", 0, UINT32_MAX / 4, &nc)))
    return rc;
  if (local == 1.0 && new_id)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: the blob has a local "
                    "session; new_session_id must be absent (0x75e)");
  if (local != 1.0 && !new_id)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: the blob has no local "
                    "session; new_session_id is required (0x75d)");
  if (new_id) {
    if ((rc = idc_parse(new_id, &n, "new_session_id", r->e))) return rc;
    if (idc_add_session(c, new_id, n)) return nomem(r->e);
    off = 1;
  }
  if ((rc = read_sessions(c, r, ns))) return rc;
  if (c->nsess == 0)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: the blob has a local "
                    "session but no sessions (0x754)");
  if ((rc = read_clusters(c, r, nc, off))) return rc;
  if (local == 1.0 && (rc = read_local(c, r))) return rc;
  if (r->left)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: %zu words left over "
                    "(0x75f)", r->left);
  /* the rest of the text, if any, is base64 too (its words are counted
  ** above: none are left) */
  return IDS_OK;
}

/* The blob as base64 text, or (raw) as its bytes. */
static int load (ids_idc **out, const char *text, size_t len, int raw,
                 const char *new_session_id, ids_error *e) {
  ids_idc *c = NULL;
  reader *r;
  int rc;
  *out = NULL;
  if (text == NULL) return ids_fail(e, IDS_EINVAL, "deserialize: missing text");
  if (!(r = malloc(sizeof *r))) return nomem(e);
  if ((rc = open_reader(r, text, len, raw, e))) goto done;
  if (!(c = idc_alloc())) {
    rc = nomem(e);
    goto done;
  }
  if ((rc = read_all(c, r, new_session_id))) goto done;
  *out = c;
  c = NULL;
done:
  ids_idc_free(c);
  free(r);
  return rc;
}

int ids_idc_deserialize (ids_idc **out, const char *text, size_t len,
                         const char *new_session_id, ids_error *e) {
  return load(out, text, len, 0, new_session_id, e);
}

int ids_idc_deserialize_bytes (ids_idc **out, const uint8_t *bytes,
                               size_t len, const char *new_session_id,
                               ids_error *e) {
  return load(out, (const char *)bytes, len, 1, new_session_id, e);
}
