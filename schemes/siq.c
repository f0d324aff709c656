/*
** siq.c: SIQ (SUOU).  112 bits: 56-bit time in 1/65536 s since 1970 |
** 8 shard | 32 domain hash (last 4 bytes of SHA-256) | 16 bits of serial
** and a type qualifier of 3, 4 or 5 bits (a suffix-free code).
*/
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "schemes.h"

enum { F_TIME, F_SHARD, F_DOMAIN, F_SERIAL, F_QUAL };

/* A type of enum value V has an n = floor(log2 V)-bit suffix: V without
** its leading 1.  The serial takes the 16 - n bits above it. */
static const ids_qualifier types[] = {
  {"content", 15}, {"multi", 11}, {"manytomany", 13}, {"ternary", 9},
  {"thread", 22}, {"message", 30},
  {"user", 32}, {"tag", 34}, {"group", 36}, {"event", 40}, {"channel", 42},
  {"invite", 44}, {"application", 48}, {"collection", 52}, {"premium", 56},
};
#define NTYPES  (sizeof types / sizeof *types)

static unsigned suffixbits (uint64_t v) {
  unsigned n = 0;
  while (v >> (n + 1)) n++;
  return n;
}

static int typeindex (uint64_t v) {
  for (unsigned i = 0; i < NTYPES; i++)
    if (types[i].value == v) return (int)i;
  return -1;
}

/* The type value V of a low 16 bits: bit 0 set, a 3-bit code; else low
** bits 110, a 4-bit code; else a 5-bit code. */
static uint64_t typeof16 (unsigned low, unsigned *n) {
  *n = (low & 1) ? 3 : (low & 7) == 6 ? 4 : 5;
  return (uint64_t)(low & ((1u << *n) - 1)) | (uint64_t)1 << *n;
}

static int compose (const ids_scheme *s, const uint64_t *x, ids_value *v,
                    ids_error *e) {
  static const unsigned widths[] = {56, 8, 32};
  unsigned n;
  for (int i = F_TIME; i <= F_DOMAIN; i++)
    if (x[i] >> widths[i])
      return ids_fail(e, IDS_ERANGE, "siq %s out of range: %llu does not "
                      "fit in %u bits", s->fields[i].name,
                      (unsigned long long)x[i], widths[i]);
  if (typeindex(x[F_QUAL]) < 0)
    return ids_fail(e, IDS_EINVAL, "siq qualifier %llu is not a type",
                    (unsigned long long)x[F_QUAL]);
  n = suffixbits(x[F_QUAL]);
  if (x[F_SERIAL] >> (16 - n))
    return ids_fail(e, IDS_ERANGE, "siq serial out of range: %llu does not "
                    "fit in the %u bits a %s id has",
                    (unsigned long long)x[F_SERIAL], 16 - n,
                    ids_scheme_qualifier_name(s, x[F_QUAL]));
  v->w[2] = 0;
  v->w[1] = x[F_TIME] >> 8;
  v->w[0] = x[F_TIME] << 56 | x[F_SHARD] << 48 | x[F_DOMAIN] << 16 |
            x[F_SERIAL] << n | (x[F_QUAL] & ((1u << n) - 1));
  return IDS_OK;
}

static void decompose (const ids_scheme *s, const ids_value *v, uint64_t *x) {
  unsigned n, low = (unsigned)(v->w[0] & 0xffff);
  (void)s;
  x[F_TIME] = ids_value_get(v, 56, 56);
  x[F_SHARD] = (v->w[0] >> 48) & 0xff;
  x[F_DOMAIN] = (v->w[0] >> 16) & 0xffffffff;
  x[F_QUAL] = typeof16(low, &n);
  x[F_SERIAL] = low >> n;
}

static int validate (const ids_scheme *s, const ids_value *v, ids_error *e) {
  unsigned n;
  uint64_t t = typeof16((unsigned)(v->w[0] & 0xffff), &n);
  (void)s;
  if (typeindex(t) < 0)
    return ids_fail(e, IDS_EINVAL, "qualifier suffix %u%u%u%u%u is not "
                    "assigned to any type", (unsigned)(t >> 4) & 1,
                    (unsigned)(t >> 3) & 1, (unsigned)(t >> 2) & 1,
                    (unsigned)(t >> 1) & 1, (unsigned)t & 1);
  return IDS_OK;
}

/* The last 4 bytes of SHA-256 of the exact name; "" means no domain. */
static int hashname (const ids_scheme *s, int f, const char *str, size_t n,
                     uint64_t *x, ids_error *e) {
  uint8_t h[crypto_hash_sha256_BYTES];
  (void)s; (void)f; (void)e;
  if (n == 0) { *x = 0; return IDS_OK; }
  crypto_hash_sha256(h, (const uint8_t *)str, n);
  *x = (uint64_t)h[28] << 24 | (uint64_t)h[29] << 16 | (uint64_t)h[30] << 8 |
       h[31];
  return IDS_OK;
}

/* ------------------------------------------------------------- text */

