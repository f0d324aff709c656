/*
** make.c: codecs made by name (ids_codec_make), for schemes defined at run
** time and for C plugins.  Each name is a row of ids_codec_rows, which
** says everything about its codec; the made codec and its tables live in
** the caller's ids_codec_buf.
*/
#include <assert.h>
#include <string.h>

#include "codecs.h"

/* What an ids_codec_buf holds besides its codec. */
typedef struct made {
  ids_codec codec;
  ids_typeid t;               /* t.radix: every codec but uuid's */
  char alphabet[65];          /* a given alphabet (base <= 64) */
} made;

_Static_assert(sizeof(made) <= sizeof(ids_codec_buf),
               "ids_codec_buf too small for a made codec");

const ids_codec_row ids_codec_rows[] = {
  {.name = "dec", .form = IDS_ROW_NUMBER, .base = 10,
   .digits = IDS_DIGITS_DEC},
  {.name = "hex", .form = IDS_ROW_NUMBER, .base = 16,
   .digits = IDS_DIGITS_HEX, .fixed = 1, .fold = 1},
  {.name = "base58", .form = IDS_ROW_NUMBER, .base = 58,
   .digits = IDS_DIGITS_B58},
  {.name = "base62", .form = IDS_ROW_NUMBER, .base = 62,
   .digits = IDS_DIGITS_B62, .fixed = 1},
  {.name = "crockford", .form = IDS_ROW_NUMBER, .base = 32,
   .digits = IDS_DIGITS_CROCKFORD, .fixed = 1, .fold = 1,
   .aliases = IDS_ALIASES_CROCKFORD},
  {.name = "base32", .form = IDS_ROW_PACKED, .base = 32,
   .digits = IDS_DIGITS_B32, .fold = 1},
  {.name = "base64url", .form = IDS_ROW_PACKED, .base = 64,
   .digits = IDS_DIGITS_B64URL},
  /* RFC 4648's base32hex over the ID's bytes, lower case (xid) */
  {.name = "base32hex", .form = IDS_ROW_PACKED, .base = 32,
   .digits = IDS_DIGITS_B32HEX, .fold = 1},
  /* nanoid's 21 characters: the value in base 64 of its alphabet */
  {.name = "nanoid", .form = IDS_ROW_NUMBER, .base = 64,
   .digits = IDS_DIGITS_NANOID, .fixed = 1},
  /* Flax's form with any alphabet that keeps its order */
  {.name = "b64sort", .form = IDS_ROW_PACKED, .base = 64, .sorted = 1},
  {.name = "uuid", .form = IDS_ROW_UUID},
  /* the forms the UUID world writes besides (Python's uuid.UUID reads
  ** them all): RFC 9562's URN, Microsoft's registry form in braces */
  {.name = "urn", .form = IDS_ROW_UUID, .head = "urn:uuid:", .tail = ""},
  {.name = "braced", .form = IDS_ROW_UUID, .head = "{", .tail = "}"},
  /* a UUID in 22 digits of base 57 (Python's shortuuid) and of Flickr's
  ** base58 (npm's short-uuid), most significant first, padded with the
  ** digit 0 */
  {.name = "base57", .form = IDS_ROW_NUMBER, .base = 57,
   .digits = IDS_DIGITS_B57, .fixed = 1},
  {.name = "flickr58", .form = IDS_ROW_NUMBER, .base = 58,
   .digits = IDS_DIGITS_FLICKR58, .fixed = 1},
  /* TypeID: "typeid" reads any prefix, "typeid:user" that one */
  {.name = "typeid", .form = IDS_ROW_TYPEID, .base = 32,
   .digits = IDS_DIGITS_TYPEID, .fixed = 1},
};
const size_t ids_codec_nrows = sizeof ids_codec_rows / sizeof *ids_codec_rows;

/* log2 of a power-of-two base, else 0. */
static unsigned log2of (unsigned base) {
  unsigned k = 0;
  if (base < 2 || (base & (base - 1))) return 0;
  while ((1u << k) < base) k++;
  return k;
}

/* The same letter in the other case, else ch. */
static unsigned char othercase (unsigned char ch) {
  if (ch >= 'a' && ch <= 'z') return (unsigned char)(ch - 32);
  if (ch >= 'A' && ch <= 'Z') return (unsigned char)(ch + 32);
  return ch;
}

/* Is ch among the first n characters of a (either case if fold)? */
static int among (const char *a, size_t n, int fold, unsigned char ch) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)a[i] == ch ||
        (fold && (unsigned char)a[i] == othercase(ch)))
      return 1;
  return 0;
}

