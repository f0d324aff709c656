/*
** kuid.c: the k-ordered IDs of fogfish/uid 1.3.5, byte for byte.
**
**   kuid64: megaseconds:20 | seconds:20 | microseconds/1024:10 | seq:14
**   kuid96: megaseconds:20 | seconds>>I:20-I | node:32 | seconds&(2^I-1):I |
**           microseconds/1024:10 | seq:14
**
** I, the neighbourhood interval (5..10), is a parameter, not stored in the
** ID.  The node is the Erlang phash2 (or, before 1.3.5, phash) of a node
** name.  Time is mixed-radix: a tick is 1024 us, 977 ticks to a second.
*/
#include <string.h>

#include "schemes.h"

enum { F_MEGA, F_SEC, F_MICRO };     /* then node (96 only) and sequence */

typedef struct kparams { unsigned interval; int phash; } kparams;

static unsigned interval (const ids_scheme *s) {
  return s->ud ? ((const kparams *)s->ud)->interval : 0;
}

static unsigned __int128 wide (const ids_value *v) {
  return (unsigned __int128)v->w[1] << 64 | v->w[0];
}

/* Packs the fields; kuid96 when node >= 0. */
static void pack (const ids_scheme *s, uint64_t mega, uint64_t sec,
                  uint64_t tick, int64_t node, uint64_t seq, ids_value *v) {
  uint64_t lo = tick << 14 | seq;                  /* low 24 bits */
  v->w[2] = 0;
  if (node < 0) {
    v->w[0] = mega << 44 | sec << 24 | lo;
    v->w[1] = 0;
  }
  else {
    unsigned i = interval(s);
    unsigned __int128 x = (unsigned __int128)mega << 76 |
                          (unsigned __int128)(sec >> i) << (56 + i) |
                          (unsigned __int128)node << (24 + i) |
                          (sec & ((1u << i) - 1)) << 24 | lo;
    v->w[0] = (uint64_t)x;
    v->w[1] = (uint64_t)(x >> 64);
  }
}

static int compose (const ids_scheme *s, const uint64_t *x, ids_value *v,
                    ids_error *e) {
  int global = s->nfields == 5;
  for (int i = 0; i < s->nfields; i++)
    if (x[i] >> s->fields[i].bits)
      return ids_fail(e, IDS_ERANGE, "%s %s out of range: %llu does not fit "
                      "in %u bits", s->name, s->fields[i].name,
                      (unsigned long long)x[i], (unsigned)s->fields[i].bits);
  if (x[F_MICRO] & 1023)
    return ids_fail(e, IDS_ERANGE, "%s microseconds must be a multiple of "
                    "1024, not %llu", s->name, (unsigned long long)x[F_MICRO]);
  pack(s, x[F_MEGA], x[F_SEC], x[F_MICRO] >> 10,
       global ? (int64_t)x[3] : -1, x[global ? 4 : 3], v);
  return IDS_OK;
}

static void decompose (const ids_scheme *s, const ids_value *v, uint64_t *x) {
  unsigned __int128 w = wide(v);
  x[F_MICRO] = (uint64_t)(w >> 14 & 1023) << 10;
  if (s->nfields == 5) {
    unsigned i = interval(s);
    x[F_MEGA] = (uint64_t)(w >> 76) & 0xfffff;
    x[F_SEC] = (uint64_t)(w >> (56 + i) & ((1u << (20 - i)) - 1)) << i |
               (uint64_t)(w >> 24 & ((1u << i) - 1));
    x[3] = (uint64_t)(w >> (24 + i)) & 0xffffffff;
    x[4] = (uint64_t)w & 0x3fff;
  }
  else {
    x[F_MEGA] = (uint64_t)(w >> 44) & 0xfffff;
    x[F_SEC] = (uint64_t)(w >> 24) & 0xfffff;
    x[3] = (uint64_t)w & 0x3fff;
  }
}

/* Erlang's atom hash: hashpjw over the name's bytes, with the two-byte
** UTF-8 forms of Latin-1 (lead byte C2 or C3) folded to one byte. */
uint32_t ids_phash2_atom (const char *name, size_t n) {
  const unsigned char *p = (const unsigned char *)name;
  uint32_t h = 0;
  for (size_t i = 0; i < n; ) {
    unsigned v = p[i++];
    if (i < n && (v & 0xfe) == 0xc2 && (p[i] & 0xc0) == 0x80)
      v = ((v << 6) | (p[i++] & 0x3f)) & 0xff;
    h = (h << 4) + v;
    if (h & 0xf0000000u) {
      uint32_t g = h & 0xf0000000u;
      h ^= g >> 24;
      h ^= g;
    }
  }
  return h;
}

static int hashname (const ids_scheme *s, int f, const char *str, size_t n,
                     uint64_t *x, ids_error *e) {
  (void)f; (void)e;
  *x = ids_phash2_atom(str, n) + (uint64_t)((const kparams *)s->ud)->phash;
  return IDS_OK;
}

/* ------------------------------------------------------------ generate */

/* A tick: seconds since 1970 * 1024 + microseconds / 1024, so that ticks
** increase with time although only 977 of each 1024 occur. */
static uint64_t totick (uint64_t sec, uint64_t nsec) {
  return sec * 1024 + (nsec / 1000 >> 10);
}

/* The generic counter's tick and sequence, into the layout; v holds the
** node (the generator's constant bits) already. */
static void place (const ids_scheme *s, uint64_t tick, uint64_t seq,
                   ids_value *v) {
  uint64_t sec = tick >> 10;
  ids_value t;
  pack(s, sec / 1000000, sec % 1000000, tick & 1023,
       s->nfields == 5 ? 0 : -1, seq, &t);
  v->w[0] |= t.w[0];
  v->w[1] |= t.w[1];
}

