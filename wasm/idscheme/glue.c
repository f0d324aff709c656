/*
** glue.c: the library's C API (core/idscheme.h, inspect/inspect.h) as flat
** WebAssembly exports for the npm package idscheme (idscheme.js).
**
** Text crosses through one scratch buffer in linear memory (UTF-8), an
** ID's value through another (its big-endian bytes, the scheme's byte
** width), numbers as doubles or as 32-bit halves where 64 bits matter.
** Schemes, generators and inspectors are pointers.  A failed call returns
** a negative code, a NaN or 0 and leaves the library's message in the
** error buffer.
**
** What the library takes from the system comes from JavaScript instead:
** randomness (js_random: crypto.getRandomValues, the environment's
** CSPRNG, drawn 4 KB at a time into a pool here), the clocks (WASI's
** clock_time_get, given by idscheme.js), and SHA-256 for SIQ's domain
** names (sha256.c).  There is no slot store: a generator whose node
** fields are not all given is refused (ids_slot_claim below).
*/
#include <emscripten.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"
#include "inspect.h"
#include "slots.h"

#define SCRATCH 65536

static _Alignas(8) char scratch[SCRATCH + 8];
static _Alignas(8) uint8_t val[IDS_MAXBYTES + 4];  /* an ID's bytes */
static ids_error err;

EMSCRIPTEN_KEEPALIVE char *w_scratch (void) { return scratch; }
EMSCRIPTEN_KEEPALIVE uint8_t *w_val (void) { return val; }
EMSCRIPTEN_KEEPALIVE const char *w_error (void) { return err.msg; }
EMSCRIPTEN_KEEPALIVE int w_error_code (void) { return err.code; }
/* Nothing: the floor of a call into WebAssembly (bench/npm) */
EMSCRIPTEN_KEEPALIVE void w_nop (void) { }

/* ------------------------------------------------------------ entropy */

/* ids_random: the environment's CSPRNG (crypto.getRandomValues), read
** into a pool POOL bytes at a time (one call into JavaScript per 4 KB,
** not one per ID); each byte handed out is wiped, so the pool never holds
** what was given to anyone.  WebAssembly has one thread and no fork. */
__attribute__((import_module("env"), import_name("js_random")))
void js_random (void *buf, size_t n);

#define POOL 4096
static uint8_t pool[POOL];
static size_t left;           /* unread bytes at the end of pool */

void ids_random (void *out, size_t n) {
  uint8_t *o = out;
  while (n > 0) {
    size_t k;
    if (left == 0) {
      js_random(pool, POOL);
      left = POOL;
    }
    k = n < left ? n : left;
    memcpy(o, pool + POOL - left, k);
    memset(pool + POOL - left, 0, k);
    left -= k;
    o += k;
    n -= k;
  }
}

/* ---------------------------------------------------------------- slots */

/* No slot store here: a generator leases nothing.  The library claims a
** slot only for node fields that no option gave; this says which are
** needed (the namespace's meaning lists them with their widths). */
int ids_slot_claim (const char *url, const char *ns, unsigned bits,
                    const ids_slot_options *opt, ids_slot **out,
                    ids_error *e) {
  (void)url; (void)bits;
  *out = NULL;
  return ids_fail(e, IDS_EINVAL, "%s: node fields %s need values: give "
                  "each as a generator option (WebAssembly has no slot "
                  "store to lease them from)", ns,
                  opt && opt->meaning ? opt->meaning : "?");
}
/* Never called: no generator holds a slot.  Defined for the generator's
** lease paths, which the linker keeps. */
void ids_slot_release (ids_slot *s) { (void)s; }
int ids_slot_fail (const ids_slot *s, ids_error *e) {
  (void)s;
  return ids_fail(e, IDS_ELEASE, "no slot store in WebAssembly");
}
void ids_slot_state (const ids_slot *s, uint32_t *number, int64_t *floor_ns,
                     unsigned *gen) {
  (void)s;
  if (number) *number = 0;
  if (floor_ns) *floor_ns = 0;
  if (gen) *gen = 0;
}
uint32_t ids_slot_number (const ids_slot *s) { (void)s; return 0; }
const char *ids_slot_store (const ids_slot *s) { (void)s; return ""; }
const char *ids_slot_backend_name (const ids_slot *s) { (void)s; return ""; }
void ids_slot_stats_get (const ids_slot *s, ids_slot_stats *st) {
  (void)s;
  memset(st, 0, sizeof *st);
}
void ids_slot_caution (const ids_slot *s, char *buf, size_t n) {
  (void)s;
  if (n) buf[0] = '\0';
}
int ids_slot_log_pop (ids_slot *s, char *line, size_t n) {
  (void)s; (void)line; (void)n;
  return 0;
}
void ids__slot_settle (struct ids_slot *s, int64_t used_ns) {
  (void)s; (void)used_ns;
}

