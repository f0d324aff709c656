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

# spec/slots/run.lua OUT SECONDS URL: one leased generator
run () {
  lua_run "$(dirname "$0")/run.lua" "$1" "$2" "$url" 2>>"$tmp/driver.err" &
  pids="$pids $!"
}
redis () { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
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
