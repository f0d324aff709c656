/*
** decode.c: `decode`: each text as a named scheme, its fields and encodings.
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The codec that reads t: -e's, else the one ids_scheme_decode would
** choose (the scheme's detection on the trimmed text, or its default),
** chosen here so that --json can name it. */
static const ids_codec *readerof (const ids_scheme *s, const ids_codec *c,
                                  const char *t) {
  size_t n = strlen(t);
  if (c) return c;
  trim(&t, &n);
  return s->detect && n ? s->detect(s, t, n) : s->codecs[0];
}

int cmd_decode (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const ids_codec *c;
  int bad = 0;
  parse(argc, argv, a);
  if (a->json && a->format) die("give --json or --format, not both");
  takescheme(a);
  s = openscheme(a, NULL, "decode");
  c = codecof(s, a->enc);
  if (a->nrest == 0) die("nothing to decode");
  for (int i = 0; i < a->nrest; i++) {
    const char *t = a->rest[i];
    const ids_codec *r = readerof(s, c, t);
    ids_value v;
    ids_error e;
    if (ids_scheme_decode(s, r, t, strlen(t), &v, &e) != IDS_OK) {
      if (a->json) {            /* a line for each input, as inspect's */
        ostr("{\"input\":");
        ojsonz(t);
        ostr(",\"error\":");
        ojsonz(e.msg);
        ostr("}\n");
      }
      oflush();
      fprintf(stderr, "%s: %s\n", progname, e.msg);
      bad = 1;
      continue;
    }
    if (a->json) {
      ostr("{\"input\":");
      ojsonz(t);
      ochar(',');
      ojsonid(s, r, &v, 1);
      ostr("}\n");
    }
    else if (a->format) oformat(a->format, t, strlen(t), s, c, &v, 0);
    else {
      ostr(t);
      ochar('\n');
      showfields(s, &v);
      showtime(s, &v);
      showencodings(s, &v, NULL);
    }
  }
  oflush();
  return bad;
}
