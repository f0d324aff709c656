/*
** test_idcompressor.c: the id-compressor against every step recorded from
** @fluidframework/id-compressor 3.1.0 (spec/vectors/idcompressor.json):
** uuidArithmetic, isStableId, scenario, errorCases, fuzz and fuzz2, with
** the same results and the same serialized bytes.  Every step that fails
** in the reference must fail here, and leave the compressor as it was:
** serialize(true) and serialize(false) give the same bytes before and
** after.  One recorded step shows the reference's partial state after a
** failed call, which we do not copy (vectors README); it is listed in
** `nonnormative` and checked against our unchanged state instead.
*/
#include <ctype.h>
#include <stdlib.h>

#include "idcompressor.h"
#include "internal.h"
#include "helpers.h"

#define MAXC 16

typedef struct named {
  char name[32];
  ids_idc *c;
} named;

static named comps[MAXC];
static const char *trace;
static int stepno;
static char *prefail;   /* serialize(true) before the last failed call */

/* the one step whose recorded bytes hold the reference's phantom session
** (registered by the failed finalize before it threw) */
static const struct { const char *trace; int step; } nonnormative[] = {
  { "finalize first range with firstGenCount != 1", 3 },
};

static int is_nonnormative (void) {
  size_t i;
  for (i = 0; i < sizeof nonnormative / sizeof *nonnormative; i++)
    if (!strcmp(trace, nonnormative[i].trace) && stepno == nonnormative[i].step)
      return 1;
  return 0;
}

static ids_idc **slot (const char *name) {
  int i;
  for (i = 0; i < MAXC; i++)
    if (comps[i].c && !strcmp(comps[i].name, name)) return &comps[i].c;
  for (i = 0; i < MAXC; i++)
    if (!comps[i].c) {
      snprintf(comps[i].name, sizeof comps[i].name, "%s", name);
      return &comps[i].c;
    }
  fprintf(stderr, "too many compressors\n");
  exit(2);
}

static void clear_all (void) {
  int i;
  for (i = 0; i < MAXC; i++) {
    ids_idc_free(comps[i].c);
    comps[i].c = NULL;
  }
}

static int64_t jint (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  if (!cJSON_IsNumber(x)) {
    fprintf(stderr, "%s step %d: no number '%s'\n", trace, stepno, key);
    exit(2);
  }
  return (int64_t)x->valuedouble;
}

static const char *jstr (const cJSON *o, const char *key) {
  const cJSON *x = item(o, key);
  return cJSON_IsString(x) ? x->valuestring : NULL;
}

static char *ser (ids_idc *c, int with) {
  char *s = NULL;
  size_t n;
  ids_error e;
  if (ids_idc_serialize(c, with, &s, &n, &e) != IDS_OK) return NULL;
  CHECK(strlen(s) == n);
  return s;
}

/* The range recorded by the reference, as a C range.  ranges: storage */
static void range_from_json (const cJSON *j, ids_idc_range *r,
                             int64_t (*ranges)[2], size_t max) {
  const cJSON *ids = item(j, "ids"), *p;
  memset(r, 0, sizeof *r);
  r->session_id = jstr(j, "sessionId");
  if (!cJSON_IsObject(ids)) return;
  r->has_ids = 1;
  r->first_gen_count = jint(ids, "firstGenCount");
  r->count = jint(ids, "count");
  r->requested_cluster_size = jint(ids, "requestedClusterSize");
  cJSON_ArrayForEach(p, item(ids, "localIdRanges")) {
    if (r->nlocal == max) break;
    ranges[r->nlocal][0] = (int64_t)cJSON_GetArrayItem(p, 0)->valuedouble;
    ranges[r->nlocal][1] = (int64_t)cJSON_GetArrayItem(p, 1)->valuedouble;
    r->nlocal++;
  }
  r->local = (const int64_t (*)[2])ranges;
}

static int range_equal (const ids_idc_range *a, const ids_idc_range *b) {
  size_t i;
  if (strcmp(a->session_id, b->session_id) || a->has_ids != b->has_ids)
    return 0;
  if (!a->has_ids) return 1;
  if (a->first_gen_count != b->first_gen_count || a->count != b->count
      || a->requested_cluster_size != b->requested_cluster_size
      || a->nlocal != b->nlocal)
    return 0;
  for (i = 0; i < a->nlocal; i++)
    if (a->local[i][0] != b->local[i][0] || a->local[i][1] != b->local[i][1])
      return 0;
  return 1;
}

typedef struct ghost_run {
  int64_t want, got[64];
  int n;
  int inner;            /* 1: call take inside (must fail) */
  int inner_rc;
} ghost_run;

