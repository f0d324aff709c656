-- bench_idc.lua: idscheme.compressor from Lua, the same cases as
-- bench_idc.c and bench_idc_node.mjs (the reference):
--   lua5.4 bench/bench_idc.lua <builddir> [--quick]
-- Timed with os.clock; each case calibrated to about 0.3 s a run, warmed
-- up, run 5 times: the best run, the median in brackets.

local builddir, quick = "build", false
for i = 1, #arg do
  if arg[i] == "--quick" then quick = true else builddir = arg[i] end
end
local jit = rawget(_G, "jit")
package.cpath = builddir .. "/" .. (jit and "luajit" or "lua54") .. "/?.so;"
                .. package.cpath
-- the module's Lua files beside it, as installed (idscheme.jit: LuaJIT's
-- FFI paths)
local here = (arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../lua/?.lua;" .. package.path
local C = require("idscheme").compressor

local RUNS, RUN_SECONDS, NSAMPLE = 5, quick and 0.03 or 0.3, 4096
local clock = os.clock
local sink = 0

local function time (name, f)
  local n, el = 1000, 0
  while true do
    local t0 = clock(); f(n); el = clock() - t0
    if el > 0.02 then break end
    n = n * 2
  end
  n = math.floor(n * RUN_SECONDS / el) + 1
  f(n)
  local t = {}
  for i = 1, RUNS do
    local t0 = clock(); f(n); t[i] = (clock() - t0) / n * 1e9
  end
  table.sort(t)
  print(string.format("%-46s %8.1f ns/op %8.2f M ops/s   (median %.1f ns)",
                      name, t[1], 1e3 / t[1], t[3]))
end

local SIDS = { "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a",
               "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b",
               "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1",
               "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7" }
local cs = {}
for k = 1, 4 do cs[k] = C.new{ session_id = SIDS[k], cluster_size = 16 } end
local locals = {}
for _ = 1, 1000 do
  for k = 1, 4 do
    for _ = 1, 20 do
      local id = cs[k]:generate_compressed_id()
      if k == 1 and id < 0 then locals[#locals + 1] = id end
    end
    cs[1]:finalize_creation_range(cs[k]:take_next_creation_range())
  end
end
local doc = cs[1]
local L, finals, uuids = {}, {}, {}
for i = 0, NSAMPLE - 1 do
  L[i] = locals[i % #locals + 1]
  finals[i] = (i * 2654435761) % 80000
  uuids[i] = doc:decompress(finals[i])
end
local blob = doc:serialize(true)
print(string.format("idscheme.compressor bench (%s; best of %d runs, median "
                    .. "in brackets)", jit and jit.version or _VERSION, RUNS))
print(string.format("document: 4 sessions, %d bytes serialized (~4,000 "
                    .. "clusters)", #blob))

local g = C.new{ session_id = SIDS[1], cluster_size = 1048576 }
g:generate_compressed_id()
g:finalize_creation_range(g:take_next_creation_range())
time("lua generate (eager finals)", function (n)
  for _ = 1, n do
    local id = g:generate_compressed_id()
    if id < 0 then g:finalize_creation_range(g:take_next_creation_range()) end
    sink = sink + id
  end
end)
time("lua normalize_to_op_space (local id)", function (n)
  for i = 1, n do sink = sink + doc:normalize_to_op_space(L[i % NSAMPLE]) end
end)
time("lua decompress (final)", function (n)
  for i = 1, n do sink = sink + #doc:decompress(finals[i % NSAMPLE]) end
end)
-- the floor of any method that returns a UUID: string.sub called as a
-- method (looked up through a metatable's __index, as decompress is),
-- returning the same 36-byte strings, interned and hashed as decompress's
local longer = {}
for i = 0, NSAMPLE - 1 do longer[i] = uuids[i] .. "." end
time("lua floor: method returning a 36-char string", function (n)
  for i = 1, n do sink = sink + #longer[i % NSAMPLE]:sub(1, 36) end
end)
time("lua recompress", function (n)
  for i = 1, n do sink = sink + doc:recompress(uuids[i % NSAMPLE]) end
end)
time("lua serialize (4,000 clusters)", function (n)
  for _ = 1, n do sink = sink + #doc:serialize(true) end
end)
time("lua deserialize (4,000 clusters)", function (n)
  for _ = 1, n do C.deserialize(blob):close() end
end)
