/*
** args.h: how the binding reads an option table and quotes what it
** refuses.  One loop refuses the keys a table may not have (a misspelt
** option would otherwise be a default silently taken); each caller words
** the error its own function raises.
*/
#ifndef IDS_ARGS_H
#define IDS_ARGS_H

#include <string.h>

#include "lua.h"
#include "lauxlib.h"

/* Whether the Lua string k (n bytes) is the C string name: by length,
** so that "name\0junk" is not "name". */
static inline int ids_keyis (const char *name, const char *k, size_t n) {
  return strlen(name) == n && memcmp(name, k, n) == 0;
}

/* Pushes the string at absolute index i for a message, a NUL as \0, cut
** after 64 bytes. */
static inline const char *ids_quote (lua_State *L, int i) {
  size_t n;
  const char *s = lua_tolstring(L, i, &n);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (size_t k = 0; k < n && k < 64; k++) {
    if (s[k] == '\0') luaL_addstring(&b, "\\0");
    else luaL_addchar(&b, s[k]);
  }
  if (n > 64) luaL_addstring(&b, "...");
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* Pushes the value at absolute index i for a message: a number as such,
** a string quoted, anything else by its type name. */
static inline const char *ids_show (lua_State *L, int i) {
  if (lua_type(L, i) == LUA_TNUMBER) {
    lua_pushvalue(L, i);
    return lua_tostring(L, -1);
  }
  if (lua_type(L, i) == LUA_TSTRING)
    return lua_pushfstring(L, "'%s'", ids_quote(L, i));
  lua_pushstring(L, luaL_typename(L, i));
  return lua_tostring(L, -1);
}

/* The first key of table t (absolute) that the NULL-ended `keys` does
** not list, left on the top of the stack (1); 0, with the stack as it
** was, when every key is listed.  A key that is not a string is never
** listed. */
static inline int ids_badkey (lua_State *L, int t, const char *const *keys) {
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    size_t n;
    const char *k;
    int i = 0;
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) return 1;
    k = lua_tolstring(L, -1, &n);
    while (keys[i] && !ids_keyis(keys[i], k, n)) i++;
    if (keys[i] == NULL) return 1;
  }
  return 0;
}

#endif
