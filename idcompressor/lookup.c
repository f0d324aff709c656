/*
** lookup.c: normalizing between session space and op space, decompressing
** IDs to UUIDs and recompressing UUIDs to IDs.  None of these change the
** compressor.  Every answer, including the reference's quirks (see
** docs/COMPAT.md and the notes), matches the reference.
*/
#include "idc.h"

/* for the WebAssembly glue (wasm/glue.c), which declares them too:
** decompress without its text, try_recompress of a number */
int idc_decompress_at (ids_idc *c, int64_t id, uint32_t *si, int64_t *gen,
                       ids_error *e);
int idc_try_recompress_n (ids_idc *c, idc_u128 q, const char *uuid,
                          int64_t *out, int *found, ids_error *e);

static int unknown (ids_error *e, const char *op, const char *what,
                    int64_t id) {
  return ids_fail(e, IDS_ENOENT, "%s: %lld: %s", op, (long long)id, what);
}

/* ids below -(2^53-1) cannot be negated safely and are never minted */
#define BADLOCAL(id) ((id) < -IDC_MAX_SAFE)

int ids_idc_normalize_to_op_space (ids_idc *c, int64_t id, int64_t *out,
                                   ids_error *e) {
  uint32_t k;
  if (id >= 0) {
    *out = id;
    return IDS_OK;
  }
  if (BADLOCAL(id) || !idc_runs_contain(c, -id))
    return unknown(e, "normalize_to_op_space", "invalid ID to normalize", id);
  k = idc_cluster_by_gen(c, &c->sess[0], -id);
  *out = k == IDC_NONE ? id : c->cl[k].base_final + (-id - c->cl[k].base_gen);
  return IDS_OK;
}

static int final_to_session (ids_idc *c, int64_t id, int64_t *out,
                             const char *op, ids_error *e) {
  uint32_t k = idc_cluster_by_final(c, id);
  int64_t g;
  if (k == IDC_NONE || c->cl[k].sess != 0) {
    const idc_cluster *last = c->ncl ? &c->cl[c->ncl - 1] : NULL;
    if (id >= (last ? last->base_final + last->count : 0))
      return unknown(e, op, "unknown op space ID", id);
    *out = id;
    return IDS_OK;
  }
  g = c->cl[k].base_gen + (id - c->cl[k].base_final);
  if (idc_runs_contain(c, g)) *out = -g;
  else if (g > c->gen_count) return unknown(e, op, "unknown op space ID", id);
  else *out = id;
  return IDS_OK;
}

int ids_idc_try_normalize_without_session (ids_idc *c, int64_t id,
                                           int64_t *out, int *found,
                                           ids_error *e) {
  int rc;
  *found = 0;
  if (id < 0) return IDS_OK;
  rc = final_to_session(c, id, out,
                        "try_normalize_to_session_space_without_session", e);
  *found = rc == IDS_OK;
  return rc;
}

int ids_idc_normalize_to_session_space (ids_idc *c, int64_t id,
                                        const char *origin, int64_t *out,
                                        ids_error *e) {
  static const char op[] = "normalize_to_session_space";
  uint32_t si, k;
  int64_t g;
  if (id >= 0) return final_to_session(c, id, out, op, e);
  if (BADLOCAL(id)) return unknown(e, op, "unknown op space ID", id);
  g = -id;
  if (origin == NULL)
    return ids_fail(e, IDS_EINVAL, "%s: origin session missing", op);
  si = idc_find_session(c, origin);
  if (si == 0) {
    if (!idc_runs_contain(c, g))
      return unknown(e, op, "unknown op space ID", id);
    *out = id;
    return IDS_OK;
  }
  if (si == IDC_NONE)
    return ids_fail(e, IDS_ENOENT, "%s: no IDs have ever been finalized by "
                    "session '%.60s'", op, origin);
  k = idc_cluster_by_gen(c, &c->sess[si], g);
  if (k == IDC_NONE || g - c->cl[k].base_gen >= c->cl[k].count)
    return unknown(e, op, "unknown op space ID", id);
  *out = c->cl[k].base_final + (g - c->cl[k].base_gen);
  return IDS_OK;
}

