/*
** idscheme: the command-line tool.
**
**   idscheme [-l FILE.lua]... list
**   idscheme info SCHEME
**   idscheme gen SCHEME [-n COUNT] [-e ENC] [-p NAME=VALUE]... [-o NAME=VALUE]...
**   idscheme decode SCHEME [-e ENC] [-p NAME=VALUE]... TEXT...
**   idscheme compose SCHEME [-e ENC] [-p NAME=VALUE]... FIELD=VALUE...
**
** -p sets a scheme parameter, -o a generator option (see `info`).  -l runs
** a Lua file first (to idscheme.define schemes); shipped scripted schemes
** (ulid, uuidv7, ...) load by name.  The command embeds Lua 5.4 for both.
**
** Exit status: 0 done; 1 a TEXT that does not decode; 2 a usage error (an
** option or argument the command does not take, a key given twice, a
** bad value), said on stderr naming the argument.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int luaopen_idscheme (lua_State *L);

static lua_State *L;          /* for scripted schemes */

static const char *progname = "idscheme";

static void die (const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "%s: ", progname);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  exit(2);
}

/* A Lua state where require "idscheme" is this program's own binding and
** the shipped scripts are found in IDS_LUADIR (or $IDSCHEME_LUA_DIR). */
static void startlua (void) {
  const char *dir = getenv("IDSCHEME_LUA_DIR");
  if (L) return;
  if ((L = luaL_newstate()) == NULL) die("%s%s", "cannot start Lua", "");
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_idscheme);
  lua_setfield(L, -2, "idscheme");
  lua_pop(L, 1);
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua", dir ? dir : IDS_LUADIR,
                  dir ? dir : IDS_LUADIR);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
}

/* A registered scheme, or a shipped script that defines it. */
static const ids_scheme *lookup (const char *name) {
  const ids_scheme *s = ids_scheme_find(name);
  if (s) return s;
  startlua();
  lua_getglobal(L, "require");
  lua_pushliteral(L, "idscheme");
  if (lua_pcall(L, 1, 1, 0) == 0) {
    lua_getfield(L, -1, "scheme");
    lua_pushstring(L, name);
    if (lua_pcall(L, 1, 0, 0) != 0) lua_pop(L, 1);   /* unknown: say below */
  }
  lua_pop(L, 1);
  return ids_scheme_find(name);
}

static void loadfile (const char *path) {
  startlua();
  if (luaL_dofile(L, path) != 0) die("%s%s", lua_tostring(L, -1), "");
}

static int64_t toint (const char *s, const char *what) {
  char *end;
  long long x;
  errno = 0;
  x = strtoll(s, &end, 10);
  if (end == s || *end) die("%s: '%s' is not an integer", what, s);
  if (errno == ERANGE)
    die(x < 0 ? "%s: '%s' is too small" : "%s: '%s' is too large", what, s);
  return (int64_t)x;
}

/* A field value, 0..2^64-1 (strtoull alone would wrap a negative one). */
static uint64_t touint (const char *s, const char *what) {
  const char *d = s + strspn(s, " \t\n\v\f\r");
  char *end;
  unsigned long long x;
  errno = 0;
  x = strtoull(s, &end, 10);
  if (end == s || *end) die("%s: '%s' is not an integer", what, s);
  if (*d == '-' && x != 0) die("%s: '%s' is negative", what, s);
  if (errno == ERANGE) die("%s: '%s' is too large", what, s);
  return (uint64_t)x;
}

/* NAME=VALUE into the option table described by defs. */
static void setopt (const ids_optdef *defs, int n, ids_optval *vals,
                    char *arg, const char *what) {
  char *eq = strchr(arg, '=');
  int i;
  if (eq == NULL) die("%s '%s' must be NAME=VALUE", what, arg);
  *eq = '\0';
  for (i = 0; i < n && strcmp(defs[i].name, arg) != 0; i++) ;
  if (i == n) die("unknown %s '%s'", what, arg);
  if (vals[i].set) die("%s '%s' given twice", what, arg);
  vals[i].set = 1;
  if (defs[i].type == IDS_OPT_INT) vals[i].i = toint(eq + 1, arg);
  else vals[i].s = eq + 1, vals[i].len = strlen(eq + 1);
}

