/*
** slot_local.c: slots of one host, as flock(2) locks on one file per slot
** in a directory every process of the host shares:
**   local:/dir, else $IDSCHEME_SLOT_DIR, else /tmp/idscheme-slots.
**
** A slot is held by its name, not just by its inode: anyone who may
** delete a file in the directory (its owner, an admin, a /tmp cleaner)
** can unlink a held slot's file, and the next claimant then creates and
** locks a new file of the same name.  So:
**   - a claim checks after locking that the path still names the locked
**     file (else it tries again);
**   - the file records the limit its holder may issue up to, written by a
**     light renewal (every ttl/3: lstat, fstat, pwrite) before the holder
**     may use it, as networked stores keep last/N; the next holder's floor
**     is that record, so a holder that ran ahead of the clock, or whose
**     clock was ahead, never sees its IDs repeated;
**   - a renewal that finds the name gone reports the slot lost (slot.c
**     then claims another), and the lost holder stops at its limit;
**   - `ns.history` counts the slot files ever made (and when that count
**     began): a missing file below the count was deleted, and its holder
**     may still run up to its limit, at most ttl ahead; so is any missing
**     file when the history itself is new.  Such a file is born recording
**     "unknown until now + ttl", and its first holder sleeps that out at
**     the claim, as a networked store new to a namespace makes its first
**     holders wait (rule 7, which assumes clocks that agree: on one host
**     they are one clock).  A file past the count is new: no wait.
** At release the holder records what it really issued (slot.c's settle),
** so a successor on a healthy host waits for nothing.
**
** The directory must not be another user's to rewrite: a symlink, a
** non-directory, one owned by anyone but root or us, or one that others
** may write without the sticky bit is refused (as tmux and OpenSSH refuse
** unsafe paths).  Shared across users: a directory root made 1777.  Files
** are 0666 so that every user may lock them, opened O_NOFOLLOW and
** O_NONBLOCK (a FIFO planted in the directory must not hang a claim) and
** must be regular files.  They are opened O_CLOEXEC: an exec'd child never
** holds a slot; a forked child forgets its copy without unlocking (flock
** locks belong to the open file description, shared with the parent).
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slot_internal.h"

#define DEFAULT_DIR "/tmp/idscheme-slots"

/* tries per slot when its file is replaced between open and lock */
#define RETRIES 8

/* A slot file's record: the limit (20 digits: ns since 1970), its kind
** and the writer's pid, "LIMIT h PID\n" (a holder may have issued IDs up
** to LIMIT: the next holder's floor) or "LIMIT b PID\n" (the file was
** born then with no history: slept out at the claim).  Fixed width,
** always written whole at offset 0.  ns.history holds "EPOCH COUNT\n". */
#define RECLEN 34

/* openfile's errno for a name that is no regular file (a FIFO, a socket,
** a device): EINVAL's "Invalid argument" would not say so */
#define EFTYPE_ EMEDIUMTYPE
#define HELD 'h'
#define BORN 'b'

typedef struct local {
  char dir[IDS_SLOT_URLMAX];
  const char *url;
  mode_t mode;                 /* of files: 0666 in a directory every user
                                  may write (sticky), else 0660 (a group's) */
  int fd;                      /* the held slot's file, or -1 */
  char path[IDS_SLOT_URLMAX + IDS_SLOT_NSMAX + 16];   /* its name */
} local;