/* Is a (the row's own alphabet or one given after its name) base distinct
** printable ASCII characters, ascending if the row says so? */
static int alphabet_ok (const ids_codec_row *w, const char *a) {
  if (strlen(a) != w->base) return 0;
  for (unsigned x = 0; x < w->base; x++) {
    unsigned char ch = (unsigned char)a[x];
    if (ch < 0x21 || ch > 0x7e || among(a, x, w->fold, ch) ||
        (w->sorted && x > 0 && ch <= (unsigned char)a[x - 1]))
      return 0;
  }
  return 1;
}

/* Name k of a row: 0 its name, then the others; NULL past the last. */
static const char *nameof (const ids_codec_row *w, size_t k) {
  if (k == 0) return w->name;
  return k <= sizeof w->also / sizeof *w->also ? w->also[k - 1] : NULL;
}

/* Does a row before w, or w under an earlier name, answer to w's name k? */
static int taken (const ids_codec_row *rows, const ids_codec_row *w,
                  size_t k) {
  const char *name = nameof(w, k);
  for (const ids_codec_row *o = rows; o <= w; o++)
    for (size_t j = 0; nameof(o, j) && (o < w || j < k); j++)
      if (strcmp(nameof(o, j), name) == 0) return 1;
  return 0;
}

/* What is wrong with a row, or NULL. */
static const char *flaw (const ids_codec_row *rows, const ids_codec_row *w) {
  size_t k;
  if (w->also[sizeof w->also / sizeof *w->also - 1])
    return "at most 3 other names";
  for (k = 0; nameof(w, k); k++) {
    const char *nm = nameof(w, k);
    if (nm[0] == '\0' || strchr(nm, ':')) return "names without ':'";
    if (taken(rows, w, k)) return "names of its own";
  }
  if (w->form == IDS_ROW_UUID)
    return w->base || w->digits || w->fixed || w->fold || w->aliases ||
           w->sorted ? "nothing but its name, head and tail (uuid)" :
           (w->head == NULL) != (w->tail == NULL) ||
           (w->head && strlen(w->head) + strlen(w->tail) >
                       IDS_TEXTMAX - 37) ? "a head and a tail, or neither, "
           "that fit beside 36 characters (uuid)" : NULL;
  if (w->head || w->tail) return "a head and tail only in the uuid form";
  if (w->form != IDS_ROW_NUMBER && w->form != IDS_ROW_PACKED &&
      w->form != IDS_ROW_TYPEID)
    return "a known form";
  if (w->form == IDS_ROW_TYPEID && (w->base != 32 || !w->digits ||
                                    !w->fixed || w->fold))
    return "typeid's own: base 32, its digits, fixed, one case";
  if (w->base < 2 || w->base > 64 ||
      (w->form == IDS_ROW_PACKED && !log2of(w->base)))
    return "a base of 2..64 (a power of two if packed)";
  if (w->digits && !alphabet_ok(w, w->digits))
    return w->sorted ? "an alphabet of base distinct printable ASCII "
                       "characters, ascending"
                     : "an alphabet of base distinct printable ASCII "
                       "characters";
  for (const char *a = w->aliases; a && a[0]; a += 2)
    if (w->digits == NULL || a[1] == '\0' ||
        among(w->digits, w->base, w->fold, (unsigned char)a[0]) ||
        !among(w->digits, w->base, 0, (unsigned char)a[1]))
      return "aliases in pairs: a non-digit, then the digit it reads as";
  return NULL;
}

int ids__codec_rows_check (const ids_codec_row *rows, size_t n,
                           ids_error *e) {
  for (size_t i = 0; i < n; i++) {
    const char *why = rows[i].name ? flaw(rows, &rows[i]) : "a name";
    if (why)
      return ids_fail(e, IDS_EINVAL, "codec row %zu ('%s') needs %s", i + 1,
                      rows[i].name ? rows[i].name : "", why);
  }
  return IDS_OK;
}

/* name's row: by one of its names, or "<name>:<alphabet>" for a row whose
** alphabet is given (then *given is the alphabet). */
static const ids_codec_row *lookup (const ids_codec_row *rows, size_t n,
                                    const char *name, const char **given) {
  *given = NULL;
  for (size_t i = 0; i < n; i++) {
    const ids_codec_row *w = &rows[i];
    for (size_t k = 0; nameof(w, k); k++) {
      const char *nm = nameof(w, k);
      size_t len = strlen(nm);
      if (w->form == IDS_ROW_TYPEID && strncmp(name, nm, len) == 0 &&
          (name[len] == ':' || name[len] == '\0')) {
        if (name[len] == ':') *given = name + len + 1;
        return w;
      }
      if (w->form != IDS_ROW_UUID && w->digits == NULL) {
        if (strncmp(name, nm, len) == 0 && name[len] == ':') {
          *given = name + len + 1;
          return w;
        }
      }
      else if (strcmp(name, nm) == 0)
        return w;
    }
  }
  return NULL;
}

