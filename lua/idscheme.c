/*
** idscheme.c: the Lua binding.  It translates between Lua values and the
** C API of core/idscheme.h and holds no knowledge of any scheme.
**
** Three typed userdata: scheme handles, generators and ids.  Every
** function gets their metatables as upvalues 1..3, so that type checks in
** hot paths are a pointer comparison instead of a registry lookup.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compat.h"
#include "idscheme.h"

#define SCHEME_MT   "idscheme.scheme"
#define GEN_MT      "idscheme.generator"
#define ID_MT       "idscheme.id"
#define HANDLES     "idscheme.handles"   /* registry: lightuserdata -> handle */

#define UV_SCHEME   lua_upvalueindex(1)
#define UV_GEN      lua_upvalueindex(2)
#define UV_ID       lua_upvalueindex(3)

typedef struct lscheme { const ids_scheme *s; } lscheme;
typedef struct lid { const ids_scheme *s; ids_value v; } lid;
typedef struct lgen { ids_generator g; } lgen;

/* ------------------------------------------------------------- helpers */

/* luaL_argerror with a printf-style message (int64 included). */
static int argerrorf (lua_State *L, int arg, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return luaL_argerror(L, arg, msg);
}

/* Userdata at `arg` whose metatable is the upvalue `mt`, or an error that
** names the argument. */
static void *toudata (lua_State *L, int arg, int mt, const char *tname) {
  void *p = lua_touserdata(L, arg);
  if (p != NULL && lua_getmetatable(L, arg)) {
    int ok = lua_rawequal(L, -1, mt);
    lua_pop(L, 1);
    if (ok) return p;
  }
  luaL_typeerror(L, arg, tname);
  return NULL;
}

#define checkscheme(L, i) ((lscheme *)toudata(L, i, UV_SCHEME, SCHEME_MT))
#define checkgen(L, i)    ((lgen *)toudata(L, i, UV_GEN, GEN_MT))
#define checkid(L, i)     ((lid *)toudata(L, i, UV_ID, ID_MT))

static lid *pushid (lua_State *L, const ids_scheme *s, const ids_value *v) {
  lid *d = (lid *)lua_newuserdatauv(L, sizeof *d, 0);
  d->s = s;
  d->v = *v;
  lua_pushvalue(L, UV_ID);
  lua_setmetatable(L, -2);
  return d;
}

/* An unsigned 64-bit number as a Lua integer (wrapped above 2^63, as
** string.unpack does); where integers are doubles, an error above 2^53. */
static void pushu64 (lua_State *L, uint64_t x, const char *what) {
  if (IDS_INT_EXACT_BITS < 64 && (x >> IDS_INT_EXACT_BITS) != 0)
    luaL_error(L, "%s does not fit in a number without losing precision "
               "(use encode or bytes)", what);
  lua_pushinteger(L, (lua_Integer)x);
}

/* A field value: an integer, or a decimal string where numbers would lose
** precision (LuaJIT above 2^53). */
static void pushfield (lua_State *L, uint64_t x) {
  if (IDS_INT_EXACT_BITS < 64 && (x >> IDS_INT_EXACT_BITS) != 0) {
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
    lua_pushstring(L, buf);
  }
  else
    lua_pushinteger(L, (lua_Integer)x);
}

/* Decimal digits only, at most 2^64-1; 0 if not. */
static int todec (const char *s, size_t n, uint64_t *x) {
  *x = 0;
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9' ||
        __builtin_mul_overflow(*x, 10, x) ||
        __builtin_add_overflow(*x, (uint64_t)(s[i] - '0'), x))
      return 0;
  }
  return 1;
}

/* Encoding named at `arg` (nil: NULL, the default), or an error. */
static const ids_codec *optcodec (lua_State *L, const ids_scheme *s,
                                  int arg) {
  size_t len;
  const char *name = luaL_optlstring(L, arg, NULL, &len);
  const ids_codec *c;
  if (name == NULL) return NULL;
  c = ids_codec_find(s, name, len);
  if (c == NULL)
    luaL_argerror(L, arg, lua_pushfstring(L, "unknown encoding '%s' for %s",
                                          name, s->name));
  return c;
}

