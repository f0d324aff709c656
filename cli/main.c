/*
** idscheme: the command-line tool (see docs/idscheme.1).
**
**   idscheme list [--json]
**   idscheme info SCHEME [--json]
**   idscheme new SCHEME [-n COUNT] [-e ENC] [-p NAME=VALUE]... [--json]
**   idscheme inspect [-s SCHEME] [-e ENC] [--json] [TEXT|FILE|-]...
**   idscheme convert [-s SCHEME] [-e ENC] --to ENC [--json] [TEXT|FILE|-]...
**   idscheme decode SCHEME [-e ENC] [-p NAME=VALUE]... [--json] TEXT...
**   idscheme compose SCHEME [-e ENC] [-p NAME=VALUE]... [--json] FIELD=VALUE...
**   idscheme help [COMMAND]
**
** Every command takes -l FILE.lua (--scheme-file), which runs a Lua file
** first (to idscheme.define schemes).  The command embeds Lua 5.4 for that
** alone: every other scheme (ulid, uuidv7, ...) is in the core's registry,
** and a scheme a script defines decodes and encodes through the core too,
** its codecs being core codecs.
**
** -p NAME=VALUE sets a scheme parameter or a generator option, whichever
** the scheme has of that name (their names never clash within a scheme);
** -o is its old spelling.  The core checks every name, type and range.
**
** Exit status: 0 done; 1 some input did not decode (the others are still
** printed, in order); 2 a usage error, said on stderr naming the argument.
**
** This file: the arguments and the dispatch; cli.h says where the rest is.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"   /* ids__decimal_signed: the static library */

const char *progname = "idscheme";

/* ---------------------------------------------------------- arguments */

/* The core's decimal parser: digits and an optional '-', nothing else. */
static int64_t toint (const char *s, const char *what) {
  int64_t x;
  int r = ids__decimal_signed(s, strlen(s), &x);
  if (r == IDS_ERANGE)
    die(s[0] == '-' ? "%s: '%s' is too small" : "%s: '%s' is too large",
        what, s);
  if (r != IDS_OK) die("%s: '%s' is not an integer", what, s);
  return x;
}


/* Options: letter, long name, whether it takes a value. */
static const struct { char c; const char *name; int value; } optlist[] = {
  {'n', "count", 1}, {'e', "encoding", 1}, {'p', "param", 1},
  {'o', "option", 1}, {'s', "scheme", 1}, {'t', "to", 1},
  {'j', "json", 0}, {'l', "scheme-file", 1}, {'h', "help", 0},
  {'f', "format", 1}, {'a', "at", 1},
};

static void help (const char *cmd);

/* a->opts: the letters of the options the command takes (-l and --help
** every command does).  Options and words mix; "--" ends the options. */
void parse (int argc, char **argv, args *a) {
  int i, k, nopt = (int)(sizeof optlist / sizeof *optlist);
  int gotn = 0;
  const char *cmd = a->cmd, *opts = a->opts;
  /* once a process, kept to its end (takescheme moves a->rest on): held
  ** here so that they stay reachable, not leaked, when main returns */
  static char **rest, **words;
  a->count = 1;
  a->rest = rest = calloc((size_t)argc + 1, sizeof *a->rest);
  a->words = words = calloc((size_t)argc + 1, sizeof *a->words);
  if (a->rest == NULL || a->words == NULL) die("out of memory");
  for (i = 0; i < argc; i++) {
    const char *o = argv[i], *val = NULL, *eq = NULL;
    if (strcmp(o, "--") == 0) { i++; break; }
    if (o[0] != '-' || o[1] == '\0') { a->rest[a->nrest++] = argv[i]; continue; }
    for (k = 0; k < nopt; k++) {
      if (o[1] == '-') {
        size_t len = (eq = strchr(o, '=')) ? (size_t)(eq - o - 2)
                                           : strlen(o + 2);
        if (strlen(optlist[k].name) == len &&
            memcmp(optlist[k].name, o + 2, len) == 0) break;
        eq = NULL;
      }
      else if (o[2] == '\0' && o[1] == optlist[k].c &&
               optlist[k].c != 'j' && optlist[k].c != 't')
        break;
    }
    if (k == nopt) die("unknown option %s", o);
    if (optlist[k].c == 'h') { help(cmd); exit(0); }
    if (optlist[k].c != 'l' && strchr(opts, optlist[k].c) == NULL)
      die("option %s does not apply to %s", o, cmd);
    if (optlist[k].value) {
      if (eq) val = eq + 1;
      else if (i + 1 >= argc) die("option %s needs a value", o);
      else val = argv[++i];
    }
    else if (eq) die("option --%s takes no value", optlist[k].name);
    switch (optlist[k].c) {
      case 'n':
        if (gotn++) die("option %s given twice", o);
        a->count = (long)toint(val, "-n");
        if (a->count < 0) die("-n: '%s' is negative", val);
        break;
      case 'e':
        if (a->enc) die("option %s given twice", o);
        a->enc = val;
        break;
      case 't':
        if (a->to) die("option %s given twice", o);
        a->to = val;
        break;
      case 's':
        if (a->scheme) die("option %s given twice", o);
        a->scheme = val;
        break;
      case 'p': case 'o': a->words[a->nwords++] = (char *)val; break;
      case 'j': a->json = 1; break;
      case 'f':
        if (a->format) die("option %s given twice", o);
        checkformat(a->format = val);
        break;
      case 'l': loadfile(val); break;
      case 'a':
        if (a->at) die("option %s given twice", o);
        a->at = val;
        break;
    }
  }
  for (; i < argc; i++) a->rest[a->nrest++] = argv[i];
}