/* ---------------------------------------------------------- JSON out */

/* A JSON document written into the scratch: what idscheme.js reads once
** per scheme (its description) or once per module (the define keys). */
static size_t jlen;
static int jfull;

static void jraw (const char *t) {
  size_t n = strlen(t);
  if (jlen + n >= SCRATCH) { jfull = 1; return; }
  memcpy(scratch + jlen, t, n);
  jlen += n;
}
static void jstr (const char *t) {
  char u[8];
  jraw("\"");
  for (; *t; t++) {
    unsigned char c = (unsigned char)*t;
    if (c == '"' || c == '\\') { u[0] = '\\'; u[1] = (char)c; u[2] = 0; }
    else if (c < 0x20) snprintf(u, sizeof u, "\\u%04x", c);
    else { u[0] = (char)c; u[1] = 0; }
    jraw(u);
  }
  jraw("\"");
}
static void jint (long long x) {
  char b[24];
  snprintf(b, sizeof b, "%lld", x);
  jraw(b);
}
/* a 64-bit unsigned value as a JSON string of decimal digits (exact) */
static void ju64s (uint64_t x) {
  char b[24];
  snprintf(b, sizeof b, "\"%llu\"", (unsigned long long)x);
  jraw(b);
}
static void jkey (const char *k) {
  if (jlen && scratch[jlen - 1] != '{' && scratch[jlen - 1] != '[') jraw(",");
  jstr(k);
  jraw(":");
}
static void jsep (void) {
  if (jlen && scratch[jlen - 1] != '{' && scratch[jlen - 1] != '[') jraw(",");
}
static int jdone (void) {
  if (jfull)
    return ids_fail(&err, IDS_ENOMEM, "description past %d bytes", SCRATCH);
  return (int)jlen;
}

static void jopts (const ids_optdef *d, int n) {
  jraw("[");
  for (int i = 0; i < n; i++) {
    jsep();
    jraw("{");
    jkey("name"); jstr(d[i].name);
    jkey("type"); jstr(d[i].type == IDS_OPT_INT ? "integer" : "string");
    if (d[i].type == IDS_OPT_INT) {
      jkey("min"); ju64s((uint64_t)d[i].min);
      jkey("max"); ju64s((uint64_t)d[i].max);
      jkey("default"); ju64s((uint64_t)d[i].dflt);
    }
    jraw("}");
  }
  jraw("]");
}

/*
** Scheme s as JSON (its length; the text at the scratch): what
** schemes() and scheme(name) tell, all of it from the registry.  Integers
** that may pass 2^53 (a constant's value, an option's range) are decimal
** strings, read as BigInt where they must be.
*/
EMSCRIPTEN_KEEPALIVE int w_describe (const ids_scheme *s) {
  ids_options o;
  const char *nm;
  int timed = 0;
  jlen = 0; jfull = 0;
  jraw("{");
  jkey("name"); jstr(s->name);
  jkey("bits"); jint(s->bits);
  jkey("bytes"); jint(s->bytes);
  jkey("ordered"); jraw(ids_scheme_ordered(s) ? "true" : "false");
  jkey("encodings"); jraw("[");
  for (int i = 0; i < s->ncodecs; i++) { jsep(); jstr(s->codecs[i]->name); }
  jraw("]");
  for (int i = 0; i < s->nfields; i++) timed += s->fields[i].kind == IDS_KIND_TIME;
  jkey("fields"); jraw("[");
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    jsep();
    jraw("{");
    jkey("name"); jstr(f->name);
    jkey("kind"); jstr(ids_field_kind(f));
    jkey("bits"); jint(f->bits);
    jkey("shift"); jint(f->shift);
    jkey("parts"); jraw("[");
    if (f->nparts == 0) {               /* one run, at shift */
      jraw("{"); jkey("shift"); jint(f->shift); jkey("bits"); jint(f->bits); jraw("}");
    }
    for (int k = 0; k < f->nparts; k++) {
      jsep();
      jraw("{"); jkey("shift"); jint(f->part[k].shift);
      jkey("bits"); jint(f->part[k].bits); jraw("}");
    }
    jraw("]");
    if (f->kind == IDS_KIND_CONSTANT) { jkey("value"); ju64s(f->value); }
    if (f->kind == IDS_KIND_TIME && timed == 1) {   /* not KUID's three */
      char u[32];
      ids_unit_name(s->unit, u, sizeof u);
      jkey("unit"); jstr(u);
      jkey("epoch"); jint(s->epoch_ms);
    }
    if (f->variable) { jkey("variable"); jraw("true"); }
    if (f->from) { jkey("from"); jstr(f->from); }
    if (f->kind == IDS_KIND_QUALIFIER) {
      jkey("qualifiers"); jraw("[");
      for (int q = 0; q < s->nquals; q++) { jsep(); jstr(s->quals[q].name); }
      jraw("]");
      jkey("qualifierValues"); jraw("{");
      for (int q = 0; q < s->nquals; q++) { jkey(s->quals[q].name); ju64s(s->quals[q].value); }
      jraw("}");
    }
    jraw("}");
  }
  jraw("]");
  jkey("timed"); jint(timed);
  jkey("params"); jopts(s->params, s->nparams);
  ids_options_init(&o, s);
  jkey("options"); jopts(s->genopts, s->ngenopts);
  jkey("optionNames"); jraw("[");
  for (int i = 0; (nm = ids_options_name(&o, i)) != NULL; i++) { jsep(); jstr(nm); }
  jraw("]");
  if (s->about) {
    const ids_about *a = s->about;
    jkey("about"); jraw("{");
    if (a->title) { jkey("title"); jstr(a->title); }
    if (a->note) { jkey("note"); jstr(a->note); }
    if (a->since_ms) { jkey("since"); jint(a->since_ms); }
    jkey("aliases"); jraw("[");
    for (int i = 0; i < IDS_MAXALIASES && a->aliases[i]; i++) { jsep(); jstr(a->aliases[i]); }
    jraw("]");
    if (a->lengths[0]) {
      jkey("lengths"); jraw("[");
      jint(a->lengths[0]); jraw(","); jint(a->lengths[1]); jraw("]");
    }
    jraw("}");
  }
  jraw("}");
  return jdone();
}

