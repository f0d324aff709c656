-- idscheme.compressor against every step recorded from
-- @fluidframework/id-compressor 3.1.0 (spec/vectors/idcompressor.json):
-- scenario, errorCases, fuzz and fuzz2, with the same results and the same
-- serialized bytes.  Every step that fails in the reference must raise
-- here, and leave the compressor as it was (serialize before == after).
-- One recorded step shows the reference's partial state after a failed
-- call; ours is the state from before the call (vectors README).

local helper = require "spec.helper"
local idscheme = require "idscheme"

local V = helper.vectors("idcompressor")
local C = idscheme.compressor
local null = helper.null

local NONNORMATIVE = {
  ["finalize first range with firstGenCount != 1"] = { [4] = true },
}

local function opt (v) if v == null then return nil end return v end

-- reference range (camelCase) -> binding range (snake_case)
local function to_lua_range (r)
  local t = { session_id = r.sessionId }
  if opt(r.ids) then
    local l = {}
    for i, p in ipairs(r.ids.localIdRanges) do l[i] = { p[1], p[2] } end
    t.ids = { first_gen_count = r.ids.firstGenCount, count = r.ids.count,
              requested_cluster_size = r.ids.requestedClusterSize,
              local_id_ranges = l }
  end
  return t
end

local METHOD = {
  generateCompressedId = function (c) return c:generate_compressed_id() end,
  generateDocumentUniqueId = function (c)
    return c:generate_document_unique_id() end,
  normalizeToOpSpace = function (c, s) return c:normalize_to_op_space(s.id) end,
  normalizeToSessionSpace = function (c, s)
    return c:normalize_to_session_space(s.id, s.originSessionId) end,
  tryNormalizeToSessionSpaceWithoutSession = function (c, s)
    return c:try_normalize_to_session_space_without_session(s.id) end,
  decompress = function (c, s) return c:decompress(s.id) end,
  recompress = function (c, s) return c:recompress(s.stableId) end,
  tryRecompress = function (c, s) return c:try_recompress(s.stableId) end,
  resetUnfinalizedCreationRange = function (c)
    return c:reset_unfinalized_creation_range() end,
  finalizeCreationRange = function (c, s)
    return c:finalize_creation_range(to_lua_range(s.range)) end,
  takeNextCreationRange = function (c) return c:take_next_creation_range() end,
  takeUnfinalizedCreationRange = function (c)
    return c:take_unfinalized_creation_range() end,
  setClusterSize = function (c, s) return c:set_cluster_size(s.size) end,
  serialize = function (c, s) return c:serialize(s.withSession) end,
  beginGhostSession = function (c, s)
    local got = {}
    c:begin_ghost_session(s.ghostSessionId, function ()
      for i = 1, s.generateCount do got[i] = c:generate_compressed_id() end
    end)
    return got
  end,
  ["beginGhostSession(takeNextCreationRange inside)"] = function (c)
    c:begin_ghost_session("99999999-9999-4999-9999-999999999999",
                          function () c:take_next_creation_range() end)
  end,
}

