/*
** gen.c: `new` (`gen`): new IDs, one a line.
*/
#include "cli.h"

#define BLOCK 4096

int cmd_new (int argc, char **argv, args *a) {
  static ids_value v[BLOCK];
  const ids_scheme *s;
  const ids_codec *c;
  ids_options o;
  ids_generator g;
  ids_error e;
  parse(argc, argv, a);
  takescheme(a);
  norest(a);
  s = openscheme(a, &o, a->cmd);
  if ((c = codecof(s, a->enc)) == NULL) c = s->codecs[0];
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
  }
  ids_generator_close(&g);
  oflush();
  return 0;
}
