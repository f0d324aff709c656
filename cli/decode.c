/*
** decode.c: `decode`: each text as a named scheme, its fields and encodings.
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_decode (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const ids_codec *c;
  int bad = 0;
  parse(argc, argv, a);
  takescheme(a);
  s = openscheme(a, NULL, "decode");
  c = codecof(s, a->enc);
  if (a->nrest == 0) die("nothing to decode");
  for (int i = 0; i < a->nrest; i++) {
    ids_value v;
    ids_error e;
    if (ids_scheme_decode(s, c, a->rest[i], strlen(a->rest[i]), &v, &e)
        != IDS_OK) {
      oflush();
      fprintf(stderr, "%s: %s\n", progname, e.msg);
      bad = 1;
      continue;
    }
    if (a->format) {
      oformat(a->format, a->rest[i], strlen(a->rest[i]), s, c, &v, 0);
      continue;
    }
    ostr(a->rest[i]);
    ochar('\n');
    showfields(s, &v);
    showtime(s, &v);
    showencodings(s, &v, NULL);
  }
  oflush();
  return bad;
}