/* Refuses a directory another user could rewrite under us. */
static int safe_dir (const char *url, const char *dir, mode_t *mode,
                     ids_error *e) {
  struct stat st;
  uid_t me = geteuid();
  if (lstat(dir, &st) != 0)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": directory "
                    "\"%.60s\": %s", url, dir, strerror(errno));
  if (S_ISLNK(st.st_mode))
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": directory "
                    "\"%.60s\" is a symbolic link: refused (name the real "
                    "directory)", url, dir);
  if (!S_ISDIR(st.st_mode))
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": \"%.60s\" is not "
                    "a directory", url, dir);
  if (st.st_uid != 0 && st.st_uid != me)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": directory "
                    "\"%.60s\" belongs to uid %ld, neither root nor us: "
                    "refused (to share slots across users, root makes it "
                    "with mode 1777; or set IDSCHEME_SLOT_DIR)", url, dir,
                    (long)st.st_uid);
  if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
    return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": directory "
                    "\"%.60s\" is writable by others without the sticky "
                    "bit: refused", url, dir);
  *mode = st.st_mode & S_IWOTH ? 0666 : 0660;
  return IDS_OK;
}

static int lopen (const ids_slot_url *u, void **h, ids_error *e) {
  local *l;
  const char *dir = u->path;
  mode_t mode = 0660;
  int rc;
  if (dir[0] == '\0') {
    dir = getenv("IDSCHEME_SLOT_DIR");
    if (dir == NULL || dir[0] == '\0') dir = DEFAULT_DIR;
    else if (dir[0] != '/' || strlen(dir) >= sizeof l->dir)
      return ids_fail(e, IDS_EINVAL, "slot store \"local\": "
                      "IDSCHEME_SLOT_DIR \"%.80s\" must be an absolute path "
                      "shorter than %d", dir, IDS_SLOT_URLMAX);
  }
  if (dir[strspn(dir, "/")] == '\0')
    return ids_fail(e, IDS_EINVAL, "slot store \"%.80s\": the root "
                    "directory is no slot directory", u->text);
  /* the last component only: a missing parent is a configuration error.
  ** Made whole (under a name of our own, given its mode past the umask,
  ** then renamed into place), so that a claimant racing us never sees it
  ** before its mode is 1777 and takes it for a group's directory */
  if (access(dir, F_OK) != 0 && errno == ENOENT) {
    char tmp[IDS_SLOT_URLMAX + 32];
    snprintf(tmp, sizeof tmp, "%s.new.%ld", dir, (long)getpid());
    rmdir(tmp);                          /* a crashed claim's, of our pid */
    if (mkdir(tmp, 0700) != 0 || chmod(tmp, 01777) != 0 ||
        (rename(tmp, dir) != 0 && errno != EEXIST && errno != ENOTEMPTY)) {
      int err = errno;
      rmdir(tmp);
      return ids_fail(e, IDS_ELEASE, "slot store \"%.80s\": cannot create "
                      "directory \"%.60s\": %s", u->text, dir, strerror(err));
    }
    rmdir(tmp);                          /* another made it first */
  }
  if ((rc = safe_dir(u->text, dir, &mode, e)) != IDS_OK) return rc;
  l = calloc(1, sizeof *l);
  if (l == NULL) return ids_fail(e, IDS_ENOMEM, "out of memory");
  strcpy(l->dir, dir);
  l->url = u->text;
  l->mode = mode;
  l->fd = -1;
  *h = l;
  return IDS_OK;
}

static int put_record (int fd, int64_t limit, char kind) {
  char rec[64];
  ids__slot_fmt_ns(rec, limit);
  /* a pid has at most 10 digits: the line is RECLEN bytes */
  ssize_t k;
  snprintf(rec + 20, sizeof rec - 20, " %c %10ld\n", kind, (long)getpid());
  if ((k = pwrite(fd, rec, RECLEN, 0)) == RECLEN) return 0;
  if (k >= 0) errno = ENOSPC;          /* a short write: the disk is full */
  return -1;
}

/* The recorded limit and its kind; -1 if the file holds none whole. */
static int64_t get_record (int fd, char *kind) {
  char rec[RECLEN];
  if (pread(fd, rec, RECLEN, 0) != RECLEN || rec[20] != ' ' ||
      (rec[21] != HELD && rec[21] != BORN))
    return -1;
  *kind = rec[21];
  return ids__slot_parse_ns(rec, 20);
}

