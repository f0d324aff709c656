-- bench_lua.lua: the Lua 5.4 module's hot calls, in ns/op and ids/s.
--
--   lua5.4 bench/bench_lua.lua <builddir> [--quick]
--
-- Loads <builddir>/lua54/idscheme.so.  Timed with os.clock (CPU time,
-- right for a single-threaded loop that never sleeps); each case is
-- calibrated to about 0.3 s a run, warmed up, then run 5 times; the line
-- gives the best run and, in brackets, the median.  Every figure includes
-- the Lua loop and the method lookup, as a caller pays them.

local builddir = arg[1] or "build"
local quick = arg[2] == "--quick"
package.cpath = builddir .. "/lua54/?.so;" .. package.cpath
local idscheme = require "idscheme"

local RUNS = 5
local RUN_SECONDS = quick and 0.03 or 0.3
local NGENS = 64                       -- far from the 1024/ms cap
local NVALS = 1024
local clock = os.clock

local s = idscheme.scheme("fluid")
local gens = {}
for i = 1, NGENS do gens[i] = s:generator{generator = i - 1} end

local sink                              -- keeps results alive

-- f(n) does n operations.  Returns ns/op of the best and median runs.
local function measure(name, f)
  local n = 1000
  local el
  while true do
    local t0 = clock()
    f(n)
    el = clock() - t0
    if el >= 0.02 then break end
    n = n * 2
  end
  n = math.floor(n * RUN_SECONDS / el) + 1
  f(n)                                  -- warm-up
  local t = {}
  for r = 1, RUNS do
    collectgarbage("step", 0)
    local t0 = clock()
    f(n)
    t[r] = (clock() - t0) / n * 1e9
  end
  table.sort(t)
  io.write(string.format("%-46s %8.1f ns/op %8.2f M ids/s   (median %.1f ns)\n",
                         name, t[1], 1e3 / t[1], t[(RUNS + 1) // 2]))
  io.stdout:flush()
end

-- realistic values: ids from several generators
local ids, f58, dec, words, emoji, dothex, hex = {}, {}, {}, {}, {}, {}, {}
for i = 1, NVALS do
  local id = gens[(i - 1) % NGENS + 1]:next()
  ids[i] = id
  f58[i] = id:encode()
  dec[i] = id:encode("dec")
  hex[i] = id:encode("hex")
  dothex[i] = id:encode("dothex")
  words[i] = id:encode("words")
  emoji[i] = id:encode("emoji")
end

io.write(string.format("idscheme %s bench (%s; best of %d runs, median in brackets)\n",
                       idscheme._VERSION, _VERSION, RUNS))

-- ------------------------------------------------------ floors
measure("  floor: empty loop", function(n)
  local x = 0
  for i = 1, n do x = x + (i & 63) end
  sink = x
end)

measure("  floor: C function call (rawequal)", function(n)
  local re, a = rawequal, gens[1]
  local x = 0
  for i = 1, n do if re(a, a) then x = x + 1 end end
  sink = x
end)

-- ---------------------------------------- generation, 64 generators
measure("g:next_string() (64 generators round-robin)", function(n)
  local g = gens
  local x
  for i = 1, n do x = g[(i & 63) + 1]:next_string() end
  sink = x
end)

measure("g:next() (64 generators round-robin)", function(n)
  local g = gens
  local x
  for i = 1, n do x = g[(i & 63) + 1]:next() end
  sink = x
end)

measure("g:next_string('dec') (64 generators)", function(n)
  local g = gens
  local x
  for i = 1, n do x = g[(i & 63) + 1]:next_string("dec") end
  sink = x
end)

-- ------------------------------------------------------- codecs
measure("s:decode(text, 'f58')", function(n)
  local t = f58
  local x
  for i = 1, n do x = s:decode(t[(i & 1023) + 1], "f58") end
  sink = x
end)

measure("s:decode(text) (f58, RFC 19 detection)", function(n)
  local t = f58
  local x
  for i = 1, n do x = s:decode(t[(i & 1023) + 1]) end
  sink = x
end)

for _, case in ipairs{{"dec", dec}, {"hex", hex}, {"dothex", dothex},
                      {"words", words}, {"emoji", emoji}} do
  local name, t = case[1], case[2]
  measure("s:decode(text) (" .. name .. ", detection)", function(n)
    local x
    for i = 1, n do x = s:decode(t[(i & 1023) + 1]) end
    sink = x
  end)
end

measure("id:encode() (f58)", function(n)
  local t = ids
  local x
  for i = 1, n do x = t[(i & 1023) + 1]:encode() end
  sink = x
end)

for _, enc in ipairs{"dec", "words", "emoji"} do
  measure("id:encode('" .. enc .. "')", function(n)
    local t = ids
    local x
    for i = 1, n do x = t[(i & 1023) + 1]:encode(enc) end
    sink = x
  end)
end

-- ------------------------------------ one generator, sustained
-- The rate is measured on the generator's own clock: ids counted over
-- whole milliseconds, from the first id of one tick to the first id of a
-- later one (read with id:fields(), outside the timed loop).  os.clock
-- (CPU time) only decides when to stop; "on CPU" is CPU time / wall time,
-- below 100% when other load on the machine took the core.
local function tick(g) return g:next():fields().timestamp end

local function sustained(name, secs, call)
  local g = s:generator{generator = 1000}
  local c0 = clock()
  while clock() - c0 < 0.1 do call(g) end             -- warm-up
  local rates, cpu = {}, 0
  for r = 1, RUNS do
    local t0 = tick(g)
    local t
    repeat t = tick(g) until t ~= t0
    t0 = t                             -- the first id of tick t0
    local n = 1
    c0 = clock()
    repeat
      for _ = 1, 1024 do call(g) end
      n = n + 1024
    until clock() - c0 >= secs / RUNS
    local x, y = tick(g), nil
    n = n + 1
    while true do
      y = tick(g)
      if y ~= x then break end
      n = n + 1
    end
    local c1 = clock()
    rates[r] = n / (y - t0) * 1e3      -- ids over the ms [t0, y)
    cpu = cpu + (c1 - c0) / ((y - t0) / 1e3)
  end
  table.sort(rates, function(a, b) return a > b end)
  local best, med = rates[1], rates[(RUNS + 1) // 2]
  io.write(string.format("%-46s %8.1f ns/op %8.3f M ids/s   %.2f%% of RFC cap 1,024,000/s (median %.2f%%); on CPU %.0f%%\n",
                         string.format(name, RUNS, secs / RUNS), 1e9 / best, best / 1e6, 100 * best / 1024000,
                         100 * med / 1024000, 100 * cpu / RUNS))
  io.stdout:flush()
end

sustained("g:next_string() sustained (1 gen, %dx%.2g s)", quick and 0.2 or 1.0,
          function(g) return g:next_string() end)
sustained("g:next() sustained (1 gen, %dx%.2g s)", quick and 0.2 or 1.0,
          function(g) return g:next() end)
