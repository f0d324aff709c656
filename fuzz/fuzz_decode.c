/*
** fuzz_decode.c: libFuzzer harness for every decoder of every registered
** scheme.  Each input goes
**   - as text to ids_scheme_decode with every codec of every scheme, and with no
**     codec (detection); a success must fit the scheme and round-trip
**     through ids_scheme_encode, a failure must be negative with a message;
**   - as bytes to ids_scheme_from_bytes, and (its first s->bytes bytes) as a value
**     that every codec must encode and decode back;
**   - as a name to ids_codec_find and ids_scheme_find.
** Any broken invariant traps, so libFuzzer records the input.  To fuzz past
** a known bug, IDS_FUZZ_SKIP lists checks to leave out, comma-separated:
** "names", a scheme ("fluid") or a scheme's codec ("fuzz_ksuid/base64url").
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"

#define MAXSCHEMES 64

static const ids_scheme *schemes[MAXSCHEMES];
static size_t nschemes;

/* Schemes whose detection must recognise every form they write (RFC 19). */
static const char *const detect_all[] = {"fluid", NULL};
static int detects_all[MAXSCHEMES];
static char skiplist[256];         /* ",item,item," from IDS_FUZZ_SKIP */

#define CHECK(cond) \
  do { if (!(cond)) fail(#cond, __LINE__, s, c); } while (0)

static void fail (const char *what, int line, const ids_scheme *s,
                  const ids_codec *c) {
  fprintf(stderr, "fuzz_decode.c:%d: invariant broken: %s (scheme %s, "
          "codec %s)\n", line, what, s ? s->name : "-",
          c ? c->name : "-");
  __builtin_trap();
}

/* Schemes defined at run time, so that the codecs only scripts use are
** fuzzed too: the shapes of DESIGN.md's shipped scripts, and odd widths. */
#define B64SORT "b64sort:-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_" \
                "abcdefghijklmnopqrstuvwxyz"
static const char *const enc_all[] = {
  "dec", "hex", "base58", "base62", "crockford", "base32", "base64url",
  B64SORT, "uuid"
};
static const ids_fieldspec f_ulid[] = {
  {"timestamp", "time", 48, "ms", 0, 0}, {"random", "random", 80, 0, 0, 0}};
static const ids_fieldspec f_uuidv7[] = {
  {"timestamp", "time", 48, "ms", 0, 0}, {"version", "constant", 4, 0, 0, 7},
  {"sequence", "sequence", 12, 0, 0, 0}, {"variant", "constant", 2, 0, 0, 2},
  {"random", "random", 62, 0, 0, 0}};
static const ids_fieldspec f_ksuid[] = {
  {"timestamp", "time", 32, "s", 1400000000000, 0},
  {"payload", "random", 128, 0, 0, 0}};
static const ids_fieldspec f_odd[] = {
  {"timestamp", "time", 30, "s", 1600000000000, 0},
  {"node", "node", 3, 0, 0, 0}, {"sequence", "sequence", 4, 0, 0, 0}};
static const ids_fieldspec f_tiny[] = {{"r", "random", 3, 0, 0, 0}};
static const ids_defspec defs[] = {
  {"fuzz_ulid", f_ulid, 2, enc_all, 9, "crockford", 0},
  {"fuzz_uuidv7", f_uuidv7, 5, enc_all, 9, "uuid", 0},
  {"fuzz_ksuid", f_ksuid, 2, enc_all, 8, "base62", 0},
  {"fuzz_odd37", f_odd, 3, enc_all, 8, NULL, 0},
  {"fuzz_tiny", f_tiny, 1, enc_all, 8, "base32", 2},   /* 3 bits, 2 bytes */
};

int LLVMFuzzerInitialize (int *argc, char ***argv) {
  const char *names[MAXSCHEMES];
  size_t n;
  const char *sk = getenv("IDS_FUZZ_SKIP");
  (void)argc; (void)argv;
  if (sk) snprintf(skiplist, sizeof skiplist, ",%s,", sk);
  if (ids_init() != IDS_OK) { fputs("ids_init failed\n", stderr); abort(); }
  for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
    const ids_scheme *d;
    ids_error e = {0, ""};
    if (ids_scheme_define(&defs[i], &d, &e) != IDS_OK) {
      fprintf(stderr, "fuzz_decode: ids_scheme_define %s: %s\n", defs[i].name, e.msg);
      abort();
    }
  }
  n = ids_scheme_list(names, MAXSCHEMES);
  if (n > MAXSCHEMES) n = MAXSCHEMES;
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *d = ids_scheme_find(names[i]), *s;
    ids_error e = {0, ""};
    if (d == NULL) abort();
    s = ids_scheme_open(d, NULL, &e);     /* every parameter at its default */
    if (s == NULL) {
      fprintf(stderr, "fuzz_decode: skipping %s: %s\n", names[i], e.msg);
      continue;
    }
    for (const char *const *a = detect_all; *a; a++)
      if (strcmp(*a, s->name) == 0) detects_all[nschemes] = 1;
    schemes[nschemes++] = s;
  }
  if (nschemes == 0) { fputs("no schemes\n", stderr); abort(); }
  return 0;
}

/* Is "a" or "a/b" in IDS_FUZZ_SKIP? */
static int skipped (const char *a, const char *b) {
  char key[80];
  if (skiplist[0] == '\0') return 0;
  snprintf(key, sizeof key, ",%s,", a);
  if (strstr(skiplist, key)) return 1;
  if (b == NULL) return 0;
  snprintf(key, sizeof key, ",%s/%s,", a, b);
  return strstr(skiplist, key) != NULL;
}

