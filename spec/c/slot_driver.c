/*
** slot_driver.c: claims a slot and, standing in for a generator, issues
** timestamped events at a high rate, checked the way a generator will
** check IDs (slots.h: one load of the limit word, the floor cached per
** slot generation).  The spec/slots shell tests read its log:
**   C pid slot floor now            claimed
**   I pid slot gen first last n floor
**                                   an interval of valid events on a slot
**                                   (rewritten with a later `last` as it
**                                   grows: take the largest per first)
**   L pid slot limit                the limit word changed (generation
**                                   bits cleared)
**   Z pid slot now last_send ttl    events refused from now: the limit
**                                   passed or went to 0
**   E pid message                   claim failed (also on stderr, exit 2)
**   R pid                           released, clean exit
**   X pid                           exit() without a release (atexit's)
** Usage: slot_driver URL NS BITS LOG [hold_ms] [ttl_ms] [margin_ms]
**        [timeout_ms] [offset_ns] [retry_ms]
** hold_ms 0: until SIGTERM; negative: -hold_ms, then exit() without
** releasing.  retry_ms: keep trying to claim that long.
*/
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "idscheme.h"
#include "slots.h"

static volatile sig_atomic_t stop;
static FILE *out;

static void onterm (int sig) { (void)sig; stop = 1; }

static int64_t mono_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t arg (int argc, char **argv, int i, int64_t dflt) {
  return argc > i ? strtoll(argv[i], NULL, 10) : dflt;
}

int main (int argc, char **argv) {
  ids_slot_options o;
  ids_slot *s = NULL;
  ids_error e;
  int64_t hold, retry, start, lastw = -1, first = 0, last = 0, n = 0;
  int64_t floor = 0, lastflush = 0;
  uint32_t slot = 0;
  unsigned gen = 0, bits;
  int open = 0, rc;
  long pid = (long)getpid();
  if (argc < 5) {
    fprintf(stderr, "usage: slot_driver URL NS BITS LOG [hold_ms] [ttl_ms] "
            "[margin_ms] [timeout_ms] [offset_ns] [retry_ms]\n");
    return 2;
  }
  ids_init();
  bits = (unsigned)atoi(argv[3]);
  out = fopen(argv[4], "a");
  if (out == NULL) {
    perror(argv[4]);
    return 2;
  }
  setvbuf(out, NULL, _IOLBF, 0);   /* whole lines: many writers, one file */
  hold = arg(argc, argv, 5, 0);
  memset(&o, 0, sizeof o);
  o.ttl_ms = arg(argc, argv, 6, 0);
  o.margin_ms = arg(argc, argv, 7, 0);
  o.timeout_ms = arg(argc, argv, 8, 0);
  o.clock_offset_ns = arg(argc, argv, 9, 0);
  o.log_interval_ms = 1000;
  retry = arg(argc, argv, 10, 0);
  signal(SIGTERM, onterm);
  signal(SIGINT, onterm);
  start = mono_ms();
  while ((rc = ids_slot_claim(argv[1], argv[2], bits, &o, &s, &e)) != IDS_OK
         && mono_ms() - start < retry && !stop)
    usleep(50000);
  if (rc != IDS_OK) {
    fprintf(out, "E %ld %s\n", pid, e.msg);
    fprintf(stderr, "slot_driver: %s\n", e.msg);
    return 2;
  }
  ids_slot_state(s, &slot, &floor, &gen);
  fprintf(out, "C %ld %u %" PRId64 " %" PRId64 "\n", pid, (unsigned)slot,
          floor, ids_slot_now(s));
  printf("slot %u\n", (unsigned)slot);
  fflush(stdout);
  start = mono_ms();
  while (!stop && (hold == 0 || mono_ms() - start < llabs(hold))) {
    int i;
    for (i = 0; i < 200; i++) {
      int64_t t = ids_slot_now(s);
      int64_t w = ids_slot_limit(s);        /* the ID path: one load */
      int valid = t <= w;
      if (valid && (unsigned)(w & IDS_SLOT_GENMASK) != gen) {
        /* the slot changed: close the old interval, re-read the state */
        if (open)
          fprintf(out, "I %ld %u %u %" PRId64 " %" PRId64 " %" PRId64
                  " %" PRId64 "\n", pid, (unsigned)slot, gen, first, last, n,
                  floor);
        open = 0;
        ids_slot_state(s, &slot, &floor, &gen);
        fprintf(out, "C %ld %u %" PRId64 " %" PRId64 "\n", pid,
                (unsigned)slot, floor, t);
        continue;
      }
      if ((w & ~IDS_SLOT_GENMASK) != lastw) {
        lastw = w & ~IDS_SLOT_GENMASK;
        fprintf(out, "L %ld %u %" PRId64 "\n", pid, (unsigned)slot, lastw);
      }
      if (valid && t <= floor) valid = 0;   /* waiting for the floor */
      else if (!valid && open) {
        ids_slot_stats st;
        ids_slot_stats_get(s, &st);
        fprintf(out, "I %ld %u %u %" PRId64 " %" PRId64 " %" PRId64 " %"
                PRId64 "\n", pid, (unsigned)slot, gen, first, last, n, floor);
        fprintf(out, "Z %ld %u %" PRId64 " %" PRId64 " %" PRId64 "\n", pid,
                (unsigned)slot, t, st.last_send_ns, st.ttl_ns);
        open = 0;
      }
      if (valid) {
        if (!open) {
          open = 1;
          first = t;
          n = 0;
        }
        last = t;
        n++;
      }
    }
    /* the open interval so far: a SIGKILLed driver leaves its last one */
    if (open && mono_ms() - lastflush >= 10) {
      lastflush = mono_ms();
      fprintf(out, "I %ld %u %u %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
              "\n", pid, (unsigned)slot, gen, first, last, n, floor);
    }
    usleep(200);
  }
  if (open)
    fprintf(out, "I %ld %u %u %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
            "\n", pid, (unsigned)slot, gen, first, last, n, floor);
  if (hold < 0) {   /* leave it to the atexit handler */
    fprintf(out, "X %ld\n", pid);
    exit(0);
  }
  ids_slot_release(s);
  fprintf(out, "R %ld\n", pid);
  fclose(out);
  return 0;
}
