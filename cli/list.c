/*
** list.c: `list` and `info`: the schemes, and one scheme's fields, encodings,
** parameters and options.
*/
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cmd_list (int argc, char **argv, args *a) {
  const char **names;
  size_t n;
  parse(argc, argv, a, "j");
  norest(a);
  n = ids_scheme_list(NULL, 0);
  if ((names = malloc((n ? n : 1) * sizeof *names)) == NULL)
    die("out of memory");
  n = ids_scheme_list(names, n);       /* no one registers in between */
  if (a->json) ochar('[');
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *s = ids_scheme_find(names[i]);
    if (!a->json) {
      char *p = oroom(IDS_NAMEMAX + 80);
      olen += (size_t)snprintf(p, IDS_NAMEMAX + 80, "%-12s %3u bits  %s\n",
                               s->name, (unsigned)s->bits,
                               s->codecs[0]->name);
      continue;
    }
    ostr(i ? ",\n {\"name\":" : "\n {\"name\":");
    ojsonz(s->name);
    ostr(",\"bits\":"); ou64(s->bits);
    ostr(",\"bytes\":"); ou64(s->bytes);
    ostr(",\"fields\":[");
    for (int k = 0; k < s->nfields; k++) {
      ostr(k ? ",{\"name\":" : "{\"name\":");
      ojsonz(s->fields[k].name);
      ostr(",\"bits\":"); ou64(s->fields[k].bits);
      ostr(",\"kind\":"); ojsonz(ids_field_kind(&s->fields[k]));
      ochar('}');
    }
    ostr("],\"encodings\":[");
    for (int k = 0; k < s->ncodecs; k++) {
      if (k) ochar(',');
      ojsonz(s->codecs[k]->name);
    }
    ostr("],\"params\":[");
    for (int k = 0; k < s->nparams; k++) {
      if (k) ochar(',');
      ojsonz(s->params[k].name);
    }
    ostr("],\"options\":[");
    for (int k = 0; k < s->ngenopts; k++) {
      if (k) ochar(',');
      ojsonz(s->genopts[k].name);
    }
    ostr("]}");
  }
  if (a->json) ostr("\n]\n");
  free(names);
  return 0;
}

int cmd_info (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const char *nm;
  ids_options o;
  parse(argc, argv, a, "p");
  takescheme(a);
  norest(a);
  s = openscheme(a, NULL, "info");
  printf("%s: %u bits, %u bytes\nfields (most significant first):\n",
         s->name, (unsigned)s->bits, (unsigned)s->bytes);
  for (int i = 0; i < s->nfields; i++)
    printf("  %-12s %3u bits  %s\n", s->fields[i].name,
           (unsigned)s->fields[i].bits, ids_field_kind(&s->fields[i]));
  printf("encodings:");
  for (int i = 0; i < s->ncodecs; i++) printf(" %s", s->codecs[i]->name);
  printf("\nparameters (-p):");
  for (int i = 0; i < s->nparams; i++) printf(" %s", s->params[i].name);
  printf("\ngenerator options (-p):");
  ids_options_init(&o, s);
  for (int i = 0; (nm = ids_options_name(&o, i)) != NULL; i++)
    printf(" %s", nm);
  printf("\n");
  return 0;
}
