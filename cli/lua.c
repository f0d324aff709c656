/*
** lua.c: the command's embedded Lua 5.4, for scripted schemes: the
** shipped scripts by name, -l files.
*/
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

int luaopen_idscheme (lua_State *L);

static lua_State *L;          /* for scripted schemes */

/* Where the shipped scripts are: $IDSCHEME_LUA_DIR; else IDS_LUADIR_REL
** from this program's own directory, as installed (any prefix); else the
** source tree's IDS_LUADIR, for a program run from its build tree. */
static const char *luadir (void) {
  static char buf[4096];
  const char *dir = getenv("IDSCHEME_LUA_DIR");
  if (dir) return dir;
#ifdef IDS_LUADIR_REL
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    int k = snprintf(buf, sizeof buf, "%s/%s", exe, IDS_LUADIR_REL);
    char probe[4096 + 64];
    snprintf(probe, sizeof probe, "%s/idscheme/schemes/init.lua", buf);
    if (k > 0 && (size_t)k < sizeof buf && access(probe, R_OK) == 0)
      return buf;
  }
#endif
  return IDS_LUADIR;
}

/* A Lua state where require "idscheme" is this program's own binding and
** the shipped scripts are found by luadir(). */
static void startlua (void) {
  const char *dir;
  if (L) return;
  dir = luadir();
  if ((L = luaL_newstate()) == NULL) die("cannot start Lua");
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_idscheme);
  lua_setfield(L, -2, "idscheme");
  lua_pop(L, 1);
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua", dir, dir);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
}

/* A registered scheme, or a shipped script that defines it. */
const ids_scheme *lookup (const char *name) {
  const ids_scheme *s = ids_scheme_find(name);
  if (s) return s;
  startlua();
  lua_getglobal(L, "require");
  lua_pushliteral(L, "idscheme");
  if (lua_pcall(L, 1, 1, 0) == 0) {
    lua_getfield(L, -1, "scheme");
    lua_pushstring(L, name);
    if (lua_pcall(L, 1, 0, 0) != 0) lua_pop(L, 1);   /* unknown: say below */
  }
  lua_pop(L, 1);
  return ids_scheme_find(name);
}

/* Every shipped scripted scheme, once: `list` and `inspect` without -s
** consider them all. */
void loadall (void) {
  static int done;
  if (done++) return;
  startlua();
  if (luaL_dostring(L, "local i = require 'idscheme'\n"
                       "for _, n in ipairs(i.list()) do i.scheme(n) end"))
    die("%s", luaL_tolstring(L, -1, NULL));
}

/* A script's error may be any value (error({}), an object with
** __tostring): luaL_tolstring says it as Lua's print would. */
void loadfile (const char *path) {
  startlua();
  if (luaL_dofile(L, path) != 0) die("%s", luaL_tolstring(L, -1, NULL));
}
