/*
** slot_etcd.c: slots in etcd v3, through its HTTP/JSON gateway (libcurl,
** cJSON; keys and values base64, 64-bit integers as strings).  Keys under
** prefix/ns/ as slot_internal.h names them.
**   acquire  grant a lease (TTL rounded up to whole seconds: the store may
**            keep a slot longer than we count on, never shorter); create
**            epoch if missing (txn on create_revision = 0), else read it;
**            list the taken slots (one range, keys only); then for the
**            lowest free N a txn: if create_revision(slot/N) = 0, put
**            slot/N = "token 0" with the lease and read last/N
**   renew    keep the lease alive (TTL 0: gone, the slot is lost), then a
**            txn: if slot/N is still attached to our lease, put slot/N =
**            "token limit" and last/N = limit (no lease: it outlives us)
**   release  if the holder says what it issued: a txn, if slot/N is still
**            on our lease, put last/N = that (at least its floor: slot.c);
**            then revoke the lease (etcd deletes slot/N with it)
** One curl handle per lease keeps its connection between requests.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "internal.h"
#include "slot_internal.h"

#define MAXREPLY  (16u << 20)   /* 2^16 keys, base64, with headers */

/* ------------------------------------------------------ reply parsing */

/* An int64 that the gateway writes as a string, or a plain number. */
static int getint (const cJSON *o, const char *name, int64_t *v) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
  if (cJSON_IsString(x)) {
    int64_t n;
    const char *s = x->valuestring;
    int neg = s[0] == '-';
    n = ids__slot_parse_ns(s + neg, strlen(s + neg));
    if (n < 0) return 0;
    *v = neg ? -n : n;
    return 1;
  }
  if (cJSON_IsNumber(x) && x->valuedouble >= -9.2e18
      && x->valuedouble <= 9.2e18) {
    *v = (int64_t)x->valuedouble;
    return 1;
  }
  return 0;
}

/* Decodes a base64 member into out (NUL-terminated); its length or -1. */
static long getb64 (const cJSON *o, const char *name, char *out, size_t n) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
  size_t len, tl;
  if (!cJSON_IsString(x) || n == 0) return -1;
  tl = strlen(x->valuestring);
  if (tl / 4 * 3 > n - 1 ||
      ids__b64_decode((unsigned char *)out, x->valuestring, tl, &len) != 0)
    return -1;
  out[len] = '\0';
  return (long)len;
}

/* A stored value: a limit ("000...123") or "token limit": the number. */
static int64_t valuens (const cJSON *kv) {
  char v[128];
  const char *sp;
  long n = getb64(kv, "value", v, sizeof v);
  if (n < 0) return -1;
  sp = strrchr(v, ' ');
  sp = sp ? sp + 1 : v;
  return ids__slot_parse_ns(sp, strlen(sp));
}

/* ".../slot/NNNNN" -> N, or -1 */
static long slotof (const char *key, size_t n) {
  const char *p;
  int64_t v;
  if (n < 11) return -1;
  p = key + n - 11;
  if (memcmp(p, "/slot/", 6) != 0) return -1;
  v = ids__slot_parse_ns(p + 6, 5);
  return v < 0 ? -1 : (long)v;
}

int ids__etcd_parse (const char *body, size_t n, int kind,
                     ids__etcd_reply *r) {
  cJSON *j = cJSON_ParseWithLength(body, n), *o;
  const cJSON *x;
  unsigned char *taken = r->taken;
  size_t ntaken = r->ntaken;
  memset(r, 0, sizeof *r);
  r->taken = taken;
  r->ntaken = ntaken;
  if (!cJSON_IsObject(j)) {
    cJSON_Delete(j);
    return -1;
  }
  r->ok = cJSON_GetObjectItemCaseSensitive(j, "error") == NULL;
  o = j;
  switch (kind) {
  case IDS_ETCD_KEEPALIVE:
    o = cJSON_GetObjectItemCaseSensitive(j, "result");
    if (!cJSON_IsObject(o)) r->ok = 0;
    else {
      getint(o, "ID", &r->id);       /* the lease is in "result" */
      getint(o, "TTL", &r->ttl);
    }
    break;
  case IDS_ETCD_GRANT:
    getint(o, "ID", &r->id);
    getint(o, "TTL", &r->ttl);
    break;
  case IDS_ETCD_TXN:
    r->succeeded = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j,
                                                                 "succeeded"));
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(j, "responses")) {
      const cJSON *rr = cJSON_GetObjectItemCaseSensitive(x, "response_range");
      const cJSON *kvs = cJSON_GetObjectItemCaseSensitive(rr, "kvs");
      if (r->nvalues == 4) break;
      /* -2: not a range or nothing found; -1: malformed value */
      r->values[r->nvalues++] = cJSON_GetArraySize(kvs) > 0
        ? valuens(cJSON_GetArrayItem(kvs, 0)) : -2;
    }
    break;
  case IDS_ETCD_RANGE:
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(j, "kvs")) {
      char k[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX + 32];
      long len = getb64(x, "key", k, sizeof k), s;
      r->nkeys++;
      if (len < 0) continue;
      s = slotof(k, (size_t)len);
      if (s >= 0 && (size_t)s < r->ntaken && r->taken) r->taken[s] = 1;
    }
    break;
  default:
    r->ok = 0;
  }
  cJSON_Delete(j);
  return 0;
}

