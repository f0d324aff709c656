/*
** bench_idc.c: the id-compressor in C (idcompressor/idcompressor.h), the
** same cases as bench_idc_node.mjs (the npm package) and bench_idc.lua:
**   generate with eager finals (a cluster finalized ahead, as a client
**   that keeps up gets); normalizeToOpSpace of a local ID, decompress and
**   recompress in a document of about 4,000 clusters from four sessions;
**   serialize and deserialize of that document.
**   bench_idc [--quick] [WORD]
*/
#include <sodium.h>

#include "idcompressor.h"
#include "internal.h"
#include "bench.h"

#define ROUNDS  1000           /* x 4 sessions: ~4,000 clusters */
#define NSAMPLE 4096

static const char *const SIDS[4] = {
  "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b",
  "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1", "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7",
};

typedef struct doc {
  ids_idc *c;                  /* client 0's compressor */
  int64_t locals[NSAMPLE];     /* local ids of client 0 */
  int64_t finals[NSAMPLE];     /* finalized finals of every session */
  char uuids[NSAMPLE][IDS_IDC_UUID_LEN + 1];
  char *blob;
  size_t bloblen;
} doc;

static void ok (int rc, const char *what, const ids_error *e) {
  if (rc != IDS_OK) die(what, e);
}

/* Four sessions take turns generating 20 IDs and finalizing them with
** clusters of 16, so that their clusters interleave: a new cluster at
** almost every range.  Client 0 is the local session. */
static void build_doc (doc *d) {
  ids_idc *cs[4];
  ids_error e;
  int64_t id, nl = 0;
  int i, k, j;
  for (k = 0; k < 4; k++) {
    ok(ids_idc_new(&cs[k], SIDS[k], &e), "new", &e);
    ok(ids_idc_set_cluster_size(cs[k], 16, &e), "size", &e);
  }
  for (i = 0; i < ROUNDS; i++)
    for (k = 0; k < 4; k++) {
      ids_idc_range r;
      for (j = 0; j < 20; j++) {
        ok(ids_idc_generate(cs[k], &id, &e), "generate", &e);
        if (k == 0 && id < 0) d->locals[nl++ % NSAMPLE] = id;
      }
      ok(ids_idc_take_next_range(cs[k], &r, &e), "take", &e);
      ok(ids_idc_finalize_range(cs[0], &r, &e), "finalize", &e);
    }
  for (k = 1; k < 4; k++) ids_idc_free(cs[k]);
  d->c = cs[0];
  for (i = 0; i < NSAMPLE; i++) {
    /* every final below 80,000 is finalized: 4 x 1000 x 20 IDs */
    d->finals[i] = (int64_t)((uint64_t)i * 2654435761u % 80000);
    ok(ids_idc_decompress(d->c, d->finals[i], d->uuids[i], &e), "decompress",
       &e);
  }
  ok(ids_idc_serialize(d->c, 1, &d->blob, &d->bloblen, &e), "serialize", &e);
}

static void b_generate (const void *arg, long n) {
  ids_idc *c = (ids_idc *)arg;
  ids_error e;
  int64_t id, acc = 0;
  for (long i = 0; i < n; i++) {
    ok(ids_idc_generate(c, &id, &e), "generate", &e);
    if (id < 0) {                /* the cluster is used up: finalize */
      ids_idc_range r;
      ok(ids_idc_take_next_range(c, &r, &e), "take", &e);
      ok(ids_idc_finalize_range(c, &r, &e), "finalize", &e);
    }
    acc += id;
  }
  sink += (uint64_t)acc;
}

static void b_op_space (const void *arg, long n) {
  const doc *d = arg;
  ids_error e;
  int64_t out, acc = 0;
  for (long i = 0; i < n; i++) {
    ok(ids_idc_normalize_to_op_space(d->c, d->locals[i & (NSAMPLE - 1)],
                                     &out, &e), "normalize", &e);
    acc += out;
  }
  sink += (uint64_t)acc;
}

static void b_decompress (const void *arg, long n) {
  const doc *d = arg;
  ids_error e;
  char u[IDS_IDC_UUID_LEN + 1];
  uint64_t acc = 0;
  for (long i = 0; i < n; i++) {
    ok(ids_idc_decompress(d->c, d->finals[i & (NSAMPLE - 1)], u, &e),
       "decompress", &e);
    acc += (unsigned char)u[35];
  }
  sink += acc;
}

