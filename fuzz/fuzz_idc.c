/*
** fuzz_idc.c: libFuzzer harness for the id-compressor
** (idcompressor/idcompressor.h).  The first byte picks what the rest is:
**   0  text handed to ids_idc_deserialize (with and without a new session)
**   1  bytes, base64-encoded here first, so that the fuzzer works on the
**      words of format 2 directly; the bytes also go to
**      ids_idc_deserialize_bytes, which must agree with the text's reading
**   2+ an operation stream on three compressors of one document
** Invariants (a broken one traps, so libFuzzer records the input):
**   - whatever deserializes re-serializes to bytes that deserialize to the
**     same state (the same bytes again);
**   - a failed deserialize leaves *out NULL and gives a message;
**   - a failed call changes nothing: serialize(true) and serialize(false)
**     give the same bytes before and after it, and it has a message.
*/
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idcompressor.h"

#define CHECK(cond) \
  do { if (!(cond)) fail(#cond, __LINE__); } while (0)

static void fail (const char *what, int line) {
  fprintf(stderr, "fuzz_idc.c:%d: invariant broken: %s\n", line, what);
  __builtin_trap();
}

static char *ser (ids_idc *c, int with) {
  char *s = NULL;
  size_t n;
  ids_error e;
  CHECK(ids_idc_serialize(c, with, &s, &n, &e) == IDS_OK);
  CHECK(strlen(s) == n);
  return s;
}

static const char NEWSID[] = "d4d4d4d4-0000-4000-8000-000000000001";

/* deserialize, re-serialize, deserialize again: the same bytes */
static void roundtrip (const char *text, size_t len, const char *sid) {
  ids_idc *a = NULL, *b = NULL;
  ids_error e;
  char *t1, *f1, *t2, *f2;
  e.msg[0] = '\0';
  if (ids_idc_deserialize(&a, text, len, sid, &e) != IDS_OK) {
    CHECK(a == NULL && e.msg[0] != '\0');
    return;
  }
  t1 = ser(a, 1);
  f1 = ser(a, 0);
  CHECK(ids_idc_deserialize(&b, t1, strlen(t1), NULL, &e) == IDS_OK);
  t2 = ser(b, 1);
  f2 = ser(b, 0);
  CHECK(strcmp(t1, t2) == 0 && strcmp(f1, f2) == 0);
  ids_idc_free(b);
  free(t2);
  free(f2);
  /* serialize(false) resumes into a new session, unless the blob holds it */
  if (ids_idc_deserialize(&b, f1, strlen(f1), NEWSID, &e) == IDS_OK) {
    f2 = ser(b, 0);
    CHECK(strcmp(f1, f2) == 0);
    free(f2);
    ids_idc_free(b);
  }
  ids_idc_free(a);
  free(t1);
  free(f1);
}

static void deserialize_text (const uint8_t *p, size_t n) {
  char *text = malloc(n + 1);
  memcpy(text, p, n);
  text[n] = '\0';
  roundtrip(text, n, NULL);
  roundtrip(text, n, NEWSID);
  free(text);
}

/* the bytes as base64, malloc'd */
static char *b64 (const uint8_t *p, size_t n) {
  size_t len = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
  char *text = malloc(len);
  sodium_bin2base64(text, len, p, n, sodium_base64_VARIANT_ORIGINAL);
  return text;
}

/* the bytes read as bytes and as their base64 text: the same verdict, the
** same message, the same state (serialize's text, and its bytes) */
static void same_as_text (const uint8_t *p, size_t n, const char *text,
                          const char *sid) {
  ids_idc *a = NULL, *b = NULL;
  ids_error ea, eb;
  int ra = ids_idc_deserialize(&a, text, strlen(text), sid, &ea);
  int rb = ids_idc_deserialize_bytes(&b, p, n, sid, &eb);
  CHECK(ra == rb);
  if (ra != IDS_OK) {
    CHECK(b == NULL && strcmp(ea.msg, eb.msg) == 0);
    return;
  }
  for (int with = 0; with <= 1; with++) {
    char *ta = ser(a, with), *tb = ser(b, with), *tr;
    uint8_t *raw = NULL;
    size_t rn;
    CHECK(ids_idc_serialize_bytes(b, with, &raw, &rn, &eb) == IDS_OK);
    tr = b64(raw, rn);
    CHECK(strcmp(ta, tb) == 0 && strcmp(ta, tr) == 0);
    free(ta), free(tb), free(tr), free(raw);
  }
  ids_idc_free(a);
  ids_idc_free(b);
}

static void deserialize_bytes (const uint8_t *p, size_t n) {
  char *text = b64(p, n);
  roundtrip(text, strlen(text), NULL);
  roundtrip(text, strlen(text), NEWSID);
  same_as_text(p, n, text, NULL);
  same_as_text(p, n, text, NEWSID);
  free(text);
}

/* ------------------------------------------------------ operation streams */

/* sessions close together, so that collisions happen */
static const char *const SIDS[] = {
  "c3c3c3c3-1234-4567-89ab-cdef01234567",
  "c3c3c3c3-1234-4567-89ab-cdef0123456a",
  "c3c3c3c3-1234-4567-89ab-cdef01234571",
  "C3C3C3C3-1234-4567-89AB-CDEF01234567",
  "ffffffff-ffff-4fff-bfff-fffffffffffe",
  "not-a-uuid",
};
#define NSIDS (sizeof SIDS / sizeof *SIDS)

typedef struct stream {
  const uint8_t *p;
  size_t n;
} stream;

static unsigned byte (stream *s) {
  if (!s->n) return 0;
  s->n--;
  return *s->p++;
}

typedef struct pending {
  char sid[48];
  ids_idc_range r;
} pending;

#define NC 3
#define NQ 16

/* only the first generate can fail (a collision), before any change */
static int ghost_gen (ids_idc *c, void *ud, ids_error *e) {
  int64_t id;
  ids_error e2;
  unsigned k = *(unsigned *)ud, i;
  int rc;
  for (i = 0; i < k; i++) {
    ids_idc_range r;
    if ((rc = ids_idc_generate(c, &id, e))) return rc;
    /* not allowed inside */
    CHECK(ids_idc_take_next_range(c, &r, &e2) != IDS_OK);
  }
  return IDS_OK;
}

/* one call on c, chosen by op; returns its code */
static int one_op (ids_idc **cs, unsigned which, unsigned op, stream *s,
                   pending *q, unsigned *nq, ids_error *e) {
  ids_idc *c = cs[which];
  char uuid[IDS_IDC_UUID_LEN + 1];
  int64_t id = (int64_t)(int8_t)byte(s), out;
  int found, rc;
  switch (op % 12) {
  case 0: case 1:
    return ids_idc_generate(c, &out, e);
  case 2: {
    ids_idc_range r;
    rc = ids_idc_take_next_range(c, &r, e);
    if (rc == IDS_OK && *nq < NQ) {
      pending *p = &q[(*nq)++];
      snprintf(p->sid, sizeof p->sid, "%s", r.session_id);
      p->r = r;
      p->r.session_id = p->sid;
      p->r.local = NULL;
      p->r.nlocal = 0;
    }
    return rc;
  }
  case 3: {                     /* finalize a queued range, maybe altered */
    ids_idc_range r;
    unsigned k = byte(s);
    if (!*nq) return IDS_OK;
    r = q[k % *nq].r;
    if (k & 0x80) r.first_gen_count += (int8_t)byte(s);
    if (k & 0x40) r.count += (int8_t)byte(s);
    if (k & 0x20) r.requested_cluster_size = (int8_t)byte(s);
    if (k & 0x10) r.session_id = SIDS[byte(s) % NSIDS];
    return ids_idc_finalize_range(c, &r, e);
  }
  case 4:
    return ids_idc_normalize_to_op_space(c, id, &out, e);
  case 5:
    return ids_idc_normalize_to_session_space(c, id,
                                              SIDS[byte(s) % NSIDS], &out, e);
  case 6:
    return ids_idc_try_normalize_without_session(c, id, &out, &found, e);
  case 7:
    return ids_idc_decompress(c, id, uuid, e);
  case 8:
    if (ids_idc_decompress(c, id, uuid, e) == IDS_OK)
      uuid[35] = "0123456789abcdef"[byte(s) & 15];
    else
      snprintf(uuid, sizeof uuid, "%s", SIDS[byte(s) % NSIDS]);
    return ids_idc_try_recompress(c, uuid, &out, &found, e);
  case 9:
    return ids_idc_set_cluster_size(c, (int8_t)byte(s), e);
  case 10: {
    unsigned k = byte(s) % 4;
    return ids_idc_ghost_session(c, SIDS[byte(s) % NSIDS], ghost_gen, &k, e);
  }
  default:
    return ids_idc_reset_unfinalized_range(c, e);
  }
}

static void operations (const uint8_t *p, size_t n) {
  stream s = { p, n };
  ids_idc *cs[NC];
  pending q[NQ];
  unsigned nq = 0, i;
  ids_error e;
  for (i = 0; i < NC; i++) {
    CHECK(ids_idc_new(&cs[i], SIDS[i], &e) == IDS_OK);
    CHECK(ids_idc_set_cluster_size(cs[i], 1 + byte(&s) % 8, &e) == IDS_OK);
  }
  while (s.n) {
    unsigned b = byte(&s), which = b % NC, op = b / NC;
    char *t0 = ser(cs[which], 1), *f0 = ser(cs[which], 0), *t1, *f1;
    int rc;
    e.msg[0] = '\0';
    rc = one_op(cs, which, op, &s, q, &nq, &e);
    if (rc != IDS_OK) {
      CHECK(rc < 0 && e.msg[0] != '\0');
      t1 = ser(cs[which], 1);
      f1 = ser(cs[which], 0);
      CHECK(strcmp(t0, t1) == 0 && strcmp(f0, f1) == 0);
      free(t1);
      free(f1);
    }
    else if (op % 16 == 15) {
      roundtrip(t0, strlen(t0), NULL);
      roundtrip(f0, strlen(f0), NEWSID);
    }
    free(t0);
    free(f0);
  }
  for (i = 0; i < NC; i++) ids_idc_free(cs[i]);
}

/* Built twice (fuzz.cmake): fuzz_idc_deserialize (-DFUZZ_IDC_DESERIALIZE)
** takes the inputs of kinds 0 and 1, fuzz_idc the operation streams, so
** that deserialization runs at its own speed (an operation stream
** serializes the compressors around every call, a hundred times slower);
** both read the same inputs, so seeds and regressions serve both. */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size) {
  if (size == 0) return 0;
#ifdef FUZZ_IDC_DESERIALIZE
  if (data[0] == 0) deserialize_text(data + 1, size - 1);
  else if (data[0] == 1) deserialize_bytes(data + 1, size - 1);
#else
  if (data[0] > 1) operations(data + 1, size - 1);
#endif
  return 0;
}
