/*
** keys.c: what the networked backends share: key names, stored times,
** how a message names a store.  Apart from slot.c and url.c so that the
** stores' module (stores.c) can link it without the lease core.
*/
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "slot_internal.h"

int ids__slot_key (char *out, size_t n, const char *prefix, const char *ns,
                   const char *kind, long slot) {
  int k = slot < 0
    ? snprintf(out, n, "%s/%s/%s", prefix, ns, kind)
    : snprintf(out, n, "%s/%s/%s/%05ld", prefix, ns, kind, slot);
  return k > 0 && (size_t)k < n ? IDS_OK : IDS_ERANGE;
}

void ids__slot_fmt_ns (char out[21], int64_t ns) {
  snprintf(out, 21, "%020lld", (long long)(ns < 0 ? 0 : ns));
}

int64_t ids__slot_parse_ns (const char *p, size_t n) {
  uint64_t v;
  if (n > 20 || ids__decimal(p, n, INT64_MAX, &v) != IDS_OK) return -1;
  return (int64_t)v;
}

unsigned long ids__slot_candidates (const ids_slot_req *r) {
  return (1ul << r->bits) >> __builtin_popcount(r->fixmask);
}

void ids__slot_skipped (const ids_slot_req *r, const char *what,
                        const char *why) {
  if (r->note)
    snprintf(r->note, r->notelen, "skipped a slot: %.100s %s", what, why);
}

int ids__slot_shown (const ids_slot_url *u) {
  size_t n = strcspn(u->text, "?");
  return n < 80 ? (int)n : 80;
}
