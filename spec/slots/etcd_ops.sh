#!/usr/bin/env bash
# spec/slots/etcd_ops.sh BUILDDIR ETCD ETCDCTL: an etcd's operations while
# leased generators run (spec/slots/run.lua, the Lua module, and the
# command), every ID collected; after each: 0 duplicates, IDs increasing
# per generator and slot.  Leases of 3 s, as faults.sh, but requests may
# take 2 s (the default timeout): a loaded machine makes etcd slow, and a
# claim that times out is slow, not unsafe:
#   compaction   `etcdctl compact REV --physical` at the newest revision
#                and `etcdctl defrag`, again and again for 10 s
#   SIGTERM      the member stopped cleanly and started again on the same
#                data dir and ports after a short outage; holders go on,
#                newcomers claim after it
#   SIGKILL      the member killed and started again the same way after
#                an outage past the TTL (every holder stops; the leases,
#                kept on disk, are renewed again, rule 4)
# One member on 127.0.0.1, its data under the test's mktemp directory,
# every process stopped by pid on exit (lib.sh).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
store=etcd
server=${2:?usage: etcd_ops.sh BUILDDIR ETCD ETCDCTL}
etcdctl=${3:?usage: etcd_ops.sh BUILDDIR ETCD ETCDCTL}
free_ports port peer
. "$(dirname "$0")/server.sh"
ttl=3000 timeout=2000
pause=4.5                     # past the TTL (etcd's is whole seconds)

# run OUT SECONDS URL: a leased Lua generator in the background
run () { lua_gen "$1" "$2" "$3" $ttl $timeout 0.04; }
others () { jobs -p | grep -v "^$srv_pid\$"; }
ctl () {
  "$etcdctl" --endpoints "http://127.0.0.1:$port" --dial-timeout 2s \
    --command-timeout 10s "$@" >>"$tmp/etcdctl.log" 2>&1
}
revision () {
  "$etcdctl" --endpoints "http://127.0.0.1:$port" --dial-timeout 2s \
    endpoint status -w json 2>>"$tmp/etcdctl.log" |
    grep -o '"revision":[0-9]*' | cut -d: -f2
}
# the server's pid has exited (a zombie of ours until waited for)
exited () { ! [ -e "/proc/$1" ] || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]; }
# restart SIGNAL OUTAGE_S: the member stopped by SIGNAL (SIGKILL if it has
# not exited after 20 s), down OUTAGE_S more, then started again on the
# same data dir and ports (start_server on the same $gen); its earlier log
# kept beside
restart () {
  kill -"$1" "$srv_pid"
  { wait_for 20 exited "$srv_pid" ||
      { echo "etcd ignored SIG$1 for 20 s"; kill -KILL "$srv_pid"; }
    wait "$srv_pid"; } 2>/dev/null
  sleep "$2"
  cp "$srv_log" "$srv_log.before-$1"
  gen=$((gen - 1))
  start_server
}
# slot changes (a "slot N" line each; the first is the claim) and IDs
# refused (a lapsed lease: the "refused N" line at the end) of FILES
moves () {
  awk '/^slot / { n[FILENAME]++ } /^refused / { r += $2 }
       END { for (f in n) m += n[f] - 1; printf "%d slot changes, %d refusals\n", m, r }' "$@"
}

start_server

# -- compaction and defragmentation, again and again, under the leases
u=etcd://127.0.0.1:$port/compact$$
for i in 1 2 3 4; do run "$tmp/c$i.txt" 18 "$u"; done
check "compaction: 4 holders make IDs" \
  wait_for 60 going 1000 "$tmp/c1.txt" "$tmp/c2.txt" "$tmp/c3.txt" "$tmp/c4.txt"
cli_gen "$tmp/c5.txt" 300000 "$u"
first=$(revision)
compacted=0 defragged=0
end=$((SECONDS + 10))
while [ $SECONDS -lt $end ]; do
  rev=$(revision)
  [ -n "$rev" ] && ctl compact "$rev" --physical && compacted=$((compacted + 1))
  ctl defrag && defragged=$((defragged + 1))
  sleep 0.2
done
echo "compaction: $compacted compactions and $defragged defragmentations from revision $first to ${rev:-?}"
check "compaction: etcdctl compacted at least once" [ "$compacted" -gt 0 ]
check "compaction: etcdctl defragmented at least once" [ "$defragged" -gt 0 ]
check "compaction: the history before it is gone" \
  eval '! ctl get x --rev="$first" && grep -q "required revision has been compacted" "$tmp/etcdctl.log"'
wait $(others)
check "compaction: a command made 300,000 IDs meanwhile" \
  [ "$(ids "$tmp/c5.txt" | wc -l)" = 300000 ]
echo "compaction: $(moves "$tmp"/c[1234].txt)"
verdict "compaction" "$tmp"/c*.txt

# -- the member stopped (SIGTERM, then SIGKILL) and started again on the
# same data dir and ports while holders run; newcomers claim after it
# (they wait one TTL: a member that just started may have come back from
# older data, rule 7)
phase () {   # phase NAME SIGNAL OUTAGE_S PREFIX
  local name=$1 sig=$2 down=$3 u=etcd://127.0.0.1:$port/$4$$ before
  for i in 1 2 3; do run "$tmp/$4$i.txt" 16 "$u"; done
  check "$name: 3 holders make IDs" \
    wait_for 60 going 1000 "$tmp/${4}1.txt" "$tmp/${4}2.txt" "$tmp/${4}3.txt"
  before=$(ids "$tmp/$4"[123].txt | wc -l)
  restart "$sig" "$down"
  for i in 4 5; do run "$tmp/$4$i.txt" 8 "$u"; done
  cli_gen "$tmp/${4}6.txt" 300000 "$u"
  wait $(others)
  check "$name: the holders made IDs after the restart" \
    [ "$(ids "$tmp/$4"[123].txt | wc -l)" -gt "$before" ]
  check "$name: newcomers made IDs" going 0 "$tmp/${4}4.txt" "$tmp/${4}5.txt"
  check "$name: a command after it made 300,000 IDs" \
    [ "$(ids "$tmp/${4}6.txt" | wc -l)" = 300000 ]
  echo "$name: $(moves "$tmp/$4"[12345].txt)"
  verdict "$name" "$tmp/$4"*.txt
}
phase "SIGTERM restart" TERM 1 term
phase "SIGKILL restart" KILL $pause kill

stop_server
finish
