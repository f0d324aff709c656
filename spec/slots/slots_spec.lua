-- slots_spec.lua: generators that take their node values from slots
-- (the local store here; spec/slots/ runs redis and etcd).
local idscheme = require "idscheme"
local helper = require "spec.helper"

describe("generator slots", function ()
  local dir = helper.tmpdir()
  local url = "local:" .. dir
  teardown(function () helper.rmtree(dir) end)

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

  it("leases the shard alone within the whole node space", function ()
    local snow = idscheme.scheme("snowflake")
    local ns = "halfsnow" .. os.time()
    local a = snow:generator{ slots = url, slot_namespace = ns, worker = 3 }
    assert.are.equal(96, (a:slot()))             -- worker 3, shard 0
    local f = a:next():fields()
    assert.are.equal(3, f.worker)
    assert.are.equal(0, f.shard)
    local b = snow:generator{ slots = url, slot_namespace = ns }
    assert.are.equal(0, (b:slot()))
    a:close()
    b:close()
  end)

  it("refuses a lease asked for beside a node given whole", function ()
    assert.error_matches(function ()
      idscheme.scheme("fluid"):generator{ generator = 7, slots = url }
    end, "asks for a lease, but every node field is given")
    -- a scheme with no node field leases nothing, whatever the store
    local g = idscheme.scheme("uuidv7"):generator{ slots = url }
    assert.is_nil(g:slot())
    assert.is_string(g:next_string())
  end)

  it("bounds a wait by max_wait_ms, naming it", function ()
    local fluid = idscheme.scheme("fluid")
    assert.error_matches(function ()
      fluid:generator{ max_wait_ms = -1 }
    end, "max_wait_ms")
    -- a new slot file's first holder may issue from 2 s on: with
    -- max_wait_ms = 0 the first next raises rather than wait
    local d = helper.tmpdir()
    local g = fluid:generator{ slots = "local:" .. d, max_wait_ms = 0 }
    local ok, err = pcall(g.next, g)
    assert.is_false(ok)
    assert.matches("would pass max_wait_ms (0)", err, 1, true)
    g:close()
    helper.rmtree(d)
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

describe("the lease from Lua (slot_ttl_ms, slot_timeout_ms, slot_log, g:lease)", function ()
  local dir = helper.tmpdir()
  local url = "local:" .. dir
  local fluid = idscheme.scheme("fluid")
  teardown(function () helper.rmtree(dir) end)

  it("tunes the lease and shows its state", function ()
    local g = fluid:generator{ slots = url, slot_ttl_ms = 900,
                               slot_timeout_ms = 500 }
    g:next()
    local l = g:lease()
    assert.are.equal(0, l.slot)
    assert.are.equal("local", l.backend)
    assert.are.equal(url, l.store)
    assert.is_true(l.valid)
    assert.are.equal(900, l.ttl_ms)
    assert.are.equal(90, l.margin_ms)
    assert.is_true(l.renewals >= 1)
    assert.are.equal(0, l.losses)
    -- the limit is a renewal's time + ttl - margin, in Unix ms
    assert.is_true(l.limit_ms > l.last_renewal_ms)
    assert.is_true(l.limit_ms <= l.last_renewal_ms + 900)
    assert.are.same({}, l.log)
    g:close()
    assert.is_nil(g:lease())
    -- a generator given every node field holds no lease
    assert.is_nil(fluid:generator{ generator = 5 }:lease())
  end)

  it("keeps the lease's log lines for the caller (slot_log = 'keep')",
     function ()
    local g = fluid:generator{ slots = url, slot_ttl_ms = 900,
                               slot_log = "keep" }
    local n = g:slot()
    g:next()
    -- the slot file deleted while held: the renewal notices and says so
    assert(os.remove(string.format("%s/fluid.%05d", dir, n)))
    local l
    for _ = 1, 100 do
      l = g:lease()
      if l.losses > 0 then break end
      os.execute("sleep 0.05")
    end
    assert.are.equal(1, l.losses)
    assert.are.equal(1, #l.log)
    assert.matches("lost its name", l.log[1], 1, true)
    assert.are.same({}, g:lease().log)          -- read once
    g:close()
  end)

  it("says in g:lease().caution which slot it skipped, and why", function ()
    local d = helper.tmpdir()
    assert(os.execute("mkfifo '" .. d .. "/fluid.00000'"))
    local g = fluid:generator{ slots = "local:" .. d, slot_log = "keep" }
    assert.are.equal(1, (g:slot()))
    local l = g:lease()
    assert.matches("fluid.00000", l.caution, 1, true)
    assert.matches("not a regular file", l.caution, 1, true)
    g:close()
    helper.rmtree(d)
  end)

  it("refuses bad lease options, naming them", function ()
    for opt, bad in pairs{ slot_ttl_ms = 0, slot_timeout_ms = 600001,
                           slot_log = "syslog" } do
      local ok, err = pcall(fluid.generator, fluid, { [opt] = bad })
      assert.is_false(ok)
      assert.matches(opt, err, 1, true)
    end
  end)

  it("reserves every generator option's name in define", function ()
    for _, name in ipairs{ "slot_namespace", "slot_ttl_ms", "slot_log" } do
      local ok, err = pcall(idscheme.define, { name = "resv_" .. name,
        fields = { { name = name, bits = 8, kind = "node" },
                   { name = "t", bits = 40, kind = "time", unit = "ms" } } })
      assert.is_false(ok)
      assert.matches("reserved for a generator option", err, 1, true)
    end
  end)
end)
