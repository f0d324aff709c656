/*
** bench_slots.c: what a leased slot costs the ID path.  A generator with a
** slot adds one atomic load of the lease word and one compare per ID
** (ids__slot_limit, internal.h: inline, as the generators load it); this
** times a stand-in ID path (read the wall clock, fold it into a value)
** without and with that check, side by side in one run, on a real lease
** (the local store, in a temporary directory).  The contract is at most
** 2 ns more.
**
**   bench_slots [--quick] [WORD]
*/
#include <unistd.h>

#include "bench.h"
#include "slots.h"
#include "internal.h"

static ids_slot *lease;

/* the ID path's own work: clock read and a fold */
static void b_plain (const void *arg, long n) {
  uint64_t acc = 0;
  (void)arg;
  for (long i = 0; i < n; i++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    acc += (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  }
  sink += acc;
}

/* the same, refusing a time past the lease's limit */
static void b_checked (const void *arg, long n) {
  uint64_t acc = 0;
  (void)arg;
  for (long i = 0; i < n; i++) {
    struct timespec ts;
    int64_t t;
    clock_gettime(CLOCK_REALTIME, &ts);
    t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (__builtin_expect(t > ids__slot_limit(lease), 0)) {
      ids_error e;
      ids_slot_fail(lease, &e);
      die("slot", &e);
    }
    acc += (uint64_t)t;
  }
  sink += acc;
}

/* the check alone, in a loop with no clock read */
static void b_loop (const void *arg, long n) {
  uint64_t acc = 0;
  (void)arg;
  for (long i = 0; i < n; i++) acc += (uint64_t)i;
  sink += acc;
}

static void b_loop_checked (const void *arg, long n) {
  uint64_t acc = 0;
  (void)arg;
  for (long i = 0; i < n; i++) {
    if (__builtin_expect(i > ids__slot_limit(lease), 0)) die("slot", NULL);
    acc += (uint64_t)i;
  }
  sink += acc;
}

int main (int argc, char **argv) {
  char dir[] = "/tmp/idscheme-bench-slots.XXXXXX", url[64];
  timing a, b, c, d;
  ids_error e;
  int ran;
  bench_name = "bench_slots";
  (void)cmprate;            /* bench.h's sustained-rate helpers: unused */
  (void)oncpu_since;
  bench_start(argc, argv);
  if (mkdtemp(dir) == NULL) die("mkdtemp", NULL);
  snprintf(url, sizeof url, "local:%s", dir);
  if (ids_slot_claim(url, "bench", 4, NULL, &lease, &e) != IDS_OK)
    die("claim", &e);
  measure("slot: clock read alone", b_clock, NULL, NULL);
  ran = measure("slot: clock + fold (no check)", b_plain, NULL, &a);
  ran &= measure("slot: clock + fold + lease check", b_checked, NULL, &b);
  if (ran)
    printf("%-46s %8.2f ns/op\n", "slot: the check costs the ID path",
           b.best - a.best);
  ran = measure("slot: loop (no check)", b_loop, NULL, &c);
  ran &= measure("slot: loop + lease check", b_loop_checked, NULL, &d);
  if (ran)
    printf("%-46s %8.2f ns/op\n", "slot: the check alone", d.best - c.best);
  ids_slot_release(lease);
  {
    char f[128];
    snprintf(f, sizeof f, "%s/bench.00000", dir);
    unlink(f);
    rmdir(dir);
  }
  return 0;
}
