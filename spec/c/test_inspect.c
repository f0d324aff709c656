/*
** test_inspect.c: the inspect engine (inspect/inspect.h) called directly:
** every built-in scheme's own output is its top candidate, ambiguous text
** gives several candidates in rank order, garbage none (saying why), the
** restrictions to a scheme and to an encoding, and one inspector shared by
** threads.  The command's output is tested by spec/cli/cli_inspect.sh.
*/
#include <pthread.h>
#include <time.h>

#include "helpers.h"
#include "inspect.h"

static const char *const builtins[] = {
  "fluid", "flax", "snowflake", "siq", "kuid64", "kuid96", NULL
};

static int64_t nowms (void) {
  return ids_clock_realtime.now(ids_clock_realtime.ctx) / 1000000;
}

static ids_inspector *everyone;

/* A scheme with its default parameters, as the inspector of every scheme
** holds it. */
static const ids_scheme *scheme (const char *name) {
  return ids_scheme_open(ids_scheme_find(name), NULL, NULL);
}

/* Each scheme's fresh ID in its default encoding: first, with its value,
** a plausible time and the default codec. */
static void test_own_output (void) {
  for (int i = 0; builtins[i]; i++) {
    const ids_scheme *s = scheme(builtins[i]);
    ids_candidate c[IDS_INSPECT_MAX];
    ids_generator g;
    ids_options o;
    ids_value v;
    ids_error e;
    char t[IDS_TEXTMAX];
    size_t n;
    int nc;
    ids_options_init(&o, s);
    if (!CHECKF(ids_generator_init(&g, s, &o, NULL, &e) == IDS_OK, "%s: %s",
                s->name, e.msg))
      continue;
    CHECK(ids_generator_next(&g, &v, &e) == IDS_OK);
    n = ids_scheme_encode(s, NULL, &v, t);
    nc = ids_inspect(everyone, t, n, NULL, 0, nowms(), c, IDS_INSPECT_MAX,
                     &e);
    if (CHECKF(nc >= 1, "%s: '%s': %s", s->name, t, e.msg)) {
      CHECKF(c[0].scheme == s, "%s: '%s' read first as %s (%s)", s->name,
             t, c[0].scheme->name, c[0].codec->name);
      CHECK(c[0].codec == s->codecs[0]);
      CHECK(memcmp(&c[0].value, &v, sizeof v) == 0);
      CHECKF(c[0].has_time && c[0].plausible, "%s", s->name);
    }
    /* with blanks around it, the same reading */
    {
      char b[IDS_TEXTMAX + 4];
      ids_candidate d[1];
      snprintf(b, sizeof b, " \t%s\n", t);
      CHECK(ids_inspect(everyone, b, strlen(b), NULL, 0, nowms(), d, 1, &e)
            == 1 && d[0].scheme == c[0].scheme && d[0].codec == c[0].codec);
    }
    ids_generator_close(&g);
  }
}

/* The rank keys, most significant first (inspect.h), never increase down
** the list. */
static void check_order (const ids_candidate *c, int nc) {
  for (int i = 1; i < nc; i++) {
    const ids_candidate *a = &c[i - 1], *b = &c[i];
    int adef = a->codec == a->scheme->codecs[0];
    int bdef = b->codec == b->scheme->codecs[0];
    int ka[7] = {a->marked, a->plausible, a->constbits, a->confirmed,
                 !a->length, adef, a->unique};
    int kb[7] = {b->marked, b->plausible, b->constbits, b->confirmed,
                 !b->length, bdef, b->unique};
    int k = 0;
    while (k < 7 && ka[k] == kb[k]) k++;
    CHECKF(k == 7 || ka[k] > kb[k], "candidate %d (%s %s) ranks above %d "
           "(%s %s)", i, b->scheme->name, b->codec->name, i - 1,
           a->scheme->name, a->codec->name);
  }
}

