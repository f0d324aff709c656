-- Discord-flavour Snowflake (SUOU suou/snowflake.py) against the reference
-- vectors, spec/vectors/snowflake.json, and the Lua API contract for the
-- scheme (DESIGN.md: fields timestamp 42, worker 5, shard 5, sequence 12;
-- encodings dec, hex, oct, b64, cb32, b32l).
--
-- Values are compared as decimal strings (id:encode("dec")) and as Lua
-- integers (id:integer(), wrapped above 2^63 like string.unpack("<I8");
-- under LuaJIT exact below 2^53 and an error from there on:
-- helper.assert_integer).
--
-- Where the reference is defective or we differ by design
-- (spec/vectors/README.md, "SIQ / Snowflake"; DESIGN.md), we assert ours:
--   * float time inputs that lose a millisecond in the reference
--     (float_math_differs_from_exact) are skipped: our times are integers;
--   * times before the epoch or from 2^42 ms on: the reference writes
--     negative or 65-bit numbers; our compose refuses the timestamp and
--     our decoders refuse those numbers;
--   * SUOU writes 0 in b32l as an empty string; ours writes "a", and ""
--     is blank text, an error;
--   * SUOU's from_cb32 always raises and its from_hex fails on odd lengths;
--     ours decodes every form it writes.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local V = helper.vectors("snowflake")

local DISCORD_EPOCH_MS = 1420070400000
local TWO42 = helper.pow2(42)
local MAX = "18446744073709551615"             -- 2^64-1
local TWO64 = "18446744073709551616"

local ENCODINGS = { "dec", "hex", "oct", "b64", "cb32", "b32l" }

-- The reference's forms of an output block, under our encoding names, as
-- it wrote them.
local function reference_forms (out)
  return { dec = out.format_d, hex = out.to_hex, oct = out.to_oct,
           b64 = out.to_base64, cb32 = out.to_cb32, b32l = out.to_b32l }
end

-- The same, as ours writes them.
local function forms (out)
  local f = reference_forms(out)
  -- SUOU writes 0 as "", which no decoder could read back: ours is "a".
  if f.b32l == "" then f.b32l = "a" end
  return f
end

-- Asserts that id is the value of the reference output block `out`, in
-- every form, and that every form decodes back.
local function assert_output (s, id, out)
  assert.are.equal(out.format_d, id:encode("dec"))
  assert.are.equal(out.format_d, id:encode())
  assert.are.equal(out.format_d, tostring(id))
  helper.assert_integer(id, out.format_d)
  helper.assert_forms(s, id, forms(out))
  assert.is_true(helper.assert_decodes(s, out.format_d, nil, out.format_d)
                 == id)
  helper.assert_bytes(s, id, out.to_bytes_8_hex)
end

