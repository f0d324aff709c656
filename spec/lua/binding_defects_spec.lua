-- Defects of the Lua binding (binding/idscheme.c, lua/idscheme/jit.lua): each
-- block is one reported defect, and its tests failed before the fix.
-- Plain Lua (the debug library only where a report used it): tables whose __index runs code stand
-- in for the hostile callers of the reports.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local JIT = rawget(_G, "jit") ~= nil

local serial = 0
local function fresh (base)             -- a scheme name not yet taken
  serial = serial + 1
  return ("bd%d_%s"):format(serial, base):sub(1, 31)
end

-- Frees what nothing refers to any more, then fills the freed memory with
-- other strings, so that a dangling pointer reads something else.
local function churn ()
  collectgarbage()
  collectgarbage()
  local t = {}
  for i = 1, 2000 do
    t[i] = ("Z"):rep(8 + i % 90) .. i
  end
  return t
end

-- A string built at run time: "@abc" gives "abc".  Short strings are
-- interned, so the content given must be nowhere else (no literal "abc"
-- in this file), or the string stays alive through that other reference.
local function dyn (s)
  return s:sub(2)
end

-- ---------------------------------------------------------------------
-- Encodings through the FFI path, first: jit.lua caches per scheme, so
-- this must run before anything else asks fluid for a named encoding.

describe("s.fields and s.encodings (item 14)", function ()
  it("are copies: changing them changes nothing the module uses",
     function ()
    local s = idscheme.scheme("fluid")
    local e = s.encodings
    e[1], e[3] = e[3], e[1]              -- f58 <-> hex
    assert.are.equal("f58", s.encodings[1])
    assert.are.equal("hex", s.encodings[3])
    local g = s:generator{ generator = 3 }
    local text = g:next_string("hex")
    assert.is_truthy(text:match("^0x%x+$"), "hex asked, got " .. text)
    assert.truthy(s:decode(text, "hex"))
    text = g:next_string("f58")
    assert.is_falsy(text:match("^0x%x+$"), "f58 asked, got " .. text)
    assert.truthy(s:decode(text, "f58"))
    -- fields: a copy too, nested tables included
    local f = s.fields
    f[1].name, f[2] = "changed", nil
    assert.are.equal("timestamp", s.fields[1].name)
    assert.is_table(s.fields[2])
    assert.are_not.equal(s.fields, s.fields)
    assert.is_truthy(s:compose{ timestamp = 1, generator = 2, sequence = 3 })
  end)
end)

-- ---------------------------------------------------------------------

describe("s:compose reads each field once (issue: wide field read twice)",
         function ()
  local ulid = idscheme.scheme("ulid")
  local RANDOM = "ABCDEFGHIJ"          -- 80 bits

  local function fickle (second)
    local n = 0
    return setmetatable({ timestamp = 1 }, { __index = function (_, k)
      if k ~= "random" then return nil end
      n = n + 1
      if n == 1 then return dyn("@" .. RANDOM) end
      return second
    end })
  end

  it("a value that changes to a 1-byte string", function ()
    local id = ulid:compose(fickle("x"))
    assert.are.equal(RANDOM, id:fields().random)
  end)

  it("a value that changes to nil", function ()
    local id = ulid:compose(fickle(nil))
    assert.are.equal(RANDOM, id:fields().random)
  end)

  it("a value that changes to a number", function ()
    local id = ulid:compose(fickle(5))
    assert.are.equal(RANDOM, id:fields().random)
  end)
end)

-- ---------------------------------------------------------------------

