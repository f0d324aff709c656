#!/usr/bin/env bash
# spec/slots/promote.sh BUILDDIR REDIS_SERVER: a Redis replica promoted
# after a partition cut replication, the holders moved to it (issue 36).
#   primary   a redis-server; its replica replicates through a TCP relay
#             (spec/c/relay.c), the link the test cuts
#   front     every holder reaches Redis through a second relay, first to
#             the primary: the address a failover moves (as a virtual IP
#             or a proxy that Sentinel re-points would)
# 4 Lua generators (spec/slots/run.lua, the Lua module) and 3 slot_driver
# processes (leases of 2 s) claim through the front once the replica is
# up; their slot keys reach the replica.  Then the link is stopped
# (SIGSTOP: replication stops; a key set on the primary then never
# arrives), and while it is cut the holders renew on the primary alone,
# a driver leaves (its slot released) and a new one takes its slot, two
# Lua newcomers claim: slots change hands that the replica never hears
# of.  Then the failover: the link is killed, the replica promoted
# (REPLICAOF NO ONE), the front relay killed and started again on its
# port to the replica, the old primary killed (fenced).  Every connection
# breaks, and the holders reach the promoted replica, whose slot keys and
# last/N records are the ones from before the cut; two more Lua newcomers
# and a driver claim at once.  Two rounds, each on new servers:
#   long    the cut lasts 5 s, past the TTL: the replica's copies of the
#           slot keys have expired, every holder claims again
#   short   the cut lasts 1 s: the replica still holds the slot keys of
#           before the cut (the leaver's too), the holders whose token
#           they carry renew them (rule 4), the others claim again
# Verdict per round: 0 duplicates, IDs increasing per generator and slot;
# in the drivers' log no two valid intervals of one slot overlap (before
# and after the failover: one namespace), every stop before its lease
# could end; the claims on the promoted replica began the history again
# (its runid record is its own run_id, not the primary's it replicated).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
export LC_ALL=C          # the verdict sorts millions of digit lines: bytes
store=redis
server=${2:?usage: promote.sh BUILDDIR REDIS_SERVER}
. "$(dirname "$0")/server.sh"
ttl=2000 margin=200 timeout=1000

# run OUT SECONDS: a leased Lua generator through the front ($url)
run () { lua_gen "$1" "$2" "$url" $ttl $timeout 0.04; }
# relay LISTEN TARGET: a relay (spec/c/relay.c) in the background, once
# it listens; its pid in $last
relays=0
relay () {
  relays=$((relays + 1))
  "$build/relay" "$1" "$2" >"$tmp/relay$relays.out" 2>>"$tmp/driver.err" &
  last=$!
  pids="$pids $last"
  wait_for 10 grep -qs ready "$tmp/relay$relays.out" ||
    { bad "relay $1 -> $2 listens"; finish; }
}
rcli () { local p=$1; shift; redis-cli -h 127.0.0.1 -p "$p" "$@"; }
info () { rcli "$1" INFO "$2" | tr -d '\r' | awk -F: -v k="$3" '$1 == k { print $2 }'; }
slot_keys () { rcli "$1" --scan --pattern "$2$$/*/slot/*" | wc -l; }
# first_slot LOG PID: the slot of the driver's first claim
first_slot () { awk -v p="$2" '$1 == "C" && $2 == p { print $3; exit }' "$1"; }
moves () {
  awk '/^slot / { n[FILENAME]++ } /^refused / { r += $2 }
       END { for (f in n) m += n[f] - 1; printf "%d slot changes, %d refusals", m, r }' "$@"
}

