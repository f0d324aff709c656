-- 64-bit integers (issue 25): id:int64() and s:from_integer(x), and, under
-- LuaJIT, int64_t/uint64_t cdata as lua-resty-mysql gives a BIGINT (a
-- Snowflake is past the 53 bits of LuaJIT's numbers).
local idscheme = require("idscheme")
local ffi = rawget(_G, "jit") and require("ffi")

describe("id:int64() and s:from_integer()", function ()
  local s = idscheme.scheme("snowflake")

  it("give a Snowflake past 2^53 exactly, both ways", function ()
    local g = s:generator()
    for _ = 1, 100 do
      local id = g:next()
      local dec = id:encode("dec")
      local v = id:int64()
      if ffi then
        assert.is_true(ffi.istype("uint64_t", v))
        assert.are.equal(dec .. "ULL", tostring(v))
      else
        assert.are.equal(math.tointeger(dec), v)
        assert.are.equal(id:integer(), v)
      end
      assert.is_true(tonumber(dec) > 2 ^ 53)
      assert.is_true(s:from_integer(v) == id)
      assert.is_true(s:from_integer(dec) == id)       -- a decimal string
    end
    g:close()
  end)

  it("compose takes a 64-bit integer where a field is one", function ()
    local big = "2199023255551"                         -- 2^41 - 1
    local v = ffi and ffi.new("int64_t", 2199023255551) or math.tointeger(big)
    local id = s:compose{ timestamp = v, worker = 1, shard = 2, sequence = 3 }
    assert.are.equal(big, tostring(id:fields().timestamp))
    local fields = setmetatable({ worker = 1, shard = 2 },
                                { __index = { sequence = 3, timestamp = v } })
    assert.is_true(s:compose(fields) == id)             -- through __index too
  end)

  it("refuses what no ID is, saying why", function ()
    local sony = idscheme.scheme("sonyflake")            -- a top bit held 0
    local id, err = sony:from_integer("18446744073709551615")
    assert.is_nil(id)
    assert.truthy(err:find("unused must be 0", 1, true), err)
    local ok, e = pcall(s.from_integer, s, "12x")
    assert.is_false(ok)
    assert.truthy(e:find("'12x' is not a decimal integer of 64 bits", 1, true), e)
    ok, e = pcall(s.from_integer, s, {})
    assert.is_false(ok)
    assert.truthy(e:find("an integer or a decimal string expected, got", 1, true), e)
    local u = idscheme.scheme("ulid")
    ok, e = pcall(u.from_integer, u, 1)
    assert.is_false(ok)
    assert.truthy(e:find("ulid ids are 128 bits: no integer holds them", 1, true), e)
    ok, e = pcall(function () return u:generator():next():int64() end)
    assert.is_false(ok)
    assert.truthy(e:find("ulid ids are 128 bits: no integer holds them", 1, true), e)
    if ffi then
      ok, e = pcall(s.compose, s, { timestamp = ffi.new("int64_t", -1),
                                    worker = 1, shard = 2, sequence = 3 })
      assert.is_false(ok)
      assert.truthy(e:find("negative", 1, true), e)
    end
  end)
end)