describe("strings handed to the core stay alive (define, generator)",
         function ()
  it("define: a name produced by __index, collected by a later lookup",
     function ()
    local name = "@" .. fresh("uaf_name")    -- dyn(name) lives nowhere
    local keep
    local spec = setmetatable({
      fields = { { name = "ts", bits = 41, kind = "time" } },
      encodings = { "dec" },
    }, { __index = function (_, k)
      if k == "name" then return dyn(name) end
      keep = churn()
      return nil
    end })
    local s = idscheme.define(spec)
    assert.are.equal(dyn(name), s.name)
    assert.are.equal(s, idscheme.scheme(dyn(name)))
    assert.is_table(keep)
  end)

  it("define: field names, kinds and units produced by __index", function ()
    local name = fresh("uaf_fields")
    local keep
    local function field (fname, kind, unit, bits)
      return setmetatable({ bits = bits }, { __index = function (_, k)
        if k == "name" then return dyn(fname) end
        if k == "kind" then return dyn(kind) end
        if k == "unit" then return unit and dyn(unit) end
        keep = churn()
        return nil
      end })
    end
    local s = idscheme.define{
      name = name,
      fields = { field("@a_long_time_field_label", "@time", "@1/512 s", 48),
                 field("@a_long_node_field_label", "@node", nil, 8),
                 field("@a_long_sequence_field", "@sequence", nil, 8) },
      encodings = { dyn("@hex"), dyn("@dec") },
    }
    local f = s.fields
    assert.are.equal(dyn("@a_long_time_field_label"), f[1].name)
    assert.are.equal("time", f[1].kind)
    assert.are.equal(dyn("@a_long_node_field_label"), f[2].name)
    assert.are.equal("node", f[2].kind)
    assert.are.equal(dyn("@a_long_sequence_field"), f[3].name)
    assert.are.equal("sequence", f[3].kind)
    assert.are.same({ "hex", "dec" }, s.encodings)
    -- the unit was read whole: 512 ticks a second
    local g = s:generator{ [dyn("@a_long_node_field_label")] = 1 }
    local t1 = g:next():fields()[dyn("@a_long_time_field_label")]
    assert.is_true(t1 > 512 * 1700000000 and t1 < 512 * 4000000000)
    assert.is_table(keep)
  end)

  it("define: an encodings table produced by __index", function ()
    local name = fresh("uaf_enc")
    local keep
    local spec = setmetatable({
      name = name,
      fields = { { name = "ts", bits = 41, kind = "time" } },
    }, { __index = function (_, k)
      if k == "encodings" then return { dyn("@hex"), dyn("@base58") } end
      keep = churn()                      -- any lookup after it
      return nil
    end })
    local s = idscheme.define(spec)
    assert.are.same({ "hex", "base58" }, s.encodings)
    assert.is_not_nil(keep)
  end)

  it("s:generator: domain_name removed and collected while reading policy",
     function ()
    local siq = idscheme.scheme("siq")
    local domain = "example-" .. ("x"):rep(60) .. ".com"
    local want = siq:generator{ domain_name = domain }:next():fields().domain
    local keep
    local opts = { domain_name = dyn("@" .. domain) }
    setmetatable(opts, { __index = function (t, k)
      rawset(t, "domain_name", nil)
      keep = churn()
      return nil
    end })
    -- (the binding may read options without __index: then it never runs)
    local g = siq:generator(opts)
    assert.are.equal(want, g:next():fields().domain)
    assert.is_nil(rawget(opts, "policy"), keep and "" or nil)
  end)

  it("s:compose: a name hashed into a field stays alive", function ()
    local siq = idscheme.scheme("siq")
    local domain = "example-" .. ("y"):rep(60) .. ".com"
    local base = { timestamp = 1, shard = 0, serial = 0,
                   qualifier = "content" }
    local t = {}
    for k, v in pairs(base) do t[k] = v end
    t.domain_name = domain
    local want = siq:compose(t):fields().domain
    local keep
    local p = setmetatable({}, { __index = function (_, k)
      if k == "domain_name" then return dyn("@" .. domain) end
      if base[k] ~= nil then keep = churn() end
      return base[k]
    end })
    assert.are.equal(want, siq:compose(p):fields().domain)
    assert.is_not_nil(keep)
  end)
end)

-- ---------------------------------------------------------------------

