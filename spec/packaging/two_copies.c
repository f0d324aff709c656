/*
** Two copies of idscheme in one process: libidscheme.so (linked) and the
** Lua 5.4 module (its own core inside, required by an embedded Lua 5.4).
** Each keeps its own registry and neither binds to the other's symbols:
** a scheme the module defines stays out of the library's registry, and
** both decode alike.  (spec/packaging/packaging.sh does the same for
** LuaJIT, the library through the FFI.  The two modules cannot share a
** process: each takes the Lua API from its interpreter, and the two
** interpreters' APIs clash.)
**   two_copies   (LUA_CPATH, LUA_PATH: the installed files)
*/
#include <stdio.h>
#include <string.h>
#include <idscheme.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

static int failed;

static void check (int ok, const char *what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  failed += !ok;
}

int main (void) {
  ids_error e;
  ids_value v;
  char dec[IDS_TEXTMAX] = "";
  const char *fluid = "ƒuZZybuNNy";
  check(ids_init() == IDS_OK, "libidscheme.so: ids_init");
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  int r = luaL_dostring(L,
    "local i = require 'idscheme'\n"
    "local u = i.scheme('ulid'):generator():next_string()\n"
    "assert(#u == 26, u)\n"
    "i.define{ name = 'twocopies', encodings = { 'hex' }, fields = {\n"
    "  { name = 't', bits = 48, kind = 'time' },\n"
    "  { name = 'r', bits = 16, kind = 'random' } } }\n"
    "return i._VERSION, i.scheme('fluid'):decode('ƒuZZybuNNy'):encode('dec')");
  if (r != LUA_OK) printf("     %s\n", lua_tostring(L, -1));
  check(r == LUA_OK, "Lua 5.4 module: require, ulid, define, decode");
  const ids_scheme *s = ids_scheme_find("fluid");
  const ids_codec *c = s ? ids_codec_find(s, "dec", 3) : NULL;
  if (c && ids_scheme_decode(s, NULL, fluid, strlen(fluid), &v, &e) == IDS_OK)
    ids_scheme_encode(s, c, &v, dec);
  if (r == LUA_OK) {
    check(strcmp(lua_tostring(L, -2), ids_version()) == 0,
          "module's _VERSION is the library's ids_version()");
    check(strcmp(lua_tostring(L, -1), dec) == 0 &&
          strcmp(dec, "6731191091817518") == 0, "both decode the FLUID alike");
  }
  check(ids_scheme_find("twocopies") == NULL,
        "the module's defined scheme is not in the library's registry");
  lua_close(L);
  return failed != 0;
}