int ids__codec_make_from (const ids_codec_row *rows, size_t n,
                          ids_codec_buf *b, const char *name, unsigned bits,
                          unsigned bytes, ids_error *e) {
  made *m = (made *)(void *)b;
  ids_radix *r = &m->t.radix;
  const char *given;
  const ids_codec_row *w = lookup(rows, n, name, &given);
  memset(m, 0, sizeof *m);
  if (w == NULL) return ids_fail(e, IDS_ENOENT, "unknown encoding '%s'", name);
  if (w->form == IDS_ROW_UUID) {
    if (bits != 128 || bytes != 16)
      return ids_fail(e, IDS_EINVAL, "encoding '%s' needs a 128-bit layout "
                      "in 16 bytes", name);
    m->codec = (ids_codec){w->name, ids_uuid_encode, ids_uuid_decode,
                           w->head ? w : NULL, NULL};
    return IDS_OK;
  }
  m->codec = (ids_codec)IDS_RADIX_CODEC(w->name, m->t.radix);
  if (w->form == IDS_ROW_TYPEID) {
    int rc;
    if (bits != 128 || bytes != 16)      /* a UUID's: 26 digits, 0..7 first */
      return ids_fail(e, IDS_EINVAL, "encoding '%s' needs a 128-bit layout "
                      "in 16 bytes", name);
    if (given && (rc = ids_typeid_setprefix(&m->t, given, e)) != IDS_OK)
      return rc;
    m->codec = (ids_codec){w->name, ids_typeid_encode, ids_typeid_decode,
                           &m->t, ids_typeid_prepare};
    given = NULL;                      /* a prefix, not an alphabet */
  }
  r->base = w->base;
  r->width = 1;
  r->digits = w->digits;
  r->fixed = w->fixed;
  r->fold = w->fold;
  r->aliases = w->aliases;
  if (given) {
    if (!alphabet_ok(w, given))
      return ids_fail(e, IDS_EINVAL, "the %s alphabet must be %u %sprintable "
                      "ASCII characters%s: '%s'", w->name, w->base,
                      w->sorted ? "" : "distinct ",
                      w->sorted ? " in ascending order" : "", name);
    memcpy(m->alphabet, given, w->base + 1);
    r->digits = m->alphabet;
  }
  if (w->form == IDS_ROW_PACKED) {     /* as wide as the scheme's bytes */
    unsigned k = log2of(w->base), all = bytes * 8;
    r->ndigits = (all + k - 1) / k;
    r->shift = r->ndigits * k - all;
  }
  return ids_radix_prepare(r);
}

int ids_codec_make (ids_codec_buf *b, const char *name, unsigned bits,
                    unsigned bytes, ids_error *e) {
  /* the table is checked at first use: a row that cannot be right stops
  ** a debug build here, and is every call's error in any other */
  static _Atomic int checked;
  if (!checked) {
    int r = ids__codec_rows_check(ids_codec_rows, ids_codec_nrows, e);
    assert(r == IDS_OK && "ids_codec_rows: a row that cannot be right");
    if (r != IDS_OK) return r;
    checked = 1;
  }
  return ids__codec_make_from(ids_codec_rows, ids_codec_nrows, b, name,
                              bits, bytes, e);
}

/* ------------------------------------------------------------- equals */

static int samestr (const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

int ids__codec_same (const ids_codec *a, const ids_codec *b) {
  const ids_radix *x = (const ids_radix *)a->param;
  const ids_radix *y = (const ids_radix *)b->param;
  if (a->encode != b->encode || a->decode != b->decode) return 0;
  if (a->param == b->param) return 1;
  if (a->encode != ids_radix_encode || !x || !y) return 0;
  if (x->base != y->base || x->width != y->width ||
      x->maxdigits != y->maxdigits || x->fixed != y->fixed ||
      x->ndigits != y->ndigits || x->shift != y->shift ||
      x->fold != y->fold || !samestr(x->prefix, y->prefix) ||
      !samestr(x->aliases, y->aliases) ||
      memcmp(x->digits, y->digits, (size_t)x->base * x->width) != 0)
    return 0;
  for (int i = 0; i < 3; i++) {
    if (!samestr(x->accept[i], y->accept[i])) return 0;
    if (!x->accept[i]) break;
  }
  return 1;
}
