/*
** sha256.c: libsodium's crypto_hash_sha256 for the WebAssembly build,
** which links no libsodium: SIQ's domain_name is the last 4 bytes of a
** SHA-256 (schemes/siq.c), and a browser has no synchronous SHA-256 to
** import.  The hash is musl's public-domain FIPS 180-3 code, read from
** the toolchain's own libc sources (emscripten's sysroot ships musl; its
** crypt_sha256.c keeps the hash static, beside the password hash that
** uses it), so nothing of it is copied here.  build.sh passes its path as
** IDS_MUSL_SHA256; the SIQ vectors' domain hashes test it
** (wasm/idscheme/test/vectors.mjs).
*/
#include <stdint.h>

/* the file's own export, renamed so that it cannot meet libc's */
#define __crypt_sha256 ids__wasm_unused_crypt_sha256
#include IDS_MUSL_SHA256

int crypto_hash_sha256 (unsigned char *out, const unsigned char *in,
                        unsigned long long n) {
  struct sha256 s;
  sha256_init(&s);
  sha256_update(&s, in, (unsigned long)n);
  sha256_sum(&s, out);
  return 0;
}
