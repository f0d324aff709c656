/*
** sodium.h for the WebAssembly build (wasm/idscheme/build.sh): the two
** calls of libsodium that the library's sources compiled there use
** (schemes/builtin.c, schemes/siq.c), and no more.  core/entropy.c, the
** rest of libsodium's use, is not compiled there: glue.c's ids_random
** draws from the environment's CSPRNG.
*/
#ifndef IDS_WASM_SODIUM_H
#define IDS_WASM_SODIUM_H

#include <stddef.h>

#define crypto_hash_sha256_BYTES 32U

/* nothing to set up: 0, as libsodium's first call */
static inline int sodium_init (void) { return 0; }

/* SHA-256 of in[0..n) into out (sha256.c: musl's, from emscripten's
** sysroot) */
int crypto_hash_sha256 (unsigned char *out, const unsigned char *in,
                        unsigned long long n);

#endif
