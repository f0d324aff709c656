-- idscheme.inspect(text [, opts]): the inspect engine (inspect/inspect.h)
-- from Lua.  Every scheme, built-in and shipped script, finds its own
-- fresh ID first; ambiguous text gives several candidates in rank order;
-- garbage gives none and says why; options restrict to a scheme or an
-- encoding, and an unknown option is refused by name.
local idscheme = require "idscheme"
local helper = require "spec.helper"

-- The ranking (inspect.h): readings that stand before the refused, and
-- among those that stand, the rank never increases down the list.
local function in_order (cands)
  for i = 2, #cands do
    local a, b = cands[i - 1], cands[i]
    assert((not a.refused or b.refused) and
           (b.refused or a.rank >= b.rank),
           ("candidate %d (%s %s) ranks above %d"):format(i, b.scheme,
                                                           b.encoding, i - 1))
  end
  return true
end

-- the candidate that reads text as scheme name in its encoding enc
local function own (cands, name, enc)
  for _, c in ipairs(cands) do
    if c.scheme == name and c.encoding == enc then return c end
  end
end

describe("idscheme.inspect", function ()
  it("finds each scheme's own fresh ID as its top candidate (or, where the "
     .. "text cannot decide, among the candidates flagged ambiguous)",
     function ()
    for _, name in ipairs(idscheme.list()) do
      local s = idscheme.scheme(name)
      local ok, g = pcall(s.generator, s)
      local timed = false
      for _, f in ipairs(s.fields) do timed = timed or f.kind == "time" end
      if not ok then     -- the nil and max UUIDs: one ID each; v3, v5: hashes
        assert.is_truthy(g:find("every bit is a constant", 1, true) or
                         g:find("hashes of names", 1, true), g)
        local x = {}
        for _, f in ipairs(s.fields) do
          if f.kind == "hash" then x[f.name] = 1234 end
        end
        g = { next = function () return s:compose(x) end,
              close = function () end }
      end
      local id = g:next()
      local text = id:encode()
      local cands = idscheme.inspect(text)
      assert.is_true(#cands >= 1, name)
      local c = cands[1]
      if c.ambiguous and c.scheme ~= name then   -- a bare decimal Snowflake
        for _, x in ipairs(cands) do
          if x.scheme == name and x.ambiguous then c = x end
        end
      end
      assert.are.equal(name, c.scheme, text)
      assert.are.equal(s.default_encoding, c.encoding)
      assert.is_true(c.id == id)
      assert.are.same(id:fields(), c.fields)
      assert.are.equal(timed and "number" or "nil", type(c.time_ms), name)
      assert.is_true(c.plausible)
      assert.is_true(in_order(cands))
      g:close()
    end
  end)

  it("reads a decimal whose digits are all octal as decimal first, flagged",
     function ()
    -- a fresh Instagram ID (2026) that reads as an octal Snowflake (2015)
    -- too: the default form first, flagged (a bare number has no marks),
    -- the other scheme's octal reading beside it (Discord writes none)
    local cands = idscheme.inspect("4210143737751273472")
    assert.are.equal("instagram", cands[1].scheme)
    assert.are.equal("dec", cands[1].encoding)
    assert.is_true(cands[1].weak or cands[1].ambiguous)
    assert.is_truthy(own(cands, "snowflake", "oct"))
    assert.is_true(in_order(cands))
  end)

  it("gives ambiguous text several candidates in rank order", function ()
    local snow = idscheme.scheme("snowflake")
    local day_ago = os.time() * 1000 - 86400000
    local id = snow:compose{ timestamp = day_ago - 1420070400000, worker = 1,
                             shard = 2, sequence = 3 }
    local cands = idscheme.inspect(id:encode("dec"))
    assert.is_true(#cands > 1)
    assert.are.equal("snowflake", cands[1].scheme)
    assert.are.equal("dec", cands[1].encoding)
    assert.are.equal(day_ago, cands[1].time_ms)
    local schemes = {}
    for _, c in ipairs(cands) do schemes[c.scheme] = true end
    assert.is_true(schemes.fluid)
    assert.is_true(in_order(cands))
  end)

  it("reads FLUID's RFC 19 mark as that form, first", function ()
    local cands = idscheme.inspect("ƒuZZybuNNy")
    assert.are.equal("fluid", cands[1].scheme)
    assert.are.equal("f58", cands[1].encoding)
    assert.is_true(cands[1].marked)
  end)

  it("ignores blanks around the text", function ()
    local text = idscheme.scheme("flax"):generator():next_string()
    local a, b = idscheme.inspect(text), idscheme.inspect(" \t" .. text .. "\n")
    assert.are.equal(#a, #b)
    assert.are.equal(a[1].scheme, b[1].scheme)
    assert.is_true(a[1].id == b[1].id)
  end)

  it("gives garbage no candidate and says why", function ()
    local cands, why = idscheme.inspect("not an id")
    assert.are.same({}, cands)
    assert.are.equal("no scheme decodes it", why)
    cands, why = idscheme.inspect("")
    assert.are.same({}, cands)
    assert.are.equal("empty", why)
    cands, why = idscheme.inspect("zz", { encoding = "hex" })
    assert.are.equal("no scheme decodes it in that encoding", why)
    -- one scheme: its own words
    cands, why = idscheme.inspect("not an id", { scheme = "fluid" })
    assert.are.same({}, cands)
    assert.truthy(why:find("not an id", 1, true))
  end)

  it("keeps to a scheme (a name or a handle) and to an encoding", function ()
    for _, s in ipairs{ "snowflake", idscheme.scheme("snowflake") } do
      local cands = idscheme.inspect("1234567890", { scheme = s })
      assert.is_true(#cands >= 1)
      for _, c in ipairs(cands) do assert.are.equal("snowflake", c.scheme) end
    end
    local cands = idscheme.inspect("1234567890", { encoding = "hex" })
    assert.is_true(#cands > 1)
    for _, c in ipairs(cands) do assert.are.equal("hex", c.encoding) end
    assert.is_true(in_order(cands))
  end)

  it("refuses unknown options, encodings and schemes by name", function ()
    local function refuses (opts, msg)
      local ok, err = pcall(idscheme.inspect, "x", opts)
      assert.is_false(ok)
      assert.truthy(tostring(err):find("bad argument #2", 1, true), err)
      assert.truthy(tostring(err):find(msg, 1, true), err)
    end
    refuses({ sheme = "fluid" }, "unknown option 'sheme'")
    refuses({ [1] = "fluid" }, "unknown option 1")
    refuses({ encoding = "nope" }, "no scheme has encoding 'nope'")
    refuses({ scheme = "fluid", encoding = "nope" },
            "unknown encoding 'nope' for fluid")
    refuses({ scheme = "nosuch" }, "unknown scheme 'nosuch'")
    refuses({ scheme = 7 }, "scheme must be a name or a scheme, got 7")
    refuses({ encoding = 7 }, "encoding must be a string, got 7")
    assert.is_false(pcall(idscheme.inspect, nil))
    assert.is_false(pcall(idscheme.inspect, "x", "fluid"))
  end)

  it("sees a scheme defined after an earlier call", function ()
    assert.are.same({}, (idscheme.inspect("zq-inspect-1")))
    local name = "inspect_spec_" .. tostring(os.time())
    idscheme.define{ name = name,
      fields = { { name = "t", kind = "time", bits = 44, unit = "ms" },
                 { name = "s", kind = "sequence", bits = 20 } },
      encodings = { "hex" } }
    local id = idscheme.scheme(name):generator():next()
    local found = false
    for _, c in ipairs(idscheme.inspect(id:encode())) do
      found = found or c.scheme == name
    end
    assert.is_true(found)
  end)

  it("marks a guess: Twitter's documented ID reads as Discord's as well", function ()
    local cands = idscheme.inspect("1050118621198921728")
    assert.is_true(cands[1].ambiguous and cands[1].plausible)
    local twitter
    for _, c in ipairs(cands) do
      if c.scheme == "twitter" then twitter = c end
    end
    assert.is_true(twitter.ambiguous)
    assert.are.equal(1539202764211, twitter.time_ms)
    local ulid = idscheme.inspect("01ARZ3NDEKTSV4RRFFQ69G5FAV")[1]
    assert.are.equal("ulid", ulid.scheme)
    assert.is_false(ulid.ambiguous)
    assert.is_true(ulid.plausible)
    local hello, why = idscheme.inspect("hello")
    assert.is_true(#hello == 0 or hello[1].refused)
    assert.truthy(#hello > 0 or why:find("reads it plausibly", 1, true))
  end)

  it("takes a defined scheme's about: its since bounds plausibility", function ()
    local name = "inspect_about_" .. tostring(os.time())
    local spec = { name = name,
      fields = { { name = "t", kind = "time", bits = 44, unit = "ms" },
                 { name = "s", kind = "sequence", bits = 20 } },
      encodings = { "hex" },
      about = { title = "A test format", aliases = { name .. "_alias" },
                since = 4102444800000 } }          -- 2100: nothing yet
    local s = idscheme.define(spec)
    assert.are.equal(s, idscheme.define(spec))      -- the same spec again
    spec.about.title = "Another"
    assert.has_error(function () idscheme.define(spec) end)
    local id = s:generator():next()
    for _, c in ipairs(idscheme.inspect(id:encode(), { scheme = name })) do
      assert.is_false(c.plausible)
    end
    assert.error_matches(function ()
      idscheme.define{ name = name .. "x", fields = spec.fields,
                       about = { titel = "x" } }
    end, "about: unknown key 'titel'")
    assert.error_matches(function ()
      idscheme.define{ name = name .. "y", fields = spec.fields,
                       about = { aliases = { "a", "b", "c", "d", "e" } } }
    end, "at most 4 names")
  end)

  it("reads every form of a UUID and says which (issue 37)", function ()
    local v4 = idscheme.scheme("uuidv4")
    local id = v4:decode("b18794e8-5d0d-417c-b361-ba38e78411b4")
    for _, form in ipairs{ "uuid", "hex", "urn", "braced", "dec", "base57",
                           "flickr58" } do
      local text = id:encode(form)
      local c = idscheme.inspect(text)[1]
      assert.are.equal("uuidv4", c.scheme, text)
      assert.are.equal(form, c.encoding, text)
      assert.is_true(c.id == id)
      assert.is_false(c.refused)
    end
    assert.are.equal("braced", idscheme.inspect(
      "{B18794E8-5D0D-417C-B361-BA38E78411B4}")[1].encoding)
  end)

  it("names a reading with its marks though its time is early, noting it",
     function ()
    -- a UUIDv7 backfilled to 2016 is no ULID: its version and variant say v7
    local v7 = idscheme.scheme("uuidv7"):compose{ timestamp = 1464739200000,
      sequence = 1, random = 2 }
    local c = idscheme.inspect(v7:encode())[1]
    assert.are.equal("uuidv7", c.scheme)
    assert.is_false(c.refused)
    assert.truthy(c.note:find("before the format", 1, true))
    assert.truthy(c.why:find("before the format", 1, true))
    -- rs/xid's README example (2011)
    c = idscheme.inspect("9m4e2mr0ui3e8a215n4g")[1]
    assert.are.equal("xid", c.scheme)
    assert.are.equal(1300816219000, c.time_ms)
  end)

  it("refuses text that is no ID, and names a type prefix it refuses",
     function ()
    for _, t in ipairs{ "Kubernetes", "192.168.1.1", "1700000000000",
                        "9780306406157", "alice@example.com",
                        "2024-02-29T23:59:59Z", "cjld2cjxh0000qzrmn831i7rn" } do
      local cands = idscheme.inspect(t)
      assert.is_true(#cands == 0 or cands[1].refused, t)
    end
    local cands, why = idscheme.inspect("cus_NffrFeUfNV2Hib")
    assert.are.same({}, cands)
    assert.truthy(why:find("'cus_' is a type prefix", 1, true), why)
  end)

  it("agrees with the command on every text of the corpus", function ()
    -- the build's idscheme beside the module this spec loaded
    local so = package.searchpath("idscheme", package.cpath)
    local bin = so:gsub("[^/]*/idscheme%.so$", "idscheme")
    local f = io.open(bin, "r")
    if not f then pending("no " .. bin) return end
    f:close()
    local texts = {}
    local tsv = io.open(helper.path("spec/inspect/corpus/corpus.tsv"))
    tsv:read("l")
    for line in tsv:lines() do texts[#texts + 1] = line:match("^([^\t]*)") end
    tsv:close()
    local tmp = os.tmpname()
    local w = io.open(tmp, "w")
    w:write(table.concat(texts, "\n"), "\n")
    w:close()
    local p = io.popen(("'%s' inspect --json < '%s' 2>/dev/null")
                       :format(bin, tmp))
    local got = {}
    for line in p:lines() do
      local s, e, a, w = line:match('"scheme":"([^"]*)","encoding":"([^"]*)",'
        .. '"plausible":%a+,"ambiguous":(%a+),"weak":(%a+)')
      if s then got[#got + 1] = ("%s %s %s %s"):format(s, e, a, w) end
    end
    p:close()
    os.remove(tmp)
    local n = 0
    for i, t in ipairs(texts) do
      local c = idscheme.inspect(t)[1]
      if c and not c.refused then
        n = n + 1
        assert.are.equal(("%s %s %s %s"):format(c.scheme, c.encoding,
                         tostring(c.ambiguous), tostring(c.weak)),
                         got[n], t)
      end
    end
    assert.are.equal(#got, n)
    assert.is_true(n > 100)
  end)
end)