static int ghost_fn (ids_idc *c, void *ud, ids_error *e) {
  ghost_run *g = ud;
  int64_t i;
  int rc;
  if (g->inner) {
    ids_idc_range r;
    g->inner_rc = ids_idc_take_next_range(c, &r, e);
    return g->inner_rc;
  }
  for (i = 0; i < g->want && g->n < 64; i++)
    if ((rc = ids_idc_generate(c, &g->got[g->n++], e))) return rc;
  return IDS_OK;
}

/* runs one step; the return code, the result in *num / str, found */
static int run (const cJSON *s, ids_idc **cp, int64_t *num, char *str,
                int *found, ids_error *e) {
  const char *op = jstr(s, "op");
  ids_idc *c = *cp;
  int rc;
  *found = 1;
  if (!strcmp(op, "generateCompressedId"))
    return ids_idc_generate(c, num, e);
  if (!strcmp(op, "generateDocumentUniqueId")) {
    int is_uuid;
    rc = ids_idc_generate_unique(c, num, str, &is_uuid, e);
    *found = is_uuid ? 2 : 1;
    return rc;
  }
  if (!strcmp(op, "normalizeToOpSpace"))
    return ids_idc_normalize_to_op_space(c, jint(s, "id"), num, e);
  if (!strcmp(op, "normalizeToSessionSpace"))
    return ids_idc_normalize_to_session_space(c, jint(s, "id"),
                                              jstr(s, "originSessionId"),
                                              num, e);
  if (!strcmp(op, "tryNormalizeToSessionSpaceWithoutSession"))
    return ids_idc_try_normalize_without_session(c, jint(s, "id"), num,
                                                 found, e);
  if (!strcmp(op, "decompress")) {
    *found = 2;
    return ids_idc_decompress(c, jint(s, "id"), str, e);
  }
  if (!strcmp(op, "recompress"))
    return ids_idc_recompress(c, jstr(s, "stableId"), num, e);
  if (!strcmp(op, "tryRecompress"))
    return ids_idc_try_recompress(c, jstr(s, "stableId"), num, found, e);
  if (!strcmp(op, "resetUnfinalizedCreationRange")) {
    *found = 0;
    return ids_idc_reset_unfinalized_range(c, e);
  }
  fprintf(stderr, "%s step %d: unknown op %s\n", trace, stepno, op);
  exit(2);
}

static void check_result (const cJSON *s, int rc, int64_t num,
                          const char *str, int found, const ids_error *e) {
  const cJSON *want = item(s, "result");
  const char *op = jstr(s, "op");
  if (item(s, "error")) {
    CHECKF(rc != IDS_OK, "%s step %d %s: want error %s", trace, stepno, op,
           jstr(item(s, "error"), "message"));
    if (rc != IDS_OK) CHECKF(e->msg[0] != '\0', "%s step %d: no message",
                             trace, stepno);
    return;
  }
  if (!CHECKF(rc == IDS_OK, "%s step %d %s: %s", trace, stepno, op, e->msg))
    return;
  if (cJSON_IsNull(want) || !want)
    CHECKF(found == 0, "%s step %d %s: want undefined", trace, stepno, op);
  else if (cJSON_IsString(want))
    CHECKF(found == 2 && !strcmp(str, want->valuestring),
           "%s step %d %s: got %s, want %s", trace, stepno, op,
           found == 2 ? str : "a number", want->valuestring);
  else
    CHECKF(found == 1 && num == (int64_t)want->valuedouble,
           "%s step %d %s: got %lld, want %.0f", trace, stepno, op,
           (long long)num, want->valuedouble);
}

static void step_create (const cJSON *s) {
  ids_idc **cp = slot(jstr(s, "compressor"));
  ids_error e;
  int rc;
  ids_idc_free(*cp);
  *cp = NULL;
  rc = ids_idc_new(cp, jstr(s, "sessionId"), &e);
  if (item(s, "error")) {
    CHECKF(rc != IDS_OK && *cp == NULL, "%s step %d: create must fail",
           trace, stepno);
    return;
  }
  if (!CHECKF(rc == IDS_OK, "%s step %d: %s", trace, stepno, e.msg)) return;
  CHECK_STR(ids_idc_local_session_id(*cp), jstr(s, "result"));
  if (item(s, "clusterSize"))
    CHECK(ids_idc_set_cluster_size(*cp, jint(s, "clusterSize"), &e) == 0);
}

static void step_deserialize (const cJSON *s) {
  ids_idc **cp = slot(jstr(s, "compressor")), *c = NULL;
  const char *blob = jstr(s, "serialized");
  ids_error e;
  int rc = ids_idc_deserialize(&c, blob, strlen(blob),
                               jstr(s, "newSessionId"), &e);
  if (item(s, "error")) {
    CHECKF(rc != IDS_OK && c == NULL, "%s step %d: deserialize must fail "
           "(%s)", trace, stepno, jstr(item(s, "error"), "message"));
    return;
  }
  if (!CHECKF(rc == IDS_OK, "%s step %d: %s", trace, stepno, e.msg)) return;
  CHECK_STR(ids_idc_local_session_id(c), jstr(s, "result"));
  ids_idc_free(*cp);
  *cp = c;
}

