-- The short path for scripts (issue 25): idscheme.new(scheme) makes one
-- ID's text, idscheme.valid(text, scheme) says whether text is one.
local idscheme = require("idscheme")
local helper = require("spec.helper")

describe("idscheme.new", function ()
  it("makes an ID of the scheme, in its default encoding or another",
     function ()
    for _, name in ipairs{ "ulid", "uuidv7", "snowflake", "fluid", "ksuid",
                           "nanoid", "objectid" } do
      local text = idscheme.new(name)
      assert.truthy(idscheme.scheme(name):decode(text), name .. ": " .. text)
    end
    local dec = idscheme.new("fluid", "dec")
    assert.truthy(dec:match("^%d+$"), dec)
    assert.truthy(idscheme.new(idscheme.scheme("ulid")))   -- a handle too
  end)

  it("never repeats: 100000 calls, and a generator of the same scheme beside",
     function ()
    local seen, dups, n, rounds = {}, 0, 0, helper.scaled(50000, 500)
    local g = idscheme.scheme("snowflake"):generator()
    for _ = 1, rounds do
      for _, t in ipairs{ idscheme.new("snowflake"), g:next_string(),
                          idscheme.new("snowflake") } do
        if seen[t] then dups = dups + 1 end
        seen[t] = true
        n = n + 1
      end
    end
    assert.are.equal(3 * rounds, n)
    assert.are.equal(0, dups)
    g:close()
  end)

  it("names what it refuses", function ()
    local ok, err = pcall(idscheme.new, "no_such_scheme")
    assert.is_false(ok)
    assert.truthy(err:find("unknown scheme 'no_such_scheme'", 1, true), err)
    ok, err = pcall(idscheme.new, "ulid", "zz")
    assert.is_false(ok)
    assert.truthy(err:find("unknown encoding 'zz'", 1, true), err)
    ok, err = pcall(idscheme.new, 42)
    assert.is_false(ok)
    assert.truthy(err:find("a scheme name or handle expected, got", 1, true),
                  err)
  end)
end)

describe("idscheme.valid", function ()
  it("says whether text is an ID of the scheme", function ()
    assert.is_true(idscheme.valid("01ARZ3NDEKTSV4RRFFQ69G5FAV", "ulid"))
    assert.is_true(idscheme.valid(idscheme.new("uuidv7"), "uuidv7"))
    assert.is_true(idscheme.valid("01ARZ3NDEKTSV4RRFFQ69G5FAV",
                                  idscheme.scheme("ulid")))
    assert.is_false(idscheme.valid("01ARZ3NDEKTSV4RRFFQ69G5FA", "ulid"))
    assert.is_false(idscheme.valid("hello", "ulid"))
    -- a UUIDv4 is no UUIDv7
    assert.is_false(idscheme.valid("919108f7-52d1-4320-9bac-f847db4148a8",
                                   "uuidv7"))
    assert.is_true(idscheme.valid("01563e3a-b5d3-d676-4c61-efb99302bd5b",
                                  "ulid", "uuid"))
  end)

  it("raises for misuse, naming the argument", function ()
    local ok, err = pcall(idscheme.valid, "x", "no_such_scheme")
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #2", 1, true), err)
    ok, err = pcall(idscheme.valid, nil, "ulid")
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #1", 1, true), err)
  end)
end)
