/*
** decimal.c: decimal text to integers.  A file of its own because the
** slot stores' module (core/slot/stores.c) links it too, and nothing
** else of the core's text road.
*/
#include "internal.h"

int ids__decimal (const char *t, size_t n, uint64_t max, uint64_t *x) {
  uint64_t v = 0;
  int over = 0;                   /* sticky: a non-digit later still says
                                     EINVAL */
  if (n == 0) return IDS_EINVAL;
  for (size_t k = 0; k < n; k++) {
    if (t[k] < '0' || t[k] > '9') return IDS_EINVAL;
    over |= __builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, (uint64_t)(t[k] - '0'), &v) || v > max;
  }
  if (over) return IDS_ERANGE;
  *x = v;
  return IDS_OK;
}

int ids__decimal_signed (const char *t, size_t n, int64_t *x) {
  size_t neg = n > 0 && t[0] == '-';
  uint64_t u;
  int r = ids__decimal(t + neg, n - neg, (uint64_t)INT64_MAX + neg, &u);
  if (r == IDS_OK) *x = neg ? (int64_t)(0 - u) : (int64_t)u;
  return r;
}