typedef struct args {
  const ids_scheme *s;
  const ids_codec *codec;
  long count;
  ids_optval params[IDS_MAXOPTS], genopts[IDS_MAXOPTS];
  char **rest;
  int nrest;
} args;

/* `opts`: the options the command takes ("nepo"); `rest`: whether it
** takes arguments after them.  Anything else is a usage error. */
static void parse (int argc, char **argv, args *a, const char *cmd,
                   const char *opts, int rest_ok) {
  const ids_scheme *d;
  const char *enc = NULL;
  ids_error e;
  int i;
  if (argc < 1) die("%s%s", "missing scheme name", "");
  if ((d = lookup(argv[0])) == NULL) die("unknown scheme '%s'%s", argv[0], "");
  memset(a, 0, sizeof *a);
  a->count = 1;
  int gotn = 0;
  static char **rest;           /* static: reachable until exit */
  free(rest);
  a->rest = rest = calloc((size_t)argc, sizeof *a->rest);
  if (rest == NULL) die("%s%s", "out of memory", "");
  for (i = 1; i < argc; i++) {
    const char *o = argv[i];
    if (strcmp(o, "--") == 0) { i++; break; }
    if (o[0] != '-' || o[1] == '\0' || o[2] != '\0') {
      a->rest[a->nrest++] = argv[i];
      continue;
    }
    if (strchr(opts, o[1]) == NULL)
      die(strchr("nepo", o[1]) ? "option %s does not apply to %s" :
          "unknown option %s%.0s", o, cmd);
    if (i + 1 >= argc) die("option %s needs a value%s", o, "");
    switch (o[1]) {
      case 'n':
        if (gotn++) die("option %s given twice%s", o, "");
        a->count = (long)toint(argv[++i], "-n");
        if (a->count < 0) die("-n: '%s' is negative%s", argv[i], "");
        break;
      case 'e':
        if (enc) die("option %s given twice%s", o, "");
        enc = argv[++i];
        break;
      case 'p': setopt(d->params, d->nparams, a->params, argv[++i],
                       "parameter"); break;
      case 'o': setopt(d->genopts, d->ngenopts, a->genopts, argv[++i],
                       "generator option"); break;
      default: die("unknown option %s%s", o, "");
    }
  }
  for (; i < argc; i++) a->rest[a->nrest++] = argv[i];
  if (a->nrest > 0 && !rest_ok)
    die("%s takes no argument '%s'", cmd, a->rest[0]);
  if ((a->s = ids_scheme_open(d, a->params, &e)) == NULL) die("%s%s", e.msg, "");
  if (enc && (a->codec = ids_codec_find(a->s, enc, strlen(enc))) == NULL)
    die("unknown encoding '%s' for %s", enc, a->s->name);
}

static void show (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  char buf[IDS_TEXTMAX];
  ids_scheme_decompose(s, v, x);
  for (int i = 0; i < s->nfields; i++) {
    const char *q = s->fields[i].kind == IDS_KIND_QUALIFIER ?
                    ids_scheme_qualifier_name(s, x[i]) : NULL;
    if (q) printf("  %-12s %s\n", s->fields[i].name, q);
    else if (s->fields[i].bits > 64) {        /* wide fields: hex bytes */
      uint8_t b[IDS_MAXBYTES];
      ids_value_getbytes(v, s->fields[i].shift, s->fields[i].bits, b);
      printf("  %-12s ", s->fields[i].name);
      for (unsigned k = 0; k < (s->fields[i].bits + 7u) / 8; k++)
        printf("%02x", b[k]);
      printf(" (hex)\n");
    }
    else printf("  %-12s %" PRIu64 "\n", s->fields[i].name, x[i]);
  }
  for (int i = 0; i < s->ncodecs; i++) {
    ids_scheme_encode(s, s->codecs[i], v, buf);
    printf("  %-12s %s\n", s->codecs[i]->name, buf);
  }
}

