/*
** idscheme: the command-line tool (see docs/idscheme.1).
**
**   idscheme list [--json]
**   idscheme info SCHEME
**   idscheme new SCHEME [-n COUNT] [-e ENC] [-p NAME=VALUE]...   (gen)
**   idscheme inspect [-s SCHEME] [-e ENC] [--json] [TEXT...]
**   idscheme convert [-s SCHEME] [-e ENC] --to ENC [TEXT...]
**   idscheme decode SCHEME [-e ENC] [-p NAME=VALUE]... TEXT...
**   idscheme compose SCHEME [-e ENC] [-p NAME=VALUE]... FIELD=VALUE...
**
** Every command takes -l FILE.lua (--scheme-file), which runs a Lua file
** first (to idscheme.define schemes); shipped scripted schemes (ulid,
** uuidv7, ...) load by name.  The command embeds Lua 5.4 for both, but
** decodes and encodes through the core alone: a scripted scheme's codecs
** are core codecs.
**
** -p NAME=VALUE sets a scheme parameter or a generator option, whichever
** the scheme has of that name (their names never clash within a scheme);
** -o is its old spelling.  The core checks every name, type and range.
**
** Exit status: 0 done; 1 some input did not decode (the others are still
** printed, in order); 2 a usage error, said on stderr naming the argument.
*/
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "idscheme.h"
#include "internal.h"   /* ids__decimal_signed: the static library */
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int luaopen_idscheme (lua_State *L);

static lua_State *L;          /* for scripted schemes */

static const char *progname = "idscheme";

/* ------------------------------------------------------------- output */

/* stdout through one large buffer: `new` and `inspect` write millions of
** lines, and stdio's per-call locking would cost more than the IDs.  The
** state is per thread: a thread that answers part of a block of input
** (see eachline) writes into a buffer of its own that grows instead of
** being flushed, and the main thread writes it out in order. */
static char obuf0[1 << 17];
static _Thread_local char *obuf = obuf0;
static _Thread_local size_t olen, ocap = sizeof obuf0;
static _Thread_local int ogrow;

static void owrite (const char *s, size_t n) {
  if (n && fwrite(s, 1, n, stdout) != n) {
    fprintf(stderr, "%s: write error: %s\n", progname, strerror(errno));
    exit(1);
  }
}

static void oflush (void) {
  owrite(obuf, olen);
  olen = 0;
}

static void die (const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 1, 2), noreturn))
#endif
  ;

/* Room for n more bytes (n < sizeof obuf0). */
static char *oroom (size_t n) {
  if (olen + n > ocap) {
    if (!ogrow) oflush();
    else {
      size_t cap = ocap ? ocap : sizeof obuf0;
      while (cap < olen + n) cap *= 2;
      if ((obuf = realloc(obuf, cap)) == NULL) die("out of memory");
      ocap = cap;
    }
  }
  return obuf + olen;
}

static void oput (const char *s, size_t n) {
  if (n > sizeof obuf0 / 2 && !ogrow) {
    oflush();
    owrite(s, n);
    return;
  }
  memcpy(oroom(n), s, n);
  olen += n;
}

static void ostr (const char *s) { oput(s, strlen(s)); }
static void ochar (char c) { *oroom(1) = c; olen++; }

/* Fixed-size copies compile to a few moves where a call to memcpy with a
** variable length would cost more than the digits: 24 bytes go out, and
** only the digits count. */
static void ou64 (uint64_t x) {
  char t[48] = {0}, *end = t + 24, *p = end;
  do *--p = (char)('0' + x % 10); while (x /= 10);
  memcpy(oroom(24), p, 24);
  olen += (size_t)(end - p);
}

static void oi64 (int64_t x) {
  if (x < 0) ochar('-'), ou64(0 - (uint64_t)x);
  else ou64((uint64_t)x);
}

/* s padded with spaces to 13 columns (at least one space), after two
** spaces: the fields' column.  Names are short: one piece of room. */
static void olabel (const char *s) {
  size_t n = strlen(s);
  char *p = oroom(n + 16);
  memset(p, ' ', 16);
  memcpy(p + 2, s, n);
  p[2 + n] = ' ';
  olen += 2 + (n < 12 ? 13 : n + 1);
}

static void ohex (const uint8_t *b, size_t n) {
  static const char hx[] = "0123456789abcdef";
  char *p = oroom(2 * n);
  for (size_t k = 0; k < n; k++)
    p[2 * k] = hx[b[k] >> 4], p[2 * k + 1] = hx[b[k] & 15];
  olen += 2 * n;
}

/* A JSON string: quotes, backslashes and control bytes escaped, bytes
** that are not UTF-8 replaced by U+FFFD (an ID's text may be anything). */
static void ojson (const char *s, size_t n) {
  ochar('"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') ochar('\\'), ochar((char)c);
    else if (c < 0x20 || c == 0x7f) {
      char *p = oroom(6);
      snprintf(p, 7, "\\u%04x", c);
      olen += 6;
    }
    else if (c < 0x80) ochar((char)c);
    else {
      size_t k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
      size_t j = 1;
      unsigned char c2 = i + 1 < n ? (unsigned char)s[i + 1] : 0;
      if (c > 0xf4 || (c == 0xe0 && c2 < 0xa0) || (c == 0xed && c2 > 0x9f) ||
          (c == 0xf0 && c2 < 0x90) || (c == 0xf4 && c2 > 0x8f))
        k = 0;                  /* overlong, surrogate or past U+10FFFF */
      while (j <= k && i + j < n && ((unsigned char)s[i + j] & 0xc0) == 0x80)
        j++;
      if (k == 0 || j <= k) ostr("\xef\xbf\xbd");        /* U+FFFD */
      else oput(s + i, k + 1);
      i += (k && j > k) ? k : 0;
    }
  }
  ochar('"');
}

