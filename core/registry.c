/*
** registry.c: schemes by name, and schemes with parameters applied.
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const ids_scheme **schemes;      /* sorted by name; grows */
static size_t nschemes, capschemes;

/* Index of `name` in schemes, or where it would go (*found = 0).  Call
** with the lock held. */
static size_t search (const char *name, int *found) {
  size_t lo = 0, hi = nschemes;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(name, schemes[mid]->name);
    if (c == 0) { *found = 1; return mid; }
    if (c < 0) hi = mid; else lo = mid + 1;
  }
  *found = 0;
  return lo;
}

/* The name of a message: the scheme's, or "?" when it has none. */
#define SNAME(s)  ((s)->name ? (s)->name : "?")

/* Run k of field f (one for a field in one piece). */
static void run (const ids_field *f, int k, unsigned *shift, unsigned *bits) {
  *shift = f->nparts ? f->part[k].shift : f->shift;
  *bits = f->nparts ? f->part[k].bits : f->bits;
}

/* A split field's runs add up to it, and it is one that ids_field_get
** reads (64 bits at most). */
static int parts_whole (const ids_scheme *s, const ids_field *f,
                        ids_error *e) {
  unsigned sum = 0;
  if (f->nparts == 0) return IDS_OK;
  if (f->nparts < 2 || f->nparts > IDS_MAXPARTS || f->bits > 64)
    return ids_fail(e, IDS_EINVAL, "scheme '%s', field '%s': split in %u "
                    "parts of %u bits (2..%d parts, at most 64 bits)",
                    SNAME(s), f->name, f->nparts, f->bits, IDS_MAXPARTS);
  for (int k = 0; k < f->nparts; k++) {
    if (f->part[k].bits == 0) sum = 255;
    sum += f->part[k].bits;
  }
  if (sum != f->bits)
    return ids_fail(e, IDS_EINVAL, "scheme '%s', field '%s': its parts hold "
                    "%u of its %u bits", SNAME(s), f->name, sum, f->bits);
  return IDS_OK;
}

/* Whether fields f and g share a bit. */
static int overlap (const ids_field *f, const ids_field *g) {
  for (int a = 0; a < (f->nparts ? f->nparts : 1); a++)
    for (int b = 0; b < (g->nparts ? g->nparts : 1); b++) {
      unsigned fs, fb, gs, gb;
      run(f, a, &fs, &fb);
      run(g, b, &gs, &gb);
      if (fs < gs + gb && gs < fs + fb) return 1;
    }
  return 0;
}

/* Each field is named once and lies within the value.  Where the generic
** shift-and-mask places the fields (no compose), they tile the value: no
** two share a bit and no bit is left to none, so that every value of the
** width is some fields and back.  A compose places them itself (KUID's
** seconds split around the node, SIQ's variable tail), so there a field's
** shift and bits only bound it within the value. */
static int fields_fit (const ids_scheme *s, ids_error *e) {
  int generic = s->layout == NULL || s->layout->compose == NULL, r;
  unsigned total = 0;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->name == NULL)
      return ids_fail(e, IDS_EINVAL, "scheme '%s': field %d has no name",
                      SNAME(s), i + 1);
    if ((unsigned)f->kind > IDS_KIND_QUALIFIER)
      return ids_fail(e, IDS_EINVAL, "scheme '%s', field '%s': no kind %d",
                      SNAME(s), f->name, (int)f->kind);
    if ((r = parts_whole(s, f, e)) != IDS_OK) return r;
    for (int k = 0; k < (f->nparts ? f->nparts : 1); k++) {
      unsigned sh, b;
      run(f, k, &sh, &b);
      if (b == 0 || sh + b > s->bits)
        return ids_fail(e, IDS_EINVAL, "scheme '%s', field '%s': bits %u at "
                        "shift %u do not lie within the %u-bit value",
                        SNAME(s), f->name, b, sh, s->bits);
    }
    for (int j = 0; j < i; j++) {
      const ids_field *g = &s->fields[j];
      if (strcmp(f->name, g->name) == 0)
        return ids_fail(e, IDS_EINVAL, "scheme '%s': field '%s' named "
                        "twice", SNAME(s), f->name);
      if (generic && overlap(f, g))
        return ids_fail(e, IDS_EINVAL, "scheme '%s': fields '%s' and '%s' "
                        "share a bit", SNAME(s), g->name, f->name);
    }
    total += f->bits;
  }
  if (generic && total != s->bits)
    return ids_fail(e, IDS_EINVAL, "scheme '%s': its fields hold %u of its "
                    "%u bits", SNAME(s), total, s->bits);
  return IDS_OK;
}

