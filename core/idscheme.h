/*
** idscheme.h: the whole public C API of libidscheme.
**
** A scheme is a bit layout (named fields) plus text codecs.  Values are up
** to 160 bits.  Call ids_init() once before anything else (as with
** sodium_init); it registers the built-in schemes.
**
** Compiles as C99 and as C++ (C++11 and later); includes no other
** library's header.
*/
#ifndef IDSCHEME_H
#define IDSCHEME_H

#include <stddef.h>
#include <stdint.h>

/* IDS_API marks what libidscheme exports: the library is built with
** hidden visibility, so nothing else leaves it.  Compiled straight into a
** Lua module (IDS_HIDDEN, the rockspec), it exports nothing at all.
** Headers of other libraries come before this one. */
#if defined(IDS_HIDDEN) && defined(__GNUC__)
#pragma GCC visibility push(hidden)
#define IDS_API
#elif defined(__GNUC__)
#define IDS_API __attribute__((visibility("default")))
#else
#define IDS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The one place the version is written: CMake's project(VERSION), the
** SONAME, idscheme.pc, the CMake package, the rockspecs, the Debian
** changelog and the man page follow it (scripts/check-version.sh). */
#define IDS_VERSION     "0.3.0"

#define IDS_MAXBITS     160
#define IDS_MAXBYTES    20
#define IDS_MAXFIELDS   12
#define IDS_MAXCODECS   12
#define IDS_MAXOPTS     8
#define IDS_TEXTMAX     128     /* longest text form, with its NUL */
#define IDS_ERRMAX      160
#define IDS_NAMEMAX     32      /* scheme and field names, with the NUL */
#define IDS_EPOCH_MAX   9000000000000ll  /* ms; ns since 1970 fit int64 */
#define IDS_EPOCH_MIN   (-12219292800000ll)  /* ms: 1582-10-15, the
                                                Gregorian calendar (UUID's) */
#define IDS_MAXPARTS    3       /* runs of one split field */

/* Result codes: 0 is success, every failure is negative. */
enum {
  IDS_OK      = 0,
  IDS_EINVAL  = -1,   /* malformed text or argument */
  IDS_ERANGE  = -2,   /* a value does not fit its field or width */
  IDS_ECLOCK  = -3,   /* clock went backwards under the "error" policy */
  IDS_EFORK   = -4,   /* generator created before fork() used in the child */
  IDS_ENOENT  = -5,   /* no such scheme, encoding, parameter or option */
  IDS_EEXIST  = -6,   /* a scheme of that name is registered already */
  IDS_ENOMEM  = -7,
  IDS_ELEASE  = -8,   /* no valid slot lease: the store has not answered
                         in time, or the slot was lost (slots.h) */
  IDS_ETIME   = -9,   /* a wait would last longer than max_wait_ms */
  IDS_EINTR   = -10   /* a wait was interrupted (ids_wait_interrupt) */
};

/* What went wrong, in words that name the input. */
typedef struct ids_error {
  int code;
  char msg[IDS_ERRMAX];
} ids_error;

/* -------------------------------------------------------------- value */

/* An ID value of up to 160 bits: w[0] holds bits 0..63, w[1] 64..127,
** w[2] 128..159.  Schemes of 64 bits or fewer use w[0] only. */
typedef struct ids_value {
  uint64_t w[3];
} ids_value;

IDS_API
uint64_t ids_value_get (const ids_value *v, unsigned shift, unsigned bits);
IDS_API
void     ids_value_set (ids_value *v, unsigned shift, unsigned bits,
                        uint64_t x);
IDS_API
int      ids_value_cmp (const ids_value *a, const ids_value *b);
/* Big-endian bytes, the scheme's byte width (1..IDS_MAXBYTES). */
IDS_API
void     ids_value_to_bytes (const ids_value *v, uint8_t *out, size_t n);
IDS_API
void     ids_value_from_bytes (ids_value *v, const uint8_t *in, size_t n);
/* Fields wider than 64 bits, as ceil(bits / 8) big-endian bytes. */
IDS_API
void     ids_value_getbytes (const ids_value *v, unsigned shift,
                             unsigned bits, uint8_t *out);
IDS_API
void     ids_value_setbytes (ids_value *v, unsigned shift, unsigned bits,
                             const uint8_t *in);
/* Value of bits width `bits` or fewer? */
IDS_API
int      ids_value_fits (const ids_value *v, unsigned bits);

/* -------------------------------------------------------------- codec */

typedef struct ids_codec ids_codec;

/* Writes text into out (IDS_TEXTMAX bytes) and returns its length.
** `bits` is the scheme's width. */
typedef size_t (*ids_encode_fn) (const ids_codec *c, const ids_value *v,
                                 unsigned bits, char *out);
/* Reads exactly s[0..n) (already trimmed, not empty).  On error fills e
** with a reason and returns a negative code; never reads outside s. */
typedef int (*ids_decode_fn) (const ids_codec *c, const char *s, size_t n,
                              unsigned bits, ids_value *v, ids_error *e);

struct ids_codec {
  const char *name;           /* required */
  ids_encode_fn encode;       /* required */
  ids_decode_fn decode;       /* required */
  const void *param;          /* the codec's own table (alphabet, prefix) */
  /* Optional: builds the codec's tables.  Called once for every codec of
  ** a scheme by ids_scheme_register (under the registry's lock) before the
  ** scheme is visible; idempotent. */
  int (*prepare) (const ids_codec *c);
};

/* ------------------------------------------------------------- layout */

typedef enum ids_kind {
  IDS_KIND_TIME, IDS_KIND_NODE, IDS_KIND_SEQUENCE, IDS_KIND_RANDOM, IDS_KIND_HASH, IDS_KIND_CONSTANT,
  IDS_KIND_QUALIFIER
} ids_kind;

IDS_API
extern const char *const ids_kind_names[];  /* indexed by ids_kind */

typedef struct ids_field {
  const char *name;
  ids_kind kind;
  uint8_t bits;               /* width of the value the field holds (the
                                 widest, for a variable field) */
  uint8_t shift;              /* offset of its lowest bit in the value */
  uint64_t value;             /* IDS_KIND_CONSTANT: the constant */
  const char *from;           /* a string option or key that, hashed by
                                 the scheme's hashname, gives this field
                                 ("domain_name" for SIQ's domain) */
  uint8_t variable;           /* width varies (SIQ's serial, qualifier) */
  /* 0: the field is one run of bits at shift.  2..IDS_MAXPARTS: it is
  ** split around other fields (UUIDv1's and v6's time around the
  ** version); its bits, most significant first, lie in part[0], part[1],
  ** ..., which add up to bits; shift is then its lowest run's.  Read and
  ** write it with ids_field_get and ids_field_set. */
  uint8_t nparts;
  struct { uint8_t shift, bits; } part[IDS_MAXPARTS];
  /* A random field drawn once per generator instead of per ID ("instance":
  ** ObjectId's 5 bytes); a sequence that carries on across ticks from a
  ** random start instead of starting each tick at 0 ("counter":
  ** ObjectId's 3 bytes); a constant that generators write and decoders
  ** do not require ("version": a TypeID holds any UUID, but its time is
  ** a UUIDv7's: where a version field holds another value, the value
  ** decodes and has no time). */
  uint8_t once, carry, loose;
} ids_field;

/* A named value of an IDS_KIND_QUALIFIER field (SIQ's types). */
typedef struct ids_qualifier {
  const char *name;
  uint64_t value;
} ids_qualifier;

/* ------------------------------------------------------------ options */

/* Scheme parameters and generator options are described by tables, so
** that a binding can read them without knowing any scheme. */
typedef enum ids_opttype { IDS_OPT_INT, IDS_OPT_STR } ids_opttype;

typedef struct ids_optdef {
  const char *name;
  ids_opttype type;
  int64_t min, max;           /* IDS_OPT_INT: inclusive range */
  int64_t dflt;               /* IDS_OPT_INT: value when not given */
} ids_optdef;

typedef struct ids_optval {
  int set;                    /* given by the caller? */
  int64_t i;
  const char *s;              /* IDS_OPT_STR: not NUL-terminated */
  size_t len;
} ids_optval;

/* ------------------------------------------------------------- scheme */

typedef struct ids_scheme ids_scheme;
typedef struct ids_generator ids_generator;
typedef struct ids_options ids_options;

typedef struct ids_clock {
  int64_t (*now) (void *ctx);  /* nanoseconds */
  void *ctx;
} ids_clock;

IDS_API
extern const ids_clock ids_clock_realtime;
IDS_API
extern const ids_clock ids_clock_monotonic;

/* Ticks: the unit of a scheme's time field, as a fraction of a second
** (1/1000 for ms, 65536/1 per second for SIQ's 1/65536 s). */
typedef struct ids_unit {
  uint64_t per_sec_num;       /* ticks per second = num / den */
  uint64_t per_sec_den;
} ids_unit;

/* u as define spells it ("ms", "10ms", "1/10000000 s" for UUIDv1's 100
** ns) into out[0..cap): snprintf's count. */
IDS_API
int ids_unit_name (ids_unit u, char *out, size_t cap);

/* Layout operations, for layouts that the field table alone cannot say.
** The table and each member are optional: NULL means the generic
** shift-and-mask over the fields. */
typedef struct ids_layout_ops {
  /* Fields -> value and back, x[i] for field i (SIQ's variable-width
  ** tail).  Optional, but both or neither. */
  int (*compose) (const ids_scheme *s, const uint64_t *x, ids_value *v,
                  ids_error *e);
  void (*decompose) (const ids_scheme *s, const ids_value *v, uint64_t *x);
  /* Optional: checks a decoded value beyond its constants (SIQ: an
  ** assigned qualifier). */
  int (*validate) (const ids_scheme *s, const ids_value *v, ids_error *e);
  /* Field f from a string (a domain or node name).  Required when a field
  ** has a `from` key. */
  int (*hashname) (const ids_scheme *s, int f, const char *str, size_t n,
                   uint64_t *x, ids_error *e);
} ids_layout_ops;

/* Generator operations, for time or sequences that the generic engine (a
** time field counting `unit` from the epoch, and a plain sequence or a
** stepped random field) cannot say.  The table and each member are
** optional. */
typedef struct ids_gen_ops {
  /* Clock reading since 1970 -> tick, for time that is not a linear count
  ** (kuid's mixed radix); max_tick is then the largest tick. */
  uint64_t (*totick) (uint64_t sec, uint64_t nsec);
  uint64_t max_tick;
  /* Tick and sequence into v, which already holds the constant bits (node
  ** fields, constants), where they are not two plain fields. */
  void (*place) (const ids_scheme *s, uint64_t tick, uint64_t seq,
                 ids_value *v);
  /* A sequence of `seqbits` whose low bits name the qualifier (SIQ's
  ** 16-bit tail): the n-bit suffix that values for qualifier q end in;
  ** nonzero if q is none.  With suffix, place is required. */
  int (*suffix) (const ids_scheme *s, uint64_t q, unsigned *n,
                 uint64_t *suf);
  unsigned seqbits;
} ids_gen_ops;

/* A scheme: data (fields, codecs, parameters, options, unit, epoch) plus,
** where it needs them, one small table of operations per layer. */
/* What a reader of an ID is told of its format, for inspect and info (all
** optional).  A time before `since_ms` is not one the format can have
** written (0: the first day after the epoch, as a Unix-epoch scheme with
** no `since_ms` has no say): inspect does not take it as a confirmation. */
#define IDS_MAXALIASES  4
#define IDS_ABOUTMAX    96      /* a title or note, with the NUL */
typedef struct ids_about {
  const char *title;          /* "Discord's Snowflake" */
  const char *note;           /* what a reading without time says:
                                 "random data only" */
  int64_t since_ms;           /* Unix ms of the format's first IDs */
  const char *aliases[IDS_MAXALIASES + 1];   /* names it also answers to,
                                 NULL-ended: "discord" */
  /* A random format that comes in other sizes too (nanoid(size)): a text
  ** of lengths[0]..lengths[1] characters of its first encoding's
  ** alphabet, with letters of both cases (a random text of 10 or more
  ** has them but for 1 in 100; a word seldom does), is this format at
  ** that size, named by inspect by its characters alone.  {0, 0}: none.
  ** A scheme of one random field only. */
  uint8_t lengths[2];
} ids_about;

struct ids_scheme {
  const char *name;
  uint16_t bits;              /* total width */
  uint16_t bytes;             /* width of bytes() */
  uint8_t nfields;
  uint8_t ncodecs;
  uint8_t nparams;
  uint8_t ngenopts;
  uint8_t nquals;
  ids_field fields[IDS_MAXFIELDS];      /* most significant first */
  const ids_qualifier *quals; /* the qualifier field's named values, the
                                 generators' default first */
  ids_unit unit;              /* of the time field */
  int64_t epoch_ms;           /* Unix ms at time-field value 0 */
  /* registry: parameters, and the scheme they make (NULL open: the
  ** descriptor is the scheme).  param_str: the value of each string
  ** parameter when not given (NULL, or a NULL entry: none). */
  const ids_optdef *params;
  const char *const *param_str;
  int (*open) (const ids_scheme *desc, const ids_optval *params,
               ids_scheme *out, ids_error *e);   /* keeps no pointer into
                                                    params' strings */
  /* text: codecs, default first; decoding with no encoding named
  ** (FLUID's RFC 19 detection; NULL: the default codec) */
  const ids_codec *codecs[IDS_MAXCODECS];
  const ids_codec *(*detect) (const ids_scheme *s, const char *t, size_t n);
  /* layout */
  const ids_layout_ops *layout;
  /* generator: its options (node fields by name, and hashed *_name
  ** options), and its operations */
  const ids_optdef *genopts;
  const ids_gen_ops *gen;
  const void *ud;             /* the scheme's own data */
  const ids_about *about;     /* NULL: nothing to tell */
};

/* ------------------------------------------------------- descriptors */

/* An array of a descriptor and its count, set together, so that the count
** follows from the array and cannot disagree with it.  In a C initializer
** of an ids_scheme (examples/plugin.c):
**
**   static ids_scheme tick48 = {
**     .name = "tick48", .bits = 48, .bytes = 6,
**     IDS_FIELDS(
**       {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 36,
**        .shift = 12},
**       {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 12}),
**     IDS_CODECS(&dec.codec),
**     IDS_GENOPTS(genopts),            (a static array of ids_optdef)
**   };
**
** Fields and codecs are written in place (the scheme holds them); options,
** parameters and qualifiers name a static array, not a pointer.  More rows
** than the limit do not compile ("size of array is negative"). */
#define IDS_COUNT(a, max) \
  (sizeof (a) / sizeof (a)[0] + \
   0 * sizeof (char[sizeof (a) / sizeof (a)[0] <= (max) ? 1 : -1]))
#define IDS_FIELDS(...) \
  .fields = {__VA_ARGS__}, \
  .nfields = IDS_COUNT(((ids_field[]){__VA_ARGS__}), IDS_MAXFIELDS)
#define IDS_CODECS(...) \
  .codecs = {__VA_ARGS__}, \
  .ncodecs = IDS_COUNT(((const ids_codec *[]){__VA_ARGS__}), IDS_MAXCODECS)
#define IDS_PARAMS(a)   .params = (a), .nparams = IDS_COUNT(a, IDS_MAXOPTS)
#define IDS_GENOPTS(a)  .genopts = (a), .ngenopts = IDS_COUNT(a, IDS_MAXOPTS)
#define IDS_QUALS(a)    .quals = (a), .nquals = IDS_COUNT(a, UINT8_MAX)

/* --------------------------------------------------------- registry */

IDS_API
int  ids_init (void);         /* once, before anything else; 0 on success */
/* The library's IDS_VERSION, as built: compare with the header's to catch
** a program compiled against one version and run with another. */
IDS_API
const char *ids_version (void);
/* Registers a scheme: IDS_EEXIST if the name is taken, IDS_ENOMEM if a
** codec's tables could not be built, IDS_EINVAL if it breaks the contract
** above: a required member missing; no fields or no codecs, or more than
** the limit; a count without its array; bits not 1..IDS_MAXBITS, or bytes
** that cannot hold them; a field unnamed, named twice, of no known kind,
** of 0 bits or past the top bit; under the generic layout (no compose),
** two fields that share a bit or a bit that no field holds; a codec
** unnamed or named twice.  Every codec is prepared here. */
IDS_API
int  ids_scheme_register (const ids_scheme *s);
/* What ids_scheme_register checks of s, without registering it: IDS_OK,
** or IDS_EINVAL with e naming the scheme, the field or codec, and what is
** wrong with it. */
IDS_API
int  ids_scheme_check (const ids_scheme *s, ids_error *e);
/* A scheme by its name, or by an alias that it alone answers to (its
** about's aliases: "discord" is snowflake); NULL for none and for an
** alias that several answer to ("uuid"). */
IDS_API
const ids_scheme *ids_scheme_find (const char *name);
/* The schemes that answer to `name`: the one of that name, else every one
** whose about lists it as an alias ("uuid": each UUID version), in the
** registry's order.  Returns how many (fills at most max). */
IDS_API
size_t ids_scheme_answering (const char *name, const ids_scheme **out,
                             size_t max);
/* Names in sorted order; returns how many there are (fills at most max:
** ids_scheme_list(NULL, 0) counts them).  The registry grows as needed. */
IDS_API
size_t ids_scheme_list (const char **names, size_t max);

/* A scheme with parameters applied (the descriptor itself when it takes
** none).  Parameters left out take their defaults first, so the same
** effective parameters always give the same pointer.  Every scheme opened
** is kept (with its parameter key) as long as the process lives, since
** IDs point at it; opening it again only looks it up.  params: made for
** desc by ids_params_init (ranges are checked there), or NULL. */
IDS_API
const ids_scheme *ids_scheme_open (const ids_scheme *desc,
                                   const ids_options *params, ids_error *e);

/* A scheme described at run time (idscheme.define in Lua; a plugin in C).
** Kinds: "time" (unit: "ns", "us", "ms", "10ms", "s" or exactly "N/M s";
** epoch in Unix ms, from IDS_EPOCH_MIN), "node" (at most 63 bits, filled from the generator
** option of its name), "sequence" (at most one; "counter": one that
** carries on across ticks from a random start), "random" ("instance":
** drawn once per generator, which may lie anywhere), "constant" (value),
** "hash" (of a name: read and composed, never generated: UUIDv5's).  The time field is above every sequence and random field, and
** no random field is above the sequence.  Field names may not be generator
** options (epoch_ms, start_timestamp, policy, max_ahead_ms, slots,
** qualifier, *_name).  Encodings: dec, hex, base58, base62, crockford,
** base32, base64url, "b64sort:<64 ascending ASCII characters>", uuid,
** typeid (no prefix written, any read) and "typeid:<prefix>";
** none (nencodings 0, encodings NULL): dec, hex up to 64 bits, else hex.
** A time, node or sequence field of at most 64 bits may be split around
** other fields: each run is an entry of its name (the first has the kind
** and the rest; the others name and bits alone), its bits from the most
** significant down in layout order, or up with order "low first". */
typedef struct ids_fieldspec {
  const char *name;
  const char *kind;
  long long bits;
  const char *unit;           /* time: NULL means "ms" */
  int64_t epoch_ms;           /* time */
  uint64_t value;             /* constant */
  const char *order;          /* a split field: NULL or "high first", or
                                 "low first" (its runs up from the first) */
} ids_fieldspec;

typedef struct ids_defspec {
  const char *name;
  const ids_fieldspec *fields;          /* most significant first */
  int nfields;
  const char *const *encodings;         /* the first is the default */
  int nencodings;
  const char *default_encoding;         /* or NULL */
  long long bytes;                      /* 0: ceil(bits / 8) */
  const ids_about *about;               /* or NULL; copied */
} ids_defspec;

/* The keys of a spec, of a field spec and of its about, NULL-ended, as a
** binding reads them from a table or a document (idscheme.define, the
** PostgreSQL extension's idscheme_defined rows): the members above by
** those names ("epoch" is epoch_ms, "since" since_ms). */
IDS_API
extern const char *const ids_define_keys[];
IDS_API
extern const char *const ids_define_field_keys[];
IDS_API
extern const char *const ids_define_about_keys[];

/* Checks the spec, builds the scheme and registers it.  One error naming
** the field and the problem on a bad spec; IDS_EEXIST for a taken name. */
IDS_API
int ids_scheme_define (const ids_defspec *spec, const ids_scheme **out,
                ids_error *e);

/* --------------------------------------------------- layout helpers */

IDS_API
int ids_scheme_field (const ids_scheme *s, const char *name);
/* A field of at most 64 bits in v, one run or split (ids_field.nparts);
** set writes the low f->bits bits of x. */
IDS_API
uint64_t ids_field_get (const ids_field *f, const ids_value *v);
/* Its kind's name as define takes it: ids_kind_names[f->kind], or
** "instance", "counter" and "version" for a random field drawn once, a
** sequence that carries and a constant not required. */
IDS_API
const char *ids_field_kind (const ids_field *f);
/* Whether a generator's IDs increase as values: s has time, its time
** field's runs go from the most significant down (not UUIDv1's), and its
** sequence starts each tick at 0 (not ObjectId's counter, which wraps). */
IDS_API
int ids_scheme_ordered (const ids_scheme *s);
IDS_API
void ids_field_set (const ids_field *f, ids_value *v, uint64_t x);
/* Fields -> value; x[i] for field i.  IDS_ERANGE naming the field if one
** does not fit. */
IDS_API
int ids_scheme_compose (const ids_scheme *s, const uint64_t *x, ids_value *v,
                 ids_error *e);
IDS_API
void ids_scheme_decompose (const ids_scheme *s, const ids_value *v, uint64_t *x);
/* The Unix ms of v's time (ticks of s->unit since s->epoch_ms; KUID's
** three time fields): 1 with *ms set, or 0 if s has no time field or the
** time lies past int64 ms. */
IDS_API
int ids_scheme_time_ms (const ids_scheme *s, const ids_value *v,
                        int64_t *ms);
/* The same time to the scheme's finest unit: Unix seconds (floored, so
** before 1970 negative) and 0..999999999 ns past them; 1, or 0 as above.
** A UUIDv1's 100 ns ticks, a kuid96's microseconds are kept whole. */
IDS_API
int ids_scheme_time (const ids_scheme *s, const ids_value *v, int64_t *sec,
                     int32_t *nsec);

/* The least (upper 0) or the greatest (upper 1) value of s whose time is
** the tick holding the instant sec + nsec (Unix, nsec 0..999999999): the
** ends of "made between two instants" as a range of values (a database's
** `BETWEEN lo AND hi`), the constants written, every other field 0 or all
** ones.  A lower end before the epoch is the first tick, an upper end past
** the field the last; the other way round is IDS_ERANGE.  IDS_EINVAL for
** a scheme whose values do not sort by one time field (UUIDv1's low-first
** time, KUID's three fields, a node above the time, SIQ's own layout). */
IDS_API
int ids_scheme_bound (const ids_scheme *s, int64_t sec, int32_t nsec,
                      int upper, ids_value *v, ids_error *e);

/* ---------------------------------------------------------- codecs */

/* A codec made by name, for a scheme of `bits` bits in `bytes` bytes:
** dec, hex (fixed width), base58, base62 (fixed width), crockford (fixed
** width), base32 and base64url (RFC 4648, no padding), "b64sort:<64
** ascending ASCII characters>", uuid (128 bits in 16 bytes).  The codec
** (b->codec) and its tables live in b, which must outlive the scheme that
** uses it.  IDS_ENOENT for an unknown name, IDS_EINVAL for one that does
** not fit, with a message. */
typedef struct ids_codec_buf {
  ids_codec codec;
  uint64_t opaque_[96];
} ids_codec_buf;

IDS_API
int ids_codec_make (ids_codec_buf *b, const char *name, unsigned bits,
                    unsigned bytes, ids_error *e);

IDS_API
const ids_codec *ids_codec_find (const ids_scheme *s, const char *name,
                                 size_t len);
/* Encode with c (NULL: the default).  Returns the length. */
IDS_API
size_t ids_scheme_encode (const ids_scheme *s, const ids_codec *c,
                   const ids_value *v, char *out);
/* Trims ASCII white space, refuses blank text, then decodes with c (NULL:
** the scheme's detection or its default). */
IDS_API
int ids_scheme_decode (const ids_scheme *s, const ids_codec *c, const char *text,
                size_t n, ids_value *v, ids_error *e);
IDS_API
int ids_scheme_from_bytes (const ids_scheme *s, const uint8_t *b, size_t n,
                    ids_value *v, ids_error *e);

/* ------------------------------------------ fields and options by name */

/* The one way to set fields and options by name: the Lua binding and the
** command translate their own argument forms into these calls, and every
** rule (names, types, ranges, each once, a hashed field by value or by
** name but not both) is checked here.  Names and strings are taken with
** their lengths (a NUL is no terminator) and copied: callers need not keep
** them.  Both states are sized opaque storage. */
typedef struct ids_fields { uint64_t opaque_[20]; } ids_fields;

IDS_API
void ids_fields_init (ids_fields *f, const ids_scheme *s);
/* An integer: negative only for a whole 64-bit field (wrapped). */
IDS_API
int ids_fields_set_int (ids_fields *f, const char *name, size_t len,
                        int64_t x, ids_error *e);
IDS_API
int ids_fields_set_uint (ids_fields *f, const char *name, size_t len,
                         uint64_t x, ids_error *e);
/* Text: a qualifier's name, a string hashed into its field (the field's
** `from` key, such as domain_name), a decimal number, or the hex digits of
** a field over 64 bits. */
IDS_API
int ids_fields_set_text (ids_fields *f, const char *name, size_t len,
                         const char *t, size_t n, ids_error *e);
/* A string value (a binding's): a qualifier's name or a string hashed
** into its field; a number given as a string is refused. */
IDS_API
int ids_fields_set_string (ids_fields *f, const char *name, size_t len,
                           const char *t, size_t n, ids_error *e);
/* The big-endian bytes of a field over 64 bits. */
IDS_API
int ids_fields_set_bytes (ids_fields *f, const char *name, size_t len,
                          const uint8_t *b, size_t n, ids_error *e);
/* The value, once every field without a default is set. */
IDS_API
int ids_fields_compose (const ids_fields *f, ids_value *v, ids_error *e);

#define IDS_OPTBUF  512       /* bytes of string values an ids_options holds */

/* Generator options (the scheme's own, and every generator's: policy
** "hold" or "error", max_ahead_ms) or scheme parameters. */
struct ids_options { uint64_t opaque_[136]; };   /* typedef above */

IDS_API
void ids_options_init (ids_options *o, const ids_scheme *s);
IDS_API
void ids_params_init (ids_options *o, const ids_scheme *s);
IDS_API
int ids_options_set_int (ids_options *o, const char *name, size_t len,
                         int64_t x, ids_error *e);
/* The names o takes, i from 0 (the scheme's own first, then every
** generator's); NULL past the last. */
IDS_API
const char *ids_options_name (const ids_options *o, int i);
/* Text (the command's): a string option, or an integer one in decimal. */
IDS_API
int ids_options_set_text (ids_options *o, const char *name, size_t len,
                          const char *t, size_t n, ids_error *e);
/* A string value (a binding's): for string options only. */
IDS_API
int ids_options_set_string (ids_options *o, const char *name, size_t len,
                            const char *t, size_t n, ids_error *e);

/* ------------------------------------------------------- generator */

/* What a generator does when the clock goes back (option "policy"). */
typedef enum ids_policy { IDS_POLICY_HOLD, IDS_POLICY_ERROR } ids_policy;

/* A generator: sized opaque storage, so that a caller can embed one (as
** libsodium's hash states); only the calls below read or write it.  A
** scheme with a sequence keeps one atomic state word, so that threads may
** share a generator lock-free; one without (Flax, ULID) steps its random
** field under a short spin lock. */
struct ids_generator {
  uint64_t opaque_[40];
};

/* A generator of scheme s with options o (NULL: all defaults; made for s
** by ids_options_init) and clock (NULL: the wall clock). */
IDS_API
int ids_generator_init (ids_generator *g, const ids_scheme *s,
                        const ids_options *o, const ids_clock *clock,
                        ids_error *e);
/* The next ID: distinct from every other of this generator, and above
** the last one.  Thread-safe. */
IDS_API
int ids_generator_next (ids_generator *g, ids_value *v, ids_error *e);
/* The same with another qualifier (SIQ type) for this one ID. */
IDS_API
int ids_generator_next_as (ids_generator *g, int64_t qual, ids_value *v,
                           ids_error *e);
/* The next n IDs into v[0..n-1], as n calls of ids_generator_next would
** give them (distinct, increasing, never past a tick's sequence), with
** one clock read and one claim for as many as a tick has room for.
** Thread-safe.  On an error, v holds nothing of use; IDs skipped are
** never handed out. */
IDS_API
int ids_generator_next_n (ids_generator *g, ids_value *v, size_t n,
                          ids_error *e);
/* An ID whose time field holds `unix_ms` (ms since 1970, past or
** future), for backfills, tests and range keys.  Never one this generator
** made or makes: with a random part (ULID, UUIDv7, KSUID, Flax) it is
** fresh random bits beside that time, unique by the odds the format's own
** IDs have (the sequence, if any, starts the tick), and the generator's
** state is untouched; with a sequence alone (Snowflake, FLUID) a sequence
** of its own counts the IDs of each time given, times must not go back,
** must lie before the generator was made (on the wall clock: with an
** injected clock, none does), and its node must be given
** (one that no generator held at those times: a leased node's earlier
** holders may have used them).  IDS_EINVAL with why otherwise (no time
** field; Flux's monotonic mode; SIQ's and ObjectId's sequences);
** IDS_ERANGE for a time outside the field or a time's sequence spent. */
IDS_API
int ids_generator_next_at (ids_generator *g, int64_t unix_ms, ids_value *v,
                           ids_error *e);
IDS_API
const ids_scheme *ids_generator_scheme (const ids_generator *g);
/* The slot that fills the node fields no option gave (option "slots": a
** store, "local" by default, "none" to refuse): 1 with its number and its
** store's kind ("local", "redis", "etcd"), or 0 if it has none. */
IDS_API
int ids_generator_slot (const ids_generator *g, uint32_t *number,
                        const char **store);
/* Every wait of the library is bounded: a generator waits for its clock
** (a clock stepped back under "hold", a tick's sequence used up, a
** run-ahead past max_ahead_ms, a slot's handover floor, a lease renewal)
** at most its option max_wait_ms (default IDS_MAX_WAIT_MS, 0: never
** wait); a wait that would last longer fails at once with IDS_ETIME,
** saying what it waited for.  A wait also ends when the process's
** interrupt check says so: `check(ctx)` is called at least every 10 ms of
** a wait, on the waiting thread, and a nonzero answer ends the call with
** IDS_EINTR (PostgreSQL's backend hands in its pending cancel).  NULL
** removes the check.  Process-wide; set it before any generator waits. */
#define IDS_MAX_WAIT_MS  30000
IDS_API
void ids_wait_interrupt (int (*check) (void *ctx), void *ctx);

/* Releases the generator's slot; the generator makes no more IDs.  Every
** generator that may hold a slot is closed when done (at process exit the
** slots are released anyway).  Thread-safe against ids_generator_next on
** other threads: a next that races it returns its ID (made within the
** lease, and recorded as issued) or IDS_ELEASE "the generator is closed";
** the storage must of course outlive every call on it. */
IDS_API
void ids_generator_close (ids_generator *g);

/* A qualifier's value by name, or -1; its name by value, or NULL. */
IDS_API
int64_t ids_scheme_qualifier (const ids_scheme *s, const char *name,
                             size_t len);
IDS_API
const char *ids_scheme_qualifier_name (const ids_scheme *s, uint64_t value);

/* n bytes from this thread's ChaCha20 pool (libsodium-keyed, fork-safe). */
IDS_API
void ids_random (void *buf, size_t n);

/* Small helper for codecs and schemes: fill e, return code. */
IDS_API
int ids_fail (ids_error *e, int code, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;

#ifdef __cplusplus
}
#endif

#endif
