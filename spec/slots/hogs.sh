#!/usr/bin/env bash
# spec/slots/hogs.sh BUILDDIR REDIS ETCD: short leases on a starved
# machine.  Two CPU hogs (`sh -c 'while :; do :; done'`) run beside a
# Redis and an etcd on 127.0.0.1 and their holders for about 20 s:
#   redis  TTL 1000 ms (margin 100, timeout 500), etcd TTL 2000 ms (margin
#          200, timeout 2000: etcd's fsyncs are slow on a starved machine;
#          etcd keeps a lease at least 2 s anyway)
#   each   3 Lua generators (spec/slots/run.lua) and one `idscheme gen`
#          on FLUID's slots; 5 slot_driver processes on a 2-bit namespace
#          (4 slots), each trying to claim until stopped: the one left
#          over takes at once a slot whose lease lapsed for want of CPU
# A holder starved past its safe window must stop before its lease could
# end on the server, or go on if its renewals kept up; never two on one
# slot.  Nothing here asserts speed (how many IDs, how many renewals kept
# up): only safety.  Verdict per store: 0 duplicates, IDs increasing per
# generator and slot; in the drivers' logs no two holders' valid
# intervals of one slot overlap and every stop came before the lease's
# end (store.sh's checks).  Every process, the hogs too, is stopped by pid
# on exit (lib.sh).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
redis=${2:?usage: hogs.sh BUILDDIR REDIS ETCD}
etcd=${3:?usage: hogs.sh BUILDDIR REDIS ETCD}
secs=20
declare -A ttl=([redis]=1000 [etcd]=2000) margin=([redis]=100 [etcd]=200) \
           timeout=([redis]=500 [etcd]=2000)
. "$(dirname "$0")/server.sh"

# the hogs first: the claims are made on a starved machine too
hogs=""
for i in 1 2; do
  sh -c 'while :; do :; done' &
  pids="$pids $!"
  hogs="$hogs $!"
done

declare -A url srv
free_ports rport eport epeer
store=redis server=$redis port=$rport; start_server; srv[redis]=$srv_pid
store=etcd server=$etcd port=$eport peer=$epeer; start_server; srv[etcd]=$srv_pid
url[redis]=redis://127.0.0.1:$rport/hogs$$
url[etcd]=etcd://127.0.0.1:$eport/hogs$$

# run OUT SECONDS STORE: a leased Lua generator in the background
lua_pids=""
run () {
  lua_bg "$(dirname "$0")/run.lua" "$1" "$2" "${url[$3]}" "${ttl[$3]}" \
    "${timeout[$3]}" 0.04 2>>"$tmp/driver.err"
  pids="$pids $!"
  lua_pids="$lua_pids $!"
}
drivers=""
for s in redis etcd; do
  for i in 1 2 3; do run "$tmp/$s$i.txt" $secs $s; done
  # 5 drivers on the 4 slots, each trying to claim until it is stopped:
  # the one left over takes the first slot that another let lapse
  for i in 1 2 3 4 5; do
    drive "$tmp/$s.log" "${url[$s]}" drv 2 0 "${ttl[$s]}" "${margin[$s]}" \
      "${timeout[$s]}" 0 600000
    drivers="$drivers $last_pid"
  done
done
sleep $((secs / 2))
for s in redis etcd; do
  "$build/idscheme" gen fluid -n 200000 -e dec -o "slots=${url[$s]}" \
    -o slot_ttl_ms="${ttl[$s]}" -o slot_timeout_ms="${timeout[$s]}" \
    >"$tmp/${s}4.txt" 2>>"$tmp/driver.err" &
  pids="$pids $!"
  lua_pids="$lua_pids $!"
done
wait $lua_pids
stop_holders $drivers
for p in $hogs; do { kill -KILL "$p"; wait "$p"; } 2>/dev/null; done

for s in redis etcd; do
  # a Lua generator whose claim failed (a timeout: slow, not unsafe)
  # wrote no file
  files=$(ls "$tmp/$s"[1-4].txt 2>/dev/null)
  echo "$s: $(for f in $files; do [ -s "$f" ] && echo; done | wc -l) of 4 generators claimed a slot," \
       "$(awk '/^slot / { n++ } END { print n + 0 }' $files) claims," \
       "$(awk '/^refused / { r += $2 } END { print r + 0 }' $files) refusals;" \
       "drivers: $(grep -c '^C ' "$tmp/$s.log") claims," \
       "$(grep -c '^Z ' "$tmp/$s.log") stops," \
       "$(awk '$1 == "I" { k = $2 " " $3 " " $4 " " $5; if (!(k in n) || $7 > n[k]) n[k] = $7 }
              END { for (k in n) t += n[k]; print t + 0 }' "$tmp/$s.log") valid events"
  verdict "$s, hogs beside" $files
  check "$s, hogs beside: drivers never two on one slot" intervals_ok "$tmp/$s.log"
  check "$s, hogs beside: every driver stopped before its lease could end" \
    stops_in_time "$tmp/$s.log"
done
{ kill -KILL "${srv[redis]}" "${srv[etcd]}"; wait "${srv[redis]}" "${srv[etcd]}"; } 2>/dev/null
finish
