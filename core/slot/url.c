/*
** url.c: slot store URLs, parsed strictly.
**   local            the default directory ($IDSCHEME_SLOT_DIR, else
**                    /tmp/idscheme-slots), chosen when the lease opens
**   local:/dir       an absolute directory
**   redis://[[user]:password@]host[:port][/prefix]   (6379)
**   etcd://[user:password@]host[:port][/prefix]     (2379)
**   rediss://... and etcds://...   the same over TLS, which may end in
**                    ?ca=/file&cert=/file&key=/file (each optional, once:
**                    the CA to trust instead of the system's, a client
**                    certificate and its key; key defaults to the cert
**                    file).  Paths are absolute, without '&' or control
**                    characters.
** Host: a name or IPv4 address (letters, digits, '.', '-'), or [IPv6].
** Prefix: segments of letters, digits, '.', '_', '-' joined by '/'; none
** gives "idscheme".  User and password (redis): URL characters, %XX for
** any other byte; the password never appears in u->text or a message
** (it reads "***").  Nothing else (another query key, a fragment) is
** allowed: a typo must fail here, not become a key name or plain text.
*/
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "slot_internal.h"

static int bad (ids_error *e, const char *url, const char *why) {
  return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": %s", url, why);
}

static int hostchar (int c) {
  return isalnum((unsigned char)c) || c == '.' || c == '-';
}

