/*
** compressor.c: the Lua binding of the id-compressor
** (idcompressor/idcompressor.h), idscheme.compressor.  A compressor is a
** full userdata holding the C handle; its methods are the reference's
** operations in snake_case.
** Every string handed to the core stays on the Lua stack until the core
** returns, and every table field is read once.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "box.h"
#include "idcompressor.h"

#define IDC_MT "idscheme.compressor"

typedef struct box {
  ids_box box;      /* box.h: how checkbox knows one */
  ids_idc *c;
  int in_ghost;     /* inside begin_ghost_session: close must wait */
} box;

#define BOX_TYPE 0x69647363636f6d70ull         /* "idsccomp" */

/* the compressor at argument 1 */
static box *checkbox (lua_State *L) {
  return ids_box_check(L, 1, sizeof(box), BOX_TYPE, IDC_MT);
}

/* a new box, still empty, at the top of the stack */
static box *newbox (lua_State *L) {
  box *b = ids_box_new(L, sizeof *b, 0, BOX_TYPE);
  b->c = NULL;
  b->in_ghost = 0;
  luaL_getmetatable(L, IDC_MT);
  lua_setmetatable(L, -2);
  return b;
}

static ids_idc *check (lua_State *L) {
  box *b = checkbox(L);
  if (!b->c) luaL_error(L, "compressor: used after close");
  return b->c;
}

static int fail (lua_State *L, const ids_error *e) {
  return luaL_error(L, "%s", e->msg);
}

/* what luaL_checkinteger accepts (compat.h's ids_tointeger) */
static int isint (lua_State *L, int i, int64_t *v) {
  lua_Integer x;
  if (!ids_tointeger(L, i, &x)) return 0;
  *v = (int64_t)x;
  return 1;
}

/* a table field's integer (what names it in the error) */
static int64_t toint (lua_State *L, int i, const char *what) {
  int64_t v = 0;
  if (!isint(L, i, &v))
    luaL_error(L, "%s: integer expected, got %s", what,
               lua_type(L, i) == LUA_TNUMBER ? "a number with no integer "
               "representation" : luaL_typename(L, i));
  return v;
}

#define checkint(L, arg)  ((int64_t)ids_checkinteger(L, arg))

/* a string argument without embedded zeros (the core reads C strings) */
static const char *checktext (lua_State *L, int i, const char *what) {
  size_t n;
  const char *s = luaL_checklstring(L, i, &n);
  if (strlen(s) != n)
    luaL_error(L, "%s: '%s' contains a zero byte", what, s);
  return s;
}

static void pushint (lua_State *L, int64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
}

/* idscheme.compressor.new{ session_id =, cluster_size = } */
static const char *const newkeys[] = { "session_id", "cluster_size", NULL };

static int c_new (lua_State *L) {
  const char *sid = NULL;
  int64_t size = IDS_IDC_DEFAULT_CLUSTER;
  ids_idc *c;
  ids_error e;
  box *b;
  lua_settop(L, 1);
  if (!lua_isnil(L, 1)) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (ids_badkey(L, 1, newkeys))
      return luaL_error(L, "compressor.new: unknown option %s "
                        "(session_id, cluster_size)",
                        lua_type(L, -1) == LUA_TSTRING
                          ? ids_show(L, lua_gettop(L)) : luaL_typename(L, -1));
    lua_getfield(L, 1, "session_id");          /* stays at index 2 */
    if (!lua_isnil(L, 2)) {
      if (lua_type(L, 2) != LUA_TSTRING)
        return luaL_error(L, "session_id: string expected, got %s",
                          luaL_typename(L, 2));
      sid = checktext(L, 2, "session_id");
    }
    lua_getfield(L, 1, "cluster_size");
    if (!lua_isnil(L, 3)) size = toint(L, 3, "cluster_size");
  }
  b = newbox(L);    /* first, so that a Lua error cannot leak the compressor */
  if (ids_idc_new(&c, sid, &e)) return fail(L, &e);
  b->c = c;
  if (ids_idc_set_cluster_size(c, size, &e)) return fail(L, &e);
  return 1;
}

/* idscheme.compressor.deserialize(text [, new_session_id]) */
static int c_deserialize (lua_State *L) {
  size_t n;
  const char *text = luaL_checklstring(L, 1, &n);
  const char *sid = lua_isnoneornil(L, 2) ? NULL
                                          : checktext(L, 2, "new_session_id");
  ids_idc *c;
  ids_error e;
  box *b = newbox(L);
  if (ids_idc_deserialize(&c, text, n, sid, &e)) return fail(L, &e);
  b->c = c;
  return 1;
}