/* Every codec whole, and found by one name. */
static int codecs_whole (const ids_scheme *s, ids_error *e) {
  for (int i = 0; i < s->ncodecs; i++) {
    const ids_codec *c = s->codecs[i];
    if (c == NULL || c->name == NULL || c->encode == NULL ||
        c->decode == NULL)
      return ids_fail(e, IDS_EINVAL, "scheme '%s': codec %d lacks a name, "
                      "encode or decode", SNAME(s), i + 1);
    for (int j = 0; j < i; j++)
      if (strcmp(c->name, s->codecs[j]->name) == 0)
        return ids_fail(e, IDS_EINVAL, "scheme '%s': codec '%s' named "
                        "twice", SNAME(s), c->name);
  }
  return IDS_OK;
}

/* What the header marks required, checked once here rather than trusted
** on every ID. */
int ids_scheme_check (const ids_scheme *s, ids_error *e) {
  const ids_layout_ops *l = s->layout;
  if (s->name == NULL)
    return ids_fail(e, IDS_EINVAL, "a scheme needs a name");
  if (s->nfields < 1 || s->nfields > IDS_MAXFIELDS)
    return ids_fail(e, IDS_EINVAL, "scheme '%s': %d fields (1 to %d)",
                    s->name, s->nfields, IDS_MAXFIELDS);
  if (s->ncodecs < 1 || s->ncodecs > IDS_MAXCODECS)
    return ids_fail(e, IDS_EINVAL, "scheme '%s': %d codecs (1 to %d)",
                    s->name, s->ncodecs, IDS_MAXCODECS);
  if (s->bits < 1 || s->bits > IDS_MAXBITS || s->bytes < (s->bits + 7) / 8 ||
      s->bytes > IDS_MAXBYTES)
    return ids_fail(e, IDS_EINVAL, "scheme '%s': %u bits in %u bytes (1 to "
                    "%d bits, in enough bytes, at most %d)", s->name,
                    s->bits, s->bytes, IDS_MAXBITS, IDS_MAXBYTES);
  if (s->nparams > IDS_MAXOPTS || s->ngenopts > IDS_MAXOPTS)
    return ids_fail(e, IDS_EINVAL, "scheme '%s': more than %d parameters or "
                    "generator options", s->name, IDS_MAXOPTS);
  if ((s->nparams && (s->open == NULL || s->params == NULL)) ||
      (s->ngenopts && s->genopts == NULL) || (s->nquals && s->quals == NULL))
    return ids_fail(e, IDS_EINVAL, "scheme '%s': a count without its array "
                    "(parameters need open as well)", s->name);
  if (l && (l->compose == NULL) != (l->decompose == NULL))
    return ids_fail(e, IDS_EINVAL, "scheme '%s': a layout with compose needs "
                    "decompose, and the reverse", s->name);
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].from && (l == NULL || l->hashname == NULL))
      return ids_fail(e, IDS_EINVAL, "scheme '%s', field '%s': hashed from "
                      "'%s', but the layout has no hashname", s->name,
                      s->fields[i].name ? s->fields[i].name : "?",
                      s->fields[i].from);
  if (fields_fit(s, e) != IDS_OK || codecs_whole(s, e) != IDS_OK)
    return IDS_EINVAL;
  for (int k = 0; s->about && k < IDS_MAXALIASES && s->about->aliases[k];
       k++)
    if (s->about->aliases[k][0] == '\0' ||
        strlen(s->about->aliases[k]) >= IDS_NAMEMAX ||
        strcmp(s->about->aliases[k], s->name) == 0)
      return ids_fail(e, IDS_EINVAL, "scheme '%s': alias '%s' is empty, too "
                      "long or its own name", s->name, s->about->aliases[k]);
  if (s->about && s->about->aliases[IDS_MAXALIASES])
    return ids_fail(e, IDS_EINVAL, "scheme '%s': more than %d aliases",
                    s->name, IDS_MAXALIASES);
  if (s->gen && s->gen->suffix && s->gen->place == NULL)
    return ids_fail(e, IDS_EINVAL, "scheme '%s': a generator with a suffix "
                    "needs place", s->name);
  return IDS_OK;
}