static int prefixchar (int c) {
  return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

static int userchar (int c) {
  return isalnum((unsigned char)c) || strchr("-._~!$&'()*+,;=%", c) != NULL;
}

/* user info's text from p to end into out (n bytes), %XX decoded */
static int decode (const char *p, const char *end, char *out, size_t n) {
  size_t k = 0;
  for (; p < end; p++) {
    int c = (unsigned char)*p;
    if (!userchar(c)) return -1;
    if (c == '%') {
      unsigned v;
      if (end - p < 3 || !isxdigit((unsigned char)p[1]) ||
          !isxdigit((unsigned char)p[2]) || sscanf(p + 1, "%2x", &v) != 1 ||
          v == 0)
        return -1;
      c = (int)v;
      p += 2;
    }
    if (k + 1 >= n) return -1;
    out[k++] = (char)c;
  }
  out[k] = '\0';
  return 0;
}

/* [user[:password]@]host[:port][/prefix] after "scheme://" */
static int parse_net (const char *url, const char *p, int dport,
                      ids_slot_url *u, ids_error *e) {
  const char *h, *he, *at = NULL, *q;
  size_t n;
  for (q = p; *q && *q != '/' && *q != '?'; q++)
    if (*q == '@') at = q;
  if (at) {                            /* user info */
    const char *colon = memchr(p, ':', (size_t)(at - p));
    if (decode(p, colon ? colon : at, u->user, sizeof u->user) != 0)
      return bad(e, url, "bad user name before '@'");
    if (colon && decode(colon + 1, at, u->password, sizeof u->password))
      return bad(e, url, "bad password before '@' (URL characters, %XX "
                         "for others, at most 255 bytes)");
    if (u->password[0] == '\0' && u->user[0] == '\0')
      return bad(e, url, "empty user information before '@'");
    p = at + 1;
  }
  h = p;
  if (*p == '[') {                     /* [IPv6] */
    h = ++p;
    while (isxdigit((unsigned char)*p) || *p == ':' || *p == '.') p++;
    if (*p != ']') return bad(e, url, "bad IPv6 address in brackets");
    he = p++;
  } else {
    while (hostchar(*p)) p++;
    he = p;
  }
  n = (size_t)(he - h);
  if (n == 0) return bad(e, url, "no host");
  if (n >= sizeof u->host) return bad(e, url, "host too long");
  memcpy(u->host, h, n);
  u->host[n] = '\0';
  u->port = dport;
  if (*p == ':') {
    long port = 0;
    p++;
    if (!isdigit((unsigned char)*p)) return bad(e, url, "bad port");
    while (isdigit((unsigned char)*p) && port <= 65535)
      port = port * 10 + (*p++ - '0');
    if (port < 1 || port > 65535 || isdigit((unsigned char)*p))
      return bad(e, url, "port out of range (1..65535)");
    u->port = (int)port;
  }
  if (*p == '\0' || (p[0] == '/' && p[1] == '\0')) {
    strcpy(u->path, "idscheme");
    return IDS_OK;
  }
  if (*p != '/') return bad(e, url, "unexpected character after the host");
  p++;
  /* segments: non-empty, of prefix characters, joined by single '/' */
  {
    const char *s = p;
    for (;;) {
      const char *seg = p;
      while (prefixchar(*p)) p++;
      if (p == seg) return bad(e, url, "empty or bad prefix segment");
      if (*p == '\0') break;
      if (*p != '/') return bad(e, url, "bad character in the prefix");
      p++;
    }
    if ((size_t)(p - s) >= sizeof u->path - 64)  /* room for key suffixes */
      return bad(e, url, "prefix too long");
    memcpy(u->path, s, (size_t)(p - s) + 1);
  }
  return IDS_OK;
}

/* "local" or "local:/dir" (read first: a directory may hold "://"). */
static int is_local (const char *url) {
  return strcmp(url, "local") == 0 || strncmp(url, "local:", 6) == 0;
}

/* The URL as messages show it: a password replaced by "***".  Whatever
** the password holds: a '/', '?' or '#' in it (base64-made passwords hold
** them; a URL should hold them as %XX, but the message about that must
** not show them) does not end the user info early.  It ends at the last
** '@' before a TLS query ("?ca=", "?cert=", "?key=", whose file names may
** hold an '@'), else at the last '@' of all: that may hide more than the
** password, never less. */
static void redact (const char *url, char *out, size_t n) {
  static const char *const keys[] = {"?ca=", "?cert=", "?key="};
  const char *a = strchr(url, ':'), *at = NULL, *q, *end, *colon;
  snprintf(out, n, "%s", url);
  if (is_local(url) || a == NULL || strncmp(a, "://", 3) != 0) return;
  end = a + strlen(a);
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
    if ((q = strstr(a + 3, keys[k])) != NULL && q < end) end = q;
  for (q = a + 3; q < end; q++)
    if (*q == '@') at = q;
  if (at == NULL) at = strrchr(a + 3, '@');
  if (at == NULL ||
      (colon = memchr(a + 3, ':', (size_t)(at - a - 3))) == NULL ||
      colon + 1 == at)                 /* "user:@": no password */
    return;
  snprintf(out, n, "%.*s***%s", (int)(colon + 1 - url), url, at);
}

/* The URL schemes this file knows: the backend each names, its port. */
static const struct scheme {
  const char *name, *backend;
  int port, tls;
} schemes[] = {
  {"redis", "redis", 6379, 0}, {"rediss", "redis", 6379, 1},
  {"etcd", "etcd", 2379, 0},   {"etcds", "etcd", 2379, 1},
};

/* "ca=/f&cert=/f&key=/f" (a TLS URL's query) into u */
static int parse_query (const char *shown, const char *q, ids_slot_url *u,
                        ids_error *e) {
  static const char *const names[] = {"ca", "cert", "key"};
  char *const dest[] = {u->ca, u->cert, u->key};
  while (*q) {
    const char *eq = strchr(q, '='), *end = strchr(q, '&');
    size_t k, kl, vl;
    if (end == NULL) end = q + strlen(q);
    if (eq == NULL || eq > end)
      return bad(e, shown, "query: expected key=/path");
    kl = (size_t)(eq - q);
    for (k = 0; k < 3; k++)
      if (strlen(names[k]) == kl && memcmp(q, names[k], kl) == 0) break;
    if (k == 3)
      return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": unknown query "
                      "key '%.*s' (ca, cert, key)", shown, (int)kl, q);
    if (dest[k][0])
      return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": query key "
                      "'%s' given twice", shown, names[k]);
    vl = (size_t)(end - eq - 1);
    if (vl == 0 || eq[1] != '/')
      return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": %s= needs an "
                      "absolute path", shown, names[k]);
    for (q = eq + 1; q < end; q++)
      if (iscntrl((unsigned char)*q))
        return bad(e, shown, "control character in a query path");
    memcpy(dest[k], eq + 1, vl);       /* fits: shorter than the URL */
    dest[k][vl] = '\0';
    q = *end ? end + 1 : end;
    if (*end && *q == '\0') return bad(e, shown, "query ends in '&'");
  }
  if (u->key[0] && !u->cert[0])
    return bad(e, shown, "key= without cert=");
  return IDS_OK;
}

