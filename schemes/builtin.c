/*
** builtin.c: the one array of built-in schemes, and ids_init().
*/
#include <pthread.h>
#include <sodium.h>

#include "schemes.h"

static const struct {
  const ids_scheme *scheme;
  int (*prepare) (void);        /* builds the scheme's codec tables */
} builtins[] = {
  {&ids_fluid, ids_fluid_prepare},
  {&ids_flax, ids_flax_prepare},
  {&ids_snowflake, ids_snowflake_prepare},
  {&ids_siq, ids_siq_prepare},
  {&ids_kuid64, ids_kuid_prepare},
  {&ids_kuid96, NULL},
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = IDS_OK;

static void initonce (void) {
  if (sodium_init() < 0 || ids_stock_prepare() != IDS_OK) {
    status = IDS_ENOMEM;
    return;
  }
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
    int r = builtins[i].prepare ? builtins[i].prepare() : IDS_OK;
    if (r == IDS_OK) r = ids_scheme_register(builtins[i].scheme);
    if (r != IDS_OK) { status = r; return; }
  }
}

int ids_init (void) {
  pthread_once(&once, initonce);
  return status;
}
