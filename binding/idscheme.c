/*
** idscheme.c: the Lua binding.  It translates between Lua values and the
** C API of core/idscheme.h and holds no knowledge of any scheme.
**
** Three typed userdata: scheme handles, generators and ids, each a box
** (box.h) that a method knows without its metatable.  Every function gets
** their metatables as upvalues 1..3, to give them to new boxes without a
** registry lookup.
*/
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "box.h"
#include "idscheme.h"
#include "inspect.h"
#include "internal.h"   /* ids__decimal: the core is linked in */
#include "slots.h"

#define SCHEME_MT   "idscheme.scheme"
#define GEN_MT      "idscheme.generator"
#define ID_MT       "idscheme.id"
#define HANDLES     "idscheme.handles"   /* registry: lightuserdata -> handle */
#define INSPECTOR_MT "idscheme.inspector"
#define INSPECTOR   "idscheme.inspect"   /* registry: every scheme's inspector */
#define QUICK       "idscheme.new"       /* registry: name -> idscheme.new's
                                            generator of that scheme */

#define UV_SCHEME   lua_upvalueindex(1)
#define UV_GEN      lua_upvalueindex(2)
#define UV_ID       lua_upvalueindex(3)

typedef struct lscheme { ids_box box; const ids_scheme *s; } lscheme;
typedef struct lid { ids_box box; const ids_scheme *s; ids_value v; } lid;
/* the scheme beside its generator, so that hot paths need no call */
typedef struct lgen { ids_box box; const ids_scheme *s; ids_generator g; } lgen;

/* each box's type (box.h) */
#define SCHEME_TYPE 0x6964737363686d65ull       /* "idsschme" */
#define GEN_TYPE    0x69647367656e6572ull       /* "idsgener" */
#define ID_TYPE     0x696473696469645full       /* "idsidid_" */

/* ------------------------------------------------------------- helpers */

#define checkscheme(L, i) \
  ((lscheme *)ids_box_check(L, i, sizeof(lscheme), SCHEME_TYPE, SCHEME_MT))
#define checkgen(L, i) \
  ((lgen *)ids_box_check(L, i, sizeof(lgen), GEN_TYPE, GEN_MT))
#define checkid(L, i) \
  ((lid *)ids_box_check(L, i, sizeof(lid), ID_TYPE, ID_MT))
#define testid(L, i)  ((lid *)ids_box_test(L, i, sizeof(lid), ID_TYPE))

static lid *pushid (lua_State *L, const ids_scheme *s, const ids_value *v) {
  lid *d = (lid *)ids_box_new(L, sizeof *d, 0, ID_TYPE);
  d->s = s;
  d->v = *v;
  lua_pushvalue(L, UV_ID);
  lua_setmetatable(L, -2);
  return d;
}

/* Whether x survives a Lua number: always with 64-bit integers; where
** numbers are doubles, up to 2^53 included (2^53 itself is exact). */
#define FITSNUMBER(x) \
  (IDS_INT_EXACT_BITS >= 64 || (x) <= (uint64_t)1 << IDS_INT_EXACT_BITS % 64)

/* An unsigned 64-bit number as a Lua integer (wrapped above 2^63, as
** string.unpack does); where integers are doubles, an error above 2^53. */
static void pushu64 (lua_State *L, uint64_t x, const char *what) {
  if (!FITSNUMBER(x))
    luaL_error(L, "%s does not fit in a number without losing precision "
               "(use encode or bytes)", what);
  lua_pushinteger(L, (lua_Integer)x);
}

/* Raises unless s's IDs fit an integer (64 bits or fewer). */
static void narrow (lua_State *L, const ids_scheme *s) {
  if (s->bits > 64)
    luaL_error(L, "%s ids are %d bits: no integer holds them", s->name,
               (int)s->bits);
}

/* A field value: an integer, or a decimal string where numbers would lose
** precision (LuaJIT above 2^53). */
static void pushfield (lua_State *L, uint64_t x) {
  if (!FITSNUMBER(x)) {
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
    lua_pushstring(L, buf);
  }
  else
    lua_pushinteger(L, (lua_Integer)x);
}

/* The error of optcodec, out of its way. */
static int nocodec (lua_State *L, const ids_scheme *s, int arg) {
  return luaL_argerror(L, arg, lua_pushfstring(L, "unknown encoding '%s' "
                                               "for %s", ids_quote(L, arg),
                                               s->name));
}

/* Encoding named at `arg` (nil: NULL, the default), or an error.  The name
** is compared with its length: "hex\0x" is no encoding. */
static const ids_codec *optcodec (lua_State *L, const ids_scheme *s,
                                  int arg) {
  size_t len;
  const char *name;
  const ids_codec *c;
  if (lua_isnoneornil(L, arg)) return NULL;
  name = luaL_checklstring(L, arg, &len);
  if ((c = ids_codec_find(s, name, len)) == NULL) nocodec(L, s, arg);
  return c;
}