/* ----------------------------------------------------------- transport */

typedef struct estore {
  CURL *curl;
  const ids_slot_url *u;
  char origin[300];            /* http://host:port */
  char base[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX];   /* prefix/ns */
  int64_t lease;               /* 0: none */
  char *buf;                   /* the reply */
  size_t len, cap;
  int toolong;
} estore;

static size_t sink (char *p, size_t size, size_t nmemb, void *ud) {
  estore *s = ud;
  size_t n = size * nmemb;
  if (s->len + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 4096;
    char *b;
    while (cap < s->len + n + 1) cap *= 2;
    if (cap > MAXREPLY || (b = realloc(s->buf, cap)) == NULL) {
      s->toolong = 1;
      return 0;
    }
    s->buf = b;
    s->cap = cap;
  }
  memcpy(s->buf + s->len, p, n);
  s->len += n;
  s->buf[s->len] = '\0';
  return n;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init (void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static int eopen (const ids_slot_url *u, void **h, ids_error *e) {
  estore *s;
  pthread_once(&curl_once, curl_init);
  s = calloc(1, sizeof *s);
  if (s == NULL || (s->curl = curl_easy_init()) == NULL) {
    free(s);
    return ids_fail(e, IDS_ENOMEM, "slot store \"%.80s\": cannot make a "
                    "curl handle", u->text);
  }
  s->u = u;
  snprintf(s->origin, sizeof s->origin, strchr(u->host, ':')
           ? "http://[%s]:%d" : "http://%s:%d", u->host, u->port);
  *h = s;
  return IDS_OK;
}

/* POSTs body to the gateway and parses the reply as `kind`. */
static int post (estore *s, const ids_slot_req *q, const char *path,
                 const char *body, int kind, ids__etcd_reply *r,
                 ids_error *e) {
  char url[340];
  long status = 0;
  CURLcode rc;
  CURL *c = s->curl;
  snprintf(url, sizeof url, "%s%s", s->origin, path);
  s->len = 0;
  s->toolong = 0;
  curl_easy_setopt(c, CURLOPT_URL, url);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);   /* threads: no SIGALRM */
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)q->timeout_ms);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)q->timeout_ms);
  curl_easy_setopt(c, CURLOPT_PROXY, "");      /* never via a proxy */
  rc = curl_easy_perform(c);
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s timed out "
                    "after %lld ms", s->u->text, path,
                    (long long)q->timeout_ms);
  if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": unreachable: %s",
                    s->u->text, curl_easy_strerror(rc));
  if (rc != CURLE_OK)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s: %s%s",
                    s->u->text, path, curl_easy_strerror(rc),
                    s->toolong ? " (reply too long)" : "");
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  if (s->len == 0 || ids__etcd_parse(s->buf, s->len, kind, r) != 0
      || status != 200 || !r->ok)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s: HTTP %ld: "
                    "%.50s", s->u->text, path, status,
                    s->len ? s->buf : "(empty reply)");
  return IDS_OK;
}

/* base64 of a string, into out (n: at least 4/3 of it + 4; a string
** too long for out is cut, and then no key the store holds) */
static const char *b64 (char *out, size_t n, const char *s) {
  size_t len = strlen(s), max = (n - 1) / 4 * 3;
  ids__b64_encode(out, (const unsigned char *)s, len < max ? len : max);
  return out;
}

