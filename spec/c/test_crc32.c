/*
** test_crc32.c: the core's CRC-32 (core/crc32.c), which replaced zlib's
** crc32 for SIQ's DID form: the standard check values, 14-byte inputs as
** SIQ passes them (their values from zlib), and every length up to 300
** against the bit-at-a-time definition.  SIQ's DID vectors
** (test_flax_snowflake_siq) check it through the codec.
*/
#include <stdio.h>
#include <string.h>

#include "idscheme.h"
#include "test.h"
#include "internal.h"

/* The definition: one bit a step, reflected polynomial 0xEDB88320. */
static uint32_t crc_bits (const unsigned char *b, size_t n) {
  uint32_t c = 0xffffffffu;
  int k;
  while (n--) {
    c ^= *b++;
    for (k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
  }
  return ~c;
}

int main (void) {
  static const struct { const char *in; size_t n; uint32_t want; } known[] = {
    {"", 0, 0},
    {"123456789", 9, 0xcbf43926},
    {"a", 1, 0xe8b7be43},
    {"The quick brown fox jumps over the lazy dog", 43, 0x414fa339},
    {"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d", 14,
     0x69ef56c8},
    {"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 14,
     0x139124d5},
  };
  unsigned char buf[300];
  uint32_t x = 12345;
  size_t i;
  for (i = 0; i < sizeof known / sizeof known[0]; i++)
    CHECKF(ids__crc32(known[i].in, known[i].n) == known[i].want,
           "\"%s\": %08x, want %08x", known[i].in,
           (unsigned)ids__crc32(known[i].in, known[i].n),
           (unsigned)known[i].want);
  for (i = 0; i < sizeof buf; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = (unsigned char)(x >> 16);
  }
  for (i = 0; i <= sizeof buf; i++)
    CHECKF(ids__crc32(buf, i) == crc_bits(buf, i), "length %zu", i);
  return t_done();
}