/* Reads the table at `arg` into o with lua_next: each key once, no
** __index.  The core checks names, types and ranges, and copies what it
** keeps; key and value stay on the stack while it reads them. */
static void readopts (lua_State *L, int arg, ids_options *o,
                      const char *what) {
  ids_error e;
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg) != 0) {
    size_t klen, n;
    const char *k;
    lua_Integer x;
    int r;
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_argerror(L, arg, lua_pushfstring(L, "%s names must be strings",
                                            what));
    k = lua_tolstring(L, -2, &klen);
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char *t = lua_tolstring(L, -1, &n);
      r = ids_options_set_string(o, k, klen, t, n, &e);
    }
    else if (ids_tointeger(L, -1, &x))
      r = ids_options_set_int(o, k, klen, (int64_t)x, &e);
    else {
      int v = lua_gettop(L);   /* the value; its key below (each push of
                                  ids_quote and ids_show moves the top) */
      const char *key = ids_quote(L, v - 1);
      luaL_argerror(L, arg, lua_pushfstring(L, "%s '%s' must be an integer "
                    "or a string, got %s", what, key, ids_show(L, v)));
      return;
    }
    if (r != IDS_OK) luaL_argerror(L, arg, e.msg);
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
    int timed = 0;
    lua_pop(L, 1);
    h = (lscheme *)ids_box_new(L, sizeof *h, 1, SCHEME_TYPE);
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
    lua_pushboolean(L, ids_scheme_ordered(s));
    lua_setfield(L, -2, "ordered");
    for (int i = 0; i < s->nfields; i++)   /* one time field (not KUID's) */
      timed += s->fields[i].kind == IDS_KIND_TIME;
    lua_createtable(L, s->nfields, 0);
    for (int i = 0; i < s->nfields; i++) {
      lua_createtable(L, 0, 3);
      lua_pushstring(L, s->fields[i].name);
      lua_setfield(L, -2, "name");
      lua_pushinteger(L, s->fields[i].bits);
      lua_setfield(L, -2, "bits");
      lua_pushstring(L, ids_field_kind(&s->fields[i]));
      lua_setfield(L, -2, "kind");
      if (s->fields[i].kind == IDS_KIND_TIME && timed == 1) {
        char u[32];                     /* as define takes them */
        ids_unit_name(s->unit, u, sizeof u);
        lua_pushstring(L, u);
        lua_setfield(L, -2, "unit");
        lua_pushinteger(L, (lua_Integer)s->epoch_ms);
        lua_setfield(L, -2, "epoch");
      }
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

static int l_scheme (lua_State *L) {
  size_t len;
  const char *name = luaL_checklstring(L, 1, &len);
  const ids_scheme *d, *s;
  ids_options params;
  ids_error e;
  if (strlen(name) != len)
    return luaL_argerror(L, 1, lua_pushfstring(L, "scheme name '%s' holds "
                                               "a NUL", ids_quote(L, 1)));
  if ((d = ids_scheme_find(name)) == NULL) {
    const ids_scheme *many[2];
    if (ids_scheme_answering(name, many, 2) > 1)
      return luaL_argerror(L, 1, lua_pushfstring(L, "'%s' names several "
                           "schemes (%s, %s, ...): name one", name,
                           many[0]->name, many[1]->name));
    return luaL_argerror(L, 1, lua_pushfstring(L, "unknown scheme '%s'",
                                               name));
  }
  ids_params_init(&params, d);
  readopts(L, 2, &params, "parameter");
  if ((s = ids_scheme_open(d, &params, &e)) == NULL)
    return luaL_argerror(L, 2, e.msg);
  pushscheme(L, s);
  return 1;
}

/* Every registered scheme's name, sorted (the registry keeps them so). */
static int l_list (lua_State *L) {
  /* the registry has no bound: count, then fill a userdata (collected
  ** even if making the table raises) */
  size_t n = ids_scheme_list(NULL, 0);
  const char **names = (const char **)lua_newuserdatauv(L, (n ? n : 1) *
                                                        sizeof *names, 0);
  ids_scheme_list(names, n);       /* never fewer: none is ever removed */
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushstring(L, names[i]);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* ------------------------------------------------------------- define */

/* Each key of the spec and of a field spec is read once, with lua_getfield
** (an __index may supply it), and every string read stays on the stack
** until ids_scheme_define returns: nothing else anchors what an __index made. */

/* `what` of a message: "spec" or "field N". */
static const char *defwhat (lua_State *L, int field) {
  return field ? lua_pushfstring(L, "field %d", field) : "spec";
}

/* Refuses the keys of table t (absolute) that `keys` does not list. */
static void onlykeys (lua_State *L, int t, const char *const *keys,
                      int field) {
  if (!ids_badkey(L, t, keys)) return;
  if (lua_type(L, -1) != LUA_TSTRING)
    luaL_error(L, "idscheme.define: %s: unknown key %s (keys are "
               "strings)", defwhat(L, field), ids_show(L, lua_gettop(L)));
  luaL_error(L, "idscheme.define: %s: unknown key '%s'",
             defwhat(L, field), ids_quote(L, lua_gettop(L)));
}

/* t[k], a string or nil, left on the stack; a NUL in it is an error. */
static const char *getstr (lua_State *L, int t, const char *k, int field) {
  size_t n;
  const char *s;
  luaL_checkstack(L, 4, NULL);
  if (lua_getfield(L, t, k) == LUA_TNIL) return NULL;
  if (lua_type(L, -1) != LUA_TSTRING)
    luaL_error(L, "idscheme.define: %s '%s' must be a string",
               defwhat(L, field), k);
  s = lua_tolstring(L, -1, &n);
  if (strlen(s) != n)
    luaL_error(L, "idscheme.define: %s '%s' holds a NUL: '%s'",
               defwhat(L, field), k, ids_quote(L, lua_gettop(L)));
  return s;
}

/* t[k], an integer (a float of integer value too), or dflt when nil. */
static long long getint (lua_State *L, int t, const char *k, long long dflt,
                         int field) {
  lua_Integer x = dflt;
  if (lua_getfield(L, t, k) != LUA_TNIL && !ids_tointeger(L, -1, &x))
    luaL_error(L, "idscheme.define: %s '%s' must be an integer, got %s",
               defwhat(L, field), k, ids_show(L, lua_gettop(L)));
  lua_pop(L, 1);
  return (long long)x;
}

/* spec.about into *a (its strings stay on the stack); 0 if there is none. */
static int getabout (lua_State *L, ids_about *a) {
  int t, n;
  luaL_checkstack(L, IDS_MAXALIASES + 8, NULL);
  if (lua_getfield(L, 1, "about") == LUA_TNIL) return 0;
  if (!lua_istable(L, -1))
    luaL_error(L, "idscheme.define: spec 'about' must be a table, got %s",
               ids_show(L, lua_gettop(L)));
  t = lua_gettop(L);
  if (ids_badkey(L, t, ids_define_about_keys))
    luaL_error(L, "idscheme.define: about: unknown key %s",
               ids_show(L, lua_gettop(L)));
  a->title = getstr(L, t, "title", 0);
  a->note = getstr(L, t, "note", 0);
  a->since_ms = (int64_t)getint(L, t, "since", 0, 0);
  if (lua_getfield(L, t, "lengths") != LUA_TNIL) {   /* {min, max} */
    int ok = lua_istable(L, -1) && lua_rawlen(L, -1) == 2;
    for (int i = 0; ok && i < 2; i++) {
      lua_Integer x;
      lua_rawgeti(L, -1, i + 1);
      x = lua_tointegerx(L, -1, &ok);
      ok = ok && x >= 1 && x < IDS_TEXTMAX;
      if (ok) a->lengths[i] = (uint8_t)x;
      lua_pop(L, 1);
    }
    if (!ok)
      luaL_error(L, "idscheme.define: about.lengths must be {min, max}, "
                 "integers 1..%d, got %s", IDS_TEXTMAX - 1,
                 ids_show(L, lua_gettop(L)));
  }
  lua_pop(L, 1);
  if (lua_getfield(L, t, "aliases") == LUA_TNIL) return 1;
  n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : -1;
  if (n < 0 || n > IDS_MAXALIASES)
    luaL_error(L, "idscheme.define: about.aliases must be a list of at most "
               "%d names", IDS_MAXALIASES);
  t = lua_gettop(L);
  for (int i = 0; i < n; i++) {
    size_t len;
    lua_rawgeti(L, t, i + 1);                  /* stays on the stack */
    if (lua_type(L, -1) != LUA_TSTRING ||
        strlen(a->aliases[i] = lua_tolstring(L, -1, &len)) != len)
      luaL_error(L, "idscheme.define: about.aliases[%d] must be a name, got "
                 "%s", i + 1, ids_show(L, lua_gettop(L)));
  }
  return 1;
}

static int l_define (lua_State *L) {
  ids_fieldspec fs[IDS_MAXFIELDS];
  const char *encs[IDS_MAXCODECS];
  ids_defspec sp;
  ids_about about;
  const ids_scheme *s;
  ids_error e;
  int n, t;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  onlykeys(L, 1, ids_define_keys, 0);
  memset(&sp, 0, sizeof sp);
  memset(&about, 0, sizeof about);
  if (getabout(L, &about)) sp.about = &about;
  sp.name = getstr(L, 1, "name", 0);
  sp.default_encoding = getstr(L, 1, "default_encoding", 0);
  sp.bytes = getint(L, 1, "bytes", 0, 0);
  if (lua_getfield(L, 1, "fields") != LUA_TTABLE)
    return luaL_error(L, "idscheme.define: scheme '%s': 'fields' must be a "
                      "table", sp.name ? sp.name : "?");
  t = lua_gettop(L);
  n = (int)lua_rawlen(L, t);
  if (n > IDS_MAXFIELDS)
    return luaL_error(L, "idscheme.define: scheme '%s': more than %d fields",
                      sp.name ? sp.name : "?", IDS_MAXFIELDS);
  for (int i = 0; i < n; i++) {
    int f;
    luaL_checkstack(L, 8, NULL);
    if (lua_rawgeti(L, t, i + 1), !lua_istable(L, -1))
      return luaL_error(L, "idscheme.define: field %d must be a table", i + 1);
    f = lua_gettop(L);                     /* the field spec stays too */
    onlykeys(L, f, ids_define_field_keys, i + 1);
    fs[i].name = getstr(L, f, "name", i + 1);
    fs[i].kind = getstr(L, f, "kind", i + 1);
    fs[i].unit = getstr(L, f, "unit", i + 1);
    fs[i].bits = getint(L, f, "bits", 0, i + 1);
    fs[i].epoch_ms = (int64_t)getint(L, f, "epoch", 0, i + 1);
    fs[i].value = (uint64_t)getint(L, f, "value", 0, i + 1);
    fs[i].order = getstr(L, f, "order", i + 1);
  }
  sp.fields = fs;
  sp.nfields = n;
  /* no encodings: the core's default */
  if ((t = lua_getfield(L, 1, "encodings")) != LUA_TNIL) {
    if (t != LUA_TTABLE)
      return luaL_error(L, "idscheme.define: scheme '%s': 'encodings' must "
                        "be a table", sp.name ? sp.name : "?");
    t = lua_gettop(L);
    n = (int)lua_rawlen(L, t);
    if (n > IDS_MAXCODECS)
      return luaL_error(L, "idscheme.define: more than %d encodings",
                        IDS_MAXCODECS);
    luaL_checkstack(L, n + 4, NULL);
    for (int i = 0; i < n; i++) {
      size_t len;
      lua_rawgeti(L, t, i + 1);            /* stays on the stack */
      if (lua_type(L, -1) != LUA_TSTRING)
        return luaL_error(L, "idscheme.define: encodings[%d] must be a "
                          "string", i + 1);
      encs[i] = lua_tolstring(L, -1, &len);
      if (strlen(encs[i]) != len)
        return luaL_error(L, "idscheme.define: encodings[%d] holds a NUL: "
                          "'%s'", i + 1, ids_quote(L, lua_gettop(L)));
    }
    sp.encodings = encs;
    sp.nencodings = n;
  }
  if (ids_scheme_define(&sp, &s, &e) != IDS_OK)
    return luaL_error(L, "idscheme.define: %s", e.msg);
  pushscheme(L, s);
  return 1;
}

/* Pushes a copy of the table at absolute index t, nested tables copied
** too. */
static void pushcopy (lua_State *L, int t) {
  luaL_checkstack(L, 6, NULL);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    if (lua_type(L, -1) == LUA_TTABLE) {
      pushcopy(L, lua_gettop(L));
      lua_replace(L, -2);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

/* s.name and friends come from the attribute table, methods first.  A
** table (fields, encodings) is handed out as a fresh copy: the caller may
** change it, and nothing of the module reads it. */
static int s_index (lua_State *L) {
  checkscheme(L, 1);
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(4));      /* methods */
  if (!lua_isnil(L, -1)) return 1;
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TTABLE) pushcopy(L, lua_gettop(L));
  return 1;
}

static int s_tostring (lua_State *L) {
  lscheme *h = checkscheme(L, 1);
  lua_pushfstring(L, "idscheme.scheme: %s", h->s->name);
  return 1;
}

/* Field k (klen bytes) = the value on the stack top, into the core:
** integers as such; strings as a wide field's bytes, or as a qualifier's
** or a hashed name (and, where numbers are doubles, as decimal numbers,
** the way fields() gives them). */
static void setfield (lua_State *L, ids_fields *f, const ids_scheme *s,
                      const char *k, size_t klen) {
  ids_error e;
  size_t n;
  lua_Integer x;
  int r, i;
  for (i = 0; i < s->nfields && !ids_keyis(s->fields[i].name, k, klen); i++) ;
  if (lua_type(L, -1) == LUA_TSTRING) {
    const char *t = lua_tolstring(L, -1, &n);
    r = i < s->nfields && s->fields[i].bits > 64 ?
        ids_fields_set_bytes(f, k, klen, (const uint8_t *)t, n, &e) :
        IDS_INT_EXACT_BITS < 64 ? ids_fields_set_text(f, k, klen, t, n, &e) :
        ids_fields_set_string(f, k, klen, t, n, &e);
  }
  else if (i < s->nfields && s->fields[i].kind == IDS_KIND_QUALIFIER) {
    luaL_argerror(L, 2, lua_pushfstring(L, "field '%s' must name a %s type",
                                        s->fields[i].name, s->name));
    return;
  }
  else if (ids_tointeger(L, -1, &x))
    r = ids_fields_set_int(f, k, klen, (int64_t)x, &e);
  else {
    int v = lua_gettop(L);
    lua_pushlstring(L, k, klen);
    luaL_argerror(L, 2, lua_pushfstring(L, "field '%s' must be an integer, "
                  "got %s", ids_quote(L, v + 1), ids_show(L, v)));
    return;
  }
  if (r != IDS_OK) luaL_argerror(L, 2, e.msg);
}

/* Each key is read once, and each value is in the core (which keeps what
** it checked) before the next read can run Lua code: first every key the
** table holds (lua_next, no __index), then, through __index, the names
** of fields it does not hold. */
static int s_compose (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  ids_fields f;
  ids_value v;
  ids_error e;
  luaL_checktype(L, 2, LUA_TTABLE);
  ids_fields_init(&f, s);
  lua_settop(L, 2);
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    size_t klen;
    const char *k;
    if (lua_type(L, -2) != LUA_TSTRING)
      return luaL_argerror(L, 2, "field names must be strings");
    k = lua_tolstring(L, -2, &klen);
    setfield(L, &f, s, k, klen);
    lua_pop(L, 1);
  }
  for (int i = 0; i < 2 * s->nfields; i++) {
    const char *k = i % 2 ? s->fields[i / 2].from : s->fields[i / 2].name;
    if (k == NULL) continue;
    lua_pushstring(L, k);
    lua_rawget(L, 2);                      /* held: set above */
    if (lua_isnil(L, -1)) {
      lua_getfield(L, 2, k);
      if (!lua_isnil(L, -1)) setfield(L, &f, s, k, strlen(k));
    }
    lua_settop(L, 2);
  }
  if (ids_fields_compose(&f, &v, &e) != IDS_OK)
    return luaL_argerror(L, 2, e.msg);
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
  if (ids_scheme_decode(s, c, t, n, &v, &e) != IDS_OK) {
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
  if (ids_scheme_from_bytes(s, (const uint8_t *)b, n, &v, &e) != IDS_OK) {
    lua_pushnil(L);
    lua_pushstring(L, e.msg);
    return 2;
  }
  pushid(L, s, &v);
  return 1;
}

/* s:from_integer(x): the ID whose value is x (schemes of 64 bits or
** fewer): an integer (Lua 5.4: all 64 bits, as id:integer() gives them),
** or a decimal string (exact under LuaJIT too; idscheme.jit adds int64
** cdata); nil, message for a value that is no ID of the scheme. */
static int s_from_integer (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  uint8_t b[8];
  uint64_t x;
  lua_Integer i;
  ids_value v;
  ids_error e;
  narrow(L, s);
  if (lua_type(L, 2) == LUA_TSTRING) {
    size_t n;
    const char *t = lua_tolstring(L, 2, &n);
    if (ids__decimal(t, n, UINT64_MAX, &x) != IDS_OK)
      return luaL_argerror(L, 2, lua_pushfstring(L, "'%s' is not a decimal "
                           "integer of 64 bits", ids_quote(L, 2)));
  }
  else if (ids_tointeger(L, 2, &i)) {
    if (i < 0 && (IDS_INT_EXACT_BITS < 64 || s->bits < 64))
      return luaL_argerror(L, 2, "negative");
    x = (uint64_t)i;
  }
  else
    return luaL_argerror(L, 2, lua_pushfstring(L, "an integer or a decimal "
                         "string expected, got %s", ids_show(L, 2)));
  for (int k = 0; k < (int)s->bytes; k++)
    b[s->bytes - 1 - k] = (uint8_t)(x >> 8 * k);
  if ((s->bytes < 8 && x >> 8 * s->bytes) ||
      ids_scheme_from_bytes(s, b, s->bytes, &v, &e) != IDS_OK) {
    lua_pushnil(L);
    if (s->bytes < 8 && x >> 8 * s->bytes)
      lua_pushfstring(L, "%s: the value does not fit in %d bits", s->name,
                      (int)s->bits);
    else lua_pushstring(L, e.msg);
    return 2;
  }
  pushid(L, s, &v);
  return 1;
}

static int s_generator (lua_State *L) {
  const ids_scheme *s = checkscheme(L, 1)->s;
  ids_options o;
  ids_error e;
  lgen *g;
  ids_options_init(&o, s);
  readopts(L, 2, &o, "generator option");
  g = (lgen *)ids_box_new(L, sizeof *g, 0, GEN_TYPE);
  g->s = s;
  if (ids_generator_init(&g->g, s, &o, NULL, &e) != IDS_OK)
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
    if ((q = ids_scheme_qualifier(g->s, name, n)) < 0)
      return luaL_argerror(L, 2, lua_pushfstring(L, "unknown %s qualifier "
                           "'%s'", g->s->name, ids_quote(L, 2)));
  }
  if (ids_generator_next_as(&g->g, q, &v, &e) != IDS_OK)
    return luaL_error(L, "%s", e.msg);
  pushid(L, g->s, &v);
  return 1;
}

/* g:next_at(unix_ms) --> an ID whose time is that (docs/API.md) */
static int g_next_at (lua_State *L) {
  lgen *g = checkgen(L, 1);
  lua_Integer ms = ids_checkinteger(L, 2);
  ids_value v;
  ids_error e;
  if (ids_generator_next_at(&g->g, (int64_t)ms, &v, &e) != IDS_OK)
    return luaL_error(L, "%s", e.msg);
  pushid(L, g->s, &v);
  return 1;
}

static int g_next_string (lua_State *L) {
  lgen *g = checkgen(L, 1);
  const ids_codec *c = optcodec(L, g->s, 2);
  char buf[IDS_TEXTMAX];
  ids_value v;
  ids_error e;
  if (ids_generator_next(&g->g, &v, &e) != IDS_OK) return luaL_error(L, "%s", e.msg);
  lua_pushlstring(L, buf, ids_scheme_encode(g->s, c, &v, buf));
  return 1;
}

/* g:next_batch(n) / g:next_strings(n [, encoding]): an array of the next
** n IDs, or of their texts, taken from the core a block at a time. */
#define BATCH 256

static int batch (lua_State *L, int strings) {
  lgen *g = checkgen(L, 1);
  lua_Integer n = ids_checkinteger(L, 2);
  const ids_codec *c = strings ? optcodec(L, g->s, 3) : NULL;
  ids_value v[BATCH];
  ids_error e;
  luaL_argcheck(L, n >= 0 && n <= INT_MAX - 1, 2, "count out of range");
  lua_createtable(L, (int)n, 0);
  for (lua_Integer i = 0; i < n; ) {
    size_t k = n - i < BATCH ? (size_t)(n - i) : BATCH;
    if (ids_generator_next_n(&g->g, v, k, &e) != IDS_OK)
      return luaL_error(L, "%s", e.msg);
    for (size_t j = 0; j < k; j++) {
      if (strings) {
        char buf[IDS_TEXTMAX];
        lua_pushlstring(L, buf, ids_scheme_encode(g->s, c, &v[j], buf));
      }
      else pushid(L, g->s, &v[j]);
      lua_rawseti(L, -2, ++i);
    }
  }
  return 1;
}

static int g_next_batch (lua_State *L) { return batch(L, 0); }
static int g_next_strings (lua_State *L) { return batch(L, 1); }

/* g:slot() --> the slot number and its store's kind, or nil */
static int g_slot (lua_State *L) {
  lgen *g = checkgen(L, 1);
  uint32_t n;
  const char *store;
  if (!ids_generator_slot(&g->g, &n, &store)) return 0;
  lua_pushinteger(L, (lua_Integer)n);
  lua_pushstring(L, store);
  return 2;
}

static void setint (lua_State *L, const char *k, int64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

/* g:lease() --> a table of the lease's state, or nil without a slot:
**   slot, backend, store, valid, limit_ms, floor_ms (Unix ms), ttl_ms,
**   margin_ms, renewals, failures, losses, last_renewal_ms (Unix ms),
**   caution: what the last claim warned of (a slot skipped for a corrupt
**   record or a planted file, a store setting that may cost waits) or
**   nil, and log: the lines kept since the last call (option slot_log = "keep"),
**   oldest first, so that OpenResty can hand them to ngx.log */
static int g_lease (lua_State *L) {
  lgen *g = checkgen(L, 1);
  ids_lease_info li;
  char line[400];
  int i = 0;
  if (!ids_generator_lease(&g->g, &li)) return 0;
  lua_createtable(L, 0, 14);
  setint(L, "slot", li.number);
  lua_pushstring(L, li.backend);
  lua_setfield(L, -2, "backend");
  lua_pushstring(L, li.store);
  lua_setfield(L, -2, "store");
  lua_pushboolean(L, li.limit_ns != 0);
  lua_setfield(L, -2, "valid");
  setint(L, "limit_ms", li.limit_ns / 1000000);
  setint(L, "floor_ms", li.floor_ns / 1000000);
  setint(L, "ttl_ms", li.st.ttl_ns / 1000000);
  setint(L, "margin_ms", li.st.margin_ns / 1000000);
  setint(L, "renewals", (int64_t)li.st.renewals);
  setint(L, "failures", (int64_t)li.st.failures);
  setint(L, "losses", (int64_t)li.st.losses);
  setint(L, "last_renewal_ms", li.st.last_send_ns / 1000000);
  if (li.caution[0]) {
    lua_pushstring(L, li.caution);
    lua_setfield(L, -2, "caution");
  }
  lua_newtable(L);
  while (ids_generator_lease_log(&g->g, line, sizeof line)) {
    lua_pushstring(L, line);
    lua_rawseti(L, -2, ++i);
  }
  lua_setfield(L, -2, "log");
  return 1;
}

/* g:close(): releases the slot (also __gc and __close) */
static int g_close (lua_State *L) {
  ids_generator_close(&checkgen(L, 1)->g);
  return 0;
}

static int g_scheme (lua_State *L) {
  pushscheme(L, checkgen(L, 1)->s);
  return 1;
}

static int g_tostring (lua_State *L) {
  lgen *g = checkgen(L, 1);
  lua_pushfstring(L, "idscheme.generator: %s", g->s->name);
  return 1;
}

/* ------------------------------------------------------------------- id */

static int i_encode (lua_State *L) {
  lid *d = checkid(L, 1);
  const ids_codec *c = optcodec(L, d->s, 2);
  char buf[IDS_TEXTMAX];
  lua_pushlstring(L, buf, ids_scheme_encode(d->s, c, &d->v, buf));
  return 1;
}

/* Pushes the fields of v as a table: name -> integer, a qualifier's name,
** or a wide field's bytes. */
static void pushfields (lua_State *L, const ids_scheme *s,
                        const ids_value *v) {
  uint64_t x[IDS_MAXFIELDS];
  ids_scheme_decompose(s, v, x);
  lua_createtable(L, 0, s->nfields);
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    const char *q;
    if (f->kind == IDS_KIND_QUALIFIER && (q = ids_scheme_qualifier_name(s, x[i])))
      lua_pushstring(L, q);
    else if (f->bits > 64) {
      uint8_t b[IDS_MAXBYTES];
      ids_value_getbytes(v, f->shift, f->bits, b);
      lua_pushlstring(L, (const char *)b, (f->bits + 7u) / 8);
    }
    else
      pushfield(L, x[i]);
    lua_setfield(L, -2, f->name);
  }
}

static int i_fields (lua_State *L) {
  lid *d = checkid(L, 1);
  pushfields(L, d->s, &d->v);
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
  narrow(L, d->s);
  pushu64(L, d->v.w[0], "the id");
  return 1;
}

/* The Unix ms of the id's time (floored) and the ns past that ms
** (0..999999: UUIDv1's 100 ns, kuid96's us); nothing for none. */
static int i_time (lua_State *L) {
  lid *d = checkid(L, 1);
  int64_t sec;
  int32_t nsec;
  if (!ids_scheme_time(d->s, &d->v, &sec, &nsec)) return 0;
  if (sec > INT64_MAX / 1000 - 1 || sec < INT64_MIN / 1000 + 1)
    return 0;                                    /* past int64 ms */
  lua_pushinteger(L, (lua_Integer)(sec * 1000 + nsec / 1000000));
  lua_pushinteger(L, nsec % 1000000);
  return 2;
}

/* id:int64(): the value as an integer of 64 bits (schemes of 64 bits or
** fewer).  Lua 5.4: its integer (past 2^63 negative, as integer() gives
** it); LuaJIT: idscheme.jit gives a uint64_t cdata (lua-resty-mysql's way
** for BIGINT), and without the FFI this raises. */
static int i_int64 (lua_State *L) {
  lid *d = checkid(L, 1);
  narrow(L, d->s);
  if (IDS_INT_EXACT_BITS < 64)
    return luaL_error(L, "id:int64() needs LuaJIT's FFI (idscheme.jit)");
  lua_pushinteger(L, (lua_Integer)d->v.w[0]);
  return 1;
}

static int i_scheme (lua_State *L) {
  pushscheme(L, checkid(L, 1)->s);
  return 1;
}

static int i_tostring (lua_State *L) {
  return i_encode(L);
}

/* Lua calls __eq for any two userdata: an id is not equal to a scheme
** handle or a file, and that is no error. */
static int i_eq (lua_State *L) {
  lid *a = testid(L, 1), *b = testid(L, 2);
  lua_pushboolean(L, a != NULL && b != NULL && a->s == b->s &&
                  ids_value_cmp(&a->v, &b->v) == 0);
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
** compiled trace can call it.  0 leaves the whole error message in `err`
** (IDS_ERRMAX bytes). */
static size_t ffi_next_string (lgen *g, int ci, char *out, char *err) {
  const ids_codec *c = NULL;
  ids_value v;
  ids_error e;
  /* jit.lua hands over only what a classic method took for a generator;
  ** the box's own check stays, as every method's (box.h) */
  if (g->box.self != &g->box || g->box.type != GEN_TYPE) {
    snprintf(err, IDS_ERRMAX, "next_string: idscheme.generator expected");
    return 0;
  }
  if (ci >= 0) {
    if (ci >= g->s->ncodecs) {
      snprintf(err, IDS_ERRMAX, "no encoding %d", ci);
      return 0;
    }
    c = g->s->codecs[ci];
  }
  if (ids_generator_next(&g->g, &v, &e) != IDS_OK) {
    snprintf(err, IDS_ERRMAX, "%s", e.msg);
    return 0;
  }
  return ids_scheme_encode(g->s, c, &v, out);
}

/* For jit.lua: the index of generator g's codec named name (len bytes),
** or -1.  From the core, never from the table s.encodings hands out. */
static int ffi_codec_index (lgen *g, const char *name, size_t len) {
  const ids_codec *c;
  if (g->box.self != &g->box || g->box.type != GEN_TYPE) return -1;
  c = ids_codec_find(g->s, name, len);
  for (int i = 0; c != NULL && i < g->s->ncodecs; i++)
    if (g->s->codecs[i] == c) return i;
  return -1;
}

double ids_lua_idc_generate_ffi (void *b, char *err);   /* compressor.c */

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
  lua_createtable(L, 0, 8);
  lua_pushlightuserdata(L, (void *)ffi_next_string);
  lua_setfield(L, -2, "next_string");
  luaL_getmetatable(L, GEN_MT);
  lua_setfield(L, -2, "genmt");
  luaL_getmetatable(L, GEN_MT);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, "genmethods");
  lua_pop(L, 1);
  luaL_getmetatable(L, ID_MT);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, "idmethods");
  lua_pop(L, 1);
  luaL_getmetatable(L, SCHEME_MT);           /* methods: s_index's 4th */
  lua_getfield(L, -1, "__index");
  lua_getupvalue(L, -1, 4);
  lua_setfield(L, -4, "schememethods");
  lua_pop(L, 2);
  lua_pushlightuserdata(L, (void *)ffi_codec_index);
  lua_setfield(L, -2, "codec_index");
  lua_pushlightuserdata(L, (void *)ids_lua_idc_generate_ffi);
  lua_setfield(L, -2, "idc_generate");
  luaL_getmetatable(L, "idscheme.compressor");
  lua_setfield(L, -2, "idcmt");
  lua_pushinteger(L, IDS_TEXTMAX);
  lua_setfield(L, -2, "textmax");
  lua_pushinteger(L, IDS_ERRMAX);
  lua_setfield(L, -2, "errmax");
  lua_call(L, 1, 0);
