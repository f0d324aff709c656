/*
** error.c: filling an ids_error, and quoting input for its message.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

int ids_fail (ids_error *e, int code, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->code = code;
  }
  return code;
}

void ids__quote (char *q, size_t cap, const char *t, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < n && j + 6 < cap; i++) {
    unsigned char ch = (unsigned char)t[i];
    if (i == 40) { memcpy(q + j, "...", 3); j += 3; break; }
    if (ch == '"' || ch == '\\') { q[j++] = '\\'; q[j++] = (char)ch; }
    else if (ch == 0) { q[j++] = '\\'; q[j++] = '0'; }
    else if (ch >= 0x20 && ch != 0x7f) q[j++] = (char)ch;
    else {
      static const char hx[] = "0123456789abcdef";
      q[j++] = '\\'; q[j++] = 'x'; q[j++] = hx[ch >> 4]; q[j++] = hx[ch & 15];
    }
  }
  q[j] = '\0';
}
