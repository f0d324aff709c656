/*
** slot_local.c: slots of one host, as flock(2) locks on one file per slot
** in a directory every process of the host shares:
**   local:/dir, else $IDSCHEME_SLOT_DIR, else /tmp/idscheme-slots.
** The lock is the lease: the kernel drops it when the holder dies, so
** there is no TTL and no renewal (renew is NULL: the limit is infinite).
** The directory is created 01777 and the files 0666 so that processes of
** every user can lock them.  Files are opened O_CLOEXEC: an exec'd child
** never holds a slot; a forked child forgets its copy without unlocking
** (flock locks belong to the open file description, shared with the
** parent: LOCK_UN in the child would free the parent's slot).
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slot_internal.h"

#define DEFAULT_DIR "/tmp/idscheme-slots"

typedef struct local {
  char dir[IDS_SLOT_URLMAX];
  const char *url;
  int fd;                      /* the held slot's file, or -1 */
} local;

static int lopen (const ids_slot_url *u, void **h, ids_error *e) {
  local *l;
  const char *dir = u->path;
  if (dir[0] == '\0') {
    dir = getenv("IDSCHEME_SLOT_DIR");
    if (dir == NULL || dir[0] == '\0') dir = DEFAULT_DIR;
    else if (dir[0] != '/' || strlen(dir) >= sizeof l->dir)
      return ids_fail(e, IDS_EINVAL, "slot store \"local\": "
                      "IDSCHEME_SLOT_DIR \"%.80s\" must be an absolute path "
                      "shorter than %d", dir, IDS_SLOT_URLMAX);
  }
  l = calloc(1, sizeof *l);
  if (l == NULL) return ids_fail(e, IDS_ENOMEM, "out of memory");
  strcpy(l->dir, dir);
  l->url = u->text;
  l->fd = -1;
  /* the last component only: a missing parent is a configuration error */
  if (mkdir(dir, 01777) == 0) chmod(dir, 01777);   /* past the umask */
  else if (errno != EEXIST) {
    int err = errno;
    free(l);
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": cannot create "
                    "directory \"%.60s\": %s", u->text, dir, strerror(err));
  }
  *h = l;
  return IDS_OK;
}

/* Opens a slot's file, creating it 0666.  An existing file is opened
** without O_CREAT: with fs.protected_regular, O_CREAT on another user's
** file in a sticky directory fails even though the file is 0666. */
static int openslot (const char *path) {
  int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 && errno == ENOENT) {
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd >= 0) fchmod(fd, 0666);                  /* past the umask */
    else if (errno == EEXIST) fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  }
  return fd;
}

static int lacquire (void *h, const ids_slot_req *r, uint32_t *slot,
                     int64_t *floor, ids_error *e) {
  local *l = h;
  uint32_t i, n = (uint32_t)1 << r->bits;
  char path[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX + 16];
  for (i = 0; i < n; i++) {
    int fd;
    snprintf(path, sizeof path, "%s/%s.%05u", l->dir, r->ns, (unsigned)i);
    fd = openslot(path);
    if (fd < 0)
      return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": cannot open "
                      "\"%.60s\": %s", l->url, path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      char pid[24];
      int k = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
      /* who holds it, for people looking; failure changes nothing */
      if (ftruncate(fd, 0) == 0 && write(fd, pid, (size_t)k) < 0) {}
      l->fd = fd;
      *slot = i;
      /* same host, same clock: the previous holder is dead, so all its
      ** IDs are older than now */
      *floor = 0;
      return IDS_OK;
    }
    {
      int err = errno;
      close(fd);
      if (err != EWOULDBLOCK && err != EINTR)
        return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": flock "
                        "\"%.60s\": %s", l->url, path, strerror(err));
    }
  }
  return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": every slot of "
                  "namespace '%s' (%lu) is taken", l->url, r->ns,
                  (unsigned long)n);
}

static void lrelease (void *h, const ids_slot_req *r, uint32_t slot) {
  local *l = h;
  (void)r; (void)slot;
  if (l->fd >= 0) {
    /* LOCK_UN drops the lock even if a forked child still has the fd */
    flock(l->fd, LOCK_UN);
    close(l->fd);
    l->fd = -1;
  }
}

/* close(2) is async-signal-safe and leaves the parent's lock alone: the
** lock lives as long as any descriptor of the description is open. */
static void lforget (void *h) {
  local *l = h;
  if (l->fd >= 0) close(l->fd);
  l->fd = -1;
}

static void lclose (void *h) {
  local *l = h;
  if (l->fd >= 0) close(l->fd);
  free(l);
}

const ids_slot_backend ids__slot_local = {
  "local", lopen, lacquire, NULL, lrelease, lforget, lclose
};
