-- spec/helper.lua: shared helpers for the busted specs.
--
--   local helper = require "spec.helper"
--
-- The project root is found from this file's own path, so the specs read
-- spec/vectors/ wherever busted was started (spec/busted.sh runs it from
-- the root and puts the root on package.path).

local cjson = require "cjson"

local helper = {}

-- ---------------------------------------------------------------------
-- Numbers under both interpreters.  The specs run under Lua 5.4 (64-bit
-- integers, native bitwise operators) and LuaJIT 2.1 (Lua 5.1 syntax;
-- every number a double, exact up to 2^53).  Nothing below uses syntax
-- that LuaJIT cannot parse: 5.4's operators live in a chunk compiled by
-- `load` only where the interpreter has them.  Where the CONTRACT differs
-- by design (DESIGN.md, binding/compat.h: id:integer() and fields() values at
-- or above 2^53, decimal-string fields in compose), the specs branch on
-- helper.INT64 and assert each side's behaviour explicitly.

-- true where numbers have a 64-bit integer subtype (Lua 5.3+); false where
-- every number is a double (LuaJIT, Lua 5.1).
helper.INT64 = math.type ~= nil

-- Bits of an unsigned value that a number holds exactly: the binding's
-- IDS_INT_EXACT_BITS (binding/compat.h).
helper.EXACT_BITS = helper.INT64 and 64 or 53

-- 2^53 as a decimal string: where numbers are doubles, the binding gives
-- values at or above it as decimal strings (fields()) or refuses them
-- (id:integer()).
helper.TWO53 = "9007199254740992"

local floor = math.floor

-- Whether x is a number with an integral value that the interpreter holds
-- as an integer: Lua 5.4's integer subtype; under LuaJIT a double with an
-- integral value inside the exact range (|x| < 2^53).
function helper.is_integer (x)
  if helper.INT64 then return math.type(x) == "integer" end
  return type(x) == "number" and x == floor(x) and x > -2^53 and x < 2^53
end

-- math.tointeger: x as an integer, or nil when x has no integral value (or
-- is not a number).  Under LuaJIT, an integral double of the int64 range.
function helper.tointeger (x)
  if helper.INT64 then
    return type(x) == "number" and math.tointeger(x) or nil
  end
  if type(x) == "number" and x == floor(x) and x >= -2^63 and x < 2^63 then
    return x
  end
  return nil
end

-- The largest and smallest integers the interpreter has: math.maxinteger
-- and math.mininteger; under LuaJIT the largest double below 2^63
-- (2^63 - 1024, the largest number that converts to an int64) and -2^63.
helper.MAXINT = math.maxinteger or (2^63 - 1024)
helper.MININT = math.mininteger or -2^63

-- 2^n, exactly: an integer under 5.4 (1 << n, for n <= 62), a double
-- under LuaJIT.
function helper.pow2 (n)
  assert(n >= 0 and n <= 62 and n == floor(n), "pow2: bad exponent")
  local x = 2^n
  return helper.INT64 and math.tointeger(x) or x
end

