/*
** inspect.c: which scheme wrote this text (inspect.h).  Built on the
** public API alone: ids_scheme_decode, ids_scheme_decompose, the codecs.
**
** Two parts.  An inspector learns, from each codec's own output and by
** probing its decoder, what texts it can read: their lengths, their
** bytes, and whether a tag may stand before them (TypeID's prefix); it
** files each form under the lengths it reads, so that a text meets only
** the forms of its own length whose alphabet holds its bytes.  Then each
** reading is weighed: evidence in bits that the scheme wrote the text
** rather than something that is no ID (inspect.h says how).
*/
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect.h"
#include "internal.h"

/* ---------------------------------------------------------- the weights
** Evidence is in bits (log2 of a likelihood ratio).  Each number below is
** a prior, stated once. */
#define LENMARK   4.0   /* a text of a form's one fixed length (the null's
                           texts have many lengths) */
#define HASHLEN   10.0   /* hex of a hash's length (MD5 32, SHA-1 40, SHA-2
                           56, 64, 96, 128 digits) is that far likelier a
                           hash than anything else */
#define TAGMARK   4.0   /* a tag the form reads, then its separator */
#define TAGNULL   4.0   /* a tag and '_' before a form that reads none: a
                           prefixed ID of another kind (cus_, ghp_); and
                           1.3 bits a letter of it (a word's letters beside
                           a random text's) */
#define FORMPRIOR 2.0   /* a form its scheme does not write by default: a
                           quarter of its IDs are in its other forms, shared
                           among them (2 bits, and log2 of their number) */
#define FLOOR     (-7.0) /* evidence under which no reading stands ... */
#define MARKED    6.0   /* ... unless its marks reach this */
#define ALONE     (-4.0) /* a text read by its alphabet alone: no less
                           (a random text has a digit, '-' or '_'; of
                           letters alone, it is no word: wordlike) */
#define SURE      6.0   /* evidence under which a reading is a guess */
#define NEAR      2.0   /* marks this close are as strong */
#define SPREAD    2.5   /* a form not its scheme's default rivals only a
                           reading this close in evidence */
#define ALIASED   4.0   /* a text its form reads but does not write so
                           (Crockford's I, L, O for 1, 1, 0) */
#define P_LIFE    0.94  /* a real ID's time: in its format's life, */
#define P_BEFORE  (1.0 / 32)   /* before its first IDs (backfilled, converted) */
#define T_BAD     (-12.0)      /* on its epoch's first day, or ahead of now */
#define T_MAX     14.0

/* Plausible: from the format's first IDs to a day ahead (clocks drift;
** IDs are not made in the future).  A time on the epoch's first day is
** what short junk decodes to ("hello" as a Snowflake of 1 ms); a scheme
** of the Unix epoch that does not say when it began: 30 years back. */
#define DAY_MS    86400000ll
#define PAST_MS   (30 * 31556952000ll)
#define AHEAD_MS  DAY_MS

/* What texts a codec can have been written by, learnt from its own
** output and by probing its decoder: the length range and the bytes
** (letters in both cases, and whatever else it reads: Crockford's I, L,
** O), and a tag it reads before them (TypeID's "user_").  A prefilter
** only: it never leaves out a text the codec reads.
**
** Learnt in two steps.  What files a form under the lengths it reads and
** among the tagged (`sized`) is learnt when the inspector is made; the
** rest (`learnt`), the bulk of the work, when a text first meets the
** form: a one-text `idscheme inspect` learns the dozen forms of its
** length, not the 120 of the shipped schemes (a third of the work of
** its whole process before; now a tenth). */
typedef struct learnt {
  int exact;                  /* fixed, and it reads no byte it does not
                                 write: what it reads is as it writes */
  int ocase;                  /* its letters: 1 upper case alone, 2 lower
                                 case alone, 0 both or none */
  char pre[16], suf[8];       /* what every text it writes begins and ends
                                 with (FLUID's ƒ, "urn:uuid:", braces) */
  uint8_t npre, nsuf;
  uint64_t own[4];            /* the bytes it writes */
  uint64_t set[4];            /* ... and those it reads */
  double abits;               /* log2 of the bytes it writes (its
                                 alphabet), for a text read by it alone */
} learnt;

typedef struct icodec {
  const ids_codec *c;
  int name;                   /* the encoding's name as a number: equal
                                 names, equal numbers */
  int id;                     /* its number among the inspector's forms */
  struct icodec *first;       /* the first form that writes and reads as
                                 it does (itself, or an earlier one: the
                                 decimal of each 128-bit UUID): one
                                 decode, one learning serves them all */
  /* sized: */
  int fixed;                  /* every text it writes has one length */
  unsigned char zero;         /* not fixed: the digit it writes for 0 (a
                                 text that starts with it says more) */
  size_t minlen, maxlen;
  unsigned char tagsep;       /* 0, or what ends a tag before the digits */
  uint64_t tagset[4];         /* the bytes of a tag */
  /* learnt at first need (known), by the first form alone: */
  int ready;                  /* l is learnt (atomic: release, acquire) */
  learnt l;
} icodec;

typedef struct ischeme {
  const ids_scheme *s;
  int nc;
  int constbits;              /* bits a decode checks (a top bit held 0
                                 says nothing of a number that is small
                                 anyway) */
  int versionbits;            /* version fields' bits: evidence where they
                                 hold their value (a TypeID's v7) */
  int timed;                  /* it has a time field */
  double otherform;           /* bits a form not its default costs */
  double span;                /* ms its time field spans */
  const ids_codec *plain;     /* what its detection says of a bare digit */
  icodec c[IDS_MAXCODECS];
} ischeme;

/* A form filed under a length: scheme k's codec j. */
typedef struct entry { uint16_t k, j; } entry;

struct ids_inspector {
  ischeme *k;
  int nk;
  int *sized;                 /* the schemes of other sizes (about.lengths:
                                 nanoid), so that a text is not held up
                                 against the others for them */
  int nsized;
  int *detects;               /* the schemes with detection */
  int ndetects;
  const char **names;         /* encoding names seen; a name's number is
                                 its index */
  int nnames;
  entry *bylen[IDS_TEXTMAX];  /* the forms that read texts of each length */
  int nbylen[IDS_TEXTMAX];
  entry *tagged;              /* the forms that read a tag */
  int ntagged;
  int nforms;                 /* forms in all (icodec.id below this) */
};

/* One text's decodes, by first form: 0 not yet, 1 read (value), -1 not
** read. */
typedef struct memo {
  signed char *state;
  ids_value *value;
} memo;

/* A candidate with what ranking needs beside it. */
typedef struct cand {
  ids_candidate c;
  const ischeme *k;
  int name;                   /* c.codec's name's number */
  int dflt;                   /* read in its scheme's default form */
  int skew;                   /* with digits its form does not write */
  uint64_t dist;              /* |time - now| */
} cand;

/* What one text is, worked out once for all its readings. */
typedef struct text {
  const char *t;
  size_t n;
  uint64_t set[4];            /* its bytes */
  double bits;                /* n * log2 of its alphabet: the null's */
  double per;                 /* log2 of its alphabet */
  int hash;                   /* hex of a hash's length */
  size_t tag;                 /* 0, or the length of "tag_" before it */
  int hopeless;               /* forms that read its characters, left
                                 undecoded: too little in it for them */
  int64_t now;
} text;

static int inset (const uint64_t a[4], const uint64_t b[4]) {
  return !((a[0] & ~b[0]) | (a[1] & ~b[1]) | (a[2] & ~b[2]) |
           (a[3] & ~b[3]));
}

static void addbyte (uint64_t set[4], unsigned char b) {
  set[b >> 6] |= (uint64_t)1 << (b & 63);
}

static int hasbyte (const uint64_t set[4], unsigned char b) {
  return (set[b >> 6] >> (b & 63)) & 1;
}

/* ------------------------------------------------------------ learning */

static int namenum (ids_inspector *ins, const char *name) {
  const char **p;
  for (int i = 0; i < ins->nnames; i++)
    if (strcmp(ins->names[i], name) == 0) return i;
  p = realloc(ins->names, (size_t)(ins->nnames + 1) * sizeof *p);
  if (p == NULL) return -1;
  ins->names = p;
  p[ins->nnames] = name;
  return ins->nnames++;
}

static int reads (const ids_scheme *s, const ids_codec *c, const char *t,
                  size_t n) {
  ids_value v;
  return c->decode(c, t, n, s->bits, &v, NULL) == IDS_OK;
}

/* Learning draws values to encode: 0, all ones, then the same
** pseudo-random ones each time (splitmix64; what a form writes is no
** secret, and the same draws learn the same thing in every process). */
#define DRAWS   258     /* at most */
#define QUIET   32      /* draws in a row that teach nothing: enough
                           (a quarter for lengths, which 0 and all ones
                           bound in most forms) */

typedef struct draws { uint64_t x; int k; } draws;

static size_t draw (draws *d, const ids_scheme *s, const ids_codec *c,
                    unsigned width, char *t) {
  ids_value v;
  for (int w = 0; w < 3; w++) {
    uint64_t z = (d->x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    v.w[w] = d->k == 0 ? 0 : d->k == 1 ? UINT64_MAX : z ^ (z >> 31);
  }
  for (int w = 0; w < 3; w++)         /* keep the scheme's width */
    if (width <= 64u * w) v.w[w] = 0;
    else if (width < 64u * (w + 1))
      v.w[w] &= ((uint64_t)1 << (width - 64 * w)) - 1;
  d->k++;
  return c->encode(c, &v, s->bits, t);
}

/* What files the form: its lengths, its zero, the tag it reads. */
static void size (const ids_scheme *s, icodec *ic) {
  char t[IDS_TEXTMAX], probe[IDS_TEXTMAX + 4];
  draws d = {0, 0};
  size_t sn = 0;
  ic->minlen = SIZE_MAX;
  ic->maxlen = 0;
  for (int quiet = 0, enough = QUIET / 4; d.k < DRAWS && quiet < enough;
       quiet++) {
    size_t n = draw(&d, s, ic->c, s->bits, t);
    if (d.k == 1) ic->zero = n == 1 ? (unsigned char)t[0] : 0;
    if (d.k == 3) memcpy(probe + 2, t, sn = n);   /* a sample */
    if (n >= ic->minlen && n <= ic->maxlen) continue;
    ic->minlen = n < ic->minlen ? n : ic->minlen;
    ic->maxlen = n > ic->maxlen ? n : ic->maxlen;
    quiet = -1;
    if (d.k > 2) enough = DRAWS;        /* lengths not of 0 and all ones
                                           (words): every draw */
  }
  ic->fixed = ic->minlen == ic->maxlen;
  ic->tagsep = 0;
  memset(ic->tagset, 0, sizeof ic->tagset);
  if (sn == 0 || sn + 2 >= IDS_TEXTMAX) return;
  /* a tag before the digits: "a" and a separator */
  probe[0] = 'a';
  for (int b = 0x21; b < 0x7f && !ic->tagsep; b++) {
    if ((b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'z'))
      continue;
    probe[1] = (char)b;
    if (reads(s, ic->c, probe, sn + 2)) ic->tagsep = (unsigned char)b;
  }
  if (!ic->tagsep) return;
  addbyte(ic->tagset, ic->tagsep);
  for (int b = 0x21; b < 0x7f; b++) {
    probe[0] = (char)b;
    if (reads(s, ic->c, probe, sn + 2)) addbyte(ic->tagset, (unsigned char)b);
  }
}

/* The rest: the bytes it writes and reads, its case, its affixes. */
static void learn (const ids_scheme *s, icodec *ic) {
  char t[IDS_TEXTMAX], probe[IDS_TEXTMAX];
  learnt *l = &ic->l;
  draws d = {0, 0};
  size_t sn = 0;
  int nown = 0;
  memset(l, 0, sizeof *l);
  for (int quiet = 0; d.k < DRAWS && quiet < QUIET; quiet++) {
    size_t n = draw(&d, s, ic->c, s->bits, t);
    for (size_t i = 0; i < n; i++) {
      unsigned char b = (unsigned char)t[i];
      if (hasbyte(l->own, b)) continue;
      quiet = -1;
      addbyte(l->own, b);
      addbyte(l->set, b);
      if ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') addbyte(l->set, b ^ 0x20);
    }
    if (d.k == 1) {                   /* its affixes: narrowed below */
      l->npre = (uint8_t)(n < sizeof l->pre ? n : sizeof l->pre);
      l->nsuf = (uint8_t)(n < sizeof l->suf ? n : sizeof l->suf);
      memcpy(l->pre, t, l->npre);     /* suf: its last nsuf bytes */
      memcpy(l->suf + sizeof l->suf - l->nsuf, t + n - l->nsuf, l->nsuf);
    }
    while (l->npre && (n < l->npre || memcmp(l->pre, t, l->npre)))
      l->npre--, quiet = -1;
    while (l->nsuf && (n < l->nsuf ||
                       memcmp(l->suf + sizeof l->suf - l->nsuf,
                              t + n - l->nsuf, l->nsuf)))
      l->nsuf--, quiet = -1;
    if (d.k == 3) memcpy(probe, t, sn = n);     /* a sample to probe */
  }
  if ((size_t)l->npre + l->nsuf >= ic->minlen) l->npre = l->nsuf = 0;
  for (int b = 0; b < 256; b++) nown += hasbyte(l->own, (unsigned char)b);
  {
    int up = 0, low = 0;
    for (int b = 'A'; b <= 'Z'; b++) up |= hasbyte(l->own, (unsigned char)b);
    for (int b = 'a'; b <= 'z'; b++) low |= hasbyte(l->own, (unsigned char)b);
    l->ocase = up && !low ? 1 : low && !up ? 2 : 0;
  }
  l->exact = ic->fixed;
  l->abits = log2(nown > 1 ? nown : 2);
  if (!ic->fixed && s->bits > 40) {   /* a shorter text probes as well, and
                                         a decode reads it sooner */
    size_t n = draw(&d, s, ic->c, 40, t);
    if (n >= 8) memcpy(probe, t, sn = n);
  }
  /* bytes its decoder reads in the middle of a text beside its own */
  for (int at = 1; at <= 3 && sn > 0; at++) {
    size_t p = sn * (size_t)at / 4;
    char keep = probe[p];
    for (int b = 0x21; b < 0x7f; b++) {
      if (hasbyte(l->own, (unsigned char)b)) continue;
      probe[p] = (char)b;
      if (reads(s, ic->c, probe, sn)) {
        addbyte(l->set, (unsigned char)b);
        l->exact = 0;                 /* another case, an alias */
      }
    }
    probe[p] = keep;
  }
}

/* What is learnt of ic: by its first form, once, whichever thread needs
** it first.  An inspector is read-only to its users; this is the one
** write after it is made, under a lock (one for all inspectors: it is
** taken a few times an inspector). */
static pthread_mutex_t learning = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline)) const learnt *
learnnow (const ischeme *k, icodec *f) {
  pthread_mutex_lock(&learning);
  if (!f->ready) {
    learn(k->s, f);           /* its twins: the same width */
    __atomic_store_n(&f->ready, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&learning);
  return &f->l;
}

/* On the path of every text and form: a load, once learnt. */
static inline const learnt *known (const ischeme *k, const icodec *ic) {
  icodec *f = ic->first;
  if (__atomic_load_n(&f->ready, __ATOMIC_ACQUIRE)) return &f->l;
  return learnnow(k, f);
}

/* Milliseconds a time field of s spans. */
static double spanof (const ids_scheme *s) {
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_TIME && s->unit.per_sec_num)
      return ldexp(1.0, s->fields[i].bits) * 1000.0 *
             (double)s->unit.per_sec_den / (double)s->unit.per_sec_num;
  return 0;
}

/* The first form that writes and reads as c does over bits (each UUID
** version's forms, every 64-bit scheme's decimal): what is learnt of it
** depends on nothing else. */
static icodec *twinof (ids_inspector *ins, const ids_codec *c,
                       unsigned bits) {
  for (int k = 0; k < ins->nk; k++)     /* the last: its forms so far */
    if (ins->k[k].s->bits == bits)
      for (int j = 0; j < ins->k[k].nc; j++)
        if (ids__codec_same(ins->k[k].c[j].c, c)) return &ins->k[k].c[j];
  return NULL;
}

static int addscheme (ids_inspector *ins, const ids_scheme *s) {
  ischeme *k = &ins->k[ins->nk++];
  memset(k, 0, sizeof *k);
  k->s = s;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    k->timed |= f->kind == IDS_KIND_TIME;
    if (f->kind == IDS_KIND_CONSTANT && f->loose)
      k->versionbits += f->bits;
    else if (f->kind == IDS_KIND_CONSTANT &&
             !(f->value == 0 && f->shift + f->bits == s->bits))
      k->constbits += f->bits;
  }
  k->span = spanof(s);
  k->otherform = FORMPRIOR + (s->ncodecs > 2 ? log2(s->ncodecs - 1) : 0);
  k->plain = s->detect ? s->detect(s, "0", 1) : NULL;
  if (s->detect) {
    int *p = realloc(ins->detects, (size_t)(ins->ndetects + 1) * sizeof *p);
    if (p == NULL) return -1;
    ins->detects = p;
    p[ins->ndetects++] = ins->nk - 1;
  }
  if (s->about && s->about->lengths[1]) {
    int *p = realloc(ins->sized, (size_t)(ins->nsized + 1) * sizeof *p);
    if (p == NULL) return -1;
    ins->sized = p;
    p[ins->nsized++] = ins->nk - 1;
  }
  for (int i = 0; i < s->ncodecs; i++) {
    icodec *ic = &k->c[i], *first = twinof(ins, s->codecs[i], s->bits);
    if (first) *ic = *first;          /* what files it; first: first's */
    else ic->first = ic;
    ic->c = s->codecs[i];
    ic->id = ins->nforms++;
    if (!first) size(s, ic);
    k->nc = i + 1;
    if ((ic->name = namenum(ins, s->codecs[i]->name)) < 0) return -1;
  }
  return 0;
}

