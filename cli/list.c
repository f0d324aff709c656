/*
** list.c: `list` and `info`: the schemes, and one scheme's fields, encodings,
** parameters and options.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char **schemenames (size_t *n, size_t extra) {
  size_t k = ids_scheme_list(NULL, 0);
  const char **names = malloc((k + extra + 1) * sizeof *names);
  if (names == NULL) die("out of memory");
  *n = ids_scheme_list(names, k);      /* no one registers in between */
  return names;
}

int cmd_list (int argc, char **argv, args *a) {
  size_t n;
  const char **names;
  parse(argc, argv, a);
  norest(a);
  names = schemenames(&n, 0);
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

/* Ticks of a time field, in words: "milliseconds", "ticks of 100 ns",
** "ticks of 1/65536 s". */
static void ounit (ids_unit u) {
  static const struct { uint64_t per_sec; const char *name; } named[] = {
    {1, "seconds"}, {100, "ticks of 10 ms"}, {1000, "milliseconds"},
    {1000000, "microseconds"}, {10000000, "ticks of 100 ns"},
    {1000000000, "nanoseconds"},
  };
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    if (u.per_sec_den == 1 && u.per_sec_num == named[i].per_sec) {
      ostr(named[i].name);
      return;
    }
  ostr("ticks of ");
  ou64(u.per_sec_den);
  ochar('/');
  ou64(u.per_sec_num);
  ostr(" s");
}

/* The bits of field f: "95..64", or its runs "127..96 95..80 75..64". */
static void obits (const ids_field *f) {
  for (int k = 0; k < (f->nparts ? f->nparts : 1); k++) {
    unsigned sh = f->nparts ? f->part[k].shift : f->shift,
             b = f->nparts ? f->part[k].bits : f->bits;
    if (k) ochar(' ');
    ou64(sh + b - 1);
    if (b > 1) { ostr(".."); ou64(sh); }
  }
}

/* The layout as an RFC-style bit-field diagram: 32 bits a row, the most
** significant first, two columns a bit, each run of a field named in its
** box (cut to fit; a split field named in each of its runs). */
static void odiagram (const ids_scheme *s) {
  int owner[IDS_MAXBITS];
  unsigned nb = s->bits;
  for (unsigned p = 0; p < nb; p++) owner[p] = -1;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    for (int k = 0; k < (f->nparts ? f->nparts : 1); k++) {
      unsigned sh = f->nparts ? f->part[k].shift : f->shift,
               b = f->nparts ? f->part[k].bits : f->bits;
      for (unsigned x = sh; x < sh + b && x < nb; x++) owner[nb - 1 - x] = i;
    }
  }
  ostr("layout (bit 0 the most significant, 32 a row):\n"
       " 0                   1                   2                   3\n"
       " 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1\n");
  for (unsigned r = 0; r < nb; r += 32) {
    unsigned end = r + 32 < nb ? r + 32 : nb;
    for (unsigned p = r; p < end; p++) ostr("+-");
    ostr("+\n|");
    for (unsigned p = r; p < end; ) {
      unsigned q = p, w;
      const char *name;
      size_t len, pad;
      while (q < end && owner[q] == owner[p]) q++;
      w = 2 * (q - p) - 1;                   /* the box's inside */
      name = owner[p] < 0 ? "" : s->fields[owner[p]].name;
      len = strlen(name) < w ? strlen(name) : w;
      pad = (w - len) / 2;
      for (size_t k = 0; k < pad; k++) ochar(' ');
      oput(name, len);
      for (size_t k = pad + len; k < w; k++) ochar(' ');
      ochar('|');
      p = q;
    }
    ochar('\n');
  }
  for (unsigned p = nb - (nb - 1) % 32 - 1; p < nb; p++) ostr("+-");
  ostr("+\n");
}

/* "key":ISO-8601,"key_ms":Unix ms: a time of info --json. */
static void ojsonat (const char *key, int64_t ms) {
  ochar('"'); ostr(key); ostr("\":\"");
  oiso(ms);
  ostr("\",\""); ostr(key); ostr("_ms\":");
  oi64(ms);
}