/*
** Which field holds each bit of s's values, at the scratch (a byte per
** bit, bit 0 the least significant): the field's index, or 255 for none
** or several.  Found by decomposing each one-bit value, so that layouts
** of their own say it as well as the field table: kuid's microseconds are
** a 20-bit value stored in 10 bits (its low 10 are always 0).  Its count
** of bits; 0 for a layout with variable fields (SIQ's tail), whose bits
** change owner with the value.
*/
EMSCRIPTEN_KEEPALIVE int w_owners (const ids_scheme *s) {
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].variable) return 0;
  for (unsigned b = 0; b < s->bits; b++) {
    ids_value v = {{0, 0, 0}}, zero = {{0, 0, 0}};
    uint64_t x[IDS_MAXFIELDS], z[IDS_MAXFIELDS];
    int owner = -1;
    ids_value_set(&v, b, 1, 1);
    ids_scheme_decompose(s, &v, x);
    ids_scheme_decompose(s, &zero, z);
    for (int i = 0; i < s->nfields; i++) {
      int differs;
      if (s->fields[i].bits > 64) {
        uint8_t a[IDS_MAXBYTES], c[IDS_MAXBYTES];
        ids_value_getbytes(&v, s->fields[i].shift, s->fields[i].bits, a);
        ids_value_getbytes(&zero, s->fields[i].shift, s->fields[i].bits, c);
        differs = memcmp(a, c, (s->fields[i].bits + 7u) / 8) != 0;
      }
      else differs = x[i] != z[i];
      if (differs) owner = owner == -1 ? i : 255;
    }
    scratch[b] = (char)(owner < 0 ? 255 : owner);
  }
  return s->bits;
}

/* The keys define takes, and the kinds, as JSON: idscheme.js refuses any
** other key by name from these lists (the core's, never a copy). */
static void jlist (const char *const *k) {
  jraw("[");
  for (; *k; k++) { jsep(); jstr(*k); }
  jraw("]");
}
EMSCRIPTEN_KEEPALIVE int w_define_keys (void) {
  jlen = 0; jfull = 0;
  jraw("{");
  jkey("spec"); jlist(ids_define_keys);
  jkey("field"); jlist(ids_define_field_keys);
  jkey("about"); jlist(ids_define_about_keys);
  jkey("kinds"); jraw("[");
  for (int i = 0; ids_kind_names[i] && i <= IDS_KIND_QUALIFIER; i++) { jsep(); jstr(ids_kind_names[i]); }
  jraw("]");
  jkey("version"); jstr(ids_version());
  jkey("maxfields"); jint(IDS_MAXFIELDS);
  jkey("maxcodecs"); jint(IDS_MAXCODECS);
  jkey("maxaliases"); jint(IDS_MAXALIASES);
  jkey("textmax"); jint(IDS_TEXTMAX);
  jraw("}");
  return jdone();
}

/* ------------------------------------------------------------ registry */

EMSCRIPTEN_KEEPALIVE int w_init (void) {
  int r = ids_init();
  if (r != IDS_OK) ids_fail(&err, r, "ids_init failed");
  return r;
}

