/*
** helpers.h: what the C tests share, as static inline functions so that
** each test stays one file and every CHECK here counts in that test's own
** t_passed / t_failed.  Include it after idscheme.h and test.h.
**
**   vectors   load, section, item, str, num, unhex, show, vhex
**   groups    texts grouped by why, each to be met once: group_find,
**             group_allseen
**   checked   decode, decodes, from_bytes, compose: a failure must carry
**             its own code and a message
**   options   setopt
**   clocks    fake (stepping, fake_stall) and frozen injected clocks,
**             siq_tick_ns
**   runs      run_ids, two_threads, first_dup, scaled, slowed
**   folders   scratch_dir: a folder of the test's own, gone at exit
*/
#ifndef IDS_TEST_HELPERS_H
#define IDS_TEST_HELPERS_H

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "idscheme.h"
#include "test.h"

#ifndef IDS_VECTORS
#define IDS_VECTORS "spec/vectors"
#endif

#define SENTINEL  0x5a5a5a5a5a5a5a5aull

/* ------------------------------------------------------------ vectors */

/* dir/file, parsed; exits 2 when it cannot be read or is not JSON. */
static inline cJSON *load (const char *dir, const char *file) {
  char path[1024];
  FILE *f;
  long n;
  char *text;
  cJSON *j;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  f = fopen(path, "rb");
  if (f == NULL) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  text = malloc((size_t)n + 1);
  if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: cannot read\n", path);
    exit(2);
  }
  text[n] = '\0';
  fclose(f);
  j = cJSON_Parse(text);
  free(text);
  if (j == NULL) { fprintf(stderr, "%s: bad JSON\n", path); exit(2); }
  return j;
}

static inline const cJSON *item (const cJSON *o, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static inline const char *str (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  return cJSON_IsString(x) ? x->valuestring : NULL;
}

/* A section (array or object) of a vector file; exits 2 without it. */
static inline const cJSON *section (const cJSON *j, const char *file,
                                    const char *key) {
  const cJSON *a = item(j, key);
  if (!cJSON_IsArray(a) && !cJSON_IsObject(a)) {
    fprintf(stderr, "%s: no \"%s\"\n", file, key);
    exit(2);
  }
  return a;
}

/* Vector integers: decimal strings below 2^64, or JSON numbers below 2^53
** (cJSON holds numbers as doubles: larger ones are written as strings, or
** as hex twins). */
static inline uint64_t num (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  if (cJSON_IsString(x)) return strtoull(x->valuestring, NULL, 10);
  if (cJSON_IsNumber(x) && x->valuedouble >= 0 &&
      x->valuedouble < 9007199254740992.0)
    return (uint64_t)x->valuedouble;
  fprintf(stderr, "vector without \"%s\" below 2^53\n", key);
  exit(2);
}

/* Hex digits to bytes; returns the count. */
static inline size_t unhex (const char *h, uint8_t *out, size_t cap) {
  size_t n = 0;
  for (; h[0] && h[1] && n < cap; h += 2) {
    char b[3] = {h[0], h[1], 0};
    out[n++] = (uint8_t)strtoul(b, NULL, 16);
  }
  return n;
}

/* Shows an input in a failure message: control bytes escaped, UTF-8 kept. */
static inline const char *show (const char *s, size_t n) {
  static char buf[4][256];
  static int k;
  char *q = buf[k++ & 3];
  size_t j = 0;
  for (size_t i = 0; i < n && j < 240; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x20 || ch == 0x7f) j += (size_t)sprintf(q + j, "\\x%02x", ch);
    else q[j++] = (char)ch;
  }
  q[j] = '\0';
  return q;
}

/* A value in hex (all 160 bits), for failure messages. */
static inline const char *vhex (const ids_value *v) {
  static char buf[4][64];
  static int k;
  char *q = buf[k++ & 3];
  snprintf(q, 64, "%08" PRIx64 "%016" PRIx64 "%016" PRIx64,
           v->w[2] & 0xffffffffu, v->w[1], v->w[0]);
  return q;
}

/* ------------------------------------------------------------- groups */

/* Texts that share one reason (and what they give, if the test needs
** it), each to be met exactly once in the vectors: a table of groups ends
** with one that has no text, and is written with `.text = {...}`. */
#define GROUP_MAX 5
typedef struct group {
  int64_t expect;                   /* what these texts give, if needed */
  const char *why;
  const char *text[GROUP_MAX];      /* up to GROUP_MAX, NULL after the last */
  int seen[GROUP_MAX];
} group;