/* info --json: what the text form says, as one object (docs/idscheme.1).
** A field's "max" and a constant's "value" are values of the field, so
** they are typed as its values are (jsonstring), and "json_type" says
** which type that is. */
static void infojson (const ids_scheme *s) {
  const ids_about *ab = s->about;
  const char *nm;
  ids_options o;
  ids_value top = {{0, 0, 0}};
  int64_t last;
  int timed = 0;
  char unit[64];
  ostr("{\"name\":"); ojsonz(s->name);
  ostr(",\"bits\":"); ou64(s->bits);
  ostr(",\"bytes\":"); ou64(s->bytes);
  ostr(",\"title\":");
  if (ab && ab->title) ojsonz(ab->title); else ostr("null");
  ostr(",\"aliases\":[");
  for (int k = 0; ab && k < IDS_MAXALIASES && ab->aliases[k]; k++) {
    if (k) ochar(',');
    ojsonz(ab->aliases[k]);
  }
  ostr("],\"lengths\":");
  if (ab && ab->lengths[1]) {
    ochar('['); ou64(ab->lengths[0]); ochar(','); ou64(ab->lengths[1]);
    ochar(']');
  }
  else ostr("null");
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_TIME) {
      timed = 1;
      if (s->fields[i].bits <= 64)
        ids_field_set(&s->fields[i], &top, ~(uint64_t)0);
    }
  ostr(",\"time\":");
  if (timed) {
    ids_unit_name(s->unit, unit, sizeof unit);
    ostr("{\"unit\":"); ojsonz(unit);
    ochar(','); ojsonat("epoch", s->epoch_ms);
    if (ids_scheme_time_ms(s, &top, &last)) { ochar(','); ojsonat("last", last); }
    if (ab && ab->since_ms) { ochar(','); ojsonat("since", ab->since_ms); }
    ochar('}');
  }
  else ostr("null");
  ostr(",\"note\":");
  if (ab && ab->note) ojsonz(ab->note); else ostr("null");
  ostr(",\"fields\":[");
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    ids_value max = {{0, 0, 0}}, one = {{0, 0, 0}};
    if (i) ochar(',');
    ostr("{\"name\":"); ojsonz(f->name);
    ostr(",\"kind\":"); ojsonz(ids_field_kind(f));
    ostr(",\"bits\":"); ou64(f->bits);
    ostr(",\"json_type\":"); ostr(jsonstring(f) ? "\"string\"" : "\"number\"");
    ostr(",\"variable\":"); ostr(f->variable ? "true" : "false");
    /* a field's own values, one run or split, made as an ID holds them */
    if (f->bits > 64) {
      uint8_t b[IDS_MAXBYTES];
      memset(b, 0xff, sizeof b);
      ids_value_setbytes(&max, f->shift, f->bits, b);
    }
    else ids_field_set(f, &max, ~(uint64_t)0);
    ostr(",\"max\":");
    ofield(s, i, &max, f->bits > 64 ? 0 : ids_field_get(f, &max), 1);
    if (f->kind == IDS_KIND_CONSTANT) {
      ids_field_set(f, &one, f->value);
      ostr(",\"value\":");
      ofield(s, i, &one, f->value, 1);
    }
    ostr(",\"runs\":");
    if (s->layout && s->layout->compose) ostr("null");   /* KUID's */
    else {
      ochar('[');
      for (int k = 0; k < (f->nparts ? f->nparts : 1); k++) {
        if (k) ochar(',');
        ostr("{\"shift\":");
        ou64(f->nparts ? f->part[k].shift : f->shift);
        ostr(",\"bits\":");
        ou64(f->nparts ? f->part[k].bits : f->bits);
        ochar('}');
      }
      ochar(']');
    }
    ochar('}');
  }
  ostr("],\"encodings\":[");
  for (int i = 0; i < s->ncodecs; i++) {
    if (i) ochar(',');
    ojsonz(s->codecs[i]->name);
  }
  ostr("],\"params\":[");
  for (int i = 0; i < s->nparams; i++) {
    if (i) ochar(',');
    ojsonz(s->params[i].name);
  }
  ostr("],\"options\":[");
  ids_options_init(&o, s);
  for (int i = 0; (nm = ids_options_name(&o, i)) != NULL; i++) {
    if (i) ochar(',');
    ojsonz(nm);
  }
  ostr("]}\n");
}