int ids_scheme_register (const ids_scheme *s) {
  int r = IDS_OK, found;
  size_t i;
  if (ids_scheme_check(s, NULL) != IDS_OK) return IDS_EINVAL;
  pthread_mutex_lock(&lock);
  i = search(s->name, &found);
  if (found) { r = IDS_EEXIST; goto out; }
  for (int k = 0; k < s->ncodecs; k++)      /* tables built before use */
    if (s->codecs[k]->prepare && s->codecs[k]->prepare(s->codecs[k]) !=
        IDS_OK) { r = IDS_ENOMEM; goto out; }
  if (nschemes == capschemes) {
    size_t cap = capschemes ? 2 * capschemes : 64;
    const ids_scheme **a = realloc(schemes, cap * sizeof *a);
    if (a == NULL) { r = IDS_ENOMEM; goto out; }
    schemes = a, capschemes = cap;
  }
  memmove(&schemes[i + 1], &schemes[i], (nschemes - i) * sizeof *schemes);
  schemes[i] = s;
  nschemes++;
out:
  pthread_mutex_unlock(&lock);
  return r;
}

/* A scheme by its name, or by an alias that it alone answers to (the
** names the command takes: "discord", "mongo"); NULL for none, and for
** an alias of several ("uuid": ids_scheme_answering lists them). */
const ids_scheme *ids_scheme_find (const char *name) {
  const ids_scheme *s[2];
  return ids_scheme_answering(name, s, 2) == 1 ? s[0] : NULL;
}

size_t ids_scheme_answering (const char *name, const ids_scheme **out,
                             size_t max) {
  size_t n = 0, i;
  int found;
  pthread_mutex_lock(&lock);
  i = search(name, &found);
  if (found) {
    if (max > 0) out[0] = schemes[i];
    n = 1;
  }
  else
    for (i = 0; i < nschemes; i++) {
      const ids_about *a = schemes[i]->about;
      for (int k = 0; a && k < IDS_MAXALIASES && a->aliases[k]; k++)
        if (strcmp(a->aliases[k], name) == 0) {
          if (n < max) out[n] = schemes[i];
          n++;
          break;
        }
    }
  pthread_mutex_unlock(&lock);
  return n;
}

size_t ids_scheme_list (const char **names, size_t max) {
  size_t n;
  pthread_mutex_lock(&lock);
  n = nschemes;
  for (size_t i = 0; i < n && i < max; i++) names[i] = schemes[i]->name;
  pthread_mutex_unlock(&lock);
  return n;
}

/* Opened schemes are interned by (descriptor, normalized parameters) and
** never freed, so that IDs can point at their scheme without reference
** counting.  A hash table (open addressing, at most half full) finds
** them; each holds its scheme and its key, nothing else. */
typedef struct opened {
  const ids_scheme *desc;
  ids_scheme s;
  uint64_t hash;
  size_t keylen;
  char key[];
} opened;

static opened **table;
static size_t tabsize, ninstances;     /* tabsize: 0 or a power of 2 */