/* Reads the options table at `arg` against `defs`; keys listed in `extra`
** are left for the caller.  Any other key is an error. */
static void readopts (lua_State *L, int arg, const ids_optdef *defs, int n,
                      ids_optval *vals, const char *const *extra,
                      const char *what) {
  memset(vals, 0, sizeof *vals * IDS_MAXOPTS);
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg) != 0) {
    const char *k;
    int i, known = 0;
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_argerror(L, arg, lua_pushfstring(L, "%s keys must be strings",
                                            what));
    k = lua_tostring(L, -2);
    for (i = 0; i < n; i++)
      if (strcmp(defs[i].name, k) == 0) break;
    if (i < n) {
      ids_optval *o = &vals[i];
      if (defs[i].type == IDS_OPT_INT) {
        if (!lua_isinteger(L, -1))
          luaL_argerror(L, arg, lua_pushfstring(L, "%s '%s' must be an "
                                                "integer", what, k));
        o->i = (int64_t)lua_tointeger(L, -1);
        if (o->i < defs[i].min || o->i > defs[i].max)
          argerrorf(L, arg, "%s '%s' out of range: %lld (allowed %lld.."
                    "%lld)", what, k, (long long)o->i,
                    (long long)defs[i].min, (long long)defs[i].max);
      }
      else {
        if (lua_type(L, -1) != LUA_TSTRING)
          luaL_argerror(L, arg, lua_pushfstring(L, "%s '%s' must be a "
                                                "string", what, k));
        o->s = lua_tolstring(L, -1, &o->len);   /* anchored by the table */
      }
      o->set = 1;
      known = 1;
    }
    for (i = 0; extra && extra[i] && !known; i++)
      known = strcmp(extra[i], k) == 0;
    if (!known)
      luaL_argerror(L, arg, lua_pushfstring(L, "unknown %s '%s'", what, k));
    lua_pop(L, 1);
  }
}

/* --------------------------------------------------------- scheme handle */

/* The one handle of scheme s (handles live as long as their schemes). */
static void pushscheme (lua_State *L, const ids_scheme *s) {
  lua_getfield(L, LUA_REGISTRYINDEX, HANDLES);
  lua_pushlightuserdata(L, (void *)s);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) {
    lscheme *h;
    lua_pop(L, 1);
    h = (lscheme *)lua_newuserdatauv(L, sizeof *h, 1);
    h->s = s;
    lua_pushvalue(L, UV_SCHEME);
    lua_setmetatable(L, -2);
    /* attributes, kept in the user value: name, bits, encodings, ... */
    lua_createtable(L, 0, 6);
    lua_pushstring(L, s->name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, s->bits);
    lua_setfield(L, -2, "bits");
    lua_pushinteger(L, s->bytes);
    lua_setfield(L, -2, "bytes");
    lua_createtable(L, s->ncodecs, 0);
    for (int i = 0; i < s->ncodecs; i++) {
      lua_pushstring(L, s->codecs[i]->name);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "encodings");
    lua_pushstring(L, s->codecs[0]->name);
    lua_setfield(L, -2, "default_encoding");
    lua_createtable(L, s->nfields, 0);
    for (int i = 0; i < s->nfields; i++) {
      lua_createtable(L, 0, 3);
      lua_pushstring(L, s->fields[i].name);
      lua_setfield(L, -2, "name");
      lua_pushinteger(L, s->fields[i].bits);
      lua_setfield(L, -2, "bits");
      lua_pushstring(L, ids_kind_names[s->fields[i].kind]);
      lua_setfield(L, -2, "kind");
      if (s->fields[i].variable) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "variable");
      }
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "fields");
    lua_setiuservalue(L, -2, 1);
    lua_pushlightuserdata(L, (void *)s);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
}

/* Pushes the table of shipped scripted schemes (lua/idscheme/schemes),
** or nil when that Lua part is not installed. */
static void pushshipped (lua_State *L) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "idscheme.schemes");
  if (lua_pcall(L, 1, 1, 0) != 0 || !lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_pushnil(L);
  }
}

/* A shipped script defines its scheme when first asked for. */
static const ids_scheme *findscheme (lua_State *L, const char *name) {
  const ids_scheme *d = ids_find(name);
  if (d != NULL) return d;
  pushshipped(L);
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "load");
    lua_pushstring(L, name);
    lua_call(L, 1, 0);                 /* errors in a script propagate */
  }
  lua_pop(L, 1);
  return ids_find(name);
}

