/*
** builtin.c: the one array of built-in schemes, ids_init() and ids_version().
** ids_init() registers the built-ins, then defines the shipped specs
** (shipped.c).
*/
#include <pthread.h>
#include <sodium.h>

#include "schemes.h"

static const ids_scheme *const builtins[] = {
  &ids_fluid, &ids_flax, &ids_snowflake, &ids_siq, &ids_kuid64, &ids_kuid96,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = IDS_OK;

static void initonce (void) {
  if (sodium_init() < 0) {
    status = IDS_ENOMEM;
    return;
  }
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
    int r = ids_scheme_register(builtins[i]);
    if (r != IDS_OK) { status = r; return; }
  }
  for (int i = 0; i < ids_nshipped; i++) {
    const ids_scheme *s;
    ids_error e;
    int r = ids_scheme_define(&ids_shipped[i], &s, &e);
    if (r != IDS_OK) { status = r; return; }
  }
}

int ids_init (void) {
  pthread_once(&once, initonce);
  return status;
}

const char *ids_version (void) {
  return IDS_VERSION;
}
