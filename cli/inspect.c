/*
** inspect.c: `inspect` and `convert`, the command's side of the inspect
** engine (inspect/inspect.h): which inputs, and how the readings show.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "inspect.h"

/* The schemes inspect and convert consider: every one registered, each
** with its default parameters, or -s's: a scheme (-p giving its
** parameters), or names and aliases separated by commas
** ("discord,twitter", "uuid").  The inspector is read-only: both threads
** use it. */
static ids_inspector *ins;
static int named;             /* -s named one scheme: its reading stands */
static const ids_scheme *one; /* that scheme */

static void knowschemes (const args *a) {
  const ids_scheme *s[IDS_INSPECT_MAX];
  size_t n = 0;
  ids_error e;
  const char *p = a->scheme;
  if (p == NULL) {
    if (a->nwords) die("option -p applies only with -s SCHEME");
    ins = ids_inspector_new(NULL, 0, &e);
  }
  else if (strchr(p, ',') == NULL && ids_scheme_find(p)) {
    s[0] = one = openscheme(a, NULL, a->cmd);
    ins = ids_inspector_new(s, 1, &e);
    named = 1;
  }
  else {
    if (a->nwords) die("option -p applies only with one scheme");
    for (;;) {
      char name[IDS_NAMEMAX];
      size_t len = strcspn(p, ","), k, m;
      if (len == 0 || len >= IDS_NAMEMAX)
        die("-s: '%s' is not a list of scheme names", a->scheme);
      memcpy(name, p, len);
      name[len] = '\0';
      m = ids_scheme_answering(name, s + n, IDS_INSPECT_MAX - n);
      if (m == 0) unknownscheme(name);
      if (n + m > IDS_INSPECT_MAX) die("-s: more than %d schemes",
                                       IDS_INSPECT_MAX);
      for (k = n; k < n + m; k++)     /* with their default parameters */
        if ((s[k] = ids_scheme_open(s[k], NULL, &e)) == NULL)
          die("%s", e.msg);
      n += m;
      if (p[len] == '\0') break;
      p += len + 1;
    }
    ins = ids_inspector_new(s, n, &e);
    named = n == 1;
    if (n == 1) one = s[0];
  }
  if (ins == NULL) die("%s", e.msg);
}

/* An encoding some scheme considered has (else a usage error). */
static void knowncodec (const char *enc) {
  ids_error e;
  if (enc && ids_inspector_encoding(ins, enc, strlen(enc), &e) != IDS_OK) {
    if (one) unknowncodec(one, enc);
    die("%s", e.msg);
  }
}

/* Why a reading of a timed scheme has no time: a version field that holds
** another value (a TypeID of a UUIDv4); 0 if none does. */
static int otherversion (const ids_scheme *s, const ids_value *v) {
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    uint64_t x = f->loose ? ids_field_get(f, v) : f->value;
    if (x == f->value) continue;
    ostr("none: ");
    ostr(f->name);
    ochar(' ');
    ou64(x);
    ostr(" (only ");
    ostr(f->name);
    ochar(' ');
    ou64(f->value);
    ostr(" has a time)");
    return 1;
  }
  return 0;
}

static void ohuman (const char *t, size_t n, const ids_candidate *cs,
                    int nc, int64_t now) {
  const ids_scheme *s = cs[0].scheme;
  const ids_about *about = s->about;
  int first = 1;
  oput(t, n);
  ostr(": ");
  osgr("1");
  ostr(s->name);
  osgr("0");
  ostr(" (");
  ostr(cs[0].codec->name);
  ostr(")\n");
  if (about && about->title) { olabel("format"); ostr(about->title); ochar('\n'); }
  if (cs[0].length) {           /* another size: no value was read */
    olabel("size");
    oi64(cs[0].length);
    ostr(" characters (read by its alphabet alone: no value)\n");
  }
  else showfields(s, &cs[0].value);
  olabel("time");
  if (cs[0].has_time) {
    oiso(cs[0].time_ms);
    ostr(", ");
    oage(cs[0].time_ms, now);
    ochar('\n');
    olabel("time_ms");
    oi64(cs[0].time_ms);
  }
  else if (!otherversion(s, &cs[0].value))
    ostr(about && about->note ? about->note : "none");
  ochar('\n');
  if (!cs[0].length) showencodings(s, &cs[0].value, cs[0].codec);
  if (cs[0].note || cs[0].weak) {
    char why[IDS_ERRMAX];
    ids_inspect_why(&cs[0], why, sizeof why);
    olabel(cs[0].weak ? "doubt" : "note");
    if (cs[0].weak) osgr("33");
    ostr(why);
    if (cs[0].weak) {
      ostr(": a guess, not a fact (-s names the scheme)");
      osgr("0");
    }
    ochar('\n');
  }
  if (cs[0].ambiguous) {
    olabel("ambiguous");
    osgr("33");
    ostr("a guess: nothing in the text tells it from");
    for (int i = 1; i < nc; i++)
      if (cs[i].ambiguous) {
        ostr(first ? " " : ", ");
        ostr(cs[i].scheme->name);
        first = 0;
      }
    ostr(" (-s names the scheme)");
    osgr("0");
    ochar('\n');
  }
  for (int i = 1; i < nc; i++) {
    olabel(i == 1 ? "candidates" : "");
    ostr(cs[i].scheme->name);
    ostr(" (");
    ostr(cs[i].codec->name);
    ochar(')');
    if (cs[i].has_time) { ochar(' '); oiso(cs[i].time_ms); }
    if (cs[i].refused || !cs[i].plausible) {
      osgr("2");
      ostr(cs[i].refused ? ", refused" : ", implausible");
      osgr("0");
    }
    ochar('\n');
  }
}

