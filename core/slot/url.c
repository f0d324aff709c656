/*
** url.c: slot store URLs, parsed strictly.
**   local            the default directory ($IDSCHEME_SLOT_DIR, else
**                    /tmp/idscheme-slots), chosen when the lease opens
**   local:/dir       an absolute directory
**   redis://host[:port][/prefix]   (6379)
**   etcd://host[:port][/prefix]    (2379)
** Host: a name or IPv4 address (letters, digits, '.', '-'), or [IPv6].
** Prefix: segments of letters, digits, '.', '_', '-' joined by '/'; none
** gives "idscheme".  Nothing else (user info, query, fragment) is allowed:
** a typo must fail here, not become a key name.
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "slots.h"

static int bad (ids_error *e, const char *url, const char *why) {
  return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": %s", url, why);
}

static int hostchar (int c) {
  return isalnum((unsigned char)c) || c == '.' || c == '-';
}

static int prefixchar (int c) {
  return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

/* host[:port][/prefix] after "scheme://" */
static int parse_net (const char *url, const char *p, int dport,
                      ids_slot_url *u, ids_error *e) {
  const char *h = p, *he;
  size_t n;
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

int ids_slot_parse_url (const char *url, ids_slot_url *u, ids_error *e) {
  size_t n;
  memset(u, 0, sizeof *u);
  if (url == NULL) return ids_fail(e, IDS_EINVAL, "slot store: no URL");
  n = strlen(url);
  if (n == 0) return bad(e, url, "empty URL");
  if (n >= sizeof u->text) return bad(e, url, "URL too long");
  memcpy(u->text, url, n + 1);
  if (strcmp(url, "local") == 0) {
    strcpy(u->scheme, "local");
    return IDS_OK;
  }
  if (strncmp(url, "local:", 6) == 0) {
    const char *d = url + 6;
    strcpy(u->scheme, "local");
    if (d[0] != '/') return bad(e, url, "local directory must be absolute");
    for (; *d; d++)
      if (iscntrl((unsigned char)*d))
        return bad(e, url, "control character in the directory");
    strcpy(u->path, url + 6);   /* fits: shorter than url */
    return IDS_OK;
  }
  {
    const char *sep = strstr(url, "://");
    size_t sl;
    int dport;
    if (sep == NULL)
      return bad(e, url, "expected local, local:/dir, redis://host:port/"
                         "prefix or etcd://host:port/prefix");
    sl = (size_t)(sep - url);
    if (sl == 5 && memcmp(url, "redis", 5) == 0) dport = 6379;
    else if (sl == 4 && memcmp(url, "etcd", 4) == 0) dport = 2379;
    else {
      /* another registered backend may still take host:port/prefix */
      size_t i;
      if (sl == 0 || sl >= sizeof u->scheme)
        return bad(e, url, "bad store name before ://");
      for (i = 0; i < sl; i++)
        if (!islower((unsigned char)url[i]) && !isdigit((unsigned char)url[i]))
          return bad(e, url, "bad store name before ://");
      dport = 0;
    }
    memcpy(u->scheme, url, sl);
    u->scheme[sl] = '\0';
    if (parse_net(url, sep + 3, dport, u, e) != IDS_OK) return IDS_EINVAL;
    if (u->port == 0) return bad(e, url, "no port");
    return IDS_OK;
  }
}
