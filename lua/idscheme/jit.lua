-- idscheme.jit: under LuaJIT, g:next_string() through the FFI.  A classic
-- C function call stops LuaJIT's compiler; an FFI call does not, so a loop
-- that makes request IDs stays compiled.  The C module calls the function
-- returned here once, when it is loaded; nothing else needs to.
local ffi = require "ffi"

return function (fnptr, genmt, methods)
  local next_string = ffi.cast("size_t (*)(void *, int, char *)", fnptr)
  local buf = ffi.new("char[128]")       -- IDS_TEXTMAX
  local classic = methods.next_string
  local scheme = methods.scheme
  local getmetatable, error = getmetatable, error
  -- encoding name -> codec index, per scheme handle, and found through the
  -- generator, so that a named encoding costs table lookups, not
  -- g:scheme() (a classic C call, which stops the trace) every time
  local indexes = setmetatable({}, { __mode = "k" })
  local bygen = setmetatable({}, { __mode = "k" })

  local function encodings (g)
    local s = scheme(g)
    local idx = indexes[s]
    if not idx then
      idx = {}
      for i, name in ipairs(s.encodings) do idx[name] = i - 1 end
      indexes[s] = idx
    end
    bygen[g] = idx
    return idx
  end

  methods.next_string = function (g, encoding)
    if getmetatable(g) ~= genmt then return classic(g, encoding) end
    local ci = -1
    if encoding ~= nil then
      ci = (bygen[g] or encodings(g))[encoding]
      -- an unknown name or a wrong type: the classic path says which
      if not ci then return classic(g, encoding) end
    end
    local n = next_string(g, ci, buf)
    if n == 0 then error(ffi.string(buf), 2) end
    return ffi.string(buf, n)
  end
end
