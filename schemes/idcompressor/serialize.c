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
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "idc.h"

/* words are little-endian whatever the host */
static void put_u (unsigned char *p, uint64_t v) {
  v = htole64(v);
  memcpy(p, &v, 8);
}

static uint64_t get_u (const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return le64toh(v);
}

static void put_f (unsigned char *p, int64_t v) {
  double d = (double)v;
  uint64_t u;
  memcpy(&u, &d, 8);
  put_u(p, u);
}

static double get_f (const unsigned char *p) {
  uint64_t u = get_u(p);
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static int nomem (ids_error *e) {
  return ids_fail(e, IDS_ENOMEM, "id-compressor: out of memory");
}

int ids_idc_serialize (ids_idc *c, int with_session, char **out, size_t *len,
                       ids_error *e) {
  uint32_t *widx, nw = 0, i;
  size_t words, nbytes, b64;
  unsigned char *buf, *p;
  char *text;
  *out = NULL;
  if (c->ghost)
    return ids_fail(e, IDS_EINVAL, "serialize: not allowed inside a ghost "
                    "session (0x8a9)");
  if (!(widx = malloc(((size_t)c->nsess + 1) * sizeof *widx)))
    return nomem(e);
  for (i = 0; i < c->nsess; i++)
    widx[i] = with_session || c->sess[i].nchain ? nw++ : IDC_NONE;
  words = 4 + 2 * (size_t)nw + 3 * (size_t)c->ncl
          + (with_session ? 3 + 2 * c->nruns : 0);
  nbytes = words * 8;
  b64 = sodium_base64_ENCODED_LEN(nbytes, sodium_base64_VARIANT_ORIGINAL);
  buf = malloc(nbytes);
  text = malloc(b64);
  if (!buf || !text) {
    free(widx);
    free(buf);
    free(text);
    return nomem(e);
  }
  p = buf;
  put_f(p, 2), p += 8;
  put_f(p, with_session ? 1 : 0), p += 8;
  put_f(p, nw), p += 8;
  put_f(p, c->ncl), p += 8;
  for (i = 0; i < c->nsess; i++) {
    if (widx[i] == IDC_NONE) continue;
    put_u(p, (uint64_t)c->sess[i].n), p += 8;
    put_u(p, (uint64_t)(c->sess[i].n >> 64)), p += 8;
  }
  for (i = 0; i < c->ncl; i++) {
    put_f(p, widx[c->cl[i].sess]), p += 8;
    put_f(p, c->cl[i].capacity), p += 8;
    put_f(p, c->cl[i].count), p += 8;
  }
  if (with_session) {
    size_t r;
    put_f(p, c->gen_count), p += 8;
    put_f(p, c->next_base), p += 8;
    put_f(p, (int64_t)c->nruns), p += 8;
    for (r = 0; r < c->nruns; r++) {
      put_f(p, c->runs[r][0]), p += 8;
      put_f(p, c->runs[r][1]), p += 8;
    }
  }
  sodium_bin2base64(text, b64, buf, nbytes, sodium_base64_VARIANT_ORIGINAL);
  free(widx);
  free(buf);
  *out = text;
  *len = b64 - 1;
  return IDS_OK;
}

/* ------------------------------------------------------------ reading */

typedef struct reader {
  const unsigned char *p;
  size_t left;          /* words */
  ids_error *e;
} reader;

static int short_blob (reader *r, const char *what) {
  return ids_fail(r->e, IDS_EINVAL, "deserialize: the blob ends inside %s "
                  "(0x9d9)", what);
}

/* a count or index: a float64 holding an integer in lo..hi */
static int read_int (reader *r, const char *what, int64_t lo, int64_t hi,
                     int64_t *v) {
  double d;
  *v = 0;
  if (r->left == 0) return short_blob(r, what);
  d = get_f(r->p);
  if (!(d >= (double)lo && d <= (double)hi) || d != (double)(int64_t)d)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: %s is %.17g, not an "
                    "integer in %lld..%lld", what, d, (long long)lo,
                    (long long)hi);
  *v = (int64_t)d;
  r->p += 8;
  r->left--;
  return IDS_OK;
}

static int resume_error (ids_error *e, const char *id) {
  return ids_fail(e, IDS_EEXIST, "deserialize: cannot resume existing "
                  "session '%.60s'", id);
}

static int read_sessions (ids_idc *c, reader *r, int64_t ns) {
  int64_t i;
  if ((size_t)ns > r->left / 2) return short_blob(r, "the sessions");
  if (idc_reserve_sessions(c, (uint32_t)ns)) return nomem(r->e);
  for (i = 0; i < ns; i++) {
    char id[IDS_IDC_UUID_LEN + 1];
    uint64_t lo = get_u(r->p), hi = get_u(r->p + 8);
    idc_u128 n = (idc_u128)hi << 64 | lo;
    uint32_t p;
    if (hi >> 58)
      return ids_fail(r->e, IDS_EINVAL, "deserialize: session %lld's number "
                      "is above 2^122", (long long)i);
    idc_format(n, id);
    p = idc_pred_session(c, n);
    if ((p != IDC_NONE && c->sess[p].n == n)
        || idc_find_session(c, id) != IDC_NONE)
      return resume_error(r->e, id);
    if (idc_add_session(c, id, n)) return nomem(r->e);
    r->p += 16;
    r->left -= 2;
  }
  return IDS_OK;
}

