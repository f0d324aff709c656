#!/usr/bin/env bash
# spec/nginx/outage.sh BUILDDIR MODE: request IDs in
# a real nginx (2 workers, FLUID slots leased from Redis, the default TTL
# of 10 s) while Redis is away (issue 36).  Servers on 127.0.0.1 on free
# ports, data in a mktemp directory, every process stopped by its pid on
# exit, even on failure.
#
#   start       nginx starts while Redis is down: requests fail, saying
#               why; Redis starts (empty): every worker claims its slot
#               in the background and serves FLUID IDs within BOUND_START
#               seconds, without a reload;
#   fallback    init{ fallback = "uuidv7" }: Redis killed under traffic;
#               no request fails, the workers issue UUIDv7 IDs meanwhile
#               and say so in error.log; Redis started again (empty): FLUID
#               IDs again within BOUND_BACK seconds, by themselves;
#   nofallback  the same without a fallback: requests fail (500, error.log
#               says why) while the lease is not valid, and recover by
#               themselves within BOUND_BACK seconds of Redis's return;
#   blip        fallback, with Redis back after 1 s, inside the lease's
#               safe window: the lease finds its slot gone at its next
#               renewal and claims another, whose floor is a TTL ahead;
#               the generator (policy "error" with a fallback) refuses
#               and the fallback answers: no request fails or waits;
#   blip_nofallback  the same without a fallback: the wait for the floor
#               is past the generator's max_wait_ms (resty's 500 ms for
#               a networked store), so requests fail at once (500s) and
#               no worker blocks; FLUID IDs again by themselves.
#
# The bounds are those of the README's OpenResty section: a claim retried
# at most 4 s apart, plus one TTL (a store that lost its history makes its
# first holders wait one TTL, docs/SLOTS.md rule 7); after a loss under
# traffic, the lease thread's back-off (at most one TTL) plus that TTL.
# Each has a second of slack for a loaded machine.  Every ID is collected:
# 0 duplicates, each of its scheme, increasing per worker (outage.lua).
set -u
PATH=$PATH:/usr/sbin
usage="usage: outage.sh BUILDDIR start|fallback|nofallback|blip|blip_nofallback"
build=$(cd "${1:?$usage}" && pwd)
mode=${2:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TTL=10
BOUND_START=$((4 + TTL + 1))       # README: within TTL + 5 s
BOUND_BACK=$((2 * TTL + 1))        # README: within 2 TTL + 1 s
case $mode in start|fallback|nofallback|blip|blip_nofallback) ;;
  *) echo "unknown mode $mode"; exit 2 ;; esac