static void step_ranges (const cJSON *s, ids_idc *c, int unfinalized) {
  ids_idc_range got, want;
  int64_t buf[64][2];
  ids_error e;
  int rc = unfinalized ? ids_idc_take_unfinalized_range(c, &got, &e)
                       : ids_idc_take_next_range(c, &got, &e);
  if (item(s, "error")) {
    CHECK(rc != IDS_OK);
    return;
  }
  if (!CHECKF(rc == IDS_OK, "%s step %d: %s", trace, stepno, e.msg)) return;
  range_from_json(item(s, "result"), &want, buf, 64);
  CHECKF(range_equal(&got, &want), "%s step %d: range differs", trace,
         stepno);
}

static void step (const cJSON *s) {
  const char *op = jstr(s, "op"), *name = jstr(s, "compressor");
  ids_idc **cp, *c;
  char *before_t = NULL, *before_f = NULL, str[64] = "";
  int64_t num = 0;
  int found = 0, rc;
  ids_error e = { 0, "" };
  if (!strcmp(op, "comment") || !strcmp(op, "checkpoint")) return;
  if (!strcmp(op, "create")) { step_create(s); return; }
  if (!strcmp(op, "deserialize")) { step_deserialize(s); return; }
  cp = slot(name);
  if (!(c = *cp)) {
    CHECKF(0, "%s step %d: no compressor %s", trace, stepno, name);
    return;
  }
  if (item(s, "error")) {
    before_t = ser(c, 1);
    before_f = ser(c, 0);
  }
  if (!strcmp(op, "setClusterSize")) {
    CHECK(ids_idc_set_cluster_size(c, jint(s, "size"), &e) == IDS_OK);
  }
  else if (!strcmp(op, "serialize")) {
    char *got = ser(c, cJSON_IsTrue(item(s, "withSession")));
    /* where the reference shows its partial state, ours is the state
    ** from before the failed call */
    const char *want = is_nonnormative() ? prefail : jstr(s, "result");
    CHECKF(got && want && !strcmp(got, want), "%s step %d: "
           "serialize: got %s", trace, stepno, got ? got : "(error)");
    free(got);
  }
  else if (!strcmp(op, "takeNextCreationRange")) step_ranges(s, c, 0);
  else if (!strcmp(op, "takeUnfinalizedCreationRange")) step_ranges(s, c, 1);
  else if (!strcmp(op, "finalizeCreationRange")) {
    ids_idc_range r;
    int64_t buf[64][2];
    range_from_json(item(s, "range"), &r, buf, 64);
    rc = ids_idc_finalize_range(c, &r, &e);
    check_result(s, rc, 0, str, 0, &e);
  }
  else if (!strcmp(op, "beginGhostSession")) {
    ghost_run g = { jint(s, "generateCount"), {0}, 0, 0, 0 };
    const cJSON *w;
    int i = 0;
    rc = ids_idc_ghost_session(c, jstr(s, "ghostSessionId"), ghost_fn, &g,
                               &e);
    CHECKF(rc == IDS_OK, "%s step %d: %s", trace, stepno, e.msg);
    CHECK(g.n == cJSON_GetArraySize(item(s, "result")));
    cJSON_ArrayForEach(w, item(s, "result")) {
      CHECKF(i < g.n && g.got[i] == (int64_t)w->valuedouble,
             "%s step %d: ghost id %d", trace, stepno, i);
      i++;
    }
  }
  else if (!strcmp(op, "beginGhostSession(takeNextCreationRange inside)")) {
    ghost_run g = { 0, {0}, 0, 1, 0 };
    rc = ids_idc_ghost_session(c, "99999999-9999-4999-9999-999999999999",
                               ghost_fn, &g, &e);
    CHECK(g.inner_rc != IDS_OK && rc == g.inner_rc && e.msg[0]);
  }
  else {
    rc = run(s, cp, &num, str, &found, &e);
    check_result(s, rc, num, str, found, &e);
  }
  if (before_t) {
    char *after_t = ser(c, 1), *after_f = ser(c, 0);
    CHECKF(after_t && !strcmp(before_t, after_t) && after_f
           && !strcmp(before_f, after_f), "%s step %d: a failed %s changed "
           "the compressor", trace, stepno, op);
    free(after_t);
    free(after_f);
    free(prefail);
    prefail = before_t;
    before_t = NULL;
  }
  free(before_t);
  free(before_f);
}