/* A failure: negative, a known code, the code in e, a message. */
static void check_error (const ids_scheme *s, const ids_codec *c, int r,
                         const ids_error *e) {
  CHECK(r < 0 && r >= IDS_ENOMEM);
  CHECK(e->code == r);
  CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL);
  CHECK(e->msg[0] != '\0');
}

/* v encodes with c to text that decodes with c (and with detection when
** the scheme promises it) to v again. */
static void check_roundtrip (const ids_scheme *s, const ids_codec *c,
                             const ids_value *v, int detect) {
  char out[IDS_TEXTMAX], pad[IDS_TEXTMAX + 4];
  ids_value w;
  ids_error e = {0, ""};
  size_t n;
  int r;
  memset(out, 0x55, sizeof out);
  n = ids_scheme_encode(s, c, v, out);
  CHECK(n > 0 && n < IDS_TEXTMAX);
  CHECK(out[n] == '\0' && strlen(out) == n);
  memset(&w, 0xa5, sizeof w);
  r = ids_scheme_decode(s, c, out, n, &w, &e);
  if (r != IDS_OK) fprintf(stderr, "\"%s\": %s\n", out, e.msg);
  CHECK(r == IDS_OK);
  CHECK(ids_value_cmp(v, &w) == 0);
  /* the same text between white space */
  pad[0] = ' '; pad[1] = '\t';
  memcpy(pad + 2, out, n);
  pad[n + 2] = '\n'; pad[n + 3] = ' ';
  memset(&w, 0xa5, sizeof w);
  CHECK(ids_scheme_decode(s, c, pad, n + 4, &w, &e) == IDS_OK);
  CHECK(ids_value_cmp(v, &w) == 0);
  if (detect && c != NULL) {
    memset(&w, 0xa5, sizeof w);
    r = ids_scheme_decode(s, NULL, out, n, &w, &e);
    if (r != IDS_OK) fprintf(stderr, "\"%s\": %s\n", out, e.msg);
    CHECK(r == IDS_OK);
    CHECK(ids_value_cmp(v, &w) == 0);
  }
}

/* Text first: decode, then check the result or the error. */
static void check_decode (const ids_scheme *s, const ids_codec *c,
                          const char *t, size_t n) {
  ids_value v, v2;
  ids_error e;
  int r, r2;
  memset(&e, 0, sizeof e);
  memset(&v, 0, sizeof v);
  r = ids_scheme_decode(s, c, t, n, &v, &e);
  /* without an error record: same result */
  memset(&v2, 0, sizeof v2);
  r2 = ids_scheme_decode(s, c, t, n, &v2, NULL);
  CHECK(r2 == r);
  if (r != IDS_OK) { check_error(s, c, r, &e); return; }
  CHECK(ids_value_cmp(&v, &v2) == 0);
  CHECK(ids_value_fits(&v, s->bits));
  check_roundtrip(s, c, &v, 0);
}

/* Bytes first: ids_scheme_from_bytes on the input, then the value in its first
** s->bytes bytes through every codec. */
static void check_bytes (const ids_scheme *s, const uint8_t *b, size_t n,
                         int detect) {
  const ids_codec *c = NULL;
  uint8_t back[IDS_MAXBYTES];
  ids_value v;
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  r = ids_scheme_from_bytes(s, b, n, &v, &e);
  if (n != s->bytes) CHECK(r == IDS_EINVAL);
  if (r != IDS_OK) check_error(s, c, r, &e);
  else {
    CHECK(ids_value_fits(&v, s->bits));
    ids_value_to_bytes(&v, back, n);
    CHECK(memcmp(back, b, n) == 0);
  }
  if (n < s->bytes) return;
  /* Clear the bits above s->bits so that most inputs give a value; a value
  ** ids_scheme_from_bytes accepts must have a text form in every codec. */
  memcpy(back, b, s->bytes);
  for (unsigned k = s->bits; k < 8u * s->bytes; k++)
    back[s->bytes - 1 - k / 8] &= (uint8_t)~(1u << (k % 8));
  if (ids_scheme_from_bytes(s, back, s->bytes, &v, &e) != IDS_OK) return;
  check_roundtrip(s, NULL, &v, 0);
  for (int i = 0; i < s->ncodecs; i++)
    if (!skipped(s->name, s->codecs[i]->name))
      check_roundtrip(s, s->codecs[i], &v, detect);
}

/* Names: a codec found must have exactly that name. */
static void check_names (const ids_scheme *s, const char *t, size_t n) {
  const ids_codec *c = ids_codec_find(s, t, n);
  if (c != NULL) CHECK(strlen(c->name) == n && memcmp(c->name, t, n) == 0);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size) {
  const char *t = (const char *)data;
  if (!skipped("names", NULL)) {
    char name[64];
    size_t k = size < sizeof name - 1 ? size : sizeof name - 1;
    const ids_scheme *f;
    memcpy(name, data, k);
    name[k] = '\0';
    f = ids_scheme_find(name);
    if (f != NULL && strcmp(f->name, name) != 0)
      fail("ids_scheme_find", __LINE__, f, NULL);
  }
  for (size_t i = 0; i < nschemes; i++) {
    const ids_scheme *s = schemes[i];
    if (skipped(s->name, NULL)) continue;
    check_decode(s, NULL, t, size);
    for (int j = 0; j < s->ncodecs; j++)
      if (!skipped(s->name, s->codecs[j]->name))
        check_decode(s, s->codecs[j], t, size);
    check_bytes(s, data, size, detects_all[i]);
    if (!skipped("names", NULL)) check_names(s, t, size);
  }
  return 0;
}