static void ojsonz (const char *s) { ojson(s, strlen(s)); }

/* ------------------------------------------------------------- errors */

/* A usage error: the message on stderr, exit status 2. */
static void die (const char *fmt, ...) {
  va_list ap;
  oflush();
  fprintf(stderr, "%s: ", progname);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

/* Text for a message: printable ASCII and UTF-8 as they are, other bytes
** as \xNN, at most about 60 bytes. */
static const char *quote (const char *s, size_t n) {
  static _Thread_local char q[256];
  size_t k = 0;
  for (size_t i = 0; i < n && k < 240; i++) {
    unsigned char c = (unsigned char)s[i];
    if (i >= 60) { memcpy(q + k, "...", 3); k += 3; break; }
    if (c == '"' || c == '\\') q[k++] = '\\', q[k++] = (char)c;
    else if (c >= 0x20 && c != 0x7f) q[k++] = (char)c;
    else k += (size_t)snprintf(q + k, 5, "\\x%02X", c);
  }
  q[k] = '\0';
  return q;
}

/* --------------------------------------------------------------- Lua */

/* Where the shipped scripts are: $IDSCHEME_LUA_DIR; else IDS_LUADIR_REL
** from this program's own directory, as installed (any prefix); else the
** source tree's IDS_LUADIR, for a program run from its build tree. */
static const char *luadir (void) {
  static char buf[4096];
  const char *dir = getenv("IDSCHEME_LUA_DIR");
  if (dir) return dir;
#ifdef IDS_LUADIR_REL
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    int k = snprintf(buf, sizeof buf, "%s/%s", exe, IDS_LUADIR_REL);
    char probe[4096 + 64];
    snprintf(probe, sizeof probe, "%s/idscheme/schemes/init.lua", buf);
    if (k > 0 && (size_t)k < sizeof buf && access(probe, R_OK) == 0)
      return buf;
  }
#endif
  return IDS_LUADIR;
}

/* A Lua state where require "idscheme" is this program's own binding and
** the shipped scripts are found by luadir(). */
static void startlua (void) {
  const char *dir;
  if (L) return;
  dir = luadir();
  if ((L = luaL_newstate()) == NULL) die("cannot start Lua");
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_idscheme);
  lua_setfield(L, -2, "idscheme");
  lua_pop(L, 1);
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua", dir, dir);
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

/* Every shipped scripted scheme, once: `list` and `inspect` without -s
** consider them all. */
static void loadall (void) {
  static int done;
  if (done++) return;
  startlua();
  if (luaL_dostring(L, "local i = require 'idscheme'\n"
                       "for _, n in ipairs(i.list()) do i.scheme(n) end"))
    die("%s", luaL_tolstring(L, -1, NULL));
}

/* A script's error may be any value (error({}), an object with
** __tostring): luaL_tolstring says it as Lua's print would. */
static void loadfile (const char *path) {
  startlua();
  if (luaL_dofile(L, path) != 0) die("%s", luaL_tolstring(L, -1, NULL));
}

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

typedef struct args {
  const char *cmd;            /* as typed: "gen" or "new" */
  const char *scheme;         /* -s, or the first word of a SCHEME command */
  const char *enc, *to;
  long count;
  int json;
  char **words;               /* -p and -o values */
  int nwords;
  char **rest;
  int nrest;
} args;

/* Options: letter, long name, whether it takes a value. */
static const struct { char c; const char *name; int value; } optlist[] = {
  {'n', "count", 1}, {'e', "encoding", 1}, {'p', "param", 1},
  {'o', "option", 1}, {'s', "scheme", 1}, {'t', "to", 1},
  {'j', "json", 0}, {'l', "scheme-file", 1}, {'h', "help", 0},
};

static void help (const char *cmd);

/* `opts`: the letters of the options the command takes (-l and --help
** every command does).  Options and words mix; "--" ends the options. */
static void parse (int argc, char **argv, args *a, const char *opts) {
  int i, k, nopt = (int)(sizeof optlist / sizeof *optlist);
  int gotn = 0;
  const char *cmd = a->cmd;
  a->count = 1;
  a->rest = calloc((size_t)argc + 1, sizeof *a->rest);
  a->words = calloc((size_t)argc + 1, sizeof *a->words);
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
      case 'l': loadfile(val); break;
    }
  }
  for (; i < argc; i++) a->rest[a->nrest++] = argv[i];
}

/* The first word as the scheme's name (commands that name one). */
static void takescheme (args *a) {
  if (a->nrest < 1) die("%s: missing scheme name", a->cmd);
  a->scheme = a->rest[0];
  a->rest++, a->nrest--;
}

