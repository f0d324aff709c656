/*
** lua.c: the command's embedded Lua 5.4, for -l FILE.lua alone: every
** other scheme (ulid, uuidv7, ...) is in the core's registry.
*/
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int luaopen_idscheme (lua_State *L);

static lua_State *L;          /* for -l FILE.lua, started by the first */

/* A Lua state where require "idscheme" is this program's own binding (the
** one linked in, registering into this process's registry), started for
** the first -l FILE.lua.  package.path is Lua's own: the binding needs no
** Lua file of ours. */
static void startlua (void) {
  if (L) return;
  if ((L = luaL_newstate()) == NULL) die("cannot start Lua");
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_idscheme);
  lua_setfield(L, -2, "idscheme");
  lua_pop(L, 2);
}

/* A script's error may be any value (error({}), an object with
** __tostring): luaL_tolstring says it as Lua's print would. */
void loadfile (const char *path) {
  startlua();
  if (luaL_dofile(L, path) != 0) die("%s", luaL_tolstring(L, -1, NULL));
}
