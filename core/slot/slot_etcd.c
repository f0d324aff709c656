/*
** slot_etcd.c: slots in etcd v3, through its HTTP/JSON gateway (libcurl,
** cJSON; keys and values base64, 64-bit integers as strings).  Keys under
** prefix/ns/ as slot_internal.h names them.
**   acquire  grant a lease (TTL rounded up to whole seconds: the store may
**            keep a slot longer than we count on, never shorter); read
**            epoch, or set it to now if missing or written by another
**            cluster (cluster_id); the floor is at least the granting
**            member's start (read from the lease ID: see started) + TTL,
**            as a store restored from an older snapshot has just started;
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
**
** TLS (etcds://): https with the peer and host name verified, always;
** ?ca= replaces the system's trust store, ?cert= (and ?key=, else the key
** is in the cert file) is the client certificate.  The files are checked
** at open, so that a typo is not taken for an outage.  Each request, its
** handshake and a login included, ends by one deadline, timeout_ms after
** it began.
** AUTH: a URL's user:password, else $IDSCHEME_ETCD_USER and
** $IDSCHEME_ETCD_PASSWORD (read at open).  The gateway's login
** (/v3/auth/authenticate) gives a token for the Authorization header: got
** before the first request, and again, with the request retried once,
** when etcd answers that it expired or the auth store changed (HTTP 401
** "etcdserver: invalid auth token": simple tokens die after
** --auth-token-ttl unused).  Password and token are wiped at close; they
** never appear in a message.
*/
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* A uint64 the gateway writes as a string of digits (IDs); 0 if not. */
static uint64_t getu64 (const cJSON *o, const char *name) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
  const char *p = cJSON_IsString(x) ? x->valuestring : "";
  size_t n = strlen(p);
  uint64_t v;
  if (n > 20 || ids__decimal(p, n, UINT64_MAX, &v) != IDS_OK) return 0;
  return v;
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
  o = cJSON_GetObjectItemCaseSensitive(j, "header");
  r->member = getu64(o, "member_id");
  r->cluster = getu64(o, "cluster_id");
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
  char name[96];               /* u->text for messages (shown) */
  char origin[300];            /* http[s]://host:port */
  char base[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX];   /* prefix/ns */
  int64_t lease;               /* 0: none */
  char *buf;                   /* the reply */
  size_t len, cap;
  int toolong;
  char err[CURL_ERROR_SIZE];   /* curl's words on the last failure */
  char user[64], password[256];  /* etcd auth, or "" */
  struct curl_slist *auth;     /* "Authorization: token", or NULL */
  int authed;                  /* auth done: a token, or auth is off */
} estore;

/* memset that the compiler may not drop: secrets die with their copies */
static void wipe (void *p, size_t n) {
  volatile unsigned char *v = p;
  while (n--) *v++ = 0;
}

static void drop_token (estore *s) {
  struct curl_slist *l;
  for (l = s->auth; l; l = l->next) wipe(l->data, strlen(l->data));
  curl_slist_free_all(s->auth);
  s->auth = NULL;
  s->authed = 0;
}

static int64_t mono_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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

/* A TLS file that cannot be read is a typo, not a store outage.  (fopen:
** unistd.h, for access, declares a revoke of its own.) */
static int readable (const ids_slot_url *u, const char *what,
                     const char *path, ids_error *e) {
  FILE *f = path[0] ? fopen(path, "r") : NULL;
  if (path[0] == '\0' || (f && fclose(f) == 0)) return IDS_OK;
  return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": cannot read %s=%s: "
                  "%s", ids__slot_shown(u), u->text, what, path,
                  strerror(errno));
}

