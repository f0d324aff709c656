-- spec/lua/memory_flat.lua BUILDDIR: resident memory stays flat (the
-- reliability issue's memory part), under Lua 5.4 or LuaJIT:
--
--   ids          10 million IDs from one generator (id objects, strings,
--                batches)
--   generators   100,000 generators created and dropped (node given, one
--                in a hundred with a local slot, released by close or by
--                the collector), across built-in and scripted schemes
--
-- Each loop runs a warm-up first (the heap and the allocator reach their
-- working size), then resident memory (/proc/self/statm) is read after a
-- full collection before and after the measured part; more than LIMIT_KB
-- of growth is a failure.  A plain script, not a busted spec: it has to
-- own the whole process to read its memory, and it would take hours under
-- valgrind (scripts/valgrind.sh runs the specs).  Ends "N passed, N
-- failed".

local build = assert(arg[1], "usage: memory_flat.lua BUILDDIR")
local root = arg[0]:match("^(.*)/spec/lua/[^/]*$") or "."
local subdir = jit and "luajit" or "lua54"
package.cpath = build .. "/" .. subdir .. "/?.so"
package.path = root .. "/?.lua;" .. root .. "/lua/?.lua;" .. root ..
               "/lua/?/init.lua;" .. package.path

local idscheme = require "idscheme"

local LIMIT_KB = 4096
local SCALE = tonumber(os.getenv("IDS_TEST_SCALE") or "") or 1
local passed, failed = 0, 0

local function pagekb ()
  local p = io.popen("getconf PAGESIZE")
  local n = tonumber(p:read("*l"))
  p:close()
  return n / 1024
end
local PAGEKB = pagekb()

-- Resident kB after a full collection (twice: finalizers run in the first).
local function rss ()
  collectgarbage("collect")
  collectgarbage("collect")
  local f = assert(io.open("/proc/self/statm"))
  local line = f:read("*l")
  f:close()
  local res = tonumber(line:match("^%d+%s+(%d+)"))
  return res * PAGEKB
end

-- Runs body(n) for a warm-up of `warm`, then for `n`, and checks growth.
local function flat (name, warm, n, body)
  local t0 = os.clock()
  body(warm)
  local before = rss()
  body(n)
  local after = rss()
  local grew = after - before
  local ok = grew <= LIMIT_KB
  if ok then passed = passed + 1 else failed = failed + 1 end
  print(string.format("%s %s: %d, resident %d kB -> %d kB (%+d kB, limit "
                      .. "%d), %.1f s", ok and "ok  " or "FAIL", name, n,
                      before, after, grew, LIMIT_KB, os.clock() - t0))
end

-- Ten million IDs of one generator, in the binding's three ways.
local snow = idscheme.scheme("snowflake")
local g = snow:generator{ worker = 1, shard = 2 }
local last = g:next()
flat("ids", math.floor(1e6 * SCALE), math.floor(1e7 * SCALE), function (n)
  local i = 0
  while i < n do
    local k = i % 3
    if k == 0 then
      local id = g:next()
      assert(last < id)
      last = id
      i = i + 1
    elseif k == 1 then
      assert(#g:next_string() > 0)
      i = i + 1
    else
      local b = g:next_batch(64)
      assert(#b == 64)
      i = i + 64
    end
  end
end)

-- A hundred thousand generators, each making one ID and dropped.
local slotdir = os.tmpname()
os.remove(slotdir)
assert(os.execute("mkdir -p '" .. slotdir .. "'"))
local kinds = {
  { "fluid", { generator = 5 } },
  { "snowflake", { worker = 3, shard = 4 } },
  { "siq", { shard = 9, domain_name = "example.com" } },
  { "kuid96", { node = 77 } },
  { "flax", {} },
  { "twitter", { worker = 12 } },
  { "uuidv7", {} },
  { "ksuid", {} },
}
for _, k in ipairs(kinds) do k[1] = idscheme.scheme(k[1]) end
local fluid, leased = idscheme.scheme("fluid"), { slots = "local:" .. slotdir }
flat("generators", math.floor(10000 * SCALE), math.floor(100000 * SCALE),
     function (n)
  for i = 1, n do
    if i % 100 == 0 then       -- a slot: released by close, or by __gc
      local gl = fluid:generator(leased)
      assert(gl:next())
      if i % 200 == 0 then gl:close() end
    else
      local k = kinds[i % #kinds + 1]
      assert(k[1]:generator(k[2]):next())
    end
  end
end)
os.execute("rm -rf '" .. slotdir .. "'")

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and passed > 0 and 0 or 1)