# round NAME CUT_S: servers, holders, the cut, the failover, the verdict
round () {
  local k=$1 secs=$2 pport rport lport fport primary replica link front
  local leaver lslot cut after fresh t_move i
  local log=$tmp/$1.log
  free_ports pport rport lport fport
  url=redis://127.0.0.1:$fport/$k$$
  lua_pids=""
  # a replica's first sync at once (not after diskless sync's 5 s delay)
  port=$pport; start_server --repl-diskless-sync-delay 0; primary=$srv_pid
  relay "$lport" "$pport"; link=$last
  port=$rport; start_server --replicaof 127.0.0.1 "$lport"; replica=$srv_pid
  relay "$fport" "$pport"; front=$last
  check "$k: the replica is linked through the relay" \
    wait_for 20 eval '[ "$(info $rport replication master_link_status)" = up ]'

  # started 70 ms apart, over a renewal interval (TTL/3), as in loss.sh
  holders=""
  for i in 1 2 3 4; do
    run "$tmp/$k-h$i.txt" 120     # until lua_stop
    sleep 0.07
    [ $i = 4 ] && break
    drive "$log" "$url" drv 3 0 $ttl $margin $timeout
    holders="$holders $last_pid"
    sleep 0.07
  done
  check "$k: 4 holders make IDs through the front" wait_for 30 going 1000 \
    "$tmp/$k-h1.txt" "$tmp/$k-h2.txt" "$tmp/$k-h3.txt" "$tmp/$k-h4.txt"
  check "$k: the replica has their 7 slot keys" \
    wait_for 10 eval '[ "$(slot_keys $rport $k)" = 7 ]'

  # -- the cut: replication stops; slots change hands on the primary
  kill -STOP "$link"
  cut=$SECONDS
  rcli "$pport" SET "$k$$-cut" 1 >/dev/null
  leaver=$(echo $holders | cut -d' ' -f2)
  lslot=$(awk -v p="$leaver" '$1 == "C" && $2 == p { s = $3 } END { print s }' "$log")
  stop_holders "$leaver"
  holders=$(holders_but "$leaver")
  drive "$log" "$url" drv 3 0 $ttl $margin $timeout
  holders="$holders $last_pid"
  run "$tmp/$k-c1.txt" 120
  run "$tmp/$k-c2.txt" 120
  check "$k: the cut: a new driver took the leaver's slot $lslot on the primary" \
    wait_for 5 eval '[ "$(first_slot "$log" $last_pid)" = "$lslot" ]'
  [ $((cut + secs - SECONDS)) -le 0 ] || sleep $((cut + secs - SECONDS))

  # -- the failover
  check "$k: the cut: a key set on the primary did not reach the replica" \
    eval '[ "$(rcli $rport EXISTS $k$$-cut)" = 0 ]'
  kill -KILL "$link"; wait "$link" 2>/dev/null
  rcli "$rport" REPLICAOF NO ONE >/dev/null
  kill -KILL "$front"; wait "$front" 2>/dev/null
  relay "$fport" "$rport"; front=$last
  t_move=$SECONDS
  kill -KILL "$primary"; wait "$primary" 2>/dev/null
  check "$k: the replica is promoted" \
    eval '[ "$(info $rport replication role)" = master ]'
  echo "$k: failover after a cut of $((t_move - cut)) s; the promoted" \
       "replica holds $(slot_keys $rport $k) slot keys"
  after=$(since "$tmp/$k"-[hc]*.txt)
  run "$tmp/$k-n1.txt" 6
  run "$tmp/$k-n2.txt" 6
  drive "$log" "$url" drv 3 0 $ttl $margin $timeout
  holders="$holders $last_pid"
  # the holders run until each made IDs on the promoted replica (a
  # minute at most), the newcomers until each made some
  grown 60 "$after"; fresh=$?
  wait_for 60 going 0 "$tmp/$k-n1.txt" "$tmp/$k-n2.txt"
  lua_stop
  stop_holders $holders

  echo "$k: generators: $(moves "$tmp/$k"-*.txt); drivers:" \
       "$(count_claims "$log") claims, $(grep -c '^Z ' "$log") stops"
  check "$k: each holder made IDs on the promoted replica" [ "$fresh" = 0 ]
  check "$k: newcomers on the promoted replica made IDs" \
    going 0 "$tmp/$k-n1.txt" "$tmp/$k-n2.txt"
  check "$k: the promoted replica began the history again (its own run_id)" \
    eval '[ "$(rcli $rport GET $k$$/fluid/runid)" = "$(info $rport server run_id)" ]'
  verdict "$k cut, promoted replica" "$tmp/$k"-*.txt
  check "$k: drivers never two on one slot" intervals_ok "$log"
  check "$k: every driver stopped before its lease could end" \
    stops_in_time "$log"
  kill -KILL "$front" "$replica"; wait "$front" "$replica" 2>/dev/null
}

round long 5
round short 1
finish