static int eopen (const ids_slot_url *u, void **h, ids_error *e) {
  estore *s;
  const char *user = getenv("IDSCHEME_ETCD_USER");
  const char *pw = getenv("IDSCHEME_ETCD_PASSWORD");
  int rc, nl = ids__slot_shown(u);
  if (u->password[0]) user = u->user, pw = u->password;
  else if (u->user[0]) user = u->user;
  if (user && !user[0]) user = NULL;
  if (pw && !pw[0]) pw = NULL;
  if ((user && strlen(user) >= sizeof s->user) ||
      (pw && strlen(pw) >= sizeof s->password))
    return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": the user or "
                    "password from the environment is too long", nl, u->text);
  /* etcd authenticates a name and its password, never one alone */
  if (pw && !user)
    return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": a password "
                    "without a user (user:password@ or IDSCHEME_ETCD_USER)",
                    nl, u->text);
  if (user && !pw)
    return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": user %s has no "
                    "password (user:password@ or IDSCHEME_ETCD_PASSWORD)",
                    nl, u->text, user);
  if ((rc = readable(u, "ca", u->ca, e)) || (rc = readable(u, "cert",
      u->cert, e)) || (rc = readable(u, "key", u->key, e)))
    return rc;
  pthread_once(&curl_once, curl_init);
  s = calloc(1, sizeof *s);
  if (s == NULL || (s->curl = curl_easy_init()) == NULL) {
    free(s);
    return ids_fail(e, IDS_ENOMEM, "slot store \"%.*s\": cannot make a "
                    "curl handle", nl, u->text);
  }
  s->u = u;
  snprintf(s->name, sizeof s->name, "%.*s", ids__slot_shown(u), u->text);
  if (user) {
    snprintf(s->user, sizeof s->user, "%s", user);
    snprintf(s->password, sizeof s->password, "%s", pw);
  }
  snprintf(s->origin, sizeof s->origin, strchr(u->host, ':')
           ? "%s://[%s]:%d" : "%s://%s:%d", u->tls ? "https" : "http",
           u->host, u->port);
  curl_easy_setopt(s->curl, CURLOPT_ERRORBUFFER, s->err);
  if (u->tls) {
    /* verification stays on: a TLS store is worth nothing without it */
    curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (u->ca[0]) curl_easy_setopt(s->curl, CURLOPT_CAINFO, u->ca);
    if (u->cert[0]) {
      curl_easy_setopt(s->curl, CURLOPT_SSLCERT, u->cert);
      curl_easy_setopt(s->curl, CURLOPT_SSLKEY, u->key[0] ? u->key : u->cert);
    }
  }
  *h = s;
  return IDS_OK;
}

/* etcd's words in the reply: its "error", else the body's first line,
** printable bytes only, into out */
static const char *said (const estore *s, char *out, size_t n) {
  cJSON *j = s->len ? cJSON_ParseWithLength(s->buf, s->len) : NULL;
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, "error");
  const char *p = cJSON_IsString(x) ? x->valuestring
                  : s->len ? s->buf : "(empty reply)";
  size_t k = 0;
  for (; *p && *p != '\n' && k + 1 < n; p++)
    out[k++] = (*p >= ' ' && *p < 127) ? *p : '?';
  out[k] = '\0';
  cJSON_Delete(j);
  return out;
}

/* One POST of body to path, by the deadline (monotonic ms: the TLS
** handshake and a trickling reply included); hdr: extra headers.  0 with
** the reply in s->buf and its status, or IDS_ELEASE. */
static int exchange (estore *s, const ids_slot_req *q, const char *path,
                     const char *body, struct curl_slist *hdr,
                     int64_t deadline, long *status, ids_error *e) {
  char url[340];
  int64_t left = deadline - mono_ms();
  CURLcode rc;
  CURL *c = s->curl;
  snprintf(url, sizeof url, "%s%s", s->origin, path);
  s->len = 0;
  s->toolong = 0;
  s->err[0] = '\0';
  *status = 0;
  if (left <= 0) rc = CURLE_OPERATION_TIMEDOUT;
  else {
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);   /* threads: no SIGALRM */
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)left);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)left);
    curl_easy_setopt(c, CURLOPT_PROXY, "");      /* never via a proxy */
    rc = curl_easy_perform(c);
  }
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s timed out "
                    "after %lld ms", s->name, path,
                    (long long)q->timeout_ms);
  if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": unreachable: %s",
                    s->name, curl_easy_strerror(rc));
  if (rc != CURLE_OK) {   /* TLS problems: curl's buffer says which */
    long fresh = 0;
    double tls = 0;
    /* TLS 1.3 refuses a client certificate after the handshake: the
    ** request meets a reset or an alert, in words that do not say so */
    curl_easy_getinfo(c, CURLINFO_NUM_CONNECTS, &fresh);
    curl_easy_getinfo(c, CURLINFO_APPCONNECT_TIME, &tls);
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s%s%s%s",
                    s->name, fresh > 0 && tls > 0 && (rc == CURLE_SEND_ERROR
                    || rc == CURLE_RECV_ERROR) ? "dropped after the TLS "
                    "handshake (client certificate missing or refused?): "
                    : "", s->err[0] ? s->err : curl_easy_strerror(rc),
                    s->toolong ? " (reply too long)" : "",
                    rc == CURLE_GOT_NOTHING && !s->u->tls
                    ? " (a TLS port? etcds://)" : "");
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
  return IDS_OK;
}