/* Does the path still name the open file? */
static int named (int fd, const char *path) {
  struct stat a, b;
  return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev
         && a.st_ino == b.st_ino;
}

/* Opens a file of the directory, creating it empty if missing.  An
** existing file is opened without O_CREAT: with fs.protected_regular,
** O_CREAT on another user's file in a sticky directory fails even though
** the file is 0666.  Only regular files. */
static int openfile (const char *path, int create, mode_t mode) {
  const int how = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  struct stat st;
  int fd = open(path, how);
  if (fd < 0 && errno == ENOENT && create) {
    fd = open(path, how | O_CREAT | O_EXCL, mode);
    if (fd >= 0) fchmod(fd, mode);               /* past the umask */
    else if (errno == EEXIST) fd = open(path, how);
  }
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    close(fd);
    errno = EFTYPE_;                   /* not a regular file */
    return -1;
  }
  return fd;
}

/* What open(2) said of a name that is no slot file: not a regular file
** (EFTYPE_), a symbolic link (ELOOP), a directory (EISDIR), or a file
** another user keeps from us (EACCES, EPERM). */
static int notafile (int err) {
  return err == EFTYPE_ || err == ELOOP || err == EISDIR || err == EACCES ||
         err == EPERM || err == ENXIO;
}

/* Locks fd, waiting at most timeout_ms (holders keep the history locked
** for microseconds; one that keeps it longer is not waited for forever). */
static int lock_within (int fd, int64_t timeout_ms) {
  int64_t waited;
  for (waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited++) {
    if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= timeout_ms)
      return -1;
    usleep(1000);
  }
  return 0;
}

/* Slot file `slot` is missing: when may its first holder use it?  The
** history's epoch + ttl for a file never made before (when the history is
** new, that is now + ttl), now + ttl for one made before (it was
** deleted).  Counts it as made. */
static int history (const local *l, const ids_slot_req *r, uint32_t slot,
                    int64_t *born, ids_error *e) {
  char path[sizeof l->path], h[64];
  int64_t ttl = r->ttl_ms * 1000000, epoch = -1, count = 0;
  int fd, tries;
  snprintf(path, sizeof path, "%s/%s.history", l->dir, r->ns);
  for (tries = 0;; tries++) {
    if ((fd = openfile(path, 1, l->mode)) < 0 ||
        lock_within(fd, r->timeout_ms) != 0)
      return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": \"%.60s\": %s",
                      l->url, path, fd < 0 ? strerror(errno) :
                      "locked by another process for too long");
    if (named(fd, path)) break;
    close(fd);                         /* replaced meanwhile: again */
    if (tries == RETRIES)
      return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": \"%.60s\" keeps "
                      "being replaced", l->url, path);
  }
  if (pread(fd, h, 42, 0) == 42 && h[20] == ' ' && h[41] == '\n') {
    epoch = ids__slot_parse_ns(h, 20);
    count = ids__slot_parse_ns(h + 21, 20);
  }
  /* new, or an epoch no holder wrote (past any record's bound: then
  ** every missing file is one whose holders may run a ttl more) */
  if (epoch < 0 || count < 0 || epoch + ttl > r->max_floor_ns)
    epoch = r->now_ns, count = 0;
  if (slot < count) *born = r->now_ns + ttl;
  else {
    *born = epoch + ttl;
    count = (int64_t)slot + 1;
  }
  ids__slot_fmt_ns(h, epoch);
  h[20] = ' ';
  ids__slot_fmt_ns(h + 21, count);
  h[41] = '\n';
  if (pwrite(fd, h, 42, 0) != 42) {
    int err = errno;
    close(fd);
    return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": writing \"%.60s\": "
                    "%s", l->url, path, strerror(err));
  }
  close(fd);                           /* unlocks */
  return IDS_OK;
}

