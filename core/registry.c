/*
** registry.c: schemes by name, and schemes with parameters applied.
*/
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"

#define MAXSCHEMES 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const ids_scheme *schemes[MAXSCHEMES];   /* sorted by name */
static size_t nschemes;

int ids_fail (ids_error *e, int code, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code = code;
  }
  return code;
}

int ids_register (const ids_scheme *s) {
  int r = IDS_OK;
  size_t i;
  pthread_mutex_lock(&lock);
  for (i = 0; i < nschemes; i++) {
    int c = strcmp(s->name, schemes[i]->name);
    if (c == 0) { r = IDS_EEXIST; goto out; }
    if (c < 0) break;
  }
  if (nschemes == MAXSCHEMES) { r = IDS_ENOMEM; goto out; }
  memmove(&schemes[i + 1], &schemes[i], (nschemes - i) * sizeof *schemes);
  schemes[i] = s;
  nschemes++;
out:
  pthread_mutex_unlock(&lock);
  return r;
}

const ids_scheme *ids_find (const char *name) {
  const ids_scheme *s = NULL;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nschemes && !s; i++)
    if (strcmp(schemes[i]->name, name) == 0) s = schemes[i];
  pthread_mutex_unlock(&lock);
  return s;
}

size_t ids_list (const char **names, size_t max) {
  size_t n;
  pthread_mutex_lock(&lock);
  n = nschemes;
  for (size_t i = 0; i < n && i < max; i++) names[i] = schemes[i]->name;
  pthread_mutex_unlock(&lock);
  return n;
}

/* Opened schemes are interned by (descriptor, parameters) and never freed,
** so that IDs can point at their scheme without reference counting. */
typedef struct opened {
  struct opened *next;
  const ids_scheme *desc;
  ids_scheme s;
  size_t keylen;
  char key[];
} opened;

static opened *instances;

/* A byte string that identifies a parameter set. */
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

const ids_scheme *ids_open (const ids_scheme *d, const ids_optval *p,
                            ids_error *e) {
  char key[512];
  size_t n;
  opened *o;
  if (d->open == NULL || d->nparams == 0) return d;
  for (int i = 0; i < d->nparams; i++)
    if (p[i].set && d->params[i].type == IDS_OPT_INT &&
        (p[i].i < d->params[i].min || p[i].i > d->params[i].max)) {
      ids_fail(e, IDS_ERANGE, "%s parameter %s out of range: %lld (allowed "
               "%lld..%lld)", d->name, d->params[i].name, (long long)p[i].i,
               (long long)d->params[i].min, (long long)d->params[i].max);
      return NULL;
    }
  n = paramkey(d, p, key, sizeof key);
  if (n == sizeof key) {
    ids_fail(e, IDS_EINVAL, "%s: parameters too long", d->name);
    return NULL;
  }
  pthread_mutex_lock(&lock);
  for (o = instances; o; o = o->next)
    if (o->desc == d && o->keylen == n && memcmp(o->key, key, n) == 0)
      break;
  if (o == NULL && (o = calloc(1, sizeof *o + n)) != NULL) {
    if (d->open(d, p, &o->s, e) != IDS_OK) {
      free(o);
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    o->desc = d;
    o->keylen = n;
    memcpy(o->key, key, n);
    o->next = instances;
    instances = o;
  }
  pthread_mutex_unlock(&lock);
  if (o == NULL) ids_fail(e, IDS_ENOMEM, "%s: out of memory", d->name);
  return o ? &o->s : NULL;
}
