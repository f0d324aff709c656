/*
** test_fluid_vectors.c: FLUID against every entry of spec/vectors/fluid.json
** (flux-core's reference output): encodings, decoding with and without a
** named codec (RFC 19 detection), rejected input and the bit layout.
**
** usage: test_fluid_vectors [VECTORS_DIR]
*/
#include "helpers.h"

static const ids_scheme *S;

/* ------------------------------------------------------------ helpers */

/* An entry's input bytes: input_bytes_hex when JSON cannot hold them. */
static size_t input (const cJSON *o, char *buf, size_t cap) {
  const char *h = str(o, "input_bytes_hex");
  size_t n;
  if (h)
    n = unhex(h, (uint8_t *)buf, cap - 1);
  else {
    n = strlen(str(o, "input"));
    if (n >= cap) n = cap - 1;
    memcpy(buf, str(o, "input"), n);
  }
  buf[n] = '\0';
  return n;
}

/* decode (helpers.h) of FLUID, and a success writes only 64 bits. */
static int fdecode (const ids_codec *c, const char *s, size_t n,
                    ids_value *v) {
  int r = decode(S, c, s, n, v);
  if (r >= 0)
    CHECKF(v->w[1] == 0 && v->w[2] == 0, "\"%s\": high words set",
           show(s, n));
  return r;
}

/* Inputs the reference takes that our strict grammar refuses, or the
** reverse, grouped by why (helpers.h); each input must match exactly one
** vector.  Their `expect`: decode_valid, the code; decode_invalid, the
** value. */

/* ---------------------------------------------------------- encodings */

static const char *const codecs[] = {
  "f58", "f58_plain", "dec", "hex", "dothex", "words", "emoji"
};

static void test_encodings (const cJSON *list) {
  const cJSON *o;
  int count = 0;
  cJSON_ArrayForEach(o, list) {
    uint64_t x = num(o, "value");
    ids_value v = {{x, 0, 0}}, back;
    char out[IDS_TEXTMAX];
    count++;
    /* the default codec is f58 */
    ids_scheme_encode(S, NULL, &v, out);
    CHECK_STR(out, str(o, "f58"));
    for (size_t k = 0; k < sizeof codecs / sizeof *codecs; k++) {
      const ids_codec *c = ids_codec_find(S, codecs[k], strlen(codecs[k]));
      const char *want = str(o, codecs[k]);
      size_t n;
      if (!CHECKF(c != NULL, "codec %s", codecs[k]) ||
          !CHECKF(want != NULL, "vector %" PRIu64 " has no %s", x,
                  codecs[k]))
        continue;
      n = ids_scheme_encode(S, c, &v, out);
      CHECKF(strcmp(out, want) == 0 && n == strlen(want),
             "%s of %" PRIu64 ": got \"%s\" (%zu), want \"%s\"", codecs[k],
             x, out, n, want);
      if (CHECKF(fdecode(c, want, strlen(want), &back) == IDS_OK,
                 "%s decode of \"%s\"", codecs[k], want))
        CHECKF(back.w[0] == x, "%s decode of \"%s\": got %" PRIu64
               ", want %" PRIu64, codecs[k], want, back.w[0], x);
      if (CHECKF(fdecode(NULL, want, strlen(want), &back) == IDS_OK,
                 "detected decode of \"%s\"", want))
        CHECKF(back.w[0] == x, "detected decode of \"%s\": got %" PRIu64
               ", want %" PRIu64, want, back.w[0], x);
    }
  }
  CHECK(count == 93);
}

/* ------------------------------------------------------- decode_valid */

static group refused[] = {
  /* blank text: the reference reads it as 0 */
  {IDS_EINVAL, "blank text is an error", .text = {" ", "   \t", "\n"}},
  {IDS_EINVAL, "dec has no sign", .text = {"+5"}},
  /* dothex: sscanf's leniency; groups are 1..4 hex digits */
  {IDS_EINVAL, "dothex: no space inside a group", .text = {"0. 0.0.0"}},
  {IDS_EINVAL, "dothex: no 0x inside a group", .text = {"0x1.0.0.0"}},
  {IDS_EINVAL, "dothex: no sign in a group",
   .text = {"+1.0.0.0", "-1.0.0.0", "0.0.0.-1", "0.0.-1.0"}},
  /* undefined_behavior_in_reference */
  {IDS_ERANGE, "f58: 2^64 does not fit (reference wraps)",
   .text = {"fjpXCZedGfVR"}},
  {IDS_ERANGE, "f58: above 2^64-1 (reference wraps)",
   .text = {"fzzzzzzzzzzz", "f211111111111"}},
  {IDS_EINVAL, "f58: non-ASCII digit",
   .text = {"\xc6\x92\xc6\x92" "1", "f\xc3\xa9"}},
  /* emoji values past 2^64-1: the reference wraps silently */
  {IDS_ERANGE, "emoji: 2^64 does not fit", .text = {"🚹💗💧👗😷📷📓"}},
  {IDS_ERANGE, "emoji: above 2^64-1", .text = {"🎌🎌🎌🎌🎌🎌🎌"}},
  /* words: separated by '-' (or "--" between halves), nothing else */
  {IDS_EINVAL, "words: separators other than '-'",
   .text = {"reform-remote galileo  heart_package+academy"}},
  {IDS_EINVAL, "words: leading separator",
   .text = {"-reform-remote-galileo--heart-package-academy"}},
  {IDS_EINVAL, "words: trailing separator",
   .text = {"reform-remote-galileo--heart-package-academy-"}},
  {IDS_EINVAL, "words: junk after six words",
   .text = {"reform-remote-galileo--heart-package-academy-bogus"}},
  {IDS_EINVAL, "words: digits are not separators",
   .text = {"reform1remote2galileo3heart4package5academy-"}},
  {0, NULL, .text = {NULL}}
};

