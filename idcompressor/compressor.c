/*
** compressor.c: creating a compressor, generating IDs, taking creation
** ranges and finalizing them.  Each operation checks everything that can
** fail (and reserves memory) before it changes anything, so a failed call
** leaves the compressor as it was; the reference changes state first.
*/
#include <stdlib.h>
#include <string.h>

#include "idc.h"

static int nomem (ids_error *e) {
  return ids_fail(e, IDS_ENOMEM, "id-compressor: out of memory");
}

static int in_ghost (const ids_idc *c, const char *op, const char *code,
                     ids_error *e) {
  if (!c->ghost) return IDS_OK;
  return ids_fail(e, IDS_EINVAL, "%s: not allowed inside a ghost session "
                  "(%s)", op, code);
}

int ids_idc_new (ids_idc **out, const char *session_id, ids_error *e) {
  char buf[IDS_IDC_UUID_LEN + 1];
  idc_u128 n;
  ids_idc *c;
  int r;
  *out = NULL;
  if (!session_id) {
    unsigned char b[16];
    ids_random(b, sizeof b);
    n = 0;
    for (r = 0; r < 16; r++) n = n << 8 | b[r];
    idc_format(n, buf);   /* the 122 random bits as a v4 UUID */
    session_id = buf;
  }
  if ((r = idc_parse(session_id, &n, "session_id", e))) return r;
  if (!(c = idc_alloc()) || idc_add_session(c, session_id, n)) {
    ids_idc_free(c);
    return nomem(e);
  }
  *out = c;
  return IDS_OK;
}

const char *ids_idc_local_session_id (const ids_idc *c) {
  return c->sess[0].id;
}

int64_t ids_idc_cluster_size (const ids_idc *c) {
  return c->cluster_size;
}

int ids_idc_set_cluster_size (ids_idc *c, int64_t size, ids_error *e) {
  if (size < 1 || size > IDS_IDC_MAX_CLUSTER)
    return ids_fail(e, IDS_ERANGE, "cluster_size: %lld is not in 1..%d",
                    (long long)size, IDS_IDC_MAX_CLUSTER);
  c->cluster_size = size;
  return IDS_OK;
}

static int ghost_generate (ids_idc *c, int64_t *id, ids_error *e);

int ids_idc_generate (ids_idc *c, int64_t *id, ids_error *e) {
  int64_t g;
  if (c->ghost) return ghost_generate(c, id, e);
  g = c->gen_count + 1;
  if (c->local_last != IDC_NONE) {
    const idc_cluster *k = &c->cl[c->local_last];
    if (g - k->base_gen < k->capacity) {
      c->gen_count = g;
      *id = k->base_final + (g - k->base_gen);   /* an eager final */
      return IDS_OK;
    }
  }
  if (g > IDC_MAX_SAFE)
    return ids_fail(e, IDS_ERANGE, "generate: more than 2^53-1 IDs");
  if (idc_push_run(c, g, 1)) return nomem(e);
  c->gen_count = g;
  *id = -g;
  return IDS_OK;
}

int64_t ids_idc_eager (const ids_idc *c, int64_t *first) {
  const idc_cluster *k;
  int64_t g = c->gen_count + 1;
  if (c->ghost || c->local_last == IDC_NONE) return 0;
  k = &c->cl[c->local_last];
  if (g - k->base_gen >= k->capacity) return 0;
  *first = k->base_final + (g - k->base_gen);
  return k->base_gen + k->capacity - g;
}

int ids_idc_eager_apply (ids_idc *c, int64_t n, ids_error *e) {
  int64_t first, room = ids_idc_eager(c, &first);
  if (n < 0 || n > room)
    return ids_fail(e, IDS_ERANGE, "eager_apply: %lld is not in 0..%lld, "
                    "the eager finals the next generates make", (long long)n,
                    (long long)room);
  c->gen_count += n;            /* all that each of them changes */
  return IDS_OK;
}

int ids_idc_generate_unique (ids_idc *c, int64_t *id, char *uuid,
                             int *is_uuid, ids_error *e) {
  int r = ids_idc_generate(c, id, e);
  *is_uuid = 0;
  if (r || *id >= 0) return r;
  /* a local id: its UUID is the local session's number plus gen - 1 */
  idc_format(c->sess[0].n + (idc_u128)(-*id - 1), uuid);
  *is_uuid = 1;
  return IDS_OK;
}