static int l_scheme (lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const ids_scheme *d = findscheme(L, name), *s;
  ids_optval params[IDS_MAXOPTS];
  ids_error e;
  if (d == NULL)
    return luaL_argerror(L, 1, lua_pushfstring(L, "unknown scheme '%s'",
                                               name));
  readopts(L, 2, d->params, d->nparams, params, NULL, "parameter");
  if ((s = ids_open(d, params, &e)) == NULL)
    return luaL_argerror(L, 2, e.msg);
  pushscheme(L, s);
  return 1;
}

/* Registered schemes and shipped scripts, sorted, each once. */
static int l_list (lua_State *L) {
  const char *names[64];
  size_t n = ids_list(names, 64);
  int k = 0;
  lua_newtable(L);                         /* set: name -> true */
  for (size_t i = 0; i < n && i < 64; i++) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, names[i]);
  }
  pushshipped(L);
  if (lua_istable(L, -1)) {
    for (int i = 1; lua_rawgeti(L, -1, i), !lua_isnil(L, -1); i++) {
      lua_pushboolean(L, 1);
      lua_rawset(L, -4);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_getglobal(L, "table");
  lua_getfield(L, -1, "sort");
  lua_remove(L, -2);
  lua_newtable(L);                         /* the array */
  lua_pushnil(L);
  while (lua_next(L, -4) != 0) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, ++k);
  }
  lua_pushvalue(L, -1);
  lua_insert(L, -3);                       /* array, sort, array */
  lua_call(L, 1, 0);
  return 1;
}

/* ------------------------------------------------------------- define */

static const char *optstringfield (lua_State *L, int t, const char *k,
                                   const char *what) {
  const char *s = NULL;
  lua_getfield(L, t, k);
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "idscheme.define: %s '%s' must be a string", what, k);
    s = lua_tostring(L, -1);
  }
  lua_pop(L, 1);                           /* anchored by the spec table */
  return s;
}

static long long optintfield (lua_State *L, int t, const char *k,
                              long long dflt, const char *what) {
  long long x = dflt;
  lua_getfield(L, t, k);
  if (!lua_isnil(L, -1)) {
    if (!lua_isinteger(L, -1))
      luaL_error(L, "idscheme.define: %s '%s' must be an integer", what, k);
    x = (long long)lua_tointeger(L, -1);
  }
  lua_pop(L, 1);
  return x;
}

static int l_define (lua_State *L) {
  ids_fieldspec fs[IDS_MAXFIELDS];
  const char *encs[IDS_MAXCODECS];
  ids_defspec sp;
  const ids_scheme *s;
  ids_error e;
  int n;
  luaL_checktype(L, 1, LUA_TTABLE);
  memset(&sp, 0, sizeof sp);
  sp.name = optstringfield(L, 1, "name", "spec");
  sp.default_encoding = optstringfield(L, 1, "default_encoding", "spec");
  sp.bytes = optintfield(L, 1, "bytes", 0, "spec");
  lua_getfield(L, 1, "fields");
  if (!lua_istable(L, -1))
    return luaL_error(L, "idscheme.define: scheme '%s': 'fields' must be a "
                      "table", sp.name ? sp.name : "?");
  n = (int)lua_rawlen(L, -1);
  if (n > IDS_MAXFIELDS)
    return luaL_error(L, "idscheme.define: scheme '%s': more than %d fields",
                      sp.name ? sp.name : "?", IDS_MAXFIELDS);
  for (int i = 0; i < n; i++) {
    int t;
    lua_rawgeti(L, -1, i + 1);
    if (!lua_istable(L, -1))
      return luaL_error(L, "idscheme.define: field %d must be a table", i + 1);
    t = lua_gettop(L);
    fs[i].name = optstringfield(L, t, "name", "field");
    fs[i].kind = optstringfield(L, t, "kind", "field");
    fs[i].unit = optstringfield(L, t, "unit", "field");
    fs[i].bits = optintfield(L, t, "bits", 0, "field");
    fs[i].epoch_ms = (int64_t)optintfield(L, t, "epoch", 0, "field");
    fs[i].value = (uint64_t)optintfield(L, t, "value", 0, "field");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  sp.fields = fs;
  sp.nfields = n;
  lua_getfield(L, 1, "encodings");
  if (!lua_istable(L, -1))
    return luaL_error(L, "idscheme.define: scheme '%s': 'encodings' must be "
                      "a table", sp.name ? sp.name : "?");
  n = (int)lua_rawlen(L, -1);
  if (n > IDS_MAXCODECS)
    return luaL_error(L, "idscheme.define: more than %d encodings",
                      IDS_MAXCODECS);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, -1, i + 1);
    encs[i] = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1);                         /* anchored by the table */
  }
  sp.encodings = encs;
  sp.nencodings = n;
  if (sp.name) {                           /* shipped names are taken */
    pushshipped(L);
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "reserve");
      lua_pushstring(L, sp.name);
      lua_call(L, 1, 0);
    }
    lua_pop(L, 1);
  }
  if (ids_define(&sp, &s, &e) != IDS_OK)
    return luaL_error(L, "idscheme.define: %s", e.msg);
  lua_pop(L, 1);
  pushscheme(L, s);
  return 1;
}

