/*
** test_registry_contract.c: what ids_scheme_register checks and does for
** a scheme written in C: its codecs' tables are built there (a codec that
** nobody prepared used to decode every digit as 0), and a scheme missing
** a member the contract marks required is refused.
*/
#include "helpers.h"
#include "codec/codecs.h"

static ids_radix r36 = {.base = 36, .width = 1,
                        .digits = "0123456789abcdefghijklmnopqrstuvwxyz"};
static const ids_codec c36 = IDS_RADIX_CODEC("b36", r36);

static ids_scheme tick = {
  .name = "contract_tick", .bits = 48, .bytes = 6, .nfields = 2,
  .ncodecs = 1,
  .fields = {
    {"timestamp", IDS_KIND_TIME, 36, 12, 0, NULL, 0},
    {"sequence", IDS_KIND_SEQUENCE, 12, 0, 0, NULL, 0},
  },
  .codecs = {&c36},
  .unit = {1, 1},
};

static void test_prepared_at_registration (void) {
  ids_value v;
  ids_error e;
  CHECK(!r36.ready);
  CHECK(ids_scheme_register(&tick) == IDS_OK);
  CHECK(r36.ready);
  CHECKF(ids_scheme_decode(&tick, NULL, "zz", 2, &v, &e) == IDS_OK, "%s",
         e.msg);
  CHECK_U64(v.w[0], 35 * 36 + 35);
}

static int nohash (const ids_scheme *s, int f, const char *str, size_t n,
                   uint64_t *x, ids_error *e) {
  (void)s; (void)f; (void)str; (void)n; (void)e;
  *x = 1;
  return IDS_OK;
}

/* Registers a copy that lives on (the registry keeps the pointer). */
static int wellformed_copy (const ids_scheme *s) {
  ids_scheme *c = malloc(sizeof *c);
  if (c == NULL) return IDS_ENOMEM;
  *c = *s;
  return ids_scheme_register(c);
}

static void test_refused (void) {
  static const ids_layout_ops halfway = {.hashname = nohash,
                                         .compose = NULL,
                                         .decompose = NULL};
  static const ids_gen_ops noplace = {.seqbits = 12};
  ids_scheme s;
  s = tick, s.name = "c_nofields", s.nfields = 0;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_nocodec", s.ncodecs = 0;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_wide", s.bits = 200;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_from";
  s.fields[1].from = "sequence_name";           /* no hashname */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s.layout = &halfway;
  CHECK(wellformed_copy(&s) == IDS_OK);
  s = tick, s.name = "c_params", s.nparams = 1; /* parameters, no open */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_suffix", s.gen = &noplace;
  CHECK(wellformed_copy(&s) == IDS_OK);         /* no suffix: no place */
}

int main (void) {
  if (ids_init() != IDS_OK) return 2;
  test_prepared_at_registration();
  test_refused();
  return t_done();
}