static ids_radix b64 = {
  .base = 64, .width = 1, .digits = IDS_DIGITS_B64URL, .ndigits = 20
};
static ids_radix cb32 = {
  .base = 32, .width = 1, .digits = IDS_DIGITS_CROCKFORD, .fold = 1,
  .aliases = IDS_ALIASES_CROCKFORD
};
static ids_radix b32l = {
  .base = 32, .width = 1, .digits = IDS_DIGITS_B32LOWER, .ndigits = 24,
  .fold = 1
};
/* did:siq: + the 29-digit base-32 numeral of crc32(bytes) << 112 | v */
static ids_radix did = {
  .base = 32, .width = 1, .digits = IDS_DIGITS_B32LOWER, .ndigits = 29,
  .fold = 1, .prefix = "did:siq:", .accept = {"did:siq:", NULL}
};
static const ids_codec c_didnum = IDS_RADIX_CODEC("did", did);

static uint32_t crc (const ids_value *v) {
  uint8_t b[14];
  ids_value_to_bytes(v, b, sizeof b);
  return ids__crc32(b, sizeof b);
}

static size_t did_encode (const ids_codec *c, const ids_value *v,
                          unsigned bits, char *out) {
  ids_value w = *v;
  (void)c; (void)bits;
  ids_value_set(&w, 112, 32, crc(v));
  return ids_radix_encode(&c_didnum, &w, 144, out);
}

static int did_decode (const ids_codec *c, const char *s, size_t n,
                       unsigned bits, ids_value *v, ids_error *e) {
  ids_value w;
  uint32_t sum;
  int r = ids_radix_decode(&c_didnum, s, n, 144, &w, e);
  (void)c; (void)bits;
  if (r != IDS_OK) return r;
  sum = (uint32_t)ids_value_get(&w, 112, 32);
  ids_value_set(&w, 112, 32, 0);
  if (sum != crc(&w))
    return ids_fail(e, IDS_EINVAL, "checksum mismatch");
  *v = w;
  return IDS_OK;
}

static const ids_codec c_b64 = IDS_RADIX_CODEC("b64", b64);
static const ids_codec c_cb32 = IDS_RADIX_CODEC("cb32", cb32);
static const ids_codec c_b32l = IDS_RADIX_CODEC("b32l", b32l);
/* the did form's own numeral (c_didnum) is prepared with it */
static int did_prepare (const ids_codec *c) {
  (void)c;
  return ids_radix_prepare(&did);
}

static const ids_codec c_did = {"did", did_encode, did_decode, NULL,
                                did_prepare};

static const ids_codec *detect (const ids_scheme *s, const char *t,
                                size_t n) {
  return n >= 8 && memcmp(t, "did:siq:", 8) == 0 ? &c_did : s->codecs[0];
}

/* -------------------------------------------------------- generator */

static const ids_optdef genopts[] = {
  {"domain_name", IDS_OPT_STR, 0, 0, 0},
  {"domain", IDS_OPT_INT, 0, 0xffffffffll, 0},
  {"shard", IDS_OPT_INT, 0, 255, 0},
  {"qualifier", IDS_OPT_STR, 0, 0, 0},
};

/* The generator's 16-bit tail per tick (serial << n | suffix) is shared
** by every type, so that its IDs strictly increase whatever the types: a
** type's values end in its n-bit suffix. */
static int suffix (const ids_scheme *s, uint64_t q, unsigned *n,
                   uint64_t *suf) {
  (void)s;
  if (typeindex(q) < 0) return -1;
  *n = suffixbits(q);
  *suf = q & ((1u << *n) - 1);
  return 0;
}

static void place (const ids_scheme *s, uint64_t tick, uint64_t tail,
                   ids_value *v) {
  (void)s;
  v->w[1] = tick >> 8;
  v->w[0] |= tick << 56 | tail;
}

static const ids_layout_ops layout = {
  .compose = compose, .decompose = decompose, .validate = validate,
  .hashname = hashname,
};

static const ids_gen_ops gen = {
  .suffix = suffix, .seqbits = 16, .place = place,
};

static const ids_about about_siq = {.title = "SIQ (SUOU)"};

const ids_scheme ids_siq = {
  .name = "siq", .bits = 112, .bytes = 14,
  .about = &about_siq,
  IDS_FIELDS(
    {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 56, .shift = 56},
    {.name = "shard", .kind = IDS_KIND_NODE, .bits = 8, .shift = 48},
    {.name = "domain", .kind = IDS_KIND_HASH, .bits = 32, .shift = 16,
     .from = "domain_name"},
    /* the low 16 bits: serial and qualifier share them, widths varying
    ** with the type (compose places them) */
    {.name = "serial", .kind = IDS_KIND_SEQUENCE, .bits = 13, .shift = 0,
     .variable = 1},
    {.name = "qualifier", .kind = IDS_KIND_QUALIFIER, .bits = 5, .shift = 0,
     .variable = 1}),
  IDS_CODECS(&ids_codec_hex, &ids_codec_dec, &ids_codec_oct, &c_b64,
             &c_cb32, &c_b32l, &c_did),
  IDS_GENOPTS(genopts),
  .unit = {65536, 1},
  .epoch_ms = 0,
  .detect = detect,
  .layout = &layout,
  IDS_QUALS(types),           /* content first: the generators' default */
  .gen = &gen,
};