/* The first word as the scheme's name (commands that name one). */
void takescheme (args *a) {
  if (a->nrest < 1) die("%s: missing scheme name", a->cmd);
  a->scheme = a->rest[0];
  a->rest++, a->nrest--;
}

void norest (const args *a) {
  if (a->nrest > 0) die("%s takes no argument '%s'", a->cmd, a->rest[0]);
}

static int hasname (const ids_optdef *d, int n, const char *name, size_t len) {
  for (int i = 0; i < n; i++)
    if (strlen(d[i].name) == len && memcmp(d[i].name, name, len) == 0)
      return 1;
  return 0;
}

/* The core's message for a -p name it does not know (it lists the valid
** names of its kind) and, if the scheme has any, its parameters. */
static void badname (const ids_scheme *d, const char *msg) {
  char list[512];
  size_t k = 0;
  list[0] = '\0';
  for (int i = 0; i < d->nparams; i++)
    k += (size_t)snprintf(list + k, k < sizeof list ? sizeof list - k : 0,
                          "%s%s", i ? " " : "; parameters: ",
                          d->params[i].name);
  die("%s%s", msg, list);
}

/* The scheme of a->scheme with its parameters, and (if o) the generator
** options: each -p word goes to the parameters if the scheme has one of
** that name, else to the generator options. */
/* The scheme of a name or of an alias that one scheme answers to (NULL:
** none); an alias of several is a usage error that lists them. */
const ids_scheme *findscheme (const char *name) {
  const ids_scheme *s[64];
  char list[512];
  size_t n = ids_scheme_answering(name, s, 64), k = 0;
  if (n <= 1) return n ? s[0] : NULL;
  for (size_t i = 0; i < n && i < 64 && k < sizeof list - IDS_NAMEMAX - 2;
       i++)
    k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
                          s[i]->name);
  die("'%s' names %zu schemes (%s): name one", name, n, list);
  return NULL;
}

void unknownscheme (const char *name) {
  size_t n, k;
  /* room for every scheme's aliases too */
  const char **names = schemenames(&n, ids_scheme_list(NULL, 0) *
                                       IDS_MAXALIASES);
  char what[IDS_NAMEMAX + 64];
  k = n;
  for (size_t i = 0; i < n; i++) {          /* and the names people know */
    const ids_about *ab = ids_scheme_find(names[i])->about;
    for (int j = 0; ab && j < IDS_MAXALIASES && ab->aliases[j]; j++)
      names[k++] = ab->aliases[j];
  }
  snprintf(what, sizeof what, "unknown scheme '%s'", quote(name, strlen(name)));
  didyoumean(what, name, "schemes and aliases", names, k);
}

void unknowncodec (const ids_scheme *s, const char *enc) {
  const char *names[IDS_MAXCODECS];
  char what[IDS_NAMEMAX * 2 + 64];
  for (int i = 0; i < s->ncodecs; i++) names[i] = s->codecs[i]->name;
  snprintf(what, sizeof what, "unknown encoding '%s' for %s",
           quote(enc, strlen(enc)), s->name);
  didyoumean(what, enc, "its encodings", names, (size_t)s->ncodecs);
}

