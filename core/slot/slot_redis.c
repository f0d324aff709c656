/*
** slot_redis.c: slots in Redis (hiredis), under prefix/ns/ (slot_internal.h
** names the keys).  Every step is one server-side Lua script, so that the
** check and the write are one atomic step on the server:
**   acquire  SET slot/N "token 0" NX PX ttl on the lowest free N, in one
**            script that also reads last/N (the previous holders' highest
**            limit) and epoch (set to now if missing, or if the server's
**            run_id is not the one that wrote the history: a restarted
**            server may have come back from older data, so the history
**            begins again, see docs/SLOTS.md rule 7)
**   renew    if slot/N still holds our token: SET it "token limit" PX ttl,
**            and raise last/N to limit
**   release  if slot/N still holds our token: DEL it, and set last/N to
**            what the holder says it issued, if it says (at least its
**            floor: slot.c), so that the next holder need not wait for the
**            lease's limit
** Keys are named inside the scripts: fine for one server, not for Redis
** Cluster (documented).  One connection per lease, opened lazily and
** again after any error (hiredis leaves a failed context unusable).
**
** AUTH: a URL's user and password (redis://user:pass@host), else
** $IDSCHEME_REDIS_USER and $IDSCHEME_REDIS_PASSWORD (so that the secret
** stays out of nginx.conf), sent on every new connection.
**
** A request (its connect included) ends by one deadline, timeout_ms after
** it began, however the server trickles bytes, and its reply is capped at
** MAXREPLY bytes: hiredis 0.14 bounds each read only and holds whatever a
** reply announces, so we write, poll and read ourselves and feed hiredis's
** reader.  A claim's key lives 2 x timeout_ms until the first renewal
** makes it ttl: a claim that timed out here but ran on the server later
** holds its slot for a gone process that long, not a whole ttl.
**
** TLS (rediss://): hiredis 0.14 has none, so OpenSSL runs on the socket
** hiredis connected, and hiredis only formats commands and parses
** replies.  The context (TLS 1.2 at least, the CA file or the system's
** trust store, the client certificate and key) is made at open, so that a
** file that cannot be loaded fails the claim by name.  Each connection
** gets its own SSL: the handshake runs on the socket, made non-blocking,
** within the request's deadline, before AUTH; the server's certificate is
** always verified and must name the URL's host (an IP address as such, a
** DNS name also sent as SNI).  Then commands go out through SSL_write and
** replies come in through SSL_read, each waiting on the socket whichever
** way OpenSSL asks, by the same deadline.  Nothing is sent when a
** connection goes (no close_notify): SSL_free does no I/O, so a forked
** child frees its copy without touching the parent's connection.
*/
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "slot_internal.h"

/* Our replies are a few dozen bytes; anything near this is hostile. */
#define MAXREPLY  65536

typedef struct rstore {
  redisContext *c;
  SSL_CTX *tls;                /* rediss://: every connection's context */
  SSL *ssl;                    /* rediss://: this connection's, or NULL */
  const ids_slot_url *u;
  char base[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX];
  int64_t ttl_ms;
  char runid[48];              /* the connected server's run_id, or "" */
  char policy[96];             /* its maxmemory-policy, or why unknown */
  char user[64], password[256];  /* AUTH, or "" */
} rstore;

/* The namespace's history, shared by claim and renewal (a macro: each
** script is sent whole).  `epoch` (when the history began), `runid` (the
** server that wrote it) and `used` ("EPOCH HW": every slot number below
** HW was claimed or renewed since EPOCH) are checked together: if any is
** missing, malformed, another server's, of another epoch or further ahead
** than any holder's record may be (maxf), the history begins again now:
** from then on every holder of a slot whose keys are gone stops within a
** ttl.  So a slot number at or past HW was never held since EPOCH (a
** claim that finds no last/k for it waits only for EPOCH + ttl), and one
** below HW whose last/k is gone was held, by a holder that may still run
** a ttl more.  Records are 20 digits (ids__slot_fmt_ns): string order is
** number order, anything else is corrupt.  In: base, now, runid, maxf.
** Out: t0, hw; uk (to raise HW). */
#define HISTORY_LUA \
  "local function rec (v) return v and #v == 20 and not v:find('%D') " \
  "and v <= maxf end\n" \
  "local ek, rk, uk = base .. '/epoch', base .. '/runid', base .. '/used'\n" \
  "local t0, u = redis.call('GET', ek), redis.call('GET', uk)\n" \
  "local hw = nil\n" \
  "if rec(t0) and redis.call('GET', rk) == runid and u and " \
  "u:sub(1, 21) == t0 .. ' ' then hw = tonumber(u:sub(22)) end\n" \
  "if not hw or hw < 0 or hw ~= math.floor(hw) then\n" \
  "  redis.call('SET', ek, now) redis.call('SET', rk, runid)\n" \
  "  redis.call('SET', uk, now .. ' 0') t0, hw = now, 0\n" \
  "end\n" \
  "local function raise (k) if k + 1 > hw then hw = k + 1 " \
  "redis.call('SET', uk, t0 .. ' ' .. hw) end end\n"

