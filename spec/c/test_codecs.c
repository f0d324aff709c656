/*
** test_codecs.c: ids_codec_make's table (core/codec/make.c).  Every row
** passes the check and makes its codec; a row added to a table is built
** from its own fields, never guessed from its name; rows that cannot be
** right are refused, naming the row.  Also the core's one decimal parser
** (ids__decimal, core/text.c).
*/
#include "helpers.h"
#include "internal.h"
#include "codec/codecs.h"

#define FLAX_ALPHABET \
  "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
#define B36 "0123456789abcdefghijklmnopqrstuvwxyz"


/* Encodes x with b's codec for a 48-bit, 6-byte scheme. */
static const char *enc48 (const ids_codec_buf *b, uint64_t x, char *out) {
  ids_value v = {{x, 0, 0}};
  b->codec.encode(&b->codec, &v, 48, out);
  return out;
}

static void test_table (void) {
  ids_error e = {0};
  ids_codec_buf b;
  CHECKF(ids__codec_rows_check(ids_codec_rows, ids_codec_nrows, &e) ==
         IDS_OK, "%s", e.msg);
  for (size_t i = 0; i < ids_codec_nrows; i++) {
    const ids_codec_row *w = &ids_codec_rows[i];
    char name[128];
    snprintf(name, sizeof name, "%s%s", w->name,
             w->form != IDS_ROW_UUID && !w->digits ? ":" FLAX_ALPHABET : "");
    CHECKF(ids_codec_make(&b, name, 128, 16, &e) == IDS_OK, "%s: %s", name,
           e.msg);
    CHECK_STR(b.codec.name, w->name);
  }
  CHECK(ids_codec_make(&b, "base36", 48, 6, &e) == IDS_ENOENT);
  CHECK_STR(e.msg, "unknown encoding 'base36'");
  CHECK(ids_codec_make(&b, "b64sort", 48, 6, &e) == IDS_ENOENT);
}

/* The table's rows against the stock codecs that are the same forms. */
static void test_same_as_stock (void) {
  static const uint64_t xs[] = {0, 1, 15, 16, 255, 0xffffffffffffull,
                                0x123456789abull};
  ids_codec_buf dec, hex;
  ids_error e;
  char a[IDS_TEXTMAX], s[IDS_TEXTMAX];
  CHECK(ids_codec_make(&dec, "dec", 48, 6, &e) == IDS_OK);
  CHECK(ids_codec_make(&hex, "hex", 48, 6, &e) == IDS_OK);
  for (size_t i = 0; i < sizeof xs / sizeof *xs; i++) {
    ids_value v = {{xs[i], 0, 0}};
    ids_codec_dec.encode(&ids_codec_dec, &v, 48, s);
    CHECK_STR(enc48(&dec, xs[i], a), s);
    ids_codec_hexfixed.encode(&ids_codec_hexfixed, &v, 48, s);
    CHECK_STR(enc48(&hex, xs[i], a), s);
  }
}

/* A base36 row: made from its fields (a guess from "b..." used to give
** Crockford base32), under its name and its other name alike. */
static void test_new_row (void) {
  static const ids_codec_row rows[] = {
    {.name = "dec", .form = IDS_ROW_NUMBER, .base = 10,
     .digits = IDS_DIGITS_DEC},
    {.name = "base36", .also = {"b36"}, .form = IDS_ROW_NUMBER, .base = 36,
     .digits = B36, .fold = 1},
    {.name = "b36fixed", .form = IDS_ROW_NUMBER, .base = 36, .digits = B36,
     .fixed = 1},
  };
  const size_t n = sizeof rows / sizeof *rows;
  ids_codec_buf b, f;
  ids_error e;
  ids_value v;
  char out[IDS_TEXTMAX];
  CHECKF(ids__codec_rows_check(rows, n, &e) == IDS_OK, "%s", e.msg);
  CHECKF(ids__codec_make_from(rows, n, &b, "base36", 48, 6, &e) == IDS_OK,
         "%s", e.msg);
  CHECK_STR(b.codec.name, "base36");
  CHECK_STR(enc48(&b, 35 * 36 + 35, out), "zz");
  CHECK_STR(enc48(&b, 0, out), "0");
  CHECK(b.codec.decode(&b.codec, "ZZ", 2, 48, &v, &e) == IDS_OK); /* folds */
  CHECK_U64(v.w[0], 35 * 36 + 35);
  CHECK(ids__codec_make_from(rows, n, &b, "b36", 48, 6, &e) == IDS_OK);
  CHECK_STR(b.codec.name, "base36");
  CHECK_STR(enc48(&b, 36, out), "10");
  CHECK(ids__codec_make_from(rows, n, &f, "b36fixed", 48, 6, &e) == IDS_OK);
  CHECK_STR(enc48(&f, 35, out), "000000000z");   /* 36^9 < 2^48 < 36^10 */
  CHECK(f.codec.decode(&f.codec, "Z", 1, 48, &v, &e) != IDS_OK);
  CHECK(ids__codec_make_from(rows, n, &b, "crockford", 48, 6, &e) ==
        IDS_ENOENT);
  CHECK_STR(e.msg, "unknown encoding 'crockford'");
}

