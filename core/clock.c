/*
** clock.c: wall and monotonic time in nanoseconds.  Generators take any
** ids_clock, so tests can inject their own.
*/
#include <time.h>

#include "idscheme.h"

static int64_t readclock (void *ctx) {
  struct timespec ts;
  clock_gettime((clockid_t)(intptr_t)ctx, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

const ids_clock ids_clock_realtime = {readclock, (void *)CLOCK_REALTIME};
const ids_clock ids_clock_monotonic = {readclock, (void *)CLOCK_MONOTONIC};
