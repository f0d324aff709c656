-- The step of a random field within a tick (issue 40): ULID, KSUID and
-- Flax grow their random field by an unpredictable step (the default), or
-- by one with step = "one", as the ULID spec's monotonic factory does.
local idscheme = require "idscheme"

-- the random field of each ID as a number of its low 48 bits
local function low (id)
  local b = id:bytes()
  local x = 0
  for i = #b - 5, #b do x = x * 256 + b:byte(i) end
  return x
end

describe("generator option step", function ()
  it("steps by one within a tick, as the ULID spec does", function ()
    for _, name in ipairs{ "ulid", "ksuid", "flax" } do
      local g = idscheme.scheme(name):generator{ step = "one" }
      local ids = g:next_batch(2000)
      local ones, same = 0, 0
      for i = 2, #ids do
        assert.is_true(ids[i - 1] < ids[i])
        if ids[i]:time() == ids[i - 1]:time() then
          same = same + 1
          if low(ids[i]) - low(ids[i - 1]) == 1 then ones = ones + 1 end
        end
      end
      assert.is_true(same > 0, name .. ": no two IDs in one tick")
      assert.are.equal(same, ones, name)
    end
  end)

  it("steps by a random amount by default", function ()
    local g = idscheme.scheme("ulid"):generator()
    local ids = g:next_batch(2000)
    local ones, same = 0, 0
    for i = 2, #ids do
      if ids[i]:time() == ids[i - 1]:time() then
        same = same + 1
        if low(ids[i]) - low(ids[i - 1]) == 1 then ones = ones + 1 end
      end
    end
    assert.is_true(same > 100)
    assert.is_true(ones < same / 100)
  end)

  it("is refused by name where nothing steps, and for a bad value", function ()
    local fluid = idscheme.scheme("fluid")
    assert.error_matches(function ()
      fluid:generator{ generator = 1, step = "one" }
    end, "option 'step' is for layouts that step a random field")
    assert.error_matches(function ()
      idscheme.scheme("ulid"):generator{ step = "two" }
    end, "generator option 'step' must be 'random' or 'one', not \"two\"", 1,
    true)
  end)
end)