/* Every scheme's name, NUL-separated at the scratch: their count. */
EMSCRIPTEN_KEEPALIVE int w_list (void) {
  size_t n = ids_scheme_list(NULL, 0), k = 0;
  const char **names = malloc((n ? n : 1) * sizeof *names);
  if (names == NULL) return ids_fail(&err, IDS_ENOMEM, "out of memory");
  ids_scheme_list(names, n);
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(names[i]) + 1;
    if (k + len > SCRATCH) break;
    memcpy(scratch + k, names[i], len);
    k += len;
  }
  free(names);
  return (int)n;
}

/* The scheme descriptor named by the scratch's n bytes, or one alias
** answers to (ids_scheme_answering): NULL for none, or for an alias that
** several answer to ("uuid"), with the error saying which.  Its name is
** copied so that a NUL in it names nothing. */
EMSCRIPTEN_KEEPALIVE const ids_scheme *w_find (int n) {
  char name[IDS_NAMEMAX + 1];
  const ids_scheme *many[3];
  size_t k;
  if (n <= 0 || n > IDS_NAMEMAX || memchr(scratch, 0, (size_t)n)) k = 0;
  else {
    memcpy(name, scratch, (size_t)n);
    name[n] = '\0';
    k = ids_scheme_answering(name, many, 3);
  }
  if (k == 1) return many[0];
  if (k > 1) {
    ids_fail(&err, IDS_ENOENT, "'%s' names several schemes (%s, %s%s): name "
             "one", name, many[0]->name, many[1]->name, k > 2 ? ", ..." : "");
    return NULL;
  }
  ids_fail(&err, IDS_ENOENT, "unknown scheme");   /* idscheme.js quotes it */
  return NULL;
}

/* Options and parameters by name: begin, set each, then use.  The names
** and string values are at the scratch (name, then value). */
static ids_options opts;
EMSCRIPTEN_KEEPALIVE void w_opts_begin (const ids_scheme *s, int params) {
  if (params) ids_params_init(&opts, s);
  else ids_options_init(&opts, s);
}
EMSCRIPTEN_KEEPALIVE int w_opts_int (int klen, uint32_t lo, int32_t hi) {
  int64_t x = (int64_t)((uint64_t)(uint32_t)hi << 32 | lo);
  return ids_options_set_int(&opts, scratch, (size_t)klen, x, &err);
}
EMSCRIPTEN_KEEPALIVE int w_opts_str (int klen, int vlen) {
  return ids_options_set_string(&opts, scratch, (size_t)klen,
                                scratch + klen, (size_t)vlen, &err);
}
/* descriptor d with the parameters set: the scheme (always the same
** pointer for the same effective parameters), or NULL */
EMSCRIPTEN_KEEPALIVE const ids_scheme *w_open (const ids_scheme *d) {
  return ids_scheme_open(d, &opts, &err);
}
EMSCRIPTEN_KEEPALIVE const ids_scheme *w_open_default (const ids_scheme *d) {
  return ids_scheme_open(d, NULL, &err);
}

/* The index of the codec named by the scratch's n bytes, or -1. */
EMSCRIPTEN_KEEPALIVE int w_codec (const ids_scheme *s, int n) {
  const ids_codec *c = ids_codec_find(s, scratch, (size_t)n);
  for (int i = 0; c && i < s->ncodecs; i++)
    if (s->codecs[i] == c) return i;
  return -1;
}
static const ids_codec *codec (const ids_scheme *s, int ci) {
  return ci >= 0 && ci < s->ncodecs ? s->codecs[ci] : NULL;
}

/* --------------------------------------------------------------- values */

static void putval (const ids_scheme *s, const ids_value *v) {
  ids_value_to_bytes(v, val, s->bytes);
}
static void getval (const ids_scheme *s, ids_value *v) {
  ids_value_from_bytes(v, val, s->bytes);
}

/* The scratch's n bytes decoded in codec ci (-1: the scheme's detection
** or default) into the value buffer: 0 or the error's code. */
EMSCRIPTEN_KEEPALIVE int w_decode (const ids_scheme *s, int ci, int n) {
  ids_value v;
  int r = ids_scheme_decode(s, codec(s, ci), scratch, (size_t)n, &v, &err);
  if (r == IDS_OK) putval(s, &v);
  return r;
}

/* The value buffer's bytes (n of them) as an ID of s: 0 or the code. */
EMSCRIPTEN_KEEPALIVE int w_from_bytes (const ids_scheme *s, int n) {
  ids_value v;
  uint8_t b[IDS_MAXBYTES];
  int r;
  if (n < 0 || n > IDS_MAXBYTES) n = IDS_MAXBYTES + 1;
  else memcpy(b, val, (size_t)n);
  r = ids_scheme_from_bytes(s, b, (size_t)n, &v, &err);
  if (r == IDS_OK) putval(s, &v);
  return r;
}