-- Integer and bitwise arithmetic on non-negative integers: idiv (//),
-- band (&), bor (|), bxor (~), shl (<<), shr (>>).  Lua 5.4 uses its
-- operators (64-bit); under LuaJIT they work on values below 2^53 through
-- the 32-bit `bit` library on each half, and raise rather than round.
if helper.INT64 then
  local ops = assert(load([[
    return {
      idiv = function (a, b) return a // b end,
      band = function (a, b) return a & b end,
      bor = function (a, b) return a | b end,
      bxor = function (a, b) return a ~ b end,
      shl = function (a, n) return a << n end,
      shr = function (a, n) return a >> n end,
    }
  ]], "=helper(5.4 operators)"))()
  for k, f in pairs(ops) do helper[k] = f end
else
  local bit = require "bit"
  local TWO32 = 2^32

  local function check (x)
    assert(type(x) == "number" and x >= 0 and x < 2^53 and x == floor(x),
           "not an integer of 0..2^53-1: " .. tostring(x))
    return x
  end

  -- f applied to the high and low 32-bit halves of a and b.
  local function halves (f, a, b)
    local al, bl = check(a) % TWO32, check(b) % TWO32
    local ah, bh = (a - al) / TWO32, (b - bl) / TWO32
    return (f(ah, bh) % TWO32) * TWO32 + f(al, bl) % TWO32
  end

  function helper.idiv (a, b) return floor(a / b) end
  function helper.band (a, b) return halves(bit.band, a, b) end
  function helper.bor (a, b) return halves(bit.bor, a, b) end
  function helper.bxor (a, b) return halves(bit.bxor, a, b) end
  function helper.shl (a, n) return check(check(a) * 2^n) end
  function helper.shr (a, n) return floor(check(a) / 2^n) end
end

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
-- that they can be handed to compose() and compared with fields().  (Under
-- LuaJIT every number is a double already: nothing to do.)
local function integers (x)
  if type(x) == "table" then
    for k, v in pairs(x) do x[k] = integers(v) end
    return x
  elseif helper.INT64 and math.type(x) == "float" then
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
-- arithmetic wraps modulo 2^64).  Where numbers are doubles, only values
-- below 2^53 have an exact number: others raise.
function helper.u64 (dec)
  assert(type(dec) == "string" and dec:match("^%d+$"), "not a decimal: "
         .. tostring(dec))
  assert(helper.INT64 or helper.dec_less(helper.decnorm(dec), helper.TWO53),
         "no exact number for " .. dec .. " (numbers are doubles)")
  local n = 0
  for i = 1, #dec do n = n * 10 + (dec:byte(i) - 48) end
  return n
end

-- A decimal string without leading zeros ("0" stays).
function helper.decnorm (dec)
  return (dec:gsub("^0+(%d)", "%1"))
end

