/*
** test_slot_faults.c: generators with local slots under the faults that
** used to repeat IDs (docs/SLOTS.md, "Faults"), with real generators on
** the real clock, every ID collected and counted:
**   close racing next on 8 threads (and then a successor on the slot);
**   the slot file deleted while its holder runs, and a second generator
**   claiming the slot's name meanwhile;
**   a handover after the holder ran ahead of the clock (max_ahead_ms).
** Each test has its own slot directory (scratch_dir: gone at exit).
*/
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

static const ids_scheme *fluid;

/* a FLUID generator with a local slot in dir (no node given) */
static int mkgen (ids_generator *g, const char *dir, int64_t ahead_ms) {
  ids_options o;
  ids_error e;
  char url[300];
  int r;
  snprintf(url, sizeof url, "local:%s", dir);
  ids_options_init(&o, fluid);
  r = ids_options_set_string(&o, "slots", 5, url, strlen(url), &e);
  if (r == IDS_OK && ahead_ms)
    r = ids_options_set_int(&o, "max_ahead_ms", 12, ahead_ms, &e);
  if (r == IDS_OK) r = ids_generator_init(g, fluid, &o, NULL, &e);
  CHECKF(r == IDS_OK, "generator: %s", r ? e.msg : "");
  return r;
}

static int64_t mono_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t slot_of (const ids_generator *g) {
  uint32_t n = 0;
  ids_generator_slot(g, &n, NULL);
  return n;
}

/* ------------------------------------------------ close racing next */

#define NT     8
static long PER;                       /* IDs kept per thread */

/* A thread calls next until close stops it: the first PER IDs are kept
** (n, read by the main thread while it runs), the rest only made. */
typedef struct racer {
  ids_generator *g;
  ids_value *out;
  long n, bad;
  int code;
  char msg[256];
} racer;

static void *race (void *arg) {
  racer *w = arg;
  ids_value v, last = {{0}};
  ids_error e;
  long made = 0;
  for (;;) {
    int r = ids_generator_next(w->g, &v, &e);
    if (r != IDS_OK) {
      w->code = r;
      snprintf(w->msg, sizeof w->msg, "%s", e.msg);
      break;
    }
    if (made > 0 && ids_value_cmp(&v, &last) <= 0 && w->bad < 0)
      w->bad = made;
    last = v;
    if (made++ < PER) {
      w->out[made - 1] = v;
      __atomic_store_n(&w->n, made, __ATOMIC_RELEASE);
    }
  }
  return NULL;
}

static void test_close_race (void) {
  char dir[] = "/tmp/idscheme-faults.XXXXXX";
  ids_generator g, h;
  racer w[NT];
  pthread_t t[NT];
  ids_value *all = malloc((size_t)(NT + 1) * PER * sizeof *all);
  long total = 0, dup, closed = 0;
  if (!CHECK(all != NULL && scratch_dir(dir) != NULL) || mkgen(&g, dir, 0))
    return;
  for (int k = 0; k < NT; k++) {
    memset(&w[k], 0, sizeof w[k]);
    w[k].g = &g;
    w[k].out = all + (size_t)k * PER;
    w[k].bad = -1;
    CHECK(pthread_create(&t[k], NULL, race, &w[k]) == 0);
  }
  /* close while all of them run: once each has made a few IDs */
  for (int k = 0; k < NT; k++)
    while (__atomic_load_n(&w[k].n, __ATOMIC_ACQUIRE) < PER / 8) usleep(100);
  ids_generator_close(&g);
  for (int k = 0; k < NT; k++) {
    pthread_join(t[k], NULL);
    CHECKF(w[k].bad < 0, "thread %d: ID %ld not above the one before", k,
           w[k].bad);
    /* every thread ends with a clean error, never freed memory */
    closed += w[k].code == IDS_ELEASE && strstr(w[k].msg, "closed");
    CHECKF(w[k].code == IDS_ELEASE && strstr(w[k].msg, "closed"),
           "thread %d ended with %d: %s", k, w[k].code, w[k].msg);
  }
  /* the successor takes the slot at once (no wait: the close recorded
  ** what was issued) and repeats none of it */
  if (mkgen(&h, dir, 0) == IDS_OK) {
    CHECK(slot_of(&h) == 0);
    for (int k = 0; k < NT; k++) {
      memmove(all + total, w[k].out, (size_t)w[k].n * sizeof *all);
      total += w[k].n;
    }
    for (long i = 0; i < PER; i++)
      if (ids_generator_next(&h, &all[total + i], NULL) != IDS_OK) break;
    ids_generator_close(&h);
    total += PER;
    dup = first_dup(all, (size_t)total);
    CHECKF(dup < 0, "close racing next: a duplicate among %ld IDs", total);
    printf("close racing next: %ld IDs from %d threads and a successor, "
           "%ld threads stopped by close, 0 duplicates\n", total, NT, closed);
  }
  free(all);
}

/* ------------------------------------------- slot file deleted while held */

typedef struct runner {
  ids_generator *g;
  ids_value *out;
  long n, cap, refused, bad;
  int stop;                            /* atomic: set by the main thread */
} runner;

