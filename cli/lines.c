/*
** lines.c: the inputs of inspect and convert, answered in order, a large
** block on two threads.
*/
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

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
  int fd;
  const char *name;           /* a file's, for errors; NULL: stdin */
  char *buf;
  size_t cap, start, end;     /* unread bytes: buf[start..end) */
  int eof, err;
  long lineno;
  int64_t now;                /* Unix ms when the current block came */
  line *lines;
  size_t nlines, lcap;
} input;

/* A thread with its own output (ogrow) keeps its errors for later, each
** with the place in its output where it goes. */
typedef struct lerr {
  size_t at;
  char *msg;
} lerr;

static _Thread_local lerr *lerrs;
static _Thread_local int nlerrs;
static const char *inname;    /* the file being read (NULL: stdin, words) */

/* Errors interleave with the answers only where one reader sees both:
** stdout and stderr the same file (a terminal, 2>&1).  There each error
** flushes the answers before it.  Elsewhere (2>/dev/null, a log of its
** own) stderr is buffered and flushed with stdout before a read that may
** wait, so that a refused line costs no write of its own: half the lines
** of a mix of words and IDs took two system calls each. */
static int apart;

static void errs_setup (void) {
  struct stat o, e;
  static int done;
  if (done) return;
  done = 1;
  apart = fstat(1, &o) == 0 && fstat(2, &e) == 0 &&
          (o.st_dev != e.st_dev || o.st_ino != e.st_ino);
  if (apart) setvbuf(stderr, NULL, _IOFBF, 1 << 16);
}

const char *infile (void) { return inname; }

/* An input that did not decode: stderr, naming it and its line (and
** file). */
void inerror (long no, const char *t, size_t n, const char *why) {
  char m[1024];
  int k = no && inname ? snprintf(m, sizeof m, "%s: %s: line %ld: ",
                                  progname, quote(inname, strlen(inname)),
                                  no) :
          no ? snprintf(m, sizeof m, "%s: line %ld: ", progname, no)
             : snprintf(m, sizeof m, "%s: ", progname);
  snprintf(m + k, sizeof m - (size_t)k, "\"%s\": %s\n", quote(t, n), why);
  if (!ogrow) {
    if (!apart) oflush();
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

/* The second half's output after the first's, its errors in place
** (where one reader sees both). */
static void replay (part *p) {
  size_t at = 0;
  oflush();
  for (int i = 0; i < p->nerrs; i++) {
    if (!apart) {
      owrite(p->out + at, p->errs[i].at - at);
      at = p->errs[i].at;
    }
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
  if (apart) fflush(stderr);
  do r = read(in->fd, in->buf + in->end, in->cap - 1 - in->end);
  while (r < 0 && errno == EINTR);
  if (r < 0) {                /* the answers so far stand */
    fprintf(stderr, "%s: %s: %s\n", progname,
            in->name ? quote(in->name, strlen(in->name)) : "standard input",
            strerror(errno));
    r = 0, in->err = 1;
  }
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

/* Answers every line of fd with fn; 1 if some did not decode (or the
** file could not be read to its end). */
static int eachfd (const args *a, answer fn, int fd, const char *name) {
  input in;
  int bad = 0;
  memset(&in, 0, sizeof in);
  in.fd = fd;
  in.name = inname = name;
  in.now = nowms();
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
  inname = NULL;
  return bad | in.err;
}

/* Answers every input with fn; returns 1 if some did not decode.  The
** inputs: the words, each an ID, but "-" (standard input's lines) and a
** word that names a file (not a directory: a pipe such as <(cmd) too),
** whose lines are read; no words: standard input. */
int eachline (const args *a, answer fn) {
  int bad = 0;
  errs_setup();               /* before anything is written to stderr */
  if (a->nrest == 0) return eachfd(a, fn, 0, NULL);
  for (int i = 0; i < a->nrest; i++) {
    const char *w = a->rest[i];
    struct stat st;
    int fd;
    if (strcmp(w, "-") == 0) bad |= eachfd(a, fn, 0, NULL);
    else if (stat(w, &st) == 0 && !S_ISDIR(st.st_mode)) {
      do fd = open(w, O_RDONLY | O_CLOEXEC);
      while (fd < 0 && errno == EINTR);
      if (fd < 0) {
        oflush();
        fprintf(stderr, "%s: %s: %s\n", progname, quote(w, strlen(w)),
                strerror(errno));
        bad = 1;
        continue;
      }
      bad |= eachfd(a, fn, fd, w);
      close(fd);
    }
    else bad |= fn(a, w, strlen(w), 0, nowms());
  }
  return bad;
}
