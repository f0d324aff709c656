-- An ID's time (id:time(): Unix ms and the ns past it) and the time
-- field's unit and epoch in s.fields, in Lua 5.4 and LuaJIT (issue 25).
local idscheme = require("idscheme")

local function field (s, name)
  for _, f in ipairs(s.fields) do
    if f.name == name then return f end
  end
end

describe("id:time()", function ()
  -- RFC 9562's examples: 2022-02-22T19:22:22Z, Unix ms 1645557742000
  local RFC = {
    uuidv1 = "c232ab00-9414-11ec-b3c8-9f6bdeced846",
    uuidv6 = "1ec9414c-232a-6b00-b3c8-9f6bdeced846",
    uuidv7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
  }
  for name, text in pairs(RFC) do
    it("gives RFC 9562's time of its " .. name .. " example", function ()
      local ms, ns = assert(idscheme.scheme(name):decode(text)):time()
      assert.are.equal(1645557742000, ms)
      assert.are.equal(0, ns)
      assert.are.equal(ms, idscheme.inspect(text)[1].time_ms)
    end)
  end

  it("keeps a finer unit than ms: 100 ns ticks of a UUIDv1", function ()
    local s = idscheme.scheme("uuidv1")
    local f = assert(s:decode(RFC.uuidv1)):fields()
    -- 1.2345 ms later: past 2^53, an integer in Lua 5.4 and a decimal
    -- string under LuaJIT (whose numbers would round it)
    assert.are.equal("138648505420000000", tostring(f.timestamp))
    f.timestamp = math.tointeger and math.tointeger("138648505420012345")
                  or "138648505420012345"
    local ms, ns = assert(s:compose(f)):time()
    assert.are.equal(1645557742001, ms)
    assert.are.equal(234500, ns)
  end)

  it("is the generator's clock for a new ID", function ()
    -- (schemes without a node slot: a slot's earlier holders may have run
    -- ahead of the clock, and a new holder starts past them)
    for _, name in ipairs{ "ulid", "uuidv7", "uuidv6", "objectid", "ksuid" } do
      local before = os.time() * 1000
      local ms = idscheme.scheme(name):generator():next():time()
      assert.is_true(ms >= before - 1000 and ms <= before + 2000,
                     name .. ": " .. tostring(ms))
    end
  end)

  it("lies before 1970 where the epoch does (UUIDv1's 1582)", function ()
    local s = idscheme.scheme("uuidv1")
    local ms, ns = s:compose{ timestamp = 0, version = 1, clock_seq = 0,
                              variant = 2, node = 0 }:time()
    assert.are.equal(-12219292800000, ms)
    assert.are.equal(0, ns)
    ms, ns = s:compose{ timestamp = 1, version = 1, clock_seq = 0,
                        variant = 2, node = 0 }:time()
    assert.are.equal(-12219292800000, ms)   -- floored: 100 ns past it
    assert.are.equal(100, ns)
  end)

  it("is nothing for an ID without time", function ()
    local v4 = idscheme.scheme("uuidv4"):generator():next()
    assert.are.equal(0, select("#", v4:time()))
    local t = assert(idscheme.scheme("typeid"):decode("00000000000000000000000000"))
    assert.is_nil(t:time())                 -- a TypeID of another version
  end)
end)

describe("s.fields: the time field's unit and epoch", function ()
  it("are what define takes", function ()
    local f = field(idscheme.scheme("snowflake"), "timestamp")
    assert.are.equal("ms", f.unit)
    assert.are.equal(1420070400000, f.epoch)
    f = field(idscheme.scheme("uuidv1"), "timestamp")
    assert.are.equal("1/10000000 s", f.unit)
    assert.are.equal(-12219292800000, f.epoch)
    f = field(idscheme.scheme("sonyflake"), "timestamp")
    assert.are.equal("10ms", f.unit)
    assert.is_nil(field(idscheme.scheme("ulid"), "random").unit)
  end)

  it("give back the same time when a scheme is defined from them", function ()
    local src = idscheme.scheme("uuidv1")
    local f = field(src, "timestamp")
    local s = idscheme.define{ name = "time_spec_100ns", fields = {
      { name = "t", kind = "time", bits = 60, unit = f.unit, epoch = f.epoch },
      { name = "r", kind = "random", bits = 4 } } }
    local ms, ns = s:compose{ t = 12345, r = 0 }:time()
    assert.are.equal(-12219292800000 + 1, ms)
    assert.are.equal(234500, ns)
    assert.are.equal(f.unit, s.fields[1].unit)
  end)
end)

-- issue 40: an ID for a given time
describe("g:next_at(unix_ms)", function ()
  it("makes IDs of that time that never repeat, random layouts", function ()
    for _, name in ipairs{ "ulid", "uuidv7", "timeflake" } do
      local g = idscheme.scheme(name):generator()
      local seen, at = {}, 1483228800123            -- 2017-01-01
      for _ = 1, 2000 do
        local id = g:next_at(at)
        assert.are.equal(at, (id:time()))
        local t = id:encode()
        assert.is_nil(seen[t])
        seen[t] = true
      end
      local now = g:next()                           -- untouched
      assert.is_true(now:time() > at)
    end
  end)

  it("counts a sequence of its own for past times, given in order", function ()
    local g = idscheme.scheme("twitter"):generator{ worker = 5 }
    local past = g:next():time() - 3600000
    local a, b = g:next_at(past), g:next_at(past)
    assert.are.equal(past, (b:time()))
    assert.is_true(a < b)
    assert.are.equal(1, b:fields().sequence)
    assert.error_matches(function () g:next_at(past - 1) end,
                         "must not go back")
    assert.error_matches(function () g:next_at(past + 7200000) end,
                         "not before the generator was made")
    assert.error_matches(function () g:next_at("soon") end, "integer expected")
  end)
end)
