/*
** crc32.c: CRC-32 as zlib and IEEE 802.3 compute it (reflected, polynomial
** 0xEDB88320, initial value and final xor ~0): SIQ's DID form checks its
** bytes with it.  Four bits a step through a 16-entry table: the core needs
** it for 14 bytes at a time, and zlib only for this.
*/
#include "internal.h"

uint32_t ids__crc32 (const void *p, size_t n) {
  /* t[i]: the CRC register after shifting the nibble i through it */
  static const uint32_t t[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
    0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
    0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c
  };
  const unsigned char *b = p;
  uint32_t c = 0xffffffffu;
  while (n--) {
    c ^= *b++;
    c = (c >> 4) ^ t[c & 15];
    c = (c >> 4) ^ t[c & 15];
  }
  return ~c;
}