/* Creates slot file `slot` whole: written under a temporary name, then
** linked to its own (link(2) fails if the name exists, as O_EXCL), so
** nobody ever opens a slot file without its record. */
static int create (const local *l, const ids_slot_req *r, uint32_t slot,
                   const char *path, ids_error *e) {
  char tmp[sizeof l->path + 32];
  int64_t born = r->now_ns + r->ttl_ms * 1000000;
  int fd, rc;
  if ((rc = history(l, r, slot, &born, e)) != IDS_OK) return rc;
  snprintf(tmp, sizeof tmp, "%s.new.%ld", path, (long)getpid());
  unlink(tmp);                         /* a crashed claim's, of our pid */
  fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
            l->mode);
  if (fd < 0)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": cannot create "
                    "\"%.60s\": %s", l->url, tmp, strerror(errno));
  fchmod(fd, l->mode);                 /* past the umask */
  rc = put_record(fd, born, BORN) == 0 ? 0 : errno ? errno : EIO;
  if (rc == 0 && link(tmp, path) != 0 && errno != EEXIST) rc = errno;
  close(fd);
  unlink(tmp);
  if (rc != 0)                         /* the first real errno: ENOSPC */
    return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": cannot create "
                    "\"%.60s\": %s", l->url, path, strerror(rc));
  return IDS_OK;                       /* ours, or another's made meanwhile */
}

static void lrelease (void *h, const ids_slot_req *r, uint32_t slot);

/* The namespace's meaning (slots.h) in ns.meaning, written whole by its
** first claim (as slot files are: a temporary name, then link(2)); a
** claim of another meaning is refused.  A meaning file that is no regular
** file, or unreadable, fails the claim: the namespace is not ours to
** guess. */
static int meaning (const local *l, const ids_slot_req *r, ids_error *e) {
  char path[sizeof l->path], tmp[sizeof path + 32], got[72];
  size_t n = strlen(r->meaning);
  ssize_t k = -1;
  int fd, tries;
  snprintf(path, sizeof path, "%s/%s.meaning", l->dir, r->ns);
  for (tries = 0; tries < RETRIES; tries++) {
    if ((fd = openfile(path, 0, l->mode)) >= 0) {
      k = pread(fd, got, sizeof got - 1, 0);
      close(fd);
      if (k < 0) break;
      got[k] = '\0';
      if ((size_t)k == n + 1 && memcmp(got, r->meaning, n) == 0 &&
          got[n] == '\n')
        return IDS_OK;
      got[strcspn(got, "\n")] = '\0';
      return ids_fail(e, IDS_EINVAL, "slot store \"%.60s\": namespace '%s' "
                      "holds slots of another meaning (\"%.40s\" in %s.meaning,"
                      " not \"%s\"): give this one a slot_namespace of its own",
                      l->url, r->ns, got, r->ns, r->meaning);
    }
    if (errno != ENOENT) break;
    snprintf(tmp, sizeof tmp, "%s.new.%ld", path, (long)getpid());
    unlink(tmp);
    fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
              l->mode);
    if (fd < 0) break;
    fchmod(fd, l->mode);
    snprintf(got, sizeof got, "%s\n", r->meaning);
    errno = ENOSPC;
    k = write(fd, got, n + 1);
    close(fd);
    if (k == (ssize_t)n + 1 && link(tmp, path) != 0 && errno != EEXIST)
      k = -1;
    unlink(tmp);
    if (k != (ssize_t)n + 1) break;
  }
  return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": \"%.60s\": %s",
                  l->url, path, strerror(errno));
}

