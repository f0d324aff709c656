/*
** glue.c: the id-compressor's C API (idcompressor/idcompressor.h) as flat
** WebAssembly exports for the JavaScript package (idc.js).  Text goes
** through one scratch buffer in linear memory (UTF-8, idc.js's put),
** or, for the session IDs that calls name again and again, as copies
** that idc.js keeps (w_keep); IDs are doubles (JavaScript numbers, at
** most 2^53 - 1 in magnitude).  A failed call returns a NaN or 0 and leaves the
** library's message in the error buffer.
**
** The module is standalone (no emscripten JavaScript runtime): its only
** imports are js_random, js_ghost, js_fmt_g and the memory growth notice,
** all given by idc.js.
*/
#include <emscripten.h>
#include <endian.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "idc.h"

#define SCRATCH 65536

static _Alignas(8) char scratch[SCRATCH + 8];    /* 8: has_nul's last word */
static ids_error err;

EMSCRIPTEN_KEEPALIVE char *w_scratch (void) { return scratch; }
EMSCRIPTEN_KEEPALIVE const char *w_error (void) { return err.msg; }
EMSCRIPTEN_KEEPALIVE int w_error_code (void) { return err.code; }

/* ids_random: the browser's or node's crypto.getRandomValues (the library
** draws from its libsodium pool; here only a new session's UUID does). */
__attribute__((import_module("env"), import_name("js_random")))
void js_random (void *buf, size_t n);
void ids_random (void *out, size_t n) { js_random(out, n); }

/* The package reads and writes a blob's base64 in JavaScript (node's
** Buffer, or idc.js's own), so the C port's text forms are not exported
** (glue.c has no w_serialize or w_deserialize): their base64 is not
** linked (b64.c's tables were a quarter of the module) and these stand in
** for it where serialize.c's text reader still names it. */
size_t ids__b64_encode (char *out, const unsigned char *in, size_t n) {
  (void)out, (void)in, (void)n;
  return 0;
}
int ids__b64_decode (unsigned char *out, const char *text, size_t len,
                     size_t *nout) {
  (void)out, (void)text, (void)len;
  *nout = 0;
  return -1;
}

/* A double as C's %.<prec>g writes it, by JavaScript (idc.js's fmtG): its
** length at out, at most cap - 1 bytes */
__attribute__((import_module("env"), import_name("js_fmt_g")))
int js_fmt_g (double x, int prec, char *out, int cap);

/*
** ids_fail, here rather than core/error.c's: the library's messages need
** only %s, %.Ns, %d, %lld, %zu, %.17g and %%, and musl's vfprintf (with its
** floating-point printing) was a third of the module.  Output stops at the
** message buffer's end, NUL-terminated.
*/
static size_t put_str (char *o, size_t j, size_t cap, const char *t,
                       size_t max) {
  for (size_t i = 0; t[i] && i < max && j + 1 < cap; i++) o[j++] = t[i];
  return j;
}
static size_t put_int (char *o, size_t j, size_t cap, long long v) {
  char d[24];
  int k = 0;
  unsigned long long u = v < 0 ? 0 - (unsigned long long)v
                               : (unsigned long long)v;
  do d[k++] = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) d[k++] = '-';
  while (k && j + 1 < cap) o[j++] = d[--k];
  return j;
}
int ids_fail (ids_error *e, int code, const char *fmt, ...) {
  if (e) {
    char *o = e->msg;
    size_t j = 0, cap = sizeof e->msg;
    va_list ap;
    va_start(ap, fmt);
    for (const char *f = fmt; *f && j + 1 < cap; f++) {
      size_t prec = (size_t)-1;
      if (*f != '%') { o[j++] = *f; continue; }
      f++;
      if (*f == '.') {
        prec = 0;
        for (f++; *f >= '0' && *f <= '9'; f++) prec = prec * 10 + (size_t)(*f - '0');
      }
      switch (*f) {
      case 's': j = put_str(o, j, cap, va_arg(ap, const char *), prec); break;
      case 'd': j = put_int(o, j, cap, va_arg(ap, int)); break;
      case 'l': f += 2; j = put_int(o, j, cap, va_arg(ap, long long)); break;
      case 'z': f++; j = put_int(o, j, cap, (long long)va_arg(ap, size_t)); break;
      case 'g':
        j += (size_t)js_fmt_g(va_arg(ap, double), prec == (size_t)-1 ? 6
                              : (int)prec, o + j, (int)(cap - j));
        break;
      case '%': o[j++] = '%'; break;
      default: f--; break;        /* not one of ours: the text goes on */
      }
    }
    va_end(ap);
    o[j] = '\0';
    e->code = code;
  }
  return code;
}