/* The group of t that lists s[0..n), with s's place in it at *k; NULL if
** none does. */
static inline group *group_find (group *t, const char *s, size_t n,
                                 int *k) {
  for (; t->text[0]; t++)
    for (*k = 0; *k < GROUP_MAX && t->text[*k]; ++*k)
      if (strlen(t->text[*k]) == n && memcmp(t->text[*k], s, n) == 0)
        return t;
  return NULL;
}

/* Checks that each text of t was met once (group_find, then seen[k]++). */
static inline void group_allseen (const group *t, const char *table) {
  for (; t->text[0]; t++)
    for (int k = 0; k < GROUP_MAX && t->text[k]; k++)
      CHECKF(t->seen[k] == 1, "%s entry \"%s\" matched %d vectors", table,
             show(t->text[k], strlen(t->text[k])), t->seen[k]);
}

/* ------------------------------------------------------------ checked */

/* ids_scheme_decode with the checks every call deserves: a failure carries its
** own code and a message, and leaves *v alone.  c NULL: the default. */
static inline int decode (const ids_scheme *s, const ids_codec *c,
                          const char *t, size_t n, ids_value *v) {
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  v->w[0] = v->w[1] = v->w[2] = SENTINEL;
  r = ids_scheme_decode(s, c, t, n, v, &e);
  if (r < 0) {
    CHECKF(e.msg[0] != '\0', "%s: no message for \"%s\" (%s)", s->name,
           show(t, n), c ? c->name : "default");
    CHECKF(e.code == r, "%s \"%s\": e.code %d, returned %d", s->name,
           show(t, n), e.code, r);
  }
  return r;
}

/* decode of a whole string with the codec named `codec` (NULL: default). */
static inline int decodes (const ids_scheme *s, const char *codec,
                           const char *t, ids_value *v) {
  const ids_codec *c = codec ? ids_codec_find(s, codec, strlen(codec))
                             : NULL;
  if (codec && !CHECKF(c != NULL, "%s has no codec %s", s->name, codec))
    return IDS_ENOENT;
  return decode(s, c, t, strlen(t), v);
}

static inline int from_bytes (const ids_scheme *s, const uint8_t *b,
                              size_t n, ids_value *v) {
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  r = ids_scheme_from_bytes(s, b, n, v, &e);
  if (r < 0)
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s from_bytes(%zu): code %d,"
           " e.code %d, \"%s\"", s->name, n, r, e.code, e.msg);
  return r;
}

static inline int compose (const ids_scheme *s, const uint64_t *x,
                           ids_value *v) {
  ids_error e;
  int r;
  memset(&e, 0, sizeof e);
  r = ids_scheme_compose(s, x, v, &e);
  if (r < 0)
    CHECKF(e.msg[0] != '\0' && e.code == r, "%s compose: code %d, e.code "
           "%d, \"%s\"", s->name, r, e.code, e.msg);
  return r;
}

/* ------------------------------------------------------------ options */

/* Sets a generator option (indexed like s->genopts); exits 2 if s has no
** option of that name. */
static inline void setopt (const ids_scheme *s, ids_optval *o,
                           const char *name, int64_t x, const char *text) {
  for (int i = 0; i < s->ngenopts; i++)
    if (strcmp(s->genopts[i].name, name) == 0) {
      o[i].set = 1;
      o[i].i = x;
      o[i].s = text;
      o[i].len = text ? strlen(text) : 0;
      return;
    }
  fprintf(stderr, "%s has no generator option %s\n", s->name, name);
  exit(2);
}

/* Options given positionally (o indexed like the table, NULL: none) into
** the one named entry point: ranges and types are checked there, so a bad
** value fails here with the core's code and message. */
static inline int opts_named (ids_options *no, const ids_optdef *defs, int n,
                         const ids_optval *o, ids_error *e) {
  for (int i = 0; o && i < n; i++) {
    const char *k = defs[i].name;
    int r;
    if (!o[i].set) continue;
    r = defs[i].type == IDS_OPT_INT ?
        ids_options_set_int(no, k, strlen(k), o[i].i, e) :
        ids_options_set_text(no, k, strlen(k), o[i].s, o[i].len, e);
    if (r != IDS_OK) return r;
  }
  return IDS_OK;
}