/* What a scheme tells of itself: its format and aliases, its time (unit,
** epoch, the last time its field holds, the format's first IDs), and each
** field's kind, bits and values. */
int cmd_info (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const ids_about *ab;
  const char *nm;
  ids_options o;
  ids_value top = {{0, 0, 0}};
  int64_t last;
  int timed = 0;
  parse(argc, argv, a);
  takescheme(a);
  norest(a);
  s = openscheme(a, NULL, "info");
  if (a->json) {
    infojson(s);
    return 0;
  }
  ab = s->about;
  ostr(s->name); ostr(": "); ou64(s->bits); ostr(" bits, ");
  ou64(s->bytes); ostr(" bytes\n");
  if (ab && ab->title) { ostr("format: "); ostr(ab->title); ochar('\n'); }
  if (ab && ab->aliases[0]) {
    ostr("answers to:");
    for (int k = 0; k < IDS_MAXALIASES && ab->aliases[k]; k++) {
      ochar(' ');
      ostr(ab->aliases[k]);
    }
    ochar('\n');
  }
  if (ab && ab->lengths[1]) {
    ostr("other sizes: ");
    ou64(ab->lengths[0]);
    ostr("..");
    ou64(ab->lengths[1]);
    ostr(" characters of its alphabet, read by inspect by them alone\n");
  }
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_TIME) {
      timed = 1;
      ids_value_set(&top, 0, 0, 0);
      if (s->fields[i].bits <= 64)
        ids_field_set(&s->fields[i], &top, ~(uint64_t)0);
    }
  if (timed) {
    ostr("time: "); ounit(s->unit); ostr(" since ");
    oiso(s->epoch_ms);
    if (ids_scheme_time_ms(s, &top, &last)) { ostr(", until "); oiso(last); }
    ochar('\n');
    if (ab && ab->since_ms) {
      ostr("first IDs: "); oiso(ab->since_ms); ochar('\n');
    }
  }
  else if (ab && ab->note) { ostr("time: "); ostr(ab->note); ochar('\n'); }
  ostr("fields (most significant first):\n");
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    char *p = oroom(IDS_NAMEMAX + 40);
    olen += (size_t)snprintf(p, IDS_NAMEMAX + 40, "  %-12s %3u bits  %-9s ",
                             f->name, (unsigned)f->bits, ids_field_kind(f));
    if (f->kind == IDS_KIND_CONSTANT) { ostr("= "); ou64(f->value); }
    else if (f->variable) ostr("variable width");
    else if (f->bits <= 64) {
      ostr("0..");
      ou64(f->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << f->bits) - 1);
    }
    else { ostr("0..2^"); ou64(f->bits); ostr("-1"); }
    if (s->layout == NULL || s->layout->compose == NULL) {
      ostr("  bits ");        /* (a compose places them itself: KUID's) */
      obits(f);
    }
    ochar('\n');
  }
  if (s->layout == NULL || s->layout->compose == NULL) odiagram(s);
  ostr("encodings:");
  for (int i = 0; i < s->ncodecs; i++) { ochar(' '); ostr(s->codecs[i]->name); }
  ostr("\nparameters (-p):");
  for (int i = 0; i < s->nparams; i++) { ochar(' '); ostr(s->params[i].name); }
  ostr("\ngenerator options (-p):");
  ids_options_init(&o, s);
  for (int i = 0; (nm = ids_options_name(&o, i)) != NULL; i++) {
    ochar(' ');
    ostr(nm);
  }
  ochar('\n');
  return 0;
}