/* Every form under each length it reads, and the tagged ones apart:
** counted, then filed. */
static int index_forms (ids_inspector *ins) {
  int at[IDS_TEXTMAX] = {0}, tagged = 0;
  for (int k = 0; k < ins->nk; k++)
    for (int j = 0; j < ins->k[k].nc; j++) {
      const icodec *ic = &ins->k[k].c[j];
      for (size_t n = ic->minlen; n <= ic->maxlen && n < IDS_TEXTMAX; n++)
        ins->nbylen[n]++;
      ins->ntagged += ic->tagsep != 0;
    }
  for (int n = 0; n < IDS_TEXTMAX; n++)
    if (ins->nbylen[n] &&
        (ins->bylen[n] = malloc((size_t)ins->nbylen[n] * sizeof (entry))) ==
        NULL)
      return -1;
  if (ins->ntagged &&
      (ins->tagged = malloc((size_t)ins->ntagged * sizeof (entry))) == NULL)
    return -1;
  for (int k = 0; k < ins->nk; k++)
    for (int j = 0; j < ins->k[k].nc; j++) {
      const icodec *ic = &ins->k[k].c[j];
      entry e = {(uint16_t)k, (uint16_t)j};
      for (size_t n = ic->minlen; n <= ic->maxlen && n < IDS_TEXTMAX; n++)
        ins->bylen[n][at[n]++] = e;
      if (ic->tagsep) ins->tagged[tagged++] = e;
    }
  return 0;
}

