-- Scripted schemes (DESIGN.md "Scripted schemes", docs/API.md): the six
-- shipped schemes (schemes/shipped.c) against published examples,
-- the Flax built-in re-expressed with idscheme.define and checked against
-- every vector of spec/vectors/flax.json, the refusal of bad specs, bad
-- text, fields wider than 64 bits, and generator properties.
--
-- Expected values are built independently of the library where they are
-- not published: helper.pack_bits packs a bit layout into bytes,
-- helper.numeral writes bytes in any alphabet, helper.dec/tohex give the
-- decimal and hex of bytes.  Numbers that only Lua 5.4 holds exactly
-- (64-bit fields at or above 2^53) go through helper.field/field_hex.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local unhex, tohex, be = helper.unhex, helper.tohex, helper.be
local TWO40 = helper.pow2(40)

local DIGITS_B62 =
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
local FLAX_ALPHABET =
  "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

local SHIPPED = { "instagram", "ksuid", "sonyflake", "twitter", "ulid",
                  "uuidv7" }

-- A scheme name that nothing in this process has taken yet: `base`, or
-- base with a suffix when a spec file is run twice (busted --repeat).
local function fresh (base)
  local name, n = base, 1
  while pcall(idscheme.scheme, name) do
    n = n + 1
    name = base .. "_" .. n
  end
  return name
end

-- Asserts that the id has `text` as its `enc` form and that the text
-- decodes back to it (a value-equal id).
local function assert_form (s, id, enc, text)
  assert.are.equal(text, id:encode(enc), s.name .. " " .. enc .. " form")
  local back, msg = s:decode(text, enc)
  assert.is_not_nil(back, "decoding " .. helper.show(text) .. " as " .. enc
                    .. ": " .. tostring(msg))
  assert.is_true(back == id, "decoding " .. helper.show(text) .. " as "
                 .. enc .. " gives another value")
end