static void norest (const args *a) {
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
static const ids_scheme *openscheme (const args *a, ids_options *o,
                                     const char *what) {
  const ids_scheme *d, *s;
  ids_options params;
  ids_error e;
  if ((d = lookup(a->scheme)) == NULL)
    die("unknown scheme '%s'", a->scheme);
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

static const ids_codec *codecof (const ids_scheme *s, const char *enc) {
  const ids_codec *c;
  if (enc == NULL) return NULL;
  if ((c = ids_codec_find(s, enc, strlen(enc))) == NULL)
    die("unknown encoding '%s' for %s", enc, s->name);
  return c;
}

/* --------------------------------------------------------------- time */

/* Unix ms of a value's time, or 0 if its scheme has no time field (or
** the time is past int64 ms).  One
** time field counts ticks of s->unit from s->epoch_ms; three are KUID's
** mixed radix (megaseconds, seconds, microseconds since 1970). */
static int idtime (const ids_scheme *s, const uint64_t *x, int64_t *ms) {
  int t[3], nt = 0;
  unsigned __int128 m;
  for (int i = 0; i < s->nfields && nt < 3; i++)
    if (s->fields[i].kind == IDS_KIND_TIME) t[nt++] = i;
  if (nt == 1 && s->unit.per_sec_num == 1000 && s->unit.per_sec_den == 1)
    m = (unsigned __int128)x[t[0]] + (uint64_t)s->epoch_ms;   /* ms: most */
  else if (nt == 1 && x[t[0]] <= UINT64_MAX / 1000 / s->unit.per_sec_den)
    m = x[t[0]] * 1000 * s->unit.per_sec_den / s->unit.per_sec_num +
        (uint64_t)s->epoch_ms;        /* 64 bits: no 128-bit division */
  else if (nt == 1)
    m = (unsigned __int128)x[t[0]] * 1000 * s->unit.per_sec_den /
        s->unit.per_sec_num + (uint64_t)s->epoch_ms;
  else if (nt == 3)
    m = ((unsigned __int128)x[t[0]] * 1000000 + x[t[1]]) * 1000 +
        x[t[2]] / 1000;
  else return 0;
  /* the true time, however far off (SIQ's and kuid96's largest values are
  ** in the year 30,000 and beyond); past int64 ms none is shown */
  if (m > (unsigned __int128)INT64_MAX) return 0;
  *ms = (int64_t)m;
  return 1;
}

static int64_t nowms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void digits (char *p, int64_t x, int n) {
  while (n--) p[n] = (char)('0' + x % 10), x /= 10;
}

/* ISO-8601 UTC with milliseconds.  Days to a civil date by the
** proleptic Gregorian 400-year cycle (146097 days), March-based years. */
static void oiso (int64_t ms) {
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
static void oage (int64_t ms, int64_t now) {
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

/* ------------------------------------------------------------- fields */

/* One field's value as text: a qualifier's name, a wide field's hex
** bytes, or the number.  json: numbers past 2^53 as strings. */
static void ofield (const ids_scheme *s, int i, const ids_value *v,
                    uint64_t x, int json) {
  const ids_field *f = &s->fields[i];
  const char *q = f->kind == IDS_KIND_QUALIFIER ?
                  ids_scheme_qualifier_name(s, x) : NULL;
  if (q) { if (json) ojsonz(q); else ostr(q); }
  else if (f->bits > 64) {
    uint8_t b[IDS_MAXBYTES];
    ids_value_getbytes(v, f->shift, f->bits, b);
    if (json) ochar('"');
    ohex(b, (f->bits + 7u) / 8);
    ostr(json ? "\"" : " (hex)");
  }
  else if (json && x > ((uint64_t)1 << 53)) {
    ochar('"'); ou64(x); ochar('"');
  }
  else ou64(x);
}

static void showfields (const ids_scheme *s, const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  ids_scheme_decompose(s, v, x);
  for (int i = 0; i < s->nfields; i++) {
    olabel(s->fields[i].name);
    ofield(s, i, v, x[i], 0);
    ochar('\n');
  }
}

/* Every encoding but `skip`. */
static void showencodings (const ids_scheme *s, const ids_value *v,
                           const ids_codec *skip) {
  for (int i = 0; i < s->ncodecs; i++) {
    if (s->codecs[i] == skip) continue;
    olabel(s->codecs[i]->name);
    olen += ids_scheme_encode(s, s->codecs[i], v, oroom(IDS_TEXTMAX + 1));
    ochar('\n');
  }
}

/* ------------------------------------------------------------ commands */

static int cmd_list (int argc, char **argv, args *a) {
  const char **names;
  size_t n;
  parse(argc, argv, a, "j");
  norest(a);
  loadall();
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
      ostr(",\"kind\":"); ojsonz(ids_kind_names[s->fields[k].kind]);
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

static int cmd_info (int argc, char **argv, args *a) {
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
           (unsigned)s->fields[i].bits, ids_kind_names[s->fields[i].kind]);
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

#define BLOCK 4096

static int cmd_new (int argc, char **argv, args *a) {
  static ids_value v[BLOCK];
  const ids_scheme *s;
  const ids_codec *c;
  ids_options o;
  ids_generator g;
  ids_error e;
  parse(argc, argv, a, "nepo");
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

static int cmd_decode (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const ids_codec *c;
  int bad = 0;
  parse(argc, argv, a, "ep");
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
    ostr(a->rest[i]);
    ochar('\n');
    showfields(s, &v);
    showencodings(s, &v, NULL);
  }
  oflush();
  return bad;
}

/* FIELD=VALUE words, each handed to the core as text: a number, a
** qualifier's name, a name hashed into its field, or a wide field's hex
** bytes (as `decode` shows them). */
static int cmd_compose (int argc, char **argv, args *a) {
  const ids_scheme *s;
  const ids_codec *c;
  ids_fields f;
  ids_value v;
  ids_error e;
  char buf[IDS_TEXTMAX];
  parse(argc, argv, a, "ep");
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
  puts(buf);
  return 0;
}

/* ------------------------------------------------------------ inspect */

/* What texts a codec can have been written by, learnt from its own
** output at start-up: the length range and the bytes (letters in both
** cases).  Only a prefilter: when it leaves no candidate, every codec is
** tried (aliases such as Crockford's I, L, O are read by the codec). */
typedef struct icodec {
  const ids_codec *c;
  int name;                   /* the encoding's name as a number: equal
                                 names, equal numbers */
  size_t minlen, maxlen;
  uint64_t set[4];
} icodec;

typedef struct ischeme {
  const ids_scheme *s;
  int nc;
  int constbits;              /* bits a decode checks: the more, the surer */
  const ids_codec *plain;     /* what its detection says of a bare digit */
  icodec c[IDS_MAXCODECS];
} ischeme;

static ischeme *known;
static int nknown;

/* Encoding names seen so far; a name's number is its index. */
static const char **encnames;
static int nencnames;

static int namenum (const char *name) {
  int i;
  for (i = 0; i < nencnames; i++)
    if (strcmp(encnames[i], name) == 0) return i;
  encnames = realloc(encnames, (size_t)(nencnames + 1) * sizeof *encnames);
  if (encnames == NULL) die("out of memory");
  encnames[nencnames] = name;
  return nencnames++;
}

static void learn (const ids_scheme *s, icodec *ic) {
  char t[IDS_TEXTMAX];
  ids_value v;
  ic->minlen = SIZE_MAX;
  ic->maxlen = 0;
  memset(ic->set, 0, sizeof ic->set);
  for (int k = 0; k < 258; k++) {
    size_t n;
    if (k == 0) memset(&v, 0, sizeof v);
    else if (k == 1) memset(&v, 0xff, sizeof v);
    else ids_random(&v, sizeof v);
    for (int w = 0; w < 3; w++)       /* keep the scheme's width */
      if (s->bits <= 64 * w) v.w[w] = 0;
      else if (s->bits < 64 * (w + 1))
        v.w[w] &= ((uint64_t)1 << (s->bits - 64 * w)) - 1;
    n = ic->c->encode(ic->c, &v, s->bits, t);
    if (n < ic->minlen) ic->minlen = n;
    if (n > ic->maxlen) ic->maxlen = n;
    for (size_t i = 0; i < n; i++) {
      unsigned char b = (unsigned char)t[i];
      ic->set[b >> 6] |= (uint64_t)1 << (b & 63);
      if ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') {
        b ^= 0x20;
        ic->set[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    }
  }
}

static void addscheme (const ids_scheme *s) {
  ischeme *k;
  if ((known = realloc(known, (size_t)(nknown + 1) * sizeof *known)) == NULL)
    die("out of memory");
  k = &known[nknown++];
  memset(k, 0, sizeof *k);
  k->s = s;
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_CONSTANT)
      k->constbits += s->fields[i].bits;
  k->nc = s->ncodecs;
  k->plain = s->detect ? s->detect(s, "0", 1) : NULL;
  for (int i = 0; i < s->ncodecs; i++) {
    k->c[i].c = s->codecs[i];
    k->c[i].name = namenum(s->codecs[i]->name);
    learn(s, &k->c[i]);
  }
}

/* The schemes inspect considers: -s's alone, or every one registered
** (with the shipped scripts), each with its default parameters. */
static void knowschemes (const args *a) {
  const char **names;
  size_t n;
  ids_error e;
  if (a->scheme) {
    addscheme(openscheme(a, NULL, a->cmd));
    return;
  }
  if (a->nwords) die("option -p applies only with -s SCHEME");
  loadall();
  n = ids_scheme_list(NULL, 0);
  if ((names = malloc((n ? n : 1) * sizeof *names)) == NULL)
    die("out of memory");
  n = ids_scheme_list(names, n);
  for (size_t i = 0; i < n; i++) {
    const ids_scheme *s = ids_scheme_open(ids_scheme_find(names[i]), NULL,
                                          &e);
    if (s) addscheme(s);
  }
  free(names);
}

/* An encoding some scheme considered has (else a usage error). */
static void knowncodec (const char *enc) {
  if (enc == NULL) return;
  if (nknown == 1) { codecof(known[0].s, enc); return; }
  for (int i = 0; i < nknown; i++)
    if (ids_codec_find(known[i].s, enc, strlen(enc))) return;
  die("no scheme has encoding '%s'", enc);
}

typedef struct cand {
  const ischeme *k;
  const ids_codec *c;
  int name;                   /* c's name's number (namenum) */
  ids_value v;
  int rfc19;                  /* the scheme's detection (FLUID's RFC 19)
                                 named a marked form */
  int hastime, plausible, unique;
  int64_t ms;
  uint64_t dist;              /* |time - now| */
} cand;

#define MAXCAND 64

/* Plausible: from 30 years ago to a day ahead (clocks drift; IDs are not
** made in the future). */
#define PAST_MS   (30 * 31556952000ll)
#define AHEAD_MS  86400000ll

static int try (const ischeme *k, const ids_codec *c, int marked,
                const char *t, size_t n, cand *out, int64_t now) {
  uint64_t x[IDS_MAXFIELDS];
  if (ids_scheme_decode(k->s, c, t, n, &out->v, NULL) != IDS_OK) return 0;
  out->k = k;
  out->c = c;
  out->name = -1;
  for (int j = 0; j < k->nc; j++)
    if (k->c[j].c == c) out->name = k->c[j].name;
  out->rfc19 = marked;
  ids_scheme_decompose(k->s, &out->v, x);
  out->hastime = idtime(k->s, x, &out->ms);
  out->plausible = out->hastime && out->ms >= now - PAST_MS &&
                   out->ms <= now + AHEAD_MS;
  out->dist = !out->hastime ? UINT64_MAX :
              out->ms > now ? (uint64_t)(out->ms - now)
                            : (uint64_t)(now - out->ms);
  return 1;
}

/* Better first: FLUID's RFC 19 form, a time in the plausible window, a
** form no other scheme wrote, the scheme's default form (what a log line
** most likely holds: a bare number is a Snowflake's ID before it is a
** FLUID's), a time nearer now, more constant bits checked, then the
** registry's order. */
static int better (const cand *a, const cand *b) {
  int adef = a->c == a->k->s->codecs[0], bdef = b->c == b->k->s->codecs[0];
  if (a->rfc19 != b->rfc19) return a->rfc19 > b->rfc19;
  if (a->plausible != b->plausible) return a->plausible > b->plausible;
  if (a->unique != b->unique) return a->unique > b->unique;
  if (adef != bdef) return adef;
  if (a->dist != b->dist) return a->dist < b->dist;
  if (a->k->constbits != b->k->constbits)
    return a->k->constbits > b->k->constbits;
  return a->k < b->k;
}

/* Every scheme and form that decodes t[0..n) (trimmed), best first;
** returns how many.  With enc, that form only.  A scheme with detection
** (FLUID's RFC 19, SIQ's did:) reads a marked form (one its detection
** tells from a bare digit: FLUID's ƒ, 0x, dots, words, emoji) only as
** that form. */
static int candidates (const char *t, size_t n, const char *enc, cand *cs,
                       int64_t now) {
  uint64_t set[4] = {0, 0, 0, 0};
  int nc = 0;
  for (size_t i = 0; i < n; i++)
    set[(unsigned char)t[i] >> 6] |= (uint64_t)1 << ((unsigned char)t[i] & 63);
  for (int pass = 0; pass < 2 && nc == 0; pass++)
    for (int i = 0; i < nknown && nc < MAXCAND; i++) {
      const ischeme *k = &known[i];
      if (enc) {
        const ids_codec *c = ids_codec_find(k->s, enc, strlen(enc));
        if (c && try(k, c, 0, t, n, &cs[nc], now)) nc++;
        continue;
      }
      if (k->s->detect) {       /* a marked form: that one only */
        const ids_codec *c = k->s->detect(k->s, t, n);
        if (c != k->plain) {
          if (try(k, c, 1, t, n, &cs[nc], now)) nc++;
          continue;
        }
      }
      for (int j = 0; j < k->nc && nc < MAXCAND; j++) {
        const icodec *ic = &k->c[j];
        if (pass == 0 &&
            (n < ic->minlen || n > ic->maxlen ||
             (set[0] & ~ic->set[0]) || (set[1] & ~ic->set[1]) ||
             (set[2] & ~ic->set[2]) || (set[3] & ~ic->set[3])))
          continue;
        if (try(k, ic->c, 0, t, n, &cs[nc], now)) nc++;
      }
    }
  for (int i = 0; i < nc; i++) {
    int same = 0;
    for (int j = 0; j < nc; j++)
      same += cs[j].k != cs[i].k && cs[j].name == cs[i].name;
    cs[i].unique = same == 0;
  }
  for (int i = 1; i < nc; i++) {        /* insertion sort: a handful */
    cand x = cs[i];
    int j = i;
    for (; j > 0 && better(&x, &cs[j - 1]); j--) cs[j] = cs[j - 1];
    cs[j] = x;
  }
  return nc;
}

/* The inputs: the words, or standard input's lines, streamed: read in
** large blocks, each block's whole lines answered before the next read
** (and what is written goes out before a read that may wait, so that
** `tail -f log | idscheme inspect` answers each line).  A block of many
** lines is answered in two halves on two threads; the second half's
** answers, and its errors in their places, are written after the first
** half's: the output is what one thread would write. */
typedef struct line {
  const char *t;
  size_t n;
  long no;                    /* line number, 0 for a word */
} line;

typedef struct input {
  char *buf;
  size_t cap, start, end;     /* unread bytes: buf[start..end) */
  int eof;
  long lineno;
  int64_t now;                /* Unix ms when the current block came */
  line *lines;
  size_t nlines, lcap;
} input;

/* What answers one line (t[0..n), line no, the time `now`): writes its
** answer and returns 0, or reports it with inerror and returns 1. */
typedef int (*answer) (const args *a, const char *t, size_t n, long no,
                       int64_t now);

/* A thread with its own output (ogrow) keeps its errors for later, each
** with the place in its output where it goes. */
typedef struct lerr {
  size_t at;
  char *msg;
} lerr;

static _Thread_local lerr *lerrs;
static _Thread_local int nlerrs;

/* An input that did not decode: stderr, naming it and its line. */
static void inerror (long no, const char *t, size_t n, const char *why) {
  char m[1024];
  int k = no ? snprintf(m, sizeof m, "%s: line %ld: ", progname, no)
             : snprintf(m, sizeof m, "%s: ", progname);
  snprintf(m + k, sizeof m - (size_t)k, "\"%s\": %s\n", quote(t, n), why);
  if (!ogrow) {
    oflush();
    fputs(m, stderr);
    return;
  }
  if ((lerrs = realloc(lerrs, (size_t)(nlerrs + 1) * sizeof *lerrs)) == NULL ||
      (lerrs[nlerrs].msg = strdup(m)) == NULL)
    die("out of memory");
  lerrs[nlerrs++].at = olen;
}

/* One half of a block, for one thread. */
typedef struct part {
  const args *a;
  answer fn;
  const line *l;
  size_t nl;
  int64_t now;
  int bad;
  char *out;                  /* the second half's output and errors */
  size_t len;
  lerr *errs;
  int nerrs;
} part;

static void answerpart (part *p) {
  for (size_t i = 0; i < p->nl; i++)
    p->bad |= p->fn(p->a, p->l[i].t, p->l[i].n, p->l[i].no, p->now);
}

static void *worker (void *arg) {
  part *p = arg;
  obuf = NULL;
  olen = ocap = 0;
  ogrow = 1;
  answerpart(p);
  p->out = obuf, p->len = olen;
  p->errs = lerrs, p->nerrs = nlerrs;
  return NULL;
}

/* The second half's output after the first's, its errors in place. */
static void replay (part *p) {
  size_t at = 0;
  oflush();
  for (int i = 0; i < p->nerrs; i++) {
    owrite(p->out + at, p->errs[i].at - at);
    at = p->errs[i].at;
    fputs(p->errs[i].msg, stderr);
    free(p->errs[i].msg);
  }
  owrite(p->out + at, p->len - at);
  free(p->errs);
  free(p->out);
}

/* Fewer lines than this in a block: one thread (a thread costs more). */
#define TWOTHREADS 512

static int answerlines (const args *a, answer fn, const line *l, size_t n,
                        int64_t now) {
  part one = { .a = a, .fn = fn, .l = l, .nl = n, .now = now };
  part two = one;
  pthread_t t;
  if (n < TWOTHREADS) {
    answerpart(&one);
    return one.bad;
  }
  one.nl = n / 2;
  two.l = l + n / 2, two.nl = n - n / 2;
  if (pthread_create(&t, NULL, worker, &two) != 0) {
    one.nl = n;                       /* no thread: all here */
    answerpart(&one);
    return one.bad;
  }
  answerpart(&one);
  pthread_join(t, NULL);
  replay(&two);
  return one.bad | two.bad;
}

/* One read more, keeping the partial line; what is written goes out
** first. */
static void fill (input *in) {
  ssize_t r;
  if (in->start > 0) {
    memmove(in->buf, in->buf + in->start, in->end - in->start);
    in->end -= in->start;
    in->start = 0;
  }
  if (in->end + 1 >= in->cap) {       /* + 1: room for a final NUL */
    in->cap = in->cap ? 2 * in->cap : 1 << 18;
    if ((in->buf = realloc(in->buf, in->cap)) == NULL) die("out of memory");
  }
  oflush();
  do r = read(0, in->buf + in->end, in->cap - 1 - in->end);
  while (r < 0 && errno == EINTR);
  if (r < 0) die("standard input: %s", strerror(errno));
  if (r == 0) in->eof = 1;
  in->end += (size_t)r;
  in->now = nowms();          /* ages as of the block's arrival: one clock
                                 read a block, not a line */
}

static void addline (input *in, const char *t, size_t n) {
  if (in->nlines == in->lcap) {
    in->lcap = in->lcap ? 2 * in->lcap : 4096;
    if ((in->lines = realloc(in->lines, in->lcap * sizeof *in->lines))
        == NULL)
      die("out of memory");
  }
  in->lines[in->nlines++] = (line){ t, n, ++in->lineno };
}

/* Answers every input with fn; returns 1 if some did not decode. */
static int eachline (const args *a, answer fn) {
  input in;
  int bad = 0;
  memset(&in, 0, sizeof in);
  in.now = nowms();
  if (a->nrest > 0) {
    for (int i = 0; i < a->nrest; i++)
      bad |= fn(a, a->rest[i], strlen(a->rest[i]), 0, in.now);
    return bad;
  }
  for (;;) {
    size_t stop = in.end, k;          /* whole lines: buf[start..stop) */
    while (stop > in.start && in.buf[stop - 1] != '\n') stop--;
    if (stop == in.start) {
      if (!in.eof) { fill(&in); continue; }
      if (in.start == in.end) break;
      stop = in.end;                  /* a last line without newline */
    }
    in.nlines = 0;
    for (k = in.start; k < stop; ) {
      const char *t = in.buf + k, *nl = memchr(t, '\n', stop - k);
      size_t n = nl ? (size_t)(nl - t) : stop - k;
      addline(&in, t, n);
      k += n + 1;
    }
    bad |= answerlines(a, fn, in.lines, in.nlines, in.now);
    in.start = stop;
  }
  free(in.buf);
  free(in.lines);
  return bad;
}

static int isblank_ascii (unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

static void trim (const char **t, size_t *n) {
  while (*n > 0 && isblank_ascii((unsigned char)**t)) (*t)++, (*n)--;
  while (*n > 0 && isblank_ascii((unsigned char)(*t)[*n - 1])) (*n)--;
}

/* Why nothing decoded t: the core's words for one scheme, else ours. */
static const char *why (const args *a, const char *t, size_t n,
                        ids_error *e) {
  ids_value v;
  if (n == 0) return "empty";
  if (nknown == 1 &&
      ids_scheme_decode(known[0].s, a->enc ? ids_codec_find(known[0].s,
                        a->enc, strlen(a->enc)) : NULL, t, n, &v, e)
      != IDS_OK)
    return e->msg;
  return a->enc ? "no scheme decodes it in that encoding"
                : "no scheme decodes it";
}

static void ohuman (const char *t, size_t n, const cand *cs, int nc,
                    int64_t now) {
  const ids_scheme *s = cs[0].k->s;
  oput(t, n);
  ostr(": ");
  ostr(s->name);
  ostr(" (");
  ostr(cs[0].c->name);
  ostr(")\n");
  showfields(s, &cs[0].v);
  if (cs[0].hastime) {
    olabel("time");
    oiso(cs[0].ms);
    ostr(", ");
    oage(cs[0].ms, now);
    ochar('\n');
  }
  showencodings(s, &cs[0].v, cs[0].c);
  for (int i = 1; i < nc; i++) {
    olabel(i == 1 ? "candidates" : "");
    ostr(cs[i].k->s->name);
    ostr(" (");
    ostr(cs[i].c->name);
    ochar(')');
    if (cs[i].hastime) { ochar(' '); oiso(cs[i].ms); }
    ochar('\n');
  }
}

static void ovaluehex (const ids_scheme *s, const ids_value *v) {
  uint8_t b[IDS_MAXBYTES];
  ids_value_to_bytes(v, b, s->bytes);
  ochar('"');
  ohex(b, s->bytes);
  ochar('"');
}

static void ojsonobj (const char *t, size_t n, const cand *cs, int nc) {
  const ids_scheme *s = cs[0].k->s;
  uint64_t x[IDS_MAXFIELDS];
  ostr("{\"input\":");
  ojson(t, n);
  ostr(",\"scheme\":");
  ojsonz(s->name);
  ostr(",\"encoding\":");
  ojsonz(cs[0].c->name);
  ostr(",\"value\":");
  ovaluehex(s, &cs[0].v);
  ostr(",\"fields\":{");
  ids_scheme_decompose(s, &cs[0].v, x);
  for (int i = 0; i < s->nfields; i++) {
    if (i) ochar(',');
    ojsonz(s->fields[i].name);
    ochar(':');
    ofield(s, i, &cs[0].v, x[i], 1);
  }
  ostr("},\"time\":");
  if (cs[0].hastime) {
    ochar('"'); oiso(cs[0].ms); ostr("\",\"time_ms\":"); oi64(cs[0].ms);
  }
  else ostr("null");
  ostr(",\"encodings\":{");
  for (int i = 0; i < s->ncodecs; i++) {
    char buf[IDS_TEXTMAX];
    size_t len = ids_scheme_encode(s, s->codecs[i], &cs[0].v, buf);
    if (i) ochar(',');
    ojsonz(s->codecs[i]->name);
    ochar(':');
    ojson(buf, len);
  }
  ostr("},\"candidates\":[");
  for (int i = 1; i < nc; i++) {
    if (i > 1) ochar(',');
    ostr("{\"scheme\":");
    ojsonz(cs[i].k->s->name);
    ostr(",\"encoding\":");
    ojsonz(cs[i].c->name);
    ostr(",\"value\":");
    ovaluehex(cs[i].k->s, &cs[i].v);
    ostr(",\"time\":");
    if (cs[i].hastime) { ochar('"'); oiso(cs[i].ms); ochar('"'); }
    else ostr("null");
    ochar('}');
  }
  ostr("]}\n");
}

static void ojsonerr (long no, const char *t, size_t n, const char *msg) {
  ostr("{\"input\":");
  ojson(t, n);
  if (no) { ostr(",\"line\":"); ou64((uint64_t)no); }
  ostr(",\"error\":");
  ojsonz(msg);
  ostr("}\n");
}

static int inspect1 (const args *a, const char *t, size_t n, long no,
                     int64_t now) {
  cand cs[MAXCAND];
  const char *t0 = t;
  size_t n0 = n;
  int nc;
  trim(&t, &n);
  nc = n ? candidates(t, n, a->enc, cs, now) : 0;
  if (nc == 0) {
    ids_error e;
    const char *w = why(a, t0, n0, &e);
    if (a->json) ojsonerr(no, t0, n0, w);
    inerror(no, t0, n0, w);
    return 1;
  }
  if (a->json) ojsonobj(t, n, cs, nc);
  else ohuman(t, n, cs, nc, now);
  return 0;
}

static int cmd_inspect (int argc, char **argv, args *a) {
  parse(argc, argv, a, "sepj");
  knowschemes(a);
  knowncodec(a->enc);
  return eachline(a, inspect1);
}

static int convert1 (const args *a, const char *t, size_t n, long no,
                     int64_t now) {
  cand cs[MAXCAND];
  const char *t0 = t;
  size_t n0 = n;
  int nc, i;
  const ids_codec *to = NULL;
  trim(&t, &n);
  nc = n ? candidates(t, n, a->enc, cs, now) : 0;
  for (i = 0; i < nc; i++)           /* the best that has that form */
    if ((to = ids_codec_find(cs[i].k->s, a->to, strlen(a->to)))) break;
  if (nc == 0 || i == nc) {
    ids_error e;
    inerror(no, t0, n0, nc ? "no scheme that decodes it has encoding "
                             "given by --to" : why(a, t0, n0, &e));
    return 1;
  }
  olen += ids_scheme_encode(cs[i].k->s, to, &cs[i].v,
                            oroom(IDS_TEXTMAX + 1));
  ochar('\n');
  return 0;
}

static int cmd_convert (int argc, char **argv, args *a) {
  parse(argc, argv, a, "setp");
  if (a->to == NULL) die("%s: --to ENCODING is required", a->cmd);
  knowschemes(a);
  knowncodec(a->to);
  knowncodec(a->enc);
  return eachline(a, convert1);
}

/* --------------------------------------------------------------- main */

static const struct command {
  const char *name;
  int (*run) (int argc, char **argv, args *a);
  const char *synopsis;
  const char *about;
} commands[] = {
  {"list", cmd_list, "list [--json]",
   "Lists every scheme (built-in and shipped scripts): name, width and\n"
   "default encoding; with --json, an array with fields, encodings,\n"
   "parameters and generator options.\n"},
  {"info", cmd_info, "info SCHEME [-p NAME=VALUE]...",
   "Shows a scheme's fields, encodings, parameters and generator options.\n"},
  {"new", cmd_new,
   "new SCHEME [-n COUNT] [-e ENCODING] [-p NAME=VALUE]...",
   "Writes COUNT (default 1) new IDs, one a line.  -p sets a scheme\n"
   "parameter or a generator option by name (see info); -o is an old\n"
   "spelling of -p.  `gen' is another name for this command.\n"},
  {"gen", cmd_new, NULL, NULL},
  {"inspect", cmd_inspect,
   "inspect [-s SCHEME [-p NAME=VALUE]...] [-e ENCODING] [--json] [TEXT...]",
   "Says what each TEXT (or each line of standard input) is: the best\n"
   "scheme and encoding that decode it, its fields, its time (ISO-8601\n"
   "UTC and age), its other encodings and the other candidates.  Without\n"
   "-s every scheme is tried.  --json: one object per input.\n"},
  {"convert", cmd_convert,
   "convert [-s SCHEME] [-e ENCODING] --to ENCODING [TEXT...]",
   "Re-encodes each TEXT (or line of standard input) in another encoding\n"
   "of the scheme that inspect finds best (or of -s SCHEME).\n"},
  {"decode", cmd_decode, "decode SCHEME [-e ENCODING] [-p NAME=VALUE]... TEXT...",
   "Decodes each TEXT as SCHEME and shows its fields and encodings.\n"},
  {"compose", cmd_compose,
   "compose SCHEME [-e ENCODING] [-p NAME=VALUE]... FIELD=VALUE...",
   "Makes the ID of the given fields (a number, a qualifier's name, a\n"
   "name hashed into its field, or a wide field's hex bytes).\n"},
};

#define NCOMMANDS ((int)(sizeof commands / sizeof *commands))

static void usage (FILE *f) {
  fprintf(f, "usage: %s [-l FILE.lua]... COMMAND [ARGS]\n", progname);
  for (int i = 0; i < NCOMMANDS; i++)
    if (commands[i].synopsis)
      fprintf(f, "       %s %s\n", progname, commands[i].synopsis);
  fprintf(f, "Every command takes -l FILE.lua (--scheme-file) and --help; "
             "%s --version\nprints the version.  See idscheme(1).\n",
          progname);
}

static void help (const char *cmd) {
  oflush();
  for (int i = 0; i < NCOMMANDS; i++)
    if (cmd && strcmp(cmd, commands[i].name) == 0) {
      const struct command *c = commands[i].synopsis ? &commands[i]
                                                     : &commands[i - 1];
      printf("usage: %s [-l FILE.lua]... %s\n\n%s", progname, c->synopsis,
             c->about);
      return;
    }
  usage(stdout);
}

int main (int argc, char **argv) {
  args a;
  memset(&a, 0, sizeof a);
  setvbuf(stdout, NULL, _IONBF, 0);     /* obuf is the buffer */
  if (ids_init() != IDS_OK) die("cannot initialise libsodium");
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
      r = commands[i].run(argc - 2, argv + 2, &a);
      oflush();
      return r;
    }
  fprintf(stderr, "%s: unknown command '%s'\n", progname, argv[1]);
  usage(stderr);
  return 2;
}