/* local ranges of [first, last], clipped, into c->rbuf.  last is the IDs
** made, past which no run goes, so the runs that meet the range are the
** last ones: counted back from the end (a take's range is the newest
** IDs: a run or none, where a search of all the runs cost a quarter of a
** take in a long session). */
static int clip_runs (ids_idc *c, int64_t first, int64_t last, size_t *n) {
  size_t lo = c->nruns, k, i;
  while (lo > 0 && c->runs[lo - 1][0] + c->runs[lo - 1][1] - 1 >= first) lo--;
  for (i = lo; i < c->nruns && c->runs[i][0] <= last; i++) ;
  k = i - lo;
  if (k > c->rbufcap) {
    void *p = realloc(c->rbuf, k * sizeof *c->rbuf);
    if (!p) return -1;
    c->rbuf = p;
    c->rbufcap = k;
  }
  for (i = 0; i < k; i++) {
    int64_t s = c->runs[lo + i][0], end = s + c->runs[lo + i][1] - 1;
    if (s < first) s = first;
    if (end > last) end = last;
    c->rbuf[i][0] = s;
    c->rbuf[i][1] = end - s + 1;
  }
  *n = k;
  return 0;
}

int ids_idc_take_next_range (ids_idc *c, ids_idc_range *r, ids_error *e) {
  int64_t count = c->gen_count - c->next_base + 1;
  int rc = in_ghost(c, "take_next_creation_range", "0x8a6", e);
  if (rc) return rc;
  memset(r, 0, sizeof *r);
  r->session_id = c->sess[0].id;
  if (count == 0) return IDS_OK;
  if (count < 0)   /* finals past the IDs made: a blob or state no call
                      of ours reaches (the reference throws the same) */
    return ids_fail(e, IDS_EINVAL, "take_next_creation_range: the next "
                    "range starts at %lld, past the %lld IDs made "
                    "(Malformed ID Range, 0x755)", (long long)c->next_base,
                    (long long)c->gen_count);
  if (clip_runs(c, c->next_base, c->gen_count, &r->nlocal)) return nomem(e);
  r->has_ids = 1;
  r->first_gen_count = c->next_base;
  r->count = count;
  r->requested_cluster_size = c->cluster_size;
  r->local = (const int64_t (*)[2])c->rbuf;
  c->next_base = c->gen_count + 1;
  return IDS_OK;
}

static int64_t unfinalized_base (const ids_idc *c) {
  const idc_cluster *k;
  if (c->local_last == IDC_NONE) return 1;
  k = &c->cl[c->local_last];
  return k->base_gen + k->count;
}

int ids_idc_reset_unfinalized_range (ids_idc *c, ids_error *e) {
  int rc = in_ghost(c, "reset_unfinalized_creation_range", "0xcec", e);
  if (rc) return rc;
  c->next_base = unfinalized_base(c);
  return IDS_OK;
}

int ids_idc_take_unfinalized_range (ids_idc *c, ids_idc_range *r,
                                    ids_error *e) {
  int64_t saved = c->next_base;
  int rc = in_ghost(c, "take_unfinalized_creation_range", "0xcec", e);
  if (rc) return rc;
  c->next_base = unfinalized_base(c);
  if ((rc = ids_idc_take_next_range(c, r, e))) c->next_base = saved;
  return rc;
}

/*
** The reference's collision check for a cluster of session owner (or of a
** session not yet registered, owner IDC_NONE) spanning numbers
** [base, base + capacity - 1]: only the nearest lower other session is
** consulted, and an empty one means no collision.
*/
static int collides (const ids_idc *c, idc_u128 n, uint32_t owner,
                     int64_t base_gen, int64_t capacity) {
  idc_u128 base = n + (idc_u128)(base_gen - 1);
  idc_u128 max = base + (idc_u128)(capacity - 1);
  uint32_t lo = 0, hi = c->nsess;
  const idc_session *p;
  const idc_cluster *k;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->byn[mid].n <= max) lo = mid + 1;
    else hi = mid;
  }
  while (lo > 0 && c->byn[lo - 1].si == owner) lo--;
  if (lo == 0) return 0;
  p = &c->sess[c->byn[lo - 1].si];
  if (p->nchain == 0) return 0;
  k = &c->cl[p->chain[p->nchain - 1]];
  return p->n + (idc_u128)(k->base_gen + k->capacity - 2) >= base;
}

