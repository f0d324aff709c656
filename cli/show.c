/*
** show.c: how the command shows an ID: its time (ISO-8601 and age), its
** fields, its encodings.
*/
#include <time.h>

#include "cli.h"

/* --------------------------------------------------------------- time */

int64_t nowms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void digits (char *p, int64_t x, int n) {
  while (n--) p[n] = (char)('0' + x % 10), x /= 10;
}

/* ISO-8601 UTC with milliseconds.  Days to a civil date by the
** proleptic Gregorian 400-year cycle (146097 days), March-based years. */
void oiso (int64_t ms) {
  int64_t days = ms / 86400000, r = ms % 86400000;
  int64_t z, era, doe, yoe, y, doy, mp, d, m;
  char *p;
  if (r < 0) r += 86400000, days--;
  z = days + 719468;
  era = (z >= 0 ? z : z - 146096) / 146097;
  doe = z - era * 146097;
  yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  /* by hand: millions of lines, and snprintf cost more than the rest */
  if (y < 0 || y > 9999) {              /* no ID's time; say it plainly */
    ochar(y < 0 ? '-' : '+');
    ou64(y < 0 ? 0 - (uint64_t)y : (uint64_t)y);
  }
  else {
    digits(oroom(4), y, 4);
    olen += 4;
  }
  p = oroom(20);
  p[0] = '-';
  digits(p + 1, m, 2);
  p[3] = '-';
  digits(p + 4, d, 2);
  p[6] = 'T';
  digits(p + 7, r / 3600000, 2);
  p[9] = ':';
  digits(p + 10, r / 60000 % 60, 2);
  p[12] = ':';
  digits(p + 13, r / 1000 % 60, 2);
  p[15] = '.';
  digits(p + 16, r % 1000, 3);
  p[19] = 'Z';
  olen += 20;
}

/* "3 h ago", "in 2 d", "now" */
void oage (int64_t ms, int64_t now) {
  static const struct { const char *u; int64_t ms; } units[] = {
    {"y", 31556952000}, {"d", 86400000}, {"h", 3600000}, {"min", 60000},
    {"s", 1000},
  };
  int64_t diff = now - ms, a = diff < 0 ? -diff : diff;
  int k = 0;
  if (a < 1000) { ostr("now"); return; }
  while (a < 2 * units[k].ms && k < 4) k++;
  if (k > 0 && a >= units[k - 1].ms && a < 2 * units[k - 1].ms) k--;
  if (diff < 0) ostr("in ");
  ou64((uint64_t)(a / units[k].ms));
  ochar(' ');
  ostr(units[k].u);
  if (diff > 0) ostr(" ago");
}

/* An ID's time, if its scheme has one: ISO-8601 and Unix ms. */
void showtime (const ids_scheme *s, const ids_value *v) {
  int64_t ms;
  if (!ids_scheme_time_ms(s, v, &ms)) return;
  olabel("time");
  oiso(ms);
  ochar('\n');
  olabel("time_ms");
  oi64(ms);
  ochar('\n');
}

/* ------------------------------------------------------------- fields */

/* Whether a field's value is a JSON string, decided by the layout alone:
** a reader knows from a scheme's fields how to read every ID of it, and
** a value that happens to be small does not change its type.  A field that
** can hold more than 2^53 (the integers a double holds exactly, which is
** what most JSON readers make of a number) is a string, and so is a
** qualifier (its name); a narrower field is a number. */
int jsonstring (const ids_field *f) {
  return f->bits > 53 || f->kind == IDS_KIND_QUALIFIER;
}

/* One field's value as text: a qualifier's name, a wide field's hex
** bytes, or the number; json: typed by jsonstring (decimal digits up to
** 64 bits, hex bytes over 64, as decode shows and compose takes them). */
void ofield (const ids_scheme *s, int i, const ids_value *v,
                    uint64_t x, int json) {
  const ids_field *f = &s->fields[i];
  const char *q = f->kind == IDS_KIND_QUALIFIER ?
                  ids_scheme_qualifier_name(s, x) : NULL;
  int quoted = json && jsonstring(f);
  if (q) { if (json) ojsonz(q); else ostr(q); return; }
  if (quoted) ochar('"');
  if (f->bits > 64) {
    uint8_t b[IDS_MAXBYTES];
    ids_value_getbytes(v, f->shift, f->bits, b);
    ohex(b, (f->bits + 7u) / 8);
    if (!json) ostr(" (hex)");
  }
  else ou64(x);
  if (quoted) ochar('"');
}

void showfields (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  ids_scheme_decompose(s, v, x);
  for (int i = 0; i < s->nfields; i++) {
    olabel(s->fields[i].name);
    ofield(s, i, v, x[i], 0);
    ochar('\n');
  }
}

/* Every encoding but `skip`. */
void showencodings (const ids_scheme *s, const ids_value *v,
                           const ids_codec *skip) {
  for (int i = 0; i < s->ncodecs; i++) {
    if (s->codecs[i] == skip) continue;
    olabel(s->codecs[i]->name);
    olen += ids_scheme_encode(s, s->codecs[i], v, oroom(IDS_TEXTMAX + 1));
    ochar('\n');
  }
}

/* ---------------------------------------------------------------- JSON */

/* "fields":{...}, each field typed by jsonstring; v NULL: none (a text
** read by its characters alone). */
void ojsonfields (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  ostr("\"fields\":{");
  if (v) ids_scheme_decompose(s, v, x);
  for (int i = 0; v && i < s->nfields; i++) {
    if (i) ochar(',');
    ojsonz(s->fields[i].name);
    ochar(':');
    ofield(s, i, v, x[i], 1);
  }
  ochar('}');
}

