-- kuid64 and kuid96: the k-ordered IDs of fogfish/uid 1.3.5, against the
-- reference vectors of spec/vectors/kuid.json and kuid_node_hash.tsv
-- (see ../shared/notes/kuid.md for how the reference behaves).
--
-- Reference terms map to our fields as A -> megaseconds, B -> seconds,
-- C -> microseconds, Seq -> sequence, and the node fingerprint -> node (a
-- 32-bit integer).  Where the reference silently truncates an input, hangs
-- or crashes, we expect a clear error instead (vectors README, "kuid").

local helper = require "spec.helper"
local idscheme = require "idscheme"

local V = helper.vectors("kuid")

local k64 = idscheme.scheme("kuid64")
local k96 = idscheme.scheme("kuid96")

-- A prompt error: well under a second of CPU.
local PROMPT = 0.5

local NAMES = { A = "megaseconds", B = "seconds", C = "microseconds",
                Seq = "sequence" }

-- Fields in range, for a local id and a global one.
local BASE64 = { megaseconds = 1, seconds = 2, microseconds = 1024,
                 sequence = 3 }
local BASE96 = { megaseconds = 1, seconds = 2, microseconds = 1024,
                 sequence = 3, node = 4 }

-- kuid96 scheme for interval I and hash flavour.
local function k96_with (I, hash)
  return idscheme.scheme("kuid96", { interval = I, hash = hash })
end