/* Every integer node option of s that `given` (may be NULL) leaves unset,
** set from `node` (within its range): the generator claims no slot.  An
** injected clock's generator needs this: slots record their holders'
** limits in the holder's clock, and a test's clock that jumps would hand
** the next test a floor in its future. */
static inline int set_nodes (ids_options *no, const ids_scheme *s,
                             uint64_t node, const ids_optval *given,
                             ids_error *e) {
  for (int i = 0; i < s->ngenopts; i++) {
    const ids_optdef *d = &s->genopts[i];
    int f = ids_scheme_field(s, d->name), r;
    if (d->type != IDS_OPT_INT || f < 0 ||
        s->fields[f].kind != IDS_KIND_NODE || (given && given[i].set))
      continue;
    r = ids_options_set_int(no, d->name, strlen(d->name),
                            d->min + (int64_t)(node % (uint64_t)(d->max -
                                                          d->min + 1)), e);
    if (r != IDS_OK) return r;
  }
  return IDS_OK;
}

/* ids_generator_init with options as above, a policy, max_ahead_ms; on an
** injected clock, node options not given are set (set_nodes). */
static inline int gen_init_ahead (ids_generator *g, const ids_scheme *s,
                                  const ids_optval *o, ids_policy p,
                                  const ids_clock *c, int64_t ahead_ms,
                                  ids_error *e) {
  ids_options no;
  int r;
  ids_options_init(&no, s);
  if ((r = opts_named(&no, s->genopts, s->ngenopts, o, e)) != IDS_OK ||
      (c != NULL && (r = set_nodes(&no, s, 0, o, e)) != IDS_OK) ||
      (p == IDS_POLICY_ERROR &&
       (r = ids_options_set_text(&no, "policy", 6, "error", 5, e)) != IDS_OK) ||
      (ahead_ms != 0 &&
       (r = ids_options_set_int(&no, "max_ahead_ms", 12, ahead_ms, e)) !=
       IDS_OK))
    return r;
  return ids_generator_init(g, s, &no, c, e);
}

static inline int gen_init (ids_generator *g, const ids_scheme *s,
                            const ids_optval *o, ids_policy p,
                            const ids_clock *c, ids_error *e) {
  return gen_init_ahead(g, s, o, p, c, 0, e);
}

/* ids_scheme_open with parameters given positionally. */
static inline const ids_scheme *open_params (const ids_scheme *d,
                                             const ids_optval *p,
                                             ids_error *e) {
  ids_options no;
  ids_params_init(&no, d);
  if (opts_named(&no, d->params, d->nparams, p, e) != IDS_OK) return NULL;
  return ids_scheme_open(d, &no, e);
}

/* ------------------------------------------------------------- clocks */

/* An injected clock: reads `ns`; with stall > 0 it jumps to `then` once it
** has been read `stall` times (counting from reads = 0). */
typedef struct fake {
  int64_t ns, then;
  long reads, stall;
} fake;

static inline int64_t fake_now (void *ctx) {
  fake *f = ctx;
  f->reads++;
  if (f->stall > 0 && f->reads > f->stall) {
    f->ns = f->then;
    f->stall = 0;
  }
  return f->ns;
}

/* From now on f reads as it is `k` more times, then jumps to `then`. */
static inline void fake_stall (fake *f, long k, int64_t then) {
  f->reads = 0;
  f->stall = k;
  f->then = then;
}

/* A frozen injected clock: ctx is the int64_t it reads. */
static inline int64_t frozen_now (void *ctx) {
  return *(const int64_t *)ctx;
}

/* The first ns of SIQ tick t (a tick is 1/65536 s, ~15259 ns); -1 past
** what an int64_t holds. */
static inline int64_t siq_tick_ns (uint64_t t) {
  unsigned __int128 ns = ((unsigned __int128)t * 1000000000u + 65535) / 65536;
  return ns > INT64_MAX ? -1 : (int64_t)ns;
}

/* --------------------------------------------------------------- runs */

/* n scaled by $IDS_TEST_SCALE (default 1; the valgrind and ThreadSanitizer
** stages make the heavy tests lighter with it), at least `least`. */
static inline long scaled (long n, long least) {
  const char *v = getenv("IDS_TEST_SCALE");
  double k = v && *v ? atof(v) : 1, x = (double)n * k;
  return x < (double)least ? least : (long)x;
}

/* A watchdog's seconds times $IDS_TEST_SLOW (default 1; valgrind and
** ThreadSanitizer run the code many times slower). */
static inline unsigned slowed (unsigned seconds) {
  const char *v = getenv("IDS_TEST_SLOW");
  long k = v && *v ? atol(v) : 1;
  return seconds * (unsigned)(k > 1 ? k : 1);
}