const ids_scheme *openscheme (const args *a, ids_options *o,
                                     const char *what) {
  const ids_scheme *d, *s;
  ids_options params;
  ids_error e;
  if ((d = findscheme(a->scheme)) == NULL) unknownscheme(a->scheme);
  ids_params_init(&params, d);
  for (int i = 0; i < a->nwords; i++) {
    const char *w = a->words[i], *eq = strchr(w, '=');
    size_t len;
    if (eq == NULL) die("parameter '%s' must be NAME=VALUE", w);
    len = (size_t)(eq - w);
    if (hasname(d->params, d->nparams, w, len) || o == NULL) {
      if (o == NULL && !hasname(d->params, d->nparams, w, len) &&
          hasname(d->genopts, d->ngenopts, w, len))
        die("generator option '%s' does not apply to %s", quote(w, len),
            what);
      if (ids_options_set_text(&params, w, len, eq + 1, strlen(eq + 1), &e)
          != IDS_OK)
        die("%s", e.msg);
    }
  }
  if ((s = ids_scheme_open(d, &params, &e)) == NULL) die("%s", e.msg);
  if (o) ids_options_init(o, s);
  for (int i = 0; o && i < a->nwords; i++) {
    const char *w = a->words[i], *eq = strchr(w, '=');
    size_t len = (size_t)(eq - w);
    if (hasname(d->params, d->nparams, w, len)) continue;
    if (ids_options_set_text(o, w, len, eq + 1, strlen(eq + 1), &e)
        != IDS_OK) {
      if (e.code == IDS_ENOENT) badname(d, e.msg);
      die("%s", e.msg);
    }
  }
  return s;
}

const ids_codec *codecof (const ids_scheme *s, const char *enc) {
  const ids_codec *c;
  if (enc == NULL) return NULL;
  if ((c = ids_codec_find(s, enc, strlen(enc))) == NULL)
    unknowncodec(s, enc);
  return c;
}

/* --------------------------------------------------------------- main */

static int cmd_help (int argc, char **argv, args *a);

/* What a command's words are (for completion). */
enum words {
  W_NONE, W_SCHEME, W_SCHEME_TEXTS, W_SCHEME_FIELDS, W_INPUTS, W_COMMAND
};

/* What every --json says of its types (docs/idscheme.1, JSON): */
#define JSON_TYPES \
  "In JSON a field's value is a string or a number by the field's width,\n" \
  "never by the value: a field that can hold more than 2^53 is a string\n" \
  "(decimal digits, or hex bytes over 64 bits), a qualifier its name, any\n" \
  "other a number; a time is \"time\" (ISO-8601 UTC) and \"time_ms\" (Unix\n" \
  "ms, a number), both null for none.\n"

