/*
** test_registry.c: the scheme registry and interning of opened schemes.
*/
#include <stdlib.h>
#include <time.h>

#include "helpers.h"

static const ids_scheme *open1 (const ids_scheme *d, const ids_optval *p) {
  ids_error e;
  const ids_scheme *s = open_params(d, p, &e);
  CHECKF(s != NULL, "%s: %s", d->name, s ? "" : e.msg);
  return s;
}

/* A default written out opens the same scheme as the default left out. */
static void test_defaults (void) {
  const ids_scheme *snow = ids_scheme_find("snowflake"), *k96 = ids_scheme_find("kuid96");
  ids_optval p[IDS_MAXOPTS] = {{0}}, q[IDS_MAXOPTS] = {{0}};
  const ids_scheme *a, *b;
  a = open1(snow, p);
  q[0].set = 1, q[0].i = 1420070400000;
  b = open1(snow, q);
  CHECKF(a == b, "snowflake with its default epoch_ms is another scheme");
  q[0].i = 1420070400001;
  CHECK(open1(snow, q) != a);
  CHECK(open1(snow, q) == open1(snow, q));

  a = open1(k96, p);
  memset(q, 0, sizeof q);
  q[0].set = 1, q[0].i = 8;
  CHECKF(open1(k96, q) == a, "kuid96 interval = 8 is another scheme");
  q[1].set = 1, q[1].s = "phash2", q[1].len = 6;
  CHECKF(open1(k96, q) == a, "kuid96 interval 8, hash phash2 differs");
  q[0].set = 0;
  CHECKF(open1(k96, q) == a, "kuid96 hash = phash2 is another scheme");
  q[1].s = "phash", q[1].len = 5;
  b = open1(k96, q);
  CHECK(b != a && b == open1(k96, q));
  q[0].set = 1, q[0].i = 6;
  CHECK(open1(k96, q) != b);
}

/* Many parameter sets: each distinct, each found again, and the second
** half of the opens is not much slower than the first (no linear scan). */
static void test_many (void) {
  enum { N = 40000 };
  const ids_scheme *snow = ids_scheme_find("snowflake");
  static const ids_scheme *got[N];
  ids_optval p[IDS_MAXOPTS] = {{0}};
  double t[2];
  int bad = 0;
  for (int half = 0; half < 2; half++) {
    clock_t c0 = clock();
    for (int i = half * N / 2; i < (half + 1) * N / 2; i++) {
      p[0].set = 1, p[0].i = 1000000 + i;
      got[i] = open1(snow, p);
      if (got[i] == NULL || got[i]->epoch_ms != 1000000 + i) bad++;
    }
    t[half] = (double)(clock() - c0) / CLOCKS_PER_SEC;
  }
  CHECKF(bad == 0, "%d opened schemes have the wrong epoch", bad);
  for (int i = 0; i < N; i++) {
    p[0].i = 1000000 + i;
    if (open_params(snow, p, NULL) != got[i]) bad++;
  }
  CHECKF(bad == 0, "%d parameter sets opened a second scheme", bad);
  CHECKF(t[1] < 3 * t[0] + 0.05, "first half %.3f s, second half %.3f s",
         t[0], t[1]);
}

/* More schemes than the old fixed 64, from C. */
static void test_grow (void) {
  enum { N = 500 };
  static const char *const enc[] = {"hex"};
  static char names[N][16];
  size_t n0 = ids_scheme_list(NULL, 0), n;
  const char **all;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    ids_fieldspec f[2] = {{"t", "time", 48, "ms", 0, 0, NULL},
                          {"r", "random", 24, NULL, 0, 0, NULL}};
    ids_defspec sp = {names[i], f, 2, enc, 1, NULL, 0, NULL};
    const ids_scheme *s;
    ids_error e;
    snprintf(names[i], sizeof names[i], "reg%03d", (i * 7) % N);
    if (ids_scheme_define(&sp, &s, &e) != IDS_OK) {
      if (!bad++) fprintf(stderr, "define %s: %s\n", names[i], e.msg);
    }
  }
  CHECKF(bad == 0, "%d of %d defines refused", bad, N);
  n = ids_scheme_list(NULL, 0);
  CHECK_U64(n, n0 + N);
  all = malloc(n * sizeof *all);
  CHECK_U64(ids_scheme_list(all, n), n);
  bad = 0;
  for (size_t i = 1; i < n; i++)
    if (strcmp(all[i - 1], all[i]) >= 0) bad++;
  CHECKF(bad == 0, "list not sorted");
  bad = 0;
  for (int i = 0; i < N; i++) {
    const ids_scheme *s = ids_scheme_find(names[i]);
    if (s == NULL || strcmp(s->name, names[i]) != 0) bad++;
  }
  CHECKF(bad == 0, "%d defined schemes not found", bad);
  CHECK(ids_scheme_find("fluid") != NULL && ids_scheme_find("snowflake") != NULL);
  CHECK(ids_scheme_find("reg500") == NULL && ids_scheme_find("") == NULL);
  {
    /* another spec under a taken name: refused; the same spec again (a
    ** script reloaded) is the scheme it made */
    ids_fieldspec f[2] = {{"t", "time", 48, "ms", 0, 0, NULL},
                          {"r", "random", 24, NULL, 0, 0, NULL}};
    ids_defspec sp = {"reg007", f, 1, enc, 1, NULL, 0, NULL};
    const ids_scheme *s = NULL;
    ids_error e;
    CHECK(ids_scheme_define(&sp, &s, &e) == IDS_EEXIST && s == NULL);
    CHECKF(strstr(e.msg, "another spec") != NULL, "%s", e.msg);
    sp.nfields = 2;
    CHECKF(ids_scheme_define(&sp, &s, &e) == IDS_OK, "%s", e.msg);
    CHECK(s == ids_scheme_find("reg007"));
    f[1].bits = 23;
    CHECK(ids_scheme_define(&sp, &s, &e) == IDS_EEXIST);
  }
  free(all);
}

/* issue 40: every alias the command takes finds its scheme here too;
** one that several answer to finds none */
static void test_aliases (void) {
  size_t n = ids_scheme_list(NULL, 0), seen = 0;
  const char **names = malloc(n * sizeof *names);
  if (!CHECK(names != NULL)) return;
  ids_scheme_list(names, n);
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *s = ids_scheme_find(names[i]);
    CHECK(s != NULL && strcmp(s->name, names[i]) == 0);
    for (int k = 0; s && s->about && k < IDS_MAXALIASES &&
                    s->about->aliases[k]; k++) {
      const char *a = s->about->aliases[k];
      const ids_scheme *all[2];
      size_t m = ids_scheme_answering(a, all, 2);
      CHECKF(m == 1 ? ids_scheme_find(a) == s : ids_scheme_find(a) == NULL,
             "alias %s of %s (%zu schemes)", a, s->name, m);
      seen++;
    }
  }
  CHECKF(seen >= 10, "%zu aliases", seen);
  CHECK(ids_scheme_find("discord") == ids_scheme_find("snowflake"));
  CHECK(ids_scheme_find("uuid") == NULL && ids_scheme_find("nosuch") == NULL);
  free(names);
}

int main (void) {
  if (ids_init() != IDS_OK) return 1;
  test_defaults();
  test_many();
  test_grow();
  test_aliases();
  return t_done();
}
