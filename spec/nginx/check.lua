-- check.lua SCHEME RESPONSES ACCESSLOG MIN: the nginx request-ID test's
-- verdict.  Every response ID unique and decodable, every one in the
-- access log, the log's IDs strictly increasing per worker process.
local idscheme = require "idscheme"
local name, responses, accesslog, min = arg[1], arg[2], arg[3], tonumber(arg[4])
local s = idscheme.scheme(name)
local failures = 0

local function fail (fmt, ...)
  failures = failures + 1
  if failures <= 20 then io.stderr:write(string.format(fmt, ...), "\n") end
end

local seen, n = {}, 0
for line in io.lines(responses) do
  n = n + 1
  if line:match("^STATUS%-") then
    fail("response %d: %s", n, line)
  elseif seen[line] then
    fail("duplicate ID in responses: %s", line)
  else
    seen[line] = true
    if not s:decode(line) then fail("response ID %q does not decode", line) end
  end
end
if n < min then fail("only %d responses, wanted at least %d", n, min) end

local last, logged, pids, inlog = {}, 0, 0, {}
for line in io.lines(accesslog) do
  local pid, id = line:match("^(%d+) (%S+)$")
  if not pid then
    fail("bad log line %q", line)
  else
    logged = logged + 1
    if inlog[id] then fail("duplicate ID in the log: %s", id) end
    inlog[id] = true
    local v = s:decode(id)
    if not v then
      fail("logged ID %q does not decode", id)
    else
      if last[pid] == nil then pids = pids + 1
      elseif not (last[pid] < v) then
        fail("worker %s: %s after %s, not increasing", pid, id,
             last[pid]:encode())
      end
      last[pid] = v
    end
  end
end
for id in pairs(seen) do
  if not inlog[id] then fail("response ID %s is not in the access log", id) end
end
print(string.format("%s: %d responses, %d logged by %d worker processes",
                    name, n, logged, pids))
print(string.format("%d passed, %d failed", failures == 0 and 1 or 0,
                    failures == 0 and 0 or 1))
os.exit(failures == 0 and 0 or 1)
