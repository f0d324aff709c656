/*
** keys.c: what the networked backends share: key names and stored times.
** Apart from slot.c so that the backends, which slot.c names in its
** registry, do not call back into it (no circle of references).
*/
#include <stdio.h>

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
  int64_t v = 0;
  size_t i;
  if (n == 0 || n > 20) return -1;
  for (i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return -1;
    if (v > (INT64_MAX - (p[i] - '0')) / 10) return -1;
    v = v * 10 + (p[i] - '0');
  }
  return v;
}
