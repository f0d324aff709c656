/*
** fuzz_decode.c: libFuzzer harness for the decoders of ONE scheme, named
** at compile time (-DFUZZ_SCHEME="fluid"; fuzz.cmake builds it once per
** scheme as fuzz_decode_<scheme>, and once more as fuzz_detect with
** -DFUZZ_DETECT).  One harness per scheme keeps every input cheap (one
** decode, not one per codec of every scheme), so each runs at tens of
** thousands of inputs a second and has its own corpus.
**
** The first byte picks what the rest is, among the scheme's n codecs:
**   0 .. n-1  text for that codec
**   n         text with no codec named (detection, or the default)
**   n+1       big-endian bytes for ids_scheme_from_bytes
** fuzz_detect takes the whole input as text for detection (FLUID's RFC 19).
** Invariants (a broken one traps, so libFuzzer records the input):
**   - a failed decode is negative, with that code and a message in e, and
**     the same without an error record;
**   - a decoded value fits the scheme, re-encodes in the codec that read it
**     to text that decodes to the same value, and so in every other codec
**     of the scheme (and through detection, where the scheme promises to
**     detect every form it writes), also between white space;
**   - bytes that decode give the same bytes back.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"

#ifndef FUZZ_SCHEME
#error "FUZZ_SCHEME names the scheme: -DFUZZ_SCHEME=\"fluid\""
#endif

static const ids_scheme *s;
static int detects_all;            /* every codec's text is detected */

