/*
** wait.c: the process's interrupt check for the library's waits
** (ids_wait_interrupt): a host that must answer a cancel while a call
** waits for the clock (PostgreSQL's backend) hands in its own test.
*/
#include <stddef.h>

#include "internal.h"

/* Set once, read by waiting threads: the pair is published check last. */
static void *hookctx;
static int (*hook) (void *ctx);

void ids_wait_interrupt (int (*check) (void *ctx), void *ctx) {
  __atomic_store_n(&hook, NULL, __ATOMIC_SEQ_CST);
  __atomic_store_n(&hookctx, ctx, __ATOMIC_SEQ_CST);
  __atomic_store_n(&hook, check, __ATOMIC_SEQ_CST);
}

int ids__interrupted (void) {
  int (*check) (void *) = __atomic_load_n(&hook, __ATOMIC_ACQUIRE);
  return check != NULL && check(__atomic_load_n(&hookctx, __ATOMIC_ACQUIRE));
}