describe("floats with an integer value are integers (item 11)", function ()
  local fluid = idscheme.scheme("fluid")

  it("generator option, compose field", function ()
    local g = fluid:generator{ generator = 7.0 }
    assert.are.equal(7, g:next():fields().generator)
    local id = fluid:compose{ timestamp = 10.0, generator = 1.0,
                              sequence = 0.0 }
    assert.are.same({ timestamp = 10, generator = 1, sequence = 0 },
                    id:fields())
    local snow = idscheme.scheme("snowflake", { epoch_ms = 1420070400000.0 })
    assert.are.equal("snowflake", snow.name)
  end)

  it("define: epoch, bits, bytes, value", function ()
    local name = fresh("floats")
    local s = idscheme.define{
      name = name,
      fields = { { name = "ts", bits = 41.0, kind = "time",
                   epoch = 1600000000000.0 },
                 { name = "c", bits = 3.0, kind = "constant", value = 5.0 },
                 { name = "seq", bits = 20, kind = "sequence" } },
      encodings = { "dec" },
      bytes = 8.0,
    }
    assert.are.equal(8, s.bytes)
    assert.are.equal(5, s:generator():next():fields().c)
  end)

  local BAD = { 7.5, 0/0, 1/0, -1/0 }

  it("refuses 7.5, NaN and infinities, naming the argument", function ()
    for _, x in ipairs(BAD) do
      helper.assert_raises(function () fluid:generator{ generator = x } end,
                           "'generator'")
      helper.assert_raises(function ()
        fluid:compose{ timestamp = 1, generator = 1, sequence = x }
      end, "'sequence'")
      helper.assert_raises(function ()
        idscheme.define{ name = fresh("badfloat"), bytes = x,
                         fields = { { name = "ts", bits = 41, kind = "time" } },
                         encodings = { "dec" } }
      end, "'bytes'")
      helper.assert_raises(function ()
        idscheme.define{ name = fresh("badfloat"), encodings = { "dec" },
                         fields = { { name = "ts", bits = 41, kind = "time",
                                      epoch = x } } }
      end, "'epoch'")
      helper.assert_raises(function ()
        idscheme.scheme("snowflake", { epoch_ms = x })
      end, "'epoch_ms'")
    end
  end)
end)

-- ---------------------------------------------------------------------

describe("id == other (item 12)", function ()
  local fluid = idscheme.scheme("fluid")
  local id = fluid:compose{ timestamp = 1, generator = 2, sequence = 3 }

  it("is false, not an error, when other is not an id", function ()
    assert.is_false(id == fluid)
    assert.is_false(fluid == id)
    assert.is_false(id == io.stdout)
    assert.is_false(io.stdout == id)
    assert.is_false(id == fluid:generator{ generator = 1 })
    assert.is_true(id ~= fluid)
  end)

  it("still compares ids", function ()
    assert.is_true(id == fluid:compose{ timestamp = 1, generator = 2,
                                        sequence = 3 })
    assert.is_false(id == fluid:compose{ timestamp = 1, generator = 2,
                                         sequence = 4 })
  end)
end)

-- ---------------------------------------------------------------------

describe("the 2^53 boundary (item 15)", function ()
  it("id:integer() gives exactly 2^53", function ()
    local snow = idscheme.scheme("snowflake")
    local id = assert(snow:decode(helper.TWO53, "dec"))
    assert.are.equal(2^53, id:integer())
    local above = assert(snow:decode("9007199254740993", "dec"))
    if helper.INT64 then
      assert.are.equal(9007199254740993, above:integer())
    else
      helper.assert_raises(function () above:integer() end, "precision")
    end
  end)

  it("fields() gives 2^53 as a number", function ()
    local s = idscheme.define{
      name = fresh("big53"),
      fields = { { name = "ts", bits = 4, kind = "constant", value = 0 },
                 { name = "big", bits = 60, kind = "random" } },
      encodings = { "dec" },
    }
    local id = s:compose{ big = 2^53 }
    assert.are.equal(2^53, id:fields().big)
    assert.are.equal("number", type(id:fields().big))
    id = s:compose{ big = helper.INT64 and 9007199254740993
                                      or "9007199254740993" }
    if helper.INT64 then
      assert.are.equal(9007199254740993, id:fields().big)
    else
      assert.are.equal("9007199254740993", id:fields().big)
    end
  end)
end)