#else
  (void)L;
  (void)ffi_next_string;
  (void)ffi_codec_index;
  (void)ids_lua_idc_generate_ffi;
#endif
}

/* ------------------------------------------------------------- inspect */

/* An inspector in a userdata, freed when collected (an error between its
** making and its use leaks nothing).  The one over every scheme is kept
** in the registry and made again when the registry has grown. */
typedef struct linspector { ids_inspector *ins; size_t nschemes; } linspector;

static int ins_gc (lua_State *L) {
  linspector *p = (linspector *)luaL_checkudata(L, 1, INSPECTOR_MT);
  ids_inspector_free(p->ins);
  p->ins = NULL;
  return 0;
}

static linspector *newinspector (lua_State *L, const ids_scheme *const *s,
                                 size_t n) {
  linspector *p = (linspector *)lua_newuserdatauv(L, sizeof *p, 0);
  ids_error e;
  p->ins = NULL;
  p->nschemes = s ? n : ids_scheme_list(NULL, 0);
  luaL_getmetatable(L, INSPECTOR_MT);
  lua_setmetatable(L, -2);
  if ((p->ins = ids_inspector_new(s, n, &e)) == NULL)
    luaL_error(L, "idscheme.inspect: %s", e.msg);
  return p;
}

/* The inspector of every registered scheme (as the command's inspect
** without -s), made again when the registry grew. */
static const ids_inspector *everyscheme (lua_State *L) {
  linspector *p;
  lua_getfield(L, LUA_REGISTRYINDEX, INSPECTOR);
  p = (linspector *)luaL_testudata(L, -1, INSPECTOR_MT);
  if (p == NULL || p->nschemes != ids_scheme_list(NULL, 0)) {
    lua_pop(L, 1);
    p = newinspector(L, NULL, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, INSPECTOR);
  }
  return p->ins;             /* anchored at the top of the stack */
}