#define CHECK(cond) \
  do { if (!(cond)) fail(#cond, __LINE__, c); } while (0)

static void fail (const char *what, int line, const ids_codec *c) {
  fprintf(stderr, "fuzz_decode.c:%d: invariant broken: %s (scheme %s, "
          "codec %s)\n", line, what, s->name, c ? c->name : "(none)");
  __builtin_trap();
}

/* The shipped schemes (ulid, uuidv7, twitter, sonyflake, instagram, ksuid)
** are registered at init (schemes/shipped.c): no Lua state, so the
** decoders run at full speed and only C is instrumented.  Defined here:
** "odd37", "wide160" (KSUID's 160 bits) and "tiny" add widths and codecs
** no shipped scheme uses. */
#define B64SORT "b64sort:-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_" \
                "abcdefghijklmnopqrstuvwxyz"
static const char *const enc_all[] = {
  "dec", "hex", "base58", "base62", "crockford", "base32", "base64url",
  B64SORT};
static const ids_fieldspec f_ksuid[] = {
  {"timestamp", "time", 32, "s", 1400000000000, 0, NULL},
  {"payload", "random", 128, 0, 0, 0, NULL}};
static const ids_fieldspec f_odd[] = {
  {"timestamp", "time", 30, "s", 1600000000000, 0, NULL},
  {"node", "node", 3, 0, 0, 0, NULL}, {"sequence", "sequence", 4, 0, 0, 0, NULL}};
static const ids_fieldspec f_tiny[] = {{"r", "random", 3, 0, 0, 0, NULL}};
#define N(a) (int)(sizeof a / sizeof *a)
static const ids_defspec scripted[] = {
  {"odd37", f_odd, N(f_odd), enc_all, N(enc_all), NULL, 0, NULL},
  {"wide160", f_ksuid, N(f_ksuid), enc_all, N(enc_all), "base64url", 0, NULL},
  {"tiny", f_tiny, N(f_tiny), enc_all, N(enc_all), "base32", 2, NULL}, /* 3 bits,
                                                                2 bytes */
};

/* Schemes whose detection must recognise every form they write (RFC 19). */
static const char *const detect_all[] = {"fluid", NULL};

static const ids_scheme *findscheme (const char *name) {
  const ids_scheme *d = ids_scheme_find(name);
  ids_error e = {0, ""};
  for (int i = 0; d == NULL && i < N(scripted); i++)
    if (strcmp(scripted[i].name, name) == 0 &&
        ids_scheme_define(&scripted[i], &d, &e) != IDS_OK) {
      fprintf(stderr, "fuzz_decode: define %s: %s\n", name, e.msg);
      abort();
    }
  if (d == NULL) {
    fprintf(stderr, "fuzz_decode: no scheme %s\n", name);
    abort();
  }
  d = ids_scheme_open(d, NULL, &e);        /* parameters at their defaults */
  if (d == NULL) {
    fprintf(stderr, "fuzz_decode: open %s: %s\n", name, e.msg);
    abort();
  }
  return d;
}

/* Seeds: each line of stdin, hex digits of a value (the low s->bits bits
** taken), as "<selector> <text>" lines, one per codec, and its bytes in
** hex after the bytes mode's selector. */
static void encode_lines (void) {
  char line[256], out[IDS_TEXTMAX];
  while (fgets(line, sizeof line, stdin)) {
    uint8_t b[IDS_MAXBYTES] = {0};
    size_t n = strspn(line, "0123456789abcdefABCDEF");
    ids_value v;
    for (size_t i = 0; i < n && i < 2 * IDS_MAXBYTES; i++) {
      unsigned x = (unsigned)line[n - 1 - i];
      x = x <= '9' ? x - '0' : (x | 0x20) - 'a' + 10;
      b[IDS_MAXBYTES - 1 - i / 2] |= (uint8_t)(x << (i % 2 * 4));
    }
    ids_value_from_bytes(&v, b, IDS_MAXBYTES);
    for (unsigned i = s->bits; i < IDS_MAXBITS; i++)
      ids_value_set(&v, i, 1, 0);
    for (int i = 0; i < s->ncodecs; i++) {
      ids_scheme_encode(s, s->codecs[i], &v, out);
      printf("%d %s\n", i, out);
    }
    ids_value_to_bytes(&v, b, s->bytes);
    printf("%d ", s->ncodecs + 1);              /* the bytes, in hex */
    for (unsigned i = 0; i < s->bytes; i++) printf("%02x", b[i]);
    printf("\n");
  }
  exit(0);
}

/* A built-in scheme with no harness of its own would go unfuzzed: fuzz.cmake
** passes its list (FUZZ_ALL), and every harness refuses to start without
** each registered scheme in it. */
static void allhave (void) {
#ifdef FUZZ_ALL
  const char *names[256];
  size_t n = ids_scheme_list(names, 256);
  for (size_t i = 0; i < n && i < 256; i++) {
    char key[IDS_NAMEMAX + 2];
    snprintf(key, sizeof key, " %s ", names[i]);
    if (strstr(" " FUZZ_ALL " ", key) == NULL) {
      fprintf(stderr, "fuzz_decode: scheme %s has no harness: add it to "
              "IDS_FUZZ_SCHEMES in fuzz/fuzz.cmake\n", names[i]);
      abort();
    }
  }
#endif
}

int LLVMFuzzerInitialize (int *argc, char ***argv) {
  (void)argc; (void)argv;
  if (ids_init() != IDS_OK) { fputs("ids_init failed\n", stderr); abort(); }
  s = findscheme(FUZZ_SCHEME);
  allhave();
  for (const char *const *a = detect_all; *a; a++)
    if (strcmp(*a, s->name) == 0) detects_all = 1;
  /* fuzz/seed.py asks for the codecs, and for the text of values */
  if (getenv("IDS_FUZZ_CODECS")) {
    for (int i = 0; i < s->ncodecs; i++) printf("%s\n", s->codecs[i]->name);
    exit(0);
  }
  if (getenv("IDS_FUZZ_ENCODE")) encode_lines();
  return 0;
}

/* A failure: negative, a known code, the code in e, a message. */
static void check_error (const ids_codec *c, int r, const ids_error *e) {
  CHECK(r < 0 && r >= IDS_ELEASE);
  CHECK(e->code == r);
  CHECK(memchr(e->msg, '\0', sizeof e->msg) != NULL);
  CHECK(e->msg[0] != '\0');
}

/* Decodes t[0..n) with c (and with detection, when detect) to v. */
static void decodes_to (const ids_codec *c, const char *t, size_t n,
                        const ids_value *v, int detect) {
  ids_value w;
  ids_error e = {0, ""};
  int r;
  memset(&w, 0xa5, sizeof w);
  r = ids_scheme_decode(s, c, t, n, &w, &e);
  if (r != IDS_OK) fprintf(stderr, "\"%.*s\": %s\n", (int)n, t, e.msg);
  CHECK(r == IDS_OK);
  CHECK(ids_value_cmp(v, &w) == 0);
  if (!detect) return;
  memset(&w, 0xa5, sizeof w);
  r = ids_scheme_decode(s, NULL, t, n, &w, &e);
  if (r != IDS_OK) fprintf(stderr, "\"%.*s\": %s\n", (int)n, t, e.msg);
  CHECK(r == IDS_OK);
  CHECK(ids_value_cmp(v, &w) == 0);
}

/* v encodes with c to text that decodes with c to v again, alone and
** between white space. */
static void check_roundtrip (const ids_codec *c, const ids_value *v,
                             int detect) {
  char out[IDS_TEXTMAX], pad[IDS_TEXTMAX + 4];
  size_t n;
  memset(out, 0x55, sizeof out);
  n = ids_scheme_encode(s, c, v, out);
  CHECK(n > 0 && n < IDS_TEXTMAX);
  CHECK(out[n] == '\0' && strlen(out) == n);
  decodes_to(c, out, n, v, detect);
  pad[0] = ' '; pad[1] = '\t';
  memcpy(pad + 2, out, n);
  pad[n + 2] = '\n'; pad[n + 3] = ' ';
  decodes_to(c, pad, n + 4, v, 0);
}

/* A value the scheme holds: through every codec (and the default). */
static void check_value (const ids_codec *c, const ids_value *v) {
  uint8_t b[IDS_MAXBYTES], b2[IDS_MAXBYTES];
  ids_value w;
  ids_error e;
  CHECK(ids_value_fits(v, s->bits));
  ids_value_to_bytes(v, b, s->bytes);
  CHECK(ids_scheme_from_bytes(s, b, s->bytes, &w, &e) == IDS_OK);
  CHECK(ids_value_cmp(v, &w) == 0);
  ids_value_to_bytes(&w, b2, s->bytes);
  CHECK(memcmp(b, b2, s->bytes) == 0);
  check_roundtrip(NULL, v, 0);
  for (int i = 0; i < s->ncodecs; i++)
    check_roundtrip(s->codecs[i], v, detects_all);
}

/* Text: decode, then check the error or the value. */
static void check_text (const ids_codec *c, const char *t, size_t n) {
  ids_value v, v2;
  ids_error e;
  int r, r2;
  memset(&e, 0, sizeof e);
  memset(&v, 0, sizeof v);
  r = ids_scheme_decode(s, c, t, n, &v, &e);
  memset(&v2, 0, sizeof v2);
  r2 = ids_scheme_decode(s, c, t, n, &v2, NULL);   /* no error record */
  CHECK(r2 == r);
  if (r != IDS_OK) { check_error(c, r, &e); return; }
  CHECK(ids_value_cmp(&v, &v2) == 0);
  check_value(c, &v);
}

/* Bytes: ids_scheme_from_bytes, and the bytes back. */
static void check_bytes (const uint8_t *b, size_t n) {
  const ids_codec *c = NULL;
  uint8_t back[IDS_MAXBYTES];
  ids_value v;
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  r = ids_scheme_from_bytes(s, b, n, &v, &e);
  if (n != s->bytes) CHECK(r == IDS_EINVAL);
  if (r != IDS_OK) check_error(c, r, &e);
  if (r == IDS_OK) {
    ids_value_to_bytes(&v, back, n);
    CHECK(memcmp(back, b, n) == 0);
    check_value(c, &v);
  }
  if (n < s->bytes) return;
  /* The bits above s->bits cleared, most inputs give a value: one that
  ** ids_scheme_from_bytes accepts must have a text form in every codec. */
  memcpy(back, b, s->bytes);
  for (unsigned i = s->bits; i < 8u * s->bytes; i++)
    back[s->bytes - 1 - i / 8] &= (uint8_t)~(1u << (i % 8));
  if (ids_scheme_from_bytes(s, back, s->bytes, &v, &e) == IDS_OK)
    check_value(c, &v);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size) {
  unsigned k;
#ifdef FUZZ_DETECT
  const ids_codec *c = ids_codec_find(s, (const char *)data, size);
  if (c != NULL)               /* a codec found has exactly that name */
    CHECK(strlen(c->name) == size && memcmp(c->name, data, size) == 0);
  check_text(NULL, (const char *)data, size);
  return 0;
#endif
  if (size == 0) return 0;
  k = data[0] % (unsigned)(s->ncodecs + 2);
  data++, size--;
  if (k < s->ncodecs) check_text(s->codecs[k], (const char *)data, size);
  else if (k == s->ncodecs) check_text(NULL, (const char *)data, size);
  else check_bytes(data, size);
  return 0;
}