/* Claim: the namespace's meaning is checked first (recorded by its first
** claim); then the history; then the lowest free slot k with (k & mask)
** == fix: its last/k read (and whether k is new since the epoch: k >= HW),
** HW raised past it, and a slot whose last/k is corrupt given back at
** once and skipped (the first such key is reported). */
static const char claim_lua[] =
  "local base, n, val, ttl, now = ARGV[1], tonumber(ARGV[2]), ARGV[3], "
  "ARGV[4], ARGV[5]\n"
  "local runid, mask, fix, maxf = ARGV[6], tonumber(ARGV[7]), "
  "tonumber(ARGV[8]), ARGV[9]\n"
  "local mk = base .. '/meaning'\n"
  "local m = redis.call('GET', mk)\n"
  "if m and m ~= ARGV[10] then return {-2, m, '', '', 0} end\n"
  "if not m then redis.call('SET', mk, ARGV[10]) end\n"
  HISTORY_LUA
  "local bad = ''\n"
  "for k = 0, n - 1 do\n"
  "  if bit.band(k, mask) == fix then\n"
  "    local sk = string.format('%s/slot/%05d', base, k)\n"
  "    if redis.call('SET', sk, val, 'NX', 'PX', ttl) then\n"
  "      local lk = string.format('%s/last/%05d', base, k)\n"
  "      local last = redis.call('GET', lk)\n"
  "      if not last or rec(last) then\n"
  "        local new = k >= hw and 1 or 0\n"
  "        raise(k)\n"
  "        return {k, last or '', t0, bad, new}\n"
  "      end\n"
  "      redis.call('DEL', sk)\n"
  "      if bad == '' then bad = lk .. ' = ' .. string.sub(last, 1, 40) end\n"
  "    end\n"
  "  end\n"
  "end\n"
  "return {-1, '', t0, bad, 0}\n";

/* Renew: if slot/N holds our token, SET it "token limit" PX ttl, raise
** last/N to limit, and count N in the history (a holder is always
** counted, so that a claim never takes its slot as new). */
static const char renew_lua[] =
  "local v = redis.call('GET', KEYS[1])\n"
  "if not v or string.sub(v, 1, #ARGV[1] + 1) ~= ARGV[1] .. ' ' then "
  "return 0 end\n"
  "local base, now, runid, maxf = ARGV[5], ARGV[6], ARGV[7], ARGV[8]\n"
  HISTORY_LUA
  "raise(tonumber(ARGV[9]))\n"
  "redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])\n"
  "local last = redis.call('GET', KEYS[2])\n"
  "if not last or last < ARGV[4] then\n"
  "  redis.call('SET', KEYS[2], ARGV[4])\n"
  "end\n"
  "return 1\n";

/* Release: the lease's key first, so that a store too full to take the
** record (noeviction, OOM) still frees the slot; last/N then keeps the
** holder's last limit, which covers what it issued. */
static const char release_lua[] =
  "local v = redis.call('GET', KEYS[1])\n"
  "if v and string.sub(v, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then\n"
  "  redis.call('DEL', KEYS[1])\n"
  "  if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2]) end\n"
  "end\n"
  "return 1\n";