/* A byte string that identifies a parameter set whose defaults are
** filled in (see normalize). */
static size_t paramkey (const ids_scheme *d, const ids_optval *p, char *k,
                        size_t cap) {
  size_t n = 0;
  for (int i = 0; i < d->nparams; i++) {
    int w = d->params[i].type == IDS_OPT_STR ?
      snprintf(k + n, cap - n, "%d:%zu:%.*s;", p[i].set, p[i].len,
               (int)p[i].len, p[i].s ? p[i].s : "") :
      snprintf(k + n, cap - n, "%d:%lld;", p[i].set, (long long)p[i].i);
    if (w < 0 || (size_t)w >= cap - n) return cap;   /* too long */
    n += (size_t)w;
  }
  return n;
}

/* Parameters not given take their default, so that a default written out
** opens the same scheme as the default left out. */
static void normalize (const ids_scheme *d, const ids_optval *p,
                       ids_optval *np) {
  for (int i = 0; i < d->nparams; i++) {
    const ids_optdef *o = &d->params[i];
    np[i] = p[i];
    if (p[i].set) continue;
    if (o->type == IDS_OPT_INT) np[i].set = 1, np[i].i = o->dflt;
    else if (d->param_str && d->param_str[i]) {
      np[i].set = 1;
      np[i].s = d->param_str[i];
      np[i].len = strlen(np[i].s);
    }
  }
}

static uint64_t hashkey (const ids_scheme *d, const char *k, size_t n) {
  uint64_t h = 14695981039346656037ull ^ (uint64_t)(uintptr_t)d;  /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)k[i]) *
                                     1099511628211ull;
  return h;
}

/* The slot of (d, key) or the empty one where it would go.  Lock held. */
static opened **slotof (const ids_scheme *d, uint64_t h, const char *k,
                        size_t n) {
  size_t i = (size_t)h & (tabsize - 1);
  for (;; i = (i + 1) & (tabsize - 1)) {
    opened *o = table[i];
    if (o == NULL || (o->hash == h && o->desc == d && o->keylen == n &&
                      memcmp(o->key, k, n) == 0))
      return &table[i];
  }
}

/* Doubles the table (or makes the first one).  0 when out of memory. */
static int grow (void) {
  size_t oldsize = tabsize, size = tabsize ? 2 * tabsize : 64;
  opened **old = table, **t = calloc(size, sizeof *t);
  if (t == NULL) return 0;
  table = t, tabsize = size;
  for (size_t i = 0; i < oldsize; i++)
    if (old[i]) *slotof(old[i]->desc, old[i]->hash, old[i]->key,
                        old[i]->keylen) = old[i];
  free(old);
  return 1;
}

const ids_scheme *ids_scheme_open (const ids_scheme *d,
                                   const ids_options *params, ids_error *e) {
  static const ids_optval unset[IDS_MAXOPTS];
  const ids_optval *p = params ? ids__options_values(params) : unset;
  ids_optval np[IDS_MAXOPTS];
  char key[512];
  size_t n;
  uint64_t h;
  opened **slot, *o = NULL;
  if (params && (ids__options_scheme(params) != d ||
                 ids__options_generator(params))) {
    ids_fail(e, IDS_EINVAL, "%s: parameters made %s", d->name,
             ids__options_generator(params) ? "by ids_options_init "
             "(generator options)" : "for another scheme");
    return NULL;
  }
  if (d->open == NULL || d->nparams == 0) return d;
  normalize(d, p, np);
  n = paramkey(d, np, key, sizeof key);
  if (n == sizeof key) {
    ids_fail(e, IDS_EINVAL, "%s: parameters too long", d->name);
    return NULL;
  }
  h = hashkey(d, key, n);
  pthread_mutex_lock(&lock);
  if (2 * (ninstances + 1) > tabsize && !grow()) goto out;
  slot = slotof(d, h, key, n);
  if ((o = *slot) == NULL && (o = calloc(1, sizeof *o + n)) != NULL) {
    if (d->open(d, np, &o->s, e) != IDS_OK) {
      free(o);
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    o->desc = d;
    o->hash = h;
    o->keylen = n;
    memcpy(o->key, key, n);
    *slot = o;
    ninstances++;
  }
out:
  pthread_mutex_unlock(&lock);
  if (o == NULL) ids_fail(e, IDS_ENOMEM, "%s: out of memory", d->name);
  return o ? &o->s : NULL;
}