/* The session and gen count whose UUID id decompresses to, or the
** error: decompress without the text (the WebAssembly glue makes the text
** in JavaScript; it declares this itself). */
int idc_decompress_at (ids_idc *c, int64_t id, uint32_t *si, int64_t *gen,
                       ids_error *e) {
  static const char op[] = "decompress";
  const idc_cluster *k;
  uint32_t ki;
  int64_t g;
  if (id < 0) {
    if (BADLOCAL(id) || !idc_runs_contain(c, -id))
      return unknown(e, op, "unknown ID", id);
    *si = 0;
    *gen = -id;
    return IDS_OK;
  }
  if ((ki = idc_cluster_by_final(c, id)) == IDC_NONE)
    return unknown(e, op, "unknown ID", id);
  k = &c->cl[ki];
  g = k->base_gen + (id - k->base_final);
  if (g - k->base_gen >= k->count) {        /* allocated, not finalized */
    if (k->sess != 0) return unknown(e, op, "unknown ID", id);
    if (idc_runs_contain(c, g))
      return unknown(e, op, "the final's session form is still a local ID "
                     "(0x759)", id);
  }
  *si = k->sess;
  *gen = g;
  return IDS_OK;
}

int ids_idc_decompress (ids_idc *c, int64_t id, char *uuid, ids_error *e) {
  uint32_t si;
  int64_t g;
  int rc = idc_decompress_at(c, id, &si, &g, e);
  if (rc == IDS_OK) idc_format(c->sess[si].n + (idc_u128)(g - 1), uuid);
  return rc;
}

static int local_fallback (const ids_idc *c, idc_u128 q, int64_t *out) {
  idc_u128 nl = c->sess[0].n;
  int64_t g;
  if (q < nl || q - nl >= (idc_u128)IDC_MAX_SAFE) return 0;
  g = (int64_t)(q - nl) + 1;
  if (!idc_runs_contain(c, g)) return 0;
  *out = -g;
  return 1;
}

/* try_recompress of the number q of the text uuid (NULL: the glue's
** numeric form, whose text is made for a message), which it declares */
int idc_try_recompress_n (ids_idc *c, idc_u128 q, const char *uuid,
                          int64_t *out, int *found, ids_error *e) {
  uint32_t p, k;
  char text[IDS_IDC_UUID_LEN + 1];
  *found = 0;
  p = idc_pred_session(c, q);
  if (p != IDC_NONE && q - c->sess[p].n <= (idc_u128)IDC_MAX_SAFE) {
    int64_t g = (int64_t)(q - c->sess[p].n) + 1;
    if ((k = idc_cluster_by_gen(c, &c->sess[p], g)) != IDC_NONE) {
      const idc_cluster *kc = &c->cl[k];
      if (p == 0 && idc_runs_contain(c, g)) *out = -g;
      else if (p == 0 && g > c->gen_count) {
        if (!uuid) idc_format(q, text);
        return ids_fail(e, IDS_ENOENT, "recompress: '%.60s' is a final "
                        "never generated here (0x75a)", uuid ? uuid : text);
      }
      else *out = kc->base_final + (g - kc->base_gen);
      *found = 1;
      return IDS_OK;
    }
  }
  *found = local_fallback(c, q, out);
  return IDS_OK;
}

int ids_idc_try_recompress (ids_idc *c, const char *uuid, int64_t *out,
                            int *found, ids_error *e) {
  idc_u128 q;
  int rc = idc_parse(uuid, &q, "uuid", e);
  *found = 0;
  if (rc) return rc;
  return idc_try_recompress_n(c, q, uuid, out, found, e);
}

int ids_idc_recompress (ids_idc *c, const char *uuid, int64_t *out,
                        ids_error *e) {
  int found, rc = ids_idc_try_recompress(c, uuid, out, &found, e);
  if (rc == IDS_OK && !found)
    return ids_fail(e, IDS_ENOENT, "recompress: could not recompress "
                    "'%.60s'", uuid);
  return rc;
}