/* Logs in: a token for the requests that follow (none if the store has
** auth off, as etcd's own client does). */
static int authenticate (estore *s, const ids_slot_req *q, int64_t deadline,
                         ids_error *e) {
  const char *const f[2] = {s->user, s->password};
  char body[6 * (sizeof s->user + sizeof s->password) + 64], why[100];
  size_t k = 0;
  long status;
  int i, rc;
  cJSON *j;
  const cJSON *t;
  for (i = 0; i < 2; i++) {            /* {"name":"...","password":"..."} */
    const unsigned char *p = (const unsigned char *)f[i];
    k += (size_t)sprintf(body + k, i ? "\",\"password\":\"" : "{\"name\":\"");
    for (; *p; p++)
      if (*p < ' ') k += (size_t)sprintf(body + k, "\\u%04x", *p);
      else {
        if (*p == '"' || *p == '\\') body[k++] = '\\';
        body[k++] = (char)*p;
      }
  }
  strcpy(body + k, "\"}");
  rc = exchange(s, q, "/v3/auth/authenticate", body, NULL, deadline,
                &status, e);
  wipe(body, sizeof body);
  if (rc != IDS_OK) return rc;
  j = cJSON_ParseWithLength(s->buf, s->len);
  t = cJSON_GetObjectItemCaseSensitive(j, "token");
  if (status == 200 && cJSON_IsString(t) && t->valuestring[0]) {
    size_t n = strlen(t->valuestring) + 16;
    char *hl = malloc(n);
    if (hl) {
      snprintf(hl, n, "Authorization: %s", t->valuestring);
      s->auth = curl_slist_append(NULL, hl);
      wipe(hl, n);
      free(hl);
    }
    wipe(t->valuestring, strlen(t->valuestring));
    wipe(s->buf, s->len);
    cJSON_Delete(j);
    if (s->auth == NULL) return ids_fail(e, IDS_ENOMEM, "out of memory");
    s->authed = 1;
    return IDS_OK;
  }
  cJSON_Delete(j);
  said(s, why, sizeof why);
  if (strstr(why, "authentication is not enabled")) {
    s->authed = 1;
    return IDS_OK;
  }
  return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": login as %s "
                  "refused: %s", s->name, s->user, why);
}

/* An expired or outdated token, or auth turned on since we looked: log in
** again. */
static int stale (const estore *s, long status) {
  char why[100];
  if (status == 200 || s->user[0] == '\0') return 0;
  said(s, why, sizeof why);
  return status == 401 || strstr(why, "invalid auth token")
         || strstr(why, "auth store is old") || strstr(why, "user name is "
                                                       "empty");
}

/* POSTs body to the gateway and parses the reply as `kind`: logged in
** first if need be, and again once if the token went stale, all within
** one timeout. */
static int post (estore *s, const ids_slot_req *q, const char *path,
                 const char *body, int kind, ids__etcd_reply *r,
                 ids_error *e) {
  int64_t deadline = mono_ms() + q->timeout_ms;
  long status;
  char why[100];
  int rc, again = 1;
  for (;;) {
    if (s->user[0] && !s->authed &&
        (rc = authenticate(s, q, deadline, e)) != IDS_OK)
      return rc;
    if ((rc = exchange(s, q, path, body, s->auth, deadline, &status, e)))
      return rc;
    if (!again-- || !stale(s, status)) break;
    drop_token(s);
  }
  if (s->len && status == 200 && ids__etcd_parse(s->buf, s->len, kind, r)
      == 0 && r->ok)
    return IDS_OK;
  said(s, why, sizeof why);
  if (strstr(why, "user name is empty"))   /* auth on, we have none */
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s (auth is on: "
                    "user:password@ or IDSCHEME_ETCD_USER and _PASSWORD)",
                    s->name, why);
  return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": %s: HTTP %ld: %s%s%s",
                  s->name, path, status, why, s->user[0] ? " as " : "",
                  s->user);
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