/* whether the scratch's first n bytes hold a NUL: 8 at a time, the last
** word read whole (the scratch has room) with the bytes past n set
** (memchr's setup was a sixth of a recompress) */
static int has_nul (size_t n) {
  const uint64_t ones = 0x0101010101010101u;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t x;
    memcpy(&x, scratch + i, 8);
    x = le64toh(x);
    if (n - i < 8) x |= ~(uint64_t)0 << 8 * (n - i);
    if ((x - ones) & ~x & ones << 7) return 1;
  }
  return 0;
}

/* the scratch's first n bytes as a NUL-terminated string (n < SCRATCH);
** a NUL among them, which would end the text early in C, made a byte that
** no reader takes (the package refuses such text) */
static const char *text (int n) {
  if (n < 0) return NULL;
  if (has_nul((size_t)n))
    for (int i = 0; i < n; i++) scratch[i] = scratch[i] ? scratch[i] : (char)0xff;
  scratch[n] = '\0';
  return scratch;
}

/* the scratch's first n bytes as a malloc'd string, read as text() reads
** them (idc.js keeps it; w_release frees it), or NULL */
EMSCRIPTEN_KEEPALIVE char *w_keep (int n) { return strdup(text(n)); }

EMSCRIPTEN_KEEPALIVE ids_idc *w_new (int n) {
  ids_idc *c;
  return ids_idc_new(&c, text(n), &err) == IDS_OK ? c : NULL;
}
EMSCRIPTEN_KEEPALIVE void w_free (ids_idc *c) { ids_idc_free(c); }

/* the local session ID into the scratch: its length */
EMSCRIPTEN_KEEPALIVE int w_session (ids_idc *c) {
  const char *s = ids_idc_local_session_id(c);
  size_t n = strlen(s);
  memcpy(scratch, s, n);
  return (int)n;
}

EMSCRIPTEN_KEEPALIVE int w_set_cluster_size (ids_idc *c, double n) {
  return ids_idc_set_cluster_size(c, (int64_t)n, &err);
}
EMSCRIPTEN_KEEPALIVE double w_cluster_size (ids_idc *c) {
  return (double)ids_idc_cluster_size(c);
}

EMSCRIPTEN_KEEPALIVE double w_generate (ids_idc *c) {
  int64_t id;
  return ids_idc_generate(c, &id, &err) == IDS_OK ? (double)id : NAN;
}

/* a final or local ID, or (*is_uuid in scratch[0]) a UUID at scratch + 1 */
EMSCRIPTEN_KEEPALIVE double w_generate_unique (ids_idc *c) {
  int64_t id;
  int is_uuid = 0;
  if (ids_idc_generate_unique(c, &id, scratch + 1, &is_uuid, &err) != IDS_OK)
    return NAN;
  scratch[0] = (char)is_uuid;
  return (double)id;
}

/* A range, as doubles at scratch (8-aligned): has_ids, first_gen_count,
** count, requested_cluster_size, nlocal, then nlocal (gen, count) pairs
** (its session ID is the compressor's, which idc.js has); 0, or -1 for
** an error.  Finalize reads the same layout. */
static int putrange (const ids_idc_range *r) {
  double *d = (double *)scratch;
  size_t k = 5 + 2 * r->nlocal;
  if (k * 8 > SCRATCH) {
    ids_fail(&err, IDS_ERANGE, "range too large for the scratch buffer");
    return -1;
  }
  d[0] = r->has_ids;
  d[1] = (double)r->first_gen_count;
  d[2] = (double)r->count;
  d[3] = (double)r->requested_cluster_size;
  d[4] = (double)r->nlocal;
  for (size_t i = 0; i < r->nlocal; i++) {
    d[5 + 2 * i] = (double)r->local[i][0];
    d[6 + 2 * i] = (double)r->local[i][1];
  }
  return 0;
}