static int64_t allocated_limit (const ids_idc *c) {
  const idc_cluster *k = c->ncl ? &c->cl[c->ncl - 1] : NULL;
  return k ? k->base_final + k->capacity : 0;
}

static int out_of_order (ids_error *e, int64_t expected, int64_t actual) {
  return ids_fail(e, IDS_EINVAL, "finalize_creation_range: ranges finalized "
                  "out of order (expected start %lld, actual start %lld)",
                  (long long)-expected, (long long)-actual);
}

static int check_range (const ids_idc_range *r, ids_error *e) {
  if (r->count <= 0 || r->count > IDC_MAX_SAFE)
    return ids_fail(e, IDS_ERANGE, "finalize_creation_range: count %lld is "
                    "not positive (0x755)", (long long)r->count);
  if (r->requested_cluster_size <= 0)
    return ids_fail(e, IDS_ERANGE, "finalize_creation_range: "
                    "requested_cluster_size %lld is not positive (0x876)",
                    (long long)r->requested_cluster_size);
  if (r->requested_cluster_size > IDS_IDC_MAX_CLUSTER)
    return ids_fail(e, IDS_ERANGE, "finalize_creation_range: "
                    "requested_cluster_size %lld is above 2^20 (0x877)",
                    (long long)r->requested_cluster_size);
  if (r->first_gen_count < 1 || r->first_gen_count > IDC_MAX_SAFE - r->count)
    return ids_fail(e, IDS_ERANGE, "finalize_creation_range: "
                    "first_gen_count %lld is out of range",
                    (long long)r->first_gen_count);
  return IDS_OK;
}

/* a new session's string and number: no other session may have that
** number (0x760 in the reference) */
static int new_session (ids_idc *c, const char *id, idc_u128 *n,
                        const char *op, ids_error *e) {
  uint32_t p;
  int rc = idc_parse(id, n, op, e);
  if (rc) return rc;
  p = idc_pred_session(c, *n);
  if (p != IDC_NONE && c->sess[p].n == *n)
    return ids_fail(e, IDS_EEXIST, "%s: session '%s' is session '%s' "
                    "spelled differently (0x760)", op, id, c->sess[p].id);
  if (idc_reserve_sessions(c, 1)) return nomem(e);
  return IDS_OK;
}

static int collision (ids_error *e, const char *code) {
  return ids_fail(e, IDS_EEXIST, "finalize_creation_range: the cluster "
                  "would overlap another session's UUIDs (%s)", code);
}

int ids_idc_finalize_range (ids_idc *c, const ids_idc_range *r,
                            ids_error *e) {
  int64_t cnt = r->count, size = r->requested_cluster_size, room, over;
  uint32_t si;
  idc_u128 n;
  idc_cluster *k;
  int rc = in_ghost(c, "finalize_creation_range", "0x8a7", e);
  if (rc) return rc;
  if (r->session_id == NULL)
    return ids_fail(e, IDS_EINVAL, "finalize_creation_range: session_id "
                    "missing");
  if (!r->has_ids) return IDS_OK;
  if ((rc = check_range(r, e))) return rc;
  if (allocated_limit(c) > IDC_MAX_SAFE - cnt - size)
    return ids_fail(e, IDS_ERANGE, "finalize_creation_range: more than "
                    "2^53-1 finals");
  si = idc_find_session(c, r->session_id);
  if (si == IDC_NONE && (rc = new_session(c, r->session_id, &n,
                                          "finalize_creation_range", e)))
    return rc;
  if (si == IDC_NONE || c->sess[si].nchain == 0) {
    if (r->first_gen_count != 1) return out_of_order(e, 1, r->first_gen_count);
    if (si != IDC_NONE) n = c->sess[si].n;
    if (collides(c, n, si, 1, size + cnt)) return collision(e, "0x758");
    if (idc_reserve_clusters(c, 1, si, 1)) return nomem(e);
    if (si == IDC_NONE) {
      if (idc_add_session(c, r->session_id, n)) return nomem(e);
      si = c->nsess - 1;
    }
    return idc_add_cluster(c, si, size + cnt, cnt);
  }
  k = &c->cl[c->sess[si].chain[c->sess[si].nchain - 1]];
  if (r->first_gen_count != k->base_gen + k->count)
    return out_of_order(e, k->base_gen + k->count, r->first_gen_count);
  room = k->capacity - k->count;
  if (cnt <= room) {
    k->count += cnt;
    return IDS_OK;
  }
  over = cnt - room;
  if (k == &c->cl[c->ncl - 1]) {          /* globally last: expand it */
    if (collides(c, c->sess[si].n, si, k->base_gen, k->capacity + over + size))
      return collision(e, "0x756");
    k->capacity += over + size;
    k->count += cnt;
    idc_retile(c, si);
    return IDS_OK;
  }
  if (collides(c, c->sess[si].n, si, k->base_gen + k->capacity, over + size))
    return collision(e, "0x758");
  if (idc_reserve_clusters(c, 1, si, 1)) return nomem(e);
  k = &c->cl[c->sess[si].chain[c->sess[si].nchain - 1]];
  k->count = k->capacity;
  return idc_add_cluster(c, si, over + size, over);
}

