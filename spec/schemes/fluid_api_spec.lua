-- The Lua API contract of DESIGN.md ("Lua API"), exercised on FLUID.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local MAX = "18446744073709551615"             -- 2^64-1

describe("idscheme", function ()
  local s = idscheme.scheme("fluid")

  local function dec (text)
    return assert(s:decode(text, "dec"))
  end

  local function compose (ts, gen, seq)
    return s:compose({ timestamp = ts, generator = gen, sequence = seq })
  end

  -- Asserts that s:compose(f) raises, naming `word`.
  local function compose_raises (f, word, what)
    assert.error_matches(function () s:compose(f) end, word, 1, true, what)
  end

  describe("list()", function ()
    it("is a sorted array of names that holds fluid", function ()
      local names = idscheme.list()
      assert.are.equal("table", type(names))
      assert.is_true(#names >= 1)
      for i, name in ipairs(names) do
        assert.are.equal("string", type(name))
        if i > 1 then assert.is_true(names[i - 1] < name) end
      end
      assert.is_true(helper.set(names).fluid)
    end)

    it("names schemes that scheme() opens", function ()
      for _, name in ipairs(idscheme.list()) do
        assert.are.equal(name, idscheme.scheme(name).name)
      end
    end)

    it("gives a new array each time", function ()
      local a = idscheme.list()
      a[#a + 1] = "zzz-not-a-scheme"
      assert.is_false(helper.set(idscheme.list())["zzz-not-a-scheme"] == true)
    end)
  end)

  describe("scheme()", function ()
    it("gives one handle per scheme", function ()
      assert.is_true(rawequal(s, idscheme.scheme("fluid")))
    end)

    it("raises on an unknown name, naming it", function ()
      assert.has_error(function () idscheme.scheme("nope") end)
      assert.error_matches(function () idscheme.scheme("nope") end, "nope",
                           1, true)
    end)

    it("raises on a name that is not a string", function ()
      assert.has_error(function () idscheme.scheme() end)
      assert.has_error(function () idscheme.scheme({}) end)
    end)

    it("raises on a parameter fluid does not take, naming it", function ()
      assert.error_matches(function ()
        idscheme.scheme("fluid", { bogus = 1 })
      end, "bogus", 1, true)
    end)
  end)

  describe("fluid attributes", function ()
    it("has name and bits", function ()
      assert.are.equal("fluid", s.name)
      assert.are.equal(64, s.bits)
      if helper.INT64 then
        assert.are.equal("integer", math.type(s.bits))
      else                             -- numbers are doubles: an integral one
        assert.are.equal("number", type(s.bits))
        assert.is_true(helper.is_integer(s.bits))
      end
    end)

    it("lists its encodings, the default first", function ()
      assert.are.equal("f58", s.default_encoding)
      assert.are.equal("f58", s.encodings[1])
      assert.are.same(helper.set({ "f58", "dec", "hex", "dothex", "words",
                                   "emoji", "f58_plain" }),
                      helper.set(s.encodings))
      assert.are.equal(7, #s.encodings)
    end)

    it("describes its fields, most significant first", function ()
      assert.are.same({
        { name = "timestamp", bits = 40, kind = "time" },
        { name = "generator", bits = 14, kind = "node" },
        { name = "sequence", bits = 10, kind = "sequence" },
      }, helper.shape(s.fields))
    end)
  end)

  describe("compose()", function ()
    it("packs timestamp << 24 | generator << 10 | sequence", function ()
      local id = compose(401210253, 15451, 46)
      assert.are.equal("6731191091817518", id:encode("dec"))
      assert.are.equal("ƒuZZybuNNy", id:encode())
    end)

    it("takes every field at its widest", function ()
      assert.are.equal(MAX, compose(helper.pow2(40) - 1, 16383, 1023)
                              :encode("dec"))
      assert.are.equal("0", compose(0, 0, 0):encode("dec"))
    end)

    it("raises when a field is missing, naming it", function ()
      for _, missing in ipairs({ "timestamp", "generator", "sequence" }) do
        local f = { timestamp = 1, generator = 2, sequence = 3 }
        f[missing] = nil
        compose_raises(f, missing)
      end
    end)

    it("raises when a field is out of range, naming it", function ()
      local cases = {
        { "timestamp", helper.pow2(40) }, { "timestamp", -1 },
        { "generator", 16384 }, { "generator", -1 },
        { "sequence", 1024 }, { "sequence", -1 },
        { "sequence", helper.MININT }, { "timestamp", helper.MAXINT },
      }
      for _, c in ipairs(cases) do
        local f = { timestamp = 1, generator = 2, sequence = 3 }
        f[c[1]] = c[2]
        compose_raises(f, c[1], c[1] .. " = " .. c[2])
      end
    end)

    it("raises on a field fluid does not have, naming it", function ()
      compose_raises({ timestamp = 1, generator = 2, sequence = 3, bogus = 4 },
                     "bogus")
    end)

    it("raises when a field is not an integer, naming it", function ()
      for _, bad in ipairs({ 1.5, "1", true, {} }) do
        if bad == "1" and not helper.INT64 then
          -- where numbers are doubles, a decimal string is a field value
          -- (see the next test); under 5.4 it is not an integer
          assert.is_true(s:compose({ timestamp = 1, generator = 2,
                                     sequence = bad }) == compose(1, 2, 1))
        else
          compose_raises({ timestamp = 1, generator = 2, sequence = bad },
                         "sequence")
        end
      end
    end)

    it("takes decimal strings for fields only where numbers are doubles",
       function ()
      local f = { timestamp = "401210253", generator = "15451",
                  sequence = "46" }
      if helper.INT64 then
        for _, k in ipairs({ "timestamp", "generator", "sequence" }) do
          local g = { timestamp = 401210253, generator = 15451,
                      sequence = 46 }
          g[k] = f[k]
          compose_raises(g, k)
        end
      else
        assert.are.equal("6731191091817518", s:compose(f):encode("dec"))
        assert.is_true(s:compose(f) == compose(401210253, 15451, 46))
        assert.is_true(s:compose({ timestamp = "1099511627775",
                                   generator = "16383", sequence = "1023" })
                       == dec(MAX))
        for _, bad in ipairs({ "", "-1", "+1", "1.5", "0x10", " 1", "1 ",
                               "1024", "18446744073709551616",
                               string.rep("9", 30) }) do
          compose_raises({ timestamp = 1, generator = 2, sequence = bad },
                         "sequence")
        end
      end
    end)

    it("raises when fields is not a table", function ()
      helper.assert_compose_needs_table(s, "1")
    end)
  end)

  describe("decode()", function ()
    it("reads the default encoding and detects the others", function ()
      assert.are.equal("1234", s:decode("ƒNH"):encode("dec"))
      assert.are.equal("1234", s:decode("1234"):encode("dec"))
      assert.are.equal("1234", s:decode("0x4d2"):encode("dec"))
    end)

    it("returns nil and a message on bad text, never raising", function ()
      local bad = { "", " ", "nope", "-", "1.2.3", "ƒ0", "0x", "😃😃😃😃😃😃😃😃",
                    "\0", "\xff\xfe", "18446744073709551616", MAX .. "0",
                    string.rep("9", 1000), string.rep("ƒ", 100) }
      helper.assert_all_rejected(s, bad, { "f58", "f58_plain", "dec", "hex",
                                           "dothex", "words", "emoji" })
    end)

    it("rejects text of another encoding when one is named", function ()
      assert.is_nil(s:decode("ƒNH", "dec"))
      assert.is_nil(s:decode("1234", "f58"))
      assert.is_nil(s:decode("0x4d2", "dec"))
      assert.is_nil(s:decode("1234", "hex"))
    end)

    it("raises when the text is not a string", function ()
      helper.assert_decode_needs_text(s, "dec")
    end)

    it("raises on an unknown encoding, naming it", function ()
      assert.error_matches(function () s:decode("1", "nope") end, "nope",
                           1, true)
      assert.has_error(function () s:decode("1", {}) end)
    end)
  end)

  describe("from_bytes()", function ()
    it("reads 8 big-endian bytes", function ()
      local id = assert(s:from_bytes("\0\0\0\0\0\0\4\210"))
      assert.are.equal("1234", id:encode("dec"))
      assert.are.equal(MAX, s:from_bytes(string.rep("\255", 8)):encode("dec"))
    end)

    it("round-trips with bytes()", function ()
      for _, v in ipairs({ "0", "1", "1234", "6731191091817518",
                           "9223372036854775808", MAX }) do
        local id = dec(v)
        local b = id:bytes()
        assert.are.equal(8, #b)
        assert.are.equal(helper.u64_bytes(v), b)
        assert.is_true(s:from_bytes(b) == id)
      end
    end)

    it("returns nil and a message on a wrong length", function ()
      helper.assert_bytes_rejected(s, { "", "\1", string.rep("\0", 7),
                                        string.rep("\0", 9),
                                        string.rep("\0", 16) })
    end)

    it("raises when the bytes are not a string", function ()
      helper.assert_from_bytes_needs_string(s)
    end)
  end)

  describe("generator()", function ()
    it("takes generator 0..16383", function ()
      for _, n in ipairs({ 0, 1, 16383 }) do
        local g = s:generator({ generator = n })
        assert.are.equal(n, g:next():fields().generator)
      end
      -- not given: a slot no other live generator of this host holds
      local g = s:generator()
      assert.are.equal((g:slot()), g:next():fields().generator)
      g:close()
    end)

    it("raises on a generator id out of range, naming the option",
       function ()
      for _, n in ipairs({ 16384, -1, helper.MAXINT }) do
        assert.error_matches(function () s:generator({ generator = n }) end,
                             "generator", 1, true)
      end
      assert.has_error(function () s:generator({ generator = 1.5 }) end)
      assert.has_error(function () s:generator({ generator = "1" }) end)
    end)

    it("raises on an unknown option, naming it", function ()
      assert.error_matches(function () s:generator({ bogus = 1 }) end,
                           "bogus", 1, true)
      assert.error_matches(function () s:generator({ worker = 1 }) end,
                           "worker", 1, true)
    end)

    it("takes the policies hold and error", function ()
      for _, p in ipairs({ "hold", "error" }) do
        assert.is_not_nil(s:generator({ policy = p }):next())
      end
    end)

    it("raises on another policy, naming the option", function ()
      for _, p in ipairs({ "nope", "", 1, true }) do
        assert.error_matches(function () s:generator({ policy = p }) end,
                             "policy", 1, true)
      end
    end)

    it("raises when options is not a table", function ()
      assert.has_error(function () s:generator("hold") end)
    end)

    it("counts ms since 2025-01-01 UTC by default", function ()
      local ts = s:generator():next():fields().timestamp
      helper.assert_near(ts, os.time() * 1000 - 1735689600000, 3000)
    end)

    it("counts ms since epoch_ms", function ()
      local epoch = os.time() * 1000 - 5000
      local ts = s:generator({ epoch_ms = epoch }):next():fields().timestamp
      assert.is_true(ts >= 2000 and ts <= 8000, "timestamp " .. ts)
    end)

    it("counts from start_timestamp (Flux's mode)", function ()
      local ts = s:generator({ start_timestamp = 123456789 }):next()
                  :fields().timestamp
      assert.is_true(ts >= 123456789 and ts < 123456789 + 3000,
                     "timestamp " .. ts)
    end)
  end)

  describe("next()", function ()
    it("gives strictly increasing ids over 100,000 calls", function ()
      local last, bad = helper.take_increasing(
        s:generator({ generator = 77 }), helper.scaled(100000, 2000))
      assert.is_nil(bad)
      assert.are.equal(77, last:fields().generator)
    end)

    it("counts the sequence from 0 in each millisecond, up to 1023",
       function ()
      helper.assert_sequence_counts(s:generator(),
                                    helper.scaled(50000, 5000), 1023)
    end)
  end)

  describe("next_string()", function ()
    it("gives the default encoding, which decodes back", function ()
      local g = s:generator({ generator = 5 })
      local prev
      for _ = 1, 1000 do
        local text = g:next_string()
        assert.are.equal("string", type(text))
        assert.are.equal("\xc6\x92", text:sub(1, 2))
        local id = assert(s:decode(text))
        assert.are.equal(text, tostring(id))
        assert.are.equal(5, id:fields().generator)
        if prev then assert.is_true(prev < id) end
        prev = id
      end
    end)

    it("gives a named encoding, which decodes back", function ()
      local g = s:generator()
      helper.assert_next_strings(s, g, s.encodings)
      local text = g:next_string("dec")
      assert.is_truthy(text:match("^%d+$"))
      assert.are.equal(text, s:decode(text):encode("dec"))
    end)

    it("raises on an unknown encoding, naming it", function ()
      assert.error_matches(function () s:generator():next_string("nope") end,
                           "nope", 1, true)
    end)
  end)

  describe("ids", function ()
    it("print in the default encoding", function ()
      local id = dec("6731191091817518")
      assert.are.equal("ƒuZZybuNNy", tostring(id))
      assert.are.equal(tostring(id), id:encode())
      assert.are.equal(tostring(id), id:encode("f58"))
    end)

    it("encode in every encoding", function ()
      local id = dec("6731191091817518")
      assert.are.equal("6731191091817518", id:encode("dec"))
      assert.are.equal("0x17e9fb8df16c2e", id:encode("hex"))
      assert.are.equal("0017.e9fb.8df1.6c2e", id:encode("dothex"))
      assert.are.equal("reform-remote-galileo--heart-package-academy",
                       id:encode("words"))
      assert.are.equal("fuZZybuNNy", id:encode("f58_plain"))
    end)

    it("raise on an unknown encoding, naming it", function ()
      assert.error_matches(function () dec("1"):encode("nope") end, "nope",
                           1, true)
    end)

    it("are equal when their values are", function ()
      local a = dec("6731191091817518")
      local b = compose(401210253, 15451, 46)
      local c = assert(s:decode("reform-remote-galileo--heart-package-academy"))
      assert.is_false(rawequal(a, b))
      assert.is_true(a == b)
      assert.is_true(b == c)
      assert.is_false(a ~= b)
      assert.is_false(a == dec("6731191091817519"))
      assert.is_false(a == 6731191091817518)
      assert.is_false(a == "ƒuZZybuNNy")
    end)

    it("order by value with < and <=", function ()
      local a, b = dec("1"), dec("2")
      assert.is_true(a < b)
      assert.is_false(b < a)
      assert.is_false(a < dec("1"))
      assert.is_true(a <= b)
      assert.is_true(a <= dec("1"))
      assert.is_false(b <= a)
      assert.is_true(b > a)
      assert.is_true(b >= a)
    end)

    it("order as unsigned 64-bit values", function ()
      local values = { "0", "1", "9223372036854775807", "9223372036854775808",
                       "18446744073709551614", MAX }
      for i = 1, #values - 1 do
        local lo, hi = dec(values[i]), dec(values[i + 1])
        assert.is_true(lo < hi, values[i] .. " < " .. values[i + 1])
        assert.is_false(hi < lo)
        assert.is_true(lo <= hi)
        assert.is_false(hi <= lo)
      end
    end)

    it("raise when ordered against a non-id", function ()
      assert.has_error(function () return dec("1") < 2 end)
      assert.has_error(function () return dec("1") <= "2" end)
    end)

    it("sort with table.sort", function ()
      local t = { dec("3"), dec(MAX), dec("0"), dec("9223372036854775808") }
      table.sort(t)
      local got = {}
      for i, id in ipairs(t) do got[i] = id:encode("dec") end
      assert.are.same({ "0", "3", "9223372036854775808", MAX }, got)
    end)

    it("give their fields", function ()
      assert.are.same({ timestamp = 401210253, generator = 15451,
                        sequence = 46 }, dec("6731191091817518"):fields())
      assert.are.same({ timestamp = helper.pow2(40) - 1, generator = 16383,
                        sequence = 1023 }, dec(MAX):fields())
    end)

    it("give their integer", function ()
      local id = dec("6731191091817518")
      assert.are.equal(6731191091817518, id:integer())
      if helper.INT64 then
        assert.are.equal("integer", math.type(id:integer()))
      else                             -- below 2^53: an exact double
        assert.are.equal("number", type(id:integer()))
        assert.is_true(helper.is_integer(id:integer()))
      end
    end)

    it("wrap their integer at and above 2^63, as string.unpack does "
       .. "(Lua 5.4), or refuse it from 2^53 on (LuaJIT)", function ()
      local big = { "9223372036854775807", "9223372036854775808",
                    "12345678901234567890", MAX }
      if helper.INT64 then
        for _, v in ipairs(big) do
          local id = dec(v)
          local wrapped = string.unpack("<I8", id:bytes():reverse())
          assert.are.equal(wrapped, id:integer())
          assert.are.equal(helper.u64(v), id:integer())
        end
        assert.are.equal(-1, dec(MAX):integer())
        assert.are.equal(math.mininteger,
                         dec("9223372036854775808"):integer())
        assert.is_true(math.ult(dec("1"):integer(), dec(MAX):integer()))
        assert.are.equal(9007199254740993, dec("9007199254740993"):integer())
      else
        -- numbers are doubles: raise rather than lose precision
        big[#big + 1] = "9007199254740993"          -- 2^53 + 1
        for _, v in ipairs(big) do
          assert.error_matches(function () return dec(v):integer() end,
                               "precision", 1, true, v)
        end
        assert.are.equal(9007199254740991, dec("9007199254740991"):integer())
      end
    end)

    it("know their scheme", function ()
      assert.are.equal(s, dec("1"):scheme())
      assert.is_true(rawequal(s, dec("1"):scheme()))
      assert.is_true(rawequal(s, s:generator():next():scheme()))
    end)

    it("raise when a method gets something else as self", function ()
      local id = dec("1")
      assert.has_error(function () id.encode({}) end)
      assert.has_error(function () id.fields(s) end)
      assert.has_error(function () s.decode(id, "1") end)
    end)
  end)
end)