/* A Snowflake of a day ago in decimal is a number of other schemes too
** (FLUID's dec, SIQ's dec, ...): Snowflake first, the others after. */
static void test_ambiguous (void) {
  const ids_scheme *snow = scheme("snowflake");
  ids_candidate c[IDS_INSPECT_MAX], one[1];
  ids_fields f;
  ids_value v;
  ids_error e;
  char t[IDS_TEXTMAX];
  int64_t now = nowms();
  int nc, fluid = 0;
  size_t n;
  ids_fields_init(&f, snow);
  CHECK(ids_fields_set_int(&f, "timestamp", 9, now - 86400000 -
                           snow->epoch_ms, &e) == IDS_OK);
  CHECK(ids_fields_set_int(&f, "worker", 6, 1, &e) == IDS_OK);
  CHECK(ids_fields_set_int(&f, "shard", 5, 2, &e) == IDS_OK);
  CHECK(ids_fields_set_int(&f, "sequence", 8, 3, &e) == IDS_OK);
  CHECKF(ids_fields_compose(&f, &v, &e) == IDS_OK, "%s", e.msg);
  n = ids_scheme_encode(snow, NULL, &v, t);
  nc = ids_inspect(everyone, t, n, NULL, 0, now, c, IDS_INSPECT_MAX, &e);
  CHECKF(nc > 1, "'%s': %d candidates", t, nc);
  CHECK(nc >= 1 && c[0].scheme == snow && c[0].plausible);
  CHECK(nc >= 1 && c[0].time_ms == now - 86400000);
  check_order(c, nc);
  for (int i = 0; i < nc; i++)
    fluid += strcmp(c[i].scheme->name, "fluid") == 0;
  CHECKF(fluid == 1, "FLUID's dec is a candidate of '%s'", t);
  /* max cuts the list, not the ranking */
  CHECK(ids_inspect(everyone, t, n, NULL, 0, now, one, 1, &e) == 1 &&
        one[0].scheme == c[0].scheme && one[0].codec == c[0].codec);
  /* now moves plausibility: forty years on, a time is plausible only from
  ** the format's first IDs (its about's since_ms, else the day after its
  ** epoch, else, on the Unix epoch, 30 years before now) to a day after
  ** now; the Snowflake of yesterday is still one (Discord's began 2015) */
  {
    int64_t later = now + 40 * 31556952000ll;
    nc = ids_inspect(everyone, t, n, NULL, 0, later, c, IDS_INSPECT_MAX, &e);
    for (int i = 0; i < nc; i++) {
      const ids_scheme *s = c[i].scheme;
      int64_t since = s->about && s->about->since_ms ? s->about->since_ms :
                      s->epoch_ms ? s->epoch_ms + 86400000 :
                      later - 30 * 31556952000ll;
      CHECKF(c[i].plausible == (c[i].has_time && c[i].time_ms >= since &&
                                c[i].time_ms <= later + 86400000),
             "%s (%s)", s->name, c[i].codec->name);
      if (s == snow) CHECK(c[i].plausible);
    }
  }
  check_order(c, nc);
  /* a decimal whose digits are all octal (a fresh Instagram ID of
  ** 2026-11-26, an octal Snowflake of 2015 too): the default form first */
  nc = ids_inspect(everyone, "4210143737751273472", 19, NULL, 0, now, c,
                   IDS_INSPECT_MAX, &e);
  CHECK(nc >= 2 && strcmp(c[0].scheme->name, "instagram") == 0 &&
        c[0].codec == c[0].scheme->codecs[0] && c[0].ambiguous);
  check_order(c, nc);
  /* FLUID's RFC 19 mark: read as that form alone, and first */
  nc = ids_inspect(everyone, "\xc6\x92uZZybuNNy", 11, NULL, 0, now, c,
                   IDS_INSPECT_MAX, &e);
  CHECK(nc >= 1 && strcmp(c[0].scheme->name, "fluid") == 0 && c[0].marked);
  check_order(c, nc);
}

static void test_none (void) {
  ids_candidate c[IDS_INSPECT_MAX];
  ids_error e;
  const ids_scheme *fluid = scheme("fluid");
  ids_inspector *one = ids_inspector_new(&fluid, 1, &e);
  CHECK(ids_inspect(everyone, "not an id", 9, NULL, 0, nowms(), c,
                    IDS_INSPECT_MAX, &e) == 0);
  CHECK(e.code == IDS_EINVAL);
  CHECK_STR(e.msg, "no scheme decodes it");
  CHECK(ids_inspect(everyone, "", 0, NULL, 0, nowms(), c, IDS_INSPECT_MAX,
                    &e) == 0);
  CHECK_STR(e.msg, "empty");
  CHECK(ids_inspect(everyone, " \t ", 3, NULL, 0, nowms(), c,
                    IDS_INSPECT_MAX, &e) == 0);
  CHECK_STR(e.msg, "no scheme decodes it");
  CHECK(ids_inspect(everyone, "zz", 2, "hex", 3, nowms(), c,
                    IDS_INSPECT_MAX, &e) == 0);
  CHECK_STR(e.msg, "no scheme decodes it in that encoding");
  /* one scheme: the scheme's own words */
  if (!CHECK(one != NULL)) return;
  CHECK(ids_inspect(one, "not an id", 9, NULL, 0, nowms(), c,
                    IDS_INSPECT_MAX, &e) == 0);
  CHECKF(strstr(e.msg, "not an id") != NULL, "%s", e.msg);
  ids_inspector_free(one);
}