/* Bits of evidence, to a tenth. */
static void oevidence (double bits) {
  char b[32];
  int n = snprintf(b, sizeof b, "%.1f", bits);
  if (strcmp(b, "-0.0") == 0) n = snprintf(b, sizeof b, "0.0");
  oput(b, (size_t)n);
}

static void ovaluehex (const ids_candidate *c) {
  const ids_scheme *s = c->scheme;
  uint8_t b[IDS_MAXBYTES];
  if (c->length) { ostr("null"); return; }     /* no value was read */
  ids_value_to_bytes(&c->value, b, s->bytes);
  ochar('"');
  ohex(b, s->bytes);
  ochar('"');
}

static void ojsonobj (const char *t, size_t n, const ids_candidate *cs,
                      int nc) {
  const ids_scheme *s = cs[0].scheme;
  ostr("{\"input\":");
  ojson(t, n);
  ostr(",\"scheme\":");
  ojsonz(s->name);
  ostr(",\"encoding\":");
  ojsonz(cs[0].codec->name);
  ostr(",\"plausible\":");
  ostr(cs[0].plausible ? "true" : "false");
  ostr(",\"ambiguous\":");
  ostr(cs[0].ambiguous ? "true" : "false");
  ostr(",\"weak\":");
  ostr(cs[0].weak ? "true" : "false");
  ostr(",\"evidence\":");
  oevidence(cs[0].evidence);
  if (cs[0].note) {
    ostr(",\"doubt\":");
    ojsonz(cs[0].note);
  }
  if (s->about && s->about->title) {
    ostr(",\"title\":");
    ojsonz(s->about->title);
  }
  if (s->about && s->about->note) {
    ostr(",\"note\":");
    ojsonz(s->about->note);
  }
  if (cs[0].length) {
    ostr(",\"length\":");
    oi64(cs[0].length);
  }
  ostr(",\"value\":");
  ovaluehex(&cs[0]);
  ochar(',');
  ojsonfields(s, cs[0].length ? NULL : &cs[0].value);
  ochar(',');
  ojsontime(cs[0].has_time, cs[0].time_ms);
  ostr(",\"encodings\":{");
  for (int i = 0; i < s->ncodecs && !cs[0].length; i++) {
    char buf[IDS_TEXTMAX];
    size_t len = ids_scheme_encode(s, s->codecs[i], &cs[0].value, buf);
    if (i) ochar(',');
    ojsonz(s->codecs[i]->name);
    ochar(':');
    ojson(buf, len);
  }
  ostr("},\"candidates\":[");
  for (int i = 1; i < nc; i++) {
    if (i > 1) ochar(',');
    ostr("{\"scheme\":");
    ojsonz(cs[i].scheme->name);
    ostr(",\"encoding\":");
    ojsonz(cs[i].codec->name);
    ostr(",\"value\":");
    ovaluehex(&cs[i]);
    ochar(',');
    ojsontime(cs[i].has_time, cs[i].time_ms);
    ostr(",\"plausible\":");
    ostr(cs[i].plausible ? "true" : "false");
    ostr(",\"ambiguous\":");
    ostr(cs[i].ambiguous ? "true" : "false");
    ostr(",\"refused\":");
    ostr(cs[i].refused ? "true" : "false");
    ostr(",\"evidence\":");
    oevidence(cs[i].evidence);
    ochar('}');
  }
  ostr("]}\n");
}

