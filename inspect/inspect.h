/*
** inspect.h: which scheme wrote this text?  (installed as idscheme/inspect.h)
**
** An inspector holds a set of schemes and, for each of their codecs, a
** prefilter learnt from the codec's own output (the lengths and the bytes
** it writes).  ids_inspect tries every form of every scheme that may have
** written a text and ranks those that decode it, best first.  The
** `idscheme inspect` and `convert` commands are built on it.
**
**   ids_inspector *ins = ids_inspector_new(NULL, 0, &e);     every scheme
**   ids_candidate c[IDS_INSPECT_MAX];
**   int n = ids_inspect(ins, text, len, NULL, 0, now_ms, c,
**                       IDS_INSPECT_MAX, &e);
**   if (n == 0) puts(e.msg);      -- else c[0] is the best
**   ids_inspector_free(ins);
**
** An inspector is read-only once made: any number of threads may inspect
** with one at once.
*/
#ifndef IDS_INSPECT_H
#define IDS_INSPECT_H

#include "idscheme.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Candidates one text can have: at most this many are considered. */
#define IDS_INSPECT_MAX 64

typedef struct ids_inspector ids_inspector;

/* One reading of a text.  The ranking compares, in this order: marked,
** plausible, constbits, confirmed, a decoded value over a text read by
** its alphabet alone (ids_candidate.length), the scheme's default
** encoding, unique, the distance of the time from now, the schemes'
** order.  What
** decides is evidence: a mark, a plausible time, constant bits.  When
** another scheme's reading has as much, the best is a guess and both are
** marked ambiguous. */
typedef struct ids_candidate {
  const ids_scheme *scheme;
  const ids_codec *codec;     /* the encoding it was read in */
  ids_value value;            /* ids_scheme_decompose gives its fields */
  int64_t time_ms;            /* Unix ms of its time field(s), if has_time */
  int has_time;               /* 0: no time field, or past int64 ms */
  int marked;                 /* the scheme's detection named this form
                                 (FLUID's RFC 19 marks, SIQ's did:) */
  int plausible;              /* a time in the format's life: from its
                                 about's since_ms (else the day after its
                                 epoch; a Unix-epoch scheme that says
                                 nothing: 30 years before now) to a day
                                 after now; a scheme without time, or a
                                 value of another version (a TypeID of a
                                 UUIDv4): 1 */
  int constbits;              /* the constant bits that hold their values
                                 (a version, a variant; a "version"
                                 field's only where it holds its own) */
  int confirmed;              /* a time in the format's life, not the mere
                                 lack of one to doubt (a UUIDv4's) */
  int unique;                 /* no other candidate's scheme has an
                                 encoding of this name */
  int ambiguous;              /* a plausible reading that a reading of
                                 another scheme matches in evidence:
                                 nothing decides between them */
  int length;                 /* 0, or the text is the format at another
                                 size (nanoid(10): ids_about.lengths), of
                                 this many characters, read by its
                                 alphabet alone: value holds nothing */
} ids_candidate;

/* An inspector for schemes[0..n), in that order (ties go to the first);
** schemes NULL: every registered scheme with its default parameters, in
** the registry's order (schemes registered afterwards are not in it).
** The schemes must outlive it.  NULL with IDS_ENOMEM on failure. */
IDS_API
ids_inspector *ids_inspector_new (const ids_scheme *const *schemes,
                                  size_t n, ids_error *e);
IDS_API
void ids_inspector_free (ids_inspector *ins);

/* IDS_OK if some scheme of the inspector has encoding enc[0..len), else
** IDS_ENOENT naming it (and the scheme, when there is one). */
IDS_API
int ids_inspector_encoding (const ids_inspector *ins, const char *enc,
                            size_t len, ids_error *e);

/* The readings of text[0..n) (blanks around it ignored), best first: at
** most max written to out, their count returned.  enc (not NULL): that
** encoding only.  now_ms: the Unix ms that plausible times are near.  A
** scheme with detection reads a form it marks (FLUID's ƒ, 0x, dots,
** words, emoji; SIQ's did:) only as that form.  0 with e saying why
** (IDS_EINVAL) if none decodes it: "empty", the scheme's own message when
** the inspector has one scheme, else "no scheme decodes it". */
IDS_API
int ids_inspect (const ids_inspector *ins, const char *text, size_t n,
                 const char *enc, size_t enclen, int64_t now_ms,
                 ids_candidate *out, int max, ids_error *e);

#ifdef __cplusplus
}
#endif

#endif