static const char *const inspectkeys[] = { "scheme", "encoding", NULL };

/* idscheme.inspect(text [, {scheme = NAME or handle, encoding = NAME}]):
** the readings of text, best first, each a table {scheme, encoding, id,
** fields, time_ms, marked, plausible, constbits, confirmed, unique,
** ambiguous, refused, weak, evidence, marks, rank, note, why}
** (inspect.h's ids_candidate; why: ids_inspect_why's words, where it
** has any); none: an empty list and why. */
static int l_inspect (lua_State *L) {
  size_t n, enclen = 0;
  const char *t = luaL_checklstring(L, 1, &n), *enc = NULL;
  const ids_inspector *ins;
  ids_candidate cs[IDS_INSPECT_MAX];
  ids_error e;
  int nc;
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    if (ids_badkey(L, 2, inspectkeys)) {
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_argerror(L, 2, lua_pushfstring(L, "unknown option %s (options "
                      "are strings)", ids_show(L, lua_gettop(L))));
      luaL_argerror(L, 2, lua_pushfstring(L, "unknown option '%s'",
                                          ids_quote(L, lua_gettop(L))));
    }
    lua_getfield(L, 2, "encoding");             /* 3 */
    if (!lua_isnil(L, 3)) {
      if (lua_type(L, 3) != LUA_TSTRING)
        luaL_argerror(L, 2, lua_pushfstring(L, "encoding must be a string, "
                                            "got %s", ids_show(L, 3)));
      enc = lua_tolstring(L, 3, &enclen);
    }
    lua_getfield(L, 2, "scheme");               /* 4 */
  }
  else lua_pushnil(L), lua_pushnil(L);
  if (lua_isnil(L, 4)) ins = everyscheme(L);
  else {
    const ids_scheme *s;
    lscheme *h = (lscheme *)ids_box_test(L, 4, sizeof(lscheme), SCHEME_TYPE);
    if (h) s = h->s;
    else if (lua_type(L, 4) == LUA_TSTRING) {
      const ids_scheme *d;
      size_t len;
      const char *name = lua_tolstring(L, 4, &len);
      if (strlen(name) != len || (d = ids_scheme_find(name)) == NULL)
        return luaL_argerror(L, 2, lua_pushfstring(L, "unknown scheme '%s'",
                                                   ids_quote(L, 4)));
      if ((s = ids_scheme_open(d, NULL, &e)) == NULL)
        return luaL_argerror(L, 2, e.msg);
    }
    else
      return luaL_argerror(L, 2, lua_pushfstring(L, "scheme must be a name "
                           "or a scheme, got %s", ids_show(L, 4)));
    ins = newinspector(L, &s, 1)->ins;
  }
  if (enc && ids_inspector_encoding(ins, enc, enclen, &e) != IDS_OK)
    return luaL_argerror(L, 2, e.msg);
  nc = ids_inspect(ins, t, n, enc, enclen,
                   ids_clock_realtime.now(ids_clock_realtime.ctx) / 1000000,
                   cs, IDS_INSPECT_MAX, &e);
  lua_createtable(L, nc, 0);
  for (int i = 0; i < nc; i++) {
    lua_createtable(L, 0, 18);
    lua_pushstring(L, cs[i].scheme->name);
    lua_setfield(L, -2, "scheme");
    lua_pushstring(L, cs[i].codec->name);
    lua_setfield(L, -2, "encoding");
    if (cs[i].length) {         /* another size (nanoid(10)): no value */
      lua_pushinteger(L, cs[i].length);
      lua_setfield(L, -2, "length");
    }
    else {
      pushid(L, cs[i].scheme, &cs[i].value);
      lua_setfield(L, -2, "id");
      pushfields(L, cs[i].scheme, &cs[i].value);
      lua_setfield(L, -2, "fields");
    }
    if (cs[i].has_time) {              /* before 1970 for UUIDv1's 1582 */
      if (cs[i].time_ms >= 0) pushfield(L, (uint64_t)cs[i].time_ms);
      else lua_pushinteger(L, (lua_Integer)cs[i].time_ms);
      lua_setfield(L, -2, "time_ms");
    }
    lua_pushboolean(L, cs[i].marked);
    lua_setfield(L, -2, "marked");
    lua_pushboolean(L, cs[i].plausible);
    lua_setfield(L, -2, "plausible");
    lua_pushinteger(L, cs[i].constbits);
    lua_setfield(L, -2, "constbits");
    lua_pushboolean(L, cs[i].confirmed);
    lua_setfield(L, -2, "confirmed");
    lua_pushboolean(L, cs[i].unique);
    lua_setfield(L, -2, "unique");
    lua_pushboolean(L, cs[i].ambiguous);
    lua_setfield(L, -2, "ambiguous");
    lua_pushboolean(L, cs[i].refused);
    lua_setfield(L, -2, "refused");
    lua_pushboolean(L, cs[i].weak);
    lua_setfield(L, -2, "weak");
    lua_pushnumber(L, cs[i].evidence);
    lua_setfield(L, -2, "evidence");
    lua_pushnumber(L, cs[i].marks);
    lua_setfield(L, -2, "marks");
    lua_pushnumber(L, cs[i].rank);
    lua_setfield(L, -2, "rank");
    if (cs[i].note) {
      lua_pushstring(L, cs[i].note);
      lua_setfield(L, -2, "note");
    }
    if (cs[i].refused || cs[i].weak || cs[i].note) {
      char why[IDS_ERRMAX];
      ids_inspect_why(&cs[i], why, sizeof why);
      lua_pushstring(L, why);
      lua_setfield(L, -2, "why");
    }
    lua_rawseti(L, -2, i + 1);
  }
  if (nc > 0) return 1;
  lua_pushstring(L, e.msg);
  return 2;
}

