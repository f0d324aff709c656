-- The generator option max_ahead_ms (docs/API.md): taken by every scheme,
-- an integer 0..3600000, default 0; the run-ahead itself is tested in C on
-- an injected clock (spec/c/test_gen_defects.c).

local helper = require "spec.helper"
local idscheme = require "idscheme"

describe("generator option max_ahead_ms", function ()
  it("is taken by every scheme, with either policy", function ()
    for _, name in ipairs({ "fluid", "flax", "snowflake", "siq", "kuid64" })
    do
      local s = idscheme.scheme(name)
      for _, policy in ipairs({ "hold", "error" }) do
        local g = s:generator({ max_ahead_ms = 5, policy = policy })
        local a, b = g:next(), g:next()
        assert.is_true(a < b, name)
      end
      assert.is_truthy(s:generator({ max_ahead_ms = 0 }):next())
      assert.is_truthy(s:generator({ max_ahead_ms = 3600000 }):next())
    end
  end)

  it("raises on a value out of 0..3600000 or not an integer", function ()
    local s = idscheme.scheme("fluid")
    for _, bad in ipairs({ -1, 3600001, math.maxinteger or 2^53, 1.5, "x",
                           true, {} }) do
      helper.assert_raises(function () s:generator({ max_ahead_ms = bad }) end,
                           "max_ahead_ms", tostring(bad))
    end
  end)
end)
