#!/usr/bin/env bash
# spec/slots/evict.sh BUILDDIR REDIS_SERVER: a Redis under maxmemory (4 MB)
# that another client fills while leased generators run (issue 36).  For
# each policy a fresh redis-server:
#   allkeys-lru, allkeys-random   evict any key: slot/N, last/N, epoch,
#                                 runid, meaning of the namespace too
#                                 (before the fix, allkeys-lru evicted
#                                 slot/5 and last/5 and gave two live
#                                 holders on node 5)
#   volatile-lru                  evicts keys with a TTL: slot/N too
#   noeviction                    writes fail with OOM: the filler's, and
#                                 the holders' renewals and claims; the
#                                 holders stop in time or go on, and
#                                 claim again once the filler's keys go
# 4 Lua generators (spec/slots/run.lua, the Lua module; one leaves
# meanwhile) and 6 slot_driver processes hold slots of one prefix
# (namespaces fluid and drv, leases of 2 s), started 70 ms apart; a
# further driver claims, holds 0.4 s and releases, again and again, so
# that a number freed by an eviction is taken at once.  A filler writes
# 20 KB values under fill:N (19 in 20 with a TTL of a minute, so that
# volatile-lru has keys to evict), 25 per 0.1 s on one connection
# (noeviction: 50 small ones after them, so that a full store stays
# full), for 7 s; two Lua newcomers claim meanwhile (noeviction: after the
# filler's keys are unlinked).  The evicted keys are logged from keyspace
# events (notify-keyspace-events Ee) and counted per kind.  Verdict per
# policy: 0 duplicates, IDs increasing per generator and slot; the 3
# lasting holders made IDs after the filler (waited for, a minute at
# most: they run until then); the
# drivers never two on one slot, every stop before the lease could end on
# the server; INFO evicted_keys > 0 (noeviction: the filler met OOM and
# nothing was evicted); the lease's caution (Lua g:lease().caution, and
# the lease's log line, kept with slot_log = "keep" and on the
# generators' stderr) names an allkeys-* policy, and only such a policy.
. "$(dirname "$0")/lib.sh"
export LUA_CPATH="$build/lua54/?.so;;"
export LC_ALL=C          # the verdict sorts millions of digit lines: bytes
store=redis
server=${2:?usage: evict.sh BUILDDIR REDIS_SERVER}
. "$(dirname "$0")/server.sh"
ttl=2000 margin=200 timeout=1000

# run OUT SECONDS URL: a leased Lua generator in the background
run () { lua_gen "$1" "$2" "$3" $ttl $timeout 0.04; }
rcli () { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
stat () { rcli INFO stats | tr -d '\r' | awk -F: -v k="$1" '$1 == k { print $2 }'; }
# fill SECONDS OUT: every 0.1 s, 25 values of 20 KB under fill:N, 19 in
# 20 with a TTL, all on one connection (redis-cli reading its commands
# one by one); under noeviction 50 of 200 bytes after them, which take
# the last bytes below maxmemory: with no connection's buffers coming and
# going, a full store stays full and every write fails, the holders'
# too, while it runs.  How many writes met OOM, in OUT
fill () {
  local end=$((SECONDS + $1)) n=0 i v
  v=$(head -c 20000 /dev/zero | tr '\0' x)
  while [ $SECONDS -lt $end ]; do
    for i in $(seq $n $((n + 24))); do
      if [ $((i % 20)) = 0 ]; then echo "SET fill:$i $v"
      else echo "SET fill:$i $v PX 60000"; fi
    done
    [ "$pol" != noeviction ] ||
      for i in $(seq $n $((n + 49))); do echo "SET fill:s$i ${v:0:200} PX 60000"; done
    n=$((n + 50))
    sleep 0.1
  done | rcli 2>&1 | grep -c OOM >"$2"
}
# churn LOG URL: slot_driver claims on namespace drv one after another,
# each held 0.4 s, until $tmp/stop exists
churn () {
  while [ ! -e "$tmp/stop" ]; do
    "$driver" "$2" drv 4 "$1" 400 $ttl $margin $timeout >/dev/null \
      2>>"$tmp/driver.err"
    sleep 0.05
  done
}
# evicted FILE PREFIX: the namespace's keys in FILE (keyspace events), by
# kind: "fluid/slot 3, drv/last 1, ..."
evicted () {
  awk -F'"' -v p="$2/" 'index($6, p) == 1 {
         n = split(substr($6, length(p) + 1), a, "/")
         k = a[n] ~ /^[0-9]+$/ ? a[1] "/" a[n - 1] : a[1] "/" a[n]; c[k]++ }
       END { for (k in c) printf "%s%s %d", s++ ? ", " : "", k, c[k] }' "$1"
}
# the lease's caution and log, from a claim on namespace probe (Lua
# g:lease(): option slot_log = "keep")
cat >"$tmp/probe.lua" <<'LUA'
local idscheme = require "idscheme"
local g = idscheme.scheme("fluid"):generator{ slots = arg[1],
  slot_ttl_ms = tonumber(arg[2]), slot_namespace = "probe",
  slot_log = "keep" }
local l = g:lease()
print("caution: " .. (l.caution or "(none)"))
for _, s in ipairs(l.log) do print("log: " .. s) end
g:close()
LUA
moves () {
  awk '/^slot / { n[FILENAME]++ } /^refused / { r += $2 }
       END { for (f in n) m += n[f] - 1; printf "%d slot changes, %d refusals", m, r }' "$@"
}