static int cmd_list (int argc, char **argv) {
  const char **names;
  size_t n;
  if (argc > 0) die("list takes no argument '%s'%s", argv[0], "");
  startlua();                   /* list the shipped scripts too */
  if (luaL_dostring(L, "local i = require 'idscheme'\n"
                       "for _, n in ipairs(i.list()) do i.scheme(n) end"))
    die("%s%s", lua_tostring(L, -1), "");
  n = ids_scheme_list(NULL, 0);
  if ((names = malloc((n ? n : 1) * sizeof *names)) == NULL)
    die("%s%s", "out of memory", "");
  n = ids_scheme_list(names, n);       /* no one registers in between */
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *s = ids_scheme_find(names[i]);
    printf("%-12s %3u bits  %s\n", s->name, (unsigned)s->bits,
           s->codecs[0]->name);
  }
  free(names);
  return 0;
}

static int cmd_info (int argc, char **argv) {
  args a;
  parse(argc, argv, &a, "info", "p", 0);
  printf("%s: %u bits, %u bytes\nfields (most significant first):\n",
         a.s->name, (unsigned)a.s->bits, (unsigned)a.s->bytes);
  for (int i = 0; i < a.s->nfields; i++)
    printf("  %-12s %3u bits  %s\n", a.s->fields[i].name,
           (unsigned)a.s->fields[i].bits, ids_kind_names[a.s->fields[i].kind]);
  printf("encodings:");
  for (int i = 0; i < a.s->ncodecs; i++) printf(" %s", a.s->codecs[i]->name);
  printf("\nparameters (-p):");
  for (int i = 0; i < a.s->nparams; i++) printf(" %s", a.s->params[i].name);
  printf("\ngenerator options (-o):");
  for (int i = 0; i < a.s->ngenopts; i++)
    printf(" %s", a.s->genopts[i].name);
  printf("\n");
  return 0;
}

static int cmd_gen (int argc, char **argv) {
  args a;
  ids_generator g;
  ids_error e;
  char buf[IDS_TEXTMAX];
  parse(argc, argv, &a, "gen", "nepo", 0);
  if (ids_generator_init(&g, a.s, a.genopts, IDS_POLICY_HOLD, NULL, &e) != IDS_OK)
    die("%s%s", e.msg, "");
  for (long i = 0; i < a.count; i++) {
    ids_value v;
    if (ids_generator_next(&g, &v, &e) != IDS_OK) die("%s%s", e.msg, "");
    ids_scheme_encode(a.s, a.codec, &v, buf);
    puts(buf);
  }
  return 0;
}

static int cmd_decode (int argc, char **argv) {
  args a;
  int bad = 0;
  parse(argc, argv, &a, "decode", "ep", 1);
  if (a.nrest == 0) die("%s%s", "nothing to decode", "");
  for (int i = 0; i < a.nrest; i++) {
    ids_value v;
    ids_error e;
    if (ids_scheme_decode(a.s, a.codec, a.rest[i], strlen(a.rest[i]), &v, &e)
        != IDS_OK) {
      fprintf(stderr, "%s: %s\n", progname, e.msg);
      bad = 1;
      continue;
    }
    printf("%s\n", a.rest[i]);
    show(a.s, &v);
  }
  return bad;
}

/* Hex digits into exactly n bytes; 0 if they are not that. */
static int hexbytes (const char *h, uint8_t *b, size_t n) {
  if (strlen(h) != 2 * n) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(h + 2 * i, "%2x", &v) != 1 ||
        !strchr("0123456789abcdefABCDEF", h[2 * i]) ||
        !strchr("0123456789abcdefABCDEF", h[2 * i + 1]))
      return 0;
    b[i] = (uint8_t)v;
  }
  return 1;
}

/* Field f is set once, by its name or by the name hashed into it (as in
** Lua: "give field 'domain' or 'domain_name', not both"). */
static void given (const ids_scheme *s, const char **seen, int f,
                   const char *key) {
  if (seen[f] == NULL) { seen[f] = key; return; }
  if (strcmp(seen[f], key) == 0) die("field '%s' given twice%s", key, "");
  die("give field '%s' or '%s', not both", s->fields[f].name,
      s->fields[f].from);
}