/* The store's history began at the epoch: made now if missing, or if the
** cluster is not the one that wrote it (a new cluster ID: another store,
** whatever data it was given), as slot_redis.c does on a new run_id. */
static int epoch (estore *s, const ids_slot_req *q, uint64_t cluster,
                  int64_t *t0, ids_error *e) {
  char k[B64MAX], ck[B64MAX], v[64], cv[64], now[21], id[21];
  char body[6 * B64MAX + 512];
  ids__etcd_reply r = {0};
  int rc;
  key(s, k, "epoch", -1);
  key(s, ck, "cluster", -1);
  ids__slot_fmt_ns(now, q->now_ns);
  b64(v, sizeof v, now);
  snprintf(id, sizeof id, "%llu", (unsigned long long)cluster);
  b64(cv, sizeof cv, id);
  snprintf(body, sizeof body,
           "{\"compare\":[{\"key\":\"%s\",\"target\":\"CREATE\","
           "\"result\":\"GREATER\",\"create_revision\":\"0\"},"
           "{\"key\":\"%s\",\"target\":\"VALUE\",\"result\":\"EQUAL\","
           "\"value\":\"%s\"}],"
           "\"success\":[{\"request_range\":{\"key\":\"%s\"}}],"
           "\"failure\":[{\"request_put\":{\"key\":\"%s\",\"value\":\"%s\"}},"
           "{\"request_put\":{\"key\":\"%s\",\"value\":\"%s\"}}]}",
           k, ck, cv, k, k, v, ck, cv);
  if ((rc = post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, e)) != IDS_OK)
    return rc;
  *t0 = !r.succeeded ? q->now_ns : r.nvalues == 1 ? r.values[0] : -1;
  if (*t0 < 0)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": bad epoch value",
                    ids__slot_shown(s->u), s->u->text);
  return IDS_OK;
}

/* When the member that granted lease `id` started (wall-clock ns), read
** from the ID: etcd makes IDs as the member ID's low 16 bits (top bit
** cleared) | its start time in ms (40 bits) | a counter (8 bits) that
** carries into the time, so the time read is never before the start.
** A store restored from an older snapshot (or restarted on older data)
** has just started, and holders of slots its data does not know may
** still issue up to their limits, below start + TTL, since their
** renewals fail from then on: so a claim's floor is at least start + TTL
** (rule 7), which costs nothing once the member has run a TTL.  An ID
** without the member's bits (another etcd's scheme) says nothing of the
** start: it is taken as now. */
static int64_t started (int64_t id, uint64_t member, int64_t now_ns) {
  const int64_t m40 = ((int64_t)1 << 40) - 1;
  int64_t age;
  if ((uint64_t)id >> 48 != (member & 0x7fff)) return now_ns;
  age = ((now_ns / 1000000 & m40) - (id >> 8 & m40)) & m40;
  if (age >= (int64_t)1 << 39) age -= (int64_t)1 << 40;  /* its clock ahead */
  return now_ns - age * 1000000;
}

/* The namespace's meaning (slots.h): recorded by its first claim, and
** another refused.  One txn when it is ours already; else it is created
** if missing, and a second look tells a race with an equal one from a
** different one. */
static int meaning (estore *s, const ids_slot_req *q, ids_error *e) {
  char k[B64MAX], v[128], body[2 * B64MAX + 512];
  ids__etcd_reply r;
  int rc, tries;
  key(s, k, "meaning", -1);
  b64(v, sizeof v, q->meaning);
  for (tries = 0; tries < 3; tries++) {
    memset(&r, 0, sizeof r);
    snprintf(body, sizeof body, "{\"compare\":[{\"key\":\"%s\",\"target\":"
             "\"VALUE\",\"result\":\"EQUAL\",\"value\":\"%s\"}]}", k, v);
    if ((rc = post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, e)) != IDS_OK)
      return rc;
    if (r.succeeded) return IDS_OK;
    memset(&r, 0, sizeof r);
    snprintf(body, sizeof body, "{\"compare\":[{\"key\":\"%s\",\"target\":"
             "\"CREATE\",\"result\":\"EQUAL\",\"create_revision\":\"0\"}],"
             "\"success\":[{\"request_put\":{\"key\":\"%s\",\"value\":"
             "\"%s\"}}]}", k, k, v);
    if ((rc = post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, e)) != IDS_OK)
      return rc;
    if (r.succeeded) return IDS_OK;
  }
  return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": namespace '%s' holds "
                  "slots of another meaning than \"%s\": give this one a "
                  "slot_namespace of its own", ids__slot_shown(s->u),
                  s->u->text, q->ns, q->meaning);
}

