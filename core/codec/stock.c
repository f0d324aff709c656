/*
** stock.c: codecs that many schemes share, as ready-made instances.
*/
#include "codecs.h"

static ids_radix dec = {.base = 10, .width = 1, .digits = IDS_DIGITS_DEC};
static ids_radix hex = {.base = 16, .width = 1, .digits = IDS_DIGITS_HEX,
                        .fold = 1};
static ids_radix hexfixed = {.base = 16, .width = 1,
                             .digits = IDS_DIGITS_HEX, .fold = 1,
                             .fixed = 1};
static ids_radix oct = {.base = 8, .width = 1, .digits = "01234567"};

const ids_codec ids_codec_dec = {"dec", ids_radix_encode, ids_radix_decode,
                                 &dec};
const ids_codec ids_codec_hex = {"hex", ids_radix_encode, ids_radix_decode,
                                 &hex};
const ids_codec ids_codec_hexfixed = {"hex", ids_radix_encode,
                                      ids_radix_decode, &hexfixed};
const ids_codec ids_codec_oct = {"oct", ids_radix_encode, ids_radix_decode,
                                 &oct};

int ids_stock_prepare (void) {
  ids_radix *const r[] = {&dec, &hex, &hexfixed, &oct};
  return ids_radix_prepare_all(r, sizeof r / sizeof *r);
}

int ids_radix_prepare_all (ids_radix *const *r, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int rc = ids_radix_prepare(r[i]);
    if (rc != IDS_OK) return rc;
  }
  return IDS_OK;
}
