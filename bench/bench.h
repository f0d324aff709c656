/*
** bench.h: the timing machinery bench_fluid.c and bench_schemes.c share.
**
** Clocks, the command line, calibration, best-of-RUNS runs with the median,
** the on-CPU share and the ns/op line.  Static functions, one copy per
** program; set bench_name before anything can fail.
*/
#ifndef IDS_BENCH_H
#define IDS_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idscheme.h"

#ifndef IDS_BENCH_BUILD_TYPE
#define IDS_BENCH_BUILD_TYPE "?"
#endif

#define RUNS      5
#define ONCPU_OK  0.97            /* below: other load took the core */

static const char *bench_name = "bench";   /* for error messages */
static volatile uint64_t sink;    /* results go here, so none is elided */
static double run_seconds = 0.2;  /* target length of one timed run */
static double sustain_seconds = 2.0;
static const char *only;          /* run the cases whose name has this */

static int wanted (const char *name) {
  return only == NULL || strstr(name, only) != NULL;
}

static void die (const char *what, const ids_error *e) {
  fprintf(stderr, "%s: %s: %s\n", bench_name, what, e ? e->msg : "failed");
  exit(1);
}

/* [--quick] [WORD]; then the first line of the output. */
static void bench_start (int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--quick") == 0) {
      run_seconds = 0.02;
      sustain_seconds = 0.5;
    }
    else only = argv[i];
  if (ids_init() != IDS_OK) die("ids_init", NULL);
  printf("idscheme %s bench (C, %s build; best of %d runs, median in "
         "brackets)\n", IDS_VERSION, IDS_BENCH_BUILD_TYPE, RUNS);
}

/* ------------------------------------------------------------- clocks */

static double ts_ns (clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns (void) { return ts_ns(CLOCK_MONOTONIC); }
static double cpu_ns (void) { return ts_ns(CLOCK_THREAD_CPUTIME_ID); }

/* This thread's CPU time over wall time since (wall0, cpu0). */
static inline double oncpu_since (double wall0, double cpu0) {
  return (cpu_ns() - cpu0) / (now_ns() - wall0);
}

static int cmpd (const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* ------------------------------------------------------ ns/op cases */

/* A case: runs `n` operations with its argument; the harness times it. */
typedef void (*bench_fn) (const void *arg, long n);

typedef struct timing {
  double best, median;            /* ns/op */
  double oncpu;                   /* thread CPU time / wall time, mean */
} timing;

/* Wall ns of f(arg, n); adds its on-CPU share to *oncpu. */
static double timeit (bench_fn f, const void *arg, long n, double *oncpu) {
  double t0, c0, t;
  c0 = cpu_ns();
  t0 = now_ns();
  f(arg, n);
  t = now_ns() - t0;
  *oncpu += (cpu_ns() - c0) / t;
  return t;
}

/* Calibrates to run_seconds a run, warms up, runs RUNS times. */
static timing time_case (bench_fn f, const void *arg) {
  double t[RUNS], oncpu = 0, el;
  long n = 1000;
  timing tm;
  while ((el = timeit(f, arg, n, &oncpu)) < 20e6 && n < (1L << 40)) n *= 2;
  n = (long)((double)n * run_seconds * 1e9 / el) + 1;
  timeit(f, arg, n, &oncpu);               /* warm-up */
  oncpu = 0;
  for (int i = 0; i < RUNS; i++) t[i] = timeit(f, arg, n, &oncpu) / (double)n;
  qsort(t, RUNS, sizeof *t, cmpd);
  tm.best = t[0];
  tm.median = t[RUNS / 2];
  tm.oncpu = oncpu / RUNS;
  return tm;
}

static void print_timing (const char *name, const timing *tm) {
  printf("%-46s %8.1f ns/op %8.2f M ids/s   (median %.1f ns)", name,
         tm->best, 1e3 / tm->best, tm->median);
  if (tm->oncpu < ONCPU_OK)
    printf(" [on CPU %.0f%%]", 100.0 * tm->oncpu);
  printf("\n");
  fflush(stdout);
}

/* Times and prints the case if wanted; returns 1 and fills *out (if not
** NULL) when it ran. */
static int measure (const char *name, bench_fn f, const void *arg,
                    timing *out) {
  timing tm;
  if (!wanted(name)) return 0;
  tm = time_case(f, arg);
  print_timing(name, &tm);
  if (out) *out = tm;
  return 1;
}

/* floor: the clock read every id pays */
static inline void b_clock (const void *arg, long n) {
  uint64_t acc = 0;
  (void)arg;
  for (long i = 0; i < n; i++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    acc += (uint64_t)ts.tv_nsec;
  }
  sink += acc;
}

/* ------------------------------------------------- sustained windows */

typedef struct rate {
  double ids_per_s;
  uint64_t ticks, full, empty;    /* whole ticks counted; used up; none */
} rate;

static inline int cmprate (const void *a, const void *b) {
  double x = ((const rate *)a)->ids_per_s, y = ((const rate *)b)->ids_per_s;
  return x > y ? -1 : x < y;        /* fastest first */
}

#endif
