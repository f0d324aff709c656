/*
** gen.c: `new` (`gen`): new IDs, one a line.
*/
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

#define BLOCK 4096

/* Progress on standard error for a long run (a million IDs or more) whose
** IDs go to a file or a pipe while stderr is a terminal: a line redrawn
** four times a second, and the last at the end. */
#define PROGRESS_FROM 1000000

static void progress (long done, long count) {
  fprintf(stderr, "\r%s: %ld of %ld IDs (%ld%%)", progname, done, count,
          (long)((double)done * 100 / (double)count));
  if (done == count) fputc('\n', stderr);
  fflush(stderr);
}

int cmd_new (int argc, char **argv, args *a) {
  static ids_value v[BLOCK];
  const ids_scheme *s;
  const ids_codec *c;
  ids_options o;
  ids_generator g;
  ids_error e;
  int show;
  int64_t next = 0;
  parse(argc, argv, a);
  takescheme(a);
  norest(a);
  s = openscheme(a, &o, a->cmd);
  if ((c = codecof(s, a->enc)) == NULL) c = s->codecs[0];
  show = a->count >= PROGRESS_FROM && isatty(2) && !isatty(1);
  if (ids_generator_init(&g, s, &o, NULL, &e) != IDS_OK) die("%s", e.msg);
  for (long left = a->count; left > 0; ) {
    size_t n = left < BLOCK ? (size_t)left : BLOCK;
    if (ids_generator_next_n(&g, v, n, &e) != IDS_OK) die("%s", e.msg);
    for (size_t i = 0; i < n; i++) {
      char *p = oroom(IDS_TEXTMAX + 1);
      size_t len = c->encode(c, &v[i], s->bits, p);
      p[len] = '\n';
      olen += len + 1;
    }
    left -= (long)n;
    if (show && (left == 0 || nowms() >= next)) {
      next = nowms() + 250;
      progress(a->count - left, a->count);
    }
  }
  ids_generator_close(&g);
  oflush();
  return 0;
}
