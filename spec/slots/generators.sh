#!/usr/bin/env bash
# spec/slots/generators.sh BUILDDIR [redis|etcd SERVER]: generators that
# take their node values from slots, every ID collected and checked.
#   local (no store): 16 Lua processes x 200,000 FLUIDs and 8 concurrent
#   `idscheme gen fluid` runs with no node given, 4 of snowflake; no
#   duplicate.  With a store: 8 Lua processes making FLUIDs through a
#   lease while the server is stopped for 1 s (less than the safe window):
#   no error, no duplicate, distinct slots.
. "$(dirname "$0")/lib.sh"
lua=${LUA:-lua5.4}
cli=$build/idscheme
export LUA_CPATH="$build/lua54/?.so;;"
export IDSCHEME_SLOT_DIR=$tmp/slots      # this test's own slot space

# gen_lua OUT SCHEME COUNT [SLOTS [ROUNDS]]: COUNT IDs (dec) per round, a
# 50 ms pause between rounds; prints "slot N" first
cat >"$tmp/gen.lua" <<'LUA'
local out, name, n, slots, rounds = arg[1], arg[2], tonumber(arg[3]),
                                    arg[4], tonumber(arg[5] or 1)
local idscheme = require "idscheme"
-- a claim that fails (a store slow to answer on a loaded machine: each
-- request has 2 s) is tried again for up to a minute, said on stdout:
-- slow is no failure here, a duplicate or a refused ID is
local ok, g, t0 = false, nil, os.time()
repeat
  ok, g = pcall(idscheme.scheme(name).generator, idscheme.scheme(name),
                slots and slots ~= "" and { slots = slots } or nil)
  if not ok then
    print("claim again: " .. tostring(g))
    os.execute("sleep 0.5")
  end
until ok or os.time() - t0 > 60
if not ok then error(g, 0) end
local f = assert(io.open(out, "w"))
f:write("slot ", (g:slot()), "\n")
for r = 1, rounds do
  for i = 1, n do f:write(g:next_string("dec"), "\n") end
  if r < rounds then os.execute("sleep 0.05") end
end
f:close()
g:close()
LUA
gen_lua () {
  lua_run "$tmp/gen.lua" "$@" 2>>"$tmp/driver.err" &
  pids="$pids $!"
}

# dups FILES...: how many ID lines occur more than once
dups () { cat "$@" | grep -v '^slot ' | sort | uniq -d | wc -l; }
lines () { cat "$@" | grep -vc '^slot '; }
slots_distinct () {
  [ "$(cat "$@" | grep '^slot ' | sort -u | wc -l)" = "$#" ]
}

if [ $# -lt 2 ]; then
  for i in $(seq 16); do gen_lua "$tmp/l$i.txt" fluid 200000; done
  wait
  check "16 processes wrote 3,200,000 FLUIDs" [ "$(lines "$tmp"/l*.txt)" = 3200000 ]
  check "16 processes: distinct slots" slots_distinct "$tmp"/l*.txt
  check "16 processes: no duplicate" [ "$(dups "$tmp"/l*.txt)" = 0 ]
  for i in $(seq 8); do
    "$cli" gen fluid -n 200000 -e dec >"$tmp/c$i.txt" 2>>"$tmp/driver.err" &
  done
  wait
  check "8 idscheme runs wrote 1,600,000 FLUIDs" [ "$(lines "$tmp"/c*.txt)" = 1600000 ]
  check "8 idscheme runs: no duplicate" [ "$(dups "$tmp"/c*.txt)" = 0 ]
  for i in $(seq 4); do
    "$cli" gen snowflake -n 100000 >"$tmp/s$i.txt" 2>>"$tmp/driver.err" &
  done
  wait
  check "4 snowflake runs: no duplicate" [ "$(dups "$tmp"/s*.txt)" = 0 ]
  out=$("$cli" gen fluid -n 1 -o slots=none 2>&1); rc=$?
  check "slots=none without a generator id is a usage error" [ $rc = 2 ]
  check "it names the node field" grep -q "generator" <<<"$out"
  finish
fi

store=$2 server=$3
free_ports port peer
url=$store://127.0.0.1:$port/g$$
. "$(dirname "$0")/server.sh"
start_server
for i in $(seq 8); do gen_lua "$tmp/r$i.txt" fluid 2000 "$url" 60; done
# a store new to the namespace makes first holders wait one TTL (the
# handover floor): stop the server once every generator is making IDs
all_going () {
  local f
  for f in "$tmp"/r*.txt; do [ "$(wc -l <"$f")" -gt 4000 ] || return 1; done
}
check "8 leased generators are making IDs" wait_for 30 all_going
kill -STOP "$srv_pid"; sleep 1; kill -CONT "$srv_pid"
check "they were still making IDs after the outage" \
  [ "$(lines "$tmp"/r*.txt)" -lt 960000 ]
wait $(jobs -p | grep -v "^$srv_pid\$")
check "no generator failed through a 1 s outage" [ ! -s "$tmp/driver.err" ] ||
  { head -5 "$tmp/driver.err"; false; }
check "8 leased generators wrote 960,000 FLUIDs" [ "$(lines "$tmp"/r*.txt)" = 960000 ]
check "8 leased generators: distinct slots" slots_distinct "$tmp"/r*.txt
check "8 leased generators: no duplicate" [ "$(dups "$tmp"/r*.txt)" = 0 ]
out=$(lua_run "$(dirname "$0")/handover.lua" "$store://127.0.0.1:$port/h$$" 2>&1); rc=$?
echo "$out" | tail -1
check "a clean close: the successor's floor is what was issued" [ $rc = 0 ]
stop_server
finish
