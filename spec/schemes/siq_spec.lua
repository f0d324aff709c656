-- SIQ (SUOU 0.14 suou/iding.py) against the reference vectors,
-- spec/vectors/siq.json, and the Lua API contract for the scheme
-- (DESIGN.md: fields timestamp 56 (1/65536 s since 1970), shard 8,
-- domain 32, serial and qualifier (variable); encodings hex, dec, oct, b64,
-- cb32, b32l, did).
--
-- Big values are compared as decimal strings (id:encode("dec")).  JSON
-- numbers are doubles, so 56-bit timestamps are read from their hex fields.
-- A timestamp at or above 2^53 is an integer under Lua 5.4 and a decimal
-- string under LuaJIT, in compose() and fields() alike (helper.field).
--
-- Where the reference is defective or we differ by design
-- (spec/vectors/README.md, "SIQ / Snowflake"; DESIGN.md), we assert ours:
--   * float time inputs that the reference rounds differently from integer
--     math (float_math_differs_from_exact) are skipped;
--   * times before 1970 or from 2^40 s on: the reference writes negative or
--     113-bit numbers; our compose refuses the timestamp and our decoders
--     refuse those numbers;
--   * the domain "0": the reference hashes it to 0 (a Python falsy quirk);
--     ours hashes every non-empty string exactly (only "" is no domain),
--     and so also hashes non-ASCII names (their UTF-8 bytes) where the
--     reference raises UnicodeEncodeError;
--   * domain hashes with a local_id are about an argument of SUOU's
--     generator that we do not offer: skipped;
--   * SUOU writes 0 in cb32 as an empty string; ours writes "0", and "" is
--     blank text, an error;
--   * SUOU's from_cb32 always raises and it has no hex, b64 or b32l parser;
--     ours decodes every form it writes.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local V = helper.vectors("siq")
local show = helper.show
local null = helper.null

local TWO56 = helper.pow2(56)
-- 2^56-1, the widest timestamp, as compose() takes and fields() gives it
local MAX56 = helper.field("72057594037927935")
local TWO112 = "5192296858534827628530496329220096"
local MAX112 = "5192296858534827628530496329220095"

local ENCODINGS = { "hex", "dec", "oct", "b64", "cb32", "b32l", "did" }

local TYPES = { "user", "group", "event", "invite", "application",
                "collection", "premium", "tag", "channel", "thread",
                "message", "content", "multi", "manytomany", "ternary" }

-- SHA-256("0") = 5feceb66...3a27fb57e9 (`printf 0 | sha256sum`): the
-- domain "0" hashes to its last 4 bytes.
local HASH_OF_0 = 0x27fb57e9

-- The reference's forms of an output block, under our encoding names.
local function forms (out)
  return {
    hex = out.to_hex,
    dec = out.format_d,
    oct = out.to_oct,
    b64 = out.to_base64,
    -- SUOU writes 0 as "", which no decoder could read back: ours is "0".
    cb32 = out.to_cb32 == "" and "0" or out.to_cb32,
    b32l = out.to_b32l,
    did = out.to_did,
  }
end

-- The fields of a derived_not_reference block, as compose takes them.
local function derived_fields (d)
  return {
    timestamp = helper.field_hex(d.ts56_hex),
    shard = d.shard8,
    domain = d.domain_hash32,
    serial = d.serial,
    qualifier = d.qualifier_type:lower(),
  }
end

