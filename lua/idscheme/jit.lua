-- idscheme.jit: under LuaJIT, g:next_string() through the FFI.  A classic
-- C function call stops LuaJIT's compiler; an FFI call does not, so a loop
-- that makes request IDs stays compiled.  The C module calls the function
-- returned here once, when it is loaded; nothing else needs to.
local ffi = require "ffi"

return function (fnptr, genmt, methods, indexptr, textmax, errmax)
  local next_string = ffi.cast("size_t (*)(void *, int, char *, char *)",
                               fnptr)
  local codec_index = ffi.cast("int (*)(void *, const char *, size_t)",
                               indexptr)
  local buf = ffi.new("char[?]", textmax)
  local err = ffi.new("char[?]", errmax)
  local classic = methods.next_string
  local getmetatable, error, type = getmetatable, error, type
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
  -- generator (its box's address and type, lua/box.h): a compressor, a
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
end
