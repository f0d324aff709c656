/*
** Three copies of idscheme in one process: libidscheme.so (linked), the
** Lua 5.4 module (its own core inside, required by an embedded Lua 5.4) and
** the LuaJIT module (argv[1], dlopen'ed only: it speaks LuaJIT's API, which
** this process has not).  Each copy keeps its own registry and none binds
** to another's symbols: the Lua copy's scripted ulid stays out of the
** library's registry, and both decode alike.
**   two_copies LUAJIT_MODULE   (LUA_CPATH, LUA_PATH: the installed files)
*/
#include <dlfcn.h>
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

int main (int argc, char **argv) {
  ids_error e;
  ids_value v;
  char dec[IDS_TEXTMAX] = "";
  const char *fluid = "ƒuZZybuNNy";
  if (argc != 2) { fprintf(stderr, "usage: %s LUAJIT_MODULE\n", argv[0]); return 2; }
  check(ids_init() == IDS_OK, "libidscheme.so: ids_init");
  void *jit = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  check(jit && dlsym(jit, "luaopen_idscheme"), "LuaJIT module loaded");
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  int r = luaL_dostring(L,
    "local i = require 'idscheme'\n"
    "local u = i.scheme('ulid'):generator():next_string()\n"
    "assert(#u == 26, u)\n"
    "return i._VERSION, i.scheme('fluid'):decode('ƒuZZybuNNy'):encode('dec')");
  if (r != LUA_OK) printf("     %s\n", lua_tostring(L, -1));
  check(r == LUA_OK, "Lua 5.4 module: require, scripted ulid, decode");
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
  check(ids_scheme_find("ulid") == NULL,
        "the module's scripted ulid is not in the library's registry");
  lua_close(L);
  if (jit) dlclose(jit);
  return failed != 0;
}