/* Gives back slot/N that a claim just took (its record is corrupt). */
static void untake (estore *s, const ids_slot_req *q, const char *k) {
  char body[2 * B64MAX + 256];
  ids__etcd_reply r = {0};
  ids_error e;
  snprintf(body, sizeof body,
           "{\"compare\":[{\"key\":\"%s\",\"target\":\"LEASE\","
           "\"result\":\"EQUAL\",\"lease\":\"%lld\"}],"
           "\"success\":[{\"request_delete_range\":{\"key\":\"%s\"}}]}",
           k, (long long)s->lease, k);
  post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, &e);
}

/* Writes epoch = now (a corrupt one begins the history again). */
static int new_epoch (estore *s, const ids_slot_req *q, ids_error *e) {
  char k[B64MAX], v[64], now[21], body[2 * B64MAX + 256];
  ids__etcd_reply r = {0};
  key(s, k, "epoch", -1);
  ids__slot_fmt_ns(now, q->now_ns);
  b64(v, sizeof v, now);
  snprintf(body, sizeof body, "{\"success\":[{\"request_put\":{\"key\":"
           "\"%s\",\"value\":\"%s\"}}]}", k, v);
  return post(s, q, "/v3/kv/txn", body, IDS_ETCD_TXN, &r, e);
}

static int eacquire (void *h, const ids_slot_req *q, uint32_t *slot,
                     int64_t *floor, ids_error *e) {
  estore *s = h;
  uint32_t n = (uint32_t)1 << q->bits, i;
  char body[4 * B64MAX + 512], k[B64MAX], lk[B64MAX], v[128], val[64];
  ids__etcd_reply r = {0};
  unsigned char *taken;
  int64_t t0, start;
  int rc, bad = 0;
  char badkey[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX + 16];
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
  start = started(r.id, r.member, q->now_ns);
  if ((rc = meaning(s, q, e)) != IDS_OK) goto fail;
  rc = epoch(s, q, r.cluster, &t0, e);
  if (rc == IDS_OK && t0 > q->max_floor_ns) {   /* corrupt: begin again */
    rc = new_epoch(s, q, e);
    t0 = q->now_ns;
  }
  if (rc != IDS_OK) goto fail;
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
    if (taken[i] || !ids__slot_ours(q, i)) continue;
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
      if (last == -1 || last > q->max_floor_ns) {  /* corrupt: skip it */
        untake(s, q, k);
        if (!bad) bad = 1, snprintf(badkey, sizeof badkey, "%s/last/%05u",
                                    s->base, (unsigned)i);
        continue;
      }
      free(taken);
      if (bad) ids__slot_skipped(q, badkey, IDS_SLOT_CORRUPT);
      *slot = i;
      /* a holder whose last/N is gone (deleted) may issue up to its
      ** limit, at most ttl from now: missing is never "never used"
      ** (slot_redis.c); before t0 the history is unknown; and a member
      ** that started less than a TTL ago may have come back from older
      ** data (started) */
      *floor = last >= 0 ? last : q->now_ns + q->ttl_ms * 1000000;
      if (*floor < t0 + q->ttl_ms * 1000000) *floor = t0 + q->ttl_ms * 1000000;
      if (*floor < start + q->ttl_ms * 1000000)
        *floor = start + q->ttl_ms * 1000000;
      return IDS_OK;
    }
  }
  free(taken);
  if (bad) ids__slot_skipped(q, badkey, IDS_SLOT_CORRUPT);
  if (rc == IDS_OK)
    rc = ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": every slot of "
                  "namespace '%s' (%lu) is taken%s", s->u->text, q->ns,
                  ids__slot_candidates(q), bad ? " or has a corrupt record"
                                               : "");
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
  drop_token(s);
  if (s->buf) wipe(s->buf, s->cap);
  free(s->buf);
  wipe(s, sizeof *s);                  /* the password */
  free(s);
}

const ids_slot_backend ids__slot_etcd = {
  "etcd", eopen, eacquire, erenew, erelease, NULL, eclose
};