/* OpenSSL's reason for the oldest error queued (the most precise), in
** words; the queue is emptied. */
static const char *ssl_why (char *buf, size_t n) {
  unsigned long err = ERR_peek_error();
  const char *why = err ? ERR_reason_error_string(err) : NULL;
  if (err && ERR_SYSTEM_ERROR(err))   /* a file's errno: no string above */
    why = strerror(ERR_GET_REASON(err));
  if (why) snprintf(buf, n, "%s", why);
  else if (err) ERR_error_string_n(err, buf, n);
  else snprintf(buf, n, "unknown error");
  ERR_clear_error();
  return buf;
}

/* An encrypted key must fail, never ask at the terminal. */
static int no_passphrase (char *buf, int size, int rw, void *ctx) {
  (void)buf, (void)size, (void)rw, (void)ctx;
  return 0;
}

/* rediss://: the context of every connection; a file that cannot be
** loaded is the URL's fault (IDS_EINVAL), named. */
static int tls_context (const ids_slot_url *u, SSL_CTX **out, ids_error *e) {
  const char *key = u->key[0] ? u->key : u->cert, *bad = NULL, *file = "";
  char why[120];
  SSL_CTX *x = SSL_CTX_new(TLS_client_method());
  if (x == NULL)
    return ids_fail(e, IDS_ENOMEM, "slot store \"%.*s\": cannot make a TLS "
                    "context: %s", ids__slot_shown(u), u->text,
                    ssl_why(why, sizeof why));
  SSL_CTX_set_min_proto_version(x, TLS1_2_VERSION);
  SSL_CTX_set_verify(x, SSL_VERIFY_PEER, NULL);
  SSL_CTX_set_default_passwd_cb(x, no_passphrase);
  if (u->ca[0] ? !SSL_CTX_load_verify_locations(x, u->ca, NULL)
               : !SSL_CTX_set_default_verify_paths(x))
    bad = "CA file", file = u->ca[0] ? u->ca : "(the system's)";
  else if (u->cert[0] && !SSL_CTX_use_certificate_chain_file(x, u->cert))
    bad = "client certificate", file = u->cert;
  else if (u->cert[0] && (!SSL_CTX_use_PrivateKey_file(x, key,
                                                        SSL_FILETYPE_PEM) ||
                           !SSL_CTX_check_private_key(x)))
    bad = "private key", file = key;       /* "key values mismatch" */
  if (bad) {
    ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": cannot load the %s %s: %s",
             ids__slot_shown(u), u->text, bad, file, ssl_why(why, sizeof why));
    SSL_CTX_free(x);
    return IDS_EINVAL;
  }
  *out = x;
  return IDS_OK;
}

static int ropen (const ids_slot_url *u, void **h, ids_error *e) {
  rstore *r = calloc(1, sizeof *r);
  const char *user = getenv("IDSCHEME_REDIS_USER");
  const char *pw = getenv("IDSCHEME_REDIS_PASSWORD");
  if (r == NULL) return ids_fail(e, IDS_ENOMEM, "out of memory");
  if (u->password[0]) user = u->user, pw = u->password;
  else if (u->user[0]) user = u->user;
  if ((user && strlen(user) >= sizeof r->user) ||
      (pw && strlen(pw) >= sizeof r->password)) {
    free(r);
    return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": the user or "
                    "password from the environment is too long", ids__slot_shown(u),
                    u->text);
  }
  if (pw) {
    snprintf(r->user, sizeof r->user, "%s", user ? user : "");
    snprintf(r->password, sizeof r->password, "%s", pw);
  }
  if (u->tls) {
    int rc = tls_context(u, &r->tls, e);
    if (rc != IDS_OK) {
      free(r);
      return rc;
    }
  }
  r->u = u;
  *h = r;
  return IDS_OK;
}

/* The connection goes, its TLS first (SSL_free sends nothing). */
static void hang_up (rstore *r) {
  if (r->ssl) SSL_free(r->ssl);
  r->ssl = NULL;
  if (r->c) redisFree(r->c);
  r->c = NULL;
}

static int failed (rstore *r, const char *what, int64_t timeout_ms,
                   ids_error *e) {
  const char *why = r->c ? r->c->errstr : "cannot allocate a context";
  /* hiredis 0.14 reports a timeout as EAGAIN's text */
  if (strstr(why, "temporarily unavailable") || strstr(why, "timed out"))
    ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": %s timed out after "
             "%lld ms", ids__slot_shown(r->u), r->u->text, what,
             (long long)timeout_ms);
  else
    ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": %s failed: %.60s",
             ids__slot_shown(r->u), r->u->text, what, why);
  hang_up(r);
  return IDS_ELEASE;
}

