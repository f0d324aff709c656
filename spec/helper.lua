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

-- ---------------------------------------------------------------------
-- Helpers for the scheme specs (flax, snowflake, siq).  They assert with
-- luassert, the `assert` that busted gives the specs.

local luassert = require "luassert"

-- Asserts that s:decode(text [, enc]) neither raises nor accepts the text:
-- it must give nil and a non-empty message string.
function helper.assert_rejected (s, text, enc)
  local what = helper.show(text) .. " as " .. tostring(enc or "(default)")
  local ok, id, msg = pcall(s.decode, s, text, enc)
  luassert.is_true(ok, "decode raised on " .. what .. ": " .. tostring(id))
  luassert.is_nil(id, "expected " .. what .. " to be rejected, got "
                      .. (id and id:encode("dec") or "?"))
  luassert.are.equal("string", type(msg), "no message for " .. what)
  luassert.is_true(#msg > 0, "empty message for " .. what)
end

-- Decodes text (with enc, or the scheme's rule when enc is nil), asserts
-- that it succeeded and that its value is `dec` (a decimal string); returns
-- the id.
function helper.assert_decodes (s, text, enc, dec)
  local what = helper.show(text) .. " as " .. tostring(enc or "(default)")
  local ok, id, msg = pcall(s.decode, s, text, enc)
  luassert.is_true(ok, "decode raised on " .. what .. ": " .. tostring(id))
  luassert.is_not_nil(id, "decoding " .. what .. " failed: " .. tostring(msg))
  luassert.are.equal(dec, id:encode("dec"), "value of " .. what)
  return id
end

-- Asserts that id writes each form of `forms` (encoding -> text) and that
-- every one of them decodes back to id under its name.
function helper.assert_forms (s, id, forms)
  local dec = id:encode("dec")
  local encs = {}
  for enc in pairs(forms) do encs[#encs + 1] = enc end
  table.sort(encs)
  for _, enc in ipairs(encs) do
    luassert.are.equal(forms[enc], id:encode(enc), "encoding " .. enc
                       .. " of " .. dec)
    local back = helper.assert_decodes(s, forms[enc], enc, dec)
    luassert.is_true(back == id, "decoding " .. enc .. " of " .. dec)
  end
end

-- Asserts that fn raises an error whose message holds `word` (plain).
function helper.assert_raises (fn, word, what)
  local ok, err = pcall(fn)
  luassert.is_false(ok, (what or "call") .. " did not raise")
  luassert.is_truthy(tostring(err):find(word, 1, true), (what or "call")
                     .. ": message does not name " .. word .. ": "
                     .. tostring(err))
end

-- The positional numeral of a big-endian binary string in the alphabet
-- `digits` (base #digits, most significant digit first), left-padded with
-- the zero digit to `width` when given; at least one digit.  Independent
-- of the library, for building test texts of any width.
function helper.numeral (bin, digits, width)
  local base = #digits
  local n = { bin:byte(1, -1) }
  local out = {}
  repeat
    local q, rem = {}, 0
    for i = 1, #n do
      local cur = rem * 256 + n[i]
      local d = cur // base
      rem = cur % base
      if #q > 0 or d > 0 then q[#q + 1] = d end
    end
    out[#out + 1] = digits:sub(rem + 1, rem + 1)
    n = q
  until #n == 0
  while width and #out < width do out[#out + 1] = digits:sub(1, 1) end
  return string.reverse(table.concat(out))
end

helper.DIGITS = {
  dec = "0123456789",
  hex = "0123456789abcdef",
  oct = "01234567",
  b64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  b32lower = "abcdefghijklmnopqrstuvwxyz234567",
  crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
}

-- CRC-32 (zlib / IEEE 802.3: reflected 0xEDB88320, init and final xor
-- 0xFFFFFFFF) of a binary string, as an integer.
function helper.crc32 (bin)
  local c = 0xffffffff
  for i = 1, #bin do
    c = c ~ bin:byte(i)
    for _ = 1, 8 do
      if c & 1 == 1 then c = (c >> 1) ~ 0xedb88320 else c = c >> 1 end
    end
  end
  return c ~ 0xffffffff
end

-- The value of a big-endian binary string as a decimal string.
function helper.dec (bin)
  return helper.numeral(bin, helper.DIGITS.dec)
end

-- a < b for two decimal strings of non-negative integers (no leading
-- zeros), exactly, however long.
function helper.dec_less (a, b)
  if #a ~= #b then return #a < #b end
  return helper.bytes_less(a, b)
end

-- a < b comparing bytes as unsigned numbers, whatever the C locale
-- (Lua's string `<` uses strcoll).
function helper.bytes_less (a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = a:byte(i), b:byte(i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- Texts that no decoder of any scheme may accept.
helper.BAD_TEXT = {
  "", " ", "\t\n", "\0", "\xff\xfe", "-", "+1", "-1", "1 2", "0x!", "?",
  "did:siq:", "did:siq", "zz!", "\xc6\x92", string.rep("9", 200),
  string.rep("z", 200), string.rep("B", 1000), "1\0", "1.5",
  "\xef\xbc\x91",                                -- U+FF11, a wide digit 1
}


-- ---------------------------------------------------------------------
-- Helpers for the kuid specs (fogfish/uid terms, d64 / RFC 4648 texts,
-- the node-hash table, timing).  Self-contained: they use none of the
-- helpers above.

-- Bit-packed base64 of a binary string: the bits MSB first, right-padded
-- with zeros to a multiple of 6, one digit of `digits` (64 characters,
-- value 0 first) per 6 bits, no padding character.  This is uid_b64's
-- d64 with its alphabet, and RFC 4648 base64url without '=' with
-- helper.DIGITS_B64URL.  Independent of the library.
helper.DIGITS_D64 =
  ".0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
helper.DIGITS_B64URL =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

function helper.bitpack64 (bin, digits)
  local out, acc, nbits = {}, 0, 0
  for i = 1, #bin do
    acc = (acc << 8) | bin:byte(i)
    nbits = nbits + 8
    while nbits >= 6 do
      nbits = nbits - 6
      local d = (acc >> nbits) & 63
      out[#out + 1] = digits:sub(d + 1, d + 1)
    end
    acc = acc & ((1 << nbits) - 1)
  end
  if nbits > 0 then
    local d = (acc << (6 - nbits)) & 63
    out[#out + 1] = digits:sub(d + 1, d + 1)
  end
  return table.concat(out)
end

-- The rows of a tab-separated file under the project root, each an array
-- of its columns; lines starting with '#' and empty lines are skipped.
function helper.tsv (rel)
  local rows = {}
  for line in (helper.read(rel) .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("\r$", "")
    if line ~= "" and line:sub(1, 1) ~= "#" then
      local row = {}
      for col in (line .. "\t"):gmatch("([^\t]*)\t") do
        row[#row + 1] = col
      end
      rows[#rows + 1] = row
    end
  end
  return rows
end

-- Calls fn(...) under pcall; returns the CPU seconds it took, then what
-- pcall returned.
function helper.timed (fn, ...)
  local t0 = os.clock()
  local r = table.pack(pcall(fn, ...))
  return os.clock() - t0, table.unpack(r, 1, r.n)
end

-- A fogfish/uid term as printed by io_lib:format("~tw"):
--   "{uid,{A,B,C},Seq}"                     -> {A=, B=, C=, Seq=}
--   "{uid,<<1,2,3,4>>,{A,B,C},Seq}"         -> ... node = {binary = "\1\2\3\4"}
--   "{uid,'uid@127.0.0.1',{A,B,C},Seq}"     -> ... node = {atom = "uid@127.0.0.1"}
--   "{uid,nonode@nohost,{A,B,C},Seq}"       -> ... node = {atom = "nonode@nohost"}
-- or nil when the text is none of these.
function helper.uid_term (text)
  local function ints (t, a, b, c, q)
    t.A, t.B, t.C, t.Seq = math.tointeger(tonumber(a)),
      math.tointeger(tonumber(b)), math.tointeger(tonumber(c)),
      math.tointeger(tonumber(q))
    return t
  end
  local a, b, c, q = text:match("^{uid,{(%-?%d+),(%-?%d+),(%-?%d+)},(%-?%d+)}$")
  if a then return ints({}, a, b, c, q) end
  local node
  node, a, b, c, q = text:match(
    "^{uid,(.-),{(%-?%d+),(%-?%d+),(%-?%d+)},(%-?%d+)}$")
  if not node then return nil end
  local t = ints({}, a, b, c, q)
  local bytes = node:match("^<<([%d,]*)>>$")
  if bytes then
    local s = {}
    for n in bytes:gmatch("%d+") do s[#s + 1] = string.char(tonumber(n)) end
    t.node = { binary = table.concat(s) }
  else
    t.node = { atom = node:match("^'(.*)'$") or node }
  end
  return t
end

return helper