static const struct command {
  const char *name;
  int (*run) (int argc, char **argv, args *a);
  const char *opts;           /* its option letters (parse) */
  enum words words;
  const char *summary;        /* --help's line; NULL: another's name */
  const char *synopsis;
  const char *about;
} commands[] = {
  {"list", cmd_list, "j", W_NONE, "list every scheme", "list [--json]",
   "Lists every scheme (built-in, shipped and -l defined): name, width and\n"
   "default encoding; with --json, an array with fields, encodings,\n"
   "parameters and generator options.\n"},
  {"info", cmd_info, "pj", W_SCHEME,
   "show a scheme's format, time, fields and encodings",
   "info SCHEME [-p NAME=VALUE]... [--json]",
   "Shows a scheme's fields, encodings, parameters and generator options.\n"
   "--json: one object: name, bits, bytes, title, aliases, time (unit,\n"
   "epoch, last, since: each ISO-8601 and _ms), fields (name, kind,\n"
   "bits, json_type, max, value, runs), encodings, params, options.\n"
   JSON_TYPES},
  {"new", cmd_new, "nepoaj", W_SCHEME, "write new IDs (also: gen)",
   "new SCHEME [-n COUNT] [-e ENCODING] [-p NAME=VALUE]... [--at TIME] "
   "[--json]",
   "Writes COUNT (default 1) new IDs, one a line.  -p sets a scheme\n"
   "parameter or a generator option by name (see info); -o is an old\n"
   "spelling of -p.  --at TIME makes IDs of that time instead of now:\n"
   "Unix ms, or UTC as 2017-01-01T00:00:00.123Z (a layout with a sequence\n"
   "alone takes past times and its node given).  --json: an object a line\n"
   "(JSON Lines, written as made): id, scheme, encoding, value (hex),\n"
   "fields, time (ISO-8601 UTC), time_ms (Unix ms).  `gen' is another\n"
   "name for this command.\n"
   JSON_TYPES},
  {"gen", cmd_new, "nepoaj", W_SCHEME, NULL, NULL, NULL},
  {"inspect", cmd_inspect, "sepjf", W_INPUTS,
   "say what an ID is: its scheme, fields and time",
   "inspect [-s SCHEME [-p NAME=VALUE]...] [-e ENCODING] [--json | -f TEMPLATE] "
   "[TEXT|FILE|-]...",
   "Says what each TEXT is (each line of a FILE, of standard input for -\n"
   "or when none is given): the best scheme and encoding that decode it,\n"
   "its fields, its time (ISO-8601 UTC and age), its other encodings and\n"
   "the other candidates.  Without -s every scheme is tried.  --json: one\n"
   "object a line per input: input, scheme, encoding, value, fields, time,\n"
   "time_ms, encodings, candidates (and evidence); one that does not read:\n"
   "input, line, error.  -f (--format) TEMPLATE: a line per input, {key}\n"
   "replaced: input, scheme, encoding, title, time, time_ms, ambiguous,\n"
   "hex, or a field's or an encoding's name (\"-\" where it has none);\n"
   "\\t and \\n as in C.  A word that names a file (or a pipe, <(cmd))\n"
   "is read as one.\n"
   JSON_TYPES},
  {"convert", cmd_convert, "setpj", W_INPUTS, "write IDs in another encoding",
   "convert [-s SCHEME] [-e ENCODING] --to ENCODING [--json] "
   "[TEXT|FILE|-]...",
   "Re-encodes each TEXT (or line of a FILE, or of standard input) in\n"
   "another encoding of the scheme that inspect finds best (or of -s\n"
   "SCHEME).  --json: an object a line per input: input, from (its\n"
   "encoding), id (the new text), scheme, encoding, value, fields, time,\n"
   "time_ms; one that does not convert: input, line, error.\n"
   JSON_TYPES},
  {"decode", cmd_decode, "epfj", W_SCHEME_TEXTS,
   "show the fields of IDs of a scheme",
   "decode SCHEME [-e ENCODING] [-p NAME=VALUE]... [--json | -f TEMPLATE] "
   "TEXT...",
   "Decodes each TEXT as SCHEME and shows its fields and encodings (or, with\n"
   "-f TEMPLATE, a line shaped as inspect's -f).  --json: an object a line\n"
   "per TEXT: input, scheme, encoding (the one that read it), value,\n"
   "fields, time, time_ms, encodings; one that does not decode: input,\n"
   "error.\n"
   JSON_TYPES},
  {"compose", cmd_compose, "epj", W_SCHEME_FIELDS,
   "make the ID of given fields",
   "compose SCHEME [-e ENCODING] [-p NAME=VALUE]... [--json] FIELD=VALUE...",
   "Makes the ID of the given fields (a number, a qualifier's name, a\n"
   "name hashed into its field, or a wide field's hex bytes).  --json: one\n"
   "object: id, scheme, encoding, value, fields (read back from the ID),\n"
   "time, time_ms, encodings.\n"
   JSON_TYPES},
  {"help", cmd_help, "", W_COMMAND, "show a command's usage",
   "help [COMMAND]",
   "Shows COMMAND's usage and what it does (`COMMAND --help' does too);\n"
   "without one, the list of commands.\n"},
};

#define NCOMMANDS ((int)(sizeof commands / sizeof *commands))

static void usage (FILE *f) {
  fprintf(f, "usage: %s [-l FILE.lua]... COMMAND [ARGS]\n\ncommands:\n",
          progname);
  for (int i = 0; i < NCOMMANDS; i++)
    if (commands[i].summary)
      fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n%s help COMMAND shows a command's usage.  Every command "
             "takes -l FILE.lua\n(--scheme-file) and --help; %s --version "
             "prints the version.\nSee idscheme(1).\n", progname, progname);
}