/* Text written at the scratch, n bytes, as its length for idscheme.js:
** with NONASCII set where a byte is not ASCII (FLUID's ƒ, emoji), so that
** the JavaScript side reads plain ASCII the quick way and the rest as
** UTF-8. */
#define NONASCII (1 << 20)
static int out (size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)scratch[i] >= 0x80) return (int)n | NONASCII;
  return (int)n;
}

/* The value buffer's ID as text in codec ci at the scratch: its length
** (out's). */
EMSCRIPTEN_KEEPALIVE int w_encode (const ids_scheme *s, int ci) {
  ids_value v;
  getval(s, &v);
  return out(ids_scheme_encode(s, codec(s, ci), &v, scratch));
}

/* Time: the Unix ms of the value buffer's ID (floored), and the ns past
** that ms in tns; NaN for none (no time field, another version, past
** int64 ms): err.code 0 then. */
static int32_t tns;
EMSCRIPTEN_KEEPALIVE int32_t w_time_ns (void) { return tns; }
static double timeof (const ids_scheme *s, const ids_value *v) {
  int64_t sec;
  int32_t nsec;
  err.code = 0;
  if (!ids_scheme_time(s, v, &sec, &nsec) || sec > INT64_MAX / 1000 - 1 ||
      sec < INT64_MIN / 1000 + 1)
    return NAN;
  tns = nsec % 1000000;
  return (double)(sec * 1000 + nsec / 1000000);
}
EMSCRIPTEN_KEEPALIVE double w_time (const ids_scheme *s) {
  ids_value v;
  getval(s, &v);
  return timeof(s, &v);
}
/* The same of the scratch's n bytes decoded in codec ci: NaN with the
** error's code for text that does not decode. */
EMSCRIPTEN_KEEPALIVE double w_decode_time (const ids_scheme *s, int ci, int n) {
  ids_value v;
  if (ids_scheme_decode(s, codec(s, ci), scratch, (size_t)n, &v, &err) != IDS_OK)
    return NAN;
  return timeof(s, &v);
}

/* The fields of the value buffer's ID at the scratch: field i's value as
** two 32-bit words at 8 i (low first), a field over 64 bits as its
** ceil(bits / 8) big-endian bytes at FIELDBYTES + 24 i.  Their count. */
#define FIELDBYTES (8 * IDS_MAXFIELDS)
static int putfields (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  uint32_t *w = (uint32_t *)(void *)scratch;
  ids_scheme_decompose(s, v, x);
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    w[2 * i] = (uint32_t)x[i];
    w[2 * i + 1] = (uint32_t)(x[i] >> 32);
    if (f->bits > 64)
      ids_value_getbytes(v, f->shift, f->bits,
                         (uint8_t *)scratch + FIELDBYTES + 24 * i);
  }
  return s->nfields;
}
EMSCRIPTEN_KEEPALIVE int w_fields (const ids_scheme *s) {
  ids_value v;
  getval(s, &v);
  return putfields(s, &v);
}
/* A qualifier's name by value, or NULL */
EMSCRIPTEN_KEEPALIVE const char *w_qualifier_name (const ids_scheme *s,
                                                   uint32_t lo, uint32_t hi) {
  return ids_scheme_qualifier_name(s, (uint64_t)hi << 32 | lo);
}
/* A qualifier's value by the scratch's n bytes of name, or -1 */
EMSCRIPTEN_KEEPALIVE double w_qualifier (const ids_scheme *s, int n) {
  return (double)ids_scheme_qualifier(s, scratch, (size_t)n);
}

/* Compose by name: begin, one call per field (its name at the scratch,
** klen bytes; a string or bytes value after it), then compose into the
** value buffer. */
static ids_fields flds;
EMSCRIPTEN_KEEPALIVE void w_fields_begin (const ids_scheme *s) {
  ids_fields_init(&flds, s);
}
EMSCRIPTEN_KEEPALIVE int w_fields_uint (int klen, uint32_t lo, uint32_t hi) {
  return ids_fields_set_uint(&flds, scratch, (size_t)klen,
                             (uint64_t)hi << 32 | lo, &err);
}
EMSCRIPTEN_KEEPALIVE int w_fields_int (int klen, uint32_t lo, int32_t hi) {
  return ids_fields_set_int(&flds, scratch, (size_t)klen,
                            (int64_t)((uint64_t)(uint32_t)hi << 32 | lo), &err);
}
EMSCRIPTEN_KEEPALIVE int w_fields_string (int klen, int vlen) {
  return ids_fields_set_string(&flds, scratch, (size_t)klen, scratch + klen,
                               (size_t)vlen, &err);
}
EMSCRIPTEN_KEEPALIVE int w_fields_bytes (int klen, int n) {
  return ids_fields_set_bytes(&flds, scratch, (size_t)klen,
                              (const uint8_t *)scratch + klen, (size_t)n, &err);
}
EMSCRIPTEN_KEEPALIVE int w_compose (const ids_scheme *s) {
  ids_value v;
  int r = ids_fields_compose(&flds, &v, &err);
  if (r == IDS_OK) putval(s, &v);
  return r;
}