static int64_t mono_ms (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A failure found here, not by hiredis: the message names the store, and
** the connection, whose state is unknown now, is dropped. */
static int drop (rstore *r, ids_error *e, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
static int drop (rstore *r, ids_error *e, const char *fmt, ...) {
  char why[IDS_ERRMAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  hang_up(r);
  return ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": %s", ids__slot_shown(r->u),
                  r->u->text, why);
}

/* Waits until fd is ready for `events` or the deadline passes. */
static int ready (int fd, short events, int64_t deadline) {
  for (;;) {
    struct pollfd p = {fd, events, 0};
    int64_t left = deadline - mono_ms();
    int n;
    if (left <= 0) return 0;
    n = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
    if (n > 0) return 1;
    if (n < 0 && errno != EINTR) return 0;
  }
}

static int connect_ (rstore *r, int64_t timeout_ms, ids_error *e) {
  struct timeval tv;
  if (r->c) return IDS_OK;
  r->runid[0] = '\0';                  /* perhaps another server now */
  tv.tv_sec = (time_t)(timeout_ms / 1000);
  tv.tv_usec = (suseconds_t)(timeout_ms % 1000 * 1000);
  r->c = redisConnectWithTimeout(r->u->host, r->u->port, tv);
  if (r->c == NULL || r->c->err)
    return failed(r, "connect (unreachable?)", timeout_ms, e);
  if (redisSetTimeout(r->c, tv) != REDIS_OK)
    return failed(r, "setting the timeout", timeout_ms, e);
  return IDS_OK;
}

/* hiredis writes with write(2): to a connection the server closed, that
** raises SIGPIPE in the calling thread (the application's, for a claim or
** the release at exit), which kills a process that kept the default
** action.  Block it around a request and swallow one it left pending. */
static int pipe_block (sigset_t *old) {
  sigset_t p, pend;
  sigemptyset(&p);
  sigaddset(&p, SIGPIPE);
  sigpending(&pend);
  pthread_sigmask(SIG_BLOCK, &p, old);
  return sigismember(&pend, SIGPIPE);   /* pending before: not ours */
}

static void pipe_restore (const sigset_t *old, int had) {
  sigset_t p, pend;
  struct timespec zero = {0, 0};
  sigemptyset(&p);
  sigaddset(&p, SIGPIPE);
  sigpending(&pend);
  if (!had && sigismember(&pend, SIGPIPE)) sigtimedwait(&p, NULL, &zero);
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

enum { TLS_SHAKE, TLS_WRITE, TLS_READ };

/* One SSL_connect, SSL_write or SSL_read by the deadline, waiting on the
** socket the way OpenSSL asks (a read may have to write, and the other
** way round): bytes moved (> 0), or -1 with e filled and the connection
** dropped.  Trying before waiting covers what OpenSSL holds already
** (SSL_pending): it waits only when OpenSSL says it must. */
static int tls_io (rstore *r, int op, void *buf, int n, int64_t deadline,
                   int64_t timeout_ms, ids_error *e) {
  static const char *const what[] = {"TLS handshake", "request", "reply"};
  static const char *const failing[] = {"TLS handshake failed",
                                        "request failed", "reading the reply"};
  char why[120];
  for (;;) {
    int k, err;
    long v;
    ERR_clear_error();
    errno = 0;
    k = op == TLS_SHAKE ? SSL_connect(r->ssl)
      : op == TLS_WRITE ? SSL_write(r->ssl, buf, n) : SSL_read(r->ssl, buf, n);
    if (k > 0) return k;
    err = SSL_get_error(r->ssl, k);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
      if (ready(r->c->fd, err == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT,
                deadline))
        continue;
      drop(r, e, "%s timed out after %lld ms", what[op],
           (long long)timeout_ms);
      return -1;
    }
    /* A server that refuses our certificate does so after the handshake
    ** (TLS 1.3), with an alert, and hangs up: a write may meet the reset
    ** while that alert waits to be read.  Read it: it says why. */
    if (op == TLS_WRITE && err == SSL_ERROR_SYSCALL) {
      char alert[256];
      int sys = errno;
      k = SSL_read(r->ssl, alert, (int)sizeof alert);
      if (k > 0 || SSL_get_error(r->ssl, k) != SSL_ERROR_SSL) {
        ERR_clear_error();
        errno = sys;
      } else err = SSL_ERROR_SSL;
    }
    if (err == SSL_ERROR_ZERO_RETURN ||
        (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 && errno == 0))
      snprintf(why, sizeof why, "the server closed the connection");
    else if (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)
      snprintf(why, sizeof why, "%s", strerror(errno));
    else
      ssl_why(why, sizeof why);
    /* the server's certificate failed our check: say which */
    if (op == TLS_SHAKE && (v = SSL_get_verify_result(r->ssl)) != X509_V_OK)
      drop(r, e, "%s: %s (%s)", failing[op], why,
           X509_verify_cert_error_string(v));
    else
      drop(r, e, "%s: %s", failing[op], why);
    return -1;
  }
}

/* rediss://: TLS on a new connection, within the request's deadline. */
static int handshake (rstore *r, int64_t deadline, int64_t timeout_ms,
                      ids_error *e) {
  char why[120];
  int fl = fcntl(r->c->fd, F_GETFL);
  /* non-blocking: a record that came in halfway must not hold a read
  ** past the deadline (hiredis left the socket blocking, with timeouts) */
  if (fl < 0 || fcntl(r->c->fd, F_SETFL, fl | O_NONBLOCK) < 0)
    return drop(r, e, "TLS setup failed: %s", strerror(errno));
  ERR_clear_error();
  if ((r->ssl = SSL_new(r->tls)) == NULL || !SSL_set_fd(r->ssl, r->c->fd))
    return drop(r, e, "TLS setup failed: %s", ssl_why(why, sizeof why));
  /* the certificate must name the host: an IP address as such, a DNS name
  ** also sent as SNI (which takes no address) */
  if (!X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(r->ssl), r->u->host) &&
      (!SSL_set_tlsext_host_name(r->ssl, r->u->host) ||
       !SSL_set1_host(r->ssl, r->u->host)))
    return drop(r, e, "TLS setup failed: %s", ssl_why(why, sizeof why));
  return tls_io(r, TLS_SHAKE, NULL, 0, deadline, timeout_ms, e) > 0
         ? IDS_OK : IDS_ELEASE;
}

/* Sends the command and reads its reply by the deadline, at most
** MAXREPLY bytes; 0, or IDS_ELEASE with e filled. */
static int exchange (rstore *r, int64_t deadline, int64_t timeout_ms,
                     redisReply **out, ids_error *e) {
  char buf[4096];
  size_t got = 0;
  int done = 0;
  void *rep = NULL;
  if (r->ssl) {
    /* SSL_write sends all of it or nothing (no partial-write mode), and
    ** is retried with the same buffer */
    if (tls_io(r, TLS_WRITE, r->c->obuf, (int)sdslen(r->c->obuf), deadline,
               timeout_ms, e) < 0)
      return IDS_ELEASE;
    sdsclear(r->c->obuf);
    done = 1;
  }
  while (!done) {
    if (!ready(r->c->fd, POLLOUT, deadline))
      return drop(r, e, "request timed out after %lld ms",
                  (long long)timeout_ms);
    if (redisBufferWrite(r->c, &done) != REDIS_OK)
      return failed(r, "request", timeout_ms, e);
  }
  for (;;) {
    ssize_t n;
    if (redisGetReplyFromReader(r->c, &rep) != REDIS_OK)
      return failed(r, "reading the reply", timeout_ms, e);
    if (rep != NULL) break;
    if (r->ssl) {
      if ((n = tls_io(r, TLS_READ, buf, (int)sizeof buf, deadline,
                      timeout_ms, e)) < 0)
        return IDS_ELEASE;
    } else {
      if (!ready(r->c->fd, POLLIN, deadline))
        return drop(r, e, "reply timed out after %lld ms",
                    (long long)timeout_ms);
      n = read(r->c->fd, buf, sizeof buf);
      if (n == 0) return drop(r, e, "the server closed the connection");
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        return drop(r, e, "reading the reply: %s", strerror(errno));
      }
    }
    if ((got += (size_t)n) > MAXREPLY)
      return drop(r, e, "reply longer than %d bytes: refused", MAXREPLY);
    if (redisReaderFeed(r->c->reader, buf, (size_t)n) != REDIS_OK)
      return failed(r, "reading the reply", timeout_ms, e);
  }
  *out = rep;
  return IDS_OK;
}