ids_inspector *ids_inspector_new (const ids_scheme *const *schemes,
                                  size_t n, ids_error *e) {
  ids_inspector *ins = calloc(1, sizeof *ins);
  const char **names = NULL;
  if (ins == NULL) goto nomem;
  if (schemes == NULL) {          /* the registry grows only: a count, then
                                     at most that many names */
    n = ids_scheme_list(NULL, 0);
    if ((names = malloc((n ? n : 1) * sizeof *names)) == NULL) goto nomem;
    n = ids_scheme_list(names, n);
  }
  if (n > UINT16_MAX) n = UINT16_MAX;
  if ((ins->k = malloc((n ? n : 1) * sizeof *ins->k)) == NULL) goto nomem;
  for (size_t i = 0; i < n; i++) {
    ids_error ignored;          /* a scheme that will not open is left out */
    const ids_scheme *s = schemes ? schemes[i] :
                          ids_scheme_open(ids_scheme_find(names[i]), NULL,
                                          &ignored);
    if (s && addscheme(ins, s) != 0) goto nomem;
  }
  if (index_forms(ins) != 0) goto nomem;
  free(names);
  return ins;
nomem:
  free(names);
  ids_inspector_free(ins);
  ids_fail(e, IDS_ENOMEM, "inspector: out of memory");
  return NULL;
}

