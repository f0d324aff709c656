/*
** stableid.c: UUIDs as 122-bit numbers.  The reference reads a UUID with
** BigInt("0x" + text without dashes): any hex of any length and case, with
** no version or variant check, and drops the version nibble and the two
** variant bits.  Formatting wraps modulo 2^122 and writes canonical v4.
*/
#include <string.h>

#include "idc.h"

#define M(b) ((((idc_u128)1) << (b)) - 1)

static int hexval (int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* BigInt() trims whitespace around its text, so "0x<hex> " parses */
static int jsspace (int ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

int idc_parse (const char *s, idc_u128 *n, const char *what, ids_error *e) {
  idc_u128 u = 0;
  size_t digits = 0;
  int trailing = 0;
  const char *p;
  for (p = s; *p; p++) {
    int v = hexval((unsigned char)*p);
    if (*p == '-') continue;
    if (v >= 0 && !trailing) {
      u = (u << 4) | (unsigned)v;   /* bits above 127 fall off, as there */
      digits++;
    }
    else if (jsspace((unsigned char)*p) && digits > 0)
      trailing = 1;
    else
      break;
  }
  if (*p || digits == 0) {
    return ids_fail(e, IDS_EINVAL, "%s: '%.60s' is not hexadecimal", what, s);
  }
  *n = ((u >> 80) & M(48)) << 74 | ((u >> 64) & 0xfff) << 62 | (u & M(62));
  return IDS_OK;
}

void idc_format (idc_u128 n, char *out) {
  static const char hex[] = "0123456789abcdef";
  idc_u128 u = ((n >> 74) & M(48)) << 80 | (idc_u128)4 << 76
             | ((n >> 62) & 0xfff) << 64 | (idc_u128)2 << 62 | (n & M(62));
  int i;
  char *o = out + IDS_IDC_UUID_LEN;
  *o = '\0';
  for (i = 0; i < 32; i++) {
    if (i == 12 || i == 16 || i == 20 || i == 24) *--o = '-';
    *--o = hex[(unsigned)u & 15];
    u >>= 4;
  }
}

int ids_idc_uuid_numeric (const char *uuid, uint64_t *hi, uint64_t *lo,
                          ids_error *e) {
  idc_u128 n;
  int r = idc_parse(uuid, &n, "uuid", e);
  if (r) return r;
  *hi = (uint64_t)(n >> 64);
  *lo = (uint64_t)n;
  return IDS_OK;
}

int ids_idc_uuid_offset (const char *uuid, int64_t off, char *out,
                         ids_error *e) {
  idc_u128 n;
  int r;
  if (off < 0 || off > IDC_MAX_SAFE)
    return ids_fail(e, IDS_ERANGE, "offset: %lld is not in 0..2^53-1",
                    (long long)off);
  if ((r = idc_parse(uuid, &n, "uuid", e))) return r;
  idc_format(n + (idc_u128)off, out);
  return IDS_OK;
}

int ids_idc_is_stable_id (const char *s) {
  size_t i;
  if (strlen(s) != IDS_IDC_UUID_LEN) return 0;
  for (i = 0; i < IDS_IDC_UUID_LEN; i++) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return 0;
    }
    else if (i == 14) {
      if (s[i] != '4') return 0;
    }
    else if (i == 19) {
      if (!strchr("89ab", s[i]) || s[i] == '\0') return 0;
    }
    else if (hexval((unsigned char)s[i]) < 0) return 0;
  }
  return 1;
}