/* AUTH [user] password on a new connection, within the request's
** deadline; the server's refusal is named (never the password). */
static int auth (rstore *r, int64_t deadline, int64_t timeout_ms,
                 ids_error *e) {
  redisReply *rep = NULL;
  int rc = r->user[0]
    ? redisAppendCommand(r->c, "AUTH %s %s", r->user, r->password)
    : redisAppendCommand(r->c, "AUTH %s", r->password);
  if (rc != REDIS_OK) return failed(r, "AUTH", timeout_ms, e);
  if ((rc = exchange(r, deadline, timeout_ms, &rep, e)) != IDS_OK) return rc;
  if (rep->type == REDIS_REPLY_STATUS) {
    freeReplyObject(rep);
    return IDS_OK;
  }
  rc = drop(r, e, "AUTH%s%s refused: %.80s", r->user[0] ? " as " : "",
            r->user, rep->type == REDIS_REPLY_ERROR ? rep->str : "?");
  freeReplyObject(rep);
  return rc;
}

/* Runs a command, its connect included, within timeout_ms; a reply, or
** NULL with e filled. */
static redisReply *call (rstore *r, const ids_slot_req *q, ids_error *e,
                         const char *fmt, ...) {
  redisReply *rep = NULL;
  int64_t deadline = mono_ms() + q->timeout_ms;
  va_list ap;
  sigset_t old;
  int had, rc, fresh = r->c == NULL;
  if (connect_(r, q->timeout_ms, e) != IDS_OK) return NULL;
  had = pipe_block(&old);
  rc = fresh && r->tls ? handshake(r, deadline, q->timeout_ms, e) : IDS_OK;
  if (rc == IDS_OK && fresh && r->password[0])
    rc = auth(r, deadline, q->timeout_ms, e);
  if (rc == IDS_OK) {
    va_start(ap, fmt);
    rc = redisvAppendCommand(r->c, fmt, ap) == REDIS_OK ? IDS_OK :
         failed(r, "formatting the request", q->timeout_ms, e);
    va_end(ap);
  }
  if (rc == IDS_OK) rc = exchange(r, deadline, q->timeout_ms, &rep, e);
  pipe_restore(&old, had);
  if (rc != IDS_OK) return NULL;
  if (rep->type == REDIS_REPLY_ERROR) {
    ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": server error: %.60s",
             ids__slot_shown(r->u), r->u->text, rep->str);
    freeReplyObject(rep);
    return NULL;
  }
  return rep;
}