/* "time":ISO-8601,"time_ms":Unix ms (a number: IDS_EPOCH_MAX is below
** 2^53), or both null for no time. */
void ojsontime (int has, int64_t ms) {
  if (!has) { ostr("\"time\":null,\"time_ms\":null"); return; }
  ostr("\"time\":\"");
  oiso(ms);
  ostr("\",\"time_ms\":");
  oi64(ms);
}

void ojsonid (const ids_scheme *s, const ids_codec *c, const ids_value *v,
              int all) {
  uint8_t b[IDS_MAXBYTES];
  int64_t ms = 0;
  int has = ids_scheme_time_ms(s, v, &ms);
  ostr("\"scheme\":");
  ojsonz(s->name);
  ostr(",\"encoding\":");
  ojsonz((c ? c : s->codecs[0])->name);
  ostr(",\"value\":\"");
  ids_value_to_bytes(v, b, s->bytes);
  ohex(b, s->bytes);
  ostr("\",");
  ojsonfields(s, v);
  ochar(',');
  ojsontime(has, ms);
  if (!all) return;
  ostr(",\"encodings\":{");
  for (int i = 0; i < s->ncodecs; i++) {
    char buf[IDS_TEXTMAX];
    size_t len = ids_scheme_encode(s, s->codecs[i], v, buf);
    if (i) ochar(',');
    ojsonz(s->codecs[i]->name);
    ochar(':');
    ojson(buf, len);
  }
  ochar('}');
}

/* ------------------------------------------------------ --format TEMPLATE */

/* The keys every reading has; beside them, any field's name and any
** encoding's name. */
static const char *const fmtkeys[] = {
  "input", "scheme", "encoding", "title", "time", "time_ms", "ambiguous",
  "hex", NULL
};

/* Whether name is a field or an encoding of some registered scheme. */
static int anyname (const char *name, size_t len) {
  size_t n;
  const char **names = schemenames(&n, 0);
  int found = 0;
  for (size_t i = 0; i < n && !found; i++) {
    const ids_scheme *s = ids_scheme_find(names[i]);
    for (int k = 0; k < s->nfields; k++)
      if (strlen(s->fields[k].name) == len &&
          memcmp(s->fields[k].name, name, len) == 0)
        found = 1;
    if (ids_codec_find(s, name, len)) found = 1;
  }
  free(names);
  return found;
}

void checkformat (const char *fmt) {
  for (const char *p = fmt; *p; p++) {
    const char *end;
    size_t len;
    int k = 0;
    if (*p != '{') continue;
    if (p[1] == '{') { p++; continue; }
    if ((end = strchr(p, '}')) == NULL)
      die("--format: '{' without '}' in '%s'", quote(fmt, strlen(fmt)));
    len = (size_t)(end - p - 1);
    while (fmtkeys[k] && !(strlen(fmtkeys[k]) == len &&
                          memcmp(fmtkeys[k], p + 1, len) == 0))
      k++;
    if (!fmtkeys[k] && !anyname(p + 1, len))
      die("--format: unknown key '{%s}' (keys: input, scheme, encoding, "
          "title, time, time_ms, ambiguous, hex, and any field's or "
          "encoding's name)", quote(p + 1, len));
    p = end;
  }
}

void oformat (const char *fmt, const char *t, size_t n, const ids_scheme *s,
              const ids_codec *c, const ids_value *v, int ambiguous) {
  /* v NULL: a text read by its characters alone (nanoid(10)) */
  uint64_t x[IDS_MAXFIELDS];
  int64_t ms;
  int timed = v && ids_scheme_time_ms(s, v, &ms);
  if (v) ids_scheme_decompose(s, v, x);
  for (const char *p = fmt; *p; p++) {
    const char *end;
    size_t len;
    const ids_codec *e;
    int i;
    if (*p == '\\' && (p[1] == 'n' || p[1] == 't' || p[1] == '\\')) {
      p++;
      ochar(*p == 'n' ? '\n' : *p == 't' ? '\t' : '\\');
      continue;
    }
    if (*p != '{' || p[1] == '{') {
      ochar(*p);
      if (*p == '{' || (*p == '}' && p[1] == '}')) p++;
      continue;
    }
    end = strchr(p, '}');             /* checkformat saw it */
    len = (size_t)(end - p - 1);
#define KEY(k) (len == sizeof k - 1 && memcmp(p + 1, k, len) == 0)
    if (KEY("input")) oput(t, n);
    else if (KEY("scheme")) ostr(s->name);
    else if (KEY("encoding")) ostr((c ? c : s->codecs[0])->name);
    else if (KEY("title")) ostr(s->about && s->about->title ? s->about->title
                                                           : s->name);
    else if (KEY("time")) { if (timed) oiso(ms); else ochar('-'); }
    else if (KEY("time_ms")) { if (timed) oi64(ms); else ochar('-'); }
    else if (KEY("ambiguous")) ostr(ambiguous ? "true" : "false");
    else if (v == NULL) ochar('-');   /* read by its characters alone */
    else if (KEY("hex")) {
      uint8_t b[IDS_MAXBYTES];
      ids_value_to_bytes(v, b, s->bytes);
      ohex(b, s->bytes);
    }
    else {
      for (i = 0; i < s->nfields; i++)
        if (strlen(s->fields[i].name) == len &&
            memcmp(s->fields[i].name, p + 1, len) == 0)
          break;
      if (i < s->nfields) ofield(s, i, v, x[i], 0);
      else if ((e = ids_codec_find(s, p + 1, len)) != NULL)
        olen += ids_scheme_encode(s, e, v, oroom(IDS_TEXTMAX + 1));
      else ochar('-');                /* another scheme's name */
    }
#undef KEY
    p = end;
  }
  ochar('\n');
}