-- The 8 big-endian bytes of an unsigned 64-bit value given as a decimal
-- string: string.pack(">I8", helper.u64(dec)) under 5.4; under LuaJIT by
-- long division of the digits (exact at any size).
function helper.u64_bytes (dec)
  if string.pack then return string.pack(">I8", helper.u64(dec)) end
  assert(type(dec) == "string" and dec:match("^%d+$"), "not a decimal: "
         .. tostring(dec))
  local n = { dec:byte(1, -1) }
  for i = 1, #n do n[i] = n[i] - 48 end
  local out = {}
  for _ = 1, 8 do                      -- the low byte first
    local q, rem = {}, 0
    for i = 1, #n do
      local cur = rem * 10 + n[i]
      local d = floor(cur / 256)
      rem = cur % 256
      if #q > 0 or d > 0 then q[#q + 1] = d end
    end
    out[#out + 1] = string.char(rem)
    n = q
  end
  assert(#n == 0, "above 2^64-1: " .. dec)
  return string.reverse(table.concat(out))
end

-- The big-endian bytes (`width` of them) of a non-negative integer below
-- 2^53 (any of 64 bits under 5.4): string.pack(">I<width>", n) where the
-- interpreter has it.
function helper.be (n, width)
  if string.pack then return string.pack(">I" .. width, n) end
  assert(helper.is_integer(n) and n >= 0, "not an integer: " .. tostring(n))
  local out = {}
  for i = width, 1, -1 do
    out[i] = string.char(n % 256)
    n = floor(n / 256)
  end
  assert(n == 0, "does not fit in " .. width .. " bytes")
  return table.concat(out)
end

-- The unsigned integer of a big-endian binary string of 1..6 bytes (1..8
-- under 5.4): string.unpack(">I<#bin>", bin) where the interpreter has it.
function helper.unbe (bin)
  if string.unpack then return (string.unpack(">I" .. #bin, bin)) end
  assert(#bin >= 1 and #bin <= 6, "unbe: 1..6 bytes")
  local n = 0
  for i = 1, #bin do n = n * 256 + bin:byte(i) end
  return n
end

-- The decimal string of hex digits (any length).
function helper.hex_to_dec (hex)
  if #hex % 2 == 1 then hex = "0" .. hex end
  return helper.dec(helper.unhex(hex))
end

-- The value a field of at most 64 bits has in compose() and fields(),
-- from its decimal string: an integer (wrapped above 2^63 as u64 does)
-- under 5.4; under LuaJIT a number below 2^53 and the decimal string
-- itself from 2^53 on (binding/idscheme.c, pushfield).
function helper.field (dec)
  dec = helper.decnorm(dec)
  if helper.INT64 then return helper.u64(dec) end
  if helper.dec_less(dec, helper.TWO53) then return tonumber(dec) end
  return dec
end

-- helper.field of a value written in hex digits.
function helper.field_hex (hex)
  return helper.field(helper.hex_to_dec(hex))
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

-- Asserts each row { text, enc, dec } of `rows`: s:decode(text, enc) gives
-- the value dec (a decimal string), or rejects the text where dec is false.
function helper.assert_decodings (s, rows)
  for _, r in ipairs(rows) do
    if r[3] then
      helper.assert_decodes(s, r[1], r[2], r[3])
    else
      helper.assert_rejected(s, r[1], r[2])
    end
  end
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

-- Asserts that s:decode(text) and s:decode(text, enc) reject every text of
-- `texts` for every encoding of `encodings` (helper.assert_rejected).
function helper.assert_all_rejected (s, texts, encodings)
  for _, text in ipairs(texts) do
    helper.assert_rejected(s, text)
    for _, enc in ipairs(encodings) do
      helper.assert_rejected(s, text, enc)
    end
  end
end

-- Asserts that every form of a value outside the scheme that a reference
-- wrote (`forms`: encoding -> text; "ERROR..." where it wrote none) is
-- rejected under its encoding, and `default` (if given) under none.
function helper.assert_forms_rejected (s, forms, default)
  for enc, text in pairs(forms) do
    if not text:match("^ERROR") then
      helper.assert_rejected(s, text, enc)
    end
  end
  if default then helper.assert_rejected(s, default) end
end

-- Asserts that s:decode raises on text that is not a string: none, nil
-- with encoding `enc`, a table, and true (with encoding `true_enc`, if
-- given).
function helper.assert_decode_needs_text (s, enc, true_enc)
  luassert.has_error(function () s:decode() end)
  luassert.has_error(function () s:decode(nil, enc) end)
  luassert.has_error(function () s:decode({}) end)
  if true_enc then
    luassert.has_error(function () s:decode(true, true_enc) end)
  else
    luassert.has_error(function () s:decode(true) end)
  end
end

-- Asserts that s:decode("1", name) raises, naming it, for every name of
-- `names`, and that an encoding that is not a string raises.
function helper.assert_unknown_encodings (s, names)
  for _, name in ipairs(names) do
    helper.assert_raises(function () s:decode("1", name) end, name)
  end
  luassert.has_error(function () s:decode("1", {}) end)
end

-- Asserts that s:from_bytes gives nil and a non-empty message for every
-- byte string of `list`.
function helper.assert_bytes_rejected (s, list)
  for _, b in ipairs(list) do
    local id, msg = s:from_bytes(b)
    luassert.is_nil(id)
    luassert.are.equal("string", type(msg))
    luassert.is_true(#msg > 0)
  end
end

-- Asserts that s:from_bytes raises when given no string.
function helper.assert_from_bytes_needs_string (s)
  luassert.has_error(function () s:from_bytes() end)
  luassert.has_error(function () s:from_bytes({}) end)
end

-- Asserts that s:compose raises when given no table: nothing, or `other`.
function helper.assert_compose_needs_table (s, other)
  luassert.has_error(function () s:compose() end)
  luassert.has_error(function () s:compose(other) end)
end

-- Values that are not an integer (nor, where numbers are doubles, a
-- decimal string of one).
helper.NOT_INTEGERS = { 1.5, "x", "1.5", "-1", true, {} }

-- Asserts that s:compose raises, naming the field (or `word`), for every
-- case { field, value[, word] } of `cases`: the fields `base` (left as they
-- are) with that field set to value, or left out where value is nil.
-- `check` (fn, word, what) asserts that fn raises naming word; by default
-- helper.assert_raises.
function helper.assert_compose_raises (s, base, cases, check)
  check = check or helper.assert_raises
  for _, c in ipairs(cases) do
    local f = {}
    for k, v in pairs(base) do f[k] = v end
    f[c[1]] = c[2]
    check(function () return s:compose(f) end, c[3] or c[1],
          c[2] == nil and "without " .. c[1]
          or c[1] .. " = " .. (type(c[2]) == "string" and helper.show(c[2])
                               or tostring(c[2])))
  end
end

-- Cases for helper.assert_compose_raises: each field of `fields` left out.
function helper.cases_missing (fields)
  local cases = {}
  for i, field in ipairs(fields) do cases[i] = { field } end
  return cases
end

-- Cases for helper.assert_compose_raises: `field` set to each value of
-- `values`.
function helper.cases_of (field, values)
  local cases = {}
  for i, v in ipairs(values) do cases[i] = { field, v } end
  return cases
end

-- Asserts that s:generator raises for every case { option, value[, word] }
-- of `cases` (the options: that one, set to value), naming `word`, or the
-- option where no word is given.
function helper.assert_options_raise (s, cases)
  for _, c in ipairs(cases) do
    helper.assert_raises(function () s:generator({ [c[1]] = c[2] }) end,
                         c[3] or c[1], c[1] .. " = " .. tostring(c[2]))
  end
end

-- Asserts that opening the scheme `name` raises for every case { param,
-- value } of `cases` (the parameters: that one, set to value), naming the
-- parameter.
function helper.assert_params_raise (name, cases)
  local idscheme = require "idscheme"
  for _, c in ipairs(cases) do
    helper.assert_raises(function ()
      idscheme.scheme(name, { [c[1]] = c[2] })
    end, c[1], name .. " " .. c[1] .. " = " .. tostring(c[2]))
  end
end

-- Asserts that the bytes of id are `hex` (hex digits) and read back as id.
function helper.assert_bytes (s, id, hex)
  luassert.are.equal(hex, helper.tohex(id:bytes()))
  luassert.is_true(s:from_bytes(id:bytes()) == id)
end

-- Asserts that got is within `tolerance` of `want` (a clock reading).
function helper.assert_near (got, want, tolerance, what)
  luassert.is_true(math.abs(got - want) < tolerance, (what or "timestamp")
                   .. " " .. got .. ", expected about " .. want)
end

-- Takes n ids from generator g, each of which must be above the one
-- before; check(id, i, prev), if given, may return a message for an id
-- that is wrong in another way.  Returns the last id taken and the first
-- message (nil when all n are right), at which it stops.
function helper.take_increasing (g, n, check)
  local prev = g:next()
  local bad = check and check(prev, 1, nil)
  if bad then return prev, bad end
  for i = 2, n do
    local id = g:next()
    if not (prev < id) then
      return id, ("id %d (%s) is not above id %d (%s)"):format(
        i, tostring(id), i - 1, tostring(prev))
    end
    bad = check and check(id, i, prev)
    if bad then return id, bad end
    prev = id
  end
  return prev, nil
end

-- Asserts that the sequence of n + 1 ids of generator g counts from 0 in
-- each timestamp (and goes no higher than max, if given).
function helper.assert_sequence_counts (g, n, max)
  local first = g:next():fields()
  luassert.are.equal(0, first.sequence)
  local ts, seq = first.timestamp, 0
  for _ = 1, n do
    local f = g:next():fields()
    if f.timestamp == ts then
      luassert.are.equal(seq + 1, f.sequence)
    else
      luassert.is_true(f.timestamp > ts)
      luassert.are.equal(0, f.sequence)
    end
    if max then luassert.is_true(f.sequence <= max) end
    ts, seq = f.timestamp, f.sequence
  end
end

-- Asserts that g:next_string(enc), for every encoding of `encodings`,
-- decodes under enc to an id that writes it back.
function helper.assert_next_strings (s, g, encodings)
  for _, enc in ipairs(encodings) do
    local text = g:next_string(enc)
    luassert.are.equal(text, assert(s:decode(text, enc)):encode(enc))
  end
end

-- Asserts that the scheme `name` is listed and that scheme(name) is s.
function helper.assert_listed (s, name)
  local idscheme = require "idscheme"
  luassert.is_true(helper.set(idscheme.list())[name])
  luassert.is_true(rawequal(s, idscheme.scheme(name)))
end

-- Asserts a scheme's name, bits and encodings, the first the default.
function helper.assert_scheme (s, name, bits, encodings)
  luassert.are.equal(name, s.name)
  luassert.are.equal(bits, s.bits)
  luassert.are.equal(encodings[1], s.default_encoding)
  luassert.are.same(encodings, s.encodings)
end

-- Asserts what id:integer() gives for an id of the unsigned 64-bit value
-- `dec` (a decimal string).  Lua 5.4: that value as an integer, wrapped at
-- and above 2^63 as string.unpack("<I8", ...) gives it.  Where numbers
-- are doubles (LuaJIT): the exact number up to 2^53 included; above that
-- it raises rather than lose precision (DESIGN.md, binding/idscheme.c pushu64).
function helper.assert_integer (id, dec, what)
  dec = helper.decnorm(dec)
  what = what or ("id:integer() of " .. dec)
  if helper.INT64 then
    luassert.are.equal(helper.u64(dec), id:integer(), what)
  elseif helper.dec_less(dec, helper.TWO53) or dec == helper.TWO53 then
    local got = id:integer()
    luassert.are.equal("number", type(got), what)
    luassert.are.equal(tonumber(dec), got, what)
  else
    helper.assert_raises(function () return id:integer() end, "precision",
                         what .. " (above 2^53, numbers are doubles)")
  end
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
      local d = helper.idiv(cur, base)
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
  local bxor, band, shr = helper.bxor, helper.band, helper.shr
  local c = 0xffffffff
  for i = 1, #bin do
    c = bxor(c, bin:byte(i))
    for _ = 1, 8 do
      if band(c, 1) == 1 then c = bxor(shr(c, 1), 0xedb88320)
      else c = shr(c, 1) end
    end
  end
  return bxor(c, 0xffffffff)
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

-- The fields a scheme describes, written short: "timestamp 40 time,
-- random 56 random" -> { { name = "timestamp", bits = 40, kind = "time" },
-- { name = "random", bits = 56, kind = "random" } }, in that order.
function helper.layout (text)
  local fields = {}
  for item in (text .. ","):gmatch("%s*([^,]-)%s*,") do
    local name, bits, kind = item:match("^(%S+)%s+(%d+)%s+(%S+)$")
    assert(name, "layout: not 'name bits kind': " .. item)
    fields[#fields + 1] = { name = name, bits = tonumber(bits), kind = kind }
  end
  return fields
end

-- s.fields as helper.layout writes a layout: name, bits, kind (and
-- variable).  A scheme's one time field also gives its unit (a string)
-- and epoch (an integer): checked here, then left out (time_spec checks
-- their values).
function helper.shape (fields)
  local out, ntime = {}, 0
  for _, f in ipairs(fields) do
    if f.kind == "time" then ntime = ntime + 1 end
  end
  for i, f in ipairs(fields) do
    local g = {}
    for k, v in pairs(f) do g[k] = v end
    if f.kind == "time" and ntime == 1 then
      luassert.are.equal("string", type(f.unit), f.name .. ".unit")
      luassert.is_true(math.type == nil or math.type(f.epoch) == "integer",
                       f.name .. ".epoch")
      luassert.are.equal("number", type(f.epoch), f.name .. ".epoch")
    else
      luassert.is_nil(f.unit, f.name .. ".unit")
      luassert.is_nil(f.epoch, f.name .. ".epoch")
    end
    g.unit, g.epoch = nil, nil
    out[i] = g
  end
  return out
end

-- ---------------------------------------------------------------------
-- Cases that several scheme specs define alike.  busted gives `it` to the
-- spec files only, so a spec hands it over with the scheme:
--
--   local cases = helper.cases(it, s)
--   cases.scheme("flax", 96, ENCODINGS, "timestamp 40 time, random 56 random")
--
-- Each function below defines the cases it names, in the order given,
-- inside the describe block it is called from.
function helper.cases (it, s)
  local cases = {}

  -- "describes its fields, most significant first": s.fields is the
  -- layout (helper.layout).
  function cases.fields (layout)
    it("describes its fields, most significant first", function ()
      luassert.are.same(helper.layout(layout), helper.shape(s.fields))
    end)
  end

  -- The scheme `name` is listed and opened by name, and has that name,
  -- `bits` and `encodings` (the first the default); with a layout, its
  -- fields too (cases.fields).
  function cases.scheme (name, bits, encodings, layout)
    it("is listed and opened by name", function ()
      helper.assert_listed(s, name)
    end)

    it("has name, bits and encodings, " .. encodings[1] .. " first",
       function ()
      helper.assert_scheme(s, name, bits, encodings)
    end)

    if layout then cases.fields(layout) end
  end

  -- "has the documented layout": the fields (helper.layout), bits, bytes
  -- and encodings (the first the default) of a published scheme.
  function cases.layout (layout, bits, bytes, encodings)
    it("has the documented layout", function ()
      luassert.are.same(helper.layout(layout), helper.shape(s.fields))
      luassert.are.equal(bits, s.bits)
      luassert.are.equal(bytes, s.bytes)
      luassert.are.equal(encodings[1], s.default_encoding)
      luassert.are.same(encodings, s.encodings)
    end)
  end

  -- One case an entry { title, rows, enc = ENC, refused = TEXTS } of
  -- `list`: helper.assert_decodings(s, rows), and each text of `refused`
  -- rejected under the encoding `enc` (rows or refused may be left out).
  function cases.decodings (list)
    for _, c in ipairs(list) do
      it(c[1], function ()
        helper.assert_decodings(s, c[2] or {})
        for _, text in ipairs(c.refused or {}) do
          helper.assert_rejected(s, text, c.enc)
        end
      end)
    end
  end

  -- What decode() refuses alike in every scheme: `bad` texts (default
  -- helper.BAD_TEXT) under no encoding and each of `encodings` give nil
  -- and a message; text that is not a string raises
  -- (helper.assert_decode_needs_text with `enc` and `true_enc`); each
  -- name of `unknown` raises, naming it.
  function cases.decode_refusals (t)
    it("returns nil and a message on bad text, never raising", function ()
      helper.assert_all_rejected(s, t.bad or helper.BAD_TEXT, t.encodings)
    end)

    it("raises when the text is not a string", function ()
      helper.assert_decode_needs_text(s, t.enc, t.true_enc)
    end)

    it("raises on an unknown encoding, naming it", function ()
      helper.assert_unknown_encodings(s, t.unknown)
    end)
  end

  -- What from_bytes() refuses: each byte string of `wrong` (a wrong
  -- length) gives nil and a message; what is not a string raises.
  function cases.from_bytes_refusals (wrong)
    it("returns nil and a message on a wrong length", function ()
      helper.assert_bytes_rejected(s, wrong)
    end)

    it("raises when the bytes are not a string", function ()
      helper.assert_from_bytes_needs_string(s)
    end)
  end

  -- What compose() refuses, naming the field, from the fields `t.base`:
  -- each of `t.missing` left out, each case of `t.out_of_range`
  -- (helper.assert_compose_raises), field `t.not_integer` set to each of
  -- helper.NOT_INTEGERS, the field `t.foreign` = { name, value } that the
  -- scheme `t.name` does not have, and `t.not_table` given for the fields.
  -- Each key given defines its case.
  function cases.compose_refusals (t)
    if t.missing then
      it("raises when a field is missing, naming it", function ()
        helper.assert_compose_raises(s, t.base,
                                     helper.cases_missing(t.missing))
      end)
    end
    if t.out_of_range then
      it("raises when a field is out of range, naming it", function ()
        helper.assert_compose_raises(s, t.base, t.out_of_range)
      end)
    end
    if t.not_integer then
      it("raises when a field is not an integer, naming it", function ()
        helper.assert_compose_raises(s, t.base, helper.cases_of(
          t.not_integer, helper.NOT_INTEGERS))
      end)
    end
    if t.foreign then
      it("raises on a field " .. t.name .. " does not have, naming it",
         function ()
        helper.assert_compose_raises(s, t.base, { t.foreign })
      end)
    end
    if t.not_table ~= nil then
      it("raises when fields is not a table", function ()
        helper.assert_compose_needs_table(s, t.not_table)
      end)
    end
  end

  -- A case for each representation vector of `vectors` (SUOU's: an
  -- output block with value_dec and its forms): a value of 0..limit-1
  -- (limit a decimal string) holds check(v, out, e) in every form; any
  -- other is refused in every form that forms(out) gives (encoding ->
  -- text) and as out[default], with no encoding named
  -- (helper.assert_forms_rejected).
  function cases.representation_vectors (vectors, limit, check, forms,
                                          default)
    for _, e in ipairs(vectors) do
      local out = e.output
      local v = out.value_dec
      if v:match("^%d+$") and helper.dec_less(v, limit) then
        it(e.name .. ": " .. v .. " in every form", function ()
          check(v, out, e)
        end)
      else
        it(e.name .. ": " .. v .. " is refused in every form", function ()
          helper.assert_forms_rejected(s, forms(out), out[default])
        end)
      end
    end
  end

  -- 0 is written `text` in encoding `enc` (where the reference wrote "")
  -- and reads back; "" and blanks are refused there.
  function cases.zero_form (enc, text)
    it("writes 0 in " .. enc .. " as \"" .. text .. "\", and refuses \"\" as "
       .. "blank", function ()
      local zero = helper.assert_decodes(s, "0", "dec", "0")
      luassert.are.equal(text, zero:encode(enc))
      helper.assert_decodes(s, text, enc, "0")
      helper.assert_rejected(s, "", enc)
      helper.assert_rejected(s, " ", enc)
      helper.assert_rejected(s, "  ", enc)
    end)
  end

  -- What an id refuses: an encoding of `unknown` raises, naming it, on
  -- the id make() gives; with `bits` (wider than 64), it has no integer.
  function cases.id_refusals (make, unknown, bits)
    it("raise on an unknown encoding, naming it", function ()
      helper.assert_raises(function () make():encode(unknown) end, unknown)
    end)

    if bits then
      it("have no Lua integer (" .. bits .. " bits)", function ()
        luassert.has_error(function () make():integer() end)
      end)
    end
  end

  return cases
end


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
  local band, bor, shl, shr = helper.band, helper.bor, helper.shl, helper.shr
  local out, acc, nbits = {}, 0, 0
  for i = 1, #bin do
    acc = bor(shl(acc, 8), bin:byte(i))
    nbits = nbits + 8
    while nbits >= 6 do
      nbits = nbits - 6
      local d = band(shr(acc, nbits), 63)
      out[#out + 1] = digits:sub(d + 1, d + 1)
    end
    acc = band(acc, helper.pow2(nbits) - 1)
  end
  if nbits > 0 then
    local d = band(shl(acc, 6 - nbits), 63)
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
  local r = { n = 0 }
  local function pack (...)
    r.n = select("#", ...)
    for i = 1, r.n do r[i] = (select(i, ...)) end
  end
  pack(pcall(fn, ...))
  return os.clock() - t0, (table.unpack or unpack)(r, 1, r.n)
end

-- A fogfish/uid term as printed by io_lib:format("~tw"):
--   "{uid,{A,B,C},Seq}"                     -> {A=, B=, C=, Seq=}
--   "{uid,<<1,2,3,4>>,{A,B,C},Seq}"         -> ... node = {binary = "\1\2\3\4"}
--   "{uid,'uid@127.0.0.1',{A,B,C},Seq}"     -> ... node = {atom = "uid@127.0.0.1"}
--   "{uid,nonode@nohost,{A,B,C},Seq}"       -> ... node = {atom = "nonode@nohost"}
-- or nil when the text is none of these.
function helper.uid_term (text)
  local function ints (t, a, b, c, q)
    t.A, t.B, t.C, t.Seq = helper.tointeger(tonumber(a)),
      helper.tointeger(tonumber(b)), helper.tointeger(tonumber(c)),
      helper.tointeger(tonumber(q))
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


-- ---------------------------------------------------------------------
-- Helpers for the scripted-scheme spec.

-- The big-endian bytes of a bit layout, most significant field first:
-- each entry is { bits = n, value = integer } (a non-negative integer
-- below 2^53; any of 64 bits under 5.4) or { bits = n, bytes = string }
-- (ceil(n/8) bytes, big-endian, the unused high bits zero), and the
-- whole is right-aligned in `width` bytes (default: the fewest that hold
-- it).  Independent of the library.
function helper.pack_bits (layout, width)
  local bits, total = {}, 0
  for _, f in ipairs(layout) do
    local n = f.bits
    if f.bytes ~= nil then
      local b = f.bytes
      assert(#b == helper.idiv(n + 7, 8), "pack_bits: wrong byte count")
      local all = {}
      for i = 1, #b do
        local c = b:byte(i)
        for k = 7, 0, -1 do all[#all + 1] = helper.band(helper.shr(c, k), 1) end
      end
      for i = 1, #all - n do
        assert(all[i] == 0, "pack_bits: value wider than its field")
      end
      for i = #all - n + 1, #all do bits[#bits + 1] = all[i] end
    else
      local v = f.value
      assert(helper.is_integer(v) and v >= 0, "pack_bits: bad value")
      for k = n - 1, 0, -1 do
        bits[#bits + 1] = helper.band(helper.shr(v, k), 1)
      end
      assert(helper.shr(v, n) == 0,
             "pack_bits: value wider than its field")
    end
    total = total + n
  end
  width = width or helper.idiv(total + 7, 8)
  assert(width * 8 >= total, "pack_bits: width too small")
  local pad = {}
  for i = 1, width * 8 - total do pad[i] = 0 end
  for _, b in ipairs(bits) do pad[#pad + 1] = b end
  local out = {}
  for i = 1, width do
    local c = 0
    for k = 1, 8 do c = c * 2 + pad[(i - 1) * 8 + k] end
    out[i] = string.char(c)
  end
  return table.concat(out)
end

-- Runs the Lua source `code` in a fresh process of the running
-- interpreter (Linux: /proc/<pid>/exe) with this process's package.path
-- and package.cpath, and returns what it wrote to stdout and stderr.
-- For what must not touch this process's registry of schemes.
function helper.run_lua (code)
  -- $IDS_RUN_LUA: the interpreter when this one runs under another program
  -- (scripts/valgrind.sh: valgrind's own binary is the parent)
  local exe, p = os.getenv("IDS_RUN_LUA"), nil
  if not exe or exe == "" then
    p = assert(io.popen("readlink /proc/$PPID/exe"))
    exe = p:read("*l")
    p:close()
  end
  assert(exe and exe ~= "", "run_lua: cannot find the interpreter")
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "wb"))
  f:write(("package.path = %q\npackage.cpath = %q\n"):format(package.path,
                                                          package.cpath),
          code)
  f:close()
  local function sq (s) return "'" .. s:gsub("'", "'\\''") .. "'" end
  p = assert(io.popen(sq(exe) .. " " .. sq(tmp) .. " 2>&1"))
  local out = p:read("*a")
  p:close()
  os.remove(tmp)
  return out
end

-- A folder of the test's own, empty (a local slot directory): os.tmpname
-- makes a file of a fresh name, whose name the folder takes.  The test
-- removes it with helper.rmtree, in a finally or teardown.
function helper.tmpdir ()
  local p = os.tmpname()
  os.remove(p)
  assert(os.execute("mkdir -m 700 '" .. p .. "'"))
  return p
end

function helper.rmtree (p)
  os.execute("rm -rf '" .. p .. "'")
end

-- n scaled by $IDS_TEST_SCALE (default 1; scripts/valgrind.sh makes the
-- long loops short with it), at least `least`.
function helper.scaled (n, least)
  local k = tonumber(os.getenv("IDS_TEST_SCALE") or "") or 1
  return math.max(least, math.floor(n * k))
end

return helper
