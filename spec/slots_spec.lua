-- slots_spec.lua: generators that take their node values from slots
-- (the local store here; spec/slots/ runs redis and etcd).
local idscheme = require "idscheme"

local function tmpdir ()
  local p = os.tmpname()
  os.remove(p)
  assert(os.execute("mkdir -p '" .. p .. "'"))
  return p
end

describe("generator slots", function ()
  local dir = tmpdir()
  local url = "local:" .. dir
  teardown(function () os.execute("rm -rf '" .. dir .. "'") end)

  it("fills a node field no option gives, and says which slot", function ()
    local fluid = idscheme.scheme("fluid")
    local a = fluid:generator{ slots = url }
    local b = fluid:generator{ slots = url }
    local na, kind = a:slot()
    local nb = b:slot()
    assert.are.equal("local", kind)
    assert.are_not.equal(na, nb)
    assert.are.equal(na, a:next():fields().generator)
    assert.are.equal(nb, b:next():fields().generator)
    a:close()
    b:close()
  end)

  it("gives a released slot to the next generator", function ()
    local fluid = idscheme.scheme("fluid")
    local a = fluid:generator{ slots = url }
    local n = a:slot()
    a:close()
    local b = fluid:generator{ slots = url }
    assert.are.equal(n, (b:slot()))
    b:close()
  end)

  it("spreads one slot number over several node fields", function ()
    local snow = idscheme.scheme("snowflake")
    local gens, seen = {}, {}
    for i = 1, 40 do
      local g = snow:generator{ slots = url }
      local f = g:next():fields()
      local n = g:slot()
      assert.are.equal(n, f.worker * 32 + f.shard)
      assert.is_nil(seen[n])
      seen[n] = true
      gens[i] = g
    end
    for _, g in ipairs(gens) do g:close() end
  end)

  it("takes no slot when every node field is given", function ()
    local g = idscheme.scheme("fluid"):generator{ generator = 7 }
    assert.is_nil(g:slot())
    assert.are.equal(7, g:next():fields().generator)
  end)

  it("refuses a missing node field with slots = 'none'", function ()
    assert.error_matches(function ()
      idscheme.scheme("fluid"):generator{ slots = "none" }
    end, "generator")
  end)

  it("refuses a bad store, naming it", function ()
    assert.error_matches(function ()
      idscheme.scheme("fluid"):generator{ slots = "ftp://x" }
    end, "ftp://x", 1, true)
    assert.has_error(function ()
      idscheme.scheme("fluid"):generator{ slots = 5 }
    end)
  end)

  it("a closed generator raises and gives no ID", function ()
    local g = idscheme.scheme("fluid"):generator{ slots = url }
    g:close()
    assert.error_matches(function () g:next() end, "closed")
    assert.error_matches(function () g:next_string() end, "closed")
    g:close()                                  -- twice is harmless
  end)

  it("takes its own namespace", function ()
    local fluid = idscheme.scheme("fluid")
    local a = fluid:generator{ slots = url, slot_namespace = "ns-a" }
    local b = fluid:generator{ slots = url, slot_namespace = "ns-b" }
    assert.are.equal(0, (a:slot()))
    assert.are.equal(0, (b:slot()))
    a:close()
    b:close()
  end)
end)
