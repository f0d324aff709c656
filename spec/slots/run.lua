-- spec/slots/run.lua OUT SECONDS URL [TTL_MS [TIMEOUT_MS [PAUSE_S [STOP]]]]:
-- FLUIDs from one leased generator (the Lua module) for SECONDS, or until
-- the file STOP exists (so that a test waits for what it checks rather
-- than for a time that a loaded machine may not keep), a pause (5 ms)
-- every 2048.  A refusal (a lost or lapsed lease) is counted and waited out;
-- "slot N" is written at every slot change, "refused N" at the end.
-- The slot fault tests (restore.sh, faults.sh) collect every ID it wrote.
local out, secs, url = arg[1], tonumber(arg[2]), arg[3]
local ttl, timeout = tonumber(arg[4]), tonumber(arg[5])
local pause = tonumber(arg[6]) or 0.005
local stop = arg[7]
local function stopped()
  local s = stop and io.open(stop)
  if s then s:close() end
  return s ~= nil
end
local idscheme = require "idscheme"
local g = idscheme.scheme("fluid"):generator{
  slots = url, slot_ttl_ms = ttl, slot_timeout_ms = timeout }
local f = assert(io.open(out, "w"))
local slot, refused, t0 = nil, 0, os.time()
while os.time() - t0 < secs and not stopped() do
  for _ = 1, 2048 do
    local ok, id = pcall(g.next_string, g, "dec")
    if ok then
      local s = g:slot()
      if s ~= slot then slot = s; f:write("slot ", s, "\n") end
      f:write(id, "\n")
    else
      refused = refused + 1
      os.execute("sleep 0.01")
    end
  end
  f:flush()
  os.execute("sleep " .. pause)
end
f:write("refused ", refused, "\n")
f:close()
g:close()