-- Fields for messages: wide ones in hex.
local function show_fields (t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do
    local v = t[k]
    if type(v) == "string" and not v:match("^%d+$") then
      v = "0x" .. tohex(v)
    end
    out[#out + 1] = k .. "=" .. tostring(v)
  end
  return "{" .. table.concat(out, ", ") .. "}"
end

-- Asserts that `text` decodes to an id that writes it back (encode() and
-- tostring), writes each form { enc, text } of `forms` and reads it back
-- (assert_form), and has the bytes `bytes`, which from_bytes reads back to
-- it.  Returns the id.
local function assert_reencodes (s, text, forms, bytes)
  local id = assert(s:decode(text))
  assert.are.equal(text, id:encode())
  assert.are.equal(text, tostring(id))
  for _, f in ipairs(forms) do assert_form(s, id, f[1], f[2]) end
  assert.are.equal(tohex(bytes), tohex(id:bytes()))
  assert.is_true(s:from_bytes(bytes) == id)
  return id
end

-- Asserts that compose(fields) writes `text`, and that the fields `text`
-- decodes to compose back to it.
local function assert_composes (s, text, fields)
  assert.are.equal(text, s:compose(fields):encode())
  local id = assert(s:decode(text))
  assert.are.equal(text, s:compose(id:fields()):encode())
  assert.is_true(s:compose(id:fields()) == id)
end

-- The cases of a published example of a scheme s of a timestamp and a
-- field of bytes (ulid's random, ksuid's payload): the scheme has the
-- fields ex.layout (helper.layout), ex.bits and ex.encodings, the first
-- the default; the example's bytes are the timestamp ex.time (ex.time_bytes
-- of them, big-endian) then ex.value, the bytes of the field ex.field; its
-- text ex.text is their numeral in ex.digits (named ex.numeral; ex.width
-- digits), its hex form their hex digits, and ex.forms (encoding -> text)
-- its other forms.
local function published_cases (s, ex)
  ex.bytes = be(ex.time, ex.time_bytes) .. ex.value
  ex.forms[ex.encodings[1]] = ex.text
  ex.forms.hex = tohex(ex.bytes)
  local forms = {}
  for _, enc in ipairs(ex.encodings) do
    forms[#forms + 1] = { enc, assert(ex.forms[enc], "no form " .. enc) }
  end

  helper.cases(it, s).layout(ex.layout, ex.bits, #ex.bytes, ex.encodings)

  it("is the " .. ex.numeral .. " numeral of timestamp and " .. ex.field
     .. " (independent)", function ()
    assert.are.equal(ex.text, helper.numeral(ex.bytes, ex.digits, ex.width))
  end)

  it("decodes to timestamp " .. ex.time .. " and its " .. ex.field
     .. " bytes", function ()
    local id = assert(s:decode(ex.text))
    local f = id:fields()
    assert.are.equal(ex.time, f.timestamp)
    assert.are.equal("string", type(f[ex.field]))
    assert.are.equal(#ex.value, #f[ex.field])
    assert.are.equal(tohex(ex.value), tohex(f[ex.field]))
    assert.are.equal(tohex(ex.bytes), tohex(id:bytes()))
  end)

  it("re-encodes exactly, in every form", function ()
    assert_reencodes(s, ex.text, forms, ex.bytes)
  end)

  it("composes from its fields (" .. ex.field .. " as bytes) to the same "
     .. "text", function ()
    assert_composes(s, ex.text, { timestamp = ex.time,
                                  [ex.field] = ex.value })
  end)
end

-- ===================================================================
describe("shipped scripted schemes: published examples", function ()

  describe("uuidv7, RFC 9562 appendix A.6", function ()
    local s = idscheme.scheme("uuidv7")
    local cases = helper.cases(it, s)
    local TEXT = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
    local HEX = "017f22e279b07cc398c4dc0c0c07398f"
    -- rand_a = 0xCC3, rand_b = the low 62 bits of 0x98C4DC0C0C07398F
    local FIELDS = {
      timestamp = 0x017F22E279B0, version = 7, sequence = 0xCC3,
      variant = 2, random = helper.field_hex("18c4dc0c0c07398f"),
    }

    cases.layout("timestamp 48 time, version 4 constant, sequence 12 "
                 .. "sequence, variant 2 constant, random 62 random",
                 128, 16, { "uuid", "hex", "base58", "urn", "braced", "dec", "base57", "flickr58" })

    it("decodes to timestamp 0x017F22E279B0 ms, version 7, variant 2",
       function ()
      local id = assert(s:decode(TEXT))
      assert.are.same(FIELDS, id:fields())
      assert.are.equal(1645557742000, id:fields().timestamp)
    end)

    it("re-encodes exactly, in every form", function ()
      assert_reencodes(s, TEXT, {
        { "uuid", TEXT }, { "hex", HEX },
        { "base58", helper.numeral(unhex(HEX),
                                   "123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
                                   .. "abcdefghijkmnopqrstuvwxyz") },
      }, unhex(HEX))
    end)

    it("composes from its fields to the same text", function ()
      assert_composes(s, TEXT, FIELDS)
      local f = {}
      for k, v in pairs(FIELDS) do f[k] = v end
      f.version, f.variant = nil, nil           -- constants may be left out
      assert.are.equal(TEXT, s:compose(f):encode())
    end)

    it("decodes the text in upper case to the same id", function ()
      assert.is_true(assert(s:decode(TEXT:upper())) == assert(s:decode(TEXT)))
    end)

    it("refuses a version or variant other than its constant in compose",
       function ()
      local f = {}
      for k, v in pairs(FIELDS) do f[k] = v end
      f.version = 4
      helper.assert_raises(function () s:compose(f) end, "version")
      f.version, f.variant = 7, 3
      helper.assert_raises(function () s:compose(f) end, "variant")
    end)
  end)

  describe("ulid, the reference's seeded example", function ()
    local s = idscheme.scheme("ulid")
    local TEXT = "01ARYZ6S41TSV4RRFFQ69G5FAV"

    published_cases(s, {
      layout = "timestamp 48 time, random 80 random", bits = 128,
      encodings = { "crockford", "uuid", "hex" },
      time = 1469918176385, time_bytes = 6, field = "random",
      value = unhex("d6764c61efb99302bd5b"), text = TEXT,
      numeral = "Crockford", digits = helper.DIGITS.crockford, width = 26,
      -- the hex digits of the bytes, grouped 8-4-4-4-12
      forms = { uuid = "01563df3-6481-d676-4c61-efb99302bd5b" },
    })

    it("decodes lower case to the same id", function ()
      assert.is_true(assert(s:decode(TEXT:lower())) == assert(s:decode(TEXT)))
    end)

    it("takes 7ZZZZZZZZZZZZZZZZZZZZZZZZZ, the largest ULID", function ()
      local id = assert(s:decode("7ZZZZZZZZZZZZZZZZZZZZZZZZZ"))
      assert.are.equal(("\255"):rep(16), id:bytes())
    end)
  end)

  describe("ksuid, the segmentio/ksuid README example", function ()
    local s = idscheme.scheme("ksuid")

    published_cases(s, {
      layout = "timestamp 32 time, payload 128 random", bits = 160,
      encodings = { "base62", "hex" },
      time = 107608047, time_bytes = 4, field = "payload",
      value = unhex("b5a1cd34b5f99d1154fb6853345c9735"),
      text = "0ujtsYcgvSTl8PAuAdqWYSMnLOv",
      numeral = "base62", digits = DIGITS_B62, width = 27, forms = {},
    })

    it("reads the README's nil and max KSUIDs", function ()
      local zero = assert(s:decode("000000000000000000000000000"))
      assert.are.equal(("\0"):rep(20), zero:bytes())
      local max = assert(s:decode("aWgEPTl1tmebfsQzFP4bxwgy80V"))
      assert.are.equal(("\255"):rep(20), max:bytes())
      assert.are.same({ timestamp = 4294967295, payload = ("\255"):rep(16) },
                      max:fields())
      helper.assert_rejected(s, "aWgEPTl1tmebfsQzFP4bxwgy80W")
    end)
  end)

  -- The 64-bit schemes: compose from fields; the expected value is packed
  -- independently (helper.pack_bits) and checked through dec, hex,
  -- bytes, integer() and fields().
  local SIXTY_FOUR = {
    {
      name = "sonyflake",
      layout = { { "unused", 1, 0 }, { "timestamp", 39 }, { "sequence", 8 },
                 { "machine", 16 } },
      cases = {
        -- 2025-01-01Z in 10 ms since 2014-09-01Z
        { timestamp = 32616000000, sequence = 3, machine = 1 },
        { timestamp = 0, sequence = 0, machine = 0 },
        { timestamp = 1, sequence = 255, machine = 65535 },
        { timestamp = helper.pow2(39) - 1, sequence = 255, machine = 65535 },
        { timestamp = 12345678901, sequence = 128, machine = 0x1234 },
      },
    },
    {
      name = "twitter",
      layout = { { "unused", 1, 0 }, { "timestamp", 41 }, { "worker", 10 },
                 { "sequence", 12 } },
      cases = {
        -- 2025-01-01Z in ms since 1288834974657
        { timestamp = 446854625343, worker = 1, sequence = 7 },
        { timestamp = 0, worker = 0, sequence = 0 },
        { timestamp = helper.pow2(41) - 1, worker = 1023, sequence = 4095 },
        { timestamp = 1, worker = 512, sequence = 2048 },
      },
    },
    {
      name = "instagram",
      layout = { { "timestamp", 41 }, { "shard", 13 }, { "sequence", 10 } },
      cases = {
        -- Instagram Engineering's worked example: 1387263000 ms since
        -- 2011-01-01Z, shard 31341 % 2000, sequence 5001 % 1024
        { timestamp = 1387263000, shard = 1341, sequence = 905 },
        { timestamp = 0, shard = 0, sequence = 0 },
        { timestamp = helper.pow2(41) - 1, shard = 8191, sequence = 1023 },
        { timestamp = helper.pow2(40), shard = 4096, sequence = 512 },
      },
    },
  }

  for _, sc in ipairs(SIXTY_FOUR) do
    describe(sc.name, function ()
      local s = idscheme.scheme(sc.name)

      it("has the documented layout (64 bits, dec and hex)", function ()
        assert.are.equal(64, s.bits)
        assert.are.equal(8, s.bytes)
        assert.are.equal("dec", s.default_encoding)
        assert.are.same({ "dec", "hex" }, s.encodings)
        local names = {}
        for i, f in ipairs(s.fields) do
          names[i] = f.name .. ":" .. f.bits
        end
        local want = {}
        for i, l in ipairs(sc.layout) do want[i] = l[1] .. ":" .. l[2] end
        assert.are.same(want, names)
      end)

      for _, c in ipairs(sc.cases) do
        local layout, expect = {}, {}
        for i, l in ipairs(sc.layout) do
          local v = l[3] or c[l[1]]
          layout[i] = { bits = l[2], value = v }
          expect[l[1]] = v
        end
        local bytes = helper.pack_bits(layout, 8)
        local dec, hex = helper.dec(bytes), tohex(bytes)

        it("composes " .. show_fields(c) .. " to " .. dec
           .. " and round-trips through dec, hex and fields()", function ()
          local id = s:compose(c)
          assert.are.equal(dec, id:encode())
          assert.are.equal(dec, tostring(id))
          assert_form(s, id, "dec", dec)
          assert_form(s, id, "hex", hex)
          assert.are.equal(16, #id:encode("hex"))
          assert.are.equal(hex, tohex(id:bytes()))
          assert.is_true(s:from_bytes(bytes) == id)
          helper.assert_integer(id, dec)
          assert.are.same(expect, id:fields())
          assert.are.same(expect, assert(s:decode(dec)):fields())
          assert.are.same(expect, assert(s:decode(hex, "hex")):fields())
          assert.is_true(s:compose(id:fields()) == id)
          assert.are.equal(dec, s:compose(id:fields()):encode())
        end)
      end

      it("raises on a field out of range, naming it", function ()
        local c = sc.cases[1]
        for _, l in ipairs(sc.layout) do
          if not l[3] then
            local f = {}
            for k, v in pairs(c) do f[k] = v end
            f[l[1]] = helper.pow2(l[2])
            helper.assert_raises(function () s:compose(f) end, l[1],
                                 sc.name .. " " .. l[1] .. " = 2^" .. l[2])
            f[l[1]] = -1
            helper.assert_raises(function () s:compose(f) end, l[1],
                                 sc.name .. " " .. l[1] .. " = -1")
            f[l[1]] = nil
            helper.assert_raises(function () s:compose(f) end, l[1],
                                 sc.name .. " without " .. l[1])
          end
        end
        if sc.layout[1][1] == "unused" then
          local f = { unused = 1 }
          for k, v in pairs(c) do f[k] = v end
          helper.assert_raises(function () s:compose(f) end, "unused")
        end
      end)
    end)
  end
end)

-- ===================================================================
describe("flax re-expressed as a script", function ()
  local V = helper.vectors("flax")
  local flax = idscheme.scheme("flax")
  local NAME = fresh("flax_script")
  local fs = idscheme.define{
    name = NAME,
    fields = {
      { name = "timestamp", bits = 40, kind = "time", unit = "ms",
        epoch = 1420070400000 },
      { name = "random", bits = 56, kind = "random" },
    },
    encodings = { "b64sort:" .. FLAX_ALPHABET, "hex", "dec" },
  }
  -- the script's form name for each of the built-in's
  local FORMS = { { "flax", "b64sort" }, { "hex", "hex" }, { "dec", "dec" } }

  it("is a scheme like the built-in", function ()
    assert.are.equal(NAME, fs.name)
    assert.are.equal(96, fs.bits)
    assert.are.equal(12, fs.bytes)
    assert.are.same({ "b64sort", "hex", "dec" }, fs.encodings)
    assert.are.equal("b64sort", fs.default_encoding)
    assert.are.same(flax.fields, fs.fields)
    assert.is_true(rawequal(fs, idscheme.scheme(NAME)))
    assert.are.equal(1, #(function ()
      local n = {}
      for _, x in ipairs(idscheme.list()) do
        if x == NAME then n[#n + 1] = x end
      end
      return n
    end)())
  end)

  -- Asserts that the built-in id b and the script id s are the same ID:
  -- byte-identical forms and bytes, and each form of it decodes with the
  -- script to the built-in's fields.
  local function assert_same (b, sid, what)
    for _, p in ipairs(FORMS) do
      local text = b:encode(p[1])
      assert.are.equal(text, sid:encode(p[2]), what .. ": " .. p[2])
      local back, msg = fs:decode(text, p[2])
      assert.is_not_nil(back, what .. ": decoding " .. text .. " as " .. p[2]
                        .. ": " .. tostring(msg))
      assert.is_true(back == sid, what .. ": " .. p[2] .. " reads back")
      assert.are.same(b:fields(), back:fields(), what .. ": fields of "
                      .. p[2])
    end
    assert.are.equal(b:encode(), sid:encode(), what .. ": default form")
    assert.are.equal(tohex(b:bytes()), tohex(sid:bytes()), what .. ": bytes")
    assert.are.same(b:fields(), assert(fs:decode(b:encode())):fields(),
                    what .. ": default decode")
    assert.is_true(fs:from_bytes(b:bytes()) == sid, what .. ": from_bytes")
  end

  describe("vectors", function ()
    -- the selection of flax_spec.lua: those the built-in accepts
    for _, e in ipairs(V.vectors) do
      local d = e.derived_not_reference
      local ms = d.ms_since_flax_epoch
      local random = d.random56_hex and helper.field_hex(d.random56_hex)
      if e.input.float_math_differs_from_exact == true then
        -- not the built-in's either (flax.json has none)
      elseif ms ~= nil and ms >= 0 and ms < TWO40 then
        it(e.name .. ": composes as the built-in does ("
           .. e.output.string .. ")", function ()
          local f = { timestamp = ms, random = random }
          local b, sid = flax:compose(f), fs:compose(f)
          assert.are.equal(e.output.string, sid:encode())
          assert.are.equal(e.output.string, sid:encode("b64sort"))
          assert.are.equal(e.output.id_num_hex, sid:encode("hex"))
          assert.are.equal(e.output.id_num_dec, sid:encode("dec"))
          assert.are.equal(e.output.bytes12_hex, tohex(sid:bytes()))
          assert_same(b, sid, e.name)
          assert.are.same(f, sid:fields())
        end)
      else
        it(e.name .. ": refuses what the built-in refuses", function ()
          local exact = e.input.ms_exact_decimal_floor
          helper.assert_raises(function ()
            fs:compose({ timestamp = exact, random = random or 0 })
          end, "timestamp", "compose timestamp = " .. tostring(exact))
          helper.assert_rejected(fs, e.output.id_num_dec, "dec")
          helper.assert_rejected(fs, e.output.id_num_hex, "hex")
        end)
      end
    end
  end)

  describe("encoder_vectors", function ()
    local TWO96 = "79228162514264337593543950336"
    for _, e in ipairs(V.encoder_vectors) do
      local n = e.input_dec
      if n:match("^%d+$") and helper.dec_less(n, TWO96) then
        it(e.name .. ": " .. n .. " as the built-in writes it", function ()
          local b = helper.assert_decodes(flax, n, "dec", n)
          local sid = helper.assert_decodes(fs, n, "dec", n)
          assert.are.equal(e.output, sid:encode("b64sort"))
          assert_same(b, sid, e.name)
          helper.assert_decodes(fs, e.output, "b64sort", n)
          helper.assert_decodes(fs, e.output, nil, n)
          local hex = ("0"):rep(24 - #e.input_hex) .. e.input_hex
          assert.are.equal(hex, sid:encode("hex"))
        end)
      else
        it(e.name .. ": " .. n .. " is refused as the built-in does",
           function ()
          helper.assert_rejected(flax, n, "dec")
          helper.assert_rejected(fs, n, "dec")
          helper.assert_rejected(fs, n)
        end)
      end
    end
  end)

  it("generates 1,000,000 strictly increasing ids whose b64sort texts "
     .. "sort as they do", function ()
    local g = fs:generator()
    local prev = g:next()
    local prevs = prev:encode()
    local bad
    for i = 2, helper.scaled(1000000, 5000) do
      local id = g:next()
      local str = id:encode()
      if not (prev < id) then
        bad = ("id %d (%s) is not above id %d (%s)"):format(i, str, i - 1,
                                                            prevs)
        break
      end
      if not helper.bytes_less(prevs, str) then
        bad = ("text %d %s does not sort after %s"):format(i, str, prevs)
        break
      end
      prev, prevs = id, str
    end
    assert.is_nil(bad)
    local ts = prev:fields().timestamp
    local expected = os.time() * 1000 - 1420070400000
    assert.is_true(math.abs(ts - expected) < 5000, "timestamp " .. ts
                   .. ", expected about " .. expected)
  end)
end)

-- ===================================================================
describe("idscheme.define refuses a bad spec", function ()
  local function T ()
    return { name = "ts", bits = 41, kind = "time", unit = "ms",
             epoch = 1600000000000 }
  end
  local function N (name, bits)
    return { name = name, bits = bits, kind = "node" }
  end

  -- name base, spec (name filled in), words the one message must hold
  local CASES = {
    { "zero width", { fields = { T(), N("worker", 0) }, encodings = { "dec" } },
      { "'worker'", "width", "0" } },
    { "negative width", { fields = { T(), N("worker", -3) },
                          encodings = { "dec" } },
      { "'worker'", "width", "-3" } },
    { "total over 160 bits",
      { fields = { T(), { name = "big", bits = 120, kind = "random" } },
        encodings = { "dec" } },
      { "'big'", "160" } },
    { "a field wider than 160 bits",
      { fields = { { name = "huge", bits = 161, kind = "random" } },
        encodings = { "dec" } },
      { "'huge'", "160" } },
    { "unknown kind", { fields = { T(), { name = "w", bits = 5,
                                          kind = "nodes" } },
                        encodings = { "dec" } },
      { "'w'", "kind", "nodes" } },
    { "no kind", { fields = { T(), { name = "w", bits = 5 } },
                   encodings = { "dec" } },
      { "'w'", "kind" } },
    { "unknown unit", { fields = { { name = "ts", bits = 41, kind = "time",
                                     unit = "min" } },
                        encodings = { "dec" } },
      { "'ts'", "unit", "min" } },
    { "unknown encoding", { fields = { T() }, encodings = { "dec",
                                                            "base36" } },
      { "encoding", "base36" } },
    { "two sequence fields",
      { fields = { T(), { name = "s1", bits = 5, kind = "sequence" },
                   { name = "s2", bits = 5, kind = "sequence" } },
        encodings = { "dec" } },
      { "'s2'", "sequence" } },
    { "20 bits of ms cannot hold today's time",
      { fields = { { name = "stamp", bits = 20, kind = "time", unit = "ms" } },
        encodings = { "dec" } },
      { "'stamp'", "time" } },
    { "40 bits of 1/65536 s cannot hold today's time",
      { fields = { { name = "stamp", bits = 40, kind = "time",
                     unit = "1/65536 s" } },
        encodings = { "dec" } },
      { "'stamp'", "time" } },
    { "missing field name",
      { fields = { T(), { bits = 5, kind = "node" } }, encodings = { "dec" } },
      { "field", "name" } },
    { "duplicate field name",
      { fields = { T(), N("ts", 5) }, encodings = { "dec" } },
      { "'ts'", "duplicate" } },
    { "a split field's further part with a kind",
      { fields = { T(), N("n", 5), { name = "ts", bits = 4, kind = "node" } },
        encodings = { "dec" } },
      { "'ts'", "duplicate", "name and bits alone" } },
    { "a random field split",
      { fields = { T(), { name = "r", bits = 8, kind = "random" },
                   N("n", 5), { name = "r", bits = 8 } },
        encodings = { "dec" } },
      { "'r'", "duplicate", "only time, node and sequence" } },
    { "a split field in four parts",
      { fields = { T(), N("n", 2), N("m", 2), { name = "n", bits = 2 },
                   N("k", 2), { name = "n", bits = 2 },
                   { name = "n", bits = 2 } }, encodings = { "dec" } },
      { "'n'", "more than 3" } },
    { "a split field over 64 bits",
      { fields = { { name = "t", bits = 40, kind = "time" },
                   { name = "c", bits = 4, kind = "constant", value = 1 },
                   { name = "t", bits = 30 } }, encodings = { "hex" } },
      { "'t'", "at most 64 bits" } },
    { "an order that is not one",
      { fields = { { name = "t", bits = 40, kind = "time", order = "up" },
                   N("n", 8), { name = "t", bits = 8 } },
        encodings = { "dec" } },
      { "'t'", "order 'up'" } },
    { "fields not a table", { fields = "ts", encodings = { "dec" } },
      { "fields", "table" } },
    { "fields missing", { encodings = { "dec" } }, { "fields", "table" } },
    { "uuid on a 64-bit layout",
      { fields = { T(), N("worker", 23) }, encodings = { "uuid" } },
      { "uuid", "128" } },
    { "uuid on a 136-bit layout",
      { fields = { T(), { name = "r", bits = 95, kind = "random" } },
        encodings = { "dec", "uuid" } },
      { "uuid", "128" } },
    { "uuid on a 120-bit layout padded to 16 bytes",
      { fields = { { name = "ts", bits = 48, kind = "time" },
                   { name = "r", bits = 72, kind = "random" } },
        encodings = { "uuid" }, bytes = 16 },
      { "uuid", "128" } },
    { "b64sort alphabet of 63 characters",
      { fields = { T() }, encodings = { "b64sort:" .. FLAX_ALPHABET:sub(2) } },
      { "b64sort", "alphabet" } },
    { "b64sort alphabet of 65 characters",
      { fields = { T() }, encodings = { "b64sort:" .. FLAX_ALPHABET .. "!" } },
      { "b64sort", "alphabet" } },
    { "b64sort alphabet with a repeated character",
      { fields = { T() },
        encodings = { "b64sort:--" .. FLAX_ALPHABET:sub(3) } },
      { "b64sort", "alphabet" } },
  }

  for i, c in ipairs(CASES) do
    it(c[1], function ()
      -- a name that says nothing, so that the words are found in the
      -- message proper
      local name = fresh("bad_spec_" .. i)
      local spec = { name = name }
      for k, v in pairs(c[2]) do spec[k] = v end
      local ok, err = pcall(idscheme.define, spec)
      assert.is_false(ok, c[1] .. ": define did not raise")
      assert.are.equal("string", type(err))
      for _, w in ipairs(c[3]) do
        assert.is_truthy(err:find(w, 1, true), c[1] .. ": message does not "
                         .. "name " .. w .. ": " .. err)
      end
      -- one error, for one problem
      local _, n = err:gsub("idscheme%.define", "")
      assert.are.equal(1, n, "one error: " .. err)
      -- and nothing was registered
      assert.is_false(pcall(idscheme.scheme, name), c[1] .. ": " .. name
                      .. " was registered")
      assert.is_nil(helper.set(idscheme.list())[name])
    end)
  end

  local GOOD = { fields = { T() }, encodings = { "dec" } }
  local function good (name)
    return { name = name, fields = GOOD.fields, encodings = GOOD.encodings }
  end

  it("a built-in name (fluid)", function ()
    helper.assert_raises(function () idscheme.define(good("fluid")) end,
                         "fluid")
    assert.are.equal(64, idscheme.scheme("fluid").bits)
    assert.are.equal("f58", idscheme.scheme("fluid").default_encoding)
  end)

  it("a name already defined, with another spec", function ()
    local name = fresh("twice")
    local s = idscheme.define(good(name))
    assert.are.equal(name, s.name)
    local other = good(name)
    other.encodings = { "hex" }
    helper.assert_raises(function () idscheme.define(other) end,
                         name .. "' exists already, with another spec")
    assert.is_true(rawequal(s, idscheme.scheme(name)))
  end)

  it("a name already defined, with the same spec: that scheme (a reload)",
     function ()
    local name = fresh("again")
    local s = idscheme.define(good(name))
    assert.is_true(rawequal(s, idscheme.define(good(name))))
  end)

  it("a shipped name once loaded (ulid)", function ()
    local u = idscheme.scheme("ulid")
    helper.assert_raises(function () idscheme.define(good("ulid")) end,
                         "ulid")
    assert.is_true(rawequal(u, idscheme.scheme("ulid")))
  end)

  it("a shipped name not yet loaded (each in a fresh process)", function ()
    local wrong = {}
    for _, name in ipairs(SHIPPED) do
      local out = helper.run_lua(([[
local idscheme = require "idscheme"
local ok, err = pcall(idscheme.define, {
  name = %q,
  fields = { { name = "n", bits = 8, kind = "node" } },
  encodings = { "dec" } })
print("define", ok, err)
local s = idscheme.scheme(%q)
print("scheme", s.bits, s.default_encoding, s.fields[1].name)
print("END")
]]):format(name, name))
      assert.is_truthy(out:find("\nEND\n", 1, true), "subprocess: " .. out)
      if not out:match("^define\tfalse\t[^\n]*" .. name)
         or out:find("scheme\t8\t", 1, true) then
        wrong[#wrong + 1] = out:gsub("\nEND\n$", ""):gsub("\n", " | ")
      end
    end
    assert.are.same({}, wrong, "define{name = <shipped>} before the script "
                    .. "was loaded is accepted, and idscheme.scheme(name) "
                    .. "then gives the impostor")
  end)

  it("a spec that is not a table", function ()
    assert.has_error(function () idscheme.define("x") end)
    assert.has_error(function () idscheme.define() end)
  end)
end)

-- ===================================================================
describe("bad text for scripted schemes gives nil, message", function ()
  local V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
  local CASES = {
    ulid = {
      { "01ARYZ6S41TSV4RRFFQ69G5FA" },        -- 25
      { "01ARYZ6S41TSV4RRFFQ69G5FAVV" },      -- 27
      { "01ARYZ6S41TSV4RRFFQ69G5FAU" },       -- U is not Crockford
      { "01ARYZ6S41TSV4RRFFQ69G5FA!" },
      { "01ARYZ6S41-SV4RRFFQ69G5FAV" },
      { "8ZZZZZZZZZZZZZZZZZZZZZZZZZ" },       -- above 2^128-1
      { "01563df36481d6764c61efb99302bd5", "hex" },
      { "01563df36481d6764c61efb99302bd5bb", "hex" },
      { "01563df36481d6764c61efb99302bd5g", "hex" },
      { "01563df3-6481-d676-4c61-efb99302bd5", "uuid" },
      { "01563df36-481-d676-4c61-efb99302bd5b", "uuid" },
    },
    ksuid = {
      { "0ujtsYcgvSTl8PAuAdqWYSMnLO" },        -- 26
      { "0ujtsYcgvSTl8PAuAdqWYSMnLOv0" },      -- 28
      { "0ujtsYcgvSTl8PAuAdqWYSMnLO-" },
      { "0ujtsYcgvSTl8PAuAdqWYSMnLO_" },
      { "0ujtsYcgvSTl8PAuAdqWYSMnLO+" },
      { "aWgEPTl1tmebfsQzFP4bxwgy80W" },       -- above 2^160-1
      { "zzzzzzzzzzzzzzzzzzzzzzzzzzz" },
      { "0669f7efb5a1cd34b5f99d1154fb6853345c973", "hex" },
      { "0669f7efb5a1cd34b5f99d1154fb6853345c97355", "hex" },
    },
    uuidv7 = {
      { V7:sub(1, 35) },                       -- too short
      { V7 .. "0" },                           -- too long
      { "{" .. V7 .. "}" },
      { "017f22e279b07cc398c4dc0c0c07398f" },  -- no dashes
      { "017f22e279b0-7cc3-98c4-dc0c0c07398f" },
      { "017f22e2-79b07-cc3-98c4-dc0c0c07398f" },   -- dash moved
      { "017f22e-279b0-7cc3-98c4-dc0c0c07398f" },
      { "017f22e2-79b0-7cc3-98c4d-c0c0c07398f" },
      { "017f22e2_79b0_7cc3_98c4_dc0c0c07398f" },
      { "017f22e2-79b0-7cc3-98c4-dc0c0c07398g" },   -- bad hex digit
      { "017f22e2-79b0-7cc3-98c4-dc0c0c0739 f" },
      { "017f22e2-79b0-7cc3-98c4-dc0c-c07398f" },
      -- a version 4 UUID (RFC 9562 appendix A.3) is not a UUIDv7
      { "919108f7-52d1-4320-9bac-f847db4148a8" },
      -- the v7 example with version nibble 4, 0, f; variant 0b11, 0b0x
      { "017f22e2-79b0-4cc3-98c4-dc0c0c07398f" },
      { "017f22e2-79b0-0cc3-98c4-dc0c0c07398f" },
      { "017f22e2-79b0-fcc3-98c4-dc0c0c07398f" },
      { "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f" },
      { "017f22e2-79b0-7cc3-58c4-dc0c0c07398f" },
      { "017f22e279b04cc398c4dc0c0c07398f", "hex" },
      { "017f22e279b07cc3d8c4dc0c0c07398f", "hex" },
      { "017f22e279b07cc398c4dc0c0c07398", "hex" },
      { "00000000-0000-0000-0000-000000000000" },   -- the nil UUID
      { "ffffffff-ffff-ffff-ffff-ffffffffffff" },   -- the max UUID
    },
    twitter = {
      { "9223372036854775808" },               -- sign bit set: unused = 1
      { "18446744073709551615" },
      { "18446744073709551616" },
      { "8000000000000000", "hex" },
      { "7fffffffffffff", "hex" },
      { "12a" },
    },
    sonyflake = {
      { "9223372036854775808" },
      { "ffffffffffffffff", "hex" },
      { "-5" },
    },
    instagram = {
      { "18446744073709551616" },
      { "ffffffffffffffff0", "hex" },
      { "1e9" },
    },
  }

  for _, name in ipairs(SHIPPED) do
    describe(name, function ()
      local s = idscheme.scheme(name)
      for _, c in ipairs(CASES[name]) do
        it("rejects " .. helper.show(c[1]) .. " as "
           .. (c[2] or "(default)"), function ()
          helper.assert_rejected(s, c[1], c[2])
        end)
      end

      it("rejects text no decoder may accept, in every encoding",
         function ()
        for _, text in ipairs(helper.BAD_TEXT) do
          helper.assert_rejected(s, text)
          for _, enc in ipairs(s.encodings) do
            helper.assert_rejected(s, text, enc)
          end
        end
      end)

      it("reads its own texts back, trimmed of white space", function ()
        local g = s:generator()
        for _ = 1, 100 do
          local id = g:next()
          for _, enc in ipairs(s.encodings) do
            local text = id:encode(enc)
            assert.is_true(assert(s:decode(text, enc)) == id)
            assert.is_true(assert(s:decode(" \t" .. text .. "\r\n", enc))
                           == id)
          end
        end
      end)

      it("gives nil, message on bytes of the wrong length", function ()
        for _, n in ipairs({ 0, s.bytes - 1, s.bytes + 1 }) do
          local id, msg = s:from_bytes(("\0"):rep(n))
          assert.is_nil(id)
          assert.are.equal("string", type(msg))
        end
      end)
    end)
  end

  it("uuidv7: constants are checked in from_bytes too", function ()
    local s = idscheme.scheme("uuidv7")
    local id, msg = s:from_bytes(unhex("017f22e279b04cc398c4dc0c0c07398f"))
    assert.is_nil(id)
    assert.is_truthy(tostring(msg):find("version", 1, true))
  end)
end)

-- ===================================================================
describe("fields wider than 64 bits", function ()
  local NAME = fresh("wide_script")
  local w = idscheme.define{
    name = NAME,
    fields = {
      { name = "timestamp", bits = 32, kind = "time", unit = "s",
        epoch = 1400000000000 },
      { name = "random", bits = 100, kind = "random" },
    },
    encodings = { "hex", "base62", "crockford", "base32", "base64url",
                  "base58", "dec" },
  }

  it("have ceil(bits/8) bytes in fields()", function ()
    assert.are.equal(132, w.bits)
    assert.are.equal(17, w.bytes)
    local r = "\15" .. ("\255"):rep(12)
    local id = w:compose({ timestamp = 5, random = r })
    local f = id:fields()
    assert.are.equal(13, #f.random)
    assert.are.equal(tohex(r), tohex(f.random))
    assert.are.equal(5, f.timestamp)
    assert.are.equal(tohex(helper.pack_bits({ { bits = 32, value = 5 },
                                              { bits = 100, bytes = r } },
                                            17)),
                     tohex(id:bytes()))
    for _, enc in ipairs(w.encodings) do
      assert.is_true(assert(w:decode(id:encode(enc), enc)) == id, enc)
    end
    local g = w:generator()
    for _ = 1, 100 do
      local rr = g:next():fields().random
      assert.are.equal("string", type(rr))
      assert.are.equal(13, #rr)
      assert.are.equal(0, helper.band(rr:byte(1), 0xf0))
    end
    for name, n in pairs({ ulid = 10, ksuid = 16 }) do
      local s = idscheme.scheme(name)
      local wide = s.fields[2].name
      for _ = 1, 10 do
        local id2 = s:generator():next()
        local v = id2:fields()[wide]
        assert.are.equal("string", type(v), name)
        assert.are.equal(n, #v, name)
        assert.is_true(s:compose(id2:fields()) == id2)
      end
    end
  end)

  it("raise in compose when the byte string has the wrong length",
     function ()
    for _, c in ipairs({
      { w, "random", 13, { timestamp = 5 } },
      { idscheme.scheme("ulid"), "random", 10, { timestamp = 5 } },
      { idscheme.scheme("ksuid"), "payload", 16, { timestamp = 5 } },
    }) do
      local s, field, n, base = c[1], c[2], c[3], c[4]
      for _, bad in ipairs({ "", ("\0"):rep(n - 1), ("\0"):rep(n + 1),
                             ("\0"):rep(2 * n), 0, 5, {}, true }) do
        local f = {}
        for k, v in pairs(base) do f[k] = v end
        f[field] = bad
        helper.assert_raises(function () s:compose(f) end, field,
                             s.name .. " " .. field .. " = "
                             .. (type(bad) == "string" and (#bad .. " bytes")
                                 or tostring(bad)))
      end
      local f = {}
      for k, v in pairs(base) do f[k] = v end
      helper.assert_raises(function () s:compose(f) end, field,
                           s.name .. " without " .. field)
      f[field] = ("\0"):rep(n)
      assert.is_not_nil(s:compose(f))
    end
  end)

  it("raise in compose when the bytes hold more than the field's bits",
     function ()
    helper.assert_raises(function ()
      w:compose({ timestamp = 5, random = "\16" .. ("\0"):rep(12) })
    end, "random")
    helper.assert_raises(function ()
      w:compose({ timestamp = 5, random = ("\255"):rep(13) })
    end, "random")
    assert.is_not_nil(w:compose({ timestamp = 5,
                                  random = "\15" .. ("\255"):rep(12) }))
  end)
end)

-- ===================================================================
describe("generators of the shipped schemes", function ()
  local N = helper.scaled(1000000, 5000)
  local GENS = {
    { "ulid", nil, "crockford" },
    { "uuidv7", nil, "uuid" },
    { "twitter", { worker = 1 } },
    { "sonyflake", { machine = 1 } },
    { "instagram", { shard = 1 } },
    { "ksuid" },
  }

  for _, c in ipairs(GENS) do
    local name, opts, textenc = c[1], c[2], c[3]
    it(name .. ": 1,000,000 ids strictly increasing"
       .. (textenc and (", their " .. textenc .. " texts in the same order")
           or ""), function ()
      local g = idscheme.scheme(name):generator(opts)
      local prev = g:next()
      local prevs = textenc and prev:encode(textenc)
      local bad
      for i = 2, N do
        local id = g:next()
        if not (prev < id) then
          bad = ("id %d (%s) is not above id %d (%s)"):format(
            i, id:encode("hex"), i - 1, prev:encode("hex"))
          break
        end
        if textenc then
          local str = id:encode(textenc)
          if not helper.bytes_less(prevs, str) then
            bad = ("text %d %s does not sort after %s"):format(i, str, prevs)
            break
          end
          prevs = str
        end
        prev = id
      end
      assert.is_nil(bad)
      if opts then
        for k, v in pairs(opts) do
          assert.are.equal(v, prev:fields()[k], name .. " " .. k)
        end
      end
    end)
  end

  it("count time from each scheme's epoch in its unit", function ()
    local now = os.time()                    -- seconds
    local function near (name, got, want, slack)
      assert.is_true(math.abs(got - want) <= slack, name .. ": timestamp "
                     .. tostring(got) .. ", expected about " .. want)
    end
    local function ts (name, opts)
      return idscheme.scheme(name):generator(opts):next():fields().timestamp
    end
    near("ulid", ts("ulid"), now * 1000, 5000)
    near("uuidv7", ts("uuidv7"), now * 1000, 5000)
    near("twitter", ts("twitter", { worker = 1 }),
         now * 1000 - 1288834974657, 5000)
    near("instagram", ts("instagram", { shard = 1 }),
         now * 1000 - 1293840000000, 5000)
    near("sonyflake", ts("sonyflake", { machine = 1 }),
         (now * 1000 - 1409529600000) / 10, 500)
    near("ksuid", ts("ksuid"), now - 1400000000, 5)
  end)

  it("refuse node options out of range, naming them", function ()
    for _, c in ipairs({
      { "twitter", "worker", 1023 }, { "sonyflake", "machine", 65535 },
      { "instagram", "shard", 8191 },
    }) do
      local s, opt, max = idscheme.scheme(c[1]), c[2], c[3]
      for _, bad in ipairs({ max + 1, -1, helper.MAXINT, helper.MININT }) do
        helper.assert_raises(function () s:generator({ [opt] = bad }) end,
                             opt, c[1] .. " " .. opt .. " = "
                             .. tostring(bad))
      end
      helper.assert_raises(function () s:generator({ [opt] = 1.5 }) end,
                           opt)
      helper.assert_raises(function () s:generator({ [opt] = "1" }) end,
                           opt)
      for _, okv in ipairs({ 0, max }) do
        local id = s:generator({ [opt] = okv }):next()
        assert.are.equal(okv, id:fields()[opt])
      end
    end
    helper.assert_raises(function ()
      idscheme.scheme("ulid"):generator({ worker = 1 })
    end, "worker")
    helper.assert_raises(function ()
      idscheme.scheme("twitter"):generator({ machine = 1 })
    end, "machine")
  end)

  it("idscheme.list() has each shipped name exactly once, sorted",
     function ()
    for _ = 1, 2 do                          -- before and after loading all
      local list = idscheme.list()
      local count = {}
      for _, n in ipairs(list) do count[n] = (count[n] or 0) + 1 end
      for _, n in ipairs(SHIPPED) do
        assert.are.equal(1, count[n], n .. " in idscheme.list()")
      end
      for n, k in pairs(count) do
        assert.are.equal(1, k, n .. " listed " .. k .. " times")
      end
      for i = 2, #list do
        assert.is_true(helper.bytes_less(list[i - 1], list[i]),
                       "not sorted: " .. list[i - 1] .. ", " .. list[i])
      end
      for _, n in ipairs(SHIPPED) do idscheme.scheme(n) end
    end
  end)

  it("idscheme.scheme(name) gives the same handle each time", function ()
    for _, n in ipairs(SHIPPED) do
      local a = idscheme.scheme(n)
      assert.is_true(rawequal(a, idscheme.scheme(n)), n)
      assert.is_true(rawequal(a, a:generator():scheme()), n)
      assert.is_true(rawequal(a, a:generator():next():scheme()), n)
      assert.are.equal(n, a.name)
    end
  end)
end)