/* The command of that name (NULL: none); gen is new. */
static const struct command *command (const char *name) {
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0)
      return commands[i].synopsis ? &commands[i] : &commands[i - 1];
  return NULL;
}

static void unknowncommand (const char *name) {
  const char *names[NCOMMANDS];
  char what[128];
  for (int i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
  snprintf(what, sizeof what, "unknown command '%s'",
           quote(name, strlen(name)));
  didyoumean(what, name, "commands", names, NCOMMANDS);
}

static void help (const char *cmd) {
  const struct command *c = cmd ? command(cmd) : NULL;
  oflush();
  if (c == NULL) { usage(stdout); return; }
  printf("usage: %s [-l FILE.lua]... %s\n\n%s", progname, c->synopsis,
         c->about);
}

static int cmd_help (int argc, char **argv, args *a) {
  (void)a;
  if (argc > 1) die("help: one command at most");
  if (argc == 1 && (strcmp(argv[0], "-h") == 0 ||
                    strcmp(argv[0], "--help") == 0))
    argv[0] = "help";
  if (argc == 1 && command(argv[0]) == NULL) unknowncommand(argv[0]);
  help(argc ? argv[0] : NULL);
  return 0;
}

/* ------------------------------------------------------------ completion */

/* The shells' completion scripts (completions/) ask the command itself:
** `idscheme __complete WORD...`, the words after "idscheme" up to the one
** being completed (maybe empty), prints the candidates for that last
** word, a line each: commands, options, schemes and aliases, encodings,
** -p names and field names (ending in '='), or the line "@files" for a
** file name.  They come from the tables above and the registry: no list
** is kept twice. */
static void cand (const char *s, const char *tail) {
  ostr(s);
  ostr(tail);
  ochar('\n');
}

/* optlist's entry for w ("-e", "--encoding", "--encoding=hex"), or -1 */
static int optof (const char *w) {
  int nopt = (int)(sizeof optlist / sizeof *optlist);
  size_t len;
  if (w[0] != '-' || w[1] == '\0') return -1;
  len = w[1] == '-' ? strcspn(w + 2, "=") : 0;
  for (int k = 0; k < nopt; k++)
    if (w[1] == '-' ? strlen(optlist[k].name) == len &&
                      memcmp(optlist[k].name, w + 2, len) == 0
                    : w[2] == '\0' && w[1] == optlist[k].c &&
                      optlist[k].c != 'j' && optlist[k].c != 't')
      return k;
  return -1;
}

static void everyscheme (void) {
  size_t n;
  const char **names = schemenames(&n, 0);
  for (size_t i = 0; i < n; i++) cand(names[i], "");
  for (size_t i = 0; i < n; i++) {       /* aliases, each once */
    const ids_about *ab = ids_scheme_find(names[i])->about;
    for (int j = 0; ab && j < IDS_MAXALIASES && ab->aliases[j]; j++) {
      const ids_scheme *s[2];
      if (ids_scheme_answering(ab->aliases[j], s, 2) == 0 ||
          s[0] == ids_scheme_find(names[i]))
        cand(ab->aliases[j], "");
    }
  }
  free(names);
}

static void encodingsof (const ids_scheme *s) {
  size_t n = 1;
  const char **names = s ? NULL : schemenames(&n, 0);
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *t = s ? s : ids_scheme_find(names[i]);
    for (int j = 0; j < t->ncodecs; j++) {
      int seen = 0;                       /* every scheme's: each once */
      for (size_t x = 0; !s && x < i && !seen; x++) {
        const ids_scheme *u = ids_scheme_find(names[x]);
        for (int y = 0; y < u->ncodecs; y++)
          seen |= strcmp(u->codecs[y]->name, t->codecs[j]->name) == 0;
      }
      for (int y = 0; y < j; y++)
        seen |= strcmp(t->codecs[y]->name, t->codecs[j]->name) == 0;
      if (!seen) cand(t->codecs[j]->name, "");
    }
  }
  free(names);
}