local function replay (name, steps)
  local comps, prefail = {}, nil
  -- a step that makes a compressor: pcall(make, ...) must fail where the
  -- step failed, and give one of the step's session otherwise
  local function made (s, where, make, ...)
    local ok, c = pcall(make, ...)
    if s.error then
      assert(not ok, where .. ": must fail")
    else
      assert(ok, where .. ": " .. tostring(c))
      assert.are.equal(s.result, c:local_session_id())
      comps[s.compressor] = c
    end
  end
  for i, s in ipairs(steps) do
    local where = name .. " step " .. (i - 1) .. " " .. s.op
    local want = s.result
    if s.op == "comment" or s.op == "checkpoint" then
      -- labels only
    elseif s.op == "create" then
      made(s, where, C.new, { session_id = s.sessionId,
                              cluster_size = opt(s.clusterSize) })
    elseif s.op == "deserialize" then
      made(s, where, C.deserialize, s.serialized, opt(s.newSessionId))
    else
      local c = assert(comps[s.compressor], where .. ": no compressor")
      local before_t, before_f
      if s.error then before_t, before_f = c:serialize(true), c:serialize(false) end
      local ok, got = pcall(METHOD[s.op], c, s)
      if s.error then
        assert(not ok, where .. ": must fail with " .. s.error.message)
        assert(type(got) == "string" and #got > 0, where .. ": a message")
        assert(c:serialize(true) == before_t and c:serialize(false) == before_f,
               where .. ": a failed call changed the compressor")
        prefail = before_t
      else
        assert(ok, where .. ": " .. tostring(got))
        if s.op == "serialize" and NONNORMATIVE[name] and NONNORMATIVE[name][i] then
          want = prefail
        end
        if s.op == "takeNextCreationRange" or s.op == "takeUnfinalizedCreationRange" then
          assert.are.same(to_lua_range(want), got)
        elseif s.op == "beginGhostSession" then
          assert.are.same(want, got)
        elseif want ~= nil and want ~= null then
          assert(got == want, where .. ": got " .. tostring(got) .. ", want "
                 .. tostring(want))
        else
          assert(got == nil, where .. ": want nil, got " .. tostring(got))
        end
      end
    end
  end
  for _, c in pairs(comps) do c:close() end
end

describe("idscheme.compressor", function ()
  it("replays the scenario", function ()
    replay("scenario", V.scenario.steps)
  end)
  for _, e in ipairs(V.errorCases) do
    it("replays errorCases: " .. e.name, function () replay(e.name, e.steps) end)
  end
  it("replays fuzz", function () replay("fuzz", V.fuzz.steps) end)
  it("replays fuzz2", function () replay("fuzz2", V.fuzz2.steps) end)

  it("takes integral floats as integers and refuses the rest", function ()
    local c = C.new{ session_id = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd",
                     cluster_size = 4.0 }
    assert.are.equal(-1, c:generate_compressed_id())
    assert.are.equal(-1, c:normalize_to_op_space(-1.0))
    for _, bad in ipairs{ 7.5, 0/0, 1/0 } do
      assert.has_error(function () c:normalize_to_op_space(bad) end)
    end
    assert.has_error(function () C.new{ cluster_size = 0 } end)
    assert.has_error(function () C.new{ session_id = "zz" } end)
    assert.has_error(function () c:recompress("0a0a\0") end)
  end)

  it("reads a range table once, whatever its __index returns", function ()
    local a = C.new{ session_id = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd",
                     cluster_size = 4 }
    a:generate_compressed_id()
    local r = a:take_next_creation_range()
    local n = 0
    local ids = setmetatable({}, { __index = function (_, k)
      n = n + 1
      collectgarbage()
      return r.ids[k]
    end })
    local proxy = setmetatable({}, { __index = function (_, k)
      collectgarbage()
      if k == "session_id" then return (r.session_id .. "x"):sub(1, -2) end
      if k == "ids" then return ids end
    end })
    a:finalize_creation_range(proxy)
    assert.are.equal(3, n)
    assert.are.equal(0, a:normalize_to_op_space(-1))
  end)

  it("makes random v4 session ids, every generated UUID distinct", function ()
    local c = C.new()
    assert.truthy(c:local_session_id():match(
      "^%x%x%x%x%x%x%x%x%-%x%x%x%x%-4%x%x%x%-[89ab]%x%x%x%-%x+$"))
    local seen, dups = {}, 0
    for _ = 1, 3 do
      for _ = 1, 1000 do
        local id = c:generate_compressed_id()
        local u = c:decompress(id)
        if seen[u] then dups = dups + 1 end
        seen[u] = true
      end
      c:finalize_creation_range(c:take_next_creation_range())
    end
    assert.are.equal(0, dups)
  end)

  it("refuses to close inside its own ghost session", function ()
    local c = C.new()
    local ok, err = pcall(c.begin_ghost_session, c,
                          "99999999-9999-4999-9999-999999999999",
                          function () c:close() end)
    assert.is_false(ok)
    assert.truthy(err:match("ghost"))
    assert.are.equal(0, c:generate_compressed_id() + 1)   -- -1: still open
  end)

  it("refuses an unknown option of new by name", function ()
    assert.error_matches(function () C.new{ cluster_sise = 5 } end,
                         "unknown option 'cluster_sise' %(session_id, cluster_size%)")
    assert.error_matches(function () C.new{ [1] = 5 } end, "unknown option number")
  end)

  it("ignores extra arguments to new", function ()
    local c = C.new({ session_id = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd" },
                    "extra")
    assert.are.equal("0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd", c:local_session_id())
  end)

  it("refuses anything but a compressor as self", function ()
    local c = C.new()
    local index = getmetatable(c).__index
    -- strings and tables of every length up to 64: a box's size among them
    local others = { 1, "x", {}, io.stdout, idscheme.scheme("fluid"),
                     idscheme.scheme("fluid"):generator{ generator = 1,
                                                         slots = "none" },
                     idscheme.scheme("fluid"):decode("0") }
    for n = 0, 64 do
      local t = {}
      for i = 1, n do t[i] = i end
      others[#others + 1] = string.rep("x", n)
      others[#others + 1] = t
    end
    for _, name in ipairs{ "decompress", "recompress", "serialize", "close",
                           "generate_compressed_id" } do
      for _, o in ipairs(others) do
        local ok, err = pcall(index[name], o, 0)
        assert.is_false(ok)
        assert.truthy(err:find("idscheme.compressor expected", 1, true), err)
      end
    end
    for _, mm in ipairs{ "__gc", "__tostring" } do
      assert.is_false(pcall(getmetatable(c)[mm], io.stdout))
    end
    assert.are.equal(36, #c:decompress(c:generate_compressed_id()))
  end)

  it("closes, and refuses use after close", function ()
    local c = C.new()
    c:close()
    assert.has_error(function () c:generate_compressed_id() end)
    c:close()
  end)

  it("rejects malformed blobs with a message", function ()
    for _, blob in ipairs{ "", "!!!!", "AAAA", "AAAAAAAAAEA=" } do
      local ok, err = pcall(C.deserialize, blob, "d4d4d4d4-0000-4000-8000-000000000001")
      assert.is_false(ok)
      assert.truthy(#err > 0)
    end
  end)

  -- what C has, Lua has too (issue 22)
  it("does the reference's UUID arithmetic and isStableId", function ()
    for _, o in ipairs(V.uuidArithmetic) do
      assert.equal(o.isStableId, C.is_stable_id(o.stableId))
      assert.equal(o.numeric_hex, C.uuid_numeric(o.stableId))
      assert.equal(o.roundTrip, C.uuid_offset(o.stableId, 0))
      for _, off in ipairs(o.offsets) do
        assert.equal(off.stableId, C.uuid_offset(o.stableId, off.offset))
      end
    end
    for _, o in ipairs(V.isStableId) do
      assert.equal(o.isStableId, C.is_stable_id(o.input), o.input)
    end
    assert.is_false(C.is_stable_id("00000000-0000-4000-8000-000000000000\0"))
    assert.error_matches(function () C.uuid_numeric("nope") end, "nope")
  end)

  it("reads its cluster size, and compares as the reference's equals", function ()
    local sid = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd"
    local a = C.new{ session_id = sid }
    assert.equal(512, a:cluster_size())
    a:set_cluster_size(5)
    assert.equal(5, a:cluster_size())
    a:generate_compressed_id()
    a:finalize_creation_range(a:take_next_creation_range())
    local b = C.deserialize(a:serialize(true))
    local c = C.deserialize(a:serialize(false), "d4d4d4d4-0000-4000-8000-000000000001")
    assert.is_true(a:equals(b, true))
    assert.is_true(a:equals(c, false))
    assert.is_false(a:equals(c, true))       -- another local session
    b:generate_compressed_id()
    assert.is_false(a:equals(b, true))       -- made one more
    assert.is_true(a:equals(b, false))
    b:finalize_creation_range(b:take_next_creation_range())
    assert.is_false(a:equals(b, false))      -- a cluster's count differs
    assert.error_matches(function () a:equals(io.stdout) end,
                         "idscheme.compressor expected")
    assert.error_matches(function ()
      a:begin_ghost_session(sid, function () end)
    end, "own session")
  end)

  -- issue 39: a version that is no known integer, in the reference's words
  -- (each blob one float64 word, base64: -1, 2.5, 3, 1e20, NaN, +-Infinity)
  it("refuses a blob of an unknown version in the reference's words", function ()
    for _, blob in ipairs{ "AAAAAAAA8L8=", "AAAAAAAABEA=", "AAAAAAAACEA=",
                           "QIy1eB2vFUQ=", "AAAAAAAA+H8=", "AAAAAAAA8H8=",
                           "AAAAAAAA8P8=" } do
      local ok, err = pcall(C.deserialize, blob)
      assert.is_false(ok)
      assert.truthy(tostring(err):find("Unknown IdCompressor serialized version.",
                                       1, true), err)
    end
  end)
end)