void ids_inspector_free (ids_inspector *ins) {
  if (ins == NULL) return;
  for (int i = 0; i < IDS_TEXTMAX; i++) free(ins->bylen[i]);
  free(ins->tagged);
  free(ins->k);
  free(ins->names);
  free(ins->sized);
  free(ins->detects);
  free(ins);
}

int ids_inspector_encoding (const ids_inspector *ins, const char *enc,
                            size_t len, ids_error *e) {
  char q[IDS_ERRMAX / 2];
  for (int i = 0; i < ins->nk; i++)
    if (ids_codec_find(ins->k[i].s, enc, len)) return IDS_OK;
  ids__quote(q, sizeof q, enc, len);
  if (ins->nk == 1)
    return ids_fail(e, IDS_ENOENT, "unknown encoding '%s' for %s", q,
                    ins->k[0].s->name);
  return ids_fail(e, IDS_ENOENT, "no scheme has encoding '%s'", q);
}

/* ------------------------------------------------------------- the text */

static int islower_ascii (unsigned char c) { return c >= 'a' && c <= 'z'; }

/* A tag: lowercase words joined by '_', then '_' and at least 8 letters
** and digits (Stripe's cus_NffrFeUfNV2Hib, TypeID's user_01h455...,
** GitHub's ghp_...): the length of the tag and its '_', else 0. */
static size_t tagof (const char *t, size_t n) {
  size_t k = n;
  while (k > 0 && t[k - 1] != '_') k--;
  if (k < 3 || n - k < 8 || !islower_ascii((unsigned char)t[0]) ||
      !islower_ascii((unsigned char)t[k - 2]))
    return 0;
  for (size_t i = 0; i + 1 < k; i++)
    if (!islower_ascii((unsigned char)t[i]) &&
        !(t[i] == '_' && islower_ascii((unsigned char)t[i + 1])))
      return 0;
  for (size_t i = k; i < n; i++) {
    unsigned char c = (unsigned char)t[i];
    if (!((c >= '0' && c <= '9') || islower_ascii(c | 0x20))) return 0;
  }
  return k;
}