/* What n IDs of one generator gave: the first and the last, the index of
** the first that failed (-1: none) with its code and error, and of the
** first that is not above the one before (-1: none). */
typedef struct run_stats {
  ids_value first, last;
  long err, bad;
  int code;
  ids_error e;
} run_stats;

/* n IDs from g (into out, when not NULL), stopping at a failure. */
static inline void run_ids (ids_generator *g, long n, ids_value *out,
                            run_stats *r) {
  ids_value v;
  memset(r, 0, sizeof *r);
  r->err = r->bad = -1;
  for (long i = 0; i < n; i++) {
    int c = ids_generator_next(g, &v, &r->e);
    if (c != IDS_OK) { r->err = i; r->code = c; break; }
    if (i == 0) r->first = v;
    else if (ids_value_cmp(&v, &r->last) <= 0 && r->bad < 0) r->bad = i;
    r->last = v;
    if (out) out[i] = v;
  }
}

static inline int cmpval (const void *a, const void *b) {
  return ids_value_cmp(a, b);
}

/* Sorts a[0..n-1]; the index of an ID that is there twice, or -1. */
static inline long first_dup (ids_value *a, size_t n) {
  qsort(a, n, sizeof *a, cmpval);
  for (size_t i = 1; i < n; i++)
    if (ids_value_cmp(&a[i], &a[i - 1]) == 0) return (long)i;
  return -1;
}

typedef struct worker {
  ids_generator *g;
  ids_value *out;
  long n;
  run_stats r;
} worker;

static inline void *worker_run (void *arg) {
  worker *w = arg;
  run_ids(w->g, w->n, w->out, &w->r);
  return NULL;
}

/* Two threads share g and take n IDs each into all (room for 2n): neither
** fails, each sees its IDs increase, and no ID comes out twice. */
static inline void two_threads (const char *name, ids_generator *g,
                                ids_value *all, long n) {
  worker w[2];
  pthread_t t[2];
  long dup;
  for (int k = 0; k < 2; k++) {
    w[k].g = g;
    w[k].out = all + k * n;
    w[k].n = n;
    CHECK(pthread_create(&t[k], NULL, worker_run, &w[k]) == 0);
  }
  for (int k = 0; k < 2; k++) {
    pthread_join(t[k], NULL);
    CHECKF(w[k].r.err < 0, "%s thread %d: ID %ld failed with %d", name, k,
           w[k].r.err, w[k].r.code);
    CHECKF(w[k].r.bad < 0, "%s thread %d: ID %ld is not above its previous "
           "one", name, k, w[k].r.bad);
  }
  if (w[0].r.err >= 0 || w[1].r.err >= 0) return;
  dup = first_dup(all, 2 * (size_t)n);
  CHECKF(dup < 0, "%s: duplicate ID %s from two threads", name,
         dup < 0 ? "" : vhex(&all[dup]));
}

/* ------------------------------------------------------------ folders */

/* path and all it holds (a slot directory: files, FIFOs, a folder or
** two); symbolic links are removed, never followed */
static inline void remove_tree (const char *path) {
  struct stat st;
  DIR *d;
  struct dirent *de;
  char sub[1024];
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode) && (d = opendir(path)) != NULL) {
    while ((de = readdir(d)) != NULL)
      if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
          (size_t)snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) < sizeof sub)
        remove_tree(sub);
    closedir(d);
  }
  remove(path);
}

/* the folders scratch_dir made, and the process that made them (a forked
** child that exits removes none) */
typedef struct scratch_dirs { pid_t pid; int n; char path[16][64]; } scratch_dirs;
static inline scratch_dirs *scratch_list (void) {
  static scratch_dirs d;
  return &d;
}

static inline void scratch_remove (void) {
  scratch_dirs *d = scratch_list();
  if (d->pid != getpid()) return;
  for (int i = 0; i < d->n; i++) remove_tree(d->path[i]);
}

/* mkdtemp(tmpl), a folder of the test's own (a local slot directory)
** that goes with all it holds when the test exits, passed or failed: NULL
** if it could not be made, or after 16 */
static inline char *scratch_dir (char *tmpl) {
  scratch_dirs *d = scratch_list();
  if (d->n == 16 || strlen(tmpl) >= sizeof d->path[0] || mkdtemp(tmpl) == NULL)
    return NULL;
  if (d->n == 0) {
    d->pid = getpid();
    atexit(scratch_remove);
  }
  strcpy(d->path[d->n++], tmpl);
  return tmpl;
}

#endif
