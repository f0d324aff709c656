#!/usr/bin/env bash
# spec/slots/etcd_cluster.sh BUILDDIR ETCD ETCDCTL: leader loss in a
# three-member etcd cluster on 127.0.0.1 (its own client and peer ports
# each, --initial-cluster), while leased holders run, each pointed at one
# member's client URL (a slot URL names one host):
#   2 Lua generators (spec/slots/run.lua) and 2 slot_driver processes per
#   member; the leader is killed (SIGKILL); a new one is elected and the
#   holders on the surviving members go on; the dead member's holders see
#   an outage and stop in time; once their leases ended in the cluster,
#   newcomers on the survivors take their slots; the old leader is
#   started again on its data dir and ports, and its holders, finding
#   their slots gone, claim others through it.
# Verdict: 0 duplicates among every ID, IDs increasing per generator and
# slot; the drivers' logs (slot_driver.c): never two holders' valid
# intervals on one slot at once, every stop before the lease could end
# (store.sh's checks).  Leases of 3 s as faults.sh, requests of up to 2 s
# (a loaded machine makes etcd slow; a slow claim is not unsafe).  Data
# under the test's mktemp directory, every process stopped by pid on exit
# (lib.sh).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
server=${2:?usage: etcd_cluster.sh BUILDDIR ETCD ETCDCTL}
etcdctl=${3:?usage: etcd_cluster.sh BUILDDIR ETCD ETCDCTL}
TTL=3000 MARGIN=300 TIMEOUT=2000
log=$tmp/drivers.log
prefix=cl$$

free_ports c1 c2 c3 p1 p2 p3
cport=(x "$c1" "$c2" "$c3") pport=(x "$p1" "$p2" "$p3") mpid=(x 0 0 0)
cluster=m1=http://127.0.0.1:$p1,m2=http://127.0.0.1:$p2,m3=http://127.0.0.1:$p3
client () { echo "http://127.0.0.1:${cport[$1]}"; }
url () { echo "etcd://127.0.0.1:${cport[$1]}/$prefix"; }

# start_member I: member mI on its ports and data dir (made on the first
# start, the member's own data on the next); its log appended to mI.log
start_member () {
  local i=$1
  "$server" --name "m$i" --data-dir "$tmp/m$i" \
    --listen-client-urls "$(client "$i")" --advertise-client-urls "$(client "$i")" \
    --listen-peer-urls "http://127.0.0.1:${pport[$i]}" \
    --initial-advertise-peer-urls "http://127.0.0.1:${pport[$i]}" \
    --initial-cluster "$cluster" --initial-cluster-token "$prefix" \
    --initial-cluster-state new >>"$tmp/m$i.log" 2>&1 &
  mpid[$i]=$!
  pids="$pids $!"
}
# member I answers and has a leader (etcd's /health)
healthy () { curl -s -m 1 "$(client "$1")/health" 2>/dev/null | grep -q true; }
# leader I...: sets $leader to the member among I... that says it leads
leader=""
leader () {
  local i
  for i in "$@"; do
    if "$etcdctl" --endpoints "$(client "$i")" --dial-timeout 1s \
         --command-timeout 2s endpoint status 2>/dev/null |
       cut -d, -f5 | grep -qx ' true'; then
      leader=$i; return 0
    fi
  done
  return 1
}
ctl () {   # ctl I ARGS...: etcdctl at member I
  local i=$1; shift
  "$etcdctl" --endpoints "$(client "$i")" --dial-timeout 2s \
    --command-timeout 5s "$@" 2>>"$tmp/etcdctl.log"
}
# the slots of namespace NS held in the cluster, as seen by member I
held () { ctl "$1" get --prefix --keys-only "$prefix/$2/slot/" | grep -c .; }

# run OUT SECONDS URL: a leased Lua generator in the background; its pid
# in $lua_pids
lua_pids=""
run () {
  lua_bg "$(dirname "$0")/run.lua" "$1" "$2" "$3" $TTL $TIMEOUT 0.1 \
    2>>"$tmp/driver.err"
  pids="$pids $!"
  lua_pids="$lua_pids $!"
}
first_slot () { grep -m1 '^slot ' "$1" | cut -d' ' -f2; }
driver_slot () { awk -v p="$1" '$1 == "C" && $2 == p { print $3; exit }' "$log"; }
now_ns () { date +%s%N; }

for i in 1 2 3; do start_member "$i"; done
check "3 members answer, a leader elected" \
  eval 'wait_for 30 healthy 1 && wait_for 30 healthy 2 && wait_for 30 healthy 3 &&
        wait_for 30 leader 1 2 3'
[ -n "$leader" ] || finish

# 2 Lua generators and 2 drivers (3 bits: 8 slots, 6 taken) per member
drivers=""
declare -A on                 # on[driver pid] = the member it talks to
for i in 1 2 3; do
  for j in a b; do
    run "$tmp/g$i$j.txt" 36 "$(url "$i")"
    drive "$log" "$(url "$i")" drv 3 0 $TTL $MARGIN $TIMEOUT
    drivers="$drivers $last_pid"; on[$last_pid]=$i
  done
done
gens=("$tmp"/g1a.txt "$tmp"/g1b.txt "$tmp"/g2a.txt "$tmp"/g2b.txt "$tmp"/g3a.txt "$tmp"/g3b.txt)
check "6 Lua generators make IDs" wait_for 60 going 1000 "${gens[@]}"
check "6 drivers claimed" wait_for 30 has_claims "$log" 6
check "6 drivers issue events" wait_for 30 issued "$log"