static int rbase (rstore *r, const ids_slot_req *q, ids_error *e) {
  if (ids__slot_key(r->base, sizeof r->base, r->u->path, q->ns, "", -1)
      != IDS_OK)
    return ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": key too long",
                    ids__slot_shown(r->u), r->u->text);
  r->base[strlen(r->base) - 1] = '\0';   /* "prefix/ns" */
  return IDS_OK;
}

static int bad_reply (rstore *r, redisReply *rep, ids_error *e) {
  freeReplyObject(rep);
  return ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": unexpected reply",
                  ids__slot_shown(r->u), r->u->text);
}

/* The run_id of the server this connection reaches (a new one at every
** server start), once per connection; with it the server's
** maxmemory-policy, where the ACL lets us read it (allkeys-* may evict a
** namespace's records: claims stay safe, but may wait a TTL). */
static int server_id (rstore *r, const ids_slot_req *q, ids_error *e) {
  redisReply *rep;
  const char *p;
  size_t n;
  if (r->c && r->runid[0]) return IDS_OK;
  if ((rep = call(r, q, e, "INFO server")) == NULL) return IDS_ELEASE;
  if (rep->type != REDIS_REPLY_STRING || rep->str == NULL ||
      (p = strstr(rep->str, "run_id:")) == NULL ||
      (n = strspn(p + 7, "0123456789abcdef")) < 8 || n >= sizeof r->runid)
    return bad_reply(r, rep, e);
  memcpy(r->runid, p + 7, n);
  r->runid[n] = '\0';
  freeReplyObject(rep);
  if ((rep = call(r, q, e, "CONFIG GET maxmemory-policy")) == NULL)
    return IDS_ELEASE;
  if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 2 &&
      rep->element[1]->type == REDIS_REPLY_STRING)
    snprintf(r->policy, sizeof r->policy, "%.40s", rep->element[1]->str);
  else if (rep->type == REDIS_REPLY_ERROR)
    snprintf(r->policy, sizeof r->policy, "unknown (CONFIG GET: %.50s)",
             rep->str);
  else snprintf(r->policy, sizeof r->policy, "unknown");
  freeReplyObject(rep);
  return IDS_OK;
}