-- Our compose table from a reference {A,B,C,Seq[,node]} record; `node` is
-- either a vector's {atom=, utf8_hex=} / {binary_hex=}, a parsed term's
-- {atom=} / {binary=}, or nil (local).
local function fields_of (t, node)
  local f = { megaseconds = t.A, seconds = t.B, microseconds = t.C,
              sequence = t.Seq }
  node = node or t.node
  if node ~= nil then
    if node.utf8_hex ~= nil then
      f.node_name = helper.unhex(node.utf8_hex)
    elseif node.atom ~= nil then
      f.node_name = node.atom
    elseif node.binary_hex ~= nil then
      f.node = tonumber(node.binary_hex, 16)
    else
      assert(#node.binary == 4, "node binary is not 4 bytes")
      f.node = helper.unbe(node.binary)
    end
  end
  return f
end

-- What id:fields() must give for a reference decode: node as an integer
-- (`own` is the fingerprint of the decoding node, for an atom node).
local function expected_fields (t, own)
  local f = { megaseconds = t.A, seconds = t.B, microseconds = t.C,
              sequence = t.Seq }
  if t.node ~= nil then
    if t.node.binary_hex ~= nil then
      f.node = tonumber(t.node.binary_hex, 16)
    elseif t.node.binary ~= nil then
      f.node = helper.unbe(t.node.binary)
    else
      assert(own, "an atom node needs the decoding node's fingerprint")
      f.node = own
    end
  end
  return f
end

-- Asserts that s:decode(text, enc) succeeds (never raising) and returns
-- the id.
local function decodes (s, text, enc)
  local what = helper.show(text) .. " as " .. tostring(enc or "(default)")
  local ok, id, msg = pcall(s.decode, s, text, enc)
  assert.is_true(ok, s.name .. " decode raised on " .. what .. ": "
                       .. tostring(id))
  assert.is_not_nil(id, s.name .. " decode of " .. what .. " failed: "
                          .. tostring(msg))
  return id
end

-- Asserts that fn returns nil and a non-empty message, promptly and
-- without raising.
local function gives_nil (what, fn, ...)
  local t, ok, id, msg = helper.timed(fn, ...)
  assert.is_true(ok, what .. " raised: " .. tostring(id))
  assert.is_nil(id, what .. " was accepted: "
                      .. (id and id:encode("hex") or ""))
  assert.are.equal("string", type(msg), what .. " gave no message")
  assert.is_true(#msg > 0, what .. " gave an empty message")
  assert.is_true(t < PROMPT, what .. " took " .. t .. " s")
  return msg
end

-- Asserts that fn raises, promptly, with a message that holds `word`
-- (plain; nil: any message).
local function raises (what, fn, word, ...)
  local t, ok, err = helper.timed(fn, ...)
  assert.is_false(ok, what .. " did not raise")
  assert.is_true(t < PROMPT, what .. " took " .. t .. " s")
  if word then
    assert.is_truthy(tostring(err):find(word, 1, true), what
                     .. ": message does not name " .. word .. ": "
                     .. tostring(err))
  end
  return err
end

-- Asserts that s:compose raises promptly, naming the field, for every case
-- { field, value[, word] } (helper.assert_compose_raises).
local function compose_raises (s, base, cases)
  helper.assert_compose_raises(s, base, cases, function (fn, word, what)
    raises(what, fn, word)
  end)
end

-- A case that compose_raises(s, base, cases).
local function refuses (s, base, cases)
  return function () compose_raises(s, base, cases) end
end

-- Asserts that opening kuid96 with interval I raises promptly, naming it.
local function interval_raises (I, what)
  raises(what or "kuid96 interval " .. tostring(I), idscheme.scheme,
         "interval", "kuid96", { interval = I })
end

-- Asserts that s:decode(text, enc) is rejected (nil, message).
local function rejected (s, text, enc)
  return gives_nil(s.name .. " decode of " .. helper.show(text) .. " as "
                   .. tostring(enc or "(default)"), s.decode, s, text, enc)
end

-- ------------------------------------------------------------------------

describe("kuid", function ()

  describe("schemes", function ()
    local MEGA = { name = "megaseconds", bits = 20, kind = "time" }
    local SEC = { name = "seconds", bits = 20, kind = "time" }
    local MICRO = { name = "microseconds", bits = 20, kind = "time" }
    local NODE = { name = "node", bits = 32, kind = "node" }
    local SEQ = { name = "sequence", bits = 14, kind = "sequence" }
    for _, c in ipairs({
      { k64, "kuid64", 64, { MEGA, SEC, MICRO, SEQ } },
      { k96, "kuid96", 96, { MEGA, SEC, MICRO, NODE, SEQ } },
    }) do
      it(c[2] .. " has the documented name, width, fields and encodings",
         function ()
        helper.assert_scheme(c[1], c[2], c[3], { "b64", "hex", "b64url" })
        assert.are.same(c[4], c[1].fields)
      end)
    end

    it("kuid96 takes interval 5..10 and hash phash2 or phash", function ()
      for I = 5, 10 do
        for _, h in ipairs({ "phash2", "phash" }) do
          assert.are.equal("kuid96", k96_with(I, h).name)
        end
      end
      -- the defaults: interval 8, phash2
      local f = { megaseconds = 1761, seconds = 234567, microseconds = 890880,
                  sequence = 4242, node_name = "uid@127.0.0.1" }
      assert.are.equal("006e139403eb273147d99092",
                       k96:compose(f):encode("hex"))
      assert.are.equal(k96:compose(f):encode("hex"),
                       k96_with(8, "phash2"):compose(f):encode("hex"))
    end)

    it("raises on bad parameters, naming them", function ()
      for _, I in ipairs({ -1, 0, 1, 4, 11, 20, 21, 64, helper.MAXINT,
                           helper.MININT, 8.5 }) do
        interval_raises(I)
      end
      interval_raises("8", "interval '8'")
      for _, h in ipairs({ "", "PHASH2", "phash3", "sha256", "phash2 " }) do
        raises("hash " .. helper.show(h), idscheme.scheme, "hash", "kuid96",
               { hash = h })
      end
      raises("hash 1", idscheme.scheme, "hash", "kuid96", { hash = 1 })
      raises("kuid96 bogus", idscheme.scheme, "bogus", "kuid96",
             { bogus = 1 })
      raises("kuid64 interval", idscheme.scheme, "interval", "kuid64",
             { interval = 8 })
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("local (kuid64)", function ()
    it("has the 32 reference entries", function ()
      assert.are.equal(32, #V["local"])
    end)

    for n, e in ipairs(V["local"]) do
      local name = ("#%d %s"):format(n, e.input_term)
      if e.roundtrip_identity then
        it(name .. " composes to its hex and d64 and decodes back", function ()
          local id = k64:compose(fields_of(e.input))
          assert.are.equal(e.encode_hex, id:encode("hex"))
          assert.are.equal(e.encode64, id:encode("b64"))
          assert.are.equal(e.encode64, id:encode())
          assert.are.equal(e.encode64, tostring(id))
          assert.are.equal(helper.unhex(e.encode_hex), id:bytes())
          local want = expected_fields(e.decode)
          assert.are.same(want, id:fields())
          for _, form in ipairs({ { e.encode_hex, "hex" },
                                  { e.encode64, "b64" },
                                  { e.encode64, nil } }) do
            local back = decodes(k64, form[1], form[2])
            assert.are.same(want, back:fields())
            assert.is_true(back == id)
          end
          assert.are.same(want,
                          assert(k64:from_bytes(id:bytes())):fields())
        end)
      else
        it(name .. " (lossy in the reference) is refused; its decode "
           .. "composes to the hex and d64", function ()
          -- the fields the reference truncates; our error names one
          local bad = {}
          for k, field in pairs(NAMES) do
            if e.input[k] ~= e.decode[k] then bad[#bad + 1] = field end
          end
          assert.is_true(#bad > 0)
          local ok, err = pcall(k64.compose, k64, fields_of(e.input))
          assert.is_false(ok, "compose of " .. e.input_term
                                .. " should raise, gave "
                                .. (ok and err:encode("hex") or ""))
          local named = false
          for _, field in ipairs(bad) do
            named = named or tostring(err):find(field, 1, true) ~= nil
          end
          assert.is_true(named, "message names none of "
                         .. table.concat(bad, ", ") .. ": " .. tostring(err))

          local id = k64:compose(fields_of(e.decode))
          assert.are.equal(e.encode_hex, id:encode("hex"))
          assert.are.equal(e.encode64, id:encode())
          local want = expected_fields(e.decode)
          assert.are.same(want, decodes(k64, e.encode_hex, "hex"):fields())
          assert.are.same(want, decodes(k64, e.encode64):fields())
        end)
      end
    end

    it("takes seconds and microseconds at their whole stored width",
       function ()
      local id = k64:compose({ megaseconds = helper.pow2(20) - 1,
                               seconds = helper.pow2(20) - 1,
                               microseconds = 1047552, sequence = 16383 })
      assert.are.equal("ffffffffffffffff", id:encode("hex"))
      assert.are.equal("zzzzzzzzzzw", id:encode())
      -- -1 under 5.4 (wrapped); under LuaJIT an error (above 2^53)
      helper.assert_integer(id, "18446744073709551615")
    end)

    it("raises on out-of-range fields, naming them", function ()
      compose_raises(k64, BASE64, {
        { "megaseconds", helper.pow2(20) }, { "megaseconds", -1 },
        { "seconds", helper.pow2(20) }, { "seconds", -1 },
        { "microseconds", helper.pow2(20) }, { "microseconds", -1024 },
        { "microseconds", 1 }, { "microseconds", 1023 },
        { "microseconds", 1025 }, { "microseconds", 1048575 },
        { "sequence", 16384 }, { "sequence", -1 },
        { "sequence", helper.MININT }, { "megaseconds", helper.MAXINT },
      })
    end)

    it("raises on missing, unknown or non-integer fields, naming them",
       function ()
      compose_raises(k64, BASE64, {
        { "megaseconds" }, { "seconds" }, { "microseconds" }, { "sequence" },
        { "node", 1 }, { "node_name", "a@b" },
      })
    end)

    it("decoders accept either hex case and trim whitespace", function ()
      local id = decodes(k64, "006E139447D9D093", "hex")
      assert.are.equal("006e139447d9d093", id:encode("hex"))
      assert.are.equal("006e139447d9d093",
                       decodes(k64, " \t.5sI_3UOo8B\n"):encode("hex"))
      assert.are.equal("006e139447d9d093",
                       decodes(k64, " 006e139447d9d093 ", "hex")
                         :encode("hex"))
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("global (kuid96)", function ()
    local encodable, timeouts = {}, {}
    for _, e in ipairs(V.global) do
      if e.encode_result ~= helper.null and e.encode_result ~= nil then
        timeouts[#timeouts + 1] = e
      else
        encodable[#encodable + 1] = e
      end
    end
    local own = {}                     -- decoding node -> its fingerprint
    for node, fp in pairs(V.constants.hid_running_node) do
      own[node] = tonumber(fp, 16)
    end

    it("has 56 encodable entries for I = 5..10 and 6 timeouts", function ()
      assert.are.equal(56, #encodable)
      assert.are.equal(6, #timeouts)
      for _, e in ipairs(encodable) do
        assert.is_true(e.I >= 5 and e.I <= 10)
      end
    end)

    for n, e in ipairs(encodable) do
      local node = e.input.node
      local name = ("#%d I=%d %s"):format(n, e.I, e.input_term)
      it(name .. " composes to its hex and d64", function ()
        local s = k96_with(e.I)
        -- the reference keeps C band 16#ffc00: compose the decoded C
        local C = e["decode_as_nonode@nohost"].decode.C
        local f = fields_of(e.input)
        if f.microseconds ~= C then
          raises("unaligned microseconds " .. f.microseconds,
                 s.compose, "microseconds", s, f)
          f.microseconds = C
        end
        local id = s:compose(f)
        assert.are.equal(e.encode_hex, id:encode("hex"))
        assert.are.equal(e.encode64, id:encode())
        assert.are.equal(e.encode64, id:encode("b64"))
        assert.are.equal(helper.unhex(e.encode_hex), id:bytes())
        if node.atom ~= nil then
          -- the same id from the fingerprint as an integer
          local fp = id:fields().node
          f.node_name = nil
          f.node = fp
          assert.are.equal(e.encode_hex, s:compose(f):encode("hex"))
        end
      end)

      it(name .. " decodes from hex and d64 to its fields", function ()
        local s = k96_with(e.I)
        for _, view in ipairs({ "nonode@nohost", "uid@127.0.0.1" }) do
          local d = e["decode_as_" .. view]
          local want = expected_fields(d.decode, own[view])
          for _, form in ipairs({ { e.encode_hex, "hex" },
                                  { e.encode64, nil },
                                  { e.encode64, "b64" } }) do
            assert.are.same(want, decodes(s, form[1], form[2]):fields(),
                            "as seen from " .. view)
          end
          assert.are.same(want, assert(s:from_bytes(
            helper.unhex(e.encode_hex))):fields())
        end
      end)
    end

    for _, e in ipairs(timeouts) do
      it(("I=%d (the reference hangs) raises at scheme(), naming interval")
         :format(e.I), function ()
        interval_raises(e.I)
      end)
    end

    it("places the fields as megaseconds | seconds>>I | node | "
       .. "seconds mod 2^I | microseconds/1024 | sequence", function ()
      for I = 5, 10 do
        local s = k96_with(I)
        local band, bor, shl, shr = helper.band, helper.bor, helper.shl,
                                    helper.shr
        local f = { megaseconds = 0xabcde, seconds = 0x9f3a5,
                    microseconds = shl(0x2b7, 10), node = 0xdeadbeef,
                    sequence = 0x1234 }
        local id = s:compose(f)
        local b = id:bytes()
        -- `width` bits of the 96-bit value from bit `shift` (0: the LSB)
        local function bits (shift, width)
          local x = 0
          for k = shift + width - 1, shift, -1 do
            local byte = b:byte(12 - helper.idiv(k, 8))
            x = bor(shl(x, 1), band(shr(byte, k % 8), 1))
          end
          return x
        end
        local v = { mega = bits(76, 20), b0 = bits(56 + I, 20 - I),
                    node = bits(24 + I, 32), b1 = bits(24, I),
                    tick = bits(14, 10), seq = bits(0, 14) }
        assert.are.same({ mega = 0xabcde, b0 = shr(0x9f3a5, I),
                          node = 0xdeadbeef,
                          b1 = band(0x9f3a5, helper.pow2(I) - 1),
                          tick = 0x2b7, seq = 0x1234 }, v, "I = " .. I)
        assert.are.same(f, id:fields())
      end
    end)

    it("raises on out-of-range fields and a missing node, naming them",
       function ()
      compose_raises(k96, BASE96, {
        { "node", helper.pow2(32) }, { "node", -1 }, { "node", helper.MAXINT },
        { "megaseconds", helper.pow2(20) }, { "seconds", helper.pow2(20) },
        { "microseconds", helper.pow2(20) }, { "microseconds", 3 },
        { "sequence", 16384 }, { "sequence", -1 }, { "node" },
      })
      -- a node_name that is not a string
      compose_raises(k96, BASE64, { { "node_name", 42, "node" } })
    end)

    it("ids of schemes with another interval do not compare", function ()
      local a, b = k96_with(5):compose(BASE96), k96_with(6):compose(BASE96)
      assert.is_false(a == b)
      assert.has_error(function () return a < b end)
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("decode_with_I", function ()
    local dw = V.decode_with_I
    local bytes = helper.unhex(dw.encode_hex)

    it("has reference decodes for I in 5..10", function ()
      local n = 0
      for _, d in ipairs(dw.decodes) do
        if d.I >= 5 and d.I <= 10 then n = n + 1 end
      end
      assert.is_true(n >= 5)
      assert.are.equal(8, dw.encoded_with_I)
    end)

    for _, d in ipairs(dw.decodes) do
      if d.I >= 5 and d.I <= 10 then
        it(("reads %s with I=%d as %s"):format(dw.encode_hex, d.I,
                                               d.result.value), function ()
          assert.are.equal("ok", d.result.outcome)
          local t = assert(helper.uid_term(d.result.value))
          local want = expected_fields(t)
          local s = k96_with(d.I)
          assert.are.same(want, assert(s:from_bytes(bytes)):fields())
          assert.are.same(want, decodes(s, dw.encode_hex, "hex"):fields())
          local d64 = helper.bitpack64(bytes, helper.DIGITS_D64)
          assert.are.same(want, decodes(s, d64):fields())
          -- and composing those fields gives the same bytes back
          assert.are.equal(dw.encode_hex, s:compose(want):encode("hex"))
        end)
      else
        it(("refuses I=%d (reference: %s) at scheme()"):format(
             d.I, d.result.outcome), function ()
          interval_raises(d.I)
        end)
      end
    end
  end)

  -- ----------------------------------------------------------------------

  describe("node_hash", function ()
    local phash = k96_with(8, "phash")

    -- node field of compose with node_name
    local function fp (s, name)
      return s:compose({ megaseconds = 0, seconds = 0, microseconds = 0,
                         sequence = 0, node_name = name }):fields().node
    end

    for _, e in ipairs(V.node_hash) do
      local name = helper.unhex(e.utf8_hex)
      it(("hashes %s (%s)"):format(helper.show(name), e.utf8_hex), function ()
        assert.are.equal(e.name_len_bytes, #name)
        assert.are.equal(e.phash2_2pow32, fp(k96, name))
        assert.are.equal(tonumber(e.fingerprint_hex_v135, 16), fp(k96, name))
        assert.are.equal(e.phash_2pow32, fp(phash, name))
        assert.are.equal(tonumber(e.fingerprint_hex_v134_and_older, 16),
                         fp(phash, name))
        local id = k96:compose({ megaseconds = 1761, seconds = 234567,
                                 microseconds = 890880, sequence = 4242,
                                 node_name = name })
        assert.are.equal(e.encode_I8_hex, id:encode("hex"))
      end)
    end

    it("hashes all 2000 rows of kuid_node_hash.tsv", function ()
      local rows = helper.tsv("spec/vectors/kuid_node_hash.tsv")
      assert.are.equal(V.node_hash_bulk_file.rows, #rows)
      local bad = {}
      for i, r in ipairs(rows) do
        local name = helper.unhex(r[1])
        local want2, want1 = helper.tointeger(tonumber(r[3])),
                             helper.tointeger(tonumber(r[4]))
        local got2, got1 = fp(k96, name), fp(phash, name)
        if got2 ~= want2 or got1 ~= want1 then
          bad[#bad + 1] = ("row %d %s: phash2 %d (got %s), phash %d (got %s)")
            :format(i, r[1], want2, tostring(got2), want1, tostring(got1))
        end
      end
      assert.are.same({}, bad)
    end)

    it("hashes node_name into generators the same way", function ()
      for _, e in ipairs(V.node_hash) do
        local name = helper.unhex(e.utf8_hex)
        assert.are.equal(e.phash2_2pow32,
                         k96:generator({ node_name = name }):next()
                           :fields().node)
        assert.are.equal(e.phash_2pow32,
                         phash:generator({ node_name = name }):next()
                           :fields().node)
      end
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("legacy", function ()
    -- The reference inputs have unaligned C: compose A, B, Seq and the
    -- node of the input with the C of the round trip.
    local function legacy_fields (e)
      local input = assert(helper.uid_term(e.input_term))
      local rt = assert(helper.uid_term(e.decode64_roundtrip))
      input.C = rt.C
      return fields_of(input), input.node ~= nil
    end

    for n, e in ipairs(V.legacy["1.3.4_phash_d64"]) do
      it(("1.3.4 #%d %s: phash and d64"):format(n, e.input_term), function ()
        local f, global = legacy_fields(e)
        local s = global and k96_with(8, "phash") or k64
        local id = s:compose(f)
        assert.are.equal(e.encode_hex, id:encode("hex"))
        assert.are.equal(e.encode64, id:encode())
        local back = decodes(s, e.encode64)
        assert.is_true(back == id)
        local rt = assert(helper.uid_term(e.decode64_roundtrip))
        -- an atom node comes back as the decoding node ('uid@127.0.0.1'),
        -- whose phash fingerprint is 03eb2732
        assert.are.same(expected_fields(rt, 0x03eb2732), back:fields())
      end)
    end

    for n, e in ipairs(V.legacy["1.3.3_phash_rfc4648_urlsafe_nopad"]) do
      it(("1.3.3 #%d %s: RFC 4648 url-safe base64"):format(n, e.input_term),
         function ()
        local f, global = legacy_fields(e)
        local s = global and k96_with(8, "phash") or k64
        local id = s:compose(f)
        assert.are.equal(e.encode_hex, id:encode("hex"))
        assert.are.equal(e.encode64, id:encode("b64url"))
        assert.are.equal(e.encode_hex,
                         decodes(s, e.encode64, "b64url"):encode("hex"))
        -- independent RFC 4648 check of the same bytes
        assert.are.equal(e.encode64,
                         helper.bitpack64(helper.unhex(e.encode_hex),
                                          helper.DIGITS_B64URL))
      end)
    end

    it("1.3.3 text under 1.3.5's d64 is 'nonsense', as the reference says",
       function ()
      -- calls: uid:decode64(<<"AGA5igPrJzJ7aYAB">>)
      local id = decodes(k96, "AGA5igPrJzJ7aYAB")
      assert.are.same(expected_fields(assert(helper.uid_term(
        "{uid,<<198,183,83,245>>,{184620,440840,630784},13004}"))),
        id:fields())
    end)

    it("b64url rejects the d64 alphabet's extras, padding and bad tails",
       function ()
      rejected(k64, "AGA5intpgAE=", "b64url")
      rejected(k64, "AGA5intpgA+", "b64url")
      rejected(k64, "AGA5intpgA/", "b64url")
      rejected(k64, "AGA5intpgA.", "b64url")
      rejected(k64, "AGA5intpgAF", "b64url")     -- non-zero pad bits
      rejected(k64, "AGA5intpgA", "b64url")      -- 10 characters
      rejected(k96, "AGA5igPrJzJ7aYA", "b64url")
      rejected(k96, "AGA5igPrJzJ7aYABA", "b64url")
      rejected(k64, "", "b64url")
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("calls", function ()
    local Z64 = { megaseconds = 0, seconds = 0, microseconds = 0,
                  sequence = 0 }
    -- the fields of {uid, {1,2,0}, 1}, and of
    -- {uid, Node, {1761,234567,890880}, 1} but its node
    local L120 = { megaseconds = 1, seconds = 2, microseconds = 0,
                   sequence = 1 }
    local G1761 = { megaseconds = 1761, seconds = 234567,
                    microseconds = 890880, sequence = 1 }
    local ALL1 = { megaseconds = 1048575, seconds = 1048575,
                   microseconds = 1047552, sequence = 16383 }

    -- A check that text decodes (s, enc) to the reference's value term.
    local function reads_as_term (s, text, enc)
      return function (c)
        assert.are.same(expected_fields(helper.uid_term(c.value)),
                        decodes(s, text, enc):fields())
      end
    end

    -- A check that kuid64 and kuid96 both reject text.
    local function rejected_by_both (text)
      return function ()
        rejected(k64, text)
        rejected(k96, text)
      end
    end

    local function with (t, extra)
      local r = {}
      for k, v in pairs(t) do r[k] = v end
      for k, v in pairs(extra or {}) do r[k] = v end
      return r
    end

    -- Each reference call -> a function that checks our counterpart.
    -- Calls we cannot map are in SKIP with the reason.
    local MAP = {
      ["uid:decode(<<>>)"] = function ()
        gives_nil("kuid64 from_bytes ''", k64.from_bytes, k64, "")
        gives_nil("kuid96 from_bytes ''", k96.from_bytes, k96, "")
      end,
      ["uid:decode(<<0:56>>) 7 bytes"] = 7,
      ["uid:decode(<<0:72>>) 9 bytes"] = 9,
      ["uid:decode(<<0:88>>) 11 bytes"] = 11,
      ["uid:decode(<<0:104>>) 13 bytes"] = 13,
      ["uid:decode(<<0:128>>) 16 bytes"] = 16,
      -- Lua strings hold whole bytes; the nearest text is hex with an odd
      -- number of digits (15: 60 bits) and 7 bytes of binary
      ["uid:decode(<<0:63>>) 63-bit bitstring"] = function ()
        rejected(k64, string.rep("0", 15), "hex")
        rejected(k96, string.rep("0", 23), "hex")
        gives_nil("kuid64 from_bytes of 7 bytes", k64.from_bytes, k64,
                  string.rep("\0", 7))
      end,
      -- a list: a string of the wrong length gives nil, message; a value
      -- that is not a string at all is misuse and raises
      ["uid:decode(\"abc\") list"] = function ()
        gives_nil("kuid64 from_bytes 'abc'", k64.from_bytes, k64, "abc")
        gives_nil("kuid96 from_bytes 'abc'", k96.from_bytes, k96, "abc")
        raises("kuid64 from_bytes of a table", k64.from_bytes, nil, k64,
               { 97, 98, 99 })
        raises("kuid64 decode of a table", k64.decode, nil, k64,
               { 97, 98, 99 })
      end,
      ["uid:decode(<<255,255,255,255,255,255,255,255>>)"] = function (c)
        local id = assert(k64:from_bytes(string.rep("\255", 8)))
        assert.are.same(expected_fields(helper.uid_term(c.value)),
                        id:fields())
      end,
      ["uid:decode64(<<>>)"] = function ()
        for _, enc in ipairs({ "b64", "hex", "b64url" }) do
          rejected(k64, "", enc)
          rejected(k96, "", enc)
        end
      end,
      ["uid:decode64(<<\"...........\">>) 11 dots"] =
        reads_as_term(k64, "...........", "b64"),
      ["uid:decode64(<<\"..........\">>) 10 chars"] =
        rejected_by_both(".........."),
      ["uid:decode64(<<\"............\">>) 12 chars"] =
        rejected_by_both("............"),
      ["uid:decode64(<<\"................\">>) 16 chars"] = function (c)
        reads_as_term(k96, "................")(c)
        rejected(k64, "................")
      end,
      ["uid:decode64(<<\"...............\">>) 15 chars"] = function ()
        rejected(k96, "...............")
      end,
      -- the reference ignores the 17th character; we refuse it
      ["uid:decode64(<<\"................\">>) 17 chars"] = function ()
        rejected(k96, ".................")
        rejected(k96, "................0")
      end,
      -- the reference drops the 2 pad bits unchecked; we refuse non-zero
      ["uid:decode64(<<\"zzzzzzzzzzz\">>) 11 z (non-canonical tail)"] =
        function ()
          rejected(k64, "zzzzzzzzzzz")
          rejected(k64, "zzzzzzzzzzx")
          rejected(k64, "..........1")
          rejected(k64, "__________-", "b64url")
        end,
      ["uid:decode64(<<\"zzzzzzzzzzw\">>) 11 chars canonical all-ones"] =
        function (c)
          reads_as_term(k64, "zzzzzzzzzzw")(c)
          assert.are.same(ALL1, decodes(k64, "__________8", "b64url")
                                  :fields())
        end,
      ["uid:decode64(<<\"zzzzzzzzzzzzzzzz\">>) 16 z"] =
        reads_as_term(k96, "zzzzzzzzzzzzzzzz"),
      ["uid:decode64(<<\"..........-\">>) '-' invalid char"] = "-",
      ["uid:decode64(<<\"..........+\">>) '+' invalid char"] = "+",
      ["uid:decode64(<<\"..........=\">>) '=' invalid char"] = "=",
      ["uid:decode64(<<\"........../\">>) '/' invalid char"] = "/",
      ["uid:decode64(<<\"AGA5igPrJzJ7aYAB\">>) old (<=1.3.3) README string"] =
        reads_as_term(k96, "AGA5igPrJzJ7aYAB"),
      ["uid:decode64(<<\".5.tXVEf8n8vPN.0\">>) README string"] =
        reads_as_term(k96, ".5.tXVEf8n8vPN.0"),
      -- raw uid_b64 on arbitrary bytes is not in our API (our codecs take
      -- ids); the values check our independent d64 encoder, which the
      -- sort property below relies on
      ["uid_b64:encode(<<1>>)"] = { "\1" },
      ["uid_b64:encode(<<1,2>>)"] = { "\1\2" },
      ["uid_b64:encode(<<1,2,3>>)"] = { "\1\2\3" },
      ["uid_b64:encode(<<255,255,255,255>>)"] = { "\255\255\255\255" },
      ["uid_b64:encode(<<>>)"] = { "" },
      -- non-integer fields raise, naming the field
      ["uid:encode({uid, {a,0,0}, 0}) non-integer field"] =
        refuses(k64, Z64, { { "megaseconds", "a" }, { "megaseconds", 0.5 } }),
      ["uid:encode({uid, {0,0,0}, 0.5}) float seq"] = function ()
        compose_raises(k64, Z64, { { "sequence", 0.5 } })
        compose_raises(k96, with(Z64, { node = 1 }), { { "sequence", 0.5 } })
      end,
      -- a 2-tuple time: a missing field raises, naming it
      ["uid:encode({uid, {0,0}, 0}) 2-tuple time"] =
        refuses(k64, Z64, { { "microseconds", false }, { "microseconds" } }),
      -- node binaries: our node is a 32-bit integer; a 3- or 5-byte
      -- binary is a value of 24 / 40 bits, or a string where an integer
      -- belongs.  Both raise (the reference writes garbage).
      ["uid:encode(8, {uid, <<1,2,3>>, {1761,234567,891011}, 1}) "
       .. "3-byte node bin"] = refuses(k96, G1761, { { "node", "\1\2\3" } }),
      ["uid:encode(8, {uid, <<1,2>>, {1761,234567,891011}, 1}) "
       .. "2-byte node bin"] = refuses(k96, G1761, { { "node", "\1\2" } }),
      ["uid:encode(8, {uid, <<1,2,3,4,5>>, {1761,234567,891011}, 1}) "
       .. "5-byte node bin"] = refuses(k96, G1761, {
        { "node", 0x0102030405 }, { "node", "\1\2\3\4\5" } }),
      -- the reference hashes the list "str" with phash2's general term
      -- hash, which we do not offer: node_name is always an atom's name.
      -- A string in the node field itself raises.
      ["uid:encode(8, {uid, \"str\", {1761,234567,891011}, 1}) node as list"] =
        refuses(k96, G1761, { { "node", "str" } }),
      ["uid:encode(4, {uid, 'uid@127.0.0.1', {1,2,3}, 1}) I below range"] =
        function () interval_raises(4) end,
      ["uid:encode(11, {uid, <<1,2,3,4>>, {1,2,3}, 1}) I above range"] =
        function () interval_raises(11) end,
      -- local ids have no I; C = 3 is unaligned: refused, and its aligned
      -- value gives the reference's bytes
      ["uid:encode(99, {uid, {1,2,3}, 1}) local ignores I"] = function (c)
        compose_raises(k64, L120, { { "microseconds", 3 } })
        assert.are.equal(c.value_hex, k64:compose(L120):encode("hex"))
      end,
      -- our API has no l/1 (global -> local).  The nearest misuse is to
      -- hand a node to kuid64, which raises naming it.
      ["uid:l({uid, 'other@host', {1,2,3}, 1}) foreign atom node"] =
        refuses(k64, L120, { { "node_name", "other@host" } }),
      ["uid:l({uid, <<1,2,3,4>>, {1,2,3}, 1}) foreign binary node"] =
        refuses(k64, L120, { { "node", 0x01020304 } }),
      ["uid:z()"] = function (c)
        assert.are.same(expected_fields(helper.uid_term(c.value)),
                        k64:compose(Z64):fields())
      end,
      ["uid:encode(uid:z())"] = function (c)
        assert.are.equal(c.value_hex, k64:compose(Z64):encode("hex"))
      end,
      ["uid:encode64(uid:z())"] = function (c)
        assert.are.equal(helper.unhex(c.value_hex),
                         k64:compose(Z64):encode())
      end,
    }
    local SKIP = {
      ["uid_b64:decode(<<\"0\">>) 1 char"] =
        "raw d64 of arbitrary length: our decoders read whole ids only",
      ["uid_b64:decode(<<\"01\">>) 2 chars"] =
        "raw d64 of arbitrary length: our decoders read whole ids only",
      ["uid:l({uid, node(), {1,2,3}, 1}) own node"] =
        "no l/1: node() is the running Erlang node",
      ["uid:l({uid, hid(node()), {1,2,3}, 1}) own node hash"] =
        "no l/1: node() is the running Erlang node",
      ["uid:gtol({uid, 'other@host', {1,2,3}, 1})"] = "no gtol/1",
      ["uid:g({uid, {1,2,3}, 1})"] = "no g/1: node() is the Erlang node",
      ["uid:g({uid, 'x@y', {1,2,3}, 1}) passthrough"] = "no g/1",
      ["uid:d({uid,{1761,234567,891904},10}, {uid,{1761,234566,1024},3})"] =
        "no d/2 (difference of ids)",
      ["uid:d({uid,{1761,234566,1024},3}, {uid,{1761,234567,891904},10}) "
       .. "negative"] = "no d/2 (difference of ids)",
      ["uid:d({uid,{1761,0,0},0}, {uid,{1700,0,0},0}) large"] =
        "no d/2 (difference of ids)",
      ["uid:d(G1, G2) same node"] = "no d/2 (difference of ids)",
      ["uid:d(G1, G2) different node"] =
        "no d/2 (difference of ids), so no node mismatch to report",
      ["uid:t({uid,{1761,234567,891904},10})"] = "no t/1 (ms of an id)",
      ["uid:t({uid,'n@h',{1761,234567,891011},10})"] = "no t/1 (ms of an id)",
    }

    it("maps or skips (with a reason) every one of the 59 calls", function ()
      assert.are.equal(59, #V.calls)
      local unknown = {}
      for _, c in ipairs(V.calls) do
        if MAP[c.call] == nil and SKIP[c.call] == nil then
          unknown[#unknown + 1] = c.call
        end
      end
      assert.are.same({}, unknown)
      -- every call that errors or hangs in the reference is mapped
      for _, c in ipairs(V.calls) do
        local r = c["result_as_nonode@nohost"]
        if r.outcome ~= "ok" and SKIP[c.call] then
          assert.is_truthy(c.call:find("^uid:d%("), "unmapped error call "
                           .. c.call)
        end
      end
    end)

    for _, c in ipairs(V.calls) do
      local r = c["result_as_nonode@nohost"]
      local m = MAP[c.call]
      local label = ("%s -> %s"):format(c.call, r.outcome == "ok"
                                        and tostring(r.value)
                                        or r.outcome .. " "
                                        .. tostring(r.reason or r.note))
      if m == nil then
        -- no counterpart in our API: SKIP gives the reason, and the test
        -- above checks that no erroring call is among them but d/2
      elseif helper.is_integer(m) then
        it(label, function ()
          assert.are.equal("error", r.outcome)
          for _, s in ipairs({ k64, k96 }) do
            gives_nil(s.name .. " from_bytes of " .. m .. " bytes",
                      s.from_bytes, s, string.rep("\0", m))
            gives_nil(s.name .. " hex of " .. m .. " bytes", s.decode, s,
                      string.rep("00", m), "hex")
          end
        end)
      elseif type(m) == "string" then
        it(label, function ()
          assert.are.equal("error", r.outcome)
          rejected(k64, ".........." .. m)
          rejected(k96, "..............." .. m)
          rejected(k64, m .. "..........")
          if m ~= "-" then rejected(k64, "AAAAAAAAAA" .. m, "b64url") end
        end)
      elseif type(m) == "table" then
        it(label, function ()
          assert.are.equal("ok", r.outcome)
          assert.are.equal(helper.unhex(r.value_hex),
                           helper.bitpack64(m[1], helper.DIGITS_D64))
        end)
      else
        it(label, function () m(r) end)
      end
    end

    it("wrong widths: 8 bytes are not a kuid96, 12 not a kuid64", function ()
      gives_nil("kuid96 from_bytes of 8 bytes", k96.from_bytes, k96,
                string.rep("\0", 8))
      gives_nil("kuid64 from_bytes of 12 bytes", k64.from_bytes, k64,
                string.rep("\0", 12))
      rejected(k96, "...........")
      rejected(k64, "................")
      rejected(k96, "0000000000000000", "hex")
      rejected(k64, "000000000000000000000000", "hex")
      rejected(k64, "000000000000000g", "hex")
      rejected(k64, "0x00000000000000", "hex")
      rejected(k64, "00000000 0000000", "hex")
    end)

    it("never raises on bad text, and answers promptly", function ()
      local extra = { "\0\0\0\0\0\0\0\0", "...........\0", "zzzzzzzzzzw\n!",
                      string.rep(".", 100000), "ƒ..........",
                      ".........." .. "\xc3\xa9" }
      for _, list in ipairs({ helper.BAD_TEXT or {}, extra }) do
        for _, text in ipairs(list) do
          for _, s in ipairs({ k64, k96 }) do
            for _, enc in ipairs({ false, "b64", "hex", "b64url" }) do
              rejected(s, text, enc or nil)
            end
          end
        end
      end
    end)

    it("raises on an unknown encoding, naming it", function ()
      for _, s in ipairs({ k64, k96 }) do
        raises(s.name .. " decode as dec", s.decode, "dec", s, "1", "dec")
        local id = s:from_bytes(string.rep("\0", helper.idiv(s.bits, 8)))
        raises(s.name .. " encode as d64", id.encode, "d64", id, "d64")
      end
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("sort_check", function ()
    local N = helper.scaled(100000, 2000)

    -- Compares two strings or ids: -1, 0, 1.
    local function cmp (a, b)
      if a < b then return -1 elseif b < a then return 1 else return 0 end
    end

    -- The reference's order of a kuid96 id's fields for interval I.
    local function key96 (f, I)
      return { f.megaseconds, helper.shr(f.seconds, I), f.node,
               helper.band(f.seconds, helper.pow2(I) - 1), f.microseconds,
               f.sequence }
    end
    local function key64 (f)
      return { f.megaseconds, f.seconds, f.microseconds, f.sequence }
    end
    local function cmpkey (a, b)
      for i = 1, #a do
        if a[i] ~= b[i] then return a[i] < b[i] and -1 or 1 end
      end
      return 0
    end

    -- Random fields in range; narrow ranges now and then so that ids
    -- share prefixes and tie on fields.
    local function random_fields (global)
      local narrow = math.random(4) == 1
      local f = {
        megaseconds = narrow and math.random(0, 3) or math.random(0, 1048575),
        seconds = narrow and math.random(0, 600) or math.random(0, 1048575),
        microseconds = helper.shl(narrow and math.random(0, 3)
                                  or math.random(0, 1023), 10),
        sequence = narrow and math.random(0, 3) or math.random(0, 16383),
      }
      if global then
        f.node = narrow and math.random(0, 3) or math.random(0, 0xffffffff)
      end
      return f
    end

    local function check (s, global, I, n)
      n = n or N
      math.randomseed(20240611 + (I or 0))
      local ids = {}
      for i = 1, n do
        local f = random_fields(global)
        local id = s:compose(f)
        ids[i] = { id = id, b64 = id:encode(), hex = id:encode("hex"),
                   key = global and key96(f, I) or key64(f) }
      end
      -- the b64 text is the d64 of the bytes (checked against the
      -- reference in "calls"), and the hex is the bytes
      for i = 1, 1000 do
        local b = ids[i].id:bytes()
        assert.are.equal(helper.bitpack64(b, helper.DIGITS_D64), ids[i].b64)
        assert.are.equal(helper.tohex(b), ids[i].hex)
        assert.are.equal(helper.bitpack64(b, helper.DIGITS_B64URL),
                         ids[i].id:encode("b64url"))
      end
      table.sort(ids, function (a, b) return a.id < b.id end)
      local bad = 0
      local first
      for i = 2, n do
        local a, b = ids[i - 1], ids[i]
        local v = cmp(a.id, b.id)
        local t = cmp(a.b64, b.b64)
        local h = cmp(a.hex, b.hex)
        local k = cmpkey(a.key, b.key)
        if v > 0 or t ~= v or h ~= v or k ~= v or (v == 0) ~= (a.id == b.id)
        then
          bad = bad + 1
          first = first or ("%s / %s: value %d, b64 %d, hex %d, fields %d")
            :format(a.hex, b.hex, v, t, h, k)
        end
      end
      assert.are.equal(0, bad, first)
    end

    it(N .. " random kuid64 ids: value order = b64 order = hex order = "
       .. "field order", function ()
      check(k64, false)
    end)

    it(N .. " random kuid96 ids (I = 8): value order = b64 order = hex "
       .. "order = (A, B>>I, node, B mod 2^I, C, Seq) order", function ()
      check(k96, true, 8)
    end)

    it("kuid96 with I = 5 and 10 sorts the same way (20000 ids each)",
       function ()
      check(k96_with(5), true, 5, 20000)
      check(k96_with(10), true, 10, 20000)
    end)
  end)

  -- ----------------------------------------------------------------------

  describe("generators", function ()
    -- The wall time of an id: seconds since 1970.
    local function seconds_of (f)
      return f.megaseconds * 1000000 + f.seconds
    end

    -- Asserts that the fields f of a generated id have the node `node`
    -- (if given) and a time on the 1024 us grid between t0 (the start) and
    -- now, give or take 3 s (under valgrind a loop lasts seconds).
    local function assert_now (f, t0, node)
      if node then assert.are.equal(node, f.node) end
      assert.are.equal(0, f.microseconds % 1024)
      local t = seconds_of(f)
      assert.is_true(t >= t0 - 3 and t <= os.time() + 3,
                     "generator time " .. t .. " vs os.time() " .. t0
                     .. " at the start")
    end

    it("kuid64: 1,000,000 ids strictly increase (so are distinct)",
       function ()
      local _, bad = helper.take_increasing(k64:generator(),
                                            helper.scaled(1000000, 5000))
      assert.is_nil(bad)
    end)

    it("kuid64 generator ids carry real time on the 1024 us grid",
       function ()
      local g = k64:generator()
      local t0 = os.time()
      for _ = 1, 1000 do
        local f = g:next():fields()
        assert.is_true(f.microseconds <= 999424)
        assert.is_true(f.seconds <= 999999)
        assert_now(f, t0)
      end
    end)

    it("kuid64 next_string gives the default and named encodings",
       function ()
      local g = k64:generator()
      local a = g:next_string()
      local b = g:next_string("hex")
      local c = g:next_string("b64url")
      assert.are.equal(11, #a)
      assert.are.equal(16, #b)
      assert.are.equal(11, #c)
      local ia, ib = decodes(k64, a), decodes(k64, b, "hex")
      local ic = decodes(k64, c, "b64url")
      assert.is_true(ia < ib and ib < ic)
      raises("kuid64 generator with node", k64.generator, "node", k64,
             { node = 1 })
    end)

    it("kuid96 with node_name 'uid@127.0.0.1' writes node 0x03eb2731, "
       .. "0x03eb2732 with phash", function ()
      local g = k96:generator({ node_name = "uid@127.0.0.1" })
      local gp = k96_with(8, "phash"):generator({ node_name = "uid@127.0.0.1" })
      local t0 = os.time()
      for _ = 1, 1000 do
        assert_now(g:next():fields(), t0, 0x03eb2731)
        assert_now(gp:next():fields(), t0, 0x03eb2732)
      end
      assert.are.equal(16, #g:next_string())
      assert.are.equal(24, #g:next_string("hex"))
    end)

    it("kuid96 with node writes that node under every interval", function ()
      for I = 5, 10 do
        local s = k96_with(I)
        for _, node in ipairs({ 0, 1, 0xdeadbeef, 0xffffffff }) do
          assert_now(s:generator({ node = node }):next():fields(), os.time(),
                     node)
        end
      end
    end)

    it("kuid96: 200,000 ids of one generator strictly increase", function ()
      local _, bad = helper.take_increasing(
        k96_with(5):generator({ node_name = "uid@127.0.0.1" }), 200000)
      assert.is_nil(bad)
    end)

    it("kuid96 takes at most one of node_name and node", function ()
      -- neither: a slot fills the node, unless slots = "none"
      local g = k96:generator()
      assert.are.equal((g:slot()), g:next():fields().node)
      g:close()
      raises("no node and no slots", k96.generator, "node", k96,
             { slots = "none" })
      raises("both", k96.generator, "node", k96,
             { node_name = "uid@127.0.0.1", node = 1 })
      raises("node 2^32", k96.generator, "node", k96,
             { node = helper.pow2(32) })
      raises("node -1", k96.generator, "node", k96, { node = -1 })
      raises("node '\\1\\2\\3\\4'", k96.generator, "node", k96,
             { node = "\1\2\3\4" })
      raises("node_name 42", k96.generator, "node_name", k96,
             { node_name = 42 })
      raises("bogus option", k96.generator, "bogus", k96,
             { node = 1, bogus = 1 })
    end)
  end)
end)
