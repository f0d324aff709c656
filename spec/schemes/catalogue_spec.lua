-- The catalogue's schemes beyond the plain layouts (issue 24): UUID
-- versions 1 and 6, whose time is split around the version (a field in
-- parts, which define can say).  Each is read from its document's own
-- example, round-trips through every encoding, refuses another version's
-- text with a message, and is named by inspect with its time.

local helper = require "spec.helper"
local idscheme = require "idscheme"

-- RFC 9562 Appendix A.1 and A.5: one instant, 2022-02-22T19:22:22Z
-- (Tuesday, February 22, 2022 2:22:22.00 PM GMT-05:00), clock sequence
-- 0x33C8, node 0x9F6BDECED846, as version 1 and as version 6.
local RFC = {
  uuidv1 = "C232AB00-9414-11EC-B3C8-9F6BDECED846",
  uuidv6 = "1EC9414C-232A-6B00-B3C8-9F6BDECED846",
}
local RFC_TIME_MS = 1645557742000
-- 100 ns ticks from 1582-10-15 to that instant
local RFC_TICKS = "138648505420000000"

describe("catalogue: UUID versions 1 and 6", function ()
  for name, text in pairs(RFC) do
    local s = idscheme.scheme(name)

    it(name .. " reads RFC 9562's example", function ()
      local id = assert(s:decode(text))
      local f = id:fields()
      assert.are.equal(helper.field(RFC_TICKS), f.timestamp)
      assert.are.equal(0x33C8, f.clock_seq)     -- B3C8 less the variant
      assert.are.equal(helper.field_hex("9F6BDECED846"), f.node)
      assert.are.equal(text:lower(), id:encode())
      assert.is_true(s:compose(f) == id)
    end)

    it(name .. " is what inspect names it, at the RFC's time", function ()
      local r = idscheme.inspect(text)
      assert.are.equal(name, r[1].scheme)
      assert.is_false(r[1].ambiguous)
      assert.are.equal(RFC_TIME_MS, r[1].time_ms)
    end)

    it(name .. " round-trips every encoding of generated IDs", function ()
      local g = s:generator()
      for _ = 1, helper.scaled(200, 20) do
        local id = g:next()
        for _, enc in ipairs(s.encodings) do
          local t = id:encode(enc)
          assert.is_true(s:decode(t, enc) == id, name .. " " .. enc .. " " .. t)
        end
      end
    end)

    it(name .. " refuses the other version's text, saying why", function ()
      local other = RFC[name == "uuidv1" and "uuidv6" or "uuidv1"]
      local id, err = s:decode(other)
      assert.is_nil(id)
      assert.truthy(err:find("version must be " .. name:sub(-1), 1, true), err)
      assert.truthy(err:find(other, 1, true), err)
    end)
  end

  it("v1 splits its time low part first, so its IDs do not sort; v6 do",
     function ()
    assert.is_false(idscheme.scheme("uuidv1").ordered)
    assert.is_true(idscheme.scheme("uuidv6").ordered)
    assert.is_true(idscheme.scheme("uuidv7").ordered)
    assert.is_false(idscheme.scheme("uuidv4").ordered)
    local g = idscheme.scheme("uuidv6"):generator()
    local last = g:next()
    for _ = 1, helper.scaled(1000, 100) do
      local id = g:next()
      assert.is_true(last < id)
      last = id
    end
  end)

  it("v1 and v6 of one instant carry the same fields", function ()
    local a = idscheme.scheme("uuidv1"):decode(RFC.uuidv1):fields()
    local b = idscheme.scheme("uuidv6"):decode(RFC.uuidv6):fields()
    b.version = 1
    assert.are.same(a, b)
  end)

  it("a split field defined from Lua places its runs in order", function ()
    -- 4-bit tag, then a 20-bit time split 8 high / 12 low around it,
    -- and the same low first
    local hi = idscheme.define{ name = "split_hi_first", fields = {
      { name = "t", kind = "time", bits = 8, unit = "s" },
      { name = "tag", kind = "constant", bits = 4, value = 5 },
      { name = "t", bits = 24 },
      { name = "seq", kind = "sequence", bits = 12 } } }
    local lo = idscheme.define{ name = "split_low_first", fields = {
      { name = "t", kind = "time", bits = 24, unit = "s", order = "low first" },
      { name = "tag", kind = "constant", bits = 4, value = 5 },
      { name = "t", bits = 8 },
      { name = "seq", kind = "sequence", bits = 12 } } }
    -- t = 0xAB123456: high first writes AB, then 123456; low first 123456,
    -- then AB
    local x = { t = 0xAB123456, tag = 5, seq = 0x789 }
    assert.are.equal("ab5123456789", hi:compose(x):encode("hex"))
    assert.are.equal("1234565ab789", lo:compose(x):encode("hex"))
    assert.are.same(x, hi:decode("ab5123456789", "hex"):fields())
    assert.are.same(x, lo:decode("1234565ab789", "hex"):fields())
    assert.is_true(hi.ordered)
    assert.is_false(lo.ordered)
  end)
end)

