/*
** out.c: what the command writes: stdout through one buffer (cli.h has
** its small inline writers), usage errors, text quoted for messages.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* ------------------------------------------------------------- output */

/* stdout through one large buffer: `new` and `inspect` write millions of
** lines, and stdio's per-call locking would cost more than the IDs.  The
** state is per thread: a thread that answers part of a block of input
** (see eachline) writes into a buffer of its own that grows instead of
** being flushed, and the main thread writes it out in order. */
static char obuf0[OBUFSIZE];
_Thread_local char *obuf = obuf0;
_Thread_local size_t olen, ocap = sizeof obuf0;
_Thread_local int ogrow;

void owrite (const char *s, size_t n) {
  if (n && fwrite(s, 1, n, stdout) != n) {
    fprintf(stderr, "%s: write error: %s\n", progname, strerror(errno));
    exit(1);
  }
}

void oflush (void) {
  owrite(obuf, olen);
  olen = 0;
}

/* Fixed-size copies compile to a few moves where a call to memcpy with a
** variable length would cost more than the digits: 24 bytes go out, and
** only the digits count. */
void ou64 (uint64_t x) {
  char t[48] = {0}, *end = t + 24, *p = end;
  do *--p = (char)('0' + x % 10); while (x /= 10);
  memcpy(oroom(24), p, 24);
  olen += (size_t)(end - p);
}

void oi64 (int64_t x) {
  if (x < 0) ochar('-'), ou64(0 - (uint64_t)x);
  else ou64((uint64_t)x);
}

/* s padded with spaces to 13 columns (at least one space), after two
** spaces: the fields' column.  Names are short: one piece of room. */
void olabel (const char *s) {
  size_t n = strlen(s);
  char *p = oroom(n + 16);
  memset(p, ' ', 16);
  memcpy(p + 2, s, n);
  p[2 + n] = ' ';
  olen += 2 + (n < 12 ? 13 : n + 1);
}

void ohex (const uint8_t *b, size_t n) {
  static const char hx[] = "0123456789abcdef";
  char *p = oroom(2 * n);
  for (size_t k = 0; k < n; k++)
    p[2 * k] = hx[b[k] >> 4], p[2 * k + 1] = hx[b[k] & 15];
  olen += 2 * n;
}

/* A JSON string: quotes, backslashes and control bytes escaped, bytes
** that are not UTF-8 replaced by U+FFFD (an ID's text may be anything). */
void ojson (const char *s, size_t n) {
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

void ojsonz (const char *s) { ojson(s, strlen(s)); }

static int isblank_ascii (unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

void trim (const char **t, size_t *n) {
  while (*n > 0 && isblank_ascii((unsigned char)**t)) (*t)++, (*n)--;
  while (*n > 0 && isblank_ascii((unsigned char)(*t)[*n - 1])) (*n)--;
}

/* ------------------------------------------------------------- errors */

/* A usage error: the message on stderr, exit status 2. */
void die (const char *fmt, ...) {
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
const char *quote (const char *s, size_t n) {
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

/* ------------------------------------------------ unknown names, helped */

/* Edit distance of a and b (insertions, deletions, substitutions and
** swaps of neighbours), at most 32 characters of each counted. */
static int distance (const char *a, const char *b) {
  int d[33][33];
  size_t n = strlen(a) > 32 ? 32 : strlen(a), m = strlen(b) > 32 ? 32 : strlen(b);
  for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      int x = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < x) x = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < x) x = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < x)
        x = d[i - 2][j - 2] + 1;
      d[i][j] = x;
    }
  return d[n][m];
}

void didyoumean (const char *what, const char *word, const char *kind,
                 const char *const *names, size_t n) {
  const char *best = NULL;
  int bd = 3;                  /* a typo: at most 2 edits, under half */
  size_t k = 0;
  char list[2048];
  for (size_t i = 0; i < n; i++) {
    int d = distance(word, names[i]);
    if (d < bd && 2 * (size_t)d < strlen(names[i])) bd = d, best = names[i];
  }
  list[0] = '\0';
  for (size_t i = 0; i < n && k < sizeof list - 64; i++) {
    size_t j = 0;
    while (j < i && strcmp(names[j], names[i])) j++;
    if (j == i)                                 /* each name once */
      k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "",
                            names[i]);
  }
  if (best)
    die("%s: did you mean '%s'? (%s: %s)", what, best, kind, list);
  die("%s (%s: %s)", what, kind, list);
}

/* ------------------------------------------------------------- colour */

int colour;                   /* stdout is a terminal that takes colour */

/* Colour only on a terminal, never with NO_COLOR (no-color.org: set and
** not empty) or TERM=dumb. */
void decidecolour (void) {
  const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
  colour = isatty(1) && !(no && no[0]) && !(term && strcmp(term, "dumb") == 0);
}

void osgr (const char *sgr) {
  if (!colour) return;
  ostr("\033[");
  ostr(sgr);
  ochar('m');
}
