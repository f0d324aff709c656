#!/usr/bin/env bash
# spec/slots/restore.sh BUILDDIR redis|etcd SERVER: the store restarted
# from an older snapshot while generators run (Redis: its default
# persistence after a crash; etcd: `etcdctl snapshot restore`).  The
# snapshot predates the running holders' claims: after the restore their
# slot keys are gone and last/N is stale, so new claimants find the slots
# free at once.  Real generators (the Lua module), every ID collected:
# 0 duplicates, IDs increasing per generator and slot, because the claim
# sees that the store's history went back (Redis: a new run_id; etcd: a
# member started less than a TTL ago) and begins it again (a TTL's wait).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
store=$2 server=$3
free_ports port peer
url=$store://127.0.0.1:$port/r$$
. "$(dirname "$0")/server.sh"

# spec/slots/run.lua OUT SECONDS URL: one leased generator
run () {
  lua_bg "$(dirname "$0")/run.lua" "$1" "$2" "$url" "" "" 0.02 \
    2>>"$tmp/driver.err"
  pids="$pids $!"
}
etcdctl () {
  command etcdctl --endpoints "http://127.0.0.1:$port" --dial-timeout 5s "$@"
}
# the running server's data saved to $tmp/snapshot
snapshot () {
  if [ "$store" = redis ]; then
    [ "$(redis-cli -h 127.0.0.1 -p "$port" SAVE)" = OK ] &&
      cp "$tmp/data$gen/dump.rdb" "$tmp/snapshot"
  else
    etcdctl snapshot save "$tmp/snapshot" >"$tmp/etcdctl.log" 2>&1
  fi
}
# the snapshot made into the data directory of the next start_server
restore () {
  local dir=$tmp/data$((gen + 1))
  if [ "$store" = redis ]; then
    mkdir -p "$dir" && cp "$tmp/snapshot" "$dir/dump.rdb"
  else
    etcdctl snapshot restore "$tmp/snapshot" --data-dir "$dir" \
      --name default --initial-cluster "default=http://127.0.0.1:$peer" \
      --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
      >>"$tmp/etcdctl.log" 2>&1
  fi
}
slot_keys () {
  if [ "$store" = redis ]; then
    redis-cli -h 127.0.0.1 -p "$port" --scan --pattern "r$$/fluid/slot/*"
  else
    etcdctl get --prefix --keys-only "r$$/fluid/slot/"
  fi
}

start_server
# a history with a last limit, saved: the older snapshot
run "$tmp/w.txt" 1
wait "$!"
check "a warm-up generator made IDs" [ "$(ids "$tmp/w.txt" | wc -l)" -gt 0 ]
check "the snapshot is saved" snapshot

# four holders claim after the snapshot and run on through the crash
for i in 1 2 3 4; do run "$tmp/a$i.txt" 40; done
going () { local i; for i in 1 2 3 4; do [ "$(ids "$tmp/a$i.txt" 2>/dev/null | wc -l)" -gt 10000 ] || return 1; done; }
check "4 holders are making IDs" wait_for 60 going

# crash, and come back from the older snapshot
stop_server
check "the snapshot is restored" restore
start_server
check "the restored store lacks the holders' slot keys" [ -z "$(slot_keys)" ]
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