describe("snowflake", function ()
  local s = idscheme.scheme("snowflake")
  local cases = helper.cases(it, s)

  local function compose (ts, worker, shard, seq)
    return s:compose({ timestamp = ts, worker = worker, shard = shard,
                       sequence = seq })
  end

  local function dec (text)
    return helper.assert_decodes(s, text, "dec", text)
  end

  describe("scheme", function ()
    cases.scheme("snowflake", 64, ENCODINGS, "timestamp 42 time, "
                 .. "worker 5 node, shard 5 node, sequence 12 sequence")

    it("takes epoch_ms as a parameter", function ()
      local s2 = idscheme.scheme("snowflake", { epoch_ms = 1735686000000 })
      assert.are.equal("snowflake", s2.name)
      assert.are.equal("175928847299117063",
                       s2:compose({ timestamp = 41944705796, worker = 1,
                                    shard = 0, sequence = 7 })
                         :encode("dec"))
    end)

    it("raises on a bad parameter, naming it", function ()
      helper.assert_params_raise("snowflake", {
        { "bogus", 1 }, { "epoch_ms", "1420070400000" }, { "epoch_ms", 1.5 },
        { "epoch_ms", -1 } })
      assert.has_error(function () idscheme.scheme("snowflake", "x") end)
    end)
  end)

  describe("vectors", function ()
    for _, e in ipairs(V.vectors) do
      local input, state, out = e.input, e.generator_state, e.output
      local d = e.derived_not_reference
      local ms = state.cur_timestamp_ms
      if state.float_math_differs_from_exact ~= false then
        -- The reference's float (time - epoch) * 1000 gives another ms
        -- than integer math: not ours to reproduce (our times are ints).
      elseif ms >= 0 and ms < TWO42 then
        it(e.name .. " composes to " .. out.format_d .. " in every form",
           function ()
          -- the scheme opened with the entry's epoch (seconds -> ms)
          local se = s
          if helper.is_integer(input.epoch) then
            se = idscheme.scheme("snowflake",
                                 { epoch_ms = input.epoch * 1000 })
          end
          local id = se:compose({ timestamp = d.ms_since_epoch,
                                  worker = input.local_id % 32,
                                  shard = d.shard5,
                                  sequence = d.seq12 })
          assert.are.equal(d.local_id5, input.local_id % 32)
          assert_output(se, id, out)
          assert.are.same({ timestamp = ms, worker = d.local_id5,
                            shard = d.shard5, sequence = d.seq12 },
                          id:fields())
          -- the same value under the default epoch
          assert_output(s, compose(ms, d.local_id5, d.shard5, d.seq12), out)
        end)
      else
        it(e.name .. " (timestamp " .. ms .. " out of range: the reference"
           .. " writes " .. out.format_d .. ") is refused", function ()
          helper.assert_raises(function ()
            compose(ms, input.local_id % 32, 0, input.counter % 4096)
          end, "timestamp", "compose timestamp = " .. ms)
          -- every form the reference wrote (it writes no cb32 here)
          helper.assert_forms_rejected(s, reference_forms(out), out.format_d)
        end)
      end
    end
  end)

  describe("representation_vectors", function ()
    cases.representation_vectors(V.representation_vectors, TWO64,
      function (v, out) assert_output(s, dec(v), out) end,
      reference_forms, "format_d")

    cases.zero_form("b32l", "a")
  end)

  describe("the Discord example", function ()
    it("175928847299117063 has timestamp 41944705796, worker 1, shard 0, "
       .. "sequence 7", function ()
      local id = dec("175928847299117063")
      assert.are.same({ timestamp = 41944705796, worker = 1, shard = 0,
                        sequence = 7 }, id:fields())
      assert.is_true(compose(41944705796, 1, 0, 7) == id)
      helper.assert_integer(id, "175928847299117063")
      assert.is_true(assert(s:decode("175928847299117063")) == id)
    end)
  end)

  describe("compose()", function ()
    local BASE = { timestamp = 1, worker = 2, shard = 3, sequence = 4 }

    it("packs timestamp << 22 | worker << 17 | shard << 12 | sequence",
       function ()
      local bor, shl = helper.bor, helper.shl
      assert.are.equal(tostring(bor(bor(bor(shl(5, 22), shl(3, 17)),
                                        shl(17, 12)), 9)),
                       compose(5, 3, 17, 9):encode("dec"))
      assert.are.equal(MAX, compose(TWO42 - 1, 31, 31, 4095):encode("dec"))
      assert.are.equal("0", compose(0, 0, 0, 0):encode("dec"))
    end)

    cases.compose_refusals{
      name = "snowflake", base = BASE,
      missing = { "timestamp", "worker", "shard", "sequence" },
      out_of_range = {
        { "timestamp", TWO42 }, { "timestamp", -1 },
        { "timestamp", helper.MAXINT }, { "worker", 32 }, { "worker", -1 },
        { "shard", 32 }, { "shard", -1 }, { "sequence", 4096 },
        { "sequence", -1 }, { "sequence", helper.MININT },
      },
      not_integer = "worker", foreign = { "generator", 5 }, not_table = 1,
    }
  end)

  describe("decode()", function ()
    it("reads dec when no encoding is named", function ()
      dec("175928847299117063")
      helper.assert_decodes(s, "175928847299117063", nil,
                            "175928847299117063")
      helper.assert_rejected(s, "271065ac1020007")
      helper.assert_rejected(s, "AAJxBlrBAgAH")
    end)

    it("trims ASCII whitespace at both ends", function ()
      for enc, text in pairs({ dec = "175928847299117063",
                               hex = "271065ac1020007",
                               b64 = "AAJxBlrBAgAH",
                               cb32 = "09RGCPP10800E",
                               b32l = "e4igllaqeaah" }) do
        helper.assert_decodes(s, " \t" .. text .. "\n ", enc,
                              "175928847299117063")
      end
    end)

    cases.decodings{
      { "reads odd-length hex, in either case", {
        { "123", "hex", "291" },
        { "271065AC1020007", "hex", "175928847299117063" },
        { "FFFFFFFFFFFFFFFF", "hex", MAX },
        { "0x123", "hex", false }, { "12g", "hex", false },
      } },
    }

    it("reads Crockford base32 case-insensitively, with I, L as 1 and "
       .. "O as 0", function ()
      local want = "175928847299117063"
      for _, text in ipairs({ "09RGCPP10800E", "09rgcpp10800e",
                              "O9RGCPPI08OOE", "o9rgcppl08ooe",
                              "09RGCPPL0800E", "09RGCPPi0800E" }) do
        helper.assert_decodes(s, text, "cb32", want)
      end
    end)

    cases.decodings{
      { "refuses a cb32 text whose pad bit is 1", enc = "cb32", refused = {
        "09RGCPP10800F", "0000000000001", "ZZZZZZZZZZZZZ" } },
      { "refuses cb32 of another length or with letters Crockford lacks",
        enc = "cb32", refused = {
          "09RGCPP10800", "009RGCPP10800E",                 -- SUOU's '0c'
          "09RGCPP10800U", "09RGCPP1080-E" } },
      { "takes b64 of exactly 12 URL-safe digits", {
        { "AP__________", "b64", MAX },
      }, enc = "b64", refused = {
        "AAJxBlrBAgA", "AAAJxBlrBAgAH", "AAJxBlrBAgAH=", "AP+/////////",
        "AQAAAAAAAAAA",                                     -- 2^64
        "__________AA" } },
      { "is case-sensitive for b64", { { "AAAAAAAAAAAB", "b64", "1" },
                                       { "AAAAAAAAAAAb", "b64", "27" } } },
      { "reads b32l up to 2^64-1, either case", {
        { "p777777777777", "b32l", MAX },
        { "E4IGLLAQEAAH", "b32l", "175928847299117063" },
      }, enc = "b32l", refused = {
        "qaaaaaaaaaaaa",                                    -- 2^64
        "_f",                                               -- SUOU's -5
        "e4igllaqeaa1", "e4igllaqeaa8" } },
      { "reads oct up to 2^64-1", {
        { "1777777777777777777777", "oct", MAX },
      }, enc = "oct", refused = { "2000000000000000000000", "18" } },
      { "reads dec up to 2^64-1", { { MAX, "dec", MAX } }, enc = "dec",
        refused = { TWO64, "99999999999999999999", "-5" } },
    }

    cases.decode_refusals{ encodings = ENCODINGS, enc = "dec",
                           unknown = { "f58", "did" } }
  end)

  describe("from_bytes()", function ()
    it("reads 8 big-endian bytes", function ()
      local id = assert(s:from_bytes(helper.unhex("0271065ac1020007")))
      assert.are.equal("175928847299117063", id:encode())
    end)

    cases.from_bytes_refusals{ "", "\1", ("\0"):rep(7), ("\0"):rep(9),
                               ("\0"):rep(14) }
  end)

  describe("ids", function ()
    cases.id_refusals(function () return dec("1") end, "f58")

    it("order as unsigned 64-bit values", function ()
      local values = { "0", "1", "9223372036854775807",
                       "9223372036854775808", MAX }
      for i = 1, #values - 1 do
        assert.is_true(dec(values[i]) < dec(values[i + 1]))
        assert.is_false(dec(values[i + 1]) < dec(values[i]))
      end
    end)

    it("are not equal to ids of another scheme, nor ordered with them",
       function ()
      local flax = idscheme.scheme("flax"):compose({ timestamp = 0,
                                                     random = 1 })
      assert.is_false(dec("1") == flax)
      assert.has_error(function () return dec("1") < flax end)
    end)
  end)

  describe("generator", function ()
    it("takes worker and shard 0..31", function ()
      for _, n in ipairs({ 0, 1, 17, 31 }) do
        local f = s:generator({ worker = n, shard = 31 - n }):next():fields()
        assert.are.equal(n, f.worker)
        assert.are.equal(31 - n, f.shard)
      end
      local f = s:generator():next():fields()
      assert.are.equal(0, f.worker)
      assert.are.equal(0, f.shard)
    end)

    it("raises on worker or shard out of range, naming the option",
       function ()
      for _, opt in ipairs({ "worker", "shard" }) do
        helper.assert_options_raise(s, helper.cases_of(opt, {
          32, -1, 33, helper.MAXINT, 1.5, "1" }))
      end
    end)

    it("raises on an unknown option, naming it", function ()
      helper.assert_options_raise(s, { { "generator", 1 },
                                       { "epoch_ms", 1 } })
      assert.has_error(function () s:generator(1) end)
    end)

    it("counts ms since the Discord epoch by default", function ()
      local ts = s:generator():next():fields().timestamp
      helper.assert_near(ts, os.time() * 1000 - DISCORD_EPOCH_MS, 3000)
    end)

    it("counts ms since epoch_ms", function ()
      local epoch = os.time() * 1000 - 5000
      local se = idscheme.scheme("snowflake", { epoch_ms = epoch })
      local ts = se:generator():next():fields().timestamp
      assert.is_true(ts >= 2000 and ts <= 8000, "timestamp " .. ts)
    end)

    it("gives 100,000 strictly increasing ids", function ()
      local last, bad = helper.take_increasing(
        s:generator({ worker = 7, shard = 9 }),
        helper.scaled(100000, 2000))
      assert.is_nil(bad)
      local f = last:fields()
      assert.are.equal(7, f.worker)
      assert.are.equal(9, f.shard)
    end)

    it("counts the sequence from 0 in each millisecond, up to 4095",
       function ()
      helper.assert_sequence_counts(s:generator(), 50000)
    end)

    it("gives strings that decode back, in any encoding", function ()
      local g = s:generator({ worker = 3 })
      for _ = 1, 100 do
        local text = g:next_string()
        assert.is_truthy(text:match("^%d+$"))
        assert.are.equal(3, assert(s:decode(text)):fields().worker)
      end
      helper.assert_next_strings(s, g, ENCODINGS)
      assert.are.equal(12, #g:next_string("b64"))
      assert.are.equal(13, #g:next_string("cb32"))
    end)
  end)
end)
