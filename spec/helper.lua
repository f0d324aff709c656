-- spec/helper.lua: shared helpers for the busted specs.
--
--   local helper = require "spec.helper"
--
-- The project root is found from this file's own path, so the specs read
-- spec/vectors/ wherever busted was started (spec/busted.sh runs it from
-- the root and puts the root on package.path).

local cjson = require "cjson"

local helper = {}

local function dirname (p)
  return p:match("^(.*)[/\\][^/\\]*$") or "."
end

-- "@/abs/spec/helper.lua" or "@spec/helper.lua" -> the directory above spec/.
local source = debug.getinfo(1, "S").source
assert(source:sub(1, 1) == "@", "spec/helper.lua must be loaded from a file")
helper.root = dirname(dirname(source:sub(2)))

-- A path relative to the project root.
function helper.path (rel)
  return helper.root .. "/" .. rel
end

-- The whole content of a file under the project root (binary-safe).
function helper.read (rel)
  local f = assert(io.open(helper.path(rel), "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- cjson gives every JSON number as a float: make integral ones integers, so
-- that they can be handed to compose() and compared with fields().
local function integers (x)
  if type(x) == "table" then
    for k, v in pairs(x) do x[k] = integers(v) end
    return x
  elseif math.type(x) == "float" then
    return math.tointeger(x) or x
  end
  return x
end

local cache = {}

-- spec/vectors/<name>.json, decoded (JSON null is cjson.null).
function helper.vectors (name)
  if cache[name] == nil then
    cache[name] = integers(cjson.decode(helper.read("spec/vectors/" .. name
                                                    .. ".json")))
  end
  return cache[name]
end

helper.null = cjson.null

-- Binary string from hex digits ("f09f98" -> "\xf0\x9f\x98").
function helper.unhex (h)
  return (h:gsub("%x%x", function (b) return string.char(tonumber(b, 16)) end))
end

-- Hex digits of a binary string.
function helper.tohex (s)
  return (s:gsub(".", function (c) return ("%02x"):format(c:byte()) end))
end

-- The exact bytes of a decode vector's input: `input_bytes_hex` when the
-- JSON string could not carry them (a truncated UTF-8 sequence).
function helper.input (entry)
  if entry.input_bytes_hex ~= nil and entry.input_bytes_hex ~= cjson.null then
    return helper.unhex(entry.input_bytes_hex)
  end
  return entry.input
end

-- A decimal string of an unsigned 64-bit value as a Lua integer, wrapped
-- above 2^63 exactly as string.unpack("<I8", ...) gives it (Lua integer
-- arithmetic wraps modulo 2^64).
function helper.u64 (dec)
  assert(type(dec) == "string" and dec:match("^%d+$"), "not a decimal: "
         .. tostring(dec))
  local n = 0
  for i = 1, #dec do n = n * 10 + (dec:byte(i) - 48) end
  return n
end

-- A readable, unambiguous rendering of a test input for test names.
function helper.show (s)
  return (("%q"):format(s):gsub("\\\n", "\\n"))
end

-- A set (value -> true) of the entries of an array.
function helper.set (t)
  local r = {}
  for _, v in ipairs(t) do r[v] = true end
  return r
end

return helper
