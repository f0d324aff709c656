-- luarocks --lua-version=5.4 make --tree=DIR rockspec/idscheme-scm-1.rockspec
-- (--lua-version=5.1 builds the LuaJIT module the same way).  Offline: the
-- sources are all here; libsodium and the stores' libraries come from
-- the system.  Two C modules: idscheme (the core and the binding) and
-- idscheme.stores, the slot stores' module that the core opens beside
-- itself (idscheme/stores.so) on the first redis or etcd claim.
rockspec_format = "3.0"
package = "idscheme"
version = "scm-1"
source = { url = "git+file://." }
description = {
  summary = "Distributed unique IDs: FLUID, Flax, SIQ, Snowflake, k-ordered uid, scripted schemes",
  detailed = [[
A C library of distributed unique-ID schemes behind one registry: bit layouts
plus text codecs, generators that never repeat an ID, and a Lua API.]],
  license = "MIT",
}
dependencies = { "lua >= 5.1" }
external_dependencies = {
  SODIUM = { header = "sodium.h", library = "sodium" },
  -- the slot stores: redis and etcd (over HTTP/JSON)
  HIREDIS = { header = "hiredis/hiredis.h", library = "hiredis" },
  OPENSSL = { header = "openssl/ssl.h", library = "ssl" },    -- rediss://
  CURL = { library = "curl" },     -- Debian: its header is multiarch
  CJSON = { header = "cjson/cJSON.h", library = "cjson" },
}
build = {
  type = "builtin",
  modules = {
    idscheme = {
      sources = {
        "core/b64.c",
        "core/clock.c",
        "core/crc32.c",
        "core/decimal.c",
        "core/codec/dothex.c",
        "core/codec/emoji_table.c",
        "core/codec/make.c",
        "core/codec/radix.c",
        "core/codec/stock.c",
        "core/codec/typeid.c",
        "core/codec/uuid.c",
        "core/codec/words.c",
        "core/codec/words_table.c",
        "core/define.c",
        "core/entropy.c",
        "core/error.c",
        "core/fields.c",
        "core/fork.c",
        "core/generator.c",
        "core/layout.c",
        "core/options.c",
        "core/registry.c",
        "core/slot/keys.c",
        "core/slot/module.c",
        "core/slot/slot.c",
        "core/slot/slot_local.c",
        "core/slot/url.c",
        "core/text.c",
        "core/value.c",
        "core/wait.c",
        "schemes/builtin.c",
        "schemes/flax.c",
        "schemes/fluid.c",
        "schemes/kuid.c",
        "schemes/shipped.c",
        "schemes/siq.c",
        "schemes/snowflake.c",
        "idcompressor/compressor.c",
        "idcompressor/lookup.c",
        "idcompressor/serialize.c",
        "idcompressor/stableid.c",
        "idcompressor/state.c",
        "inspect/inspect.c",
        "binding/idscheme.c",
        "binding/compressor.c",
      },
      -- the core stays inside the module: luaopen_idscheme is its one export;
      -- both slot stores built (CMake's IDS_WITH_REDIS, IDS_WITH_ETCD), in
      -- idscheme.stores below, which the core finds by the default of
      -- core/slot/module.c: idscheme/stores.so beside this module
      defines = { "IDS_HIDDEN", "IDS_HAVE_REDIS=1", "IDS_HAVE_ETCD=1" },
      incdirs = { "core", "idcompressor", "inspect", "binding", "$(SODIUM_INCDIR)" },
      libdirs = { "$(SODIUM_LIBDIR)" },
      libraries = { "sodium", "pthread", "m" },
    },
    -- not a Lua module: the stores' module (core/slot/stores.c), with its
    -- own copies of the core helpers it calls; ids_slot_stores its one export
    ["idscheme.stores"] = {
      sources = {
        "core/slot/stores.c",
        "core/slot/slot_redis.c",
        "core/slot/slot_etcd.c",
        "core/slot/keys.c",
        "core/b64.c",
        "core/decimal.c",
        "core/error.c",
      },
      defines = { "IDS_HIDDEN", "IDS_HAVE_REDIS=1", "IDS_HAVE_ETCD=1" },
      incdirs = { "core", "$(HIREDIS_INCDIR)", "$(OPENSSL_INCDIR)",
                  "$(CURL_INCDIR)", "$(CJSON_INCDIR)" },
      libdirs = { "$(HIREDIS_LIBDIR)", "$(OPENSSL_LIBDIR)", "$(CURL_LIBDIR)",
                  "$(CJSON_LIBDIR)" },
      libraries = { "hiredis", "ssl", "crypto", "curl", "cjson", "pthread" },
    },
    ["idscheme.jit"] = "lua/idscheme/jit.lua",
    ["idscheme.resty"] = "lua/idscheme/resty.lua",
  },
  -- the LuaLS definitions (types/idscheme.lua, types/idscheme/resty.lua),
  -- for editors: kept in the rock's directory (luarocks show idscheme),
  -- not modules
  copy_directories = { "types" },
}
