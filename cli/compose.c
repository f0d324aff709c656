/*
** compose.c: `compose`: the ID of given fields.
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* FIELD=VALUE words, each handed to the core as text: a number, a
** qualifier's name, a name hashed into its field, or a wide field's hex
** bytes (as `decode` shows them).  --json: the ID, its fields read back
** and its encodings, as an object. */
int cmd_compose (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const ids_codec *c;
  ids_fields f;
  ids_value v;
  ids_error e;
  char buf[IDS_TEXTMAX];
  parse(argc, argv, a);
  takescheme(a);
  s = openscheme(a, NULL, "compose");
  c = codecof(s, a->enc);
  ids_fields_init(&f, s);
  for (int i = 0; i < a->nrest; i++) {
    const char *eq = strchr(a->rest[i], '=');
    if (eq == NULL) die("'%s' must be FIELD=VALUE", a->rest[i]);
    if (ids_fields_set_text(&f, a->rest[i], (size_t)(eq - a->rest[i]),
                            eq + 1, strlen(eq + 1), &e) != IDS_OK)
      die("%s", e.msg);
  }
  if (ids_fields_compose(&f, &v, &e) != IDS_OK) die("%s", e.msg);
  ids_scheme_encode(s, c, &v, buf);
  if (!a->json) {
    puts(buf);
    return 0;
  }
  ostr("{\"id\":");
  ojsonz(buf);
  ochar(',');
  ojsonid(s, c, &v, 1);
  ostr("}\n");
  return 0;
}