static int lacquire (void *h, const ids_slot_req *r, uint32_t *slot,
                     int64_t *floor, ids_error *e) {
  local *l = h;
  uint32_t i, n = (uint32_t)1 << r->bits;
  int64_t ttl = r->ttl_ms * 1000000;
  char bad[sizeof l->path + 64] = "";  /* the first slot skipped */
  const char *why = "";
  int rc;
  lrelease(l, r, 0);                   /* a lost slot's file, if any */
  if ((rc = meaning(l, r, e)) != IDS_OK) return rc;
  for (i = 0; i < n; i++) {
    char path[sizeof l->path];
    int tries;
    if (!ids__slot_ours(r, i)) continue;
    snprintf(path, sizeof path, "%s/%s.%05u", l->dir, r->ns, (unsigned)i);
    for (tries = 0; tries < RETRIES; tries++) {
      int fd = openfile(path, 0, l->mode), err;
      if (fd < 0 && errno == ENOENT) {
        if ((rc = create(l, r, i, path, e)) != IDS_OK) return rc;
        fd = openfile(path, 0, l->mode);
      }
      if (fd < 0 && notafile(errno)) {   /* planted: skip the slot */
        if (!bad[0]) {
          snprintf(bad, sizeof bad, "\"%.*s\" (%s)", (int)sizeof l->path,
                   path, errno == EFTYPE_ ? "not a regular file"
                                          : strerror(errno));
          why = "is no slot file: remove it";
        }
        break;
      }
      if (fd < 0)
        return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": cannot open "
                        "\"%.60s\": %s", l->url, path, strerror(errno));
      if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        char kind = HELD;
        int64_t rec;
        if (!named(fd, path)) {        /* replaced meanwhile: again */
          close(fd);
          continue;
        }
        rec = get_record(fd, &kind);
        /* a record not whole (an older version's, a hand-made file): its
        ** history is unknown, as a new file's */
        if (rec < 0) rec = r->now_ns + ttl;
        if (rec > r->max_floor_ns) {   /* no holder's: skip the slot */
          if (!bad[0]) {
            snprintf(bad, sizeof bad, "\"%.*s\"", (int)sizeof l->path, path);
            why = IDS_SLOT_CORRUPT;
          }
          flock(fd, LOCK_UN);
          close(fd);
          break;
        }
        if (bad[0]) ids__slot_skipped(r, bad, why);
        l->fd = fd;
        strcpy(l->path, path);
        *slot = i;
        /* a born file's time, or its holders' limit: the generator waits
        ** it out (bounded by its max_wait_ms) */
        *floor = rec;
        return IDS_OK;
      }
      err = errno;
      close(fd);
      if (err != EWOULDBLOCK && err != EINTR)
        return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": flock "
                        "\"%.60s\": %s", l->url, path, strerror(err));
      break;                           /* held: the next slot */
    }
    if (tries == RETRIES)
      return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": \"%.60s\" was "
                      "replaced %d times while being locked", l->url, path,
                      RETRIES);
  }
  if (bad[0]) ids__slot_skipped(r, bad, why);
  return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": every slot of "
                  "namespace '%s' (%lu) is taken%s", l->url, r->ns,
                  ids__slot_candidates(r), bad[0] ? " or unusable" : "");
}

/* Records the limit before the holder may use it; the slot is lost when
** its name no longer names our file. */
static int lrenew (void *h, const ids_slot_req *r, uint32_t slot,
                   int64_t limit, int *lost, ids_error *e) {
  local *l = h;
  (void)r;
  *lost = 0;
  if (!named(l->fd, l->path)) {
    *lost = 1;
    return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": slot %u lost its "
                    "name: \"%.60s\" was deleted or replaced", l->url,
                    (unsigned)slot, l->path);
  }
  if (put_record(l->fd, limit, HELD) != 0)
    return ids_fail(e, IDS_ELEASE, "slot store \"%.60s\": writing \"%.60s\": "
                    "%s", l->url, l->path, strerror(errno));
  return IDS_OK;
}

static void lrelease (void *h, const ids_slot_req *r, uint32_t slot) {
  local *l = h;
  (void)slot;
  if (l->fd >= 0) {
    /* what the holder really issued, when it says (r->settle_ns) */
    if (r->settle_ns >= 0 && put_record(l->fd, r->settle_ns, HELD) != 0) {}
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
  "local", lopen, lacquire, lrenew, lrelease, lforget, lclose
};
