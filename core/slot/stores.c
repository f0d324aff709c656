/*
** stores.c: the stores' module's one export (built as idscheme/stores.so
** beside the library, CMakeLists.txt): the networked backends, which
** alone need hiredis, OpenSSL, libcurl and cJSON.  The core opens it on
** the first claim of a redis or etcd URL and checks abi before it reads
** the rest (module.c).  The module links its own copies of the few core
** helpers the backends call (keys.c, error.c, b64.c, decimal.c), hidden,
** so that it needs nothing of the library that opens it: the shared
** library, the command and the Lua modules (the core inside) alike.
*/
#include "slot_internal.h"

static const ids_slot_backend *const backends[] = {
#if IDS_HAVE_REDIS
  &ids__slot_redis,
#endif
#if IDS_HAVE_ETCD
  &ids__slot_etcd,
#endif
  NULL
};

__attribute__((visibility("default")))
const ids_slot_module ids_slot_stores = {
  IDS_SLOT_MODULE_ABI, IDS_VERSION, backends
};