/* Is the reply element a string? */
static int str (const redisReply *x) {
  return x->type == REDIS_REPLY_STRING;
}

static int racquire (void *h, const ids_slot_req *q, uint32_t *slot,
                     int64_t *floor, ids_error *e) {
  rstore *r = h;
  redisReply *rep;
  char n[24], ttl[24], now[21], val[64], runid[sizeof r->runid], maxf[21];
  char mask[16], fix[16];
  long long k;
  int64_t last, t0;
  if (rbase(r, q, e) != IDS_OK) return IDS_EINVAL;
  if (server_id(r, q, e) != IDS_OK) return IDS_ELEASE;
  strcpy(runid, r->runid);
  snprintf(n, sizeof n, "%lu", 1ul << q->bits);
  /* until the first renewal (right after): a claim that ran on the server
  ** after we gave up on it holds the slot this long, not a ttl */
  snprintf(ttl, sizeof ttl, "%lld", (long long)(2 * q->timeout_ms < q->ttl_ms
                                   ? 2 * q->timeout_ms : q->ttl_ms));
  ids__slot_fmt_ns(now, q->now_ns);
  ids__slot_fmt_ns(maxf, q->max_floor_ns);
  snprintf(val, sizeof val, "%s 0", q->token);
  snprintf(mask, sizeof mask, "%u", (unsigned)q->fixmask);
  snprintf(fix, sizeof fix, "%u", (unsigned)q->fixval);
  rep = call(r, q, e, "EVAL %s 0 %s %s %s %s %s %s %s %s %s %s", claim_lua,
             r->base, n, val, ttl, now, runid, mask, fix, maxf, q->meaning);
  if (rep == NULL) return IDS_ELEASE;
  if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 5
      || rep->element[0]->type != REDIS_REPLY_INTEGER || !str(rep->element[1])
      || !str(rep->element[2]) || !str(rep->element[3])
      || rep->element[4]->type != REDIS_REPLY_INTEGER)
    return bad_reply(r, rep, e);
  k = rep->element[0]->integer;
  if (k == -2) {
    ids_fail(e, IDS_EINVAL, "slot store \"%.*s\": namespace '%s' holds "
             "slots of another meaning (\"%.40s\", not \"%s\"): give this "
             "one a slot_namespace of its own", ids__slot_shown(r->u),
             r->u->text, q->ns, rep->element[1]->str, q->meaning);
    freeReplyObject(rep);
    return IDS_EINVAL;
  }
  if (rep->element[3]->len) ids__slot_skipped(q, rep->element[3]->str,
                                                IDS_SLOT_CORRUPT);
  else if (q->note && strncmp(r->policy, "allkeys-", 8) == 0)
    snprintf(q->note, q->notelen, "maxmemory-policy %s may evict this "
             "namespace's records: claims stay safe but may wait a TTL; use "
             "noeviction, or a database of its own", r->policy);
  else if (q->note && strncmp(r->policy, "unknown", 7) == 0)
    snprintf(q->note, q->notelen, "maxmemory-policy %s: unchecked", r->policy);
  last = rep->element[1]->len == 0 ? 0
       : ids__slot_parse_ns(rep->element[1]->str, rep->element[1]->len);
  t0 = ids__slot_parse_ns(rep->element[2]->str, rep->element[2]->len);
  if (last < 0 || t0 < 0 || k >= (1ll << q->bits)) return bad_reply(r, rep, e);
  if (k < 0) {
    char why[64] = "";
    if (rep->element[3]->len)
      snprintf(why, sizeof why, " or has a corrupt record");
    freeReplyObject(rep);
    return ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": every slot of "
                    "namespace '%s' (%lu) is taken%s", ids__slot_shown(r->u),
                    r->u->text, q->ns, ids__slot_candidates(q), why);
  }
  /* A slot below the history's HW whose last/k is gone (deleted,
  ** evicted, never replicated) was held, by a holder that may still issue
  ** up to its limit, at most ttl from now: a missing record is never read
  ** as "never used" unless the history says so (then t0 + ttl, below). */
  if (rep->element[1]->len == 0 && rep->element[4]->integer == 0)
    last = q->now_ns + q->ttl_ms * 1000000;
  freeReplyObject(rep);
  *slot = (uint32_t)k;
  /* A holder from before the history began at t0 (the store restarted
  ** empty, or from older data whose last/N is stale) may hold on till
  ** t0 + ttl.  A connection made again during the claim may have reached
  ** a server other than the one whose run_id the script compared. */
  if (strcmp(runid, r->runid) != 0) t0 = q->now_ns;
  *floor = t0 + q->ttl_ms * 1000000;
  if (last > *floor) *floor = last;
  return IDS_OK;
}