# policy NAME: the round on a fresh server with that maxmemory-policy
policy () {
  local pol=$1 p=ev$$-$1 u log=$tmp/$1.log ev=$tmp/$1.evicted
  local t0=$SECONDS c f i n errs caution sub after fresh
  free_ports port
  u=redis://127.0.0.1:$port/$p
  start_server --maxmemory 4mb --maxmemory-policy "$pol" \
    --notify-keyspace-events Ee
  rcli --csv SUBSCRIBE __keyevent@0__:evicted >"$ev" 2>&1 &
  sub=$!
  pids="$pids $sub"
  caution=$(lua_run "$tmp/probe.lua" "$u" $ttl 2>&1)
  echo "$pol: $caution" | head -2
  case $pol in
    allkeys-*)
      check "$pol: the lease's caution names the policy" \
        grep -q "^caution: maxmemory-policy $pol may evict" <<<"$caution"
      check "$pol: so does the lease's log" \
        grep -q "^log: .*maxmemory-policy $pol may evict" <<<"$caution" ;;
    *)
      check "$pol: the lease has no caution" \
        grep -qx "caution: (none)" <<<"$caution" ;;
  esac

  # started 70 ms apart, over a renewal interval (TTL/3), as in loss.sh:
  # one that finds its slot evicted claims a number whose holder has not
  # noticed yet.  4 Lua generators (the 4th leaves meanwhile), 6 drivers
  holders=""
  for i in 1 2 3 4 5 6; do
    case $i in
      4) run "$tmp/$pol-h4.txt" 6 "$u"; f=$!; sleep 0.07 ;;
      [123]) run "$tmp/$pol-h$i.txt" 120 "$u"; sleep 0.07 ;;
    esac
    drive "$log" "$u" drv 4 0 $ttl $margin $timeout
    holders="$holders $last_pid"
    sleep 0.07
  done
  check "$pol: 4 holders make IDs" wait_for 30 going 1000 \
    "$tmp/$pol-h1.txt" "$tmp/$pol-h2.txt" "$tmp/$pol-h3.txt" "$tmp/$pol-h4.txt"
  # a claimant after another, each holding a slot 0.4 s: it takes the
  # lowest free number, as soon as an eviction frees it
  rm -f "$tmp/stop"
  churn "$log" "$u" &
  c=$!
  pids="$pids $c"
  fill 7 "$tmp/$pol.fill" &
  n=$!
  pids="$pids $n"
  if [ "$pol" != noeviction ]; then
    sleep 2; wait "$f"; run "$tmp/$pol-n1.txt" 6 "$u"
    sleep 2; run "$tmp/$pol-n2.txt" 5 "$u"
  fi
  wait "$n"
  errs=$(cat "$tmp/$pol.fill")
  echo "$pol: the filler met $errs errors; evicted_keys $(stat evicted_keys)," \
       "used_memory $(rcli INFO memory | tr -d '\r' | grep '^used_memory:' | cut -d: -f2)"
  if [ "$pol" = noeviction ]; then
    check "$pol: the filler met OOM" [ "$errs" -gt 0 ]
    check "$pol: nothing evicted" [ "$(stat evicted_keys)" = 0 ]
    rcli --scan --pattern 'fill:*' | xargs -r redis-cli -h 127.0.0.1 \
      -p "$port" UNLINK >/dev/null
    wait "$f"
    run "$tmp/$pol-n1.txt" 6 "$u"
    run "$tmp/$pol-n2.txt" 5 "$u"
  else
    check "$pol: keys were evicted" [ "$(stat evicted_keys)" -gt 0 ]
  fi
  after=$(since "$tmp/$pol-h1.txt" "$tmp/$pol-h2.txt" "$tmp/$pol-h3.txt")
  # the holders run until each made IDs after the filler (or a minute),
  # and the newcomers theirs
  grown 60 "$after"; fresh=$?
  wait_for 60 going 0 "$tmp/$pol-n1.txt" "$tmp/$pol-n2.txt"
  lua_stop
  touch "$tmp/stop"
  wait "$c"
  stop_holders $holders
  kill -KILL "$sub"; wait "$sub" 2>/dev/null
  echo "$pol: $(grep -c "\"$p/" "$ev") keys of the prefix evicted:" \
       "$(evicted "$ev" "$p")"
  echo "$pol: generators: $(moves "$tmp/$pol"-*.txt); drivers:" \
       "$(count_claims "$log") claims, $(grep -c '^Z ' "$log") stops;" \
       "$((SECONDS - t0)) s"
  check "$pol: the holders made IDs after the filler" [ "$fresh" = 0 ]
  check "$pol: newcomers made IDs" \
    going 0 "$tmp/$pol-n1.txt" "$tmp/$pol-n2.txt"
  verdict "$pol" "$tmp/$pol"-*.txt
  check "$pol: drivers never two on one slot" intervals_ok "$log"
  check "$pol: every driver stopped before its lease could end" \
    stops_in_time "$log"
  stop_server
}

for pol in allkeys-lru allkeys-random volatile-lru noeviction; do
  policy $pol
done
# the generators' own log lines (stderr): the note for allkeys-* only
check "the generators' log names allkeys-lru and allkeys-random" \
  eval 'grep -q "maxmemory-policy allkeys-lru may evict" "$tmp/driver.err" &&
        grep -q "maxmemory-policy allkeys-random may evict" "$tmp/driver.err"'
check "and no other policy" \
  eval '! grep -E "maxmemory-policy (volatile-lru|noeviction)" "$tmp/driver.err"'
finish