static int m_local_session_id (lua_State *L) {
  lua_pushstring(L, ids_idc_local_session_id(check(L)));
  return 1;
}

static int m_set_cluster_size (lua_State *L) {
  ids_idc *c = check(L);
  ids_error e;
  if (ids_idc_set_cluster_size(c, checkint(L, 2), &e)) return fail(L, &e);
  return 0;
}

static int m_cluster_size (lua_State *L) {
  pushint(L, ids_idc_cluster_size(check(L)));
  return 1;
}

/* c:equals(other [, include_local_state]) */
static int m_equals (lua_State *L) {
  ids_idc *c = check(L);
  box *o = ids_box_check(L, 2, sizeof(box), BOX_TYPE, IDC_MT);
  if (!o->c) return luaL_error(L, "equals: the other compressor is closed");
  lua_pushboolean(L, ids_idc_equals(c, o->c, lua_toboolean(L, 3)));
  return 1;
}

static int m_generate (lua_State *L) {
  ids_idc *c = check(L);
  int64_t id;
  ids_error e;
  if (ids_idc_generate(c, &id, &e)) return fail(L, &e);
  pushint(L, id);
  return 1;
}

static int m_generate_unique (lua_State *L) {
  ids_idc *c = check(L);
  char uuid[IDS_IDC_UUID_LEN + 1];
  int64_t id;
  int is_uuid;
  ids_error e;
  if (ids_idc_generate_unique(c, &id, uuid, &is_uuid, &e))
    return fail(L, &e);
  if (is_uuid) lua_pushstring(L, uuid);
  else pushint(L, id);
  return 1;
}

static void pushrange (lua_State *L, const ids_idc_range *r) {
  size_t i;
  lua_createtable(L, 0, 2);
  lua_pushstring(L, r->session_id);
  lua_setfield(L, -2, "session_id");
  if (!r->has_ids) return;
  lua_createtable(L, 0, 4);
  pushint(L, r->first_gen_count);
  lua_setfield(L, -2, "first_gen_count");
  pushint(L, r->count);
  lua_setfield(L, -2, "count");
  pushint(L, r->requested_cluster_size);
  lua_setfield(L, -2, "requested_cluster_size");
  lua_createtable(L, (int)r->nlocal, 0);
  for (i = 0; i < r->nlocal; i++) {
    lua_createtable(L, 2, 0);
    pushint(L, r->local[i][0]);
    lua_rawseti(L, -2, 1);
    pushint(L, r->local[i][1]);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (int)i + 1);
  }
  lua_setfield(L, -2, "local_id_ranges");
  lua_setfield(L, -2, "ids");
}

static int m_take_next (lua_State *L) {
  ids_idc *c = check(L);
  ids_idc_range r;
  ids_error e;
  /* room first: building the table cannot fail after the take */
  luaL_checkstack(L, 8, "take_next_creation_range");
  if (ids_idc_take_next_range(c, &r, &e)) return fail(L, &e);
  pushrange(L, &r);
  return 1;
}

static int m_take_unfinalized (lua_State *L) {
  ids_idc *c = check(L);
  ids_idc_range r;
  ids_error e;
  luaL_checkstack(L, 8, "take_unfinalized_creation_range");
  if (ids_idc_take_unfinalized_range(c, &r, &e)) return fail(L, &e);
  pushrange(L, &r);
  return 1;
}

static int m_reset_unfinalized (lua_State *L) {
  ids_idc *c = check(L);
  ids_error e;
  if (ids_idc_reset_unfinalized_range(c, &e)) return fail(L, &e);
  return 0;
}

/* one integer field of the ids table at index t, read once */
static int64_t idsfield (lua_State *L, int t, const char *k) {
  int64_t v;
  lua_getfield(L, t, k);
  if (lua_isnil(L, -1))
    luaL_error(L, "finalize_creation_range: ids.%s is missing", k);
  v = toint(L, -1, k);
  lua_pop(L, 1);
  return v;
}