/* The null: text that is no ID, drawn from the smallest of a few
** alphabets that holds it: digits (10); hex in lower, upper or mixed case
** (16, 16, 22); lower or upper case letters (26), with digits (36); both
** cases (52), with digits (62); plus each other ASCII byte it has, control
** bytes (32), bytes past ASCII (128).  A word of lowercase letters has
** 4.7 bits a letter, hex 4 a digit, a UUID's 36 characters (hex and '-')
** 147 bits: more than its 128, by its hyphens. */
static void weigh (text *x) {
  int digit = 0, hl = 0, ol = 0, hu = 0, ou = 0, a;
  int other = 0, ctl = 0, high = 0, hexonly = 1;
  for (int w = 0; w < 4; w++)
    for (uint64_t m = x->set[w]; m; m &= m - 1) {
      unsigned char c = (unsigned char)(w * 64 + __builtin_ctzll(m));
      if (c >= '0' && c <= '9') digit = 1;
      else if (c >= 'a' && c <= 'f') hl = 1;
      else if (c >= 'A' && c <= 'F') hu = 1;
      else if (c >= 'g' && c <= 'z') ol = 1, hexonly = 0;
      else if (c >= 'G' && c <= 'Z') ou = 1, hexonly = 0;
      else if (c < 0x20 || c == 0x7f) ctl = 1, hexonly = 0;
      else if (c >= 0x80) high = 1, hexonly = 0;
      else other++, hexonly = 0;
    }
  if (ol || ou) {                       /* letters beyond hex */
    int lower = ol || hl, upper = ou || hu;
    a = (lower && upper ? 52 : 26) + 10 * digit;
  }
  else if (hl || hu) a = hl && hu ? 22 : 16;
  else a = 10 * digit;
  a += other + 32 * ctl + 128 * high;
  x->per = log2(a > 1 ? a : 2);
  x->bits = (double)x->n * x->per;
  x->hash = hexonly && (x->n == 32 || x->n == 40 || x->n == 56 ||
                        x->n == 64 || x->n == 96 || x->n == 128);
  x->tag = hasbyte(x->set, '_') ? tagof(x->t, x->n) : 0;
}

/* ------------------------------------------------------------- weighing */

/* The earliest time a reading of s can plausibly have. */
static int64_t since (const ids_scheme *s, int64_t now) {
  if (s->about && s->about->since_ms) return s->about->since_ms;
  if (s->epoch_ms == 0) return now - PAST_MS;
  return s->epoch_ms + DAY_MS;
}

/* Evidence of a time t of scheme k (its note in *note): how much likelier
** a real ID has it than a value drawn at random over the field. */
static double timeweight (const ischeme *k, int64_t t, int64_t now,
                          const char **note, int *inlife) {
  int64_t from = since(k->s, now), first = k->s->epoch_ms + DAY_MS;
  double span = k->span > 1 ? k->span : 1, zone;
  *inlife = 0;
  if (t > now + AHEAD_MS) { *note = "time after now"; return T_BAD; }
  if (t < first) { *note = "time on its epoch's first day"; return T_BAD; }
  if (t < from) {
    *note = "time before the format's first IDs";
    zone = (double)(from - first);
    zone = log2(span * P_BEFORE / (zone > 1 ? zone : 1));
    return zone < 0 ? zone : 0;
  }
  *inlife = 1;
  *note = NULL;
  zone = (double)(now + AHEAD_MS - (from > first ? from : first));
  zone = log2(span * P_LIFE / (zone > 1 ? zone : 1));
  return zone > T_MAX ? T_MAX : zone < 0 ? 0 : zone;
}

/* Where a reading stands: refused, weak, or sure. */
static void stand (cand *o) {
  ids_candidate *c = &o->c;
  c->refused = !(c->marks >= MARKED || c->evidence >= FLOOR);
  c->weak = !c->refused && c->evidence < SURE;
}

/* Whether v holds every constant of s that a decode requires, and s's
** own rule (SIQ's assigned qualifier): ids_scheme_decode's check, with no
** message made (most readings of a text fail it). */
static int holds (const ids_scheme *s, const ids_value *v) {
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->kind == IDS_KIND_CONSTANT && !f->loose &&
        ids_field_get(f, v) != f->value)
      return 0;
  }
  return !(s->layout && s->layout->validate &&
           s->layout->validate(s, v, NULL) != IDS_OK);
}

/* Whether the text begins and ends as every text of a form does (letters in
** either case: "URN:UUID:"). */
static int affixed (const learnt *l, const text *x) {
  const char *suf = l->suf + sizeof l->suf - l->nsuf;
  if (!l->npre && !l->nsuf) return 0;
  if (x->n < (size_t)l->npre + l->nsuf) return 0;
  for (size_t i = 0; i < l->npre; i++)
    if ((x->t[i] | 0x20) != (l->pre[i] | 0x20)) return 0;
  for (size_t i = 0; i < l->nsuf; i++)
    if ((x->t[x->n - l->nsuf + i] | 0x20) != (suf[i] | 0x20)) return 0;
  return 1;
}

/* ic's value of the text, once for all its twins (by its first form). */
static int decode (const ischeme *k, const icodec *ic, const text *x,
                   memo *m, ids_value *v) {
  int id = ic->first->id;
  signed char *st = m ? &m->state[id] : NULL;
  if (st && *st) {
    if (*st < 0) return 0;
    *v = m->value[id];
    return 1;
  }
  if (ic->c->decode(ic->c, x->t, x->n, k->s->bits, v, NULL) != IDS_OK) {
    if (st) *st = -1;
    return 0;
  }
  if (st) *st = 1, m->value[id] = *v;
  return 1;
}