static const ids_layout_ops layout64 = {
  .compose = compose, .decompose = decompose,
};
static const ids_layout_ops layout96 = {
  .compose = compose, .decompose = decompose, .hashname = hashname,
};
static const ids_gen_ops gen = {
  .totick = totick, .max_tick = ((uint64_t)1 << 20) * 1000000 * 1024 - 1,
  .place = place,
};

/* ---------------------------------------------------------------- text */

/* d64: bit-packed base64 in an ASCII-ordered alphabet; 8 bytes leave 2
** bits of padding (11 digits), 12 bytes none (16 digits). */
#define D64 ".0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

static ids_radix b64_64 = {.base = 64, .width = 1, .digits = D64,
                           .fixed = 1, .shift = 2};
static ids_radix b64_96 = {.base = 64, .width = 1, .digits = D64,
                           .fixed = 1};
static ids_radix url_64 = {.base = 64, .width = 1,
                           .digits = IDS_DIGITS_B64URL, .fixed = 1,
                           .shift = 2};
static ids_radix url_96 = {.base = 64, .width = 1,
                           .digits = IDS_DIGITS_B64URL, .fixed = 1};

static const ids_codec c64_b64 = IDS_RADIX_CODEC("b64", b64_64);
static const ids_codec c96_b64 = IDS_RADIX_CODEC("b64", b64_96);
static const ids_codec c64_url = IDS_RADIX_CODEC("b64url", url_64);
static const ids_codec c96_url = IDS_RADIX_CODEC("b64url", url_96);

/* ------------------------------------------------------------- schemes */

static const ids_optdef params96[] = {
  {"interval", IDS_OPT_INT, 5, 10, 8},
  {"hash", IDS_OPT_STR, 0, 0, 0},
};
static const char *const strdflt96[] = {NULL, "phash2"};
static const ids_optdef genopts96[] = {
  {"node_name", IDS_OPT_STR, 0, 0, 0},
  {"node", IDS_OPT_INT, 0, 0xffffffffll, 0},
};

/* One kparams for each interval and hash, so opened schemes can share. */
static const kparams kp[2][6] = {
  {{5, 0}, {6, 0}, {7, 0}, {8, 0}, {9, 0}, {10, 0}},
  {{5, 1}, {6, 1}, {7, 1}, {8, 1}, {9, 1}, {10, 1}},
};

static int open96 (const ids_scheme *d, const ids_optval *p, ids_scheme *out,
                   ids_error *e) {
  /* ids_scheme_open checked the range and filled in the defaults */
  int64_t i = p[0].i;
  int ph = 0;
  if (p[1].set) {
    if (p[1].len == 6 && memcmp(p[1].s, "phash2", 6) == 0) ph = 0;
    else if (p[1].len == 5 && memcmp(p[1].s, "phash", 5) == 0) ph = 1;
    else
      return ids_fail(e, IDS_EINVAL, "kuid96 hash must be 'phash2' or "
                      "'phash', not '%.*s'", (int)(p[1].len > 16 ? 16 :
                      p[1].len), p[1].s);
  }
  *out = *d;
  out->ud = (void *)&kp[ph][i - 5];
  out->fields[3].shift = (uint8_t)(24 + i);
  return IDS_OK;
}

static const ids_about about_kuid64 = {.title = "k-ordered uid, 64 bits (fogfish/uid)"};

const ids_scheme ids_kuid64 = {
  .name = "kuid64", .bits = 64, .bytes = 8,
  .about = &about_kuid64,
  IDS_FIELDS(
    {.name = "megaseconds", .kind = IDS_KIND_TIME, .bits = 20, .shift = 44},
    {.name = "seconds", .kind = IDS_KIND_TIME, .bits = 20, .shift = 24},
    /* microseconds, a multiple of 1024: 10 bits at 14 (compose places
    ** them) */
    {.name = "microseconds", .kind = IDS_KIND_TIME, .bits = 20, .shift = 14},
    {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 14, .shift = 0}),
  IDS_CODECS(&c64_b64, &ids_codec_hexfixed, &c64_url),
  .unit = {1024, 1},
  .layout = &layout64,
  .gen = &gen,
};

static const ids_about about_kuid96 = {.title = "k-ordered uid, 96 bits (fogfish/uid)"};

const ids_scheme ids_kuid96 = {
  .name = "kuid96", .bits = 96, .bytes = 12,
  .about = &about_kuid96,
  IDS_FIELDS(
    {.name = "megaseconds", .kind = IDS_KIND_TIME, .bits = 20, .shift = 76},
    /* its low I bits are here; the other 20 - I sit above the node, at
    ** 56 + I (the layout ops place both) */
    {.name = "seconds", .kind = IDS_KIND_TIME, .bits = 20, .shift = 24},
    {.name = "microseconds", .kind = IDS_KIND_TIME, .bits = 20, .shift = 14},
    /* at 24 + I, I = 8 here (open96 moves it) */
    {.name = "node", .kind = IDS_KIND_NODE, .bits = 32, .shift = 32,
     .from = "node_name"},
    {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 14, .shift = 0}),
  IDS_CODECS(&c96_b64, &ids_codec_hexfixed, &c96_url),
  IDS_PARAMS(params96),
  .param_str = strdflt96,
  IDS_GENOPTS(genopts96),
  .unit = {1024, 1},
  .ud = (void *)&kp[0][3],
  .open = open96,
  .layout = &layout96,
  .gen = &gen,
};