/* ---------------------------------------------------------------- open */

static const luaL_Reg scheme_methods[] = {
  {"compose", s_compose}, {"decode", s_decode},
  {"from_bytes", s_from_bytes}, {"from_integer", s_from_integer},
  {"generator", s_generator},
  {NULL, NULL}
};
static const luaL_Reg scheme_meta[] = {
  {"__tostring", s_tostring}, {NULL, NULL}
};
static const luaL_Reg gen_methods[] = {
  {"next", g_next}, {"next_at", g_next_at}, {"next_string", g_next_string},
  {"next_batch", g_next_batch}, {"next_strings", g_next_strings}, {"scheme", g_scheme},
  {"slot", g_slot}, {"lease", g_lease}, {"close", g_close},
  {NULL, NULL}
};
static const luaL_Reg gen_meta[] = {
  {"__tostring", g_tostring}, {"__gc", g_close}, {"__close", g_close},
  {NULL, NULL}
};
static const luaL_Reg id_methods[] = {
  {"encode", i_encode}, {"fields", i_fields}, {"bytes", i_bytes},
  {"integer", i_integer}, {"int64", i_int64}, {"time", i_time},
  {"scheme", i_scheme},
  {NULL, NULL}
};
static const luaL_Reg id_meta[] = {
  {"__tostring", i_tostring}, {"__eq", i_eq}, {"__lt", i_lt},
  {"__le", i_le}, {NULL, NULL}
};
/* ------------------------------------------------------- short path */

