/*
** test_cxx.cpp: the public headers compile as C++ (C++11, -pedantic,
** warnings as errors) and link from C++: every installed header included,
** a few calls through each.
*/
#include <cstdio>
#include <cstring>

#include "idscheme.h"
#include "slots.h"
#include "idcompressor.h"
#include "inspect.h"

static int failed;

static void check (bool ok, const char *what, const char *msg) {
  if (ok) return;
  std::fprintf(stderr, "FAIL %s%s%s\n", what, msg ? ": " : "", msg ? msg : "");
  failed++;
}

int main () {
  ids_error e;
  ids_value v, back;
  ids_options o;
  ids_generator g;
  ids_slot_url u;
  ids_idc *c = NULL;
  int64_t id = 0;
  char text[IDS_TEXTMAX];
  check(ids_init() == IDS_OK, "ids_init", NULL);
  const ids_scheme *s = ids_scheme_find("fluid");
  check(s != NULL, "ids_scheme_find(\"fluid\")", NULL);
  if (s == NULL) return 1;
  // a node value given: no slot is claimed
  ids_options_init(&o, s);
  check(ids_options_set_int(&o, "generator", 9, 7, &e) == IDS_OK,
        "generator = 7", e.msg);
  check(ids_generator_init(&g, s, &o, NULL, &e) == IDS_OK,
        "ids_generator_init", e.msg);
  check(ids_generator_next(&g, &v, &e) == IDS_OK, "ids_generator_next", e.msg);
  size_t n = ids_scheme_encode(s, NULL, &v, text);
  check(n > 0, "ids_scheme_encode", NULL);
  check(ids_scheme_decode(s, NULL, text, n, &back, &e) == IDS_OK
        && ids_value_cmp(&v, &back) == 0, "decode what encode wrote", e.msg);
  ids_generator_close(&g);
  check(ids_slot_parse_url("redis://h:7000/ids", &u, &e) == IDS_OK
        && std::strcmp(u.scheme, "redis") == 0 && u.port == 7000,
        "ids_slot_parse_url", e.msg);
  check(ids_slot_parse_url("nope", &u, &e) == IDS_EINVAL, "a bad URL", NULL);
  check(ids_idc_new(&c, NULL, &e) == IDS_OK && ids_idc_generate(c, &id, &e)
        == IDS_OK && id == -1, "ids_idc_new, ids_idc_generate", e.msg);
  ids_idc_free(c);
  std::printf("C++ consumer: %s, %d failed\n", text, failed);
  return failed != 0;
}