# -- the leader killed
leader 1 2 3
old=$leader
surv=$(echo 1 2 3 | tr ' ' '\n' | grep -vx "$old" | tr '\n' ' ')
set -- $surv; s1=$1 s2=$2
dead_gens="$tmp/g${old}a.txt $tmp/g${old}b.txt"
live_gens="$tmp/g${s1}a.txt $tmp/g${s1}b.txt $tmp/g${s2}a.txt $tmp/g${s2}b.txt"
dead_drv="" live_drv=""
for p in $drivers; do
  if [ "${on[$p]}" = "$old" ]; then dead_drv="$dead_drv $p"; else live_drv="$live_drv $p"; fi
done
dead_slots=$( { for f in $dead_gens; do first_slot "$f"; done; } | sort -n | paste -sd' ')
dead_dslots=$( { for p in $dead_drv; do driver_slot "$p"; done; } | sort -n | paste -sd' ')
echo "leader m$old killed; its holders: Lua on slots $dead_slots, drivers on $dead_dslots"
t0=$(now_ns)
{ kill -KILL "${mpid[$old]}"; wait "${mpid[$old]}"; } 2>/dev/null
leader=""
check "a new leader is elected among m$s1 and m$s2" wait_for 30 leader $s1 $s2
echo "new leader: m$leader"
# each surviving generator makes 1000 more IDs than it had
goon () { local f; for f in $live_gens; do [ "$(ids "$f" | wc -l)" -gt "$(( ${base[$f]} + 1000 ))" ] || return 1; done; }
declare -A base
for f in $live_gens; do base[$f]=$(ids "$f" | wc -l); done
check "the generators on the surviving members go on" wait_for 30 goon
t1=$(now_ns)
# each of PIDS logged a line of KIND ("I", "Z", "C") whose time (its
# field N: an interval's last event, a stop's or a claim's time) is after T
logged_after () {
  local kind=$1 n=$2 t=$3 p; shift 3
  for p in "$@"; do
    awk -v k="$kind" -v n="$n" -v p="$p" -v a="$t" 'function q(x) { return sprintf("%20s", x) }
      $1 == k && $2 == p && q($n) > q(a) { f = 1 } END { exit !f }' "$log" || return 1
  done
}
check "the drivers on the surviving members go on" \
  wait_for 30 logged_after I 6 "$t1" $live_drv
# the dead member's holders stop: a Z line each, after the kill
check "the dead member's drivers stopped" wait_for 30 logged_after Z 4 "$t0" $dead_drv

# -- their leases end in the cluster (the new leader gave every lease a
# new TTL): then newcomers on the survivors take the lowest free slots,
# theirs
check "the dead member's holders' slots are freed in the cluster" \
  wait_for 60 eval '[ "$(held $s1 fluid)" = 4 ] && [ "$(held $s1 drv)" = 4 ]'
run "$tmp/n${s1}.txt" 14 "$(url "$s1")"; run "$tmp/n${s2}.txt" 14 "$(url "$s2")"
news="$tmp/n${s1}.txt $tmp/n${s2}.txt"
new_drv=""
for i in $s1 $s2; do
  drive "$log" "$(url "$i")" drv 3 0 $TTL $MARGIN $TIMEOUT
  drivers="$drivers $last_pid"; live_drv="$live_drv $last_pid"; new_drv="$new_drv $last_pid"
done
check "newcomers on the survivors make IDs" wait_for 60 going 1000 $news
check "the newcomers took the dead member's holders' slots ($dead_slots)" \
  eval '[ "$( { for f in $news; do first_slot "$f"; done; } | sort -n | paste -sd" ")" = "$dead_slots" ]'
check "the new drivers took the dead member's drivers' slots ($dead_dslots)" \
  eval '[ "$( { for p in $new_drv; do driver_slot "$p"; done; } | sort -n | paste -sd" ")" = "$dead_dslots" ]'

# -- the old leader started again on its data dir and ports: its holders
# find their slots gone and claim others through it
t2=$(now_ns)
start_member "$old"
check "m$old is back in the cluster" wait_for 30 healthy "$old"
check "the old leader's drivers claimed other slots through it" \
  wait_for 40 logged_after C 5 "$t2" $dead_drv
"$build/idscheme" gen fluid -n 300000 -e dec -o "slots=$(url "$old")" \
  -o slot_ttl_ms=$TTL -o slot_timeout_ms=$TIMEOUT \
  >"$tmp/cli.txt" 2>>"$tmp/driver.err"
check "a command through m$old made 300,000 IDs" [ "$(ids "$tmp/cli.txt" | wc -l)" = 300000 ]
wait $lua_pids
moved () { local f; for f; do [ "$(grep -c '^slot ' "$f")" -ge 2 ] || return 1; done; }
check "the old leader's generators moved to other slots" moved $dead_gens
stop_holders $drivers

echo "refusals: $(awk '/^refused / { r += $2 } END { print r + 0 }' "${gens[@]}" $news)," \
     "driver stops: $(grep -c '^Z ' "$log"), claims: $(grep -c '^C ' "$log")"
verdict "leader loss" "${gens[@]}" $news "$tmp/cli.txt"
check "leader loss: drivers never two on one slot" intervals_ok "$log"
check "leader loss: every driver stopped before its lease could end" stops_in_time "$log"
for i in 1 2 3; do { kill -KILL "${mpid[$i]}"; wait "${mpid[$i]}"; } 2>/dev/null; done
finish