/* The scheme named by argument i (a name, default parameters; or a
** handle). */
static const ids_scheme *namedscheme (lua_State *L, int i) {
  lscheme *h = (lscheme *)ids_box_test(L, i, sizeof(lscheme), SCHEME_TYPE);
  const ids_scheme *d, *s;
  const char *name;
  size_t len;
  ids_error e;
  if (h) return h->s;
  if (lua_type(L, i) != LUA_TSTRING)
    luaL_argerror(L, i, lua_pushfstring(L, "a scheme name or handle "
                  "expected, got %s", ids_show(L, i)));
  name = lua_tolstring(L, i, &len);
  if (strlen(name) != len || (d = ids_scheme_find(name)) == NULL)
    luaL_argerror(L, i, lua_pushfstring(L, "unknown scheme '%s'",
                                        ids_quote(L, i)));
  if ((s = ids_scheme_open(d, NULL, &e)) == NULL) luaL_argerror(L, i, e.msg);
  return s;
}

/* idscheme.new(scheme [, encoding]): one new ID's text, for scripts.  The
** generator is the module's own for that scheme (default options), made
** on first use and kept, so that a node slot is leased once and IDs of
** one scheme never repeat across calls. */
static int l_new (lua_State *L) {
  const ids_scheme *s = namedscheme(L, 1);
  const ids_codec *c = optcodec(L, s, 2);
  char buf[IDS_TEXTMAX];
  ids_value v;
  ids_error e;
  lgen *g;
  lua_getfield(L, LUA_REGISTRYINDEX, QUICK);
  lua_pushlightuserdata(L, (void *)s);
  lua_rawget(L, -2);                  /* void in Lua 5.1 */
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    g = (lgen *)ids_box_new(L, sizeof *g, 0, GEN_TYPE);
    g->s = s;
    if (ids_generator_init(&g->g, s, NULL, NULL, &e) != IDS_OK)
      return luaL_argerror(L, 1, e.msg);
    lua_pushvalue(L, UV_GEN);
    lua_setmetatable(L, -2);
    lua_pushlightuserdata(L, (void *)s);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  g = checkgen(L, -1);
  if (ids_generator_next(&g->g, &v, &e) != IDS_OK)
    return luaL_error(L, "%s", e.msg);
  lua_pushlstring(L, buf, ids_scheme_encode(s, c, &v, buf));
  return 1;
}