static void ojsonerr (long no, const char *t, size_t n, const char *msg) {
  ostr("{\"input\":");
  ojson(t, n);
  if (no && infile()) { ostr(",\"file\":"); ojsonz(infile()); }
  if (no) { ostr(",\"line\":"); ou64((uint64_t)no); }
  ostr(",\"error\":");
  ojsonz(msg);
  ostr("}\n");
}

/* The readings of t[0..n), or its error (nc 0, e saying why). */
static int readings (const args *a, const char *t, size_t n, int64_t now,
                     ids_candidate *cs, ids_error *e) {
  return ids_inspect(ins, t, n, a->enc, a->enc ? strlen(a->enc) : 0, now,
                     cs, IDS_INSPECT_MAX, e);
}

static int inspect1 (const args *a, const char *t, size_t n, long no,
                     int64_t now) {
  ids_candidate cs[IDS_INSPECT_MAX];
  ids_error e;
  int nc = readings(a, t, n, now, cs, &e);
  if (nc > 0 && cs[0].refused && !named) {
    char why[IDS_ERRMAX / 2];   /* too little to stand on */
    ids_inspect_why(&cs[0], why, sizeof why);
    ids_fail(&e, IDS_EINVAL, "no scheme reads it plausibly (the best, %s "
             "in %s: %s; -s names the scheme)", cs[0].scheme->name,
             cs[0].codec->name, why);
    nc = 0;
  }
  if (nc == 0) {
    if (a->json) ojsonerr(no, t, n, e.msg);
    inerror(no, t, n, e.msg);
    return 1;
  }
  trim(&t, &n);                 /* the input as the engine read it */
  if (a->json) ojsonobj(t, n, cs, nc);
  else if (a->format)           /* another size (nanoid(10)): no value */
    oformat(a->format, t, n, cs[0].scheme, cs[0].codec,
            cs[0].length ? NULL : &cs[0].value, cs[0].ambiguous);
  else ohuman(t, n, cs, nc, now);
  return 0;
}

int cmd_inspect (int argc, char **argv, args *a) {
  parse(argc, argv, a);
  if (a->json && a->format) die("give --json or --format, not both");
  knowschemes(a);
  knowncodec(a->enc);
  return eachline(a, inspect1);
}

static int convert1 (const args *a, const char *t, size_t n, long no,
                     int64_t now) {
  ids_candidate cs[IDS_INSPECT_MAX];
  ids_error e;
  int nc = readings(a, t, n, now, cs, &e), i;
  const ids_codec *to = NULL;
  const char *why = NULL;
  if (nc > 0 && cs[0].length)
    why = "it is read by its alphabet alone (another size of its format): "
          "it holds no value to convert";
  else if (nc > 0 && !named &&
           (cs[0].refused || cs[0].weak || cs[0].ambiguous))
    why = cs[0].ambiguous ? "ambiguous: several schemes read it alike (-s "
          "names the scheme)" : cs[0].refused ? "no scheme reads it "
          "plausibly (-s names the scheme)" : "a guess: too little "
          "evidence that it is one (-s names the scheme)";
  else {
    for (i = 0; i < nc; i++)         /* the best that has that form */
      if ((to = ids_codec_find(cs[i].scheme, a->to, strlen(a->to)))) break;
    if (nc == 0 || i == nc)
      why = nc ? "no scheme that decodes it has encoding given by --to"
               : e.msg;
  }
  if (why) {
    if (a->json) ojsonerr(no, t, n, why);
    inerror(no, t, n, why);
    return 1;
  }
  if (a->json) {
    char out[IDS_TEXTMAX];
    trim(&t, &n);
    ostr("{\"input\":");
    ojson(t, n);
    ostr(",\"from\":");
    ojsonz(cs[i].codec->name);
    ostr(",\"id\":");
    ojson(out, ids_scheme_encode(cs[i].scheme, to, &cs[i].value, out));
    ochar(',');
    ojsonid(cs[i].scheme, to, &cs[i].value, 0);
    ostr("}\n");
    return 0;
  }
  olen += ids_scheme_encode(cs[i].scheme, to, &cs[i].value,
                            oroom(IDS_TEXTMAX + 1));
  ochar('\n');
  return 0;
}

int cmd_convert (int argc, char **argv, args *a) {
  parse(argc, argv, a);
  if (a->to == NULL) die("%s: --to ENCODING is required", a->cmd);
  knowschemes(a);
  knowncodec(a->to);
  knowncodec(a->enc);
  return eachline(a, convert1);
}