static void test_restrict (void) {
  ids_candidate c[IDS_INSPECT_MAX];
  ids_error e;
  const ids_scheme *snow = scheme("snowflake");
  ids_inspector *one = ids_inspector_new(&snow, 1, &e);
  int nc;
  if (!CHECK(one != NULL)) return;
  CHECK(ids_inspector_encoding(everyone, "hex", 3, &e) == IDS_OK);
  CHECK(ids_inspector_encoding(everyone, "nope", 4, &e) == IDS_ENOENT);
  CHECK_STR(e.msg, "no scheme has encoding 'nope'");
  CHECK(ids_inspector_encoding(one, "words", 5, &e) == IDS_ENOENT);
  CHECK_STR(e.msg, "unknown encoding 'words' for snowflake");
  CHECK(ids_inspector_encoding(one, "hex\0x", 5, &e) == IDS_ENOENT);
  /* that encoding only */
  nc = ids_inspect(everyone, "1234567890", 10, "hex", 3, nowms(), c,
                   IDS_INSPECT_MAX, &e);
  CHECK(nc > 1);
  for (int i = 0; i < nc; i++) CHECK_STR(c[i].codec->name, "hex");
  check_order(c, nc);
  /* that scheme only */
  nc = ids_inspect(one, "1234567890", 10, NULL, 0, nowms(), c,
                   IDS_INSPECT_MAX, &e);
  CHECK(nc >= 1);
  for (int i = 0; i < nc; i++) CHECK(c[i].scheme == snow);
  ids_inspector_free(one);
}

/* One inspector, two threads, the same answers. */
typedef struct job { const char *t; int nc; ids_candidate c[4]; } job;

/* Whether two readings say the same (not memcmp: a struct's padding is
** nobody's). */
static int same_reading (const ids_candidate *a, const ids_candidate *b) {
  return a->scheme == b->scheme && a->codec == b->codec &&
         memcmp(&a->value, &b->value, sizeof a->value) == 0 &&
         a->has_time == b->has_time && a->time_ms == b->time_ms &&
         a->marked == b->marked && a->plausible == b->plausible &&
         a->unique == b->unique && a->ambiguous == b->ambiguous;
}

static int same_readings (const ids_candidate *a, const ids_candidate *b,
                          int n) {
  for (int i = 0; i < n; i++)
    if (!same_reading(&a[i], &b[i])) return 0;
  return 1;
}

static void *inspect_many (void *arg) {
  job *j = arg;
  ids_error e;
  for (int k = 0; k < 2000; k++) {
    ids_candidate c[4];
    int nc = ids_inspect(everyone, j->t, strlen(j->t), NULL, 0,
                         1700000000000ll, c, 4, &e);
    if (k == 0) { j->nc = nc; memcpy(j->c, c, sizeof c); }
    else if (nc != j->nc || !same_readings(c, j->c, nc))
      j->nc = -1;
  }
  return NULL;
}

static void test_threads (void) {
  job a = { "1234567890123456789", 0, {{0}} }, b = a;
  pthread_t t;
  CHECK(pthread_create(&t, NULL, inspect_many, &a) == 0);
  inspect_many(&b);
  pthread_join(t, NULL);
  CHECK(a.nc > 1 && a.nc == b.nc && same_readings(a.c, b.c, a.nc));
}

