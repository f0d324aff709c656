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
** An inspector is read-only to its users once made: any number of threads
** may inspect with one at once.  (Inside, it learns most of a codec when a
** text first needs it, once, under a lock.)
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

/* One reading of a text.  Each is weighed as evidence, in bits: how much
** likelier the text is as this scheme's writing than as text that is no
** ID (a word, a number, a hash, a token).  The marks count first: the
** constant bits that hold (a UUID's version and variant), the shape of
** its form (a UUID's hyphens, a URN's "urn:uuid:", a TypeID's prefix, a
** fixed length, an alphabet the text fills: a word of 10 lowercase
** letters has 47 bits, a 64-bit value's text more); then, softer, the
** time: inside the format's life it confirms, before the format's first
** IDs it doubts a little, on its epoch's first day or after now much.  A
** form the scheme does not write by default weighs 3 bits less.
**
** The ranking: readings that stand (not refused) first; then marks plus
** form plus half the time (marks outrank a time prior); then the
** scheme's default encoding, a form no other scheme wrote, a time nearer
** now, the inspector's order.  A reading is refused when it has neither
** marks (3 bits) nor evidence (-3 bits); it is weak (named, but a guess:
** flagged) under 6 bits of evidence; it is ambiguous when another
** scheme reads the text as plausibly, with marks as strong (within 2
** bits), in its own default form or in the same form: nothing in the
** text decides between them. */
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
  int constbits;              /* the constant bits that hold (a version, a
                                 variant; a "version" field's only where it
                                 holds its own) */
  int confirmed;              /* a time in the format's life, not the mere
                                 lack of one to doubt (a UUIDv4's) */
  int unique;                 /* no other candidate's scheme has an
                                 encoding of this name */
  int ambiguous;              /* a plausible reading that a reading of
                                 another scheme matches in marks: nothing
                                 in the text decides between them */
  int length;                 /* 0, or the text is the format at another
                                 size (nanoid(10): ids_about.lengths), of
                                 this many characters, read by its
                                 alphabet alone: value holds nothing */
  double evidence;            /* bits, as above (marks, time and form) */
  double marks;               /* bits of it from marks alone */
  double rank;                /* what orders the readings that stand:
                                 marks, form, half the time */
  int refused;                /* too little to stand on: no reading */
  int weak;                   /* it stands, on too little evidence to be
                                 sure (no marks but its alphabet, a bare
                                 number): a guess, flagged */
  const char *note;           /* NULL, or what weighs against it: "time
                                 before the format's first IDs", "time
                                 after now", "time on its epoch's first
                                 day", "read by its alphabet alone" */
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
** encoding only (then no form weighs less than another).  now_ms: the
** Unix ms that plausible times are near.  A scheme with detection reads
** a form it marks (FLUID's ƒ, 0x, dots, words, emoji; SIQ's did:) only as
** that form.  0 with e saying why (IDS_EINVAL) if none decodes it:
** "empty", the scheme's own message when the inspector has one scheme,
** "no scheme decodes it", or, for a text of a type prefix, '_' and more
** ("cus_NffrFeUfNV2Hib": Stripe's, a GitHub token's), which says so.
** When every reading is refused, they are still given (out[0].refused):
** ids_inspect_why says why in words.  Every input costs a few table
** look-ups before any decoding: the forms of its length whose alphabet
** holds its characters are the only ones tried. */
IDS_API
int ids_inspect (const ids_inspector *ins, const char *text, size_t n,
                 const char *enc, size_t enclen, int64_t now_ms,
                 ids_candidate *out, int max, ids_error *e);

/* Why the best reading c (out[0] of ids_inspect) is refused or flagged,
** in words, into buf[0..cap) (snprintf's count): "time on its epoch's
** first day; 12 bits of evidence against it".  "" when it stands sure. */
IDS_API
int ids_inspect_why (const ids_candidate *c, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
