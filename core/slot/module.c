/*
** module.c: opens the stores' module (stores.c) for the first claim of a
** redis or etcd URL.  A process that claims no such slot never loads
** hiredis, OpenSSL, libcurl or cJSON and the 26 libraries they pull in:
** ldd lists 6 objects for the command instead of 38.  The module stays
** loaded for the life of the process: leases, and curl's global state,
** point into it.
**
** One path is tried:
**   $IDSCHEME_STORES_MODULE, if set: the module's file, as given (tests,
**                              a build tree);
**   else IDS_STORES_MODULE,    set at build time: CMake's is the installed
**                              LIBDIR/idscheme/stores.so; a relative one
**                              (the rockspec's idscheme/stores.so) is taken
**                              from the directory of the file that holds
**                              this code (the Lua module in a rocks tree).
*/
#define _GNU_SOURCE             /* dladdr, secure_getenv */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "slot_internal.h"

#ifndef IDS_STORES_MODULE
#define IDS_STORES_MODULE "idscheme/stores.so"
#endif

static pthread_mutex_t loadmu = PTHREAD_MUTEX_INITIALIZER;
static const ids_slot_module *loaded;

/* The path to open, into out (n bytes); 0 if it does not fit. */
static int where (char *out, size_t n) {
  /* secure_getenv: a set-user-ID program does not load what its caller's
  ** environment names */
  const char *p = secure_getenv("IDSCHEME_STORES_MODULE");
  Dl_info self;
  const char *slash;
  if (p && p[0]) return snprintf(out, n, "%s", p) < (int)n;
  p = IDS_STORES_MODULE;
  if (p[0] != '/' && dladdr((void *)where, &self) && self.dli_fname
      && (slash = strrchr(self.dli_fname, '/')) != NULL)
    return snprintf(out, n, "%.*s/%s", (int)(slash - self.dli_fname),
                    self.dli_fname, p) < (int)n;
  return snprintf(out, n, "%s", p) < (int)n;
}

/* Fills e: u's store cannot be reached through the module at path, and
** why: dlerror's words (which begin with the path when it is the module
** that failed, not a library it needs), or ours. */
static void failed (const ids_slot_url *u, const char *path,
                    const char *why, ids_error *e) {
  size_t n = strlen(path);
  int shown = ids__slot_shown(u);
  if (why == NULL) why = "unknown error";
  else if (strncmp(why, path, n) == 0 && why[n] == ':')
    for (why += n + 1; *why == ' '; why++) {}
  /* the URL cut short: the path and dlerror's words must fit IDS_ERRMAX */
  ids_fail(e, IDS_ENOENT, "slot store \"%.*s\": %s needs %s: %s",
           shown < 32 ? shown : 32, u->text, u->scheme, path, why);
}

const ids_slot_backend *const *ids__slot_stores (const ids_slot_url *u,
                                                 ids_error *e) {
  char path[PATH_MAX], why[IDS_ERRMAX];
  const ids_slot_module *m;
  void *h;
  pthread_mutex_lock(&loadmu);
  if ((m = loaded) != NULL) goto done;
  if (!where(path, sizeof path)) {      /* path holds its start */
    failed(u, path, "path too long", e);
    goto done;
  }
  if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
    failed(u, path, dlerror(), e);
    goto done;
  }
  if ((m = dlsym(h, IDS_SLOT_MODULE_SYMBOL)) == NULL) {
    failed(u, path, dlerror(), e);
  } else if (m->abi != IDS_SLOT_MODULE_ABI) {
    snprintf(why, sizeof why, "it is idscheme %.20s's (ABI %u), this "
             "library %s needs ABI %d", m->version ? m->version : "?",
             m->abi, IDS_VERSION, IDS_SLOT_MODULE_ABI);
    failed(u, path, why, e);
    m = NULL;
  }
  if (m == NULL) dlclose(h);
  loaded = m;
done:
  pthread_mutex_unlock(&loadmu);
  return m ? m->backends : NULL;
}