/* ----------------------------------------------------------- generators */

/* A generator of s with the options set since w_opts_begin(s, 0): its
** storage (malloc'd, 8-aligned), or NULL. */
EMSCRIPTEN_KEEPALIVE ids_generator *w_gen_new (const ids_scheme *s) {
  ids_generator *g = malloc(sizeof *g);
  if (g == NULL) {
    ids_fail(&err, IDS_ENOMEM, "out of memory");
    return NULL;
  }
  if (ids_generator_init(g, s, &opts, NULL, &err) != IDS_OK) {
    free(g);
    return NULL;
  }
  return g;
}
EMSCRIPTEN_KEEPALIVE void w_gen_free (ids_generator *g) {
  ids_generator_close(g);
  free(g);
}
/* The next ID as text in codec ci at the scratch: its length (out's), or
** the error's (negative) code. */
EMSCRIPTEN_KEEPALIVE int w_gen_next (ids_generator *g, int ci) {
  const ids_scheme *s = ids_generator_scheme(g);
  ids_value v;
  int r = ids_generator_next(g, &v, &err);
  return r == IDS_OK ? out(ids_scheme_encode(s, codec(s, ci), &v, scratch)) : r;
}
/* The next n IDs' texts in codec ci, one after another at the scratch,
** each ended by a NUL: 0 or the code.  n at most 256 (the scratch). */
EMSCRIPTEN_KEEPALIVE int w_gen_next_n (ids_generator *g, int ci, int n) {
  const ids_scheme *s = ids_generator_scheme(g);
  static ids_value vs[256];
  size_t k = 0;
  int r;
  if (n < 1 || n > 256) return ids_fail(&err, IDS_ERANGE, "n %d is not 1..256", n);
  if ((r = ids_generator_next_n(g, vs, (size_t)n, &err)) != IDS_OK) return r;
  for (int i = 0; i < n; i++) {
    k += ids_scheme_encode(s, codec(s, ci), &vs[i], scratch + k);
    scratch[k++] = '\0';
  }
  return (int)k;
}
/* The next ID into the value buffer (another qualifier for this one ID:
** q >= 0): 0 or the code. */
EMSCRIPTEN_KEEPALIVE int w_gen_next_value (ids_generator *g, double q) {
  ids_value v;
  int r = ids_generator_next_as(g, (int64_t)q, &v, &err);
  if (r == IDS_OK) putval(ids_generator_scheme(g), &v);
  return r;
}
/* An ID whose time is unix_ms (ids_generator_next_at) into the value
** buffer: 0 or the code. */
EMSCRIPTEN_KEEPALIVE int w_gen_next_at (ids_generator *g, double unix_ms) {
  ids_value v;
  int r;
  if (!(unix_ms >= -9.2e18 && unix_ms <= 9.2e18) || unix_ms != floor(unix_ms))
    return ids_fail(&err, IDS_EINVAL, "%s: time %.17g is not an integer of ms",
                    ids_generator_scheme(g)->name, unix_ms);
  r = ids_generator_next_at(g, (int64_t)unix_ms, &v, &err);
  if (r == IDS_OK) putval(ids_generator_scheme(g), &v);
  return r;
}

/* --------------------------------------------------------------- define */

/* A spec built by calls: w_def_begin, then its strings and integers by
** key (the JavaScript object's, which idscheme.js read once each), then
** w_def_end.  Strings live in an arena until the next begin (the core
** copies what it keeps). */
#define ARENA 8192
static char arena[ARENA];
static size_t arenan;
static ids_fieldspec dfields[IDS_MAXFIELDS];
static const char *dencs[IDS_MAXCODECS];
static ids_defspec dspec;
static ids_about dabout;
static int dhasabout;