-- ---------------------------------------------------------------------

describe("embedded NULs are refused (issue 16 item 4)", function ()
  local fluid = idscheme.scheme("fluid")

  local function T ()
    return { name = "ts", bits = 41, kind = "time" }
  end

  it("scheme name", function ()
    helper.assert_raises(function () idscheme.scheme("fluid\0junk") end,
                         "NUL")
    helper.assert_raises(function () idscheme.scheme("fluid\0junk") end,
                         "#1")
  end)

  it("option keys and policy", function ()
    helper.assert_raises(function ()
      fluid:generator{ ["generator\0x"] = 5 }
    end, "generator\\0x")
    helper.assert_raises(function ()
      fluid:generator{ generator = 1, policy = "hold\0x" }
    end, "policy")
    helper.assert_raises(function ()
      idscheme.scheme("snowflake", { ["epoch_ms\0"] = 5 })
    end, "epoch_ms\\0")
  end)

  it("compose keys", function ()
    helper.assert_raises(function ()
      fluid:compose{ timestamp = 1, generator = 1, sequence = 1,
                     ["timestamp\0zzz"] = 5 }
    end, "timestamp\\0zzz")
  end)

  it("qualifier and encoding names", function ()
    local siq = idscheme.scheme("siq")
    local g = siq:generator{ domain = 1 }
    helper.assert_raises(function () g:next("content\0x") end, "qualifier")
    helper.assert_raises(function ()
      siq:generator{ domain = 1, qualifier = "content\0x" }
    end, "qualifier")
    local fg = fluid:generator{ generator = 1 }
    helper.assert_raises(function () fg:next_string("hex\0x") end,
                         "encoding")
    helper.assert_raises(function () fg:next():encode("hex\0x") end,
                         "encoding")
  end)

  it("define: the scheme name", function ()
    local name = fresh("ab")
    helper.assert_raises(function ()
      idscheme.define{ name = name .. "\0cd", fields = { T() },
                       encodings = { "dec" } }
    end, "NUL")
    assert.is_false(pcall(idscheme.scheme, name))
  end)

  it("define: field names, kinds, units, encodings", function ()
    local cases = {
      { { name = "ts\0x", bits = 41, kind = "time" }, { "dec" }, "name" },
      { { name = "ts", bits = 41, kind = "time\0x" }, { "dec" }, "kind" },
      { { name = "ts", bits = 41, kind = "time", unit = "ms\0x" }, { "dec" },
        "unit" },
      { T(), { "dec\0x" }, "encodings" },
      { T(), { "dec", "hex\0x" }, "encodings" },
    }
    for _, c in ipairs(cases) do
      local name = fresh("nul")
      helper.assert_raises(function ()
        idscheme.define{ name = name, fields = { c[1] }, encodings = c[2] }
      end, c[3])
      helper.assert_raises(function ()
        idscheme.define{ name = name, fields = { c[1] }, encodings = c[2] }
      end, "NUL")
      assert.is_false(pcall(idscheme.scheme, name))
    end
    local name = fresh("nul")
    helper.assert_raises(function ()
      idscheme.define{ name = name, fields = { T() },
                       encodings = { "dec", "hex" },
                       default_encoding = "hex\0x" }
    end, "default_encoding")
  end)
end)

-- ---------------------------------------------------------------------