static void replay (const char *name, const cJSON *steps) {
  const cJSON *s;
  long before = t_failed;
  trace = name;
  stepno = 0;
  cJSON_ArrayForEach(s, steps) {
    step(s);
    stepno++;
  }
  printf("%-70.70s %d steps%s\n", name, stepno,
         t_failed > before ? "  FAILED" : "");
  clear_all();
  free(prefail);
  prefail = NULL;
}

static void test_arith (const cJSON *list) {
  const cJSON *o, *off;
  cJSON_ArrayForEach(o, list) {
    const char *id = jstr(o, "stableId");
    char out[IDS_IDC_UUID_LEN + 1], hex[40];
    uint64_t hi, lo;
    ids_error e;
    CHECK(ids_idc_is_stable_id(id) == cJSON_IsTrue(item(o, "isStableId")));
    CHECK(ids_idc_uuid_numeric(id, &hi, &lo, &e) == IDS_OK);
    if (hi) snprintf(hex, sizeof hex, "%llx%016llx", (unsigned long long)hi,
                     (unsigned long long)lo);
    else snprintf(hex, sizeof hex, "%llx", (unsigned long long)lo);
    CHECK_STR(hex, jstr(o, "numeric_hex"));
    CHECK(ids_idc_uuid_offset(id, 0, out, &e) == IDS_OK);
    CHECK_STR(out, jstr(o, "roundTrip"));
    cJSON_ArrayForEach(off, item(o, "offsets")) {
      CHECK(ids_idc_uuid_offset(id, jint(off, "offset"), out, &e) == IDS_OK);
      CHECK_STR(out, jstr(off, "stableId"));
    }
  }
}

static void test_is_stable (const cJSON *list) {
  const cJSON *o;
  cJSON_ArrayForEach(o, list)
    CHECKF(ids_idc_is_stable_id(jstr(o, "input"))
           == cJSON_IsTrue(item(o, "isStableId")), "%s", jstr(o, "input"));
}


/* ---------------------------------------------------- beyond the vectors */