/* idscheme.valid(text, scheme [, encoding]): whether text is an ID of
** that scheme (s:decode(text, encoding) without the message). */
static int l_valid (lua_State *L) {
  size_t n;
  const char *t = luaL_checklstring(L, 1, &n);
  const ids_scheme *s = namedscheme(L, 2);
  const ids_codec *c = optcodec(L, s, 3);
  ids_value v;
  lua_pushboolean(L, ids_scheme_decode(s, c, t, n, &v, NULL) == IDS_OK);
  return 1;
}

static const luaL_Reg module_funcs[] = {
  {"list", l_list}, {"scheme", l_scheme}, {"define", l_define},
  {"inspect", l_inspect}, {"new", l_new}, {"valid", l_valid},
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

int ids_lua_compressor (lua_State *L);   /* binding/compressor.c */

#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
int luaopen_idscheme (lua_State *L) {
  if (ids_init() != IDS_OK) return luaL_error(L, "idscheme: init failed");
  luaL_newmetatable(L, SCHEME_MT);
  luaL_newmetatable(L, GEN_MT);
  luaL_newmetatable(L, ID_MT);
  lua_pop(L, 3);
  luaL_newmetatable(L, INSPECTOR_MT);
  lua_pushcfunction(L, ins_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, HANDLES);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, QUICK);
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