EMSCRIPTEN_KEEPALIVE void w_def_begin (void) {
  arenan = 0;
  memset(dfields, 0, sizeof dfields);
  memset(&dspec, 0, sizeof dspec);
  memset(&dabout, 0, sizeof dabout);
  dhasabout = 0;
}
/* the scratch's n bytes from offset at, NUL-ended, in the arena */
static const char *keep (int at, int n) {
  char *p;
  if (n < 0 || arenan + (size_t)n + 1 > ARENA) {
    ids_fail(&err, IDS_ERANGE, "define: the spec's strings pass %d bytes", ARENA);
    return NULL;
  }
  p = arena + arenan;
  memcpy(p, scratch + at, (size_t)n);
  p[n] = '\0';
  arenan += (size_t)n + 1;
  return p;
}
static int keyis (int klen, const char *k) {
  return strlen(k) == (size_t)klen && memcmp(scratch, k, (size_t)klen) == 0;
}
/* A string: field f's (f >= 0), the spec's (-1) or its about's (-2); key
** at the scratch (klen bytes), value after it (vlen).  1, or 0 for a key
** that takes no string here (idscheme.js says which). */
EMSCRIPTEN_KEEPALIVE int w_def_str (int f, int klen, int vlen) {
  const char *v = keep(klen, vlen), **to = NULL;
  if (v == NULL) return -1;
  if (f >= 0 && f < IDS_MAXFIELDS) {
    ids_fieldspec *x = &dfields[f];
    if (keyis(klen, "name")) to = &x->name;
    else if (keyis(klen, "kind")) to = &x->kind;
    else if (keyis(klen, "unit")) to = &x->unit;
    else if (keyis(klen, "order")) to = &x->order;
  }
  else if (f == -1) {
    if (keyis(klen, "name")) to = &dspec.name;
    else if (keyis(klen, "default_encoding")) to = &dspec.default_encoding;
  }
  else if (f == -2) {
    dhasabout = 1;
    if (keyis(klen, "title")) to = &dabout.title;
    else if (keyis(klen, "note")) to = &dabout.note;
  }
  if (to == NULL) return 0;
  *to = v;
  return 1;
}
/* An integer (64 bits in two halves) by key, as w_def_str. */
EMSCRIPTEN_KEEPALIVE int w_def_int (int f, int klen, uint32_t lo, int32_t hi) {
  uint64_t x = (uint64_t)(uint32_t)hi << 32 | lo;
  if (f >= 0 && f < IDS_MAXFIELDS) {
    ids_fieldspec *d = &dfields[f];
    if (keyis(klen, "bits")) d->bits = (long long)x;
    else if (keyis(klen, "epoch")) d->epoch_ms = (int64_t)x;
    else if (keyis(klen, "value")) d->value = x;
    else return 0;
  }
  else if (f == -1 && keyis(klen, "bytes")) dspec.bytes = (long long)x;
  else if (f == -2 && keyis(klen, "since")) { dhasabout = 1; dabout.since_ms = (int64_t)x; }
  else return 0;
  return 1;
}
/* encodings[i], the scratch's n bytes */
EMSCRIPTEN_KEEPALIVE int w_def_encoding (int i, int n) {
  if (i < 0 || i >= IDS_MAXCODECS || (dencs[i] = keep(0, n)) == NULL) return -1;
  dspec.encodings = dencs;
  if (i + 1 > dspec.nencodings) dspec.nencodings = i + 1;
  return 0;
}
EMSCRIPTEN_KEEPALIVE int w_def_alias (int i, int n) {
  dhasabout = 1;
  if (i < 0 || i >= IDS_MAXALIASES || (dabout.aliases[i] = keep(0, n)) == NULL)
    return -1;
  return 0;
}
EMSCRIPTEN_KEEPALIVE void w_def_lengths (int lo, int hi) {
  dhasabout = 1;
  dabout.lengths[0] = (uint8_t)lo;
  dabout.lengths[1] = (uint8_t)hi;
}
EMSCRIPTEN_KEEPALIVE const ids_scheme *w_def_end (int nfields) {
  const ids_scheme *s;
  dspec.fields = dfields;
  dspec.nfields = nfields;
  if (dhasabout) dspec.about = &dabout;
  return ids_scheme_define(&dspec, &s, &err) == IDS_OK ? s : NULL;
}

/* -------------------------------------------------------------- inspect */

/* An inspector of every registered scheme (NULL), or of one. */
EMSCRIPTEN_KEEPALIVE ids_inspector *w_inspector_new (const ids_scheme *s) {
  return ids_inspector_new(s ? &s : NULL, s ? 1 : 0, &err);
}
EMSCRIPTEN_KEEPALIVE void w_inspector_free (ids_inspector *ins) {
  ids_inspector_free(ins);
}
/* IDS_OK if a scheme of ins has the encoding named by the scratch's n
** bytes from offset at */
EMSCRIPTEN_KEEPALIVE int w_inspector_encoding (ids_inspector *ins, int at,
                                               int n) {
  return ids_inspector_encoding(ins, scratch + at, (size_t)n, &err);
}