/* A table with one bad row (the last) is refused, and the message names
** it. */
static void refused (const char *what, const ids_codec_row *bad,
                     const char *part) {
  ids_codec_row rows[2] = {
    {.name = "dec", .form = IDS_ROW_NUMBER, .base = 10,
     .digits = IDS_DIGITS_DEC},
    *bad,
  };
  ids_error e = {0};
  int r = ids__codec_rows_check(rows, 2, &e);
  CHECKF(r == IDS_EINVAL, "%s: %d", what, r);
  CHECKF(strstr(e.msg, part) != NULL, "%s: \"%s\" lacks \"%s\"", what,
         e.msg, part);
}

static void test_refused (void) {
  refused("alphabet shorter than the base", &(ids_codec_row){
    .name = "b36", .form = IDS_ROW_NUMBER, .base = 36,
    .digits = "0123456789abcdefghijklmnopqrstuvwxy"}, "row 2 ('b36')");
  refused("alphabet longer than the base", &(ids_codec_row){
    .name = "b35", .form = IDS_ROW_NUMBER, .base = 35, .digits = B36},
    "alphabet");
  refused("a character twice", &(ids_codec_row){
    .name = "b36", .form = IDS_ROW_NUMBER, .base = 36,
    .digits = "0123456789abcdefghijklmnopqrstuvwxy0"}, "distinct");
  refused("a letter twice once folded", &(ids_codec_row){
    .name = "b16", .form = IDS_ROW_NUMBER, .base = 16, .fold = 1,
    .digits = "0123456789abcdeA"}, "distinct");
  refused("not ascending", &(ids_codec_row){
    .name = "s10", .form = IDS_ROW_NUMBER, .base = 10, .sorted = 1,
    .digits = "0123456798"}, "ascending");
  refused("a taken name", &(ids_codec_row){
    .name = "dec", .form = IDS_ROW_NUMBER, .base = 8,
    .digits = "01234567"}, "names of its own");
  refused("another name taken", &(ids_codec_row){
    .name = "oct", .also = {"dec"}, .form = IDS_ROW_NUMBER, .base = 8,
    .digits = "01234567"}, "names of its own");
  refused("a name twice in a row", &(ids_codec_row){
    .name = "oct", .also = {"o", "o"}, .form = IDS_ROW_NUMBER, .base = 8,
    .digits = "01234567"}, "names of its own");
  refused("a name with ':'", &(ids_codec_row){
    .name = "b:8", .form = IDS_ROW_NUMBER, .base = 8, .digits = "01234567"},
    "':'");
  refused("packed, not a power of two", &(ids_codec_row){
    .name = "p36", .form = IDS_ROW_PACKED, .base = 36, .digits = B36},
    "power of two");
  refused("an alias that is a digit", &(ids_codec_row){
    .name = "c32", .form = IDS_ROW_NUMBER, .base = 32, .fold = 1,
    .digits = IDS_DIGITS_CROCKFORD, .aliases = "a1"}, "aliases");
  refused("an alias of no digit", &(ids_codec_row){
    .name = "c32", .form = IDS_ROW_NUMBER, .base = 32,
    .digits = IDS_DIGITS_CROCKFORD, .aliases = "IU"}, "aliases");
  refused("a uuid with an alphabet", &(ids_codec_row){
    .name = "u", .form = IDS_ROW_UUID, .digits = IDS_DIGITS_HEX},
    "uuid");
  refused("no form", &(ids_codec_row){
    .name = "x", .base = 10, .digits = IDS_DIGITS_DEC}, "form");
}

