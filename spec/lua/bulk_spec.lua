-- g:next_strings(n [, encoding]) and g:next_batch(n): the next n IDs of a
-- generator in one call (the core's ids_generator_next_n), as n calls of
-- g:next_string() / g:next() would give them.

local idscheme = require "idscheme"
local helper = require "spec.helper"

-- past several of the binding's 256-ID chunks even when scaled down
local NSTR, NBATCH = helper.scaled(3000, 600), helper.scaled(5000, 600)

local cases = {
  {"fluid", {generator = 9}},
  {"snowflake", {worker = 3, shard = 1}},
  {"flax"},
  {"siq"},
  {"kuid64"},
  {"kuid96"},
}

describe("g:next_strings and g:next_batch", function()
  for _, c in ipairs(cases) do
    local name, opts = c[1], c[2]
    it(name .. ": distinct, increasing, decodable, in every encoding", function()
      local s = idscheme.scheme(name)
      local g = s:generator(opts)
      local seen, last = {}, nil
      for _, enc in ipairs(s.encodings) do
        local t = g:next_strings(NSTR, enc)
        assert.are.equal(NSTR, #t)
        for i = 1, #t do
          assert.is_nil(seen[t[i]])
          seen[t[i]] = true
          local id = assert(s:decode(t[i], enc))
          if last then assert.is_true(last < id) end
          last = id
        end
      end
      local b = g:next_batch(NBATCH)
      assert.are.equal(NBATCH, #b)
      for i = 1, #b do
        assert.are.equal(s, b[i]:scheme())
        assert.is_true(last < b[i])
        last = b[i]
      end
      assert.is_true(last < g:next())
    end)
  end

  it("takes 0 and a float with an integer value", function()
    local g = idscheme.scheme("kuid64"):generator()
    assert.are.same({}, g:next_strings(0))
    assert.are.same({}, g:next_batch(0))
    assert.are.equal(3, #g:next_strings(3.0))
  end)

  it("refuses a bad count or encoding, naming the argument", function()
    local g = idscheme.scheme("fluid"):generator{generator = 1}
    assert.has_error(function() g:next_strings(-1) end,
                     "bad argument #1 to 'next_strings' (count out of range)")
    assert.has_error(function() g:next_batch(2.5) end)
    assert.has_error(function() g:next_strings("x") end)
    assert.has_error(function() g:next_strings(2, "nope") end)
    assert.has_error(function() g.next_strings({}, 1) end)
  end)

  it("fails on a closed generator with a slot", function()
    local dir = helper.tmpdir()
    finally(function() helper.rmtree(dir) end)
    local g = idscheme.scheme("fluid"):generator{slots = "local:" .. dir}
    assert.are.equal(2, #g:next_strings(2))
    g:close()
    assert.has_error(function() g:next_strings(2) end)
  end)
end)
