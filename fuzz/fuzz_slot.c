/*
** fuzz_slot.c: libFuzzer harness for what the slot room parses from
** outside: etcd's JSON gateway replies (ids__etcd_parse, every reply kind)
** and slot store URLs (ids_slot_parse_url).  The first byte picks the
** kind, the rest is the reply or the URL.  A parse may fail, never crash,
** read out of bounds or break what the reply struct promises.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slot/slot_internal.h"

#define CHECK(cond) \
  do { if (!(cond)) { \
    fprintf(stderr, "fuzz_slot.c:%d: invariant broken: %s\n", __LINE__, \
            #cond); \
    __builtin_trap(); } } while (0)

#define NTAKEN 64

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size) {
  ids__etcd_reply r;
  unsigned char taken[NTAKEN + 1];
  int kind, i;
  if (size == 0) return 0;
  kind = data[0] % 5;
  data++;
  size--;
  if (kind == 4) {   /* a URL: NUL-terminated copy */
    ids_slot_url u;
    ids_error e;
    char *s = malloc(size + 1);
    if (s == NULL) return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    if (ids_slot_parse_url(s, &u, &e) == IDS_OK) {
      CHECK(u.scheme[0] != '\0');
      /* the text is the URL as given, a password in it shown as *** */
      CHECK(u.password[0] ? strstr(u.text, ":***@") != NULL
                          : strcmp(u.text, s) == 0);
      CHECK(strcmp(u.scheme, "local") == 0 || (u.host[0] && u.port > 0
                                              && u.port < 65536));
    } else {
      CHECK(e.code == IDS_EINVAL && e.msg[0] != '\0');
    }
    free(s);
    return 0;
  }
  memset(taken, 0, sizeof taken);
  taken[NTAKEN] = 0xA5;                 /* a canary past the end */
  memset(&r, 0, sizeof r);
  r.taken = taken;
  r.ntaken = NTAKEN;
  if (ids__etcd_parse((const char *)data, size, kind, &r) == 0) {
    CHECK(r.nvalues >= 0 && r.nvalues <= 4);
    for (i = 0; i < r.nvalues; i++) CHECK(r.values[i] >= -2);
    CHECK(r.nkeys >= 0);
    CHECK(r.ok == 0 || r.ok == 1);
  }
  CHECK(taken[NTAKEN] == 0xA5);
  CHECK(r.taken == taken && r.ntaken == NTAKEN);
  return 0;
}