/* A given alphabet is checked against its row: b64sort's ascends. */
static void test_given (void) {
  ids_codec_buf b;
  ids_error e;
  char out[IDS_TEXTMAX];
  CHECK(ids_codec_make(&b, "b64sort:" FLAX_ALPHABET, 48, 6, &e) == IDS_OK);
  CHECK_STR(b.codec.name, "b64sort");
  CHECK_STR(enc48(&b, 0, out), "--------");
  CHECK(ids_codec_make(&b, "b64sort:" FLAX_ALPHABET "!", 48, 6, &e) ==
        IDS_EINVAL);
  CHECK_STR(e.msg, "the b64sort alphabet must be 64 printable ASCII "
            "characters in ascending order: 'b64sort:" FLAX_ALPHABET "!'");
  CHECK(ids_codec_make(&b, "uuid", 48, 6, &e) == IDS_EINVAL);
  CHECK_STR(e.msg, "encoding 'uuid' needs a 128-bit layout in 16 bytes");
}

/* ids__decimal: the whole text, digits, a '-' only where allowed. */
static void test_decimal (void) {
  uint64_t u;
  int64_t i;
  CHECK(ids__decimal("0", 1, UINT64_MAX, &u) == IDS_OK && u == 0);
  CHECK(ids__decimal("007", 3, UINT64_MAX, &u) == IDS_OK && u == 7);
  CHECK(ids__decimal("18446744073709551615", 20, UINT64_MAX, &u) == IDS_OK &&
        u == UINT64_MAX);
  CHECK(ids__decimal("18446744073709551616", 20, UINT64_MAX, &u) ==
        IDS_ERANGE);
  CHECK(ids__decimal("99999999999999999999999", 23, UINT64_MAX, &u) ==
        IDS_ERANGE);
  CHECK(ids__decimal("1000000001", 10, 1000000000, &u) == IDS_ERANGE);
  CHECK(ids__decimal("1000000000", 10, 1000000000, &u) == IDS_OK);
  CHECK(ids__decimal("", 0, UINT64_MAX, &u) == IDS_EINVAL);
  CHECK(ids__decimal("-1", 2, UINT64_MAX, &u) == IDS_EINVAL);
  CHECK(ids__decimal("+1", 2, UINT64_MAX, &u) == IDS_EINVAL);
  CHECK(ids__decimal(" 1", 2, UINT64_MAX, &u) == IDS_EINVAL);
  CHECK(ids__decimal("1 ", 2, UINT64_MAX, &u) == IDS_EINVAL);
  CHECK(ids__decimal("12", 1, UINT64_MAX, &u) == IDS_OK && u == 1); /* n */
  CHECK(ids__decimal("99999999999999999999x", 21, UINT64_MAX, &u) ==
        IDS_EINVAL);                     /* not a number before too large */
  CHECK(ids__decimal_signed("-9223372036854775808", 20, &i) == IDS_OK &&
        i == INT64_MIN);
  CHECK(ids__decimal_signed("9223372036854775807", 19, &i) == IDS_OK &&
        i == INT64_MAX);
  CHECK(ids__decimal_signed("9223372036854775808", 19, &i) == IDS_ERANGE);
  CHECK(ids__decimal_signed("-9223372036854775809", 20, &i) == IDS_ERANGE);
  CHECK(ids__decimal_signed("-0", 2, &i) == IDS_OK && i == 0);
  CHECK(ids__decimal_signed("-", 1, &i) == IDS_EINVAL);
  CHECK(ids__decimal_signed("--1", 3, &i) == IDS_EINVAL);
  CHECK(ids__decimal_signed("+1", 2, &i) == IDS_EINVAL);
}

int main (void) {
  if (ids_init() != IDS_OK) return 2;
  test_table();
  test_same_as_stock();
  test_new_row();
  test_refused();
  test_given();
  test_decimal();
  return t_done();
}
