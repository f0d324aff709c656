-- outage.lua MODE PRIMARY FALLBACK RESPONSES ACCESSLOG UP_MS BOUND: the
-- verdict of outage.sh on every ID it saw.  FALLBACK is a scheme or "-".
-- RESPONSES: wrk's bodies (collect.lua: an ID a line, or STATUS-nnn);
-- ACCESSLOG: "pid status msec id" for every request nginx served, the
-- test's own polls included.  Checks: no ID twice (responses and log),
-- each one of exactly one of the two schemes (in its own encoding), each
-- response in the log, IDs increasing per worker and scheme, the
-- statuses MODE allows (start, fallback: 200 only in wrk's traffic;
-- nofallback: 500s too), every worker's last request served by PRIMARY,
-- and each worker's recovery (its first PRIMARY ID after its last other
-- answer, by nginx's own clock) at most BOUND seconds after UP_MS, when
-- Redis answered again.  Prints "ok - ..." or "FAIL - ..." lines for
-- outage.sh to count.
local idscheme = require "idscheme"
local mode, pname, fname, responses, accesslog =
  arg[1], arg[2], arg[3], arg[4], arg[5]
local up_ms, bound = tonumber(arg[6]), tonumber(arg[7])
local schemes = { idscheme.scheme(pname) }
if fname ~= "-" then schemes[2] = idscheme.scheme(fname) end
local ENC = { fluid = "f58_plain", uuidv7 = "uuid", ulid = "crockford" }

local problems = {}
local function problem (fmt, ...)
  problems[#problems + 1] = string.format(fmt, ...)
end
local function verdict (name)
  if #problems == 0 then
    print("ok - " .. name)
  else
    print("FAIL - " .. name)
    for i = 1, math.min(#problems, 10) do print("   " .. problems[i]) end
    if #problems > 10 then print(("   ... %d more"):format(#problems - 10)) end
  end
  problems = {}
end

-- the scheme of text (exactly one must read it), and its value
local function classify (text)
  local which, value
  for _, s in ipairs(schemes) do
    local v = s:decode(text, ENC[s.name])
    if v then
      if which then return nil, "read by both " .. which.name .. " and " .. s.name end
      which, value = s, v
    end
  end
  if not which then return nil, "read by neither scheme" end
  return which, value
end

-- wrk's responses
local seen, count, statuses, n = {}, {}, {}, 0
for line in io.lines(responses) do
  n = n + 1
  local st = line:match("^STATUS%-(%d+)$")
  if st then
    statuses[st] = (statuses[st] or 0) + 1
  elseif seen[line] then
    problem("duplicate ID in the responses: %s", line)
  else
    seen[line] = true
    local s, why = classify(line)
    if not s then problem("response %q: %s", line, why)
    else count[s.name] = (count[s.name] or 0) + 1 end
  end
end
verdict(("wrk's %d responses: unique IDs, each of one scheme"):format(n))

for st, k in pairs(statuses) do
  if not (mode == "nofallback" and st == "500") then
    problem("%d responses of status %s", k, st)
  end
end
if mode == "nofallback" and not statuses["500"] then
  problem("no 500 while the store was away")
end
verdict("statuses as documented for mode " .. mode)

if (count[pname] or 0) < 100 then
  problem("only %d %s IDs", count[pname] or 0, pname)
end
if mode == "fallback" and (count[fname] or 0) < 1 then
  problem("no %s fallback ID while the store was away", fname)
end
if mode ~= "fallback" then
  for name, k in pairs(count) do
    if name ~= pname then problem("%d IDs of %s", k, name) end
  end
end
verdict(("IDs: %d %s%s"):format(count[pname] or 0, pname,
        fname ~= "-" and (", " .. (count[fname] or 0) .. " " .. fname) or ""))

-- the access log
local inlog, last, lastline, pids, logged, fails = {}, {}, {}, {}, 0, 0
local back = {}     -- pid -> msec of its first PRIMARY ID after another answer
for line in io.lines(accesslog) do
  local pid, st, msec, id = line:match("^(%d+) (%d+) ([%d.]+) ?(%S*)$")
  msec = tonumber(msec)
  if not pid then
    problem("bad log line %q", line)
  else
    if not pids[pid] then pids[pid] = true; pids[#pids + 1] = pid end
    if st ~= "200" then
      fails = fails + 1
      if mode == "fallback" then problem("worker %s served a %s", pid, st) end
      if id ~= "" then problem("a %s with an ID: %s", st, id) end
      lastline[pid], back[pid] = st, false
    elseif id == "" then
      problem("worker %s: a 200 without an ID", pid)
    elseif inlog[id] then
      problem("duplicate ID in the log: %s", id)
    else
      logged, inlog[id] = logged + 1, true
      local s, v = classify(id)
      if not s then
        problem("logged ID %q: %s", id, v)
      else
        local key = pid .. " " .. s.name
        if last[key] and not (last[key] < v) then
          problem("worker %s: %s %s after %s, not increasing", pid, s.name,
                  id, last[key]:encode(ENC[s.name]))
        end
        last[key] = v
        if s.name ~= pname then back[pid] = false
        elseif back[pid] == false then back[pid] = msec * 1000 end
        lastline[pid] = s.name
      end
    end
  end
end
for id in pairs(seen) do
  if not inlog[id] then problem("response ID %s is not in the access log", id) end
end
verdict(("access log: %d IDs, %d failures, by %d workers; unique, " ..
         "increasing per worker and scheme"):format(logged, fails, #pids))

for _, pid in ipairs(pids) do
  if lastline[pid] ~= pname then
    problem("worker %s's last request: %s, not a %s ID", pid, lastline[pid],
            pname)
  end
end
verdict("every worker's last ID is a " .. pname .. " ID again")

local took = {}
for _, pid in ipairs(pids) do
  if not back[pid] then
    problem("worker %s never came back to %s IDs", pid, pname)
  else
    local s = (back[pid] - up_ms) / 1000
    took[#took + 1] = ("%s %.1f s"):format(pid, s)
    if s > bound then
      problem("worker %s: %s IDs again %.1f s after Redis answered, past %g s",
              pid, pname, s, bound)
    end
  end
end
verdict(("%s IDs again within %g s of Redis's return, by nginx's clock (%s)"):
        format(pname, bound, table.concat(took, ", ")))