static int read_clusters (ids_idc *c, reader *r, int64_t nc, uint32_t off) {
  int64_t i, limit = 0;
  if ((size_t)nc > r->left / 3) return short_blob(r, "the clusters");
  for (i = 0; i < nc; i++) {
    int64_t si, cap, cnt;
    int rc;
    idc_session *s;
    if ((rc = read_int(r, "a cluster's session index", 0,
                       (int64_t)c->nsess - off - 1, &si))
        || (rc = read_int(r, "a cluster's capacity", 1,
                          IDC_MAX_SAFE - limit, &cap))
        || (rc = read_int(r, "a cluster's count", 0, cap, &cnt)))
      return rc;
    s = &c->sess[si + off];
    if (s->nchain && c->cl[s->chain[s->nchain - 1]].base_gen
                     + c->cl[s->chain[s->nchain - 1]].capacity
                     > IDC_MAX_SAFE - cap)
      return ids_fail(r->e, IDS_EINVAL, "deserialize: a session has more "
                      "than 2^53-1 IDs");
    if (idc_reserve_clusters(c, (uint32_t)(si + off))) return nomem(r->e);
    idc_add_cluster(c, (uint32_t)(si + off), cap, cnt);
    limit += cap;
  }
  return IDS_OK;
}

static int read_local (ids_idc *c, reader *r) {
  int64_t nr, i, prev = 0;
  int rc;
  if ((rc = read_int(r, "localGenCount", 0, IDC_MAX_SAFE, &c->gen_count))
      || (rc = read_int(r, "nextRangeBaseGenCount", 1, c->gen_count + 1,
                        &c->next_base))
      || (rc = read_int(r, "the normalizer's run count", 0, IDC_MAX_SAFE,
                        &nr)))
    return rc;
  if ((size_t)nr > r->left / 2) return short_blob(r, "the normalizer");
  for (i = 0; i < nr; i++) {
    int64_t start, cnt;
    /* runs in increasing order, disjoint, within the generated gens */
    if ((rc = read_int(r, "a normalizer run's start", prev + 1,
                       c->gen_count, &start))
        || (rc = read_int(r, "a normalizer run's count", 1,
                          c->gen_count - start + 1, &cnt)))
      return rc;
    if (idc_push_run(c, start, cnt)) return nomem(r->e);
    prev = start + cnt - 1;
  }
  return IDS_OK;
}

static int decode (const char *text, size_t len, unsigned char **bin,
                   size_t *n, ids_error *e) {
  if (!(*bin = malloc(len / 4 * 3 + 3))) return nomem(e);
  if (sodium_base642bin(*bin, len / 4 * 3 + 3, text, len, NULL, n, NULL,
                        sodium_base64_VARIANT_ORIGINAL))
    return ids_fail(e, IDS_EINVAL, "deserialize: '%.40s%s' is not base64",
                    text, len > 40 ? "..." : "");
  if (*n % 8)
    return ids_fail(e, IDS_EINVAL, "deserialize: %zu bytes is not a whole "
                    "number of 8-byte words", *n);
  return IDS_OK;
}

static int read_all (ids_idc *c, reader *r, const char *new_id) {
  int64_t version = 0, ns = 0, nc = 0;
  double local;
  uint32_t off = 0;
  int rc;
  idc_u128 n;
  if ((rc = read_int(r, "the version", 0, IDC_MAX_SAFE, &version)))
    return rc;
  if (version == 1)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: version 1 is no longer "
                    "supported");
  if (version != 2)
    return ids_fail(r->e, IDS_EINVAL, "deserialize: unknown version %lld",
                    (long long)version);
  if (r->left == 0) return short_blob(r, "the header");
  local = get_f(r->p);
  r->p += 8, r->left--;
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
  return IDS_OK;
}

int ids_idc_deserialize (ids_idc **out, const char *text, size_t len,
                         const char *new_session_id, ids_error *e) {
  unsigned char *bin = NULL;
  size_t n = 0;
  ids_idc *c = NULL;
  reader r;
  int rc;
  *out = NULL;
  if (text == NULL) return ids_fail(e, IDS_EINVAL, "deserialize: missing text");
  if ((rc = decode(text, len, &bin, &n, e))) goto done;
  if (!(c = idc_alloc())) {
    rc = nomem(e);
    goto done;
  }
  r.p = bin;
  r.left = n / 8;
  r.e = e;
  if ((rc = read_all(c, &r, new_session_id))) goto done;
  *out = c;
  c = NULL;
done:
  ids_idc_free(c);
  free(bin);
  return rc;
}