static void b_recompress (const void *arg, long n) {
  const doc *d = arg;
  ids_error e;
  int64_t out, acc = 0;
  for (long i = 0; i < n; i++) {
    ok(ids_idc_recompress(d->c, d->uuids[i & (NSAMPLE - 1)], &out, &e),
       "recompress", &e);
    acc += out;
  }
  sink += (uint64_t)acc;
}

static void b_serialize (const void *arg, long n) {
  const doc *d = arg;
  ids_error e;
  for (long i = 0; i < n; i++) {
    char *s;
    size_t len;
    ok(ids_idc_serialize(d->c, 1, &s, &len, &e), "serialize", &e);
    sink += len;
    free(s);
  }
}

static void b_deserialize (const void *arg, long n) {
  const doc *d = arg;
  ids_error e;
  for (long i = 0; i < n; i++) {
    ids_idc *c;
    ok(ids_idc_deserialize(&c, d->blob, d->bloblen, NULL, &e), "deserialize",
       &e);
    sink += (uint64_t)(uintptr_t)c;
    ids_idc_free(c);
  }
}

/* the base64 alone: ours (core/b64.c, level 2: the best the CPU has),
** and libsodium's constant-time coder that it replaced */
typedef struct b64case { const doc *d; int sodium; } b64case;

static void b_b64_encode (const void *arg, long n) {
  const b64case *k = arg;
  size_t bin = k->d->bloblen / 4 * 3, len = k->d->bloblen + 1;
  unsigned char *b = malloc(bin);
  char *t = malloc(len);
  memset(b, 0x5a, bin);
  for (long i = 0; i < n; i++) {
    if (k->sodium)
      sodium_bin2base64(t, len, b, bin, sodium_base64_VARIANT_ORIGINAL);
    else ids__b64_encode(t, b, bin);
    sink += (unsigned char)t[0];
  }
  free(b);
  free(t);
}

static void b_b64_decode (const void *arg, long n) {
  const b64case *k = arg;
  size_t bin = k->d->bloblen / 4 * 3, out = 0;
  unsigned char *b = malloc(bin);
  for (long i = 0; i < n; i++) {
    if (k->sodium)
      sodium_base642bin(b, bin, k->d->blob, k->d->bloblen, NULL, &out, NULL,
                        sodium_base64_VARIANT_ORIGINAL);
    else ids__b64_decode(b, k->d->blob, k->d->bloblen, &out);
    sink += out;
  }
  free(b);
}

int main (int argc, char **argv) {
  static doc d;
  ids_idc *g;
  ids_idc_range r;
  ids_error e;
  int64_t id;
  bench_name = "bench_idc";
  bench_start(argc, argv);
  build_doc(&d);
  printf("document: 4 sessions, %zu bytes serialized (~4,000 clusters)\n",
         d.bloblen);
  /* eager finals: a cluster of 2^20 finalized ahead; generating past it
  ** expands it (the globally last cluster), one range per 2^20 IDs */
  ok(ids_idc_new(&g, SIDS[0], &e), "new", &e);
  ok(ids_idc_set_cluster_size(g, IDS_IDC_MAX_CLUSTER, &e), "size", &e);
  ok(ids_idc_generate(g, &id, &e), "generate", &e);
  ok(ids_idc_take_next_range(g, &r, &e), "take", &e);
  ok(ids_idc_finalize_range(g, &r, &e), "finalize", &e);
  measure("idc generate (eager finals)", b_generate, g, NULL);
  measure("idc normalize_to_op_space (local id)", b_op_space, &d, NULL);
  measure("idc decompress (final)", b_decompress, &d, NULL);
  measure("idc recompress", b_recompress, &d, NULL);
  measure("idc serialize (4,000 clusters)", b_serialize, &d, NULL);
  measure("idc deserialize (4,000 clusters)", b_deserialize, &d, NULL);
  {
    b64case ours = {&d, 0}, sodium = {&d, 1};
    measure("  of which base64 encode (core/b64.c)", b_b64_encode, &ours,
            NULL);
    measure("  of which base64 decode (core/b64.c)", b_b64_decode, &ours,
            NULL);
    measure("  libsodium base64 encode, for comparison", b_b64_encode,
            &sodium, NULL);
    measure("  libsodium base64 decode, for comparison", b_b64_decode,
            &sodium, NULL);
  }
  ids_idc_free(g);
  ids_idc_free(d.c);
  free(d.blob);
  return 0;
}
