/*
** entropy.c: a per-thread pool of ChaCha20 keystream, keyed from
** randombytes_buf, so that an ID costs a copy instead of a syscall.
**
** Each refill makes POOLSIZE bytes of keystream; its first 32 bytes become
** the next key (fast key erasure), and every byte handed out is wiped, so a
** pool holds nothing that was or will be given to anyone else.
**
** Fork safety, twice over: the pool lives in pages marked MADV_WIPEONFORK,
** which a child sees as zeros (so it reseeds), and it records the fork
** generation it was seeded in (pthread_atfork bumps it in the child), for
** kernels without MADV_WIPEONFORK.
*/
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include <sodium.h>

#include "internal.h"

#define POOLSIZE  4096
#define KEYSIZE   crypto_stream_chacha20_KEYBYTES

typedef struct pool {
  unsigned ready;             /* 0 in a fresh or wiped-on-fork pool */
  unsigned forkgen;
  size_t left;                /* unread bytes at the end of buf */
  uint8_t key[KEYSIZE];
  uint8_t buf[POOLSIZE];
} pool;

static pthread_key_t poolkey;
static pthread_once_t keyonce = PTHREAD_ONCE_INIT;
/* initial-exec: one pointer, read without a call (small enough for the
** static TLS that glibc keeps for modules loaded later) */
static _Thread_local pool *mine __attribute__((tls_model("initial-exec")));

static void freepool (void *p) { munmap(p, sizeof(pool)); }
static void makekey (void) { pthread_key_create(&poolkey, freepool); }

static pool *newpool (void) {
  pool *p = mmap(NULL, sizeof *p, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_WIPEONFORK
  madvise(p, sizeof *p, MADV_WIPEONFORK);
#endif
  pthread_once(&keyonce, makekey);
  pthread_setspecific(poolkey, p);
  return p;
}

static void refill (pool *p) {
  static const uint8_t nonce[crypto_stream_chacha20_NONCEBYTES];
  unsigned gen = ids__forkgen();
  if (!p->ready || p->forkgen != gen) {
    randombytes_buf(p->key, KEYSIZE);
    p->ready = 1;
    p->forkgen = gen;
  }
  /* a fresh key every refill, so the nonce may stay zero */
  crypto_stream_chacha20(p->buf, POOLSIZE, nonce, p->key);
  memcpy(p->key, p->buf, KEYSIZE);
  sodium_memzero(p->buf, KEYSIZE);
  p->left = POOLSIZE - KEYSIZE;
}

static void slowpath (void *out, size_t n);

void ids_random (void *out, size_t n) {
  pool *p = mine;
  if (p != NULL && p->ready && p->forkgen == ids__forks) {
    uint8_t *src = p->buf + POOLSIZE - p->left, *o = out;
    if (n >= 4 && n <= 8 && p->left >= 8) {
      /* an ID's few bytes: read one 8-byte word, copy and wipe with two
      ** (perhaps overlapping) 4-byte stores; constant sizes, no libc call */
      static const uint32_t zero;
      uint64_t w;
      memcpy(&w, src, 8);
      memcpy(o, &w, 4);
      memcpy(o + n - 4, (uint8_t *)&w + n - 4, 4);
      memcpy(src, &zero, 4);
      memcpy(src + n - 4, &zero, 4);
      p->left -= n;
      return;
    }
    if (p->left >= n) {
      memcpy(o, src, n);
      memset(src, 0, n);
      p->left -= n;
      return;
    }
  }
  slowpath(out, n);
}

/* First use in this thread, a refill, or the first draw after fork. */
static void slowpath (void *out, size_t n) {
  pool *p = mine;
  uint8_t *o = out;
  if (p == NULL && (p = mine = newpool()) == NULL) {
    randombytes_buf(out, n);          /* no memory for a pool: go direct */
    return;
  }
  if (!p->ready || p->forkgen != ids__forkgen()) p->left = 0;
  while (n > 0) {
    size_t k;
    uint8_t *src;
    if (p->left == 0) refill(p);
    k = n < p->left ? n : p->left;
    src = p->buf + POOLSIZE - p->left;
    memcpy(o, src, k);
    memset(src, 0, k);
    p->left -= k;
    o += k;
    n -= k;
  }
}