/*
** The readings of the scratch's n bytes (an encoding's name after them,
** enclen bytes, or none), best first: their count, or 0 with the error
** saying why.  Each reading is a record of REC bytes at w_recs():
**    0 scheme (u32)        4 codec index (i32)     8 time_ms (f64, NaN: none)
**   16 evidence (f64)     24 marks (f64)          32 rank (f64)
**   40 flags (u32)        44 constbits (i32)      48 length (i32)
**   52 note (char *)      56 the value's bytes (IDS_MAXBYTES)
** flags: 1 marked, 2 plausible, 4 confirmed, 8 unique, 16 ambiguous,
** 32 refused, 64 weak.  w_why(i) gives reading i's words.
*/
#define REC 80
static ids_candidate cands[IDS_INSPECT_MAX];
static _Alignas(8) char recs[REC * IDS_INSPECT_MAX];
static int ncands;

EMSCRIPTEN_KEEPALIVE char *w_recs (void) { return recs; }

/* A reading's flags, as its record holds them. */
static uint32_t flagsof (const ids_candidate *c) {
  return (c->marked ? 1u : 0) | (c->plausible ? 2u : 0) |
         (c->confirmed ? 4u : 0) | (c->unique ? 8u : 0) |
         (c->ambiguous ? 16u : 0) | (c->refused ? 32u : 0) |
         (c->weak ? 64u : 0);
}

EMSCRIPTEN_KEEPALIVE int w_inspect (const ids_inspector *ins, int n,
                                    int enclen, double now_ms) {
  ncands = ids_inspect(ins, scratch, (size_t)n, enclen ? scratch + n : NULL,
                       (size_t)enclen, (int64_t)now_ms, cands,
                       IDS_INSPECT_MAX, &err);
  for (int i = 0; i < ncands; i++) {
    const ids_candidate *c = &cands[i];
    char *r = recs + REC * i;
    uint32_t u;
    int32_t k;
    double d;
    u = (uint32_t)(uintptr_t)c->scheme; memcpy(r, &u, 4);
    k = -1;
    for (int j = 0; j < c->scheme->ncodecs; j++)
      if (c->scheme->codecs[j] == c->codec) k = j;
    memcpy(r + 4, &k, 4);
    d = c->has_time ? (double)c->time_ms : NAN; memcpy(r + 8, &d, 8);
    memcpy(r + 16, &c->evidence, 8);
    memcpy(r + 24, &c->marks, 8);
    memcpy(r + 32, &c->rank, 8);
    u = flagsof(c); memcpy(r + 40, &u, 4);
    k = c->constbits; memcpy(r + 44, &k, 4);
    k = c->length; memcpy(r + 48, &k, 4);
    u = (uint32_t)(uintptr_t)c->note; memcpy(r + 52, &u, 4);
    ids_value_to_bytes(&c->value, (uint8_t *)r + 56, c->scheme->bytes);
  }
  return ncands;
}

/* The flags of the best reading of the scratch's n bytes, as w_inspect
** writes them in its first record, or -1 where none decodes it; no
** record written (idscheme.js's verdict(): the cost of inspect() past
** the engine's is in its records and readings). */
EMSCRIPTEN_KEEPALIVE int w_best_flags (const ids_inspector *ins, int n,
                                       int enclen, double now_ms) {
  ids_candidate c;
  if (ids_inspect(ins, scratch, (size_t)n, enclen ? scratch + n : NULL,
                  (size_t)enclen, (int64_t)now_ms, &c, 1, &err) == 0)
    return -1;
  return (int)flagsof(&c);
}

/* Why reading i of the last inspect is refused or flagged, at the
** scratch: its length ("" when it stands sure). */
EMSCRIPTEN_KEEPALIVE int w_why (int i) {
  int n;
  if (i < 0 || i >= ncands) return 0;
  n = ids_inspect_why(&cands[i], scratch, SCRATCH);
  return out(n < 0 ? 0 : n >= SCRATCH ? SCRATCH - 1 : (size_t)n);
}

/* The same words for a reading of these flags (1 refused, 2 weak), note
** and evidence: all that ids_inspect_why reads, so that idscheme.js asks
** for them only when a reading's why is read, from its record. */
EMSCRIPTEN_KEEPALIVE int w_why_of (int flags, const char *note,
                                   double evidence) {
  ids_candidate c;
  int n;
  memset(&c, 0, sizeof c);
  c.refused = flags & 1;
  c.weak = (flags & 2) != 0;
  c.note = note;
  c.evidence = evidence;
  n = ids_inspect_why(&c, scratch, SCRATCH);
  return out(n < 0 ? 0 : n >= SCRATCH ? SCRATCH - 1 : (size_t)n);
}

/* Reading i's fields at the scratch, as w_fields writes them. */
EMSCRIPTEN_KEEPALIVE int w_cand_fields (int i) {
  if (i < 0 || i >= ncands) return 0;
  return putfields(cands[i].scheme, &cands[i].value);
}
/* Reading i's value into the value buffer. */
EMSCRIPTEN_KEEPALIVE void w_cand_value (int i) {
  if (i >= 0 && i < ncands) putval(cands[i].scheme, &cands[i].value);
}