EMSCRIPTEN_KEEPALIVE int w_take_next_range (ids_idc *c) {
  ids_idc_range r;
  return ids_idc_take_next_range(c, &r, &err) == IDS_OK ? putrange(&r) : -1;
}
EMSCRIPTEN_KEEPALIVE int w_take_unfinalized_range (ids_idc *c) {
  ids_idc_range r;
  return ids_idc_take_unfinalized_range(c, &r, &err) == IDS_OK
         ? putrange(&r) : -1;
}
EMSCRIPTEN_KEEPALIVE int w_reset_unfinalized_range (ids_idc *c) {
  return ids_idc_reset_unfinalized_range(c, &err);
}

/* the range at scratch as putrange writes it (its local ranges are not
** read); its session ID a kept text (idc.js's keep).  After it, the
** finalized limit (w_final_view's) at scratch[4] as a double. */
EMSCRIPTEN_KEEPALIVE int w_finalize_range (ids_idc *c, const char *sid) {
  double *d = (double *)scratch;
  const idc_cluster *last;
  ids_idc_range r;
  int rc;
  r.session_id = sid;
  r.has_ids = d[0] != 0;
  r.first_gen_count = (int64_t)d[1];
  r.count = (int64_t)d[2];
  r.requested_cluster_size = (int64_t)d[3];
  r.nlocal = 0;
  r.local = NULL;
  if ((rc = ids_idc_finalize_range(c, &r, &err)) != IDS_OK) return rc;
  last = c->ncl ? &c->cl[c->ncl - 1] : NULL;
  d[4] = last ? (double)(last->base_final + last->count) : 0;
  /* the session's index, for w_finalize_fits (none for a range without
  ** IDs, which registers no session) */
  if (r.has_ids) {
    uint32_t si = idc_find_session(c, sid);
    d[5] = si == IDC_NONE ? -1 : (double)si;
  }
  else d[5] = -1;
  return IDS_OK;
}

/*
** The common finalize, without the session's text: a range of session si
** (an index w_finalize_range gave) that goes on from its last cluster's
** finalized IDs and fits in its room.  ids_idc_finalize_range does then
** only count += count, after checks that pass; this does the same.  Any
** other range (a new session, a first cluster, out of order, too big, a
** bad count or size, inside a ghost session) is not done here: -1, and
** idc.js calls w_finalize_range.  Done: the finalized limit.
*/
EMSCRIPTEN_KEEPALIVE double w_finalize_fits (ids_idc *c, int si, double first,
                                             double count, double size) {
  idc_cluster *k, *last;
  const idc_session *s;
  int64_t cnt;
  if (c->ghost || si < 0 || (uint32_t)si >= c->nsess) return -1;
  s = &c->sess[si];
  if (!(count >= 1 && count <= (double)IDC_MAX_SAFE && size >= 1
        && size <= IDS_IDC_MAX_CLUSTER && first >= 1
        && first <= (double)IDC_MAX_SAFE - count) || s->nchain == 0)
    return -1;
  cnt = (int64_t)count;
  if ((double)cnt != count || (double)(int64_t)first != first
      || (double)(int64_t)size != size)
    return -1;
  last = &c->cl[c->ncl - 1];
  if (last->base_final + last->capacity > IDC_MAX_SAFE - cnt - (int64_t)size)
    return -1;
  k = &c->cl[s->chain[s->nchain - 1]];
  if ((int64_t)first != k->base_gen + k->count || cnt > k->capacity - k->count)
    return -1;
  k->count += cnt;
  return (double)(last->base_final + last->count);
}

EMSCRIPTEN_KEEPALIVE double w_normalize_to_op_space (ids_idc *c, double id) {
  int64_t out;
  return ids_idc_normalize_to_op_space(c, (int64_t)id, &out, &err) == IDS_OK
         ? (double)out : NAN;
}

/* the origin session's ID: a kept text (idc.js's keep) */
EMSCRIPTEN_KEEPALIVE double w_normalize_to_session_space (ids_idc *c,
                                                            double id,
                                                            const char *origin) {
  int64_t out;
  return ids_idc_normalize_to_session_space(c, (int64_t)id, origin, &out,
                                            &err) == IDS_OK ? (double)out : NAN;
}

/* scratch[0]: found */
EMSCRIPTEN_KEEPALIVE double w_try_normalize_without_session (ids_idc *c,
                                                               double id) {
  int64_t out = 0;
  int found = 0;
  if (ids_idc_try_normalize_without_session(c, (int64_t)id, &out, &found,
                                            &err) != IDS_OK)
    return NAN;
  scratch[0] = (char)found;
  return (double)out;
}

