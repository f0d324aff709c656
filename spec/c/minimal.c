/*
** minimal.c: run by spec/packaging/core_minimal.sh against a libidscheme built with
** no networked store (IDS_WITH_REDIS=OFF, IDS_WITH_ETCD=OFF): a local slot
** still serves a generator, SIQ's DID form still checks its CRC-32, and a
** redis or etcd URL fails saying that this build lacks the store.
**   minimal SLOTDIR
*/
#include <stdio.h>
#include <string.h>

#include "idscheme.h"
#include "slots.h"

static int failed;

static void check (int ok, const char *what, const char *msg) {
  if (ok) return;
  fprintf(stderr, "FAIL %s%s%s\n", what, msg ? ": " : "", msg ? msg : "");
  failed++;
}

int main (int argc, char **argv) {
  static const char *const urls[][2] = {
    {"redis://h", "slot store \"redis://h\": this build has no redis store "
                  "(built without IDS_WITH_REDIS)"},
    {"rediss://u:pw@h/p", "slot store \"rediss://u:***@h/p\": this build "
                          "has no redis store (built without IDS_WITH_REDIS)"},
    {"etcd://h:2379/p", "slot store \"etcd://h:2379/p\": this build has no "
                        "etcd store (built without IDS_WITH_ETCD)"},
  };
  const char *did = "did:siq:e7x7mmqaaaaaaaaaaaaaaaaaaaaah";
  char local[600], text[IDS_TEXTMAX];
  const ids_scheme *s;
  ids_options o;
  ids_generator g;
  ids_slot *slot = NULL;
  ids_value v;
  ids_error e;
  size_t i;
  if (argc != 2) return fprintf(stderr, "usage: minimal SLOTDIR\n"), 2;
  check(ids_init() == IDS_OK, "ids_init", NULL);
  for (i = 0; i < sizeof urls / sizeof urls[0]; i++) {
    int rc = ids_slot_claim(urls[i][0], "t", 4, NULL, &slot, &e);
    check(rc == IDS_ENOENT && strcmp(e.msg, urls[i][1]) == 0, urls[i][0],
          rc == IDS_OK ? "claimed" : e.msg);
  }
  check(ids_slot_find("redis") == NULL && ids_slot_find("etcd") == NULL
        && ids_slot_find("local") != NULL, "the stores registered", NULL);
  /* a FLUID generator on a local slot */
  snprintf(local, sizeof local, "local:%s", argv[1]);
  s = ids_scheme_find("fluid");
  ids_options_init(&o, s);
  check(ids_options_set_string(&o, "slots", 5, local, strlen(local), &e)
        == IDS_OK, "slots = local:SLOTDIR", e.msg);
  check(ids_generator_init(&g, s, &o, NULL, &e) == IDS_OK,
        "a generator on a local slot", e.msg);
  check(ids_generator_next(&g, &v, &e) == IDS_OK, "next", e.msg);
  ids_generator_close(&g);
  /* SIQ's DID form: its CRC-32 (core/crc32.c) read and written */
  s = ids_scheme_find("siq");
  check(ids_scheme_decode(s, NULL, did, strlen(did), &v, &e) == IDS_OK,
        did, e.msg);
  ids_scheme_encode(s, ids_codec_find(s, "did", 3), &v, text);
  check(strcmp(text, did) == 0, "the DID again", text);
  printf("minimal: %d failed\n", failed);
  return failed != 0;
}