#define B64MAX  (2 * IDS_SLOT_URLMAX)

static void key (estore *s, char *out, const char *kind, long slot) {
  char k[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX + 32];
  snprintf(k, sizeof k, slot < 0 ? "%s/%s" : "%s/%s/%05ld", s->base, kind,
           slot);
  b64(out, B64MAX, k);
}

static void revoke (estore *s, const ids_slot_req *q) {
  char body[64];
  ids__etcd_reply r = {0};
  ids_error e;
  if (s->lease == 0) return;
  snprintf(body, sizeof body, "{\"ID\":\"%lld\"}", (long long)s->lease);
  post(s, q, "/v3/lease/revoke", body, IDS_ETCD_GRANT, &r, &e);
  s->lease = 0;
}

/* The store's history began at the epoch: created now if missing. */
static int epoch (estore *s, const ids_slot_req *q, int64_t *t0,
                  ids_error *e) {
  char k[B64MAX], v[64], now[21], body[4 * B64MAX + 256];
  ids__etcd_reply r = {0};
  int rc;
  key(s, k, "epoch", -1);
  ids__slot_fmt_ns(now, q->now_ns);
  b64(v, sizeof v, now);
  snprintf(body, sizeof body,
           "{\"compare\":[{\"key\":\"%s\",\"target\":\"CREATE\","
           "\"result\":\"EQUAL\",\"create_revision\":\"0\"}],"
           "\"success\":[{\"request_put\":{\"key\":\"%s\",\"value\":\"%s\"}}],"
           "\"failure\":[{\"request_range\":{\"key\":\"%s\"}}]}",
           k, k, v, k);
  if ((rc = post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, e)) != IDS_OK)
    return rc;
  *t0 = r.succeeded ? q->now_ns : r.nvalues == 1 ? r.values[0] : -1;
  if (*t0 < 0)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": bad epoch value",
                    s->u->text);
  return IDS_OK;
}

static int eacquire (void *h, const ids_slot_req *q, uint32_t *slot,
                     int64_t *floor, ids_error *e) {
  estore *s = h;
  uint32_t n = (uint32_t)1 << q->bits, i;
  char body[4 * B64MAX + 512], k[B64MAX], lk[B64MAX], v[128], val[64];
  ids__etcd_reply r = {0};
  unsigned char *taken;
  int64_t t0;
  int rc;
  if (ids__slot_key(s->base, sizeof s->base, s->u->path, q->ns, "", -1)
      != IDS_OK)
    return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": key too long",
                    s->u->text);
  s->base[strlen(s->base) - 1] = '\0';
  revoke(s, q);   /* a lost slot's lease, if any */
  snprintf(body, sizeof body, "{\"TTL\":\"%lld\"}",
           (long long)((q->ttl_ms + 999) / 1000));
  if ((rc = post(s, q, "/v3/lease/grant", body, IDS_ETCD_GRANT, &r, e)))
    return rc;
  if (r.id == 0)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": lease grant "
                    "gave no ID", s->u->text);
  s->lease = r.id;
  if ((rc = epoch(s, q, &t0, e)) != IDS_OK) goto fail;
  /* which slots are taken: one range over slot/, keys only */
  taken = calloc(n, 1);
  if (taken == NULL) {
    rc = ids_fail(e, IDS_ENOMEM, "out of memory");
    goto fail;
  }
  {
    char from[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX + 16];
    char bf[B64MAX], bt[B64MAX];
    snprintf(from, sizeof from, "%s/slot/", s->base);
    b64(bf, sizeof bf, from);
    from[strlen(from) - 1] = '0';   /* '/' + 1: the end of the range */
    b64(bt, sizeof bt, from);
    snprintf(body, sizeof body, "{\"key\":\"%s\",\"range_end\":\"%s\","
             "\"keys_only\":true}", bf, bt);
    r.taken = taken;
    r.ntaken = n;
    rc = post(s, q, "/v3/kv/range", body, IDS_ETCD_RANGE, &r, e);
  }
  snprintf(val, sizeof val, "%s 0", q->token);
  b64(v, sizeof v, val);
  for (i = 0; rc == IDS_OK && i < n; i++) {
    if (taken[i]) continue;
    key(s, k, "slot", (long)i);
    key(s, lk, "last", (long)i);
    snprintf(body, sizeof body,
             "{\"compare\":[{\"key\":\"%s\",\"target\":\"CREATE\","
             "\"result\":\"EQUAL\",\"create_revision\":\"0\"}],"
             "\"success\":[{\"request_put\":{\"key\":\"%s\",\"value\":\"%s\","
             "\"lease\":\"%lld\"}},{\"request_range\":{\"key\":\"%s\"}}]}",
             k, k, v, (long long)s->lease, lk);
    memset(&r, 0, sizeof r);
    rc = post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, e);
    if (rc == IDS_OK && r.succeeded) {
      int64_t last = r.nvalues == 2 ? r.values[1] : -1;
      free(taken);
      if (last == -1) {
        rc = ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": bad last "
                      "limit of slot %u", s->u->text, (unsigned)i);
        goto fail;
      }
      *slot = i;
      /* see slot_redis.c: no last limit, the history began at t0 */
      *floor = last >= 0 ? last : t0 + q->ttl_ms * 1000000;
      return IDS_OK;
    }
  }
  free(taken);
  if (rc == IDS_OK)
    rc = ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": every slot of "
                  "namespace '%s' (%lu) is taken", s->u->text, q->ns,
                  (unsigned long)n);