/* s.name and friends come from the attribute table, methods first. */
static int s_index (lua_State *L) {
  checkscheme(L, 1);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(4));      /* methods */
  if (!lua_isnil(L, -1)) return 1;
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

static int s_tostring (lua_State *L) {
  lscheme *h = checkscheme(L, 1);
  lua_pushfstring(L, "idscheme.scheme: %s", h->s->name);
  return 1;
}

/* A field's value from the compose table at index 2 (on the stack top):
** an integer, a qualifier's name, or for a field with `from`, nothing
** here but a string under that other key. */
static uint64_t fieldvalue (lua_State *L, const ids_scheme *s, int i) {
  const ids_field *f = &s->fields[i];
  ids_error e;
  uint64_t x;
  int t = lua_getfield(L, 2, f->name);
  if (t != LUA_TNIL && f->from) {          /* not both ways at once */
    int both = lua_getfield(L, 2, f->from) != LUA_TNIL;
    lua_pop(L, 1);
    if (both)
      argerrorf(L, 2, "give field '%s' or '%s', not both", f->name, f->from);
  }
  if (t == LUA_TNIL && f->from && s->hashname) {
    size_t n;
    const char *str;
    lua_pop(L, 1);
    if (lua_getfield(L, 2, f->from) != LUA_TSTRING)
      argerrorf(L, 2, "field '%s' (or '%s', a string) missing", f->name,
                f->from);
    str = lua_tolstring(L, -1, &n);
    if (s->hashname(s, i, str, n, &x, &e) != IDS_OK)
      argerrorf(L, 2, "%s", e.msg);
  }
  else if (t == LUA_TNIL && f->kind == IDS_CONSTANT)
    x = f->value;
  else if (t == LUA_TNIL)
    argerrorf(L, 2, "field '%s' missing", f->name);
  else if (f->kind == IDS_QUALIFIER) {
    size_t n;
    const char *name = lua_tolstring(L, -1, &n);
    int64_t q = name ? ids_qualifier_value(s, name, n) : -1;
    if (t != LUA_TSTRING || q < 0)
      argerrorf(L, 2, "field '%s' must name a %s type", f->name, s->name);
    x = (uint64_t)q;
  }
  else if (f->bits > 64) {                 /* set from bytes after compose */
    size_t n;
    if (t != LUA_TSTRING || (lua_tolstring(L, -1, &n), n != (f->bits + 7u) / 8))
      argerrorf(L, 2, "field '%s' must be a string of %d bytes", f->name,
                (f->bits + 7) / 8);
    x = 0;
  }
  else if (t == LUA_TSTRING && IDS_INT_EXACT_BITS < 64) {
    /* where numbers are doubles, big values travel as decimal strings,
    ** as fields() gives them */
    size_t n;
    const char *str = lua_tolstring(L, -1, &n);
    if (!todec(str, n, &x))
      argerrorf(L, 2, "field '%s' must be an integer or a decimal string",
                f->name);
  }
  else if (!lua_isinteger(L, -1))
    argerrorf(L, 2, "field '%s' must be an integer", f->name);
  else {
    lua_Integer n = lua_tointeger(L, -1);
    if (n < 0 && f->bits < 64)
      argerrorf(L, 2, "field '%s' out of range: %lld is negative", f->name,
                (long long)n);
    x = (uint64_t)n;
  }
  lua_pop(L, 1);
  return x;
}

