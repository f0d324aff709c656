/*
** gen.c: `new` (`gen`): new IDs, one a line (with --json, an object a
** line: JSON Lines, so that a million IDs stream as they are made).
*/
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define BLOCK 4096

/* Progress on standard error for a long run (a million IDs or more) whose
** IDs go to a file or a pipe while stderr is a terminal: a line redrawn
** four times a second with the rate and the time left, and the last at
** the end with the time it took. */
#define PROGRESS_FROM 1000000

/* "12.5 s", "3 min 20 s", "1 h 05 min" */
static void span (char *out, size_t n, double s) {
  long t = (long)(s + 0.5);
  if (s < 60) snprintf(out, n, "%.1f s", s);
  else if (t < 3600) snprintf(out, n, "%ld min %02ld s", t / 60, t % 60);
  else snprintf(out, n, "%ld h %02ld min", t / 3600, t / 60 % 60);
}

/* done of count, the rate so far, and the time left at that rate (or, at
** the end, the time it took); padded so that a shorter line redrawn over
** a longer one leaves nothing behind */
static void progress (long done, long count, int64_t start_ms) {
  double secs = (double)(nowms() - start_ms) / 1000, rate;
  char when[32];
  rate = secs > 0 ? (double)done / secs : 0;
  if (done == count) span(when, sizeof when, secs);
  else if (rate > 0) span(when, sizeof when, (double)(count - done) / rate);
  else snprintf(when, sizeof when, "?");
  fprintf(stderr, "\r%s: %ld of %ld IDs (%ld%%), %.2f M IDs/s, %s %-12s",
          progname, done, count, (long)((double)done * 100 / (double)count),
          rate / 1e6, done == count ? "took" : "left", when);
  if (done == count) fputc('\n', stderr);
  fflush(stderr);
}

/* --at TIME: Unix ms (digits, a sign allowed), or UTC written
** YYYY-MM-DDTHH:MM:SS[.fff][Z] ('T' or a space) */
static int64_t attime (const char *t) {
  struct tm tm = {0};
  int y, mo, d, h, mi, sec, n = 0, k = 0;
  long ms = 0;
  char sep;
  if (strspn(t + (*t == '-'), "0123456789") == strlen(t + (*t == '-')) &&
      t[*t == '-'] != '\0' && strlen(t) < 19)
    return (int64_t)strtoll(t, NULL, 10);
  if (sscanf(t, "%4d-%2d-%2d%c%2d:%2d:%2d%n", &y, &mo, &d, &sep, &h, &mi,
             &sec, &n) != 7 || (sep != 'T' && sep != ' ') || n != 19)
    die("--at: '%s' is neither Unix ms nor a UTC time such as "
        "2017-01-01T00:00:00.123Z", t);
  if (t[n] == '.') {
    for (k = 0; k < 3 && t[n + 1 + k] >= '0' && t[n + 1 + k] <= '9'; k++)
      ms = ms * 10 + (t[n + 1 + k] - '0');
    if (k == 0) die("--at: '%s': no digit after the '.'", t);
    for (int j = k; j < 3; j++) ms *= 10;
    n += 1 + k;
  }
  if (t[n] == 'Z') n++;
  if (t[n] != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
      mi > 59 || sec > 60)
    die("--at: '%s' is not a UTC time such as 2017-01-01T00:00:00.123Z "
        "(only Z, no other zone)", t);
  tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d;
  tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = sec;
  return (int64_t)timegm(&tm) * 1000 + ms;
}

int cmd_new (int argc, char **argv, args *a) {
  static ids_value v[BLOCK];
  const ids_scheme *s;
  const ids_codec *c;
  ids_options o;
  ids_generator g;
  ids_error e;
  int show;
  int64_t next = 0, start = nowms();
  parse(argc, argv, a);
  takescheme(a);
  norest(a);
  s = openscheme(a, &o, a->cmd);
  if ((c = codecof(s, a->enc)) == NULL) c = s->codecs[0];
  show = a->count >= PROGRESS_FROM && isatty(2) && !isatty(1);
  if (ids_generator_init(&g, s, &o, NULL, &e) != IDS_OK) die("%s", e.msg);
  for (long left = a->count; left > 0; ) {
    size_t n = left < BLOCK ? (size_t)left : BLOCK;
    if (a->at) {                          /* IDs of a given time */
      int64_t ms = attime(a->at);
      for (size_t i = 0; i < n; i++)
        if (ids_generator_next_at(&g, ms, &v[i], &e) != IDS_OK)
          die("%s", e.msg);
    }
    else if (ids_generator_next_n(&g, v, n, &e) != IDS_OK) die("%s", e.msg);
    for (size_t i = 0; i < n && a->json; i++) {   /* JSON Lines: streams */
      char t[IDS_TEXTMAX];
      ostr("{\"id\":");
      ojson(t, c->encode(c, &v[i], s->bits, t));
      ochar(',');
      ojsonid(s, c, &v[i], 0);
      ostr("}\n");
    }
    for (size_t i = 0; i < n && !a->json; i++) {
      char *p = oroom(IDS_TEXTMAX + 1);
      size_t len = c->encode(c, &v[i], s->bits, p);
      p[len] = '\n';
      olen += len + 1;
    }
    left -= (long)n;
    if (show && (left == 0 || nowms() >= next)) {
      next = nowms() + 250;
      progress(a->count - left, a->count, start);
    }
  }
  ids_generator_close(&g);
  oflush();
  return 0;
}
