/*
** cli.h: what the files of the idscheme command share.  Each file does one
** thing: main.c the arguments and the dispatch, out.c the output buffer
** and usage errors, lua.c the embedded Lua, show.c how an ID shows,
** lines.c the inputs of inspect and convert, and one file per command.
*/
#ifndef IDS_CLI_H
#define IDS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"

extern const char *progname;

/* ------------------------------------------------------------- output */

/* stdout through one large buffer (out.c): obuf[0..olen) is what waits,
** per thread (lines.c gives a second thread a buffer that grows, ogrow,
** instead of being flushed). */
#define OBUFSIZE (1 << 17)
extern _Thread_local char *obuf;
extern _Thread_local size_t olen, ocap;
extern _Thread_local int ogrow;

void owrite (const char *s, size_t n);
void oflush (void);

/* A usage error: the message on stderr, exit status 2. */
void die (const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 1, 2), noreturn))
#endif
  ;

/* The small writers are inline: millions of lines call them.  Room for
** n more bytes (n < OBUFSIZE): */
static inline char *oroom (size_t n) {
  if (olen + n > ocap) {
    if (!ogrow) oflush();
    else {
      size_t cap = ocap ? ocap : OBUFSIZE;
      while (cap < olen + n) cap *= 2;
      if ((obuf = realloc(obuf, cap)) == NULL) die("out of memory");
      ocap = cap;
    }
  }
  return obuf + olen;
}

static inline void oput (const char *s, size_t n) {
  if (n > OBUFSIZE / 2 && !ogrow) {
    oflush();
    owrite(s, n);
    return;
  }
  memcpy(oroom(n), s, n);
  olen += n;
}

static inline void ostr (const char *s) { oput(s, strlen(s)); }
static inline void ochar (char c) { *oroom(1) = c; olen++; }

void ou64 (uint64_t x);
void oi64 (int64_t x);
void olabel (const char *s);
void ohex (const uint8_t *b, size_t n);
void ojson (const char *s, size_t n);
void ojsonz (const char *s);
const char *quote (const char *s, size_t n);
/* t[0..n) without ASCII white space at either end, as the core reads
** a text (ids_scheme_decode, ids_inspect). */
void trim (const char **t, size_t *n);
/* Colour (SGR) on standard output: osgr("1") bold, osgr("33") yellow,
** osgr("0") back; nothing unless decidecolour() found a terminal that
** takes it (not with NO_COLOR, not TERM=dumb). */
extern int colour;
void decidecolour (void);
void osgr (const char *sgr);

/* A usage error for an unknown name: `what` ("unknown scheme 'ulidd'"),
** then the nearest of names[0..n) as "did you mean" when one is a typo
** away, then them all, each once, after `kind` ("schemes"). */
void didyoumean (const char *what, const char *word, const char *kind,
                 const char *const *names, size_t n)
#if defined(__GNUC__)
  __attribute__((noreturn))
#endif
  ;
/* The same for a scheme (names and aliases) and an encoding of s. */
void unknownscheme (const char *name)
#if defined(__GNUC__)
  __attribute__((noreturn))
#endif
  ;
void unknowncodec (const ids_scheme *s, const char *enc)
#if defined(__GNUC__)
  __attribute__((noreturn))
#endif
  ;

/* ---------------------------------------------------------- arguments */

typedef struct args {
  const char *cmd;            /* as typed: "gen" or "new" */
  const char *opts;           /* the letters of the options it takes (the
                                 command table's: main.c) */
  const char *scheme;         /* -s, or the first word of a SCHEME command */
  const char *enc, *to;
  const char *format;         /* --format TEMPLATE, or NULL */
  const char *at;             /* new --at TIME, or NULL */
  long count;
  int json;
  char **words;               /* -p and -o values */
  int nwords;
  char **rest;
  int nrest;
} args;

void parse (int argc, char **argv, args *a);
void takescheme (args *a);
void norest (const args *a);
const ids_scheme *findscheme (const char *name);
const ids_scheme *openscheme (const args *a, ids_options *o,
                              const char *what);
const ids_codec *codecof (const ids_scheme *s, const char *enc);

/* --------------------------------------------------------------- Lua */

void loadfile (const char *path);   /* -l FILE.lua */
/* The scheme path: every *.lua (in name order) of each directory of
** $IDSCHEME_PATH (DIR:DIR:...), then of the user's own,
** $XDG_CONFIG_HOME/idscheme/schemes (else ~/.config/idscheme/schemes);
** directories that are not there are skipped.  They add to the shipped
** schemes (a name taken is an error naming the file). */
void loadpath (void);

/* --------------------------------------------------------- showing IDs */

int64_t nowms (void);
void oiso (int64_t ms);
void oage (int64_t ms, int64_t now);
/* A field's value; json: a string or a number by the field's width
** alone (jsonstring), never by the value's magnitude. */
int jsonstring (const ids_field *f);
void ofield (const ids_scheme *s, int i, const ids_value *v, uint64_t x,
             int json);
void showfields (const ids_scheme *s, const ids_value *v);
void showtime (const ids_scheme *s, const ids_value *v);
void showencodings (const ids_scheme *s, const ids_value *v,
                    const ids_codec *skip);
/* --json (docs/idscheme.1 gives the shapes): "fields":{...} (v NULL:
** {}); "time" and "time_ms", or both null; and an ID's members, which
** the caller's own ("id", "input") precede: scheme, encoding (c's, NULL:
** the default), value (hex), fields, time, time_ms, and with all its
** encodings. */
void ojsonfields (const ids_scheme *s, const ids_value *v);
void ojsontime (int has, int64_t ms);
void ojsonid (const ids_scheme *s, const ids_codec *c, const ids_value *v,
              int all);
/* --format TEMPLATE: {key} replaced (input, scheme, encoding, title, time,
** time_ms, ambiguous, hex, a field's or an encoding's name; "-" where the
** reading has none), {{ and }} for braces, \t \n \\ as in C; a line
** each.  checkformat refuses a key no reading can have. */
void checkformat (const char *fmt);
void oformat (const char *fmt, const char *t, size_t n, const ids_scheme *s,
              const ids_codec *c, const ids_value *v, int ambiguous);

/* -------------------------------------------------------------- inputs */

/* What answers one line (t[0..n), line no, the time `now`): writes its
** answer and returns 0, or reports it with inerror and returns 1. */
typedef int (*answer) (const args *a, const char *t, size_t n, long no,
                       int64_t now);
int eachline (const args *a, answer fn);
void inerror (long no, const char *t, size_t n, const char *why);
/* The file whose lines are being answered (NULL: standard input, or
** words). */
const char *infile (void);

/* ------------------------------------------------------------ commands */

int cmd_list (int argc, char **argv, args *a);
/* Every registered scheme's name, *n of them, in an array with room for
** `extra` more (the caller frees it; list.c).  However many there are:
** -l, $IDSCHEME_PATH and ~/.config/idscheme/schemes add any number. */
const char **schemenames (size_t *n, size_t extra);
int cmd_info (int argc, char **argv, args *a);
int cmd_new (int argc, char **argv, args *a);
int cmd_decode (int argc, char **argv, args *a);
int cmd_compose (int argc, char **argv, args *a);
int cmd_inspect (int argc, char **argv, args *a);
int cmd_convert (int argc, char **argv, args *a);

#endif