describe("the FFI path's error messages (issue 16 item 5)", function ()
  it("are whole, as the C path gives them", function ()
    -- a 41-bit field of ns spans 36.6 minutes: an epoch that puts its
    -- end 0.5..1.5 s from now, then a wait past it, gives a generator
    -- whose every id is an error; long names make the message longer
    -- than 127 bytes
    local name = ("n"):rep(31)
    local t0 = os.time()
    local span = math.floor(2^41 / 1e6)  -- ms
    local s = idscheme.define{
      name = name,
      fields = { { name = ("t"):rep(31), bits = 41, kind = "time",
                   unit = "ns", epoch = t0 * 1000 - span + 1500 },
                 { name = "seq", bits = 22, kind = "sequence" } },
      encodings = { "dec", "hex" },
    }
    while os.time() < t0 + 2 do end
    local g = s:generator()
    local _, classic = pcall(g.next, g)           -- the C API path
    local _, viaffi = pcall(g.next_string, g)
    local _, named = pcall(g.next_string, g, "hex")
    assert.is_true(#classic > 127 + 10, classic)
    assert.is_truthy(classic:find(("t"):rep(31) .. " (before its epoch, "
                                  .. "or past its end)", 1, true), classic)
    -- the position prefixes may differ; the messages end the same
    local at = classic:find(name .. ": the clock", 1, true)
    assert.is_truthy(at, classic)
    local tail = classic:sub(at)
    assert.are.equal(tail, viaffi:sub(-#tail))
    assert.are.equal(tail, named:sub(-#tail))
  end)
end)

-- ---------------------------------------------------------------------

describe("define refuses unknown keys (item 17)", function ()
  local function T ()
    return { name = "ts", bits = 41, kind = "time" }
  end

  it("in the spec", function ()
    local name = fresh("unk")
    helper.assert_raises(function ()
      idscheme.define{ name = name, fields = { T() }, encodings = { "dec" },
                       defualt_encoding = "dec" }
    end, "defualt_encoding")
    assert.is_false(pcall(idscheme.scheme, name))
    helper.assert_raises(function ()
      idscheme.define{ name = name, fields = { T() }, encodings = { "dec" },
                       [1] = "x" }
    end, "key")
    assert.is_false(pcall(idscheme.scheme, name))
  end)

  it("in a field", function ()
    local name = fresh("unk")
    helper.assert_raises(function ()
      idscheme.define{ name = name, encodings = { "dec" },
                       fields = { { name = "ts", bits = 41, kind = "time",
                                    units = "us" } } }
    end, "units")
    assert.is_false(pcall(idscheme.scheme, name))
  end)

  it("a missing encodings table is left to the core", function ()
    local name = fresh("noenc")
    local ok, err = pcall(idscheme.define, { name = name, fields = { T() } })
    if ok then
      assert.are.equal("dec", err.encodings[1])
    else
      -- this core may want encodings; the binding does not refuse
      assert.is_falsy(err:find("must be a table", 1, true), err)
      assert.is_truthy(err:find("encodings", 1, true), err)
    end
    helper.assert_raises(function ()
      idscheme.define{ name = fresh("badenc"), fields = { T() },
                       encodings = "dec" }
    end, "encodings")
  end)
end)

-- ---------------------------------------------------------------------

describe("a method knows its own userdata (binding/box.h)", function ()
  local fluid = idscheme.scheme("fluid")
  local gen = fluid:generator{ generator = 1, slots = "none" }
  local id = fluid:compose{ timestamp = 1, generator = 2, sequence = 3 }
  local comp = idscheme.compressor.new()
  -- every other kind of value, strings and tables of every length up to
  -- 64 among them (a box's size is one of those lengths)
  local function others (own)
    local t = { 1, 2.5, true, io.stdout, print, coroutine.create(print) }
    for _, o in ipairs{ fluid, gen, id, comp } do
      if o ~= own then t[#t + 1] = o end
    end
    for n = 0, 64 do
      local a = {}
      for i = 1, n do a[i] = i end
      t[#t + 1] = ("x"):rep(n)
      t[#t + 1] = a
    end
    return t
  end
  local cases = {
    { fluid, "idscheme.scheme", { "compose", "decode", "from_bytes",
                                  "generator" } },
    { gen, "idscheme.generator", { "next", "next_string", "next_batch",
                                   "next_strings", "scheme", "slot",
                                   "close" } },
    { id, "idscheme.id", { "encode", "fields", "bytes", "integer",
                           "scheme" } },
  }

  it("refuses anything else as self, naming the type", function ()
    for _, c in ipairs(cases) do
      local own, tname, names = c[1], c[2], c[3]
      for _, name in ipairs(names) do
        local f = own[name]
        for _, o in ipairs(others(own)) do
          local ok, err = pcall(f, o, 1)
          assert.is_false(ok, tname .. ":" .. name)
          assert.truthy(tostring(err):find(tname .. " expected", 1, true),
                        tostring(err))
        end
      end
      local mt = getmetatable(own)
      assert.is_false(pcall(mt.__tostring, io.stdout))
    end
  end)

  it("orders and compares ids only with ids", function ()
    local mt = getmetatable(id)
    for _, o in ipairs(others(id)) do
      assert.is_false(mt.__eq(id, o))
      assert.is_false(mt.__eq(o, id))
      assert.is_false(pcall(mt.__lt, id, o))
      assert.is_false(pcall(mt.__le, o, id))
    end
    assert.is_true(mt.__eq(id, fluid:compose{ timestamp = 1, generator = 2,
                                              sequence = 3 }))
  end)

  it("still works on its own", function ()
    assert.are.equal("fluid", gen:scheme().name)
    assert.are.equal(3, id:fields().sequence)
    assert.is_string(gen:next_string())
    assert.are.equal(36, #comp:decompress(comp:generate_compressed_id()))
  end)
end)

-- Issue 22: a userdata given the generator metatable (debug.setmetatable)
-- went to the FFI path under LuaJIT, which read it as a generator (UBSan:
-- a null scheme); a table with that metatable was "idscheme.generator
-- expected, got idscheme.generator".
describe("a value given the generator metatable", function ()
  local gen = idscheme.scheme("fluid"):generator{ generator = 9 }
  local genmt = getmetatable(gen)

  it("is refused by next_string, naming what it really is", function ()
    local comp = idscheme.compressor.new()
    local f = io.tmpfile()
    local cmt, fmt = getmetatable(comp), getmetatable(f)
    debug.setmetatable(comp, genmt)
    debug.setmetatable(f, genmt)
    for _, v in ipairs{ comp, f } do
      for _, enc in ipairs{ false, "dec" } do
        local ok, err = pcall(genmt.__index.next_string, v, enc or nil)
        assert.is_false(ok)
        assert.truthy(tostring(err):find("idscheme.generator expected, got "
                                         .. "userdata", 1, true), err)
        ok, err = pcall(function () return v:next_string(enc or nil) end)
        assert.is_false(ok)
      end
    end
    -- their own again, for their __gc
    debug.setmetatable(comp, cmt)
    debug.setmetatable(f, fmt)
    f:close()
    local t = setmetatable({}, genmt)
    local ok, err = pcall(function () return t:next_string() end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("idscheme.generator expected, got table",
                                     1, true), err)
    assert.is_string(gen:next_string())
    assert.is_string(gen:next_string("dec"))
  end)

  it("names a box of another type by its own name", function ()
    local comp = idscheme.compressor.new()
    local ok, err = pcall(genmt.__index.next, comp)
    -- Lua 5.1's metatables have no __name
    local want = JIT and "userdata" or "idscheme.compressor"
    assert.is_false(ok)
    assert.truthy(tostring(err):find("idscheme.generator expected, got "
                                     .. want, 1, true), err)
  end)

  -- issue 39: the value's type where the value belongs, the option's name
  -- where the name does (it said "got 'worker'")
  it("says a wrong-typed option's value, not its name", function ()
    local snow = idscheme.scheme("snowflake")
    for v, want in pairs{ [{}] = "got table", [1.5] = "got 1.5",
                          [true] = "got boolean" } do
      local ok, err = pcall(snow.generator, snow, { worker = v })
      assert.is_false(ok)
      assert.truthy(tostring(err):find("generator option 'worker' must be an "
                    .. "integer or a string, " .. want, 1, true), err)
    end
  end)
end)