describe("catalogue: ObjectId and xid", function ()
  -- bson's documented ObjectId and rs/xid's own example
  it("objectid reads 24 hex digits, xid 20 base32hex characters", function ()
    local o = idscheme.scheme("objectid")
    local id = assert(o:decode("507f1f77bcf86cd799439011"))
    local f = id:fields()
    assert.are.equal(0x507f1f77, f.timestamp)
    assert.are.equal(helper.field_hex("bcf86cd799"), f.random)
    assert.are.equal(0x439011, f.counter)
    local x = idscheme.scheme("xid")
    -- the same 12 bytes as an xid
    local same = x:from_bytes(id:bytes())
    assert.are.same(f, { timestamp = same:fields().timestamp,
                         random = same:fields().machine_pid,
                         counter = same:fields().counter })
    assert.is_true(x:decode(same:encode()) == same)
    assert.are.equal(20, #same:encode())
  end)

  for _, name in ipairs{ "objectid", "xid" } do
    -- (that the counter carries on into a new second, and a full second
    -- moves on, spec/c/test_torture.c shows on t_counter's 8-bit counter)
    it(name .. ": one generator keeps its random bytes, and its counter " ..
       "goes up by one from ID to ID", function ()
      local s = idscheme.scheme(name)
      local g = s:generator()
      local kept = s.fields[2].name
      local first = g:next():fields()
      local last = first
      for _ = 1, helper.scaled(5000, 300) do
        local f = g:next():fields()
        assert.are.equal(first[kept], f[kept])
        assert.are.equal((last.counter + 1) % 2^24, f.counter)
        assert.is_true(f.timestamp >= last.timestamp)
        last = f
      end
      -- another generator draws its own
      local other = s:generator():next():fields()
      assert.are_not.equal(first[kept], other[kept])
    end)

    it(name .. ": the kinds say so, and a define of them is the scheme",
       function ()
      local kinds = {}
      for _, f in ipairs(idscheme.scheme(name).fields) do
        kinds[#kinds + 1] = f.kind
      end
      assert.are.same({ "time", "instance", "counter" }, kinds)
      assert.is_false(idscheme.scheme(name).ordered)   -- the counter wraps
    end)
  end

  it("a counter of 64 bits cannot say when a tick is full", function ()
    local s = idscheme.define{ name = "counter64", fields = {
      { name = "t", kind = "time", bits = 32, unit = "s" },
      { name = "c", kind = "counter", bits = 64 } }, encodings = { "hex" } }
    local ok, err = pcall(s.generator, s)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("counter of 64 bits", 1, true), err)
  end)

  it("an instance field may lie above the time, a random one not", function ()
    assert.has_no.errors(function ()
      idscheme.define{ name = "instance_top", fields = {
        { name = "r", kind = "instance", bits = 16 },
        { name = "t", kind = "time", bits = 41 },
        { name = "s", kind = "sequence", bits = 7 } } }
    end)
    assert.has_error(function ()
      idscheme.define{ name = "random_top", fields = {
        { name = "r", kind = "random", bits = 16 },
        { name = "t", kind = "time", bits = 41 },
        { name = "s", kind = "sequence", bits = 7 } } }
    end)
  end)
end)

describe("catalogue: nanoid of other sizes", function ()
  it("is named by its characters alone, with no value and no time",
     function ()
    for _, text in ipairs{ "eeLB8VAyjq", "a8GL411pU0Lh9fCJ",
                           "SlMp3a_COGWOgN6mNUHzOSZZ3BMbLeFSqLQC" } do
      local r = assert(idscheme.inspect(text))
      assert.are.equal("nanoid", r[1].scheme)
      assert.are.equal(#text, r[1].length)
      assert.is_nil(r[1].id)
      assert.is_nil(r[1].time_ms)
      assert.is_false(r[1].ambiguous)
    end
    local r = assert(idscheme.inspect("V1StGXR8_Z5jdHi6B-myT"))  -- its own
    assert.is_nil(r[1].length)
    assert.truthy(r[1].id)
  end)

  it("a word of one case is no nanoid", function ()
    for _, text in ipairs{ "helloworld", "HELLO_WORLD" } do
      local r = idscheme.inspect(text)
      for _, c in ipairs(r or {}) do assert.is_nil(c.length, text) end
    end
  end)

  it("define refuses other lengths but for one random field", function ()
    local ok, err = pcall(idscheme.define, { name = "sized_timed",
      fields = { { name = "t", bits = 48, kind = "time" },
                 { name = "r", bits = 80, kind = "random" } },
      about = { lengths = { 10, 20 } } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("one random field alone", 1, true), err)
    ok, err = pcall(idscheme.define, { name = "sized_backwards",
      fields = { { name = "r", bits = 80, kind = "random" } },
      about = { lengths = { 20, 10 } } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("the first at most the second", 1,
                                     true), err)
    ok, err = pcall(idscheme.define, { name = "sized_bad",
      fields = { { name = "r", bits = 80, kind = "random" } },
      about = { lengths = { 10 } } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("about.lengths must be {min, max}", 1,
                                     true), err)
  end)
end)

describe("catalogue: TypeID", function ()
  local t = idscheme.scheme("typeid")
  -- TypeID spec v0.3.0, valid.yml "valid-uuidv7"
  local TEXT = "prefix_01h455vb4pex5vsknk084sn02q"
  local UUID = "01890a5d-ac96-774b-bcce-b302099a8057"

  it("reads a prefixed TypeID as the UUIDv7 it holds", function ()
    local id = assert(t:decode(TEXT))
    assert.are.equal(UUID, idscheme.scheme("uuidv7"):from_bytes(id:bytes())
                                                   :encode("uuid"))
    assert.are.equal("01h455vb4pex5vsknk084sn02q", id:encode())  -- no prefix
    local r = idscheme.inspect(TEXT)
    assert.are.equal("typeid", r[1].scheme)
    assert.are.equal(1688096058518, r[1].time_ms)
  end)

  it("a scheme of one type writes and reads its prefix alone", function ()
    local user = idscheme.define{ name = "user_id", fields = {
      { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
      { name = "version", bits = 4, kind = "constant", value = 7 },
      { name = "sequence", bits = 12, kind = "sequence" },
      { name = "variant", bits = 2, kind = "constant", value = 2 },
      { name = "random", bits = 62, kind = "random" } },
      encodings = { "typeid:user" } }
    local id = user:generator():next()
    local text = id:encode()
    assert.truthy(text:match("^user_[0-7][0-9a-hjkmnp-tv-z]+$"), text)
    assert.are.equal(31, #text)
    assert.is_true(user:decode(text) == id)
    local none, err = user:decode(TEXT)
    assert.is_nil(none)
    assert.truthy(err:find("the prefix must be 'user'", 1, true), err)
  end)

  -- TypeID spec v0.3.0 valid.yml (and typeid-js's README): a TypeID may
  -- hold any UUID; only a UUIDv7's has a time
  local any = {
    { "00000000000000000000000000", "00000000-0000-0000-0000-000000000000" },
    { "7zzzzzzzzzzzzzzzzzzzzzzzzz", "ffffffff-ffff-ffff-ffff-ffffffffffff" },
    { "prefix_0123456789abcdefghjkmnpqrs",
      "0110c853-1d09-52d8-d73e-1194e95b5f19" },
    { "pre_fix_00000000000000000000000000",
      "00000000-0000-0000-0000-000000000000" },
    { "prefix_00041061050r3gg28a1c60t3gf",
      "00010203-0405-0607-0809-0a0b0c0d0e0f" },
  }
  for _, case in ipairs(any) do
    it("reads " .. case[1] .. " (another UUID version) with no time",
       function ()
      local id = assert(t:decode(case[1]))
      local hex = ("%02x"):rep(16):format(id:bytes():byte(1, 16))
      assert.are.equal((case[2]:gsub("-", "")), hex)
      local r = idscheme.inspect(case[1])
      assert.are.equal("typeid", r[1].scheme)
      assert.is_nil(r[1].time_ms)
      assert.is_falsy(r.ambiguous)
    end)
  end

  it("writes version 7 and variant 2, and composes any", function ()
    local f = t:generator():next():fields()
    assert.are.equal(7, f.version)
    assert.are.equal(2, f.variant)
    assert.are.equal("version", t.fields[2].kind)
    local nil_id = assert(t:compose{ timestamp = 0, version = 0, sequence = 0,
                                     variant = 0, random = 0 })
    assert.are.equal("00000000000000000000000000", nil_id:encode())
  end)

  it("a lower-case ULID is still a ULID, not a TypeID of no version",
     function ()
    local r = idscheme.inspect("01arz3ndektsv4rrffq69g5fav")
    assert.are.equal("ulid", r[1].scheme)
    assert.is_falsy(r.ambiguous)
  end)

  local bad = {
    { "User_01h455vb4pex5vsknk084sn02q", "not a TypeID prefix" },
    { "_01h455vb4pex5vsknk084sn02q", "not a TypeID prefix" },
    { "user__01h455vb4pex5vsknk084sn02q", "not a TypeID prefix" },
    { ("a"):rep(64) .. "_01h455vb4pex5vsknk084sn02q", "not a TypeID prefix" },
    { "prefix_81h455vb4pex5vsknk084sn02q", "first digit is 0..7" },
    { "prefix_01H455VB4PEX5VSKNK084SN02Q", "is not a digit" },
    { "prefix_01h455vb4pex5vsknk084sn02", "digits" },
  }
  for _, case in ipairs(bad) do
    it("refuses " .. case[1] .. ", saying why", function ()
      local id, err = t:decode(case[1])
      assert.is_nil(id)
      assert.truthy(err:find(case[2], 1, true), err)
    end)
  end

  it("is an encoding of 128-bit layouts only (26 digits, 0..7 first)",
     function ()
    local ok, err = pcall(idscheme.define, { name = "typeid70",
      fields = { { name = "t", bits = 48, kind = "time" },
                 { name = "r", bits = 22, kind = "random" } },
      encodings = { "typeid" } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("needs a 128-bit layout", 1, true), err)
  end)

  it("refuses a prefix the spec does not allow when made", function ()
    assert.has_error(function ()
      idscheme.define{ name = "bad_typeid", fields = {
        { name = "t", bits = 48, kind = "time" },
        { name = "r", bits = 80, kind = "random" } },
        encodings = { "typeid:User" } }
    end, nil)
    local ok, err = pcall(idscheme.define, { name = "bad_typeid2",
      fields = { { name = "t", bits = 48, kind = "time" },
                 { name = "r", bits = 80, kind = "random" } },
      encodings = { "typeid:a_" } })
    assert.is_false(ok)
    assert.truthy(tostring(err):find("TypeID prefix", 1, true), err)
  end)
end)

describe("catalogue: UUID versions 3 and 5", function ()
  -- RFC 9562 Appendix A.2 and A.4 (DNS namespace, "www.example.com")
  for name, text in pairs{ uuidv3 = "5df41881-3aed-3515-88a7-2f4a814cf09e",
                           uuidv5 = "2ed6657d-e927-568b-95e1-2665a8aea6a2" } do
    it(name .. " reads the RFC's example, is named by inspect, and makes no "
       .. "generator", function ()
      local s = idscheme.scheme(name)
      local id = assert(s:decode(text))
      assert.are.equal(text, id:encode())
      assert.is_true(s:compose(id:fields()) == id)
      local r = idscheme.inspect(text)
      assert.are.equal(name, r[1].scheme)
      assert.is_nil(r[1].time_ms)
      local ok, err = pcall(s.generator, s)
      assert.is_false(ok)
      assert.truthy(tostring(err):find("hashes of names", 1, true), err)
    end)
  end
end)