static int cmpstr (const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Three clients generate 60,000 IDs, taking and finalizing ranges in one
** total order at random.  Then every final of the document decompresses
** to the same UUID on every client, no two finals to the same UUID, and
** each UUID recompresses to its final (or the creator's local ID). */
static void test_document_unique (void) {
  static const char *const sids[3] = {
    "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a",
    "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b",
    "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1" };
  ids_idc *cs[3];
  ids_error e;
  uint64_t x = 88172645463325252ull;
  int64_t id, limit = -1, f;
  long made = 0, dups = 0, mismatches = 0, i;
  char **all;
  int k, j;
  for (k = 0; k < 3; k++) {
    CHECK(ids_idc_new(&cs[k], sids[k], &e) == IDS_OK);
    CHECK(ids_idc_set_cluster_size(cs[k], 1 + k * 7, &e) == IDS_OK);
  }
  while (made < 60000) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    k = (int)(x % 3);
    if ((x >> 8) % 10) {
      CHECK(ids_idc_generate(cs[k], &id, &e) == IDS_OK);
      made++;
    }
    else {
      ids_idc_range r;
      CHECK(ids_idc_take_next_range(cs[k], &r, &e) == IDS_OK);
      /* r points into cs[k]: finalize it there last */
      for (j = 1; j <= 3; j++)
        CHECK(ids_idc_finalize_range(cs[(k + j) % 3], &r, &e) == IDS_OK);
    }
  }
  for (k = 0; k < 3; k++) {
    ids_idc_range r;
    CHECK(ids_idc_take_next_range(cs[k], &r, &e) == IDS_OK);
    for (j = 1; j <= 3; j++)
      CHECK(ids_idc_finalize_range(cs[(k + j) % 3], &r, &e) == IDS_OK);
  }
  /* the finalized finals: the ones every client decompresses */
  all = malloc(200000 * sizeof *all);
  for (f = 0; f < 200000; f++) {
    char u[3][IDS_IDC_UUID_LEN + 1];
    int ok = 0;
    for (k = 0; k < 3; k++) ok += ids_idc_decompress(cs[k], f, u[k], &e) == 0;
    if (ok == 0) continue;
    if (ok != 3) {
      /* a final in a cluster's unfinalized room: only its owner knows it */
      CHECKF(ok == 1, "final %lld: %d clients know it", (long long)f, ok);
      continue;
    }
    CHECKF(!strcmp(u[0], u[1]) && !strcmp(u[0], u[2]),
           "final %lld: the clients disagree", (long long)f);
    for (k = 0; k < 3; k++) {
      int64_t back, norm;
      CHECK(ids_idc_recompress(cs[k], u[0], &back, &e) == IDS_OK);
      CHECK(ids_idc_normalize_to_op_space(cs[k], back, &norm, &e) == IDS_OK);
      if (norm != f) mismatches++;
    }
    all[++limit] = strdup(u[0]);
  }
  CHECKF(limit + 1 == made, "%ld finals for %ld IDs", (long)(limit + 1),
         made);
  CHECK(mismatches == 0);
  qsort(all, (size_t)limit + 1, sizeof *all, cmpstr);
  for (i = 1; i <= limit; i++) dups += strcmp(all[i - 1], all[i]) == 0;
  CHECKF(dups == 0, "%ld duplicate UUIDs", dups);
  for (i = 0; i <= limit; i++) free(all[i]);
  free(all);
  for (k = 0; k < 3; k++) ids_idc_free(cs[k]);
  printf("%-70s %ld IDs, %ld duplicates\n", "document of 3 clients", made,
         dups);
}

/* Malformed blobs: an error with a message, and no compressor. */
static void test_bad_blobs (void) {
  static const char *const bad[] = {
    "", "!!!!", "AAAA", "AAAAAAAAAEA", "AAAAAAAAAEA=",
    /* version 2, no local state, S = 1 but no session words */
    "AAAAAAAAAEAAAAAAAAAAAAAAAAAAAPA/AAAAAAAAAAA=",
    /* S = NaN */
    "AAAAAAAAAEAAAAAAAAAAAAAAAAAAAPh/AAAAAAAAAAA=",
    /* S = 2^60 */
    "AAAAAAAAAEAAAAAAAAAAAAAAAAAAALBDAAAAAAAAAAA=",
    /* C = 1, cluster's session index 5 of 1 session */
    "AAAAAAAAAEAAAAAAAAAAAAAAAAAAAPA/AAAAAAAA8D/9////////v4IqKCgoKCgAAAAAAAAAFEAAAAAAAAAYQAAAAAAAAABA",
    /* count 7 > capacity 6 */
    "AAAAAAAAAEAAAAAAAAAAAAAAAAAAAPA/AAAAAAAA8D/9////////v4IqKCgoKCgAAAAAAAAAAAAAAAAAAAAYQAAAAAAAABxA",
  };
  size_t i;
  for (i = 0; i < sizeof bad / sizeof *bad; i++) {
    ids_idc *c = (ids_idc *)&c;
    ids_error e = { 0, "" };
    int rc = ids_idc_deserialize(&c, bad[i], strlen(bad[i]),
                                 "d4d4d4d4-0000-4000-8000-000000000001", &e);
    CHECKF(rc < 0 && c == NULL && e.msg[0], "blob %zu: rc %d", i, rc);
  }
  /* a duplicate session: the same number twice */
  {
    ids_idc *c;
    ids_error e;
    const char *dup = "AAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAD9////////v4IqKCgoKCgA"
                      "/f///////7+CKigoKCgoAA==";
    CHECK(ids_idc_deserialize(&c, dup, strlen(dup),
                              "d4d4d4d4-0000-4000-8000-000000000001", &e)
          == IDS_EEXIST && c == NULL);
  }
}

/* Issue 22's differential findings: a take never counts backwards, every
** state our calls reach deserializes, and a blob whose local state
** contradicts its clusters, or with text after its padding, is refused
** saying why. */
static void test_reachable_states (void) {
  const char *own = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b";
  ids_idc *c, *d;
  ids_idc_range r;
  ids_error e;
  ghost_run g = { 1, {0}, 0, 0, 0 };
  int64_t id, i;
  char *blob;
  size_t len;
  CHECK(ids_idc_new(&c, own, &e) == IDS_OK);
  CHECK(ids_idc_set_cluster_size(c, 5, &e) == IDS_OK);
  CHECK(ids_idc_generate(c, &id, &e) == IDS_OK && id == -1);
  CHECK(ids_idc_take_next_range(c, &r, &e) == IDS_OK && r.count == 1);
  CHECK(ids_idc_finalize_range(c, &r, &e) == IDS_OK);
  /* a ghost of its own session: refused, naming it, nothing made */
  CHECK(ids_idc_ghost_session(c, own, ghost_fn, &g, &e) == IDS_EINVAL);
  CHECKF(strstr(e.msg, own) && strstr(e.msg, "own session") && g.n == 0,
         "%s", e.msg);
  CHECK(ids_idc_take_unfinalized_range(c, &r, &e) == IDS_OK);
  CHECKF(!r.has_ids || r.count > 0, "count %lld", (long long)r.count);
  CHECK(ids_idc_reset_unfinalized_range(c, &e) == IDS_OK);
  CHECK(ids_idc_serialize(c, 1, &blob, &len, &e) == IDS_OK);
  CHECKF(ids_idc_deserialize(&d, blob, len, NULL, &e) == IDS_OK, "%s", e.msg);
  if (d) ids_idc_free(d);
  /* text after the padding: said so */
  {
    char *junk = malloc(len + 5);
    memcpy(junk, blob, len);
    memcpy(junk + len, "AAAA", 5);
    CHECK(blob[len - 1] == '=');
    CHECK(ids_idc_deserialize(&d, junk, len + 4, NULL, &e) == IDS_EINVAL);
    CHECKF(strstr(e.msg, "after the '=' padding") != NULL, "%s", e.msg);
    free(junk);
  }
  free(blob);
  ids_idc_free(c);
  /* localGenCount 0 while the local cluster holds 5 finals */
  CHECK(ids_idc_new(&c, own, &e) == IDS_OK);
  for (i = 0; i < 5; i++) CHECK(ids_idc_generate(c, &id, &e) == IDS_OK);
  CHECK(ids_idc_take_next_range(c, &r, &e) == IDS_OK && r.count == 5);
  CHECK(ids_idc_finalize_range(c, &r, &e) == IDS_OK);
  CHECK(ids_idc_serialize(c, 1, &blob, &len, &e) == IDS_OK);
  {
    /* the blob ends in the local state: 5 made, next 6, one run (1, 5);
    ** made 0, next 1, no run instead (words are float64, little-endian) */
    unsigned char *b = malloc(len), w[8];
    char *text = malloc(len + 1);
    size_t nb, n;
    double v[3] = { 0, 1, 0 }, last[5];
    CHECK(ids__b64_decode(b, blob, len, &nb) == 0 && nb % 8 == 0);
    for (i = 0; i < 5; i++) memcpy(&last[i], b + nb - 8 * (5 - i), 8);
    CHECK(last[0] == 5 && last[1] == 6 && last[2] == 1 && last[3] == 1
          && last[4] == 5);
    for (i = 0; i < 3; i++) {
      memcpy(w, &v[i], 8);
      memcpy(b + nb - 40 + 8 * i, w, 8);
    }
    n = ids__b64_encode(text, b, nb - 16);
    text[n] = '\0';
    CHECK(ids_idc_deserialize(&d, text, n, NULL, &e) == IDS_EINVAL);
    CHECKF(strstr(e.msg, "localGenCount 0 is below the 5 local IDs") != NULL,
           "%s", e.msg);
    /* issue 39: made 5 and one run (1, 5) kept, but the next range from
    ** gen 3, within the finalized 1..5: it could never be finalized */
    {
      double next = 3;
      CHECK(ids__b64_decode(b, blob, len, &nb) == 0);
      memcpy(b + nb - 32, &next, 8);
      n = ids__b64_encode(text, b, nb);
      text[n] = '\0';
      CHECK(ids_idc_deserialize(&d, text, n, NULL, &e) == IDS_EINVAL);
      CHECKF(strstr(e.msg, "nextRangeBaseGenCount") != NULL, "%s", e.msg);
    }
    /* issue 39: a version that is no known integer is an unknown version,
    ** in the reference's words */
    {
      static const double bad[] = { -1, 2.5, 3, 0, 1e20 };
      double odd[3];
      uint64_t nan = 0x7ff8000000000000ull, inf = 0x7ff0000000000000ull;
      memcpy(&odd[0], &nan, 8);
      memcpy(&odd[1], &inf, 8);
      inf |= 1ull << 63;
      memcpy(&odd[2], &inf, 8);
      for (i = 0; i < 8; i++) {
        double ver = i < 5 ? bad[i] : odd[i - 5];
        CHECK(ids__b64_decode(b, blob, len, &nb) == 0);
        memcpy(b, &ver, 8);
        n = ids__b64_encode(text, b, nb);
        text[n] = '\0';
        CHECK(ids_idc_deserialize(&d, text, n, NULL, &e) == IDS_EINVAL);
        CHECKF(strstr(e.msg, "Unknown IdCompressor serialized version.")
               != NULL, "version %g: %s", ver, e.msg);
      }
    }
    free(b);
    free(text);
  }
  free(blob);
  ids_idc_free(c);
}

/* NULL text is an error with a message, never a crash */
static void test_null_args (void) {
  ids_idc *c, *d = NULL;
  ids_idc_range r = { NULL, 1, 1, 1, 4, 0, NULL };
  ids_error e;
  int64_t out;
  int found;
  CHECK(ids_idc_new(&c, "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd", &e) == 0);
  CHECK(ids_idc_finalize_range(c, &r, &e) == IDS_EINVAL);
  CHECK(ids_idc_generate(c, &out, &e) == IDS_OK);
  CHECK(ids_idc_normalize_to_session_space(c, -1, NULL, &out, &e)
        == IDS_EINVAL);
  CHECK(ids_idc_try_recompress(c, NULL, &out, &found, &e) == IDS_EINVAL);
  CHECK(ids_idc_deserialize(&d, NULL, 0, NULL, &e) == IDS_EINVAL && !d);
  ids_idc_free(c);
}

/* The canonical form's digits, read 8 at a time: every byte at every
** digit's place is taken if and only if it is a hex digit, with its value
** (a new session's first UUID is its ID, lowercased, version and variant
** set).  '-' and white space are left out: the general reader takes
** them, as BigInt does. */
static void test_parse_bytes (void) {
  const char *base = "0123abcd-ef45-4a6b-8c7d-e8f9ABCDEF01";
  long wrong = 0, tried = 0;
  for (int pos = 0; pos < 36; pos++) {
    if (base[pos] == '-') continue;
    for (int b = 1; b < 256; b++) {
      char t[37], want[37], got[37];
      ids_idc *c;
      ids_error e;
      int ok, hex = isxdigit(b) && b < 0x80;
      if (b == '-' || b == ' ' || (b >= '\t' && b <= '\r')) continue;
      memcpy(t, base, 37);
      t[pos] = (char)b;
      for (int i = 0; i < 36; i++) want[i] = (char)tolower((unsigned char)t[i]);
      want[36] = '\0';
      want[14] = '4';
      ok = ids_idc_new(&c, t, &e) == IDS_OK;
      tried++;
      if (ok != hex) { wrong++; if (ok) ids_idc_free(c); continue; }
      if (!ok) continue;
      /* the variant: 10 and the digit's low 2 bits */
      want[19] = "89ab"[(strchr("0123456789abcdef", want[19]) - "0123456789abcdef") & 3];
      CHECK(ids_idc_generate(c, &(int64_t){0}, &e) == IDS_OK);
      wrong += ids_idc_decompress(c, -1, got, &e) != IDS_OK || strcmp(got, want) != 0;
      ids_idc_free(c);
    }
  }
  CHECKF(wrong == 0, "%ld of %ld one-byte changes read wrong", wrong, tried);
  printf("%-70s %ld texts\n", "one byte changed at each digit's place", tried);
}

/* A UUID is read as the package reads it, BigInt("0x" + hex without
** dashes): white space after it is trimmed, JavaScript's set in UTF-8
** too; anything else, before it or in it, is refused. */
static void test_trailing_space (void) {
  static const char *const good[] = {
    " ", "\t\n\r", "\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80",
    "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf",
    "\xe2\x81\x9f", "\xe3\x80\x80", "\xef\xbb\xbf", " \xc2\xa0 -"
  };
  static const char *const bad[] = {
    "\xe2\x80\x8b", "\xe2\x80", "\xe2\x80\x30", "\xc2", "\xc2\xa1",
    "\xc4\xb0", "\xff", " 0", "\xc2\xa0" "0"
  };
  const char *uuid = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0b";
  char t[64];
  ids_idc *c;
  ids_error e;
  int64_t out;
  CHECK(ids_idc_new(&c, "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", &e) == 0);
  CHECK(ids_idc_generate(c, &out, &e) == IDS_OK);
  CHECK(ids_idc_generate(c, &out, &e) == IDS_OK);
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    snprintf(t, sizeof t, "%s%s", uuid, good[i]);
    out = 0;
    CHECKF(ids_idc_recompress(c, t, &out, &e) == IDS_OK && out == -2,
           "trailing space %zu: %s", i, e.msg);
  }
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(t, sizeof t, "%s%s", uuid, bad[i]);
    CHECKF(ids_idc_recompress(c, t, &out, &e) == IDS_EINVAL &&
           strstr(e.msg, "is not hexadecimal"), "trailing text %zu", i);
  }
  snprintf(t, sizeof t, "\xc2\xa0%s", uuid);
  CHECK(ids_idc_recompress(c, t, &out, &e) == IDS_EINVAL);
  ids_idc_free(c);
}