static int try (const ischeme *k, const icodec *ic, int marked,
                const text *x, const char *enc, memo *m, cand *out) {
  ids_candidate *o = &out->c;
  const ids_scheme *s = k->s;
  int own = 1, inlife = 0;    /* own: every version field holds its value */
  int aliased = 0, noncanon = 0, casebits = 0;
  double t = 0, form, affix;
  size_t body = x->n;
  const learnt *l;
  if (!decode(k, ic, x, m, &o->value) || !holds(s, &o->value)) return 0;
  l = known(k, ic);
  for (int i = 0; i < s->nfields && k->versionbits; i++)
    if (s->fields[i].loose &&
        ids_field_get(&s->fields[i], &o->value) != s->fields[i].value)
      own = 0;
  out->k = k;
  o->scheme = s;
  o->codec = ic->c;
  out->name = ic->name;
  out->dflt = ic->c == s->codecs[0];
  o->marked = marked;
  o->note = NULL;
  o->has_time = ids_scheme_time_ms(s, &o->value, &o->time_ms);
  if (!o->has_time) o->time_ms = 0;
  if (k->timed && own && o->has_time)
    t = timeweight(k, o->time_ms, x->now, &o->note, &inlife);
  o->confirmed = k->timed && own && o->has_time && inlife;
  /* a value of another version has no time to doubt (a TypeID of a v4) */
  o->plausible = !k->timed || !own || o->confirmed;
  o->constbits = k->constbits + (own ? k->versionbits : 0);
  o->ambiguous = 0;
  o->length = 0;
  /* marks: constants, what the text holds beyond the value's bits */
  if (ic->tagsep && x->n > ic->maxlen) {    /* a tag the form reads */
    const char *p = memchr(x->t, ic->tagsep, x->n), *q = p;
    while (q) {
      p = q;
      q = memchr(p + 1, ic->tagsep, x->n - (size_t)(p + 1 - x->t));
    }
    if (p) body = x->n - (size_t)(p + 1 - x->t);
  }
  if (!marked && !l->exact) {           /* as its form writes it? */
    const char *b = x->t + (x->n - body);
    int letters = 0, flips = 0;
    if (!ic->fixed && body > 1 && (unsigned char)b[0] == ic->zero) {
      noncanon = 1;           /* leading zeros: no writer adds them */
      o->note = "digits its form does not write";
    }
    for (size_t i = 0; i < body && !inset(x->set, l->own); i++) {
      unsigned char ch = (unsigned char)b[i];
      int letter = (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z';
      letters += letter;
      if (letter && l->ocase == (ch & 0x20 ? 1 : 2)) flips++;
      if (!hasbyte(l->own, ch) && !(letter && hasbyte(l->own, ch ^ 0x20)))
        aliased = 1;          /* Crockford's I, L, O */
    }
    /* letters in the other case: all of them, a writer's habit (a
    ** lower-case ULID); some, noise that no writer makes */
    casebits = !flips ? 0 : flips == letters ? 1 : letters;
  }
  affix = affixed(l, x) ? (l->npre + l->nsuf) * x->per : 0;
  o->marks = (double)o->constbits + (double)body * x->per - s->bits;
  if (aliased) o->marks -= ALIASED;
  o->marks -= casebits;
  if (ic->fixed && body == ic->minlen) o->marks += LENMARK;
  if (body < x->n) o->marks += TAGMARK;
  else if (x->tag) o->marks -= TAGNULL + 1.3 * (double)(x->tag - 1);
  if (x->hash) o->marks -= HASHLEN;
  form = enc || marked || out->dflt ? 0 : -k->otherform;
  o->evidence = o->marks + t + form;
  out->c.rank = o->marks + form + t / 2;
  stand(out);
  if (o->refused && affix >= MARKED)    /* its form's own marks: named */
    o->refused = 0, o->weak = 1;
  out->skew = noncanon;
  if (noncanon) o->refused = 1, o->weak = 0;
  out->dist = !o->has_time ? UINT64_MAX :
              o->time_ms > x->now ? (uint64_t)(o->time_ms - x->now)
                                  : (uint64_t)(x->now - o->time_ms);
  return 1;
}

/* Whether t[0..n) is a word or a name as people write them: letters
** alone, in one case, or capitalised words run together ("Kubernetes",
** "JavaScript", "PostgreSQL", "McDonald": a capital, then lowercase,
** up to three times, and capitals last); a random text of both cases
** seldom is. */
static int wordlike (const char *t, size_t n) {
  size_t i = 0;
  int humps = 0, lower = 0, upper = 0;
  for (size_t j = 0; j < n; j++) {
    unsigned char c = (unsigned char)t[j];
    if (c >= 'a' && c <= 'z') lower = 1;
    else if (c >= 'A' && c <= 'Z') upper = 1;
    else return 0;
  }
  if (!lower || !upper) return 1;
  while (i < n && humps < 4) {          /* a capital, two lowercase or more */
    size_t k = i, low;
    if (t[i] >= 'A' && t[i] <= 'Z') i++;
    for (low = i; i < n && t[i] >= 'a' && t[i] <= 'z'; i++) continue;
    if (i - low < 2) { i = k; break; }
    humps++;
  }
  while (i < n && t[i] >= 'A' && t[i] <= 'Z') i++;    /* capitals last */
  return i == n && humps >= 1 && humps <= 3;
}

/* The text as k's format at another size (nanoid(10)): lengths it may
** have, characters of its first encoding; it must stand on its alphabet
** alone (a word has too few of its characters). */
static int othersize (const ischeme *k, const text *x, cand *out) {
  const ids_about *a = k->s->about;
  const icodec *ic = &k->c[0];
  const learnt *l;
  if (a == NULL || x->n < a->lengths[0] || x->n > a->lengths[1] ||
      (x->n >= ic->minlen && x->n <= ic->maxlen) ||     /* its own: decoded */
      x->tag || !inset(x->set, (l = known(k, ic))->set) ||
      wordlike(x->t, x->n))
    return 0;
  memset(out, 0, sizeof *out);
  out->k = k;
  out->c.scheme = k->s;
  out->c.codec = ic->c;
  out->c.plausible = 1;
  out->c.length = (int)x->n;
  out->c.marks = x->bits - (double)x->n * l->abits;
  out->c.evidence = out->c.marks;
  out->c.note = "read by its alphabet alone";
  out->name = ic->name;
  out->dflt = 1;
  out->skew = 0;
  out->c.rank = out->c.evidence;
  out->dist = UINT64_MAX;
  stand(out);
  return out->c.evidence >= ALONE;
}

/* Better first: a reading that stands; more marks plus form plus half
** the time; then the guesses: the scheme's default form (what a log line
** most likely holds), a form no other scheme wrote, a time nearer now,
** the inspector's order. */
static int better (const cand *a, const cand *b) {
  if (a->c.refused != b->c.refused) return b->c.refused;
  if (a->skew != b->skew) return b->skew;
  if (a->c.rank != b->c.rank) return a->c.rank > b->c.rank;
  if (a->dflt != b->dflt) return a->dflt;
  if (a->c.unique != b->c.unique) return a->c.unique > b->c.unique;
  if (a->dist != b->dist) return a->dist < b->dist;
  return a->k < b->k;
}

/* A reading that can stand beside another as its equal: it stands, its
** time is in its format's life, or its format has none (a UUIDv4's; a
** TypeID of another version has one it cannot show), a value read. */
static int peer (const cand *c) {
  return !c->c.refused && !c->c.length &&
         (c->c.confirmed || !c->k->timed);
}

/* Whether r reads the text as well as the best b: both can stand as
** peers, r has marks as strong, in its own default form, or in another
** with evidence as strong (a Discord and a TSID in decimal; a UUIDv4 of
** short-uuid's base58 and a v3 of shortuuid's base 57; not a TSID beside
** a Snowflake's own base32, nor an ObjectId beside a Flax that is seldom
** written in hex); or b is a guess and r the text read by its alphabet
** alone (a nanoid(16) that Flax reads too). */
static int rival (const cand *b, const cand *r) {
  if (r->k != b->k && b->c.weak && !b->c.refused && b->c.plausible &&
      r->c.length)
    return 1;                 /* a guess beside a text of r's alphabet */
  return r->k != b->k && peer(b) && peer(r) &&
         r->c.marks >= b->c.marks - NEAR &&
         (r->dflt || r->c.marked || r->c.evidence >= b->c.evidence - SPREAD);
}

/* The most marks a reading of the whole text by ic can have: what the
** text holds beyond the value's bits, every constant held, its length
** and affixes.  Under MARKED, and under FLOOR with the best of times, no
** reading by ic can stand: unless ic is its scheme's default form (whose
** reading says why it fails), it is not even decoded (a word of 10
** letters holds 47 bits, a 64-bit value's text more). */
static double mostmarks (const ischeme *k, const icodec *ic,
                         const learnt *l, const text *x) {
  double m = x->bits - k->s->bits + k->constbits + k->versionbits;
  if (ic->fixed && x->n == ic->minlen) m += LENMARK;
  return m + (l->npre + l->nsuf) * x->per;
}

/* The forms of list (one length's) whose bytes hold the text's, tried. */
static int tryall (const ids_inspector *ins, const entry *list, int nl,
                   const text *x, const unsigned char *marked, memo *m,
                   cand *cs, int nc, int *hopeless) {
  for (int i = 0; i < nl && nc < IDS_INSPECT_MAX; i++) {
    const ischeme *kk = &ins->k[list[i].k];
    const icodec *ic = &kk->c[list[i].j];
    const learnt *l;
    double most;
    if (marked[list[i].k]) continue;       /* read in its marked form */
    if (!inset(x->set, (l = known(kk, ic))->set)) continue;
    most = mostmarks(kk, ic, l, x);
    if (ins->nk > 1 && ic->c != kk->s->codecs[0] && most < MARKED &&
        most + T_MAX < FLOOR) {
      ++*hopeless;
      continue;
    }
    if (try(kk, ic, 0, x, NULL, m, &cs[nc])) nc++;
  }
  return nc;
}

/* Every scheme and form that decodes x, into cs, and their order best
** first; returns how many. */
static int candidates (const ids_inspector *ins, text *x, const char *enc,
                       size_t enclen, cand *cs, int *order) {
  unsigned char marked[ins->nk ? ins->nk : 1];
  signed char state[ins->nforms ? ins->nforms : 1];
  ids_value value[ins->nforms ? ins->nforms : 1];
  memo m = {state, value};
  int nc = 0;
  for (size_t i = 0; i < x->n; i++)
    addbyte(x->set, (unsigned char)x->t[i]);
  weigh(x);
  if (enc) {
    char name[IDS_TEXTMAX];
    if (enclen >= sizeof name) return 0;
    memcpy(name, enc, enclen);
    name[enclen] = '\0';
    for (int i = 0; i < ins->nk && nc < IDS_INSPECT_MAX; i++) {
      const ischeme *k = &ins->k[i];
      for (int j = 0; j < k->nc; j++)
        if (strcmp(k->c[j].c->name, name) == 0 &&
            try(k, &k->c[j], 0, x, name, NULL, &cs[nc]))
          nc++;
    }
  }
  else {
    memset(marked, 0, sizeof marked);
    for (int d = 0; d < ins->ndetects && nc < IDS_INSPECT_MAX; d++) {
      const ischeme *k = &ins->k[ins->detects[d]];
      const ids_codec *c = k->s->detect(k->s, x->t, x->n);
      if (c == k->plain) continue;
      marked[ins->detects[d]] = 1;          /* that form only */
      for (int j = 0; j < k->nc; j++)
        if (k->c[j].c == c && try(k, &k->c[j], 1, x, NULL, NULL, &cs[nc]))
          nc++;
    }
    memset(state, 0, sizeof state);
    if (x->n < IDS_TEXTMAX)
      nc = tryall(ins, ins->bylen[x->n], ins->nbylen[x->n], x, marked, &m,
                  cs, nc, &x->hopeless);
    for (int i = 0; i < ins->ntagged && nc < IDS_INSPECT_MAX; i++) {
      const ischeme *k = &ins->k[ins->tagged[i].k];
      const icodec *ic = &k->c[ins->tagged[i].j];
      const char *p, *q;
      uint64_t head[4] = {0, 0, 0, 0}, tail[4] = {0, 0, 0, 0};
      size_t body;
      if (!hasbyte(x->set, ic->tagsep) || marked[ins->tagged[i].k]) continue;
      p = q = memchr(x->t, ic->tagsep, x->n);
      while (q) {
        p = q;
        q = memchr(p + 1, ic->tagsep, x->n - (size_t)(p + 1 - x->t));
      }
      body = x->n - (size_t)(p + 1 - x->t);
      if (body < ic->minlen || body > ic->maxlen || body == x->n) continue;
      for (const char *c = x->t; c < p + 1; c++)
        addbyte(head, (unsigned char)*c);
      for (const char *c = p + 1; c < x->t + x->n; c++)
        addbyte(tail, (unsigned char)*c);
      if (inset(head, ic->tagset) && inset(tail, known(k, ic)->set) &&
          try(k, ic, 0, x, NULL, NULL, &cs[nc]))
        nc++;
    }
  }
  for (int j = 0; j < ins->nsized && nc < IDS_INSPECT_MAX; j++) {
    const ischeme *k = &ins->k[ins->sized[j]];
    if ((enc == NULL || ids_codec_find(k->s, enc, enclen) == k->c[0].c) &&
        othersize(k, x, &cs[nc]))
      nc++;
  }
  for (int i = 0; i < nc; i++) {
    int same = 0;
    for (int j = 0; j < nc && !same; j++)
      same = cs[j].k != cs[i].k && cs[j].name == cs[i].name;
    cs[i].c.unique = !same;
  }
  for (int i = 0; i < nc; i++) order[i] = i;
  for (int i = 1; i < nc; i++) {        /* insertion sort: a handful */
    int x1 = order[i], j = i;
    for (; j > 0 && better(&cs[x1], &cs[order[j - 1]]); j--)
      order[j] = order[j - 1];
    order[j] = x1;
  }
  if (nc > 0)                           /* a guess? */
    for (int i = 1; i < nc; i++)
      if (rival(&cs[order[0]], &cs[order[i]]))
        cs[order[i]].c.ambiguous = cs[order[0]].c.ambiguous = 1;
  return nc;
}

static int isblank_ascii (unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

int ids_inspect (const ids_inspector *ins, const char *text_, size_t n,
                 const char *enc, size_t enclen, int64_t now_ms,
                 ids_candidate *out, int max, ids_error *e) {
  cand cs[IDS_INSPECT_MAX];
  int order[IDS_INSPECT_MAX];
  text x;
  int nc;
  memset(&x, 0, sizeof x);
  x.t = text_;
  x.n = n;
  x.now = now_ms;
  while (x.n > 0 && isblank_ascii((unsigned char)*x.t)) x.t++, x.n--;
  while (x.n > 0 && isblank_ascii((unsigned char)x.t[x.n - 1])) x.n--;
  nc = x.n ? candidates(ins, &x, enc, enclen, cs, order) : 0;
  if (nc == 0) {              /* why: the core's words for one scheme */
    ids_value v;
    if (n == 0) return ids_fail(e, IDS_EINVAL, "empty"), 0;
    if (ins->nk == 1 &&
        ids_scheme_decode(ins->k[0].s, enc ? ids_codec_find(ins->k[0].s,
                          enc, enclen) : NULL, text_, n, &v, e) != IDS_OK)
      return 0;
    if (x.tag && !enc) {
      char q[IDS_ERRMAX / 2];
      ids__quote(q, sizeof q, x.t + x.tag, x.n - x.tag);
      ids_fail(e, IDS_EINVAL, "no scheme decodes it: '%.*s' is a type "
               "prefix, and no format inspect knows writes '%s'",
               (int)(x.tag > 40 ? 40 : x.tag), x.t, q);
      return 0;
    }
    ids_fail(e, IDS_EINVAL, enc ? "no scheme decodes it in that encoding"
                                : x.hopeless ? "no scheme reads it plausibly "
                                  "(too little in it for any form of its "
                                  "characters)"
                                : "no scheme decodes it");
    return 0;
  }
  if (nc > max) nc = max < 0 ? 0 : max;
  for (int i = 0; i < nc; i++) out[i] = cs[order[i]].c;
  return nc;
}

int ids_inspect_why (const ids_candidate *c, char *buf, size_t cap) {
  const char *what = c->refused ? "too little evidence for it" :
                     c->weak ? "weak evidence" : NULL;
  if (what == NULL && c->note == NULL) {
    if (cap) buf[0] = '\0';
    return 0;
  }
  if (what == NULL)
    return snprintf(buf, cap, "%s", c->note);
  /* whole bits, and no "-0" for a hair below nothing */
  return snprintf(buf, cap, "%s%s%s (%.0f bits)", c->note ? c->note : "",
                  c->note ? "; " : "", what,
                  fabs(c->evidence) < 0.5 ? 0.0 : c->evidence);
}