/* Honest about doubt (issue 24): the documented examples of Discord and
** Twitter are numbers that both read plausibly, so the best is marked a
** guess with the other beside it; a ULID is no guess; "hello" decodes,
** but to a time on its epoch's first day, which confirms nothing. */
static void test_doubt (void) {
  static const struct { const char *text, *best, *rival; } t[] = {
    {"175928847299117063", NULL, "snowflake"},      /* Discord's docs */
    {"1050118621198921728", NULL, "twitter"},       /* Twitter's docs */
    {"01ARZ3NDEKTSV4RRFFQ69G5FAV", "ulid", NULL},   /* ULID's spec */
    {"hello", NULL, NULL},
  };
  int64_t now = 1764115200000ll;                   /* 2025-11-26 */
  for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
    ids_candidate c[IDS_INSPECT_MAX];
    ids_error e;
    int nc = ids_inspect(everyone, t[k].text, strlen(t[k].text), NULL, 0,
                         now, c, IDS_INSPECT_MAX, &e), found = 0;
    if (!CHECKF(nc >= 1, "%s: %s", t[k].text, e.msg)) continue;
    for (int i = 0; i < nc; i++) {
      CHECK(!c[i].ambiguous || c[i].plausible);
      found |= t[k].rival && c[i].ambiguous &&
               strcmp(c[i].scheme->name, t[k].rival) == 0;
    }
    if (t[k].rival)
      CHECKF(c[0].ambiguous && found, "%s: %s ambiguous with %s",
             t[k].text, c[0].scheme->name, t[k].rival);
    else if (t[k].best)
      CHECKF(strcmp(c[0].scheme->name, t[k].best) == 0 && c[0].plausible &&
             !c[0].ambiguous, "%s: %s", t[k].text, c[0].scheme->name);
    else
      CHECKF(!c[0].plausible && !c[0].ambiguous, "%s: %s", t[k].text,
             c[0].scheme->name);
  }
}

/* The names users know answer too: discord is the Snowflake here, uuid
** every UUID; a scheme's own name is itself alone. */
static void test_aliases (void) {
  const ids_scheme *s[16];
  size_t n = ids_scheme_answering("discord", s, 16);
  CHECK(n == 1 && s[0] == ids_scheme_find("snowflake"));
  n = ids_scheme_answering("uuid", s, 16);
  CHECK(n >= 1);
  for (size_t i = 0; i < n && i < 16; i++)
    CHECKF(strncmp(s[i]->name, "uuid", 4) == 0, "%s", s[i]->name);
  CHECK(ids_scheme_answering("ulid", s, 16) == 1 &&
        s[0] == ids_scheme_find("ulid"));
  CHECK(ids_scheme_answering("nope", s, 16) == 0);
  CHECK(ids_scheme_answering("discord", NULL, 0) == 1);
}

/* A random format at another size (nanoid(10)): named by its characters
** alone, with no value and no time; a word of one case is not one, nor a
** text shorter than the format allows. */
static void test_other_size (void) {
  static const struct { const char *t; int named; } k[] = {
    {"eeLB8VAyjq", 1},                                /* nanoid(10) */
    {"SlMp3a_COGWOgN6mNUHzOSZZ3BMbLeFSqLQC", 1},      /* nanoid(36) */
    {"helloworld", 0}, {"HELLO_WORLD_AGAIN", 0}, {"Hello", 0},
  };
  ids_candidate c[IDS_INSPECT_MAX];
  ids_error e;
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    int nc = ids_inspect(everyone, k[i].t, strlen(k[i].t), NULL, 0, nowms(),
                         c, IDS_INSPECT_MAX, &e), by = 0;
    for (int j = 0; j < nc; j++) by += c[j].length != 0;
    if (k[i].named)
      CHECKF(nc >= 1 && strcmp(c[0].scheme->name, "nanoid") == 0 &&
             c[0].length == (int)strlen(k[i].t) && c[0].plausible &&
             !c[0].has_time && !c[0].ambiguous && by == 1, "%s", k[i].t);
    else
      CHECKF(by == 0 && (nc == 0 || !c[0].plausible), "%s", k[i].t);
  }
  /* its own size is decoded, not read by its characters */
  {
    const char *t = "V1StGXR8_Z5jdHi6B-myT";
    int nc = ids_inspect(everyone, t, strlen(t), NULL, 0, nowms(), c,
                         IDS_INSPECT_MAX, &e);
    CHECK(nc >= 1 && strcmp(c[0].scheme->name, "nanoid") == 0 &&
          c[0].length == 0);
  }
}

int main (void) {
  ids_error e;
  if (ids_init() != IDS_OK) return 1;
  everyone = ids_inspector_new(NULL, 0, &e);
  if (!CHECKF(everyone != NULL, "%s", e.msg)) return t_done();
  test_own_output();
  test_ambiguous();
  test_none();
  test_restrict();
  test_threads();
  test_doubt();
  test_aliases();
  test_other_size();
  ids_inspector_free(everyone);
  return t_done();
}