describe("siq", function ()
  local s = idscheme.scheme("siq")
  local cases = helper.cases(it, s)

  -- Fields for compose, the given ones over defaults.
  local function F (t)
    local f = { timestamp = 0, shard = 0, domain = 0, serial = 0,
                qualifier = "content" }
    for k, v in pairs(t or {}) do f[k] = v end
    return f
  end

  -- Fields for compose with domain_name instead of domain.
  local function FN (name)
    local f = F()
    f.domain, f.domain_name = nil, name
    return f
  end

  -- Asserts that id is the value of the reference output block `out`, in
  -- every form, and that every form decodes back.
  local function assert_output (id, out)
    assert.are.equal(out.to_hex, id:encode())
    assert.are.equal(out.to_hex, tostring(id))
    helper.assert_forms(s, id, forms(out))
    -- no encoding named: did:siq:... is did, anything else hex
    assert.is_true(helper.assert_decodes(s, out.to_did, nil, out.format_d)
                   == id)
    assert.is_true(helper.assert_decodes(s, out.to_hex, nil, out.format_d)
                   == id)
    helper.assert_bytes(s, id, out.to_bytes_default_hex)
  end

  describe("scheme", function ()
    cases.scheme("siq", 112, ENCODINGS)

    it("describes its fields; serial and qualifier are variable",
       function ()
      local names = {}
      for i, f in ipairs(s.fields) do names[i] = f.name end
      assert.are.same({ "timestamp", "shard", "domain", "serial",
                        "qualifier" }, names)
      assert.are.same({ name = "timestamp", bits = 56, kind = "time",
                        unit = "1/65536 s", epoch = 0 }, s.fields[1])
      assert.are.same({ name = "shard", bits = 8, kind = "node" },
                      s.fields[2])
      assert.are.equal(32, s.fields[3].bits)
      assert.is_nil(s.fields[3].variable)
      assert.are.equal("sequence", s.fields[4].kind)
      assert.are.equal(13, s.fields[4].bits)          -- the widest serial
      assert.is_true(s.fields[4].variable)
      assert.are.equal("qualifier", s.fields[5].kind)
      assert.are.equal(5, s.fields[5].bits)           -- the widest code
      assert.is_true(s.fields[5].variable)
    end)

    it("takes no parameters", function ()
      helper.assert_params_raise("siq", { { "bogus", 1 } })
    end)
  end)

  describe("domain_hash_vectors", function ()
    for _, e in ipairs(V.domain_hash_vectors) do
      local sha = e.sha256_utf8_hex
      local expected = sha and tonumber(sha:sub(-8), 16)
      if e.local_id ~= null then
        -- make_domain_hash(domain, local_id): local_id is an argument of
        -- SUOU's generator that replaces the top byte; we do not offer it.
      elseif e.domain == null then
        it("None: compose needs domain or domain_name", function ()
          helper.assert_raises(function ()
            s:compose({ timestamp = 0, shard = 0, serial = 0,
                        qualifier = "content" })
          end, "domain")
        end)
      elseif e.domain == "0" then
        it("\"0\" hashes exactly, to the end of SHA-256(\"0\"), not to 0 "
           .. "(the reference's falsy quirk)", function ()
          local id = s:compose(FN("0"))
          assert.are.equal(HASH_OF_0, id:fields().domain)
          assert.are_not.equal(e.hash, id:fields().domain)
        end)
      elseif e.error then
        it(show(e.domain) .. " hashes its UTF-8 bytes (the reference "
           .. "raises: " .. e.error:match("^%w+") .. ")", function ()
          local id = s:compose(FN(e.domain))
          assert.are.equal(expected, id:fields().domain)
        end)
      else
        it(show(e.domain) .. " hashes to " .. e.hash_hex, function ()
          local id = s:compose(FN(e.domain))
          assert.are.equal(e.hash, id:fields().domain)
          if expected then assert.are.equal(expected, e.hash) end
          local g = s:generator({ domain_name = e.domain })
          assert.are.equal(e.hash, g:next():fields().domain)
        end)
      end
    end
    it("\"\" means no domain: hash 0", function ()
      local id = s:compose(FN(""))
      assert.are.equal(0, id:fields().domain)
      assert.are.equal(0, s:generator({ domain_name = "" }):next()
                            :fields().domain)
    end)
  end)

  describe("siq_types", function ()
    it("are the 15 lowercase names of DESIGN.md", function ()
      local names = {}
      for _, t in ipairs(V.siq_types) do names[#names + 1] = t.name:lower() end
      assert.are.same(helper.set(TYPES), helper.set(names))
      assert.are.equal(15, #V.siq_types)
    end)

    for _, t in ipairs(V.siq_types) do
      local q = t.name:lower()
      describe(q, function ()
        local function low16 (id)
          local b = id:bytes()
          return helper.bor(helper.shl(b:byte(13), 8), b:byte(14))
        end

        it("prepends serial 0, 1 and " .. t.max_serial .. " to its suffix "
           .. t.suffix_bits, function ()
          for serial, key in pairs({ [0] = "prepend(0)", [1] = "prepend(1)",
                                     [t.max_serial] = "prepend(max)" }) do
            local id = s:compose(F({ timestamp = 123456789, shard = 42,
                                     domain = 0x86ce1947, serial = serial,
                                     qualifier = q }))
            assert.are.equal(t[key], low16(id), q .. " serial " .. serial)
            assert.are.same({ timestamp = 123456789, shard = 42,
                              domain = 0x86ce1947, serial = serial,
                              qualifier = q }, id:fields())
            local back = assert(s:decode(id:encode()))
            assert.are.equal(q, back:fields().qualifier)
            assert.are.equal(serial, back:fields().serial)
          end
        end)

        it("has " .. t.serial_bits .. " serial bits: " .. t.max_serial + 1
           .. " raises, naming serial", function ()
          assert.are.equal(16 - t.n_bits, t.serial_bits)
          helper.assert_compose_raises(s, F({ qualifier = q }),
            helper.cases_of("serial", { t.max_serial + 1, -1, 8192 }))
        end)
      end)
    end
  end)

  describe("vectors", function ()
    for _, e in ipairs(V.vectors) do
      local input, state, out = e.input, e.generator_state, e.output
      local d = e.derived_not_reference
      if state == nil then
        -- domain_unicode_raises: SiqGen raises UnicodeEncodeError on a
        -- non-ASCII domain; ours hashes the exact (UTF-8) bytes.
        it(e.name .. ": " .. show(input.domain) .. " hashes its UTF-8 bytes",
           function ()
          local want
          for _, h in ipairs(V.domain_hash_vectors) do
            if h.domain == input.domain then
              want = tonumber(h.sha256_utf8_hex:sub(-8), 16)
            end
          end
          assert.is_not_nil(want)
          local g = s:generator({ domain_name = input.domain })
          assert.are.equal(want, g:next():fields().domain)
          assert.are.equal(want, s:compose(FN(input.domain)):fields().domain)
        end)
        goto continue
      end
      -- ts56_max_2^56-1_direct has no float input at all: the reference's
      -- test hook set the integer ts56 directly, so it is ours to match.
      local exact = state.float_math_differs_from_exact == false
                    or input.direct_ts56 ~= nil
      -- the timestamp as compose() takes it (helper.field), and whether
      -- it is in 0..2^56-1, decided exactly (on the hex digits when given)
      local ts, in_range
      if d.ts56_hex then
        ts = helper.field_hex(d.ts56_hex)
        in_range = helper.dec_less(helper.hex_to_dec(d.ts56_hex),
                                   "72057594037927936")
      else
        ts = state.cur_timestamp_ts56
        in_range = ts >= 0 and ts < TWO56
      end
      if not exact then
        -- float seconds * 65536 rounds differently from integer math
      elseif in_range then
        describe(e.name, function ()
          local function id ()
            return s:compose(derived_fields(d))
          end

          it("composes to " .. out.to_hex .. " in every form", function ()
            assert_output(id(), out)
          end)

          it("gives its fields back, the qualifier by name", function ()
            local got = helper.assert_decodes(s, out.to_did, "did",
                                              out.format_d)
            assert.are.same(derived_fields(d), got:fields())
            assert.are.equal(ts, got:fields().timestamp)
            assert.are.equal(input.type:lower(), got:fields().qualifier)
            assert.are.equal(input.serial, got:fields().serial)
            assert.are.equal(state.domain_hash, got:fields().domain)
            assert.are.equal(state.shard_id, got:fields().shard)
          end)

          if input.local_id == null and input.domain ~= "0" then
            it("composes the same from domain_name " .. show(input.domain),
               function ()
              local f = derived_fields(d)
              f.domain, f.domain_name = nil, input.domain
              assert.is_true(s:compose(f) == id())
            end)
          end
        end)
      else
        it(e.name .. " (ts56 " .. ts .. " out of range: the reference "
           .. "writes " .. out.format_d .. ") is refused", function ()
          helper.assert_raises(function ()
            s:compose(F({ timestamp = ts, shard = state.shard_id,
                          domain = state.domain_hash, serial = input.serial,
                          qualifier = input.type:lower() }))
          end, "timestamp", "compose timestamp = " .. ts)
          helper.assert_forms_rejected(s, forms(out), out.to_hex)
        end)
      end
      ::continue::
    end
  end)

  describe("representation_vectors", function ()
    cases.representation_vectors(V.representation_vectors, TWO112,
      function (v, out, e)
        local id = helper.assert_decodes(s, v, "dec", v)
        assert_output(id, out)
        assert.are.same(derived_fields(e.derived_not_reference),
                        id:fields())
        assert.is_true(s:compose(id:fields()) == id)
      end, forms, "to_hex")

    cases.zero_form("cb32", "0")
  end)

  describe("decode()", function ()
    -- type_CONTENT_serial0: example.com, shard 42, 2025-06-01T12:00:00.5Z
    local HEX = "683c40c080002a86ce19470007"
    local DEC = "8258376282380787072694709846023"
    local DID = "did:siq:g626nfyagqpcaycaaakugzymuoaah"
    local B64 = "AABoPEDAgAAqhs4ZRwAH"
    local B32L = "aaagqpcaycaaakugzymuoaah"
    local CB32 = "6GF20R2000AM6SRCME007"

    cases.decodings{
      { "reads did:siq:... as did and anything else as hex", {
        { DID, nil, DEC }, { HEX, nil, DEC },
        { " " .. DID .. "\n", nil, DEC },
        { B32L, nil, false },                           -- not hex
        { DID, "hex", false }, { HEX, "did", false },
        { DID:sub(9), "did", false },                   -- no prefix
      } },
      { "reads hex in either case", {
        { HEX:upper(), "hex", DEC }, { "00" .. HEX, "hex", DEC },
        { "0x" .. HEX, "hex", false }, { HEX:sub(1, -2) .. "g", "hex", false },
      } },
    }

    it("refuses a did whose checksum does not match", function ()
      local body = DID:sub(9)
      local alphabet = helper.DIGITS.b32lower
      for _, pos in ipairs({ 1, 2, 5, 7, 8, 15, 29 }) do
        local c = body:sub(pos, pos)
        local i = alphabet:find(c, 1, true)
        local other = alphabet:sub(i % 16 + 1, i % 16 + 1)
        if other == c then other = alphabet:sub(i % 16 + 2, i % 16 + 2) end
        local bad = "did:siq:" .. body:sub(1, pos - 1) .. other
                    .. body:sub(pos + 1)
        helper.assert_rejected(s, bad, "did")
        helper.assert_rejected(s, bad)
      end
    end)

    cases.decodings{
      { "refuses a did of another length", enc = "did", refused = {
        DID:sub(1, -2), "did:siq:a" .. DID:sub(9), DID .. "a", "did:siq:" } },
    }

    it("refuses a did with characters outside the alphabet", function ()
      for _, ch in ipairs({ "1", "8", "0", "=", "-", " " }) do
        helper.assert_rejected(s, DID:sub(1, -2) .. ch, "did")
      end
    end)

    it("reads a did written in upper case digits", function ()
      helper.assert_decodes(s, "did:siq:" .. DID:sub(9):upper(), "did", DEC)
    end)

    -- 12 bytes of type_CONTENT_serial0 and 2 bytes of serial << 5 | code.
    local PREFIX = helper.unhex("00683c40c080002a86ce1947")
    local function texts (code, serial)
      local bin = PREFIX .. helper.be(helper.bor(helper.shl(serial, 5), code),
                                      2)
      local D = helper.DIGITS
      local crc = helper.crc32(bin)
      return bin, {
        hex = helper.numeral(bin, D.hex),
        dec = helper.numeral(bin, D.dec),
        oct = helper.numeral(bin, D.oct),
        b64 = helper.numeral("\0" .. bin, D.b64url, 20),
        cb32 = helper.numeral(bin, D.crockford),
        b32l = helper.numeral("\0" .. bin, D.b32lower, 24),
        did = "did:siq:" .. helper.numeral(helper.be(crc, 4) .. bin,
                                           D.b32lower, 29),
      }
    end

    it("reads texts built independently for assigned suffixes", function ()
      -- the control for the next test: the same construction, valid codes
      for code, q in pairs({ [0x00] = "user", [0x08] = "event",
                             [0x18] = "premium" }) do
        for _, serial in ipairs({ 0, 5, 2047 }) do
          local bin, t = texts(code, serial)
          local want = helper.dec(bin)
          for enc, text in pairs(t) do
            local id = helper.assert_decodes(s, text, enc, want)
            assert.are.equal(text, id:encode(enc))
            assert.are.equal(q, id:fields().qualifier)
            assert.are.equal(serial, id:fields().serial)
          end
          assert.is_not_nil(s:from_bytes(bin))
        end
      end
    end)

    it("refuses the unassigned suffixes 10010, 11010 and 11100, in every "
       .. "form", function ()
      for _, code in ipairs({ 0x12, 0x1a, 0x1c }) do
        for _, serial in ipairs({ 0, 5, 2047 }) do
          local bin, t = texts(code, serial)
          helper.assert_forms_rejected(s, t, t.hex)
          helper.assert_rejected(s, t.did)
          helper.assert_bytes_rejected(s, { bin })
        end
      end
      helper.assert_decodings(s, { { "12", "hex", false },
                                   { "1a", "hex", false },
                                   { "1c", "hex", false } })
    end)

    cases.decodings{
      { "takes b64 of exactly 20 URL-safe digits", enc = "b64", refused = {
        B64:sub(2), "A" .. B64, B64 .. "=", B64:sub(1, -2) .. "+",
        B64:sub(1, -2) .. "/",
        "AQAAAAAAAAAAAAAAAAAA",                             -- 2^112
        "____________________" } },
      { "is case-sensitive for b64", {
        { "AAAAAAAAAAAAAAAAAAAH", "b64", "7" },
        { "AAAAAAAAAAAAAAAAAAAh", "b64", "33" },
      } },
      { "takes b32l of exactly 24 digits, either case", {
        { B32L:upper(), "b32l", DEC },
      }, enc = "b32l", refused = {
        B32L:sub(2), "a" .. B32L, B32L:sub(1, -2) .. "1",
        B32L:sub(1, -2) .. "8", B32L:sub(1, -2) .. "=",
        "aeaaaaaaaaaaaaaaaaaaaaaa" } },                      -- 2^112
    }

    it("reads Crockford base32 case-insensitively, with I, L as 1 and "
       .. "O as 0", function ()
      for _, text in ipairs({ CB32, CB32:lower(), "6GF2OR2OOOAM6SRCMEOO7",
                              "6gf2or2oooam6srcmeoo7", "0" .. CB32 }) do
        helper.assert_decodes(s, text, "cb32", DEC)
      end
      -- ts_fraction_1/65536: 3J46SRCME01P
      for _, text in ipairs({ "3J46SRCME01P", "3J46SRCME0IP",
                              "3J46SRCME0iP", "3J46SRCME0LP",
                              "3j46srcme0lp" }) do
        helper.assert_decodes(s, text, "cb32", "128500809125527606")
      end
    end)

    cases.decodings{
      { "refuses cb32 with letters Crockford lacks or beyond 2^112-1", {
        { "3ZZZZZZZZZZZZZZZZZZZZZZ", "cb32", MAX112 },
      }, enc = "cb32", refused = {
        CB32:sub(1, -2) .. "U", CB32:sub(1, -2) .. "-",
        "40000000000000000000000" } },
      { "reads oct and dec up to 2^112-1", {
        { "17777777777777777777777777777777777777", "oct", MAX112 },
        { "20000000000000000000000000000000000000", "oct", false },
        { "18", "oct", false },
        { TWO112, "dec", false }, { "12a", "dec", false },
      } },
    }

    cases.decode_refusals{ encodings = ENCODINGS, enc = "did",
                           unknown = { "u", "f58" } }
  end)

  describe("compose()", function ()
    it("packs ts56 << 56 | shard << 48 | domain << 16 | low16", function ()
      assert.are.equal("ffffffffffffffffffffffffffff",
                       s:compose(F({ timestamp = MAX56, shard = 255,
                                     domain = 0xffffffff, serial = 8191 }))
                         :encode())
      assert.are.equal("7", s:compose(F()):encode())
      assert.are.equal("0", s:compose(F({ qualifier = "user" })):encode())
    end)

    it("takes and gives a timestamp at or above 2^53 as an integer "
       .. "(Lua 5.4) or a decimal string (LuaJIT)", function ()
      -- ts_year_9999: 0x3afff4417f0000
      local HEX9999 = "3afff4417f000000000000000007"
      if helper.INT64 then
        local id = s:compose(F({ timestamp = 16606973185163264 }))
        assert.are.equal(HEX9999, id:encode())
        assert.are.equal("integer", math.type(id:fields().timestamp))
        assert.are.equal(16606973185163264, id:fields().timestamp)
        helper.assert_raises(function ()
          s:compose(F({ timestamp = "16606973185163264" }))
        end, "timestamp")
      else
        local id = s:compose(F({ timestamp = "16606973185163264" }))
        assert.are.equal(HEX9999, id:encode())
        assert.are.equal("16606973185163264", id:fields().timestamp)
        assert.are.equal(MAX56, s:compose(F({ timestamp = MAX56 }))
                                  :fields().timestamp)
        assert.are.equal(9007199254740991,
                         s:compose(F({ timestamp = "9007199254740991" }))
                           :fields().timestamp)
        for _, bad in ipairs({ "72057594037927936", "-1", "", "1e3" }) do
          helper.assert_raises(function ()
            s:compose(F({ timestamp = bad }))
          end, "timestamp", "timestamp = " .. helper.show(bad))
        end
      end
      assert.are.same({ timestamp = MAX56, shard = 0, domain = 0,
                        serial = 0, qualifier = "content" },
                      s:compose(F({ timestamp = MAX56 })):fields())
    end)

    cases.compose_refusals{
      base = F(),
      missing = { "timestamp", "shard", "domain", "serial", "qualifier" },
      out_of_range = {
        { "timestamp", TWO56 }, { "timestamp", -1 },
        { "timestamp", helper.MAXINT }, { "shard", 256 }, { "shard", -1 },
        { "domain", helper.pow2(32) }, { "domain", -1 }, { "serial", 8192 },
        { "serial", -1 }, { "serial", helper.MININT },
      },
    }

    it("raises on a qualifier that is not a type name, naming it",
       function ()
      helper.assert_compose_raises(s, F(), helper.cases_of("qualifier", {
        "bogus", "", 15, 32, true, {} }))
    end)

    cases.compose_refusals{ base = F(), not_integer = "shard" }

    it("raises when given both domain and domain_name", function ()
      helper.assert_raises(function ()
        s:compose(F({ domain_name = "example.com" }))
      end, "domain")
    end)

    it("raises on a domain_name that is not a string", function ()
      helper.assert_raises(function ()
        s:compose(FN(5))
      end, "domain")
    end)

    cases.compose_refusals{ name = "siq", base = F(),
                            foreign = { "worker", 1 }, not_table = "x" }
  end)

  describe("from_bytes()", function ()
    it("reads 14 big-endian bytes", function ()
      local id = assert(s:from_bytes(
        helper.unhex("00683c40c080002a86ce19470007")))
      assert.are.equal("683c40c080002a86ce19470007", id:encode())
    end)

    cases.from_bytes_refusals{ "", "\7", ("\0"):rep(8), ("\0"):rep(13),
                               ("\0"):rep(15), ("\0"):rep(16) }
  end)

  describe("ids", function ()
    cases.id_refusals(function () return s:compose(F()) end, "u", 112)

    it("order by value", function ()
      local a = s:compose(F({ timestamp = 1, serial = 8191 }))
      local b = s:compose(F({ timestamp = 2 }))
      assert.is_true(a < b)
      assert.is_false(b < a)
      assert.is_true(a <= a)
      assert.is_true(a == s:compose(F({ timestamp = 1, serial = 8191 })))
    end)
  end)

  describe("generator", function ()
    local function hash (name)
      return s:compose(FN(name)):fields()
               .domain
    end

    it("takes domain_name or domain", function ()
      local g = s:generator({ domain_name = "example.com" })
      assert.are.equal(0x86ce1947, g:next():fields().domain)
      assert.are.equal(hash("yusur.moe"),
                       s:generator({ domain_name = "yusur.moe" }):next()
                         :fields().domain)
      assert.are.equal(HASH_OF_0, s:generator({ domain_name = "0" }):next()
                                    :fields().domain)
      g = s:generator({ domain = 0xdeadbeef })
      assert.are.equal(0xdeadbeef, g:next():fields().domain)
      assert.are.equal(0, s:generator():next():fields().domain)
    end)

    it("raises when given both domain_name and domain", function ()
      helper.assert_raises(function ()
        s:generator({ domain_name = "example.com", domain = 1 })
      end, "domain")
    end)

    it("raises on a bad domain or domain_name, naming it", function ()
      helper.assert_options_raise(s, {
        { "domain", helper.pow2(32) }, { "domain", -1 }, { "domain", "1" },
        { "domain_name", 5 },
      })
    end)

    it("takes shard 0..255", function ()
      for _, n in ipairs({ 0, 1, 200, 255 }) do
        assert.are.equal(n, s:generator({ shard = n }):next():fields().shard)
      end
      local g = s:generator()                  -- not given: a local slot
      assert.are.equal((g:slot()), g:next():fields().shard)
      g:close()
      helper.assert_options_raise(s, helper.cases_of("shard",
                                                     { 256, -1, 300 }))
    end)

    it("issues content ids unless told another qualifier", function ()
      assert.are.equal("content", s:generator():next():fields().qualifier)
      local g = s:generator({ qualifier = "user" })
      assert.are.equal("user", g:next():fields().qualifier)
      helper.assert_options_raise(s, { { "qualifier", "bogus", "bogus" },
                                       { "qualifier", 1 } })
    end)

    it("raises on an unknown option, naming it", function ()
      helper.assert_options_raise(s, { { "worker", 1 } })
      assert.has_error(function () s:generator("user") end)
    end)

    it("issues an id of the type next() names", function ()
      local g = s:generator({ domain_name = "example.com", shard = 7 })
      for _, q in ipairs(TYPES) do
        local f = g:next(q):fields()
        assert.are.equal(q, f.qualifier)
        assert.are.equal(7, f.shard)
        assert.are.equal(0x86ce1947, f.domain)
      end
      assert.are.equal("content", g:next():fields().qualifier)
      helper.assert_raises(function () g:next("bogus") end, "bogus")
      assert.has_error(function () g:next({}) end)
    end)

    it("counts 1/65536 s since 1970", function ()
      local ts = s:generator():next():fields().timestamp
      helper.assert_near(ts, os.time() * 65536, 3 * 65536)
    end)

    it("gives 100,000 strictly increasing, distinct ids of one type",
       function ()
      local seen, count, n = {}, 0, helper.scaled(100000, 2000)
      local last, bad = helper.take_increasing(
        s:generator({ domain_name = "example.com" }), n,
        function (id)
          local text = id:encode()
          if not seen[text] then count = count + 1 end
          seen[text] = true
        end)
      assert.is_nil(bad)
      assert.are.equal(n, count)
      assert.are.equal("content", last:fields().qualifier)
    end)

    it("gives distinct ids across types in one run, each type increasing",
       function ()
      local g = s:generator({ shard = 3 })
      local seen, last = {}, {}
      local count, bad = 0, nil
      for i = 1, 60000 do
        local q = TYPES[i % #TYPES + 1]
        local id = g:next(q)
        local text = id:encode()
        if id:fields().qualifier ~= q then
          bad = ("id %d (%s) is not a %s"):format(i, text, q)
          break
        end
        if last[q] and not (last[q] < id) then
          bad = ("%s id %d (%s) is not above the last one (%s)"):format(
            q, i, text, last[q]:encode())
          break
        end
        if not seen[text] then count = count + 1 end
        seen[text] = true
        last[q] = id
      end
      assert.is_nil(bad)
      assert.are.equal(60000, count)
    end)

    it("gives strings that decode back, in any encoding", function ()
      local g = s:generator({ domain_name = "example.com" })
      for _ = 1, 100 do
        local text = g:next_string()
        assert.is_truthy(text:match("^[0-9a-f]+$"))
        assert.are.equal(text, assert(s:decode(text)):encode())
      end
      helper.assert_next_strings(s, g, ENCODINGS)
      local did = g:next_string("did")
      assert.are.equal(37, #did)
      assert.are.equal(did, assert(s:decode(did)):encode("did"))
      assert.are.equal(20, #g:next_string("b64"))
      assert.are.equal(24, #g:next_string("b32l"))
    end)
  end)
end)