/* the UUID into the scratch; the session's index, or -1 */
/* lookup.c's, for the glue */
int idc_decompress_at (ids_idc *c, int64_t id, uint32_t *si, int64_t *gen,
                       ids_error *e);
int idc_try_recompress_n (ids_idc *c, idc_u128 q, const char *uuid,
                          int64_t *out, int *found, ids_error *e);

/* decompress without the text: which session's UUID id is (the return
** value, or -1 for an error), and the offset from it (gen - 1) as a double
** at scratch[5].  idc.js makes the text from the session's UUID, asked
** once (w_uuid_at with offset 0), or w_uuid_at makes it. */
EMSCRIPTEN_KEEPALIVE int w_decompress (ids_idc *c, double id) {
  uint32_t si;
  int64_t g;
  if (idc_decompress_at(c, (int64_t)id, &si, &g, &err) != IDS_OK) return -1;
  ((double *)scratch)[5] = (double)(g - 1);
  return (int)si;
}

/* the UUID of session si's number plus off into the scratch */
EMSCRIPTEN_KEEPALIVE void w_uuid_at (const ids_idc *c, int si, double off) {
  idc_format(c->sess[si].n + (idc_u128)(int64_t)off, scratch);
}

/* try_recompress, whose answer is the compressed ID, or Infinity when the
** UUID is not the document's, or NaN for an error: the two forms below */
static double recompressed (int rc, int64_t out, int found) {
  return rc != IDS_OK ? NAN : found ? (double)out : INFINITY;
}

/* a UUID in its canonical shape, which idc.js read into the four 32-bit
** words of its 32 digits (in order, each word's first digit its highest):
** no text crosses */
EMSCRIPTEN_KEEPALIVE double w_recompress_words (ids_idc *c, uint32_t w0,
                                                uint32_t w1, uint32_t w2,
                                                uint32_t w3) {
  idc_u128 q = idc_strip((idc_u128)((uint64_t)w0 << 32 | w1) << 64
                        | ((uint64_t)w2 << 32 | w3));
  int64_t out = 0;
  int found = 0;
  int rc = idc_try_recompress_n(c, q, NULL, &out, &found, &err);
  return recompressed(rc, out, found);
}

/* any other text: the scratch's first n bytes (read before they are
** written) */
EMSCRIPTEN_KEEPALIVE double w_try_recompress (ids_idc *c, int n) {
  int64_t out = 0;
  int found = 0;
  int rc = ids_idc_try_recompress(c, text(n), &out, &found, &err);
  return recompressed(rc, out, found);
}

EMSCRIPTEN_KEEPALIVE void w_release (void *p) { free(p); }
EMSCRIPTEN_KEEPALIVE void *w_alloc (int n) { return malloc((size_t)n); }

/* A ghost session runs JavaScript: the callback the package holds, through
** this import; it returns 0, or nonzero if the callback threw (the
** exception is kept on the JavaScript side and thrown again there). */
__attribute__((import_module("env"), import_name("js_ghost")))
int js_ghost (void);
static int ghost (ids_idc *c, void *ud, ids_error *e) {
  (void)c, (void)ud;
  return js_ghost() ? ids_fail(e, IDS_EINVAL, "ghost session callback threw")
                    : IDS_OK;
}
EMSCRIPTEN_KEEPALIVE int w_ghost_session (ids_idc *c, int n) {
  return ids_idc_ghost_session(c, text(n), ghost, NULL, &err);
}

/* the scratch's first n bytes: the reference's isStableId */
EMSCRIPTEN_KEEPALIVE int w_is_stable_id (int n) {
  return ids_idc_is_stable_id(text(n));
}

/* The next generates that make eager finals: their count, the first at
** scratch as a double (idc.js hands them out and then applies them with
** w_generate_n). */
EMSCRIPTEN_KEEPALIVE double w_eager (ids_idc *c) {
  int64_t first = 0, n = ids_idc_eager(c, &first);
  *(double *)scratch = (double)first;
  return (double)n;
}

/* n generates whose IDs were handed out already (eager finals): 0, or
** nonzero with the error kept */
EMSCRIPTEN_KEEPALIVE int w_generate_n (ids_idc *c, double n) {
  return ids_idc_eager_apply(c, (int64_t)n, &err);
}

