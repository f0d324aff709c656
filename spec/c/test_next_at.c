/*
** test_next_at.c: IDs for a given time (ids_generator_next_at, issue 40):
** their time is the one given, and they never repeat one another or the
** generator's own: random layouts by their odds (every ID collected),
** sequence layouts by a sequence of their own for past times only, in
** order, with a node given; and what cannot be done is refused, saying
** why.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helpers.h"

static int64_t now_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int mkgen (ids_generator *g, const char *name, const char *opt,
                  int64_t x) {
  const ids_scheme *s = ids_scheme_find(name);
  ids_options o;
  ids_error e;
  ids_options_init(&o, s);
  if (opt && ids_options_set_int(&o, opt, strlen(opt), x, &e) != IDS_OK)
    return CHECKF(0, "%s: %s", name, e.msg), -1;
  if (!CHECKF(ids_generator_init(g, s, &o, NULL, &e) == IDS_OK, "%s: %s",
              name, e.msg))
    return -1;
  return 0;
}

/* the Unix ms of v's time field, through the scheme's own reading */
static int64_t ms_of (const ids_scheme *s, const ids_value *v) {
  int64_t ms = 0;
  return ids_scheme_time_ms(s, v, &ms) ? ms : INT64_MIN;
}

static void random_layouts (void) {
  static const char *const names[] = {"ulid", "uuidv7", "ksuid", "flax",
                                      "timeflake", "typeid"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    const ids_scheme *s = ids_scheme_find(names[k]);
    ids_generator g;
    ids_error e;
    long n = scaled(20000, 500), dup;
    ids_value *all = malloc((size_t)(2 * n) * sizeof *all);
    int64_t at = 1483228800123;                    /* 2017-01-01 */
    int ok = 1;
    if (!CHECK(s != NULL && all != NULL) || mkgen(&g, names[k], NULL, 0))
      continue;
    if (strcmp(names[k], "ksuid") == 0) at = 1483228800000;   /* seconds */
    for (long i = 0; i < n && ok; i++) {
      ok &= CHECKF(ids_generator_next_at(&g, at, &all[i], &e) == IDS_OK,
                   "%s: %s", names[k], e.msg);
      ok &= CHECKF(ms_of(s, &all[i]) == at, "%s: time %lld, not %lld",
                   names[k], (long long)ms_of(s, &all[i]), (long long)at);
      ok &= CHECK(ids_generator_next(&g, &all[n + i], &e) == IDS_OK);
    }
    dup = first_dup(all, 2 * (size_t)n);
    CHECKF(ok && dup < 0, "%s: a duplicate among %ld IDs of one time and "
           "%ld of now", names[k], n, n);
    ids_generator_close(&g);
    free(all);
  }
}

static void sequence_layouts (void) {
  const ids_scheme *s = ids_scheme_find("twitter");
  ids_generator g;
  static ids_value v[5000];
  ids_error e;
  int64_t past = now_ms() - 86400000, n = 0;
  int rc;
  if (mkgen(&g, "twitter", "worker", 3)) return;   /* a node given */
  for (int i = 0; i < 5000; i++) {
    int64_t at = past + i / 2000;          /* 2000 IDs a ms, then the next */
    if (!CHECKF(ids_generator_next_at(&g, at, &v[i], &e) == IDS_OK, "%s",
                e.msg))
      break;
    n++;
    CHECK(ms_of(s, &v[i]) == at);
    if (i) CHECK(ids_value_cmp(&v[i], &v[i - 1]) > 0);
  }
  CHECK(n == 5000 && first_dup(v, (size_t)n) < 0);
  /* 4096 a ms at most: the first ms had 2000, so 2097 more of it fail */
  rc = ids_generator_next_at(&g, past + 2, &v[0], &e);
  CHECKF(rc == IDS_OK, "%s", e.msg);
  rc = ids_generator_next_at(&g, past + 1, &v[0], &e);
  CHECKF(rc == IDS_EINVAL && strstr(e.msg, "must not go back"), "%s", e.msg);
  rc = ids_generator_next_at(&g, now_ms() + 1000, &v[0], &e);
  CHECKF(rc == IDS_EINVAL && strstr(e.msg, "not before the generator"),
         "%s", e.msg);
  for (int i = 0; i < 4095; i++)
    if (!CHECK(ids_generator_next_at(&g, past + 3, &v[0], &e) == IDS_OK))
      break;
  CHECK(ids_generator_next_at(&g, past + 3, &v[1], &e) == IDS_OK);
  rc = ids_generator_next_at(&g, past + 3, &v[0], &e);
  CHECKF(rc == IDS_ERANGE && strstr(e.msg, "is spent"), "%d %s", rc, e.msg);
  ids_generator_close(&g);
}

static void refused (void) {
  ids_generator g;
  ids_value v;
  ids_error e;
  char dir[] = "/tmp/idscheme-nextat.XXXXXX", url[64];
  const ids_scheme *s = ids_scheme_find("fluid");
  ids_options o;
  int rc;
  if (mkgen(&g, "uuidv4", NULL, 0) == 0) {
    rc = ids_generator_next_at(&g, 1700000000000, &v, &e);
    CHECKF(rc == IDS_EINVAL && strstr(e.msg, "carry no time"), "%s", e.msg);
    ids_generator_close(&g);
  }
  if (mkgen(&g, "siq", "shard", 1) == 0) {
    rc = ids_generator_next_at(&g, 1700000000000, &v, &e);
    CHECKF(rc == IDS_EINVAL && strstr(e.msg, "qualifier"), "%s", e.msg);
    ids_generator_close(&g);
  }
  if (mkgen(&g, "ulid", NULL, 0) == 0) {   /* before 1970: outside */
    rc = ids_generator_next_at(&g, -5, &v, &e);
    CHECKF(rc == IDS_ERANGE && strstr(e.msg, "outside the range"), "%s",
           e.msg);
    ids_generator_close(&g);
  }
  /* a leased node: its slot's earlier holders may have used the time */
  if (!CHECK(scratch_dir(dir) != NULL)) return;
  snprintf(url, sizeof url, "local:%s", dir);
  ids_options_init(&o, s);
  if (CHECK(ids_options_set_string(&o, "slots", 5, url, strlen(url), &e) ==
            IDS_OK && ids_generator_init(&g, s, &o, NULL, &e) == IDS_OK)) {
    rc = ids_generator_next_at(&g, now_ms() - 60000, &v, &e);
    CHECKF(rc == IDS_EINVAL && strstr(e.msg, "leased"), "%s", e.msg);
    ids_generator_close(&g);
  }
}

int main (void) {
  if (ids_init() != IDS_OK) return 1;
  random_layouts();
  sequence_layouts();
  refused();
  return t_done();
}
