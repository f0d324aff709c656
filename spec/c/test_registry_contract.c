/*
** test_registry_contract.c: what ids_scheme_register checks and does for
** a scheme written in C: its codecs' tables are built there (a codec that
** nobody prepared used to decode every digit as 0), and a scheme missing
** a member the contract marks required, or whose counts, fields or codecs
** cannot be right (issue 23), is refused, while every shipped scheme
** still registers.
*/
#include "helpers.h"
#include "codec/codecs.h"

static ids_radix r36 = {.base = 36, .width = 1,
                        .digits = "0123456789abcdefghijklmnopqrstuvwxyz"};
static const ids_codec c36 = IDS_RADIX_CODEC("b36", r36);

static ids_scheme tick = {
  .name = "contract_tick", .bits = 48, .bytes = 6,
  IDS_FIELDS(
    {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 36, .shift = 12},
    {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 12, .shift = 0}),
  IDS_CODECS(&c36),
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

/* The counts follow from the arrays. */
static void test_counts (void) {
  static const ids_optdef opts[] = {
    {"a", IDS_OPT_INT, 0, 1, 0}, {"b", IDS_OPT_INT, 0, 1, 0},
    {"c", IDS_OPT_INT, 0, 1, 0},
  };
  static const ids_qualifier quals[] = {{"x", 1}, {"y", 2}};
  static const ids_scheme s = {
    IDS_FIELDS({.name = "a"}, {.name = "b"}, {.name = "c"}, {.name = "d"}),
    IDS_CODECS(&c36, &c36, &c36),
    IDS_PARAMS(opts), IDS_GENOPTS(opts), IDS_QUALS(quals),
  };
  CHECK(s.nfields == 4 && strcmp(s.fields[3].name, "d") == 0 &&
        s.fields[4].name == NULL);
  CHECK(s.ncodecs == 3 && s.codecs[2] == &c36 && s.codecs[3] == NULL);
  CHECK(s.nparams == 3 && s.ngenopts == 3 && s.params == opts);
  CHECK(s.nquals == 2 && s.quals == quals);
}

static int own_compose (const ids_scheme *s, const uint64_t *x,
                        ids_value *v, ids_error *e) {
  (void)s; (void)x; (void)e;
  v->w[0] = v->w[1] = v->w[2] = 0;
  return IDS_OK;
}

static void own_decompose (const ids_scheme *s, const ids_value *v,
                           uint64_t *x) {
  (void)v;
  for (int i = 0; i < s->nfields; i++) x[i] = 0;
}

/* Fields that overlap, leave a bit to none or reach past the top; counts
** over the limit or without their array; codecs named twice or not. */
static void test_cannot_be_right (void) {
  static const ids_codec twin = IDS_RADIX_CODEC("b36", r36);
  static const ids_codec noname = IDS_RADIX_CODEC(NULL, r36);
  static const ids_layout_ops own = {.compose = own_compose,
                                     .decompose = own_decompose};
  ids_scheme s;
  s = tick, s.name = "c_overlap", s.fields[1].shift = 1;  /* bit 12 twice */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_gap", s.fields[0].bits = 35;      /* bit 47: none */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_short", s.nfields = 1;            /* a count short */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_past", s.fields[0].shift = 13;    /* 13..48 of 48 */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_zero", s.fields[1].bits = 0, s.fields[0].shift = 0;
  s.fields[0].bits = 48;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_many", s.nfields = IDS_MAXFIELDS + 1;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_unnamed", s.fields[1].name = NULL;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_twofields", s.fields[1].name = "timestamp";
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_kind", s.fields[1].kind = (ids_kind)99;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_manycodecs", s.ncodecs = IDS_MAXCODECS + 1;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_twincodec", s.codecs[1] = &twin, s.ncodecs = 2;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_nullcodec", s.ncodecs = 2;        /* codecs[1] NULL */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_nonamecodec", s.codecs[0] = &noname;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_noquals", s.nquals = 1;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_nogenopts", s.ngenopts = 1;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  s = tick, s.name = "c_bytes", s.bytes = 5;              /* 48 bits */
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  /* a compose places the fields itself (KUID's time, SIQ's tail): they may
  ** share bits or leave some, but not reach past the top */
  s = tick, s.name = "c_own", s.layout = &own;
  s.fields[1].shift = 20, s.fields[1].bits = 4;
  CHECK(wellformed_copy(&s) == IDS_OK);
  s.name = "c_ownpast", s.fields[1].shift = 45;
  CHECK(ids_scheme_register(&s) == IDS_EINVAL);
  CHECK(ids_scheme_find("c_overlap") == NULL &&
        ids_scheme_find("c_ownpast") == NULL);
}

/* A copy of every shipped scheme, and of kuid96 opened at both ends of its
** interval (the node moves), registers under another name. */
static void test_shipped_register (void) {
  static char names[32][IDS_NAMEMAX];
  const char *list[32];
  size_t n = ids_scheme_list(list, 32);
  const ids_scheme *k = ids_scheme_find("kuid96");
  int copies = 0;
  CHECK(n >= 6 && n < 32);
  for (size_t i = 0; i < n && i < 32; i++) {
    ids_scheme c = *ids_scheme_find(list[i]);
    snprintf(names[i], IDS_NAMEMAX, "copy_%s", list[i]);
    c.name = names[i];
    CHECKF(wellformed_copy(&c) == IDS_OK, "%s", list[i]);
    copies++;
  }
  CHECK(copies >= 6);
  for (int interval = 5; k && interval <= 10; interval += 5) {
    static char knames[2][IDS_NAMEMAX];
    ids_options p;
    ids_error e;
    const ids_scheme *o;
    ids_scheme c;
    ids_params_init(&p, k);
    CHECK(ids_options_set_int(&p, "interval", 8, interval, &e) == IDS_OK);
    o = ids_scheme_open(k, &p, &e);
    if (!CHECKF(o != NULL, "%s", e.msg)) continue;
    c = *o;
    snprintf(knames[interval / 10], IDS_NAMEMAX, "copy_kuid96_%d", interval);
    c.name = knames[interval / 10];
    CHECKF(wellformed_copy(&c) == IDS_OK, "interval %d", interval);
  }
}

/* ids_scheme_check says which field or codec is wrong, and how; it
** registers nothing. */
static void test_says_why (void) {
  static const struct { const char *name; int what; const char *msg; } t[] = {
    {"w_overlap", 0, "scheme 'w_overlap': fields 'timestamp' and 'sequence' "
                     "share a bit"},
    {"w_gap", 1, "scheme 'w_gap': its fields hold 47 of its 48 bits"},
    {"w_past", 2, "scheme 'w_past', field 'timestamp': bits 36 at shift 13 "
                  "do not lie within the 48-bit value"},
    {"w_twice", 3, "scheme 'w_twice': field 'timestamp' named twice"},
    {"w_codecs", 4, "scheme 'w_codecs': 0 codecs (1 to"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    ids_scheme s = tick;
    ids_error e;
    s.name = t[i].name;
    switch (t[i].what) {
    case 0: s.fields[1].shift = 1; break;
    case 1: s.fields[0].bits = 35; break;
    case 2: s.fields[0].shift = 13; break;
    case 3: s.fields[1].name = "timestamp"; break;
    case 4: s.ncodecs = 0; break;
    }
    e.msg[0] = '\0';
    CHECKF(ids_scheme_check(&s, &e) == IDS_EINVAL, "%s", t[i].name);
    CHECKF(strncmp(e.msg, t[i].msg, strlen(t[i].msg)) == 0, "%s: %s",
           t[i].name, e.msg);
    CHECK(ids_scheme_find(t[i].name) == NULL);
  }
  {
    ids_error e;
    CHECK(ids_scheme_check(&tick, &e) == IDS_OK);
  }
}

int main (void) {
  if (ids_init() != IDS_OK) return 2;
  test_shipped_register();            /* first: the shipped ones alone */
  test_counts();
  test_prepared_at_registration();
  test_refused();
  test_cannot_be_right();
  test_says_why();
  return t_done();
}
