/*
** A program that uses an installed libidscheme, as its users build it:
** with pkg-config or with find_package(idscheme) (CMakeLists.txt here).
** Prints the version it was compiled against and the one it runs with,
** then decodes a FLUID.
*/
#include <stdio.h>
#include <string.h>
#include <idscheme.h>

int main (void) {
  ids_error e;
  ids_value v;
  char text[IDS_TEXTMAX];
  if (ids_init() != IDS_OK) return 1;
  printf("idscheme %s (header %s)\n", ids_version(), IDS_VERSION);
  if (strcmp(ids_version(), IDS_VERSION) != 0) return 1;
  const char *fluid = "ƒuZZybuNNy";
  const ids_scheme *s = ids_scheme_find("fluid");
  const ids_codec *dec = s ? ids_codec_find(s, "dec", 3) : NULL;
  if (dec == NULL ||
      ids_scheme_decode(s, NULL, fluid, strlen(fluid), &v, &e) != IDS_OK) {
    fprintf(stderr, "decode: %s\n", dec ? e.msg : "no fluid or dec");
    return 1;
  }
  ids_scheme_encode(s, dec, &v, text);
  printf("%s = %s\n", fluid, text);
  return strcmp(text, "6731191091817518") != 0;
}
