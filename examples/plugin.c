/*
** plugin.c: a scheme defined in C by another program, registered with
** ids_scheme_register and then used like a built-in (and from Lua, by name, in
** the same process).
**
** "tick48": 32-bit seconds since 2020-01-01Z | 4-bit node | 12-bit
** sequence, written in decimal.
*/
#include <stdio.h>
#include <string.h>

#include "idscheme.h"

static const ids_optdef genopts[] = {
  {"node", IDS_OPT_INT, 0, 15, 0},
};

static ids_scheme tick48 = {
  .name = "tick48", .bits = 48, .bytes = 6,
  .nfields = 3, .ngenopts = 1,
  .fields = {
    {"timestamp", IDS_KIND_TIME, 32, 16, 0, NULL, 0},
    {"node", IDS_KIND_NODE, 4, 12, 0, NULL, 0},
    {"sequence", IDS_KIND_SEQUENCE, 12, 0, 0, NULL, 0},
  },
  .genopts = genopts,
  .unit = {1, 1},                       /* one tick a second */
  .epoch_ms = 1577836800000,
};

/* its codec, made by name; it lives as long as the scheme */
static ids_codec_buf dec;

int main (void) {
  ids_generator g;
  ids_options opts;
  ids_error e;
  char text[IDS_TEXTMAX];
  if (ids_init() != IDS_OK) return 1;
  if (ids_codec_make(&dec, "dec", 48, 6, &e) != IDS_OK) {
    fprintf(stderr, "%s\n", e.msg);
    return 1;
  }
  tick48.codecs[0] = &dec.codec;
  tick48.ncodecs = 1;
  if (ids_scheme_register(&tick48) != IDS_OK) {
    fprintf(stderr, "tick48: name taken\n");
    return 1;
  }
  ids_options_init(&opts, &tick48);
  if (ids_options_set_int(&opts, "node", 4, 3, &e) != IDS_OK ||
      ids_generator_init(&g, ids_scheme_find("tick48"), &opts, NULL, &e)
      != IDS_OK) {
    fprintf(stderr, "%s\n", e.msg);
    return 1;
  }
  for (int i = 0; i < 3; i++) {
    ids_value v, back;
    uint64_t x[3];
    if (ids_generator_next(&g, &v, &e) != IDS_OK) { fprintf(stderr, "%s\n", e.msg); return 1; }
    ids_scheme_encode(&tick48, NULL, &v, text);
    if (ids_scheme_decode(&tick48, NULL, text, strlen(text), &back, &e) != IDS_OK ||
        ids_value_cmp(&v, &back) != 0) {
      fprintf(stderr, "round trip failed: %s\n", text);
      return 1;
    }
    ids_scheme_decompose(&tick48, &v, x);
    printf("%s  timestamp=%llu node=%llu sequence=%llu\n", text,
           (unsigned long long)x[0], (unsigned long long)x[1],
           (unsigned long long)x[2]);
  }
  return ids_scheme_register(&tick48) == IDS_EEXIST ? 0 : 1;  /* names are unique */
}