static int knownkey (const ids_scheme *s, const char *k) {
  for (int i = 0; i < s->nfields; i++)
    if (strcmp(s->fields[i].name, k) == 0 ||
        (s->fields[i].from && strcmp(s->fields[i].from, k) == 0))
      return 1;
  return 0;
}

static int s_compose (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  uint64_t x[IDS_MAXFIELDS];
  ids_value v;
  ids_error e;
  luaL_checktype(L, 2, LUA_TTABLE);
  for (int i = 0; i < s->nfields; i++) x[i] = fieldvalue(L, s, i);
  lua_pushnil(L);                          /* refuse fields we do not have */
  while (lua_next(L, 2) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING)
      return luaL_argerror(L, 2, "field names must be strings");
    if (!knownkey(s, lua_tostring(L, -2)))
      return argerrorf(L, 2, "%s has no field '%s'", s->name,
                       lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  if (ids_compose(s, x, &v, &e) != IDS_OK) return luaL_argerror(L, 2, e.msg);
  for (int i = 0; i < s->nfields; i++) {   /* fields wider than 64 bits */
    const ids_field *f = &s->fields[i];
    if (f->bits > 64) {
      ids_value w = {{0, 0, 0}};
      lua_getfield(L, 2, f->name);
      ids_value_setbytes(&w, 0, (f->bits + 7u) / 8 * 8,
                         (const uint8_t *)lua_tostring(L, -1));
      if (!ids_value_fits(&w, f->bits))
        return argerrorf(L, 2, "field '%s' out of range: more than %d bits",
                         f->name, f->bits);
      ids_value_setbytes(&v, f->shift, f->bits,
                         (const uint8_t *)lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  pushid(L, s, &v);
  return 1;
}

static int s_decode (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  size_t n;
  const char *t = luaL_checklstring(L, 2, &n);
  const ids_codec *c = optcodec(L, s, 3);
  ids_value v;
  ids_error e;
  if (ids_decode(s, c, t, n, &v, &e) != IDS_OK) {
    lua_pushnil(L);
    lua_pushstring(L, e.msg);
    return 2;
  }
  pushid(L, s, &v);
  return 1;
}

static int s_from_bytes (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  size_t n;
  const char *b = luaL_checklstring(L, 2, &n);
  ids_value v;
  ids_error e;
  if (ids_from_bytes(s, (const uint8_t *)b, n, &v, &e) != IDS_OK) {
    lua_pushnil(L);
    lua_pushstring(L, e.msg);
    return 2;
  }
  pushid(L, s, &v);
  return 1;
}

static const char *const policies[] = {"hold", "error", NULL};
static const char *const genextra[] = {"policy", NULL};

static int s_generator (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  ids_optval opts[IDS_MAXOPTS];
  int policy = IDS_HOLD;
  ids_error e;
  lgen *g;
  readopts(L, 2, s->genopts, s->ngenopts, opts, genextra,
           "generator option");
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "policy");
    if (!lua_isnil(L, -1)) {
      const char *p = lua_tostring(L, -1);
      for (policy = 0; p && policies[policy]; policy++)
        if (strcmp(policies[policy], p) == 0) break;
      if (p == NULL || policies[policy] == NULL)
        return luaL_argerror(L, 2, "generator option 'policy' must be "
                             "'hold' or 'error'");
    }
    lua_pop(L, 1);
  }
  g = (lgen *)lua_newuserdatauv(L, sizeof *g, 0);
  if (ids_generator_init(&g->g, s, opts, (ids_policy)policy, NULL, &e)
      != IDS_OK)
    return luaL_argerror(L, 2, e.msg);
  lua_pushvalue(L, UV_GEN);
  lua_setmetatable(L, -2);
  return 1;
}

/* ------------------------------------------------------------ generator */

static int g_next (lua_State *L) {
  lgen *g = checkgen(L, 1);
  int64_t q = -1;
  ids_value v;
  ids_error e;
  if (!lua_isnoneornil(L, 2)) {            /* another qualifier, this once */
    size_t n;
    const char *name = luaL_checklstring(L, 2, &n);
    if ((q = ids_qualifier_value(g->g.s, name, n)) < 0)
      return argerrorf(L, 2, "unknown %s qualifier '%s'", g->g.s->name, name);
  }
  if (ids_next_as(&g->g, q, &v, &e) != IDS_OK)
    return luaL_error(L, "%s", e.msg);
  pushid(L, g->g.s, &v);
  return 1;
}

static int g_next_string (lua_State *L) {
  lgen *g = checkgen(L, 1);
  const ids_codec *c = optcodec(L, g->g.s, 2);
  char buf[IDS_TEXTMAX];
  ids_value v;
  ids_error e;
  if (ids_next(&g->g, &v, &e) != IDS_OK) return luaL_error(L, "%s", e.msg);
  lua_pushlstring(L, buf, ids_encode(g->g.s, c, &v, buf));
  return 1;
}

static int g_scheme (lua_State *L) {
  pushscheme(L, checkgen(L, 1)->g.s);
  return 1;
}

static int g_tostring (lua_State *L) {
  lgen *g = checkgen(L, 1);
  lua_pushfstring(L, "idscheme.generator: %s", g->g.s->name);
  return 1;
}

/* ------------------------------------------------------------------- id */

static int i_encode (lua_State *L) {
  lid *d = checkid(L, 1);
  const ids_codec *c = optcodec(L, d->s, 2);
  char buf[IDS_TEXTMAX];
  lua_pushlstring(L, buf, ids_encode(d->s, c, &d->v, buf));
  return 1;
}

static int i_fields (lua_State *L) {
  lid *d = checkid(L, 1);
  uint64_t x[IDS_MAXFIELDS];
  ids_decompose(d->s, &d->v, x);
  lua_createtable(L, 0, d->s->nfields);
  for (int i = 0; i < d->s->nfields; i++) {
    const ids_field *f = &d->s->fields[i];
    const char *q;
    if (f->kind == IDS_QUALIFIER && (q = ids_qualifier_name(d->s, x[i])))
      lua_pushstring(L, q);
    else if (f->bits > 64) {
      uint8_t b[IDS_MAXBYTES];
      ids_value_getbytes(&d->v, f->shift, f->bits, b);
      lua_pushlstring(L, (const char *)b, (f->bits + 7u) / 8);
    }
    else
      pushfield(L, x[i]);
    lua_setfield(L, -2, f->name);
  }
  return 1;
}

static int i_bytes (lua_State *L) {
  lid *d = checkid(L, 1);
  uint8_t b[IDS_MAXBYTES];
  ids_value_to_bytes(&d->v, b, d->s->bytes);
  lua_pushlstring(L, (const char *)b, d->s->bytes);
  return 1;
}

static int i_integer (lua_State *L) {
  lid *d = checkid(L, 1);
  if (d->s->bits > 64)
    return luaL_error(L, "%s ids are %d bits: no integer holds them",
                      d->s->name, (int)d->s->bits);
  pushu64(L, d->v.w[0], "the id");
  return 1;
}

static int i_scheme (lua_State *L) {
  pushscheme(L, checkid(L, 1)->s);
  return 1;
}

static int i_tostring (lua_State *L) {
  return i_encode(L);
}

static int i_eq (lua_State *L) {
  lid *a = checkid(L, 1), *b = checkid(L, 2);
  lua_pushboolean(L, a->s == b->s && ids_value_cmp(&a->v, &b->v) == 0);
  return 1;
}

static int compare (lua_State *L) {
  lid *a = checkid(L, 1), *b = checkid(L, 2);
  if (a->s != b->s)
    return luaL_error(L, "cannot order a %s id and a %s id", a->s->name,
                      b->s->name);
  return ids_value_cmp(&a->v, &b->v);
}

static int i_lt (lua_State *L) {
  lua_pushboolean(L, compare(L) < 0);
  return 1;
}

static int i_le (lua_State *L) {
  lua_pushboolean(L, compare(L) <= 0);
  return 1;
}

/* For LuaJIT's FFI (lua/idscheme/jit.lua): the next ID of a generator as
** text in its codec `ci` (-1: the default) without the Lua API, so that a
** compiled trace can call it.  0 leaves an error message in `out`. */
static size_t ffi_next_string (lgen *g, int ci, char *out) {
  const ids_codec *c = NULL;
  ids_value v;
  ids_error e;
  if (ci >= 0) {
    if (ci >= g->g.s->ncodecs) {
      snprintf(out, IDS_TEXTMAX, "no encoding %d", ci);
      return 0;
    }
    c = g->g.s->codecs[ci];
  }
  if (ids_next(&g->g, &v, &e) != IDS_OK) {
    snprintf(out, IDS_TEXTMAX, "%.*s", IDS_TEXTMAX - 1, e.msg);
    return 0;
  }
  return ids_encode(g->g.s, c, &v, out);
}

/* Where LuaJIT's FFI is, lua/idscheme/jit.lua (if installed) routes
** g:next_string() through ffi_next_string. */
static void jitpath (lua_State *L) {
#if IDS_HAVE_FFI
  lua_getglobal(L, "require");
  lua_pushliteral(L, "idscheme.jit");
  if (lua_pcall(L, 1, 1, 0) != 0 || !lua_isfunction(L, -1)) {
    lua_pop(L, 1);                       /* not installed: the C API path */
    return;
  }
  lua_pushlightuserdata(L, (void *)ffi_next_string);
  luaL_getmetatable(L, GEN_MT);
  lua_getfield(L, -1, "__index");
  lua_call(L, 3, 0);
#else
  (void)L;
  (void)ffi_next_string;
#endif
}

/* ---------------------------------------------------------------- open */

static const luaL_Reg scheme_methods[] = {
  {"compose", s_compose}, {"decode", s_decode},
  {"from_bytes", s_from_bytes}, {"generator", s_generator},
  {NULL, NULL}
};
static const luaL_Reg scheme_meta[] = {
  {"__tostring", s_tostring}, {NULL, NULL}
};
static const luaL_Reg gen_methods[] = {
  {"next", g_next}, {"next_string", g_next_string}, {"scheme", g_scheme},
  {NULL, NULL}
};
static const luaL_Reg gen_meta[] = {
  {"__tostring", g_tostring}, {NULL, NULL}
};
static const luaL_Reg id_methods[] = {
  {"encode", i_encode}, {"fields", i_fields}, {"bytes", i_bytes},
  {"integer", i_integer}, {"scheme", i_scheme}, {NULL, NULL}
};
static const luaL_Reg id_meta[] = {
  {"__tostring", i_tostring}, {"__eq", i_eq}, {"__lt", i_lt},
  {"__le", i_le}, {NULL, NULL}
};
static const luaL_Reg module_funcs[] = {
  {"list", l_list}, {"scheme", l_scheme}, {"define", l_define},
  {NULL, NULL}
};

/* Pushes the three metatables, the upvalues of every function. */
static void pushmetas (lua_State *L) {
  luaL_getmetatable(L, SCHEME_MT);
  luaL_getmetatable(L, GEN_MT);
  luaL_getmetatable(L, ID_MT);
}

/* Fills metatable `mt` with `meta`, and its __index with `methods`. */
static void fillmeta (lua_State *L, const char *mt, const luaL_Reg *meta,
                      const luaL_Reg *methods) {
  luaL_getmetatable(L, mt);
  pushmetas(L);
  luaL_setfuncs(L, meta, 3);
  lua_newtable(L);
  pushmetas(L);
  luaL_setfuncs(L, methods, 3);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

int ids_lua_compressor (lua_State *L);   /* lua/compressor.c */

#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
int luaopen_idscheme (lua_State *L) {
  if (ids_init() != IDS_OK) return luaL_error(L, "idscheme: init failed");
  luaL_newmetatable(L, SCHEME_MT);
  luaL_newmetatable(L, GEN_MT);
  luaL_newmetatable(L, ID_MT);
  lua_pop(L, 3);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, HANDLES);
  fillmeta(L, GEN_MT, gen_meta, gen_methods);
  fillmeta(L, ID_MT, id_meta, id_methods);
  /* scheme handles: __index looks in methods, then in the attributes */
  luaL_getmetatable(L, SCHEME_MT);
  pushmetas(L);
  luaL_setfuncs(L, scheme_meta, 3);
  pushmetas(L);
  lua_newtable(L);
  pushmetas(L);
  luaL_setfuncs(L, scheme_methods, 3);
  lua_pushcclosure(L, s_index, 4);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_newtable(L);
  pushmetas(L);
  luaL_setfuncs(L, module_funcs, 3);
  lua_pushliteral(L, IDS_VERSION);
  lua_setfield(L, -2, "_VERSION");
  ids_lua_compressor(L);
  lua_setfield(L, -2, "compressor");
  jitpath(L);
  return 1;
}