static int m_finalize (lua_State *L) {
  ids_idc *c = check(L);
  ids_idc_range r;
  ids_error e;
  memset(&r, 0, sizeof r);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  lua_getfield(L, 2, "session_id");               /* 3, anchored */
  if (lua_type(L, 3) != LUA_TSTRING)
    return luaL_error(L, "finalize_creation_range: session_id: string "
                      "expected, got %s", luaL_typename(L, 3));
  r.session_id = checktext(L, 3, "session_id");
  lua_getfield(L, 2, "ids");                      /* 4 */
  if (!lua_isnil(L, 4)) {
    if (!lua_istable(L, 4))
      return luaL_error(L, "finalize_creation_range: ids: table expected, "
                        "got %s", luaL_typename(L, 4));
    r.has_ids = 1;
    r.first_gen_count = idsfield(L, 4, "first_gen_count");
    r.count = idsfield(L, 4, "count");
    r.requested_cluster_size = idsfield(L, 4, "requested_cluster_size");
  }
  if (ids_idc_finalize_range(c, &r, &e)) return fail(L, &e);
  return 0;
}

static int m_to_op_space (lua_State *L) {
  ids_idc *c = check(L);
  int64_t out;
  ids_error e;
  if (ids_idc_normalize_to_op_space(c, checkint(L, 2), &out, &e))
    return fail(L, &e);
  pushint(L, out);
  return 1;
}

static int m_to_session_space (lua_State *L) {
  ids_idc *c = check(L);
  int64_t id = checkint(L, 2), out;
  const char *origin = checktext(L, 3, "origin_session_id");
  ids_error e;
  if (ids_idc_normalize_to_session_space(c, id, origin, &out, &e))
    return fail(L, &e);
  pushint(L, out);
  return 1;
}

static int m_try_without_session (lua_State *L) {
  ids_idc *c = check(L);
  int64_t out;
  int found;
  ids_error e;
  if (ids_idc_try_normalize_without_session(c, checkint(L, 2), &out, &found,
                                            &e))
    return fail(L, &e);
  if (found) pushint(L, out);
  else lua_pushnil(L);
  return 1;
}

static int m_decompress (lua_State *L) {
  ids_idc *c = check(L);
  char uuid[IDS_IDC_UUID_LEN + 1];
  ids_error e;
  if (ids_idc_decompress(c, checkint(L, 2), uuid, &e)) return fail(L, &e);
  lua_pushlstring(L, uuid, IDS_IDC_UUID_LEN);
  return 1;
}

static int m_recompress (lua_State *L) {
  ids_idc *c = check(L);
  int64_t out;
  ids_error e;
  if (ids_idc_recompress(c, checktext(L, 2, "uuid"), &out, &e))
    return fail(L, &e);
  pushint(L, out);
  return 1;
}

static int m_try_recompress (lua_State *L) {
  ids_idc *c = check(L);
  int64_t out;
  int found;
  ids_error e;
  if (ids_idc_try_recompress(c, checktext(L, 2, "uuid"), &out, &found, &e))
    return fail(L, &e);
  if (found) pushint(L, out);
  else lua_pushnil(L);
  return 1;
}

static int m_serialize (lua_State *L) {
  ids_idc *c = check(L);
  char *s;
  size_t n;
  ids_error e;
  luaL_checktype(L, 2, LUA_TBOOLEAN);
  if (ids_idc_serialize(c, lua_toboolean(L, 2), &s, &n, &e))
    return fail(L, &e);
  lua_pushlstring(L, s, n);
  free(s);
  return 1;
}

/* the ghost callback: the Lua function at index 3, in protected mode */
static int ghost_fn (ids_idc *c, void *ud, ids_error *e) {
  lua_State *L = ud;
  (void)c;
  lua_pushvalue(L, 3);
  if (lua_pcall(L, 0, 0, 0) == 0) return IDS_OK;
  /* the error value stays on the stack for m_ghost to raise */
  return ids_fail(e, IDS_EINVAL, "begin_ghost_session: the function failed");
}

static int m_ghost (lua_State *L) {
  box *b = checkbox(L);
  ids_idc *c = check(L);
  const char *sid = checktext(L, 2, "session_id");
  ids_error e = { 0, "" };
  int rc;
  luaL_checktype(L, 3, LUA_TFUNCTION);
  lua_settop(L, 3);
  b->in_ghost++;
  rc = ids_idc_ghost_session(c, sid, ghost_fn, L, &e);
  b->in_ghost--;
  if (rc == IDS_OK) return 0;
  if (lua_gettop(L) > 3) return lua_error(L);   /* fn's own error */
  return fail(L, &e);
}

static int m_close (lua_State *L) {
  box *b = checkbox(L);
  /* the ghost session's C frame still uses the compressor */
  if (b->in_ghost)
    return luaL_error(L, "compressor: cannot close it inside its ghost "
                      "session");
  ids_idc_free(b->c);
  b->c = NULL;
  return 0;
}