/* Inside a ghost session each ID is a final of the ghost session: the
** first opens a cluster of capacity 1 at the allocated limit (checked for
** collisions), later ones widen it by one, unchecked, as the reference. */
static int ghost_generate (ids_idc *c, int64_t *id, ids_error *e) {
  idc_cluster *k;
  if (c->ghost_cl == IDC_NONE) {
    uint32_t si = idc_find_session(c, c->ghost_id);
    idc_u128 n;
    int rc;
    if (allocated_limit(c) >= IDC_MAX_SAFE)
      return ids_fail(e, IDS_ERANGE, "generate: more than 2^53-1 finals");
    if (si == IDC_NONE && (rc = new_session(c, c->ghost_id, &n, "generate",
                                            e)))
      return rc;
    if (si != IDC_NONE) {
      const idc_session *s = &c->sess[si];
      const idc_cluster *p = s->nchain ? &c->cl[s->chain[s->nchain - 1]]
                                       : NULL;
      if (collides(c, s->n, si, p ? p->base_gen + p->capacity : 1, 1))
        return ids_fail(e, IDS_EEXIST, "generate: the ghost session's "
                        "cluster would overlap another session (0x758)");
    }
    else if (collides(c, n, si, 1, 1))
      return ids_fail(e, IDS_EEXIST, "generate: the ghost session's "
                      "cluster would overlap another session (0x758)");
    if (idc_reserve_clusters(c, 1, si, 1)) return nomem(e);
    if (si == IDC_NONE) {
      if (idc_add_session(c, c->ghost_id, n)) return nomem(e);
      si = c->nsess - 1;
    }
    idc_add_cluster(c, si, 1, 1);
    c->ghost_cl = c->ncl - 1;
    *id = c->cl[c->ghost_cl].base_final;
    return IDS_OK;
  }
  k = &c->cl[c->ghost_cl];
  if (k->base_final + k->capacity >= IDC_MAX_SAFE)
    return ids_fail(e, IDS_ERANGE, "generate: more than 2^53-1 finals");
  k->capacity++;            /* idc_retile's guess may lag: ghosts are few */
  k->count++;
  *id = k->base_final + k->count - 1;
  return IDS_OK;
}

int ids_idc_ghost_session (ids_idc *c, const char *ghost_id,
                           int (*fn) (ids_idc *c, void *ud, ids_error *e),
                           void *ud, ids_error *e) {
  idc_u128 n;
  int rc;
  if (c->ghost)
    return ids_fail(e, IDS_EINVAL, "begin_ghost_session: a ghost session "
                    "is in progress (0x8fe)");
  if ((rc = idc_parse(ghost_id, &n, "ghost session id", e))) return rc;
  /* the reference allows it, but the ghost's finals would decompress to
  ** the UUIDs of this compressor's own IDs not finalized yet, and its
  ** next range would count backwards (COMPAT.md) */
  if (n == c->sess[0].n)
    return ids_fail(e, IDS_EINVAL, "begin_ghost_session: ghost session id "
                    "'%s' is this compressor's own session: its ghost IDs "
                    "would repeat the UUIDs of its own", ghost_id);
  if (!(c->ghost_id = strdup(ghost_id))) return nomem(e);
  c->ghost = 1;
  c->ghost_cl = IDC_NONE;
  rc = fn(c, ud, e);
  c->ghost = 0;
  c->ghost_cl = IDC_NONE;
  free(c->ghost_id);
  c->ghost_id = NULL;
  return rc;
}
