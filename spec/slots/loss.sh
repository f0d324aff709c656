#!/usr/bin/env bash
# spec/slots/loss.sh BUILDDIR REDIS_SERVER: a namespace's Redis keys
# deleted while its holders run (issue 36).  For each subset of the keys
#   slot    slot/* only: every holder finds its slot lost and claims again,
#           most on a number another holder still runs on
#   last    last/* only: the handover records
#   both    slot/* and last/*, in one UNLINK (before the fix, with epoch
#           and runid kept: 340 to 3,790 duplicates in three runs)
#   epoch   epoch
#   runid   runid
#   used    used (the count of numbers held since the epoch)
#   all     every key of the prefix (meaning too)
# 5 Lua generators (spec/slots/run.lua, the Lua module) and 4 slot_driver
# processes hold slots of one prefix (namespaces fluid and drv, leases of
# 2 s); the subset is listed with SCAN (redis-cli --scan) and removed
# (UNLINK, DEL, UNLINK) three times a second apart while they run, each
# time once one of its keys exists again.  A newcomer starts after each
# deletion, the second and third once a holder has left (closed: its slot
# released), so that slots change hands.
# Verdict per subset: 0 duplicates, IDs increasing per generator and
# slot; in the drivers' log no two valid intervals of one slot overlap and
# every stop came before the lease could end on the server (store.sh's
# checks).  One redis-server on 127.0.0.1, stopped by pid on exit
# (lib.sh).
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
export LC_ALL=C          # the verdict sorts millions of digit lines: bytes
store=redis
server=${2:?usage: loss.sh BUILDDIR REDIS_SERVER}
free_ports port
. "$(dirname "$0")/server.sh"
ttl=2000 margin=200 timeout=1000

# run OUT SECONDS URL: a leased Lua generator in the background (lua_gen);
# 2048 IDs, then a pause of 80 ms (half faults.sh's
# rate: under a million IDs a subset, and yet about 3,000 duplicates in
# "both" from the claim before the fix, bb19504)
run () { lua_gen "$1" "$2" "$3" $ttl $timeout 0.08; }
rcli () { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
# keys PREFIX ERE: the keys under PREFIX/ that match ERE (SCAN)
keys () { rcli --scan --pattern "$1/*" | grep -E "$2"; }
present () { keys "$@" | grep -q .; }
# wipe PREFIX ERE CMD: those keys removed with CMD (UNLINK or DEL);
# prints how many went
wipe () {
  keys "$1" "$2" | xargs -r redis-cli -h 127.0.0.1 -p "$port" "$3" |
    awk '{ n += $1 } END { print n + 0 }'
}
# changed_hands FILES...: some slot number was held by two generators
changed_hands () {
  local f
  for f in "$@"; do grep '^slot ' "$f" | sort -u; done | sort | uniq -d | grep -q .
}
# slot changes (a "slot N" line each, the first being the claim) and IDs
# refused (a lost or lapsed lease: the "refused N" line at the end)
moves () {
  awk '/^slot / { n[FILENAME]++ } /^refused / { r += $2 }
       END { for (f in n) m += n[f] - 1; printf "%d slot changes, %d refusals", m, r }' "$@"
}

start_server
# every prefix's history begun first (a claim on each namespace, given
# back at once): the first holders of a namespace wait a TTL (rule 7),
# the subsets' holders need not
subsets="slot last both epoch runid used all"
lua_pids=""
for k in $subsets; do
  run "$tmp/warm-$k.txt" 0 "redis://127.0.0.1:$port/loss$$-$k"
  "$driver" "redis://127.0.0.1:$port/loss$$-$k" drv 3 "$tmp/warm.log" 1 \
    $ttl $margin $timeout >/dev/null 2>>"$tmp/driver.err" &
  lua_pids="$lua_pids $!"
done
wait $lua_pids

# subset NAME ERE: the keys matching ERE deleted under running holders
subset () {
  local k=$1 re=$2 p=loss$$-$1 u i r n counts="" log=$tmp/$1.log t0=$SECONDS
  local after fresh
  local -a leaver
  u=redis://127.0.0.1:$port/$p
  lua_pids=""
  # started 70 ms apart, over a renewal interval (TTL/3): after a
  # deletion one holder finds its slot lost and claims a number whose
  # holder has not noticed yet (started at once, their renewals would
  # stay within a few ms of each other, and so would their claims).  Two
  # leave meanwhile: a newcomer after each takes its slot
  holders=""
  for i in 1 2 3 4 5; do
    case $i in
      4) run "$tmp/$k-h4.txt" 3 "$u"; leaver[2]=$! ;;
      5) run "$tmp/$k-h5.txt" 4 "$u"; leaver[3]=$! ;;
      *) run "$tmp/$k-h$i.txt" 120 "$u" ;;   # until lua_stop
    esac
    sleep 0.07
    [ $i = 5 ] && break
    drive "$log" "$u" drv 3 0 $ttl $margin $timeout
    holders="$holders $last_pid"
    sleep 0.07
  done
  check "$k: 5 holders make IDs" wait_for 30 going 1000 \
    "$tmp/$k-h1.txt" "$tmp/$k-h2.txt" "$tmp/$k-h3.txt" "$tmp/$k-h4.txt" \
    "$tmp/$k-h5.txt"
  for r in 1 2 3; do
    wait_for 10 present "$p" "$re"
    n=$(wipe "$p" "$re" "$([ $r = 2 ] && echo DEL || echo UNLINK)")
    counts="$counts${counts:+, }$n"
    [ $r != 3 ] || after=$(since "$tmp/$k-h1.txt" "$tmp/$k-h2.txt" "$tmp/$k-h3.txt")
    [ $r = 1 ] || wait "${leaver[$r]}"
    run "$tmp/$k-n$r.txt" 4 "$u"
    sleep 1
  done
  echo "$k: deleted $counts keys"
  check "$k: each of the 3 deletions removed keys" \
    eval '! grep -qw 0 <<<"$counts"'
  # the holders run until each made IDs after the deletions (a minute
  # at most), the newcomers until each made some
  grown 60 "$after"; fresh=$?
  wait_for 60 going 0 "$tmp/$k-n1.txt" "$tmp/$k-n2.txt" "$tmp/$k-n3.txt"
  lua_stop
  stop_holders $holders
  echo "$k: generators: $(moves "$tmp/$k"-*.txt); drivers: $(count_claims "$log") claims," \
       "$(grep -c '^Z ' "$log") stops; $((SECONDS - t0)) s"
  check "$k: the holders made IDs after the deletions" [ "$fresh" = 0 ]
  check "$k: newcomers made IDs" \
    going 0 "$tmp/$k-n1.txt" "$tmp/$k-n2.txt" "$tmp/$k-n3.txt"
  check "$k: slots changed hands" changed_hands "$tmp/$k"-*.txt
  verdict "$k deleted" "$tmp/$k"-*.txt
  check "$k: drivers never two on one slot" intervals_ok "$log"
  check "$k: every driver stopped before its lease could end" \
    stops_in_time "$log"
}

subset slot  '/slot/[0-9]+$'
subset last  '/last/[0-9]+$'
subset both  '/(slot|last)/[0-9]+$'
subset epoch '/epoch$'
subset runid '/runid$'
subset used  '/used$'
subset all   '.'

stop_server
finish