/* serialize's bytes (malloc'd; their length at scratch as a double) */
EMSCRIPTEN_KEEPALIVE uint8_t *w_serialize_bytes (ids_idc *c, int with_session) {
  uint8_t *out;
  size_t len;
  if (ids_idc_serialize_bytes(c, with_session, &out, &len, &err) != IDS_OK)
    return NULL;
  *(double *)scratch = (double)len;
  return out;
}

/* bytes of the heap in use (the allocator's count): the lifecycle test's */
EMSCRIPTEN_KEEPALIVE double w_heap_in_use (void) {
  return (double)mallinfo().uordblks;
}

/* the blob's bytes: n at p (w_alloc'd); the new session ID as for
** w_deserialize */
EMSCRIPTEN_KEEPALIVE ids_idc *w_deserialize_bytes (const uint8_t *p, int n,
                                                   int m) {
  ids_idc *c;
  return ids_idc_deserialize_bytes(&c, p, (size_t)n, text(m), &err) == IDS_OK
         ? c : NULL;
}

/* The reference's IdCompressor#equals(other, includeLocalState) */
EMSCRIPTEN_KEEPALIVE int w_equals (const ids_idc *a, const ids_idc *b,
                                   int with_local) {
  return ids_idc_equals(a, b, with_local);
}

/*
** The reference's startGhostSession (IdCompressor#startGhostSession, which
** its test utilities' always-finalized compressor uses): a ghost session
** for the scratch's first n bytes that no call ends.  The checks are
** ids_idc_ghost_session's: another in progress (0x8fe), text that is not
** hex, the compressor's own session.
*/
EMSCRIPTEN_KEEPALIVE int w_ghost_start (ids_idc *c, int n) {
  const char *id = text(n);
  idc_u128 g;
  int rc;
  if (c->ghost)
    return ids_fail(&err, IDS_EINVAL, "begin_ghost_session: a ghost session "
                    "is in progress (0x8fe)");
  if ((rc = idc_parse(id, &g, "ghost session id", &err))) return rc;
  if (g == c->sess[0].n)
    return ids_fail(&err, IDS_EINVAL, "begin_ghost_session: ghost session "
                    "id '%s' is this compressor's own session: its ghost IDs "
                    "would repeat the UUIDs of its own", id);
  if (!(c->ghost_id = strdup(id)))
    return ids_fail(&err, IDS_ENOMEM, "id-compressor: out of memory");
  c->ghost = 1;
  c->ghost_cl = IDC_NONE;
  return IDS_OK;
}

/* For the package's telemetry: the local session's cluster count, its last
** cluster's capacity and count, and the IDs it made, as doubles at scratch */
EMSCRIPTEN_KEEPALIVE void w_local_state (const ids_idc *c) {
  double *d = (double *)scratch;
  const idc_cluster *k = c->local_last == IDC_NONE ? NULL
                                                   : &c->cl[c->local_last];
  d[0] = c->sess[0].nchain;
  d[1] = k ? (double)k->capacity : 0;
  d[2] = k ? (double)k->count : 0;
  d[3] = (double)c->gen_count;
}

/*
** For idc.js's finals in session space without a call: the finalized limit
** (finals below it are finalized, or another session's eager finals: the
** reference's answer is the final itself unless it is in a cluster of the
** local session), then the local session's cluster count, then (base
** final, capacity) of its clusters from the from-th, at most max of them,
** as doubles at scratch.  Earlier clusters never change; only the last may
** grow (an expansion), so idc.js asks again from its last.
*/
EMSCRIPTEN_KEEPALIVE void w_final_view (const ids_idc *c, int from, int max) {
  double *d = (double *)scratch;
  const idc_cluster *last = c->ncl ? &c->cl[c->ncl - 1] : NULL;
  const idc_session *s = &c->sess[0];
  uint32_t i, n = 0;
  d[0] = last ? (double)(last->base_final + last->count) : 0;
  d[1] = s->nchain;
  for (i = (uint32_t)from; i < s->nchain && n < (uint32_t)max; i++, n++) {
    const idc_cluster *k = &c->cl[s->chain[i]];
    d[2 + 2 * n] = (double)k->base_final;
    d[3 + 2 * n] = (double)k->capacity;
  }
}
