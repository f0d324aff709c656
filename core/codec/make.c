/*
** make.c: codecs made by name (ids_codec_make), for schemes defined at run
** time and for C plugins: one table row per name, the tables in the
** caller's ids_codec_buf.
*/
#include <stdio.h>
#include <string.h>

#include "codecs.h"

/* What an ids_codec_buf holds besides its codec. */
typedef struct made {
  ids_codec codec;
  ids_radix radix;
  char alphabet[65];
  char name[16];
} made;

_Static_assert(sizeof(made) <= sizeof(ids_codec_buf),
               "ids_codec_buf too small for a made codec");

/* The positional codecs: base, digits and how they are written. */
static int positional (made *m, const char *name, unsigned bits,
                       unsigned bytes, ids_error *e);
/* RFC 4648 style: the bytes' bits, most significant first, zero bits
** appended to fill the last digit; no padding characters. */
static int packed (made *m, const char *name, unsigned bits, unsigned bytes,
                   ids_error *e);
static int uuid (made *m, const char *name, unsigned bits, unsigned bytes,
                 ids_error *e);

static const struct {
  const char *name;
  int prefix;                 /* name is a prefix ("b64sort:<alphabet>") */
  int (*make) (made *m, const char *name, unsigned bits, unsigned bytes,
               ids_error *e);
} makers[] = {
  {"dec", 0, positional}, {"hex", 0, positional}, {"base58", 0, positional},
  {"base62", 0, positional}, {"crockford", 0, positional},
  {"base32", 0, packed}, {"base64url", 0, packed}, {"b64sort:", 1, packed},
  {"uuid", 0, uuid},
};

static int positional (made *m, const char *name, unsigned bits,
                       unsigned bytes, ids_error *e) {
  ids_radix *r = &m->radix;
  (void)bits; (void)bytes; (void)e;
  switch (name[0] == 'b' ? name[4] : name[0]) {
    case 'd': r->base = 10, r->digits = IDS_DIGITS_DEC; break;
    case 'h': r->base = 16, r->digits = IDS_DIGITS_HEX, r->fixed = 1,
              r->fold = 1; break;
    case '5': r->base = 58, r->digits = IDS_DIGITS_B58; break;
    case '6': r->base = 62, r->digits = IDS_DIGITS_B62, r->fixed = 1; break;
    default:  r->base = 32, r->digits = IDS_DIGITS_CROCKFORD, r->fixed = 1,
              r->fold = 1, r->aliases = IDS_ALIASES_CROCKFORD; break;
  }
  return IDS_OK;
}

static int packed (made *m, const char *name, unsigned bits, unsigned bytes,
                   ids_error *e) {
  ids_radix *r = &m->radix;
  unsigned k = name[4] == '3' ? 5 : 6, all = bytes * 8;
  (void)bits;
  r->base = 1u << k;
  r->ndigits = (all + k - 1) / k;
  r->shift = r->ndigits * k - all;
  if (k == 5) r->digits = IDS_DIGITS_B32, r->fold = 1;
  else if (name[1] == 'a') r->digits = IDS_DIGITS_B64URL;
  else {
    const char *a = name + 8;
    int good = strlen(a) == 64;
    for (int x = 0; good && x < 64; x++)   /* the codec sorts as the values */
      good = (x == 0 || (unsigned char)a[x] > (unsigned char)a[x - 1]) &&
             (unsigned char)a[x] >= 0x21 && (unsigned char)a[x] <= 0x7e;
    if (!good)
      return ids_fail(e, IDS_EINVAL, "the b64sort alphabet must be 64 "
                      "printable ASCII characters in ascending order: '%s'",
                      name);
    memcpy(m->alphabet, a, 65);
    r->digits = m->alphabet;
    m->codec.name = "b64sort";
  }
  return IDS_OK;
}

static int uuid (made *m, const char *name, unsigned bits, unsigned bytes,
                 ids_error *e) {
  if (bits != 128 || bytes != 16)
    return ids_fail(e, IDS_EINVAL, "encoding '%s' needs a 128-bit layout in "
                    "16 bytes", name);
  m->codec.encode = ids_uuid_encode;
  m->codec.decode = ids_uuid_decode;
  m->codec.param = NULL;
  m->codec.prepare = NULL;
  return IDS_OK;
}

int ids_codec_make (ids_codec_buf *b, const char *name, unsigned bits,
                    unsigned bytes, ids_error *e) {
  made *m = (made *)(void *)b;
  int r;
  memset(m, 0, sizeof *m);
  for (size_t i = 0; i < sizeof makers / sizeof *makers; i++) {
    const char *mn = makers[i].name;
    if (makers[i].prefix ? strncmp(name, mn, strlen(mn)) != 0 :
        strcmp(name, mn) != 0)
      continue;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->codec = (ids_codec)IDS_RADIX_CODEC(m->name, m->radix);
    m->radix.width = 1;
    if ((r = makers[i].make(m, name, bits, bytes, e)) != IDS_OK) return r;
    return m->codec.prepare ? m->codec.prepare(&m->codec) : IDS_OK;
  }
  return ids_fail(e, IDS_ENOENT, "unknown encoding '%s'", name);
}
