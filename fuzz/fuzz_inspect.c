/*
** fuzz_inspect.c: libFuzzer harness for the inspect engine
** (inspect/inspect.h), which reads text from anyone: a pasted ID, a line
** of a log.  The first byte picks the inspector (every scheme, or one
** scheme alone) and whether to narrow to one encoding; the rest is text.
** Invariants (a broken one traps, so libFuzzer records the input):
**   - no reading: 0 returned, a negative code and a message in e;
**   - at most IDS_INSPECT_MAX readings, each of a scheme the inspector
**     holds and a codec of that scheme (the one asked for, if one was);
**   - a reading marked ambiguous is plausible, and so is the best, which
**     is marked too;
**   - each reading's value re-encodes in its codec to text that decodes
**     to the same value (the engine never reports what its codec cannot
**     say again);
**   - the same text gives the same readings again (no hidden state).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"
#include "inspect.h"

#define CHECK(cond) \
  do { if (!(cond)) fail(#cond, __LINE__); } while (0)

static void fail (const char *what, int line) {
  fprintf(stderr, "fuzz_inspect.c:%d: invariant broken: %s\n", line, what);
  __builtin_trap();
}

#define NOW_MS  INT64_C(1764115200000)          /* 2025-11-26: fixed */

static const ids_scheme *all[64];
static ids_inspector *every, *one[64];
static size_t nall;

static void setup (void) {
  const char *names[64];
  ids_error e;
  if (ids_init() != IDS_OK) abort();
  nall = ids_scheme_list(names, 64);
  if (nall > 64) nall = 64;
  for (size_t i = 0; i < nall; i++) {
    all[i] = ids_scheme_find(names[i]);
    if ((one[i] = ids_inspector_new(&all[i], 1, &e)) == NULL) abort();
  }
  if ((every = ids_inspector_new(NULL, 0, &e)) == NULL) abort();
}

/* Whether the inspector holds s: by name, as an inspector of every scheme
** holds each with its default parameters applied (another descriptor). */
static int holds (const ids_scheme *s, size_t k, int single) {
  if (single) return s == all[k];
  for (size_t i = 0; i < nall; i++)
    if (strcmp(all[i]->name, s->name) == 0) return 1;
  return 0;
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size) {
  static int ready;
  ids_candidate cs[IDS_INSPECT_MAX], again[IDS_INSPECT_MAX];
  const ids_inspector *ins;
  const char *enc = NULL, *text;
  size_t k, n;
  int nc, single;
  ids_error e;
  if (!ready) setup(), ready = 1;
  if (size < 2) return 0;
  single = data[0] & 1;
  k = (data[0] >> 1) % nall;
  ins = single ? one[k] : every;
  if (data[1] & 0x80) {                 /* narrowed to a codec of all[k] */
    const ids_scheme *s = all[k];
    enc = s->codecs[(data[1] & 0x7f) % s->ncodecs]->name;
  }
  text = (const char *)data + 2, n = size - 2;
  memset(&e, 0, sizeof e);
  nc = ids_inspect(ins, text, n, enc, enc ? strlen(enc) : 0, NOW_MS, cs,
                   IDS_INSPECT_MAX, &e);
  CHECK(nc >= 0 && nc <= IDS_INSPECT_MAX);
  if (nc == 0) {
    CHECK(e.code < 0 && e.msg[0] != '\0');
    return 0;
  }
  for (int i = 0; i < nc; i++) {
    const ids_candidate *c = &cs[i];
    char out[IDS_TEXTMAX];
    ids_value v;
    size_t m;
    int found = 0;
    CHECK(holds(c->scheme, k, single));
    for (int j = 0; j < c->scheme->ncodecs; j++)
      found |= c->scheme->codecs[j] == c->codec;
    CHECK(found);
    CHECK(enc == NULL || strcmp(c->codec->name, enc) == 0);
    CHECK(!c->ambiguous || (c->plausible && cs[0].ambiguous));
    if (c->length) {            /* another size: trimmed text, no value */
      CHECK(c->scheme->about && (size_t)c->length <= n && !c->has_time &&
            c->codec == c->scheme->codecs[0]);
      continue;
    }
    m = ids_scheme_encode(c->scheme, c->codec, &c->value, out);
    CHECK(m > 0 && m < IDS_TEXTMAX);
    CHECK(ids_scheme_decode(c->scheme, c->codec, out, m, &v, &e) == IDS_OK);
    CHECK(memcmp(&v, &c->value, sizeof v) == 0);
  }
  CHECK(ids_inspect(ins, text, n, enc, enc ? strlen(enc) : 0, NOW_MS, again,
                    IDS_INSPECT_MAX, &e) == nc);
  for (int i = 0; i < nc; i++)
    CHECK(again[i].scheme == cs[i].scheme && again[i].codec == cs[i].codec &&
          memcmp(&again[i].value, &cs[i].value, sizeof cs[i].value) == 0 &&
          again[i].has_time == cs[i].has_time &&
          (!cs[i].has_time || again[i].time_ms == cs[i].time_ms));
  return 0;
}