/* url parsed into u; messages quote `shown` (the URL redacted). */
static int parse (const char *url, const char *shown, ids_slot_url *u,
                  ids_error *e) {
  char net[IDS_SLOT_URLMAX];
  const char *sep, *query;
  const struct scheme *k = NULL;
  size_t sl, i;
  if (is_local(url)) {
    const char *d = url + 5;
    strcpy(u->scheme, "local");
    if (*d++ == '\0') return IDS_OK;  /* "local": the default directory */
    if (d[0] != '/') return bad(e, shown, "local directory must be absolute");
    for (; *d; d++)
      if (iscntrl((unsigned char)*d))
        return bad(e, shown, "control character in the directory");
    strcpy(u->path, url + 6);   /* fits: shorter than url */
    return IDS_OK;
  }
  if ((sep = strstr(url, "://")) == NULL)
    return bad(e, shown, "expected local, local:/dir, redis[s]://host:port/"
                         "prefix or etcd[s]://host:port/prefix");
  sl = (size_t)(sep - url);
  for (i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
    if (strlen(schemes[i].name) == sl && memcmp(url, schemes[i].name, sl) == 0)
      k = &schemes[i];
  if (k == NULL) {
    /* another registered backend may still take host:port/prefix */
    if (sl == 0 || sl >= sizeof u->scheme)
      return bad(e, shown, "bad store name before ://");
    for (i = 0; i < sl; i++)
      if (!islower((unsigned char)url[i]) && !isdigit((unsigned char)url[i]))
        return bad(e, shown, "bad store name before ://");
    memcpy(u->scheme, url, sl);
    u->scheme[sl] = '\0';
  } else {
    strcpy(u->scheme, k->backend);
    u->tls = k->tls;
  }
  /* the authority and prefix, without the query ('?' is not a password
  ** or prefix character: a password holds it as %3F) */
  query = strchr(sep + 3, '?');
  snprintf(net, sizeof net, "%.*s",
           (int)(query ? query - (sep + 3) : (ptrdiff_t)strlen(sep + 3)),
           sep + 3);
  if (parse_net(shown, net, k ? k->port : 0, u, e) != IDS_OK)
    return IDS_EINVAL;
  if (u->port == 0) return bad(e, shown, "no port");
  if ((u->user[0] || u->password[0]) && k == NULL)
    return bad(e, shown, "only a redis or etcd URL takes a user and "
                         "password");
  if (query == NULL) return IDS_OK;
  if (!u->tls)
    return bad(e, shown, "a query (?ca=, ?cert=, ?key=) needs a TLS URL "
                         "(rediss:// or etcds://)");
  return parse_query(shown, query + 1, u, e);
}

int ids_slot_parse_url (const char *url, ids_slot_url *u, ids_error *e) {
  char shown[2 * IDS_SLOT_URLMAX];
  size_t n;
  int rc;
  memset(u, 0, sizeof *u);
  if (url == NULL) return ids_fail(e, IDS_EINVAL, "slot store: no URL");
  redact(url, shown, sizeof shown);
  n = strlen(url);
  if (n == 0) return bad(e, shown, "empty URL");
  if (n >= sizeof u->text || strlen(shown) >= sizeof u->text)
    return bad(e, shown, "URL too long");
  memcpy(u->text, shown, strlen(shown) + 1);
  rc = parse(url, shown, u, e);
  if (rc != IDS_OK) memset(u->password, 0, sizeof u->password);
  else if (!u->password[0])     /* nothing to hide: an '@' and a ':' in a
                                   TLS file's path are no password */
    memcpy(u->text, url, n + 1);
  return rc;
}
