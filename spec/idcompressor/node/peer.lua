-- peer.lua BUILDDIR: the Lua 5.4 side of the id-compressor cross-test.
-- Reads one JSON command per line on stdin, runs it on its compressors
-- (idscheme.compressor) and writes one JSON answer per line:
--   {"ok":true,"result":...}  or  {"ok":false,"error":"message"}
-- Commands: {op, client, ...} with op one of create, deserialize, close,
-- generate, take, take_unfinalized, finalize, set_cluster_size,
-- to_op, to_session, try_without, decompress, recompress, try_recompress,
-- serialize, ghost, session_id.  Ranges travel in the reference's
-- camelCase shape, so that the driver compares them directly.

package.cpath = arg[1] .. "/lua54/?.so;" .. package.cpath
local cjson = require "cjson"
local C = require("idscheme").compressor

local comps = {}
local null = cjson.null

local function from_ref_range (r)
  local t = { session_id = r.sessionId }
  if r.ids and r.ids ~= null then
    t.ids = { first_gen_count = r.ids.firstGenCount, count = r.ids.count,
              requested_cluster_size = r.ids.requestedClusterSize }
  end
  return t
end

local function to_ref_range (r)
  local t = { sessionId = r.session_id }
  if r.ids then
    local l = {}
    for i, p in ipairs(r.ids.local_id_ranges) do l[i] = { p[1], p[2] } end
    -- an empty Lua table would become {}; the driver reads "n" instead
    t.ids = { firstGenCount = r.ids.first_gen_count, count = r.ids.count,
              requestedClusterSize = r.ids.requested_cluster_size,
              localIdRanges = l, n = #l }
  end
  return t
end

local function nilnull (v) if v == nil then return null end return v end

local OPS = {
  create = function (m)
    comps[m.client] = C.new{ session_id = m.sessionId,
                             cluster_size = m.clusterSize }
  end,
  deserialize = function (m)
    local nsid = m.newSessionId
    if nsid == null then nsid = nil end
    local c = C.deserialize(m.serialized, nsid)
    if m.clusterSize then c:set_cluster_size(m.clusterSize) end
    if comps[m.client] then comps[m.client]:close() end
    comps[m.client] = c
  end,
  session_id = function (m) return comps[m.client]:local_session_id() end,
  generate = function (m)
    local c, out = comps[m.client], {}
    for i = 1, m.n do out[i] = c:generate_compressed_id() end
    return out
  end,
  unique = function (m) return comps[m.client]:generate_document_unique_id() end,
  take = function (m) return to_ref_range(comps[m.client]:take_next_creation_range()) end,
  take_unfinalized = function (m)
    return to_ref_range(comps[m.client]:take_unfinalized_creation_range())
  end,
  finalize = function (m)
    comps[m.client]:finalize_creation_range(from_ref_range(m.range))
  end,
  set_cluster_size = function (m) comps[m.client]:set_cluster_size(m.size) end,
  to_op = function (m) return comps[m.client]:normalize_to_op_space(m.id) end,
  to_session = function (m)
    return comps[m.client]:normalize_to_session_space(m.id, m.origin)
  end,
  try_without = function (m)
    return nilnull(comps[m.client]:try_normalize_to_session_space_without_session(m.id))
  end,
  decompress = function (m) return comps[m.client]:decompress(m.id) end,
  recompress = function (m) return comps[m.client]:recompress(m.uuid) end,
  try_recompress = function (m)
    return nilnull(comps[m.client]:try_recompress(m.uuid))
  end,
  serialize = function (m) return comps[m.client]:serialize(m.withSession) end,
  ghost = function (m)
    local c, out = comps[m.client], {}
    c:begin_ghost_session(m.ghost, function ()
      for i = 1, m.n do out[i] = c:generate_compressed_id() end
    end)
    return out
  end,
}

for line in io.lines() do
  local m = cjson.decode(line)
  local ok, res = pcall(OPS[m.op], m)
  local answer
  if ok then
    answer = { ok = true, result = nilnull(res) }
  else
    answer = { ok = false, error = tostring(res) }
  end
  io.write(cjson.encode(answer), "\n")
  io.flush()
end