static int rrenew (void *h, const ids_slot_req *q, uint32_t slot,
                   int64_t limit, int *lost, ids_error *e) {
  rstore *r = h;
  redisReply *rep;
  char key[sizeof r->base + 16], lkey[sizeof key], val[64], ttl[24], lim[21];
  char now[21], maxf[21], num[16], runid[sizeof r->runid];
  long long ok;
  *lost = 0;
  if (rbase(r, q, e) != IDS_OK) return IDS_EINVAL;
  if (server_id(r, q, e) != IDS_OK) return IDS_ELEASE;
  strcpy(runid, r->runid);
  snprintf(key, sizeof key, "%s/slot/%05u", r->base, (unsigned)slot);
  snprintf(lkey, sizeof lkey, "%s/last/%05u", r->base, (unsigned)slot);
  ids__slot_fmt_ns(lim, limit);
  ids__slot_fmt_ns(now, q->now_ns);
  ids__slot_fmt_ns(maxf, q->max_floor_ns);
  snprintf(num, sizeof num, "%u", (unsigned)slot);
  snprintf(val, sizeof val, "%s %s", q->token, lim);
  snprintf(ttl, sizeof ttl, "%lld", (long long)q->ttl_ms);
  rep = call(r, q, e, "EVAL %s 2 %s %s %s %s %s %s %s %s %s %s %s", renew_lua,
             key, lkey, q->token, val, ttl, lim, r->base, now, runid, maxf,
             num);
  if (rep == NULL) return IDS_ELEASE;
  if (rep->type != REDIS_REPLY_INTEGER) return bad_reply(r, rep, e);
  ok = rep->integer;
  freeReplyObject(rep);
  if (!ok) {
    *lost = 1;
    return ids_fail(e, IDS_ELEASE, "slot store \"%.*s\": slot %u is no "
                    "longer ours (expired or taken)", ids__slot_shown(r->u), r->u->text,
                    (unsigned)slot);
  }
  return IDS_OK;
}

static void rrelease (void *h, const ids_slot_req *q, uint32_t slot) {
  rstore *r = h;
  redisReply *rep;
  ids_error e;
  char key[sizeof r->base + 16], lkey[sizeof key], settle[21] = "";
  if (rbase(r, q, &e) != IDS_OK) return;
  snprintf(key, sizeof key, "%s/slot/%05u", r->base, (unsigned)slot);
  snprintf(lkey, sizeof lkey, "%s/last/%05u", r->base, (unsigned)slot);
  if (q->settle_ns >= 0) ids__slot_fmt_ns(settle, q->settle_ns);
  rep = call(r, q, &e, "EVAL %s 2 %s %s %s %s", release_lua, key, lkey,
             q->token, settle);
  if (rep) freeReplyObject(rep);
}

/* Also in a forked child (no forget: nothing here does store traffic). */
static void rclose (void *h) {
  rstore *r = h;
  hang_up(r);
  if (r->tls) SSL_CTX_free(r->tls);
  free(r);
}

const ids_slot_backend ids__slot_redis = {
  "redis", ropen, racquire, rrenew, rrelease, NULL, rclose
};
