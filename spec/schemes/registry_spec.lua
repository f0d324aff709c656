-- registry_spec.lua: parameters normalized; the registry grows past 64.
local idscheme = require "idscheme"

describe("idscheme.scheme parameters", function ()
  it("a default written out is the same scheme", function ()
    local a = idscheme.scheme("snowflake")
    local b = idscheme.scheme("snowflake", { epoch_ms = 1420070400000 })
    local x, y = a:decode("1234567890123"), b:decode("1234567890123")
    assert.is_true(x == y)
    assert.is_false(x < y)
    local k = idscheme.scheme("kuid96")
    local k2 = idscheme.scheme("kuid96", { interval = 8, hash = "phash2" })
    local g = k:generator{ node = 7 }
    local id = g:next()
    local id2 = k2:decode(id:encode())
    assert.is_true(id == id2)
    assert.is_false(id < id2)
  end)
end)

describe("idscheme.scheme names", function ()
  it("takes the aliases the command takes", function ()
    assert.are.equal("snowflake", idscheme.scheme("discord").name)
    assert.are.equal("objectid", idscheme.scheme("mongo").name)
    local ok, err = pcall(idscheme.scheme, "uuid")
    assert.is_false(ok)
    assert.truthy(tostring(err):find("'uuid' names several schemes", 1, true),
                  err)
    ok, err = pcall(idscheme.scheme, "nosuch")
    assert.is_false(ok)
    assert.truthy(tostring(err):find("unknown scheme 'nosuch'", 1, true), err)
  end)
end)

describe("idscheme.define", function ()
  it("takes 500 schemes and shipped scripts still load", function ()
    for i = 1, 500 do
      idscheme.define{
        name = string.format("regspec%03d", i),
        fields = {
          { name = "t", kind = "time", bits = 48 },
          { name = "r", kind = "random", bits = 16 },
        },
        encodings = { "hex" },
      }
    end
    local u = idscheme.scheme("ulid")
    assert.is_truthy(u:generator():next())
    assert.is_truthy(idscheme.scheme("regspec500"))
    local listed = {}
    for _, n in ipairs(idscheme.list()) do listed[n] = true end
    for i = 1, 500 do
      assert.is_true(listed[string.format("regspec%03d", i)])
    end
    assert.is_true(listed.ulid and listed.fluid)
  end)
end)
