-- idscheme.jit: under LuaJIT, what the FFI does better than the classic C
-- API.  The C module calls the function returned here once, when it is
-- loaded; nothing else needs to.
--   * g:next_string() through the FFI: a classic C function call stops
--     LuaJIT's compiler, an FFI call does not, so a loop that makes request
--     IDs stays compiled.
--   * 64-bit integers as LuaJIT has them (int64_t/uint64_t cdata), as
--     lua-resty-mysql gives a BIGINT: id:int64() returns a uint64_t, and
--     s:from_integer(x) and s:compose(fields) take one (LuaJIT's numbers
--     hold 53 bits: a Snowflake is past them).
local ffi = require "ffi"

return function (t)
  local next_string = ffi.cast("size_t (*)(void *, int, char *, char *)",
                               t.next_string)
  local codec_index = ffi.cast("int (*)(void *, const char *, size_t)",
                               t.codec_index)
  local genmt, methods = t.genmt, t.genmethods
  local buf = ffi.new("char[?]", t.textmax)
  local err = ffi.new("char[?]", t.errmax)
  local classic = methods.next_string
  local getmetatable, setmetatable, error, type, pairs, ipairs, rawget,
        tostring = getmetatable, setmetatable, error, type, pairs, ipairs,
        rawget, tostring
  -- encoding name -> codec index, per generator: a named encoding costs
  -- two table lookups.  The indexes come from the core (codec_index), not
  -- from s.encodings, which the caller may have changed.
  local bygen = setmetatable({}, { __mode = "k" })

  local function index (g, encoding)
    if type(encoding) ~= "string" then return nil end
    local ci = codec_index(g, encoding, #encoding)
    if ci < 0 then return nil end
    bygen[g][encoding] = ci
    return ci
  end

  -- A value is handed to C only once a classic method took it for a
  -- generator (its box's address and type, binding/box.h): a compressor, a
  -- file or a table given the generator metatable must not reach C.
  local check = methods.scheme

  methods.next_string = function (g, encoding)
    if getmetatable(g) ~= genmt then return classic(g, encoding) end
    local idx = bygen[g]
    if not idx then
      check(g)                 -- raises for anything but a generator
      idx = {}
      bygen[g] = idx
    end
    local ci = -1
    if encoding ~= nil then
      ci = idx[encoding] or index(g, encoding)
      -- an unknown name or a wrong type: the classic path says which
      if not ci then return classic(g, encoding) end
    end
    local n = next_string(g, ci, buf, err)
    if n == 0 then error(ffi.string(err), 2) end
    return ffi.string(buf, n)
  end

  -- ----------------------------------------- the compressor's generate
  -- c:generate_compressed_id() as an FFI call: the classic call (19 ns)
  -- was the one compressor operation slower under LuaJIT than the npm
  -- package in node (14 ns).  A compressor is handed to C only once a
  -- classic method took it (its box's type), as generators are.
  local idc_generate = ffi.cast("double (*)(void *, char *)", t.idc_generate)
  local idcmt = t.idcmt
  local idcm = idcmt.__index
  local classic_generate, idc_check = idcm.generate_compressed_id,
                                      idcm.cluster_size
  local known = setmetatable({}, { __mode = "k" })
  idcm.generate_compressed_id = function (c)
    if getmetatable(c) ~= idcmt then return classic_generate(c) end
    if not known[c] then
      idc_check(c)             -- raises for anything but an open compressor
      known[c] = true
    end
    local id = idc_generate(c, err)
    if id ~= id then error(ffi.string(err), 2) end   -- NaN: it failed
    return id
  end

  -- ---------------------------------------------------- 64-bit integers
  local u64, i64 = ffi.typeof("uint64_t"), ffi.typeof("int64_t")
  local bytep = ffi.typeof("const uint8_t *")
  local function is64 (x)
    return type(x) == "cdata" and (ffi.istype(u64, x) or ffi.istype(i64, x))
  end
  -- its decimal digits, which the classic methods read exactly ("-" kept:
  -- they refuse it, naming the field)
  local function decimal (x)
    return (tostring(x):gsub("U?LL$", ""))
  end

  local idm = t.idmethods
  local bytes, idscheme_of = idm.bytes, idm.scheme
  idm.int64 = function (id)
    local b = bytes(id)        -- raises for anything but an ID
    if #b > 8 then
      local s = idscheme_of(id)
      error(("%s ids are %d bits: no integer holds them"):format(s.name,
            s.bits), 2)
    end
    local p, v = ffi.cast(bytep, b), u64(0)
    for k = 0, #b - 1 do v = v * 256 + p[k] end
    return v
  end

  local sm = t.schememethods
  local from_integer, compose = sm.from_integer, sm.compose
  sm.from_integer = function (s, x)
    if is64(x) then x = decimal(x) end
    return from_integer(s, x)
  end
  -- fields with a 64-bit cdata value: a copy with its decimal digits,
  -- each field read once (held, or through __index as the classic
  -- method reads a field the table does not hold)
  sm.compose = function (s, fields)
    if type(fields) ~= "table" then return compose(s, fields) end
    local copy
    for k, v in pairs(fields) do
      if is64(v) then copy = true break end
    end
    local mt = getmetatable(fields)
    if not copy and not mt then return compose(s, fields) end
    local c = {}
    for k, v in pairs(fields) do c[k] = is64(v) and decimal(v) or v end
    if mt then
      for _, f in ipairs(s.fields) do
        if rawget(fields, f.name) == nil then
          local v = fields[f.name]
          if v ~= nil then c[f.name] = is64(v) and decimal(v) or v end
        end
      end
      -- and what the scheme hashes into a field (SIQ's domain_name)
      setmetatable(c, { __index = function (_, k)
        local v = fields[k]
        return is64(v) and decimal(v) or v
      end })
    end
    return compose(s, c)
  end
end