static void test_decode_valid (const cJSON *list) {
  const cJSON *o;
  int count = 0, accepted = 0;
  cJSON_ArrayForEach(o, list) {
    char s[256];
    size_t n = input(o, s, sizeof s);
    int k;
    group *x = group_find(refused, s, n, &k);
    ids_value v;
    int r = fdecode(NULL, s, n, &v);
    count++;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
          o, "undefined_behavior_in_reference")))
      CHECKF(x != NULL, "\"%s\" is flagged undefined_behavior_in_reference "
             "but not in the table of refused inputs", show(s, n));
    if (x) {
      x->seen[k]++;
      CHECKF(r == x->expect, "\"%s\" must be refused (%s): got %d, want %d"
             " (value %" PRIu64 ")", show(s, n), x->why, r, (int)x->expect,
             r == IDS_OK ? v.w[0] : 0);
    }
    else {
      uint64_t want = num(o, "value");
      accepted++;
      if (CHECKF(r == IDS_OK, "\"%s\": got %d, want value %" PRIu64,
                 show(s, n), r, want))
        CHECKF(v.w[0] == want, "\"%s\": got %" PRIu64 ", want %" PRIu64,
               show(s, n), v.w[0], want);
    }
  }
  CHECK(count == 86);
  CHECK(accepted == 64);
  group_allseen(refused, "refused");
}

/* ----------------------------------------------------- decode_invalid */

/* The reference refuses these for trailing white space alone; we trim. */
static group trimmed[] = {
  {0, "trailing space is trimmed", .text = {"0.0.0.0 ", "😃 "}},
  {6731191091817518, "trailing space is trimmed",
   .text = {"\xc6\x92uZZybuNNy "}},
  {0, NULL, .text = {NULL}}
};

static void test_decode_invalid (const cJSON *list) {
  const cJSON *o;
  int count = 0;
  cJSON_ArrayForEach(o, list) {
    char s[256];
    size_t n = input(o, s, sizeof s);
    int k;
    group *x = group_find(trimmed, s, n, &k);
    const char *err = str(o, "errno");
    ids_value v;
    int r = fdecode(NULL, s, n, &v);
    count++;
    if (x) {
      x->seen[k]++;
      if (CHECKF(r == IDS_OK, "\"%s\" (%s): got %d", show(s, n), x->why, r))
        CHECKF(v.w[0] == (uint64_t)x->expect, "\"%s\": got %" PRIu64
               ", want %" PRIu64, show(s, n), v.w[0], (uint64_t)x->expect);
    }
    else if (err && strcmp(err, "ERANGE") == 0)
      CHECKF(r == IDS_ERANGE, "\"%s\": got %d, want IDS_ERANGE",
             show(s, n), r);
    else
      CHECKF(r < 0, "\"%s\" accepted as %" PRIu64 " (reference: %s)",
             show(s, n), v.w[0], err ? err : "?");
  }
  CHECK(count == 65);
  group_allseen(trimmed, "trimmed");
}

/* ------------------------------------------------------------- layout */

static void test_layout (const cJSON *list) {
  const char *names[3] = {"timestamp", "generator", "sequence"};
  int fi[3];
  const cJSON *o;
  int count = 0;
  for (int i = 0; i < 3; i++) {
    fi[i] = ids_scheme_field(S, names[i]);
    if (!CHECKF(fi[i] >= 0 && fi[i] < 3, "field %s", names[i])) return;
  }
  CHECK(S->nfields == 3);
  cJSON_ArrayForEach(o, list) {
    uint64_t x = num(o, "value");
    ids_value v = {{x, 0, 0}}, back;
    uint64_t f[IDS_MAXFIELDS];
    ids_error e;
    count++;
    ids_scheme_decompose(S, &v, f);
    for (int i = 0; i < 3; i++) {
      uint64_t want = num(o, names[i]);
      CHECKF(f[fi[i]] == want, "%s of %" PRIu64 ": got %" PRIu64 ", want %"
             PRIu64, names[i], x, f[fi[i]], want);
    }
    memset(&back, 0xa5, sizeof back);
    if (CHECKF(ids_scheme_compose(S, f, &back, &e) == IDS_OK, "compose %" PRIu64,
               x))
      CHECKF(back.w[0] == x && back.w[1] == 0 && back.w[2] == 0,
             "compose of %" PRIu64 " gives %" PRIu64, x, back.w[0]);
  }
  CHECK(count == 93);
}

/* --------------------------------------------------------------- main */

int main (int argc, char **argv) {
  cJSON *j;
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  S = ids_scheme_find("fluid");
  if (!CHECK(S != NULL)) return t_done();
  j = load(argc > 1 ? argv[1] : IDS_VECTORS, "fluid.json");
  test_encodings(section(j, "fluid.json", "encodings"));
  test_decode_valid(section(j, "fluid.json", "decode_valid"));
  test_decode_invalid(section(j, "fluid.json", "decode_invalid"));
  test_layout(section(j, "fluid.json", "layout"));
  cJSON_Delete(j);
  return t_done();
}
