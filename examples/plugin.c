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

/* its codec, made by name in main; it lives as long as the scheme */
static ids_codec_buf dec;

/* IDS_FIELDS and the like set each array with its count */
static const ids_scheme tick48 = {
  .name = "tick48", .bits = 48, .bytes = 6,
  IDS_FIELDS(
    {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 32, .shift = 16},
    {.name = "node", .kind = IDS_KIND_NODE, .bits = 4, .shift = 12},
    {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 12, .shift = 0}),
  IDS_CODECS(&dec.codec),
  IDS_GENOPTS(genopts),
  .unit = {1, 1},                       /* one tick a second */
  .epoch_ms = 1577836800000,
};

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
  if (ids_scheme_register(&tick48) != IDS_OK) {
    fprintf(stderr, "tick48: name taken, or not a well-formed scheme\n");
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