static void *run (void *arg) {
  runner *w = arg;
  while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE) && w->n < w->cap) {
    int r = ids_generator_next(w->g, &w->out[w->n], NULL);
    if (r != IDS_OK) {                 /* between losing and re-claiming */
      w->refused++;
      usleep(1000);
      continue;
    }
    if (w->n > 0 && ids_value_cmp(&w->out[w->n], &w->out[w->n - 1]) <= 0 &&
        w->bad < 0) {
      /* a new slot may be lower: only within one slot must IDs grow */
      uint64_t a = ids_value_get(&w->out[w->n], 10, 14);
      uint64_t b = ids_value_get(&w->out[w->n - 1], 10, 14);
      if (a == b) w->bad = w->n;
    }
    w->n++;
    if (w->n % 1024 == 0) usleep(100);   /* a server's pace, not a burst */
  }
  return NULL;
}

static void test_deleted_file (void) {
  char dir[] = "/tmp/idscheme-faults.XXXXXX", path[128];
  ids_generator a, b;
  runner ra = {0}, rb = {0};
  pthread_t ta, tb;
  long cap = scaled(6000000, 20000), dup;
  ids_value *all = malloc(2 * (size_t)cap * sizeof *all);
  if (!CHECK(all != NULL && scratch_dir(dir) != NULL) || mkgen(&a, dir, 0))
    return;
  ra.g = &a, ra.out = all, ra.cap = cap, ra.bad = -1;
  rb.g = &b, rb.out = all + cap, rb.cap = cap, rb.bad = -1;
  CHECK(slot_of(&a) == 0);
  CHECK(pthread_create(&ta, NULL, run, &ra) == 0);
  usleep(200000);
  /* as rm or a /tmp cleaner would: the name goes, the holder runs on */
  snprintf(path, sizeof path, "%s/fluid.00000", dir);
  CHECK(unlink(path) == 0);
  if (mkgen(&b, dir, 0) == IDS_OK) {   /* a new file of the same name */
    int64_t until = mono_ms() + 1500;
    CHECK(slot_of(&b) == 0);
    CHECK(pthread_create(&tb, NULL, run, &rb) == 0);
    while (mono_ms() < until) usleep(10000);
    __atomic_store_n(&rb.stop, 1, __ATOMIC_RELEASE);
    pthread_join(tb, NULL);
    ids_generator_close(&b);
  }
  __atomic_store_n(&ra.stop, 1, __ATOMIC_RELEASE);
  pthread_join(ta, NULL);
  CHECKF(slot_of(&a) != 0, "the holder did not notice that its name went");
  ids_generator_close(&a);
  CHECKF(ra.bad < 0 && rb.bad < 0, "IDs of one slot not increasing");
  CHECK(ra.n > 0 && rb.n > 0);
  memmove(all + ra.n, rb.out, (size_t)rb.n * sizeof *all);
  dup = first_dup(all, (size_t)(ra.n + rb.n));
  CHECKF(dup < 0, "deleted slot file: a duplicate among %ld IDs",
         ra.n + rb.n);
  printf("deleted slot file: %ld + %ld IDs, %ld refused while re-claiming, "
         "0 duplicates\n", ra.n, rb.n, ra.refused);
  free(all);
}

/* ------------------------------------------------ handover after ahead */

static void test_ahead_handover (void) {
  char dir[] = "/tmp/idscheme-faults.XXXXXX";
  ids_generator a, b;
  long n = scaled(3000000, 10000), dup;
  ids_value *all = malloc(2 * (size_t)n * sizeof *all);
  ids_error e;
  if (!CHECK(all != NULL && scratch_dir(dir) != NULL) || mkgen(&a, dir, 2000))
    return;
  /* 3 M FLUIDs in far less than 3 s: the holder runs ahead of the clock
  ** (up to the lease's ttl - margin) */
  for (long i = 0; i < n; i++)
    if (!CHECKF(ids_generator_next(&a, &all[i], &e) == IDS_OK, "%s", e.msg))
      return;
  ids_generator_close(&a);
  if (mkgen(&b, dir, 0) != IDS_OK) return;
  CHECK(slot_of(&b) == 0);
  for (long i = 0; i < n; i++)
    if (!CHECKF(ids_generator_next(&b, &all[n + i], &e) == IDS_OK, "%s",
                e.msg))
      return;
  ids_generator_close(&b);
  CHECKF(ids_value_cmp(&all[n], &all[n - 1]) > 0,
         "the successor began below its predecessor's last ID");
  dup = first_dup(all, 2 * (size_t)n);
  CHECKF(dup < 0, "handover after max_ahead_ms: a duplicate");
  printf("handover after running ahead: 2 x %ld IDs, 0 duplicates\n", n);
  free(all);
}

int main (void) {
  if (ids_init() != IDS_OK) { fprintf(stderr, "ids_init failed\n"); return 2; }
  fluid = ids_scheme_find("fluid");
  if (!CHECK(fluid != NULL)) return t_done();
  PER = scaled(400000, 2000);
  test_close_race();
  test_deleted_file();
  test_ahead_handover();
  return t_done();
}
