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
#include <stdarg.h>
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

static void die (const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 1, 2), noreturn))
#endif
  ;

/* A usage error: the message on stderr, exit status 2. */
static void die (const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

/* A Lua state where require "idscheme" is this program's own binding and
** the shipped scripts are found in IDS_LUADIR (or $IDSCHEME_LUA_DIR). */
static void startlua (void) {
  const char *dir = getenv("IDSCHEME_LUA_DIR");
  if (L) return;
  if ((L = luaL_newstate()) == NULL) die("cannot start Lua");
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
  if (luaL_dofile(L, path) != 0) die("%s", lua_tostring(L, -1));
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

/* NAME=VALUE words into o: the core checks names, types and ranges. */
static void setopts (ids_options *o, char **words, int n, const char *what) {
  for (int i = 0; i < n; i++) {
    const char *eq = strchr(words[i], '=');
    ids_error e;
    if (eq == NULL) die("%s '%s' must be NAME=VALUE", what, words[i]);
    if (ids_options_set_text(o, words[i], (size_t)(eq - words[i]), eq + 1,
                             strlen(eq + 1), &e) != IDS_OK)
      die("%s", e.msg);
  }
}

typedef struct args {
  const ids_scheme *s;
  const ids_codec *codec;
  long count;
  ids_options genopts;
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
  int i, np = 0, no = 0;
  static char **words;          /* -p values, then -o values */
  ids_options params;
  if (argc < 1) die("missing scheme name");
  if ((d = lookup(argv[0])) == NULL) die("unknown scheme '%s'", argv[0]);
  memset(a, 0, sizeof *a);
  a->count = 1;
  int gotn = 0;
  static char **rest;           /* static: reachable until exit */
  free(rest);
  a->rest = rest = calloc((size_t)argc, sizeof *a->rest);
  free(words);
  words = calloc((size_t)argc, sizeof *words);
  if (rest == NULL || words == NULL) die("out of memory");
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
    if (i + 1 >= argc) die("option %s needs a value", o);
    switch (o[1]) {
      case 'n':
        if (gotn++) die("option %s given twice", o);
        a->count = (long)toint(argv[++i], "-n");
        if (a->count < 0) die("-n: '%s' is negative", argv[i]);
        break;
      case 'e':
        if (enc) die("option %s given twice", o);
        enc = argv[++i];
        break;
      case 'p': words[np++] = argv[++i]; break;
      case 'o': words[argc - 1 - no++] = argv[++i]; break;
      default: die("unknown option %s", o);
    }
  }
  for (; i < argc; i++) a->rest[a->nrest++] = argv[i];
  if (a->nrest > 0 && !rest_ok)
    die("%s takes no argument '%s'", cmd, a->rest[0]);
  ids_params_init(&params, d);
  setopts(&params, words, np, "parameter");
  if ((a->s = ids_scheme_open(d, &params, &e)) == NULL) die("%s", e.msg);
  ids_options_init(&a->genopts, a->s);
  setopts(&a->genopts, words + argc - no, no, "generator option");
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
  if (argc > 0) die("list takes no argument '%s'", argv[0]);
  startlua();                   /* list the shipped scripts too */
  if (luaL_dostring(L, "local i = require 'idscheme'\n"
                       "for _, n in ipairs(i.list()) do i.scheme(n) end"))
    die("%s", lua_tostring(L, -1));
  n = ids_scheme_list(NULL, 0);
  if ((names = malloc((n ? n : 1) * sizeof *names)) == NULL)
    die("out of memory");
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
  if (ids_generator_init(&g, a.s, &a.genopts, NULL, &e) != IDS_OK)
    die("%s", e.msg);
  for (long i = 0; i < a.count; i++) {
    ids_value v;
    if (ids_generator_next(&g, &v, &e) != IDS_OK) die("%s", e.msg);
    ids_scheme_encode(a.s, a.codec, &v, buf);
    puts(buf);
  }
  return 0;
}

static int cmd_decode (int argc, char **argv) {
  args a;
  int bad = 0;
  parse(argc, argv, &a, "decode", "ep", 1);
  if (a.nrest == 0) die("nothing to decode");
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

/* FIELD=VALUE words, each handed to the core as text: a number, a
** qualifier's name, a name hashed into its field, or a wide field's hex
** bytes (as `decode` shows them). */
static int cmd_compose (int argc, char **argv) {
  args a;
  ids_fields f;
  ids_value v;
  ids_error e;
  char buf[IDS_TEXTMAX];
  parse(argc, argv, &a, "compose", "ep", 1);
  ids_fields_init(&f, a.s);
  for (int i = 0; i < a.nrest; i++) {
    const char *eq = strchr(a.rest[i], '=');
    if (eq == NULL) die("'%s' must be FIELD=VALUE", a.rest[i]);
    if (ids_fields_set_text(&f, a.rest[i], (size_t)(eq - a.rest[i]), eq + 1,
                            strlen(eq + 1), &e) != IDS_OK)
      die("%s", e.msg);
  }
  if (ids_fields_compose(&f, &v, &e) != IDS_OK) die("%s", e.msg);
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
  if (ids_init() != IDS_OK) die("cannot initialise libsodium");
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