static int m_tostring (lua_State *L) {
  box *b = checkbox(L);
  lua_pushfstring(L, "idscheme.compressor (%s)",
                  b->c ? ids_idc_local_session_id(b->c) : "closed");
  return 1;
}

static const luaL_Reg methods[] = {
  { "local_session_id", m_local_session_id },
  { "set_cluster_size", m_set_cluster_size },
  { "cluster_size", m_cluster_size },
  { "equals", m_equals },
  { "generate_compressed_id", m_generate },
  { "generate_document_unique_id", m_generate_unique },
  { "take_next_creation_range", m_take_next },
  { "take_unfinalized_creation_range", m_take_unfinalized },
  { "reset_unfinalized_creation_range", m_reset_unfinalized },
  { "finalize_creation_range", m_finalize },
  { "normalize_to_op_space", m_to_op_space },
  { "normalize_to_session_space", m_to_session_space },
  { "try_normalize_to_session_space_without_session", m_try_without_session },
  { "decompress", m_decompress },
  { "recompress", m_recompress },
  { "try_recompress", m_try_recompress },
  { "serialize", m_serialize },
  { "begin_ghost_session", m_ghost },
  { "close", m_close },
  { NULL, NULL }
};

/* compressor.is_stable_id(s): the reference's isStableId */
static int f_is_stable_id (lua_State *L) {
  size_t n;
  const char *s = luaL_checklstring(L, 1, &n);
  lua_pushboolean(L, strlen(s) == n && ids_idc_is_stable_id(s));
  return 1;
}

/* compressor.uuid_numeric(uuid): its 122-bit number in hex, no leading
** zeros (a Lua number holds 53 or 64 bits, LuaJIT's integers 53) */
static int f_uuid_numeric (lua_State *L) {
  uint64_t hi, lo;
  ids_error e;
  if (ids_idc_uuid_numeric(checktext(L, 1, "uuid"), &hi, &lo, &e))
    return fail(L, &e);
  {
    char hex[40];
    if (hi) snprintf(hex, sizeof hex, "%llx%016llx", (unsigned long long)hi,
                     (unsigned long long)lo);
    else snprintf(hex, sizeof hex, "%llx", (unsigned long long)lo);
    lua_pushstring(L, hex);
  }
  return 1;
}

/* compressor.uuid_offset(uuid, n): the UUID n after it, modulo 2^122 */
static int f_uuid_offset (lua_State *L) {
  char out[IDS_IDC_UUID_LEN + 1];
  ids_error e;
  if (ids_idc_uuid_offset(checktext(L, 1, "uuid"), checkint(L, 2), out, &e))
    return fail(L, &e);
  lua_pushstring(L, out);
  return 1;
}

static const luaL_Reg funcs[] = {
  { "new", c_new },
  { "deserialize", c_deserialize },
  { "is_stable_id", f_is_stable_id },
  { "uuid_numeric", f_uuid_numeric },
  { "uuid_offset", f_uuid_offset },
  { NULL, NULL }
};

/* For LuaJIT's FFI (idscheme.jit): c:generate_compressed_id() as an FFI
** call, which LuaJIT's compiler keeps in a compiled loop (a classic C call
** ends the trace).  b: a compressor box that a classic method took (the
** caller checks); the ID as a double (IDs are below 2^53), or NaN with the
** message in err[IDS_ERRMAX]. */
#if defined(__GNUC__)
__attribute__((visibility("hidden")))
#endif
double ids_lua_idc_generate_ffi (void *p, char *err) {
  box *b = p;
  int64_t id;
  ids_error e;
  if (b->c == NULL) {
    snprintf(err, IDS_ERRMAX, "compressor: used after close");
    return NAN;
  }
  if (ids_idc_generate(b->c, &id, &e)) {
    snprintf(err, IDS_ERRMAX, "%s", e.msg);
    return NAN;
  }
  return (double)id;
}

/* for luaopen_idscheme only: the module exports luaopen_idscheme alone */
#if defined(__GNUC__)
__attribute__((visibility("hidden")))
#endif
int ids_lua_compressor (lua_State *L) {
  if (luaL_newmetatable(L, IDC_MT)) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, m_close);
    lua_setfield(L, -2, "__gc");
#if LUA_VERSION_NUM >= 504
    lua_pushcfunction(L, m_close);
    lua_setfield(L, -2, "__close");
#endif
    lua_pushcfunction(L, m_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  lua_newtable(L);
  luaL_setfuncs(L, funcs, 0);
  return 1;
}
