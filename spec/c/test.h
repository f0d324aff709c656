/*
** test.h: the smallest assertion helper that will do.  Every CHECK counts
** a pass or a failure; a failure prints file:line and what differed.
** t_done() prints the closing "N passed, N failed" line that CI readers
** look for, and gives main its exit status.
*/
#ifndef IDS_TEST_H
#define IDS_TEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long t_passed, t_failed;

/* Counts one check; on failure prints where, the expression and details. */
static int t_check (int ok, const char *file, int line, const char *expr,
                    const char *fmt, ...) {
  va_list ap;
  if (ok) { t_passed++; return 1; }
  t_failed++;
  fprintf(stderr, "%s:%d: FAIL %s", file, line, expr);
  if (fmt && fmt[0]) {
    fputs(": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
  }
  fputc('\n', stderr);
  return 0;
}

#define CHECK(c)  t_check(!!(c), __FILE__, __LINE__, #c, NULL)
#define CHECKF(c, ...)  t_check(!!(c), __FILE__, __LINE__, #c, __VA_ARGS__)

#define CHECK_U64(got, want) do { \
    uint64_t g_ = (got), w_ = (want); \
    t_check(g_ == w_, __FILE__, __LINE__, #got " == " #want, \
            "got %" PRIu64 ", want %" PRIu64, g_, w_); \
  } while (0)

#define CHECK_STR(got, want) do { \
    const char *g_ = (got), *w_ = (want); \
    t_check(strcmp(g_, w_) == 0, __FILE__, __LINE__, #got " == " #want, \
            "got \"%s\", want \"%s\"", g_, w_); \
  } while (0)

static int t_done (void) {
  printf("%ld passed, %ld failed\n", t_passed, t_failed);
  fflush(stdout);
  return t_failed != 0;
}

#endif
