#!/usr/bin/env bash
# spec/slots/restore.sh BUILDDIR SERVER: a Redis restarted from an older
# snapshot (its default persistence after a crash) while generators run.
# The snapshot predates the running holders' claims: after the restore
# their slot keys are gone and last/N is stale, so new claimants find the
# slots free at once.  Real generators (the Lua module), every ID
# collected: 0 duplicates, IDs increasing per generator and slot, because
# the claim sees a new run_id and begins the history again (a TTL's wait).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
store=redis server=$2
port=$(free_port)
url=redis://127.0.0.1:$port/r$$
. "$(dirname "$0")/server.sh"

# run.lua OUT SECONDS: FLUIDs from a leased generator for SECONDS, a
# short pause every 2048; refusals (a lost lease) are counted and waited
# out; prints "slot N" at each slot change
cat >"$tmp/run.lua" <<'LUA'
local out, secs, url = arg[1], tonumber(arg[2]), arg[3]
local idscheme = require "idscheme"
local g = idscheme.scheme("fluid"):generator{ slots = url }
local f = assert(io.open(out, "w"))
local slot, refused, t0 = nil, 0, os.time()
while os.time() - t0 < secs do
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
  os.execute("sleep 0.005")
end
f:write("refused ", refused, "\n")
f:close()
g:close()
LUA
run () {
  lua_run "$tmp/run.lua" "$@" "$url" 2>>"$tmp/driver.err" &
  pids="$pids $!"
}
redis () { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
ids () { grep -hv -e '^slot ' -e '^refused ' "$@"; }
# per file, per slot run: each ID above the one before
increasing () {
  local f
  for f in "$@"; do
    # as strings ("" forces it: awk compares numeric text as doubles,
    # which do not hold 19 digits), longer being larger
    awk '/^slot / { last = ""; next } /^refused / { next }
         { id = $0 ""
           if (last != "" && (length(id) < length(last) ||
               (length(id) == length(last) && id <= last))) exit 1
           last = id }' "$f" || { echo "not increasing: $f"; return 1; }
  done
}

start_server
# a history with a last limit, saved: the older snapshot
run "$tmp/w.txt" 1
wait "$!"
check "a warm-up generator made IDs" [ "$(ids "$tmp/w.txt" | wc -l)" -gt 0 ]
check "the snapshot is saved" [ "$(redis SAVE)" = OK ]
cp "$tmp/data$gen/dump.rdb" "$tmp/snapshot.rdb"

# four holders claim after the snapshot and run on through the crash
for i in 1 2 3 4; do run "$tmp/a$i.txt" 40; done
going () { local i; for i in 1 2 3 4; do [ "$(ids "$tmp/a$i.txt" 2>/dev/null | wc -l)" -gt 10000 ] || return 1; done; }
check "4 holders are making IDs" wait_for 60 going

# crash, and come back from the older snapshot
stop_server
mkdir -p "$tmp/data$((gen + 1))"
cp "$tmp/snapshot.rdb" "$tmp/data$((gen + 1))/dump.rdb"
start_server
check "the restored store lacks the holders' slot keys" \
  [ -z "$(redis --scan --pattern "r$$/fluid/slot/*")" ]
# new claimants find the slots free at once, while the old holders run
for i in 1 2 3 4; do run "$tmp/b$i.txt" 25; done
wait $(jobs -p | grep -v "^$srv_pid\$")
check "the new claimants took the old holders' slots" \
  grep -q '^slot 0$' "$tmp"/b*.txt
n=$(ids "$tmp"/w.txt "$tmp"/a*.txt "$tmp"/b*.txt | wc -l)
d=$(ids "$tmp"/w.txt "$tmp"/a*.txt "$tmp"/b*.txt | sort | uniq -d | wc -l)
echo "restored from an older snapshot: $n IDs from 9 generators, $d duplicates"
check "new claimants made IDs" [ "$(ids "$tmp"/b*.txt | wc -l)" -gt 0 ]
check "no duplicate across the restore" [ "$d" = 0 ]
check "IDs increase per generator and slot" increasing "$tmp"/a*.txt "$tmp"/b*.txt
stop_server
finish
