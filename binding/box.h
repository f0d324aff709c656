/*
** box.h: the binding's userdata (boxes) and how a method knows its own.
** A box begins with its own address and its type's constant.  Only C code
** writes a full userdata's bytes, and only this binding writes these, so
** no Lua value passes for a box of a type it is not; the size is checked
** first, so that the reads stay inside the userdata.  Two API calls, where
** comparing metatables (luaL_checkudata's way) takes four: 8 ns of every
** method call.
*/
#ifndef IDS_BOX_H
#define IDS_BOX_H

#include <stdint.h>
#include <string.h>

#include "compat.h"          /* lua_rawlen, lua_newuserdatauv under 5.1 */

/* the first member of every box */
typedef struct ids_box {
  const struct ids_box *self;
  uint64_t type;
} ids_box;

/* a box of `size` bytes with nuv user values, at the top of the stack;
** its metatable is the caller's to set */
static inline void *ids_box_new (lua_State *L, size_t size, int nuv,
                                 uint64_t type) {
  ids_box *b = (ids_box *)lua_newuserdatauv(L, size, nuv);
  (void)nuv;                                /* unused under Lua 5.1 */
  b->self = b;
  b->type = type;
  return b;
}

/* the box of that size and type at arg, or NULL */
static inline void *ids_box_test (lua_State *L, int arg, size_t size,
                                  uint64_t type) {
  ids_box *b = (ids_box *)lua_touserdata(L, arg);   /* NULL unless userdata */
  return b != NULL && lua_rawlen(L, arg) == size && b->self == b
         && b->type == type ? b : NULL;
}

/* "tname expected, got ...", naming what arg really is: its basic type,
** or for a userdata its metatable's __name unless that is tname (a table
** or a foreign userdata given this type's metatable is no box of it) */
static inline int ids_box_typeerror (lua_State *L, int arg,
                                     const char *tname) {
  const char *got = luaL_typename(L, arg);
  if (lua_type(L, arg) == LUA_TUSERDATA && lua_getmetatable(L, arg)) {
    lua_getfield(L, -1, "__name");
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), tname))
      got = lua_tostring(L, -1);        /* stays on the stack till the error */
  }
  return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s",
                                               tname, got));
}

/* the same, or an error that names the argument */
static inline void *ids_box_check (lua_State *L, int arg, size_t size,
                                   uint64_t type, const char *tname) {
  void *b = ids_box_test(L, arg, size, type);
  if (b == NULL) ids_box_typeerror(L, arg, tname);
  return b;
}

#endif
