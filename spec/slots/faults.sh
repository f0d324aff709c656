#!/usr/bin/env bash
# spec/slots/faults.sh BUILDDIR redis|etcd SERVER: the fault matrix with
# real generators (spec/slots/run.lua, the Lua module, and the command),
# every ID collected; after each fault: 0 duplicates, IDs increasing per
# generator and slot.  Leases of 3 s (timeout 1 s) keep it short:
#   frozen holder   a holder stopped (SIGSTOP) past its TTL while a new
#                   claimant takes its slot, then resumed
#   frozen store    the server stopped past the safe window, then resumed
#   partition       holders behind a TCP relay (spec/c/relay.c) cut off
#                   past their TTL while others take their slots, healed
#   empty restart   the server killed and started empty on the same port
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
store=$2 server=$3
free_ports port peer
. "$(dirname "$0")/server.sh"
ttl=3000 timeout=1000
pause=4.5                     # past the TTL (etcd's is whole seconds)

# run OUT SECONDS URL: a leased Lua generator in the background
run () { lua_gen "$1" "$2" "$3" $ttl $timeout 0.04; }
others () { jobs -p | grep -v -e "^$srv_pid\$" -e "^${relay_pid:-x}\$"; }

start_server

# -- a holder frozen past its TTL, its slot taken meanwhile, then resumed
u=$store://127.0.0.1:$port/frozen$$
run "$tmp/h1.txt" 14 "$u"; h1=$last
check "frozen holder: it makes IDs on slot 0" \
  eval 'wait_for 60 going 1000 "$tmp/h1.txt" && grep -q "^slot 0$" "$tmp/h1.txt"'
kill -STOP "$h1"
sleep $pause
run "$tmp/h2.txt" 8 "$u"
check "frozen holder: a new claimant takes slot 0" \
  wait_for 60 grep -qs "^slot 0$" "$tmp/h2.txt"
wait_for 30 going 1000 "$tmp/h2.txt"
kill -CONT "$h1"
wait $(others)
check "frozen holder: after it resumed it moved to another slot" \
  eval '[ "$(grep -c "^slot " "$tmp/h1.txt")" -ge 2 ]'
verdict "frozen holder" "$tmp"/h*.txt

# -- the store frozen past the safe window (every lease lapses)
u=$store://127.0.0.1:$port/still$$
for i in 1 2 3; do run "$tmp/s$i.txt" 14 "$u"; done
check "frozen store: 3 holders make IDs" \
  wait_for 60 going 1000 "$tmp/s1.txt" "$tmp/s2.txt" "$tmp/s3.txt"
kill -STOP "$srv_pid"
sleep $pause
kill -CONT "$srv_pid"
before=$(ids "$tmp"/s[123].txt | wc -l)
cli_gen "$tmp/s4.txt" 300000 "$u"
wait $(others)
check "frozen store: the holders made IDs after it resumed" \
  [ "$(ids "$tmp"/s[123].txt | wc -l)" -gt "$before" ]
check "frozen store: a command after it claimed and made 300,000 IDs" \
  [ "$(ids "$tmp/s4.txt" | wc -l)" = 300000 ]
verdict "frozen store" "$tmp"/s*.txt

# -- a partition: two holders reach the store through a relay, which is
# stopped past their TTL while two others take their slots, then resumed
free_ports rport
"$build/relay" "$rport" "$port" >"$tmp/relay.out" 2>>"$tmp/driver.err" &
relay_pid=$!
pids="$pids $relay_pid"
wait_for 10 grep -q ready "$tmp/relay.out"
for i in 1 2; do run "$tmp/p$i.txt" 16 "$store://127.0.0.1:$rport/part$$"; done
check "partition: 2 holders behind the relay make IDs" \
  wait_for 60 going 1000 "$tmp/p1.txt" "$tmp/p2.txt"
kill -STOP "$relay_pid"
sleep $pause
for i in 3 4; do run "$tmp/p$i.txt" 9 "$store://127.0.0.1:$port/part$$"; done
check "partition: the others take slots 0 and 1" \
  wait_for 60 eval 'grep -qs "^slot 0$" "$tmp"/p[34].txt &&
                    grep -qs "^slot 1$" "$tmp"/p[34].txt'
wait_for 30 going 1000 "$tmp/p3.txt" "$tmp/p4.txt"
kill -CONT "$relay_pid"
cli_gen "$tmp/p5.txt" 300000 "$store://127.0.0.1:$rport/part$$"
wait $(others)
check "partition: a command through the healed relay made 300,000 IDs" \
  [ "$(ids "$tmp/p5.txt" | wc -l)" = 300000 ]
verdict "partition" "$tmp"/p*.txt

# -- the store killed and started empty while holders run
u=$store://127.0.0.1:$port/empty$$
for i in 1 2 3; do run "$tmp/e$i.txt" 12 "$u"; done
check "empty restart: 3 holders make IDs" \
  wait_for 60 going 1000 "$tmp/e1.txt" "$tmp/e2.txt" "$tmp/e3.txt"
stop_server
start_server
for i in 4 5; do run "$tmp/e$i.txt" 6 "$u"; done
wait $(others)
check "empty restart: new claimants made IDs" \
  going 0 "$tmp"/e[45].txt
verdict "empty restart" "$tmp"/e*.txt

kill -KILL "$relay_pid"; wait "$relay_pid" 2>/dev/null
stop_server
finish