# checked as: start, fallback (no request fails) or nofallback
case $mode in start) kind=start ;; fallback|blip) kind=fallback ;; *) kind=nofallback ;; esac
passed=0 failed=0
ok () { passed=$((passed + 1)); echo "ok - $*"; }
bad () { failed=$((failed + 1)); echo "FAIL - $*"; }
finish () { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
for tool in nginx wrk curl lua5.4 redis-server ss; do
  command -v "$tool" >/dev/null || { echo "$tool not installed"; echo "0 passed, 1 failed"; exit 1; }
done
[ -f "$build/luajit/idscheme.so" ] || { echo "no $build/luajit/idscheme.so"; echo "0 passed, 1 failed"; exit 1; }

prefix=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-outage.XXXXXX")
mkdir -p "$prefix/logs"
chmod 755 "$prefix"
. "$here/redis.sh"

master="" workers="" redis_pid="" wrk_pid=""
stop_nginx () {
  [ -n "$master" ] || return 0
  kill -QUIT "$master" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$master" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$master" 2>/dev/null
  for w in $workers; do kill -KILL "$w" 2>/dev/null; done
  master=""
}
stop_redis () {
  [ -n "$redis_pid" ] || return 0
  kill -KILL "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; redis_pid=""
}
stop_wrk () {
  [ -n "$wrk_pid" ] || return 0
  kill -INT "$wrk_pid" 2>/dev/null
  for _ in $(seq 50); do kill -0 "$wrk_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$wrk_pid" 2>/dev/null; wait "$wrk_pid" 2>/dev/null; wrk_pid=""
}
trap 'stop_wrk; stop_nginx; stop_redis; [ -n "${KEEP_TMP:-}" ] || rm -rf "$prefix"' EXIT
trap 'exit 1' INT TERM

# free_port NAME: a port nobody listens on, below the ephemeral range
taken=" "
free_port () {
  local p eph=32768
  read -r eph _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || eph=32768
  [ "$eph" -gt 12000 ] 2>/dev/null || eph=32768
  while :; do
    p=$((10000 + RANDOM % (eph - 10000)))
    [[ $taken == *" $p "* ]] && continue
    [ -z "$(ss -ltnH "sport = :$p" 2>/dev/null)" ] && break
  done
  taken="$taken$p "
  printf -v "$1" %s "$p"
}
free_port port
free_port rport
slots="redis://127.0.0.1:$rport/outage"
fallback='' fbname=-
[ "$kind" = fallback ] && fallback=', fallback = "uuidv7"' fbname=uuidv7

cat > "$prefix/nginx.conf" <<CONF
worker_processes 2;
error_log logs/error.log notice;
env IDSCHEME_STORES_MODULE;
pid logs/nginx.pid;
load_module /usr/lib/nginx/modules/ndk_http_module.so;
load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;
events { worker_connections 256; }
http {
  lua_package_path "$root/lua/?.lua;$root/lua/?/init.lua;;";
  lua_package_cpath "$build/luajit/?.so;;";
  log_format ids escape=none '\$pid \$status \$msec \$ids_id';
  init_by_lua_block { require "idscheme" }
  init_worker_by_lua_block {
    require("idscheme.resty").init{ scheme = "fluid", slots = "$slots"$fallback }
  }
  server {
    # reuseport: each worker its own socket, so that new connections
    # (the polls) reach both workers
    listen 127.0.0.1:$port reuseport;
    access_log off;
    location = /id {
      access_log logs/ids.log ids;
      set_by_lua_block \$ids_id {
        return require("idscheme.resty").request_id{ response_header = false }
      }
      add_header X-Request-Id \$ids_id always;
      add_header X-Worker \$pid always;
      return 200 "\$ids_id\n";
    }
  }
}
CONF

if [ "$mode" != start ]; then
  redis_run "$prefix" "$rport" && redis_pass_floor "$build" "$root" "$slots" 2 ||
    { bad "redis started"; finish; }
fi
nginx -p "$prefix" -c "$prefix/nginx.conf" 2> "$prefix/start.err" ||
  { cat "$prefix/start.err" "$prefix/logs/error.log"; bad "nginx started"; finish; }
master=$(cat "$prefix/logs/nginx.pid")
for _ in $(seq 100); do
  workers=$(ps -o pid= --ppid "$master" | tr -d ' ' | sort | tr '\n' ' ')
  [ "$(wc -w <<<"$workers")" -ge 2 ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
[ "$(wc -w <<<"$workers")" -eq 2 ] || { bad "nginx runs 2 workers (pids: $workers)"; finish; }
workers_before=$workers

# poll WANT SECONDS T0: GET /id on a new connection every 0.1 s until
# every worker has answered as WANT says (fluid: a 200 with a FLUID ID;
# fallback: a 200 with a UUIDv7; 500: a 500), or SECONDS have passed
# since T0 (date +%s%N).  Sets polled to the seconds since T0.
poll () {
  local want=$1 limit=$(( $2 * 1000000000 )) t0=$3 out st id pid el
  declare -A done=()
  while :; do
    out=$(curl -s -m 2 -D - -o /dev/null "http://127.0.0.1:$port/id" | tr -d '\r')
    st=$(sed -n '1s/^HTTP\/[0-9.]* \([0-9]*\).*/\1/p' <<<"$out")
    id=$(sed -n 's/^X-Request-Id: //Ip' <<<"$out")
    pid=$(sed -n 's/^X-Worker: //Ip' <<<"$out")
    el=$(( ($(date +%s%N) - t0) / 100000000 ))
    polled=$((el / 10)).$((el % 10))
    case $want/$st/$id in
      fluid/200/f*|fallback/200/*-*-7*|500/500/*)
        if [ -n "$pid" ] && [ -z "${done[$pid]:-}" ]; then
          done[$pid]=1
          echo "#   worker $pid: $want after ${polled}s"
        fi ;;
    esac
    [ "${#done[@]}" -ge 2 ] && return 0
    [ $((el * 100000000)) -ge "$limit" ] && return 1
    sleep 0.1
  done
}

start_wrk () {   # paced: 4 connections, a request each 2 ms at most
  WRK_DELAY_MS=2 wrk -t 2 -c 4 -d 120s -s "$here/collect.lua" \
    "http://127.0.0.1:$port/id" > "$prefix/responses.raw" 2> "$prefix/wrk.err" &
  wrk_pid=$!
}

case $mode in
  start)
    # the store is down: requests fail, saying why, and init retries
    if poll 500 10 "$(date +%s%N)"; then ok "requests fail while Redis is down"
    else bad "requests fail while Redis is down"; fi
    sleep 2
    redis_run "$prefix" "$rport" || { bad "redis started"; finish; }
    up=$(date +%s%N)
    echo "# $(date -u +%T.%N | cut -c1-12) UTC: Redis started"
    if poll fluid $((BOUND_START + 15)) "$up"; then
      ok "both workers serve FLUID IDs (seen ${polled}s after Redis started)"
    else
      bad "both workers serve FLUID IDs within $((BOUND_START + 15))s of Redis's start"
    fi
    bound=$BOUND_START
    start_wrk; sleep 3; stop_wrk
    ;;
  fallback|nofallback|blip|blip_nofallback)
    start_wrk
    sleep 2
    down=$(date +%s%N)
    stop_redis
    echo "# $(date -u +%T.%N | cut -c1-12) UTC: Redis killed"
    if [ "$kind" = nofallback ]; then want=500; else want=fallback; fi
    if [ "${mode#blip}" != "$mode" ]; then
      sleep 1
    else
      # the lease stays valid up to its safe end (TTL - margin after the
      # last renewal), then fails; the drain or a request notices
      if poll $want $((TTL + 15)) "$down"; then
        ok "both workers answer '$want' ${polled}s after Redis died"
      else
        bad "both workers answer '$want' within $((TTL + 15))s of Redis's death"
      fi
      sleep 1
    fi
    redis_run "$prefix" "$rport" || { bad "redis started again"; finish; }
    up=$(date +%s%N)
    echo "# $(date -u +%T.%N | cut -c1-12) UTC: Redis started again"
    if [ "${mode#blip}" != "$mode" ]; then
      # the lease finds its slot gone at its next renewal and claims
      # again; the new slot's floor is a TTL ahead (a store restarted
      # empty): fallback IDs or 500s until then, and no request waits
      if poll $want $((TTL + 15)) "$up"; then
        ok "both workers answer '$want' ${polled}s after Redis came back"
      else
        bad "both workers answer '$want' within $((TTL + 15))s of Redis's return"
      fi
    fi
    if poll fluid $((BOUND_BACK + 15)) "$up"; then
      ok "both workers serve FLUID IDs again (seen ${polled}s after Redis came back)"
    else
      bad "both workers serve FLUID IDs again within $((BOUND_BACK + 15))s of Redis's return"
    fi
    bound=$BOUND_BACK
    sleep 2
    stop_wrk
    ;;
esac

workers_after=$(ps -o pid= --ppid "$master" | tr -d ' ' | sort | tr '\n' ' ')
[ "$workers_after" = "$workers_before" ] && ok "no worker restarted, no reload" ||
  bad "workers changed: $workers_before -> $workers_after"
stop_nginx
grep -E 'requests in|Requests/sec|Socket errors|Non-2xx' "$prefix/responses.raw"
# wrk's timeout is 2 s: a request that waited that long blocked a worker
timeouts=$(sed -n 's/.*Socket errors:.* timeout \([0-9]*\).*/\1/p' "$prefix/responses.raw")
[ "${timeouts:-0}" -eq 0 ] && ok "no request waited 2 s" ||
  bad "$timeouts requests waited over 2 s (a worker blocked)"
grep -v -E '^(Running|  |Requests/sec|Transfer/sec|$)' "$prefix/responses.raw" > "$prefix/responses"

log=$prefix/logs/error.log
case $kind in
  start)
    grep -q 'holds no fluid slot yet: slot store "redis://127.0.0.1:[0-9]*/outage": connect' "$log" &&
      ok "error.log says why a worker holds no slot" || bad "error.log does not say why init failed"
    grep -q 'no fluid ID: no slot yet: slot store ' "$log" &&
      ok "a failed request says why" || bad "a failed request does not say why"
    [ "$(grep -c 'holds slot [0-9]* of redis://' "$log")" -ge 2 ] &&
      ok "both workers claimed a slot" || bad "not both workers claimed a slot"
    ;;
  fallback)
    grep -q 'request IDs* \(is a\|are\) uuidv7 fallback IDs*, not fluid: ' "$log" &&
      ok "error.log names the uuidv7 fallback and why" || bad "error.log does not name the fallback"
    grep -q 'issues fluid IDs again (slot [0-9]* of redis://[^)]*), after [0-9.]* s and [0-9]* uuidv7 fallback IDs' "$log" &&
      ok "error.log says FLUID IDs are back" || bad "error.log does not say FLUID IDs are back"
    ;;
  nofallback)
    grep -q 'no fluid ID: .*slot [0-9]* of .*redis://127.0.0.1:[0-9]*/outage' "$log" &&
      ok "a failed request says why (the lease)" || bad "a failed request does not say why"
    grep -q 'issues fluid IDs again (slot [0-9]* of redis://[^)]*), after [0-9.]* s of failed requests' "$log" &&
      ok "error.log says FLUID IDs are back" || bad "error.log does not say FLUID IDs are back"
    ;;
esac
if grep -E '\[(alert|emerg|crit)\]' "$log" | grep -v 'exited on signal' | grep -q .; then
  grep -E '\[(alert|emerg|crit)\]' "$log" | head -5; bad "nginx logged alerts"
else ok "no alert in error.log"; fi

verdict=$(LUA_PATH="$root/lua/?.lua;;" LUA_CPATH="$build/lua54/?.so;;" \
  lua5.4 "$here/outage.lua" "$kind" fluid "$fbname" "$prefix/responses" "$prefix/logs/ids.log" \
         $((up / 1000000)) "$bound" 2>&1)
echo "$verdict"
passed=$((passed + $(grep -c '^ok - ' <<<"$verdict")))
failed=$((failed + $(grep -c '^FAIL - ' <<<"$verdict")))
grep -q '^ok - \|^FAIL - ' <<<"$verdict" || bad "outage.lua gave no verdict"
finish