fail:
  revoke(s, q);
  return rc;
}

/* A txn: if slot/N is still on our lease, put last/N = limit and, for a
** renewal (token not NULL), slot/N = "token limit" on the lease.  *r says
** whether it succeeded. */
static int guarded_put (estore *s, const ids_slot_req *q, uint32_t slot,
                        int64_t limit, const char *token, ids__etcd_reply *r,
                        ids_error *e) {
  char body[4 * B64MAX + 512], k[B64MAX], lk[B64MAX], v[128], lv[64];
  char put[B64MAX + 256], val[64], lim[21];
  key(s, k, "slot", (long)slot);
  key(s, lk, "last", (long)slot);
  ids__slot_fmt_ns(lim, limit);
  b64(lv, sizeof lv, lim);
  put[0] = '\0';
  if (token) {
    snprintf(val, sizeof val, "%s %s", token, lim);
    b64(v, sizeof v, val);
    snprintf(put, sizeof put, "{\"request_put\":{\"key\":\"%s\",\"value\":"
             "\"%s\",\"lease\":\"%lld\"}},", k, v, (long long)s->lease);
  }
  snprintf(body, sizeof body,
           "{\"compare\":[{\"key\":\"%s\",\"target\":\"LEASE\","
           "\"result\":\"EQUAL\",\"lease\":\"%lld\"}],"
           "\"success\":[%s{\"request_put\":{\"key\":\"%s\","
           "\"value\":\"%s\"}}]}", k, (long long)s->lease, put, lk, lv);
  memset(r, 0, sizeof *r);
  return post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, r, e);
}

static int erenew (void *h, const ids_slot_req *q, uint32_t slot,
                   int64_t limit, int *lost, ids_error *e) {
  estore *s = h;
  char body[64];
  ids__etcd_reply r = {0};
  int rc;
  *lost = 0;
  snprintf(body, sizeof body, "{\"ID\":\"%lld\"}", (long long)s->lease);
  if ((rc = post(s, q, "/v3/lease/keepalive", body, IDS_ETCD_KEEPALIVE, &r,
                 e)) != IDS_OK)
    return rc;
  if (r.ttl <= 0) {
    *lost = 1;
    s->lease = 0;   /* expired: nothing to revoke */
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": the lease of "
                    "slot %u expired", s->u->text, (unsigned)slot);
  }
  if ((rc = guarded_put(s, q, slot, limit, q->token, &r, e)) != IDS_OK)
    return rc;
  if (!r.succeeded) {
    *lost = 1;
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": slot %u is no "
                    "longer ours", s->u->text, (unsigned)slot);
  }
  return IDS_OK;
}

static void erelease (void *h, const ids_slot_req *q, uint32_t slot) {
  estore *s = h;
  if (q->settle_ns >= 0 && s->lease != 0) {    /* best effort */
    ids__etcd_reply r;
    ids_error e;
    guarded_put(s, q, slot, q->settle_ns, NULL, &r, &e);
  }
  revoke(h, q);
}

static void eclose (void *h) {
  estore *s = h;
  curl_easy_cleanup(s->curl);
  free(s->buf);
  free(s);
}

const ids_slot_backend ids__slot_etcd = {
  "etcd", eopen, eacquire, erenew, erelease, NULL, eclose
};