static int cmd_complete (int argc, char **argv) {
  const struct command *c = NULL;
  const char *scheme = NULL, *cur, *prev;
  const ids_scheme *s;
  int nwords = 0, k;
  if (argc < 1) return 0;
  cur = argv[argc - 1];
  prev = argc > 1 ? argv[argc - 2] : "";
  for (int i = 0; i < argc - 1; i++) {
    const char *w = argv[i];
    if ((k = optof(w)) >= 0) {
      if (optlist[k].value && strchr(w, '=') == NULL && i + 1 < argc - 1) {
        if (optlist[k].c == 's') scheme = argv[i + 1];
        i++;
      }
      continue;
    }
    if (c == NULL) {
      if ((c = command(w)) == NULL) return 0;   /* nothing to offer */
    }
    else if (nwords++ == 0 && c->words >= W_SCHEME &&
             c->words <= W_SCHEME_FIELDS)
      scheme = w;
  }
  s = scheme ? ids_scheme_find(scheme) : NULL;
  if ((k = optof(prev)) >= 0 && optlist[k].value && !strchr(prev, '=')) {
    switch (optlist[k].c) {             /* the option's value */
    case 'l': cand("@files", ""); break;
    case 's': everyscheme(); break;
    case 'e': case 't': encodingsof(s); break;
    case 'p': case 'o':
      if (s) {
        ids_options o;
        const char *nm;
        const ids_scheme *open = ids_scheme_open(s, NULL, NULL);
        for (int i = 0; i < s->nparams; i++) cand(s->params[i].name, "=");
        if (open && c && c->words != W_INPUTS) {   /* inspect: params */
          ids_options_init(&o, open);
          for (int i = 0; (nm = ids_options_name(&o, i)) != NULL; i++)
            cand(nm, "=");
        }
      }
      break;
    }
    return 0;
  }
  if (cur[0] == '-') {                  /* options */
    for (size_t i = 0; i < sizeof optlist / sizeof *optlist; i++)
      if (c ? strchr(c->opts, optlist[i].c) || optlist[i].c == 'l' ||
              optlist[i].c == 'h'
            : optlist[i].c == 'l' || optlist[i].c == 'h') {
        char sh[3] = {'-', optlist[i].c, '\0'};
        if (optlist[i].c != 'j' && optlist[i].c != 't') cand(sh, "");
        cand("--", optlist[i].name);
      }
    if (c == NULL) cand("--version", "");
    return 0;
  }
  if (c == NULL) {
    for (int i = 0; i < NCOMMANDS; i++) cand(commands[i].name, "");
    return 0;
  }
  switch (c->words) {
  case W_COMMAND:
    for (int i = 0; i < NCOMMANDS && nwords == 0; i++)
      cand(commands[i].name, "");
    break;
  case W_SCHEME: case W_SCHEME_TEXTS: case W_SCHEME_FIELDS:
    if (nwords == 0) everyscheme();
    else if (c->words == W_SCHEME_FIELDS && s)
      for (int i = 0; i < s->nfields; i++) cand(s->fields[i].name, "=");
    break;
  case W_INPUTS: cand("@files", ""); break;
  case W_NONE: break;
  }
  return 0;
}

int main (int argc, char **argv) {
  args a;
  memset(&a, 0, sizeof a);
  setvbuf(stdout, NULL, _IONBF, 0);     /* obuf is the buffer */
  if (ids_init() != IDS_OK) die("cannot initialise libsodium");
  loadpath();
  decidecolour();
  if (argc >= 2 && strcmp(argv[1], "__complete") == 0) {
    cmd_complete(argc - 2, argv + 2);
    oflush();
    return 0;
  }
  for (; argc >= 2 && argv[1][0] == '-'; argc--, argv++) {
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
      printf("%s %s\n", progname, IDS_VERSION);
      return 0;
    }
    if ((strcmp(argv[1], "-l") == 0 || strcmp(argv[1], "--scheme-file") == 0)
        && argc >= 3) {
      loadfile(argv[2]);
      argc--, argv++;
      continue;
    }
    if (strncmp(argv[1], "--scheme-file=", 14) == 0) {
      loadfile(argv[1] + 14);
      continue;
    }
    fprintf(stderr, "%s: unknown option %s\n", progname, argv[1]);
    usage(stderr);
    return 2;
  }
  if (argc < 2) { usage(stderr); return 2; }
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(argv[1], commands[i].name) == 0) {
      int r;
      a.cmd = commands[i].name;
      a.opts = commands[i].opts;
      r = commands[i].run(argc - 2, argv + 2, &a);
      oflush();
      return r;
    }
  unknowncommand(argv[1]);
}
