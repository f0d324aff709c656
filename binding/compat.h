/*
** compat.h: every difference between Lua 5.4 and Lua 5.1/LuaJIT that the
** binding meets, in one place.
*/
#ifndef IDS_COMPAT_H
#define IDS_COMPAT_H

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"                    /* LuaJIT's names LUA_JITLIBNAME */

#if LUA_VERSION_NUM < 502              /* Lua 5.1, LuaJIT */

#define lua_rawlen(L, i)              lua_objlen(L, (i))
/* lua_getfield returns the value's type since 5.3 */
#define lua_getfield(L, i, k)         (lua_getfield(L, (i), (k)), \
                                       lua_type(L, -1))
/* one user value per userdata, kept as its environment table */
#define lua_newuserdatauv(L, sz, nuv) lua_newuserdata(L, (sz))
#define lua_setiuservalue(L, i, n)    lua_setfenv(L, (i))
#define lua_getiuservalue(L, i, n)    (lua_getfenv(L, (i)), lua_type(L, -1))
#define luaL_typeerror(L, a, t) \
  luaL_argerror(L, (a), lua_pushfstring(L, "%s expected, got %s", (t), \
                luaL_typename(L, (a))))

static int lua_isinteger (lua_State *L, int i) {
  lua_Number x;
  if (lua_type(L, i) != LUA_TNUMBER) return 0;
  x = lua_tonumber(L, i);
  /* in range before the cast: converting NaN or >= 2^63 is undefined */
  return x >= -0x1p63 && x < 0x1p63 && x == (lua_Number)(lua_Integer)x;
}

#if !defined(LUA_JITLIBNAME)           /* LuaJIT 2.1 has these already */
static void luaL_setfuncs (lua_State *L, const luaL_Reg *l, int nup) {
  for (; l->name; l++) {
    for (int i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}
#endif

/* LuaJIT: g:next_string() may go through the FFI (lua/idscheme/jit.lua) */
#if defined(LUA_JITLIBNAME)
#define IDS_HAVE_FFI 1
#else
#define IDS_HAVE_FFI 0
#endif

/* Integers above 2^53 do not survive a double: such field values are
** given as decimal strings, and id:integer() refuses them. */
#define IDS_INT_EXACT_BITS 53

#else

#define IDS_INT_EXACT_BITS 64
#define IDS_HAVE_FFI 0

#endif

/* The number at i as an integer, as luaL_checkinteger takes it: any number
** with an exact integer value (7 and 7.0; not 7.5, NaN, inf or out of
** range).  0 if it is not one; strings are not numbers here. */
static int ids_tointeger (lua_State *L, int i, lua_Integer *x) {
#if LUA_VERSION_NUM < 502
  if (!lua_isinteger(L, i)) return 0;
  *x = (lua_Integer)lua_tonumber(L, i);
  return 1;
#else
  int ok;
  if (lua_type(L, i) != LUA_TNUMBER) return 0;
  *x = lua_tointegerx(L, i, &ok);
  return ok;
#endif
}

/* luaL_checkinteger, with 5.4's rules under LuaJIT too (7.5 is refused,
** not truncated). */
static lua_Integer ids_checkinteger (lua_State *L, int arg) {
  lua_Integer x = 0;
  if (!ids_tointeger(L, arg, &x)) {
    if (lua_type(L, arg) == LUA_TNUMBER)
      luaL_argerror(L, arg, "number has no integer representation");
    luaL_typeerror(L, arg, "integer");
  }
  return x;
}

#endif
