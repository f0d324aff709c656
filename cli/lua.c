/*
** lua.c: the command's embedded Lua 5.4, for the user's scheme files alone
** (-l FILE.lua, and the *.lua of the scheme path): every other scheme
** (ulid, uuidv7, ...) is in the core's registry.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Every *.lua of dir, in name order; a directory that is not there is
** no error (as in PATH). */
static void loaddir (const char *dir) {
  struct dirent **e;
  int n = scandir(dir, &e, NULL, alphasort);
  for (int i = 0; i < n; i++) {
    size_t len = strlen(e[i]->d_name);
    char path[4096];
    if (len > 4 && strcmp(e[i]->d_name + len - 4, ".lua") == 0 &&
        e[i]->d_name[0] != '.' &&
        (size_t)snprintf(path, sizeof path, "%s/%s", dir, e[i]->d_name)
          < sizeof path)
      loadfile(path);
    free(e[i]);
  }
  if (n >= 0) free(e);
}

void loadpath (void) {
  const char *p = getenv("IDSCHEME_PATH"), *home = getenv("HOME"),
             *xdg = getenv("XDG_CONFIG_HOME");
  char dir[4096];
  while (p && *p) {                       /* DIR:DIR:..., empty ones skipped */
    size_t len = strcspn(p, ":");
    if (len > 0 && len < sizeof dir) {
      memcpy(dir, p, len);
      dir[len] = '\0';
      loaddir(dir);
    }
    p += len + (p[len] == ':');
  }
  if (xdg && xdg[0] == '/')
    snprintf(dir, sizeof dir, "%s/idscheme/schemes", xdg);
  else if (home && home[0] == '/')
    snprintf(dir, sizeof dir, "%s/.config/idscheme/schemes", home);
  else return;
  loaddir(dir);
}
