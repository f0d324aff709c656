/*
** test_bulk.c: ids_generator_next_n, the bulk call.  Two threads share one
** generator and take IDs in batches of random sizes (1..5000) mixed with
** single calls; every ID of the run is collected: none twice, each
** thread's strictly increasing, every field in range.  Then the edges: a
** batch that crosses ticks, a batch of 0, a batch from a closed
** generator, a clock past the field's end.
*/
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "idscheme.h"
#include "test.h"
#include "helpers.h"

typedef struct runner {
  ids_generator *g;
  ids_value *out;
  size_t n, got;
  unsigned seed;
  long bad;                 /* index of an ID not above the one before */
  int code;
  ids_error e;
} runner;

static unsigned rnd (unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

static void *run (void *arg) {
  runner *r = arg;
  r->bad = -1;
  r->code = IDS_OK;
  while (r->got < r->n) {
    size_t k = rnd(&r->seed) % 4 == 0 ? 1 : 1 + rnd(&r->seed) % 5000;
    if (k > r->n - r->got) k = r->n - r->got;
    r->code = k == 1 ? ids_generator_next(r->g, &r->out[r->got], &r->e)
                     : ids_generator_next_n(r->g, &r->out[r->got], k, &r->e);
    if (r->code != IDS_OK) return NULL;
    r->got += k;
  }
  for (size_t i = 1; i < r->n; i++)
    if (ids_value_cmp(&r->out[i], &r->out[i - 1]) <= 0) {
      r->bad = (long)i;
      break;
    }
  return NULL;
}

/* The fields of v are in range if composing them again gives v back. */
static int inrange (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  ids_value w;
  ids_error e;
  ids_scheme_decompose(s, v, x);
  if (s->bits > 64) return 1;         /* wide fields: decompose is partial */
  if (ids_scheme_compose(s, x, &w, &e) != IDS_OK) return 0;
  return ids_value_cmp(&w, v) == 0;
}

static int setint (ids_options *o, const char *name, int64_t x) {
  ids_error e;
  return ids_options_set_int(o, name, strlen(name), x, &e);
}

/* n IDs from two threads of one generator of scheme `name`. */
static void threads (const char *name, const char *opt, int64_t val,
                     size_t n) {
  const ids_scheme *s = ids_scheme_find(name);
  ids_options o;
  ids_generator g;
  ids_error e;
  ids_value *all = malloc(2 * n * sizeof *all);
  runner r[2];
  pthread_t t[2];
  long dup, outside = 0;
  CHECKF(s != NULL && all != NULL, "%s: scheme and memory", name);
  if (s == NULL || all == NULL) { free(all); return; }
  ids_options_init(&o, s);
  if (opt) CHECK(setint(&o, opt, val) == IDS_OK);
  CHECK(ids_generator_init(&g, s, &o, NULL, &e) == IDS_OK);
  for (int k = 0; k < 2; k++) {
    r[k] = (runner){ .g = &g, .out = all + k * n, .n = n, .seed = 7u + k };
    CHECK(pthread_create(&t[k], NULL, run, &r[k]) == 0);
  }
  for (int k = 0; k < 2; k++) {
    pthread_join(t[k], NULL);
    CHECKF(r[k].code == IDS_OK, "%s thread %d failed: %s", name, k,
           r[k].e.msg);
    CHECKF(r[k].bad < 0, "%s thread %d: ID %ld is not above the one before",
           name, k, r[k].bad);
  }
  for (size_t i = 0; i < 2 * n; i++) outside += !inrange(s, &all[i]);
  CHECKF(outside == 0, "%s: %ld IDs with a field out of range", name,
         outside);
  dup = first_dup(all, 2 * n);
  CHECKF(dup < 0, "%s: duplicate ID %s", name, dup < 0 ? "" : vhex(&all[dup]));
  printf("%s: %zu IDs from 2 threads, batches and single calls, "
         "%s duplicates\n", name, 2 * n, dup < 0 ? "no" : "SOME");
  ids_generator_close(&g);
  free(all);
}

/* A frozen clock: a batch larger than a tick's sequence runs ahead within
** max_ahead_ms, tick after tick, each full from 0 to the last value. */
static void crossing (void) {
  const ids_scheme *s = ids_scheme_find("snowflake");
  int64_t now = 1700000000000000000;
  ids_clock c = { frozen_now, &now };
  ids_options o;
  ids_generator g;
  ids_error e;
  static ids_value v[3 * 4096];
  uint64_t x[IDS_MAXFIELDS];
  const int ti = 0, si = 3;      /* timestamp, sequence */
  uint64_t t0 = 0;
  int ok = 1;
  ids_options_init(&o, s);
  CHECK(setint(&o, "worker", 1) == IDS_OK && setint(&o, "shard", 2) == IDS_OK);
  CHECK(setint(&o, "max_ahead_ms", 10) == IDS_OK);
  CHECK(ids_generator_init(&g, s, &o, &c, &e) == IDS_OK);
  CHECK(strcmp(s->fields[ti].name, "timestamp") == 0 &&
        strcmp(s->fields[si].name, "sequence") == 0);
  CHECK(ids_generator_next_n(&g, v, 100, &e) == IDS_OK);
  CHECK(ids_generator_next_n(&g, v + 100, 3 * 4096 - 100, &e) == IDS_OK);
  for (int i = 0; i < 3 * 4096; i++) {
    ids_scheme_decompose(s, &v[i], x);
    if (i == 0) t0 = x[ti];
    ok &= x[si] == (uint64_t)i % 4096 && x[ti] - t0 == (uint64_t)i / 4096;
    ok &= x[1] == 1 && x[2] == 2;
  }
  CHECKF(ok, "a batch across ticks fills each tick from 0 to 4095");
  CHECK(ids_generator_next_n(&g, v, 0, &e) == IDS_OK);
  ids_generator_close(&g);
}

/* Errors: a clock past the field's end fails the batch; a closed
** generator with a slot fails it too. */
static void errors (void) {
  const ids_scheme *s = ids_scheme_find("fluid");
  int64_t late = INT64_MAX;                  /* 2262 AD, past 40 bits of ms */
  ids_clock c = { frozen_now, &late };
  ids_options o;
  ids_generator g;
  ids_error e;
  ids_value v[10];
  ids_options_init(&o, s);
  CHECK(setint(&o, "generator", 5) == IDS_OK);
  CHECK(ids_generator_init(&g, s, &o, &c, &e) == IDS_OK);
  CHECK(ids_generator_next_n(&g, v, 10, &e) == IDS_ERANGE && e.msg[0]);
  ids_generator_close(&g);
}

int main (void) {
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  threads("kuid64", NULL, 0, (size_t)scaled(5000000, 10000));
  threads("snowflake", "worker", 3, (size_t)scaled(5000000, 10000));
  threads("fluid", "generator", 11, (size_t)scaled(1000000, 10000));
  threads("siq", NULL, 0, (size_t)scaled(500000, 10000));
  threads("flax", NULL, 0, (size_t)scaled(1000000, 10000));
  threads("kuid96", NULL, 0, (size_t)scaled(1000000, 10000));
  crossing();
  errors();
  return t_done();
}