static int cmd_compose (int argc, char **argv) {
  args a;
  uint8_t wide[IDS_MAXFIELDS][IDS_MAXBYTES];
  uint64_t x[IDS_MAXFIELDS] = {0};
  const char *seen[IDS_MAXFIELDS] = {0};   /* the key that set field i */
  ids_value v;
  ids_error e;
  char buf[IDS_TEXTMAX];
  parse(argc, argv, &a, "compose", "ep", 1);
  for (int i = 0; i < a.nrest; i++) {
    char *eq = strchr(a.rest[i], '=');
    int f;
    if (eq == NULL) die("'%s' must be FIELD=VALUE%s", a.rest[i], "");
    *eq = '\0';
    if ((f = ids_scheme_field(a.s, a.rest[i])) >= 0) {
      given(a.s, seen, f, a.rest[i]);
      if (a.s->fields[f].bits > 64) {
        if (!hexbytes(eq + 1, wide[f], (a.s->fields[f].bits + 7u) / 8))
          die("field '%s' takes %s hex bytes", a.rest[i], "its width in");
      }
      else if (a.s->fields[f].kind == IDS_KIND_QUALIFIER) {
        int64_t q = ids_scheme_qualifier(a.s, eq + 1, strlen(eq + 1));
        if (q < 0) die("unknown qualifier '%s'%s", eq + 1, "");
        x[f] = (uint64_t)q;
      }
      else x[f] = touint(eq + 1, a.rest[i]);
      continue;
    }
    for (f = 0; f < a.s->nfields; f++)
      if (a.s->fields[f].from && strcmp(a.s->fields[f].from, a.rest[i]) == 0)
        break;
    if (f == a.s->nfields || a.s->hashname == NULL)
      die("%s has no field '%s'", a.s->name, a.rest[i]);
    given(a.s, seen, f, a.rest[i]);
    if (a.s->hashname(a.s, f, eq + 1, strlen(eq + 1), &x[f], &e) != IDS_OK)
      die("%s%s", e.msg, "");
  }
  for (int i = 0; i < a.s->nfields; i++)
    if (!seen[i] && a.s->fields[i].kind == IDS_KIND_CONSTANT)
      x[i] = a.s->fields[i].value;
    else if (!seen[i])
      die("field '%s' missing%s", a.s->fields[i].name, "");
  if (ids_scheme_compose(a.s, x, &v, &e) != IDS_OK) die("%s%s", e.msg, "");
  for (int i = 0; i < a.s->nfields; i++)
    if (a.s->fields[i].bits > 64)
      ids_value_setbytes(&v, a.s->fields[i].shift, a.s->fields[i].bits,
                         wide[i]);
  ids_scheme_encode(a.s, a.codec, &v, buf);
  puts(buf);
  return 0;
}

static const struct {
  const char *name;
  int (*run) (int argc, char **argv);
} commands[] = {
  {"list", cmd_list}, {"info", cmd_info}, {"gen", cmd_gen},
  {"decode", cmd_decode}, {"compose", cmd_compose},
};

static int usage (FILE *f) {
  fprintf(f, "usage: %s [-l FILE.lua]... COMMAND ...\n"
             "       %s list\n"
             "       %s info SCHEME\n"
             "       %s gen SCHEME [-n COUNT] [-e ENC] [-p NAME=VALUE]... "
             "[-o NAME=VALUE]...\n"
             "       %s decode SCHEME [-e ENC] [-p NAME=VALUE]... TEXT...\n"
             "       %s compose SCHEME [-e ENC] [-p NAME=VALUE]... "
             "FIELD=VALUE...\n", progname, progname, progname, progname,
          progname, progname);
  return f == stdout ? 0 : 2;
}

int main (int argc, char **argv) {
  if (ids_init() != IDS_OK) die("%s%s", "cannot initialise libsodium", "");
  while (argc >= 3 && strcmp(argv[1], "-l") == 0) {
    loadfile(argv[2]);
    argc -= 2, argv += 2;
  }
  if (argc < 2) return usage(stderr);
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
    return usage(stdout);
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return commands[i].run(argc - 2, argv + 2);
  fprintf(stderr, "%s: unknown command '%s'\n", progname, argv[1]);
  return usage(stderr);
}
