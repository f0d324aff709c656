/*
** bench_inspect.c: what is this ID?  The inspect engine (inspect/inspect.h)
** per input class, one inspector of every scheme as the command and the
** Lua module hold it (issue 37: no class above 2 us an ID): IDs of the
** catalogue in their default forms, the other forms of a UUID, TypeIDs
** with a prefix, bare decimal Snowflakes (ambiguous), texts that are no ID
** (words, hashes, addresses, times: refused), and IDs of formats the
** catalogue lacks (cuid, cuid2, Stripe's, shortid: refused or flagged),
** then all of them mixed.  Each class is 1024 texts, inspected in turn.
**
**   bench_inspect [--quick] [WORD]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "inspect.h"

#define NTEXT 1024

typedef struct texts {
  const ids_inspector *ins;
  int n;
  char t[NTEXT][IDS_TEXTMAX];
  size_t len[NTEXT];
} texts;

static ids_inspector *every;
static const int64_t now_ms = 1764115200000ll;      /* 2025-11-26: fixed */

static void add (texts *x, const char *t, size_t n) {
  if (x->n == NTEXT || n >= IDS_TEXTMAX) return;
  memcpy(x->t[x->n], t, n);
  x->t[x->n][n] = '\0';
  x->len[x->n++] = n;
}

/* Fresh IDs of scheme name in encoding enc (NULL: its default), prefix
** written before each ("user_" for a TypeID). */
static void ids_of (texts *x, const char *name, const char *enc,
                    const char *prefix, int count) {
  const ids_scheme *s = ids_scheme_open(ids_scheme_find(name), NULL, NULL);
  const ids_codec *c = enc ? ids_codec_find(s, enc, strlen(enc)) : NULL;
  ids_generator g;
  ids_error e;
  if (s == NULL || (enc && c == NULL)) die(name, NULL);
  if (ids_generator_init(&g, s, NULL, NULL, &e) != IDS_OK) die(name, &e);
  for (int i = 0; i < count; i++) {
    char t[IDS_TEXTMAX + 16];
    ids_value v;
    size_t p = strlen(prefix);
    if (ids_generator_next(&g, &v, &e) != IDS_OK) die(name, &e);
    memcpy(t, prefix, p);
    add(x, t, p + ids_scheme_encode(s, c, &v, t + p));
  }
  ids_generator_close(&g);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next (void) {                    /* xorshift64* */
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}

/* count texts of n characters drawn from alphabet a, after head. */
static void drawn (texts *x, const char *head, const char *a, int lo,
                   int hi, int count) {
  size_t k = strlen(a), h = strlen(head);
  for (int i = 0; i < count; i++) {
    char t[IDS_TEXTMAX];
    int n = lo + (int)(next() >> 33) % (hi - lo + 1);
    memcpy(t, head, h);
    for (int j = 0; j < n; j++) t[h + (size_t)j] = a[(next() >> 33) % k];
    add(x, t, h + (size_t)n);
  }
}

static void b_inspect (const void *arg, long n) {
  const texts *x = arg;
  ids_candidate c[8];
  ids_error e;
  uint64_t acc = 0;
  for (long i = 0; i < n; i++) {
    int k = (int)(i % x->n);
    acc += (uint64_t)ids_inspect(x->ins, x->t[k], x->len[k], NULL, 0,
                                 now_ms, c, 8, &e);
  }
  sink += acc;
}

#define LOWER "abcdefghijklmnopqrstuvwxyz"
#define B36   "0123456789abcdefghijklmnopqrstuvwxyz"
#define B62   "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#define HEX   "0123456789abcdef"
#define DIGIT "0123456789"

int main (int argc, char **argv) {
  static texts cls[12], mix;
  static const char *const names[12] = {
    "ULID", "KSUID", "ObjectId", "UUIDv7", "UUID forms (urn, {}, dec, "
    "base57)", "TypeID with a prefix", "bare decimal (Snowflake)",
    "words (refused)", "no ID: hashes, times, addresses (refused)",
    "not in the catalogue: cuid, cuid2, Stripe", "nanoid", "FLUID"
  };
  ids_error e;
  bench_name = "bench_inspect";
  bench_start(argc, argv);
  if ((every = ids_inspector_new(NULL, 0, &e)) == NULL) die("inspector", &e);
  ids_of(&cls[0], "ulid", NULL, "", NTEXT);
  ids_of(&cls[1], "ksuid", NULL, "", NTEXT);
  ids_of(&cls[2], "objectid", NULL, "", NTEXT);
  ids_of(&cls[3], "uuidv7", NULL, "", NTEXT);
  ids_of(&cls[4], "uuidv4", "urn", "", NTEXT / 4);
  ids_of(&cls[4], "uuidv7", "braced", "", NTEXT / 4);
  ids_of(&cls[4], "uuidv4", "dec", "", NTEXT / 4);
  ids_of(&cls[4], "uuidv4", "base57", "", NTEXT / 4);
  ids_of(&cls[5], "typeid", NULL, "user_", NTEXT / 2);
  ids_of(&cls[5], "typeid", NULL, "account_session_", NTEXT / 2);
  ids_of(&cls[6], "snowflake", NULL, "", NTEXT);
  drawn(&cls[7], "", LOWER, 6, 12, NTEXT);
  for (int i = 0; i < NTEXT / 4; i++) {
    char t[64];
    uint64_t r = next();
    add(&cls[8], t, (size_t)snprintf(t, sizeof t, "%u.%u.%u.%u",
        (unsigned)(r & 255), (unsigned)(r >> 8 & 255),
        (unsigned)(r >> 16 & 255), (unsigned)(r >> 24 & 255)));
    add(&cls[8], t, (size_t)snprintf(t, sizeof t, "%llu",
        1500000000000ull + (unsigned long long)(r >> 30)));
  }
  drawn(&cls[8], "", HEX, 32, 32, NTEXT / 8);
  drawn(&cls[8], "", HEX, 40, 40, NTEXT / 8);
  drawn(&cls[8], "", HEX, 64, 64, NTEXT / 8);
  drawn(&cls[8], "978", DIGIT, 10, 10, NTEXT / 8);
  drawn(&cls[9], "c", B36, 24, 24, NTEXT / 4);              /* cuid */
  drawn(&cls[9], "", B36, 24, 24, NTEXT / 4);               /* cuid2 */
  drawn(&cls[9], "cus_", B62, 14, 24, NTEXT / 4);           /* Stripe */
  drawn(&cls[9], "", B62 "-_", 7, 14, NTEXT / 4);           /* shortid */
  ids_of(&cls[10], "nanoid", NULL, "", NTEXT);
  ids_of(&cls[11], "fluid", NULL, "", NTEXT);
  for (int c = 0; c < 12; c++) {
    cls[c].ins = every;
    for (int i = 0; i < NTEXT / 12 && i < cls[c].n; i++)
      add(&mix, cls[c].t[i * 7 % cls[c].n], cls[c].len[i * 7 % cls[c].n]);
  }
  mix.ins = every;
  for (int c = 0; c < 12; c++) {
    char label[96];
    snprintf(label, sizeof label, "inspect: %s", names[c]);
    measure(label, b_inspect, &cls[c], NULL);
  }
  measure("inspect: all of them, mixed", b_inspect, &mix, NULL);
  ids_inspector_free(every);
  return 0;
}