static void test_random_session (void) {
  ids_idc *a, *b;
  ids_error e;
  CHECK(ids_init() == IDS_OK);
  CHECK(ids_idc_new(&a, NULL, &e) == IDS_OK);
  CHECK(ids_idc_new(&b, NULL, &e) == IDS_OK);
  CHECK(ids_idc_is_stable_id(ids_idc_local_session_id(a)));
  CHECK(strcmp(ids_idc_local_session_id(a), ids_idc_local_session_id(b)));
  ids_idc_free(a);
  ids_idc_free(b);
}

/* ids_idc_eager names exactly the IDs the next generates make while they
** are eager finals; ids_idc_serialize_bytes is the blob whose base64 is
** ids_idc_serialize's text. */
static void test_eager_and_bytes (void) {
  ids_idc *c;
  ids_error e;
  int64_t id, first = -1, n, k;
  long wrong = 0, checked = 0;
  CHECK(ids_idc_new(&c, "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", &e) == IDS_OK);
  CHECK(ids_idc_eager(c, &first) == 0);              /* no cluster yet */
  for (int round = 0; round < 40; round++) {
    ids_idc_range r;
    CHECK(ids_idc_set_cluster_size(c, 1 + round % 9, &e) == IDS_OK);
    for (k = 0; k < round % 5; k++) CHECK(ids_idc_generate(c, &id, &e) == 0);
    CHECK(ids_idc_take_next_range(c, &r, &e) == IDS_OK);
    CHECK(ids_idc_finalize_range(c, &r, &e) == IDS_OK);
    n = ids_idc_eager(c, &first);
    if (round % 2 && n > 1) {      /* half of them applied at once */
      char *a, *b;
      size_t al, bl;
      ids_idc *d;
      int64_t h = n / 2, f2;
      CHECK(ids_idc_serialize(c, 1, &a, &al, &e) == IDS_OK);
      CHECK(ids_idc_deserialize(&d, a, al, NULL, &e) == IDS_OK);
      for (k = 0; k < h; k++) CHECK(ids_idc_generate(d, &id, &e) == 0);
      CHECK(ids_idc_eager_apply(c, h, &e) == IDS_OK);
      CHECK(ids_idc_serialize(d, 1, &b, &bl, &e) == IDS_OK);
      free(a);
      CHECK(ids_idc_serialize(c, 1, &a, &al, &e) == IDS_OK);
      CHECK_STR(a, b);                /* as after h generates */
      CHECK(ids_idc_eager(c, &f2) == n - h && f2 == first + h);
      CHECK(ids_idc_eager_apply(c, n - h + 1, &e) == IDS_ERANGE);
      free(a);
      free(b);
      ids_idc_free(d);
      first = f2;
      n -= h;
    }
    for (k = 0; k < n; k++) {
      checked++;
      if (ids_idc_generate(c, &id, &e) != IDS_OK || id != first + k) wrong++;
    }
    /* and then the next is not an eager final */
    if (n > 0) {
      CHECK(ids_idc_eager(c, &first) == 0);
      CHECK(ids_idc_generate(c, &id, &e) == IDS_OK && id < 0);
    }
  }
  CHECKF(wrong == 0 && checked > 0, "%ld of %ld eager finals wrong", wrong,
         checked);
  for (int ws = 0; ws < 2; ws++) {
    char *text, b64[4096];
    uint8_t *bytes;
    size_t tl, bl;
    CHECK(ids_idc_serialize(c, ws, &text, &tl, &e) == IDS_OK);
    CHECK(ids_idc_serialize_bytes(c, ws, &bytes, &bl, &e) == IDS_OK);
    CHECK(bl % 8 == 0 && (bl + 2) / 3 * 4 == tl && tl < sizeof b64);
    b64[ids__b64_encode(b64, bytes, bl)] = '\0';
    CHECK_STR(b64, text);
    {                              /* and back, from the bytes */
      ids_idc *d;
      char *again;
      size_t al;
      const char *other = "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b";
      if (CHECK(ids_idc_deserialize_bytes(&d, bytes, bl, ws ? NULL : other,
                                          &e) == IDS_OK)) {
        CHECK(ids_idc_serialize(d, ws, &again, &al, &e) == IDS_OK);
        if (ws) CHECK_STR(again, text);
        free(again);
        ids_idc_free(d);
      }
      CHECK(ids_idc_deserialize_bytes(&d, bytes, bl - 3, other, &e) ==
            IDS_EINVAL && strstr(e.msg, "not a whole number of 8-byte"));
    }
    free(text);
    free(bytes);
  }
  ids_idc_free(c);
}

int main (int argc, char **argv) {
  cJSON *d = load(argc > 1 ? argv[1] : IDS_VECTORS, "idcompressor.json");
  const cJSON *o;
  test_arith(item(d, "uuidArithmetic"));
  test_is_stable(item(d, "isStableId"));
  replay("scenario", item(item(d, "scenario"), "steps"));
  cJSON_ArrayForEach(o, item(d, "errorCases"))
    replay(jstr(o, "name"), item(o, "steps"));
  replay("fuzz", item(item(d, "fuzz"), "steps"));
  replay("fuzz2", item(item(d, "fuzz2"), "steps"));
  test_document_unique();
  test_bad_blobs();
  test_random_session();
  test_null_args();
  test_trailing_space();
  test_parse_bytes();
  test_reachable_states();
  test_eager_and_bytes();
  cJSON_Delete(d);
  return t_done();
}
