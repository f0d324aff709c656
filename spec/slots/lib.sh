# lib.sh: shared by the slot tests (spec/slots/*.sh), sourced.  Every
# process a test starts is its background job, killed by pid on exit even
# when the test fails; nothing else is ever signalled.  All servers
# listen on 127.0.0.1 only, with data under the test's mktemp directory.
set -u
build=${1:?usage: $0 BUILDDIR}
driver=$build/slot_driver
# the build's stores' module, not an installed one (core/slot/module.c):
# ctest names it, and so does a test run by hand
export IDSCHEME_STORES_MODULE=${IDSCHEME_STORES_MODULE:-$(cd "$build" && pwd)/lib/idscheme/stores.so}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-slots.XXXXXX")
pids=""
pass=0 fail=0

# Only this shell's children that it has not reaped yet (jobs -p): a pid
# of ours that was reaped may belong to someone else by now.
cleanup () {
  local p live
  live=$(jobs -p)
  for p in $live; do kill -CONT "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  for p in $live; do wait "$p" 2>/dev/null; done
  [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok () { pass=$((pass + 1)); echo "ok - $1"; }
bad () { fail=$((fail + 1)); echo "FAIL - $1"; }
check () {   # check NAME COMMAND...: passes if the command succeeds
  local name=$1; shift
  if "$@"; then ok "$name"; else bad "$name"; fi
}
finish () {
  # sanitizer builds: a driver's report lands in driver.err
  if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tmp/driver.err" 2>/dev/null; then
    grep -E -m 5 -A 5 'ERROR: |runtime error:' "$tmp/driver.err"
    bad "no sanitizer report from any driver"
  else
    ok "no sanitizer report from any driver"
  fi
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
}

# free_ports NAME...: sets each variable NAME to a TCP port nobody listens
# on, none of them one that this test took before (a server's client and
# peer ports, a relay's), and below the kernel's ephemeral range: a port in
# it may become the local end of any connection (a CI run lost a server's
# port so, to another test's client).  Another test may still race us to
# one: the server start fails then, and the test says so (pg_start picks
# another).
taken_ports=" "
free_ports () {
  local _name _p _eph=32768
  read -r _eph _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || _eph=32768
  [ "$_eph" -gt 12000 ] 2>/dev/null || _eph=32768
  for _name in "$@"; do
    while :; do
      _p=$((10000 + RANDOM % (_eph - 10000)))
      [[ $taken_ports == *" $_p "* ]] && continue
      [ -z "$(ss -ltnH "sport = :$_p" 2>/dev/null)" ] && break
    done
    taken_ports="$taken_ports$_p "
    printf -v "$_name" %s "$_p"
  done
}

# wait_for SECONDS COMMAND...: polls until the command succeeds
wait_for () {
  local n=$(( $1 * 20 )); shift
  while [ $n -gt 0 ]; do "$@" && return 0; sleep 0.05; n=$((n - 1)); done
  return 1
}

# lua_run SCRIPT ARGS...: Lua ($LUA, else lua5.4) on the build's module;
# in sanitizer builds with the runtime preloaded ($IDS_PRELOAD).  lua_bg
# starts it in the background, $! being Lua's own pid (to stop it)
lua_run () {
  if [ -n "${IDS_PRELOAD:-}" ]; then
    LD_PRELOAD=$IDS_PRELOAD ASAN_OPTIONS=detect_leaks=0 "${LUA:-lua5.4}" "$@"
  else
    "${LUA:-lua5.4}" "$@"
  fi
}
lua_bg () {
  if [ -n "${IDS_PRELOAD:-}" ]; then
    LD_PRELOAD=$IDS_PRELOAD ASAN_OPTIONS=detect_leaks=0 "${LUA:-lua5.4}" "$@" &
  else
    "${LUA:-lua5.4}" "$@" &
  fi
}

# start a driver in the background: drive LOG URL NS BITS [more args];
# its pid in $last_pid
drive () {
  local log=$1 url=$2 ns=$3 bits=$4; shift 4
  "$driver" "$url" "$ns" "$bits" "$log" "$@" >/dev/null 2>>"$tmp/driver.err" &
  last_pid=$!
  pids="$pids $last_pid"
}

# claim URL [TIMEOUT_MS]: one slot_driver claim (4 bits, held 300 ms);
# prints what it said, also kept in driver.err for finish's sanitizer
# check; returns its exit status
claim () {
  local o rc
  o=$("$driver" "$1" claim 4 "$tmp/claim.log" 300 0 0 "${2:-0}" 2>&1); rc=$?
  printf '%s\n' "$o" | tee -a "$tmp/driver.err"
  return $rc
}
# timed CMD...: runs it; its output in $out, its status in $rc, the time
# it took in $ms
timed () {
  local t0
  t0=$(date +%s%N)
  out=$("$@"); rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}
# check_claim NAME URL [TIMEOUT_MS]: the claim succeeds (what it said is
# shown if not); its output in $out, its status in $rc
check_claim () {
  local name=$1; shift
  timed claim "$@"
  check "$name" [ $rc = 0 ]
  [ $rc = 0 ] || echo "  $out"
}
# check_refused NAME TEXT URL [TIMEOUT_MS]: the claim fails (status 2)
# and says TEXT (a fixed string); what it said is shown, and kept in $out
check_refused () {
  local name=$1 text=$2; shift 2
  timed claim "$@"
  check "$name" eval '[ $rc = 2 ] && grep -qF -- "$text" <<<"$out"'
  echo "  $out"
}

# start_holders N LOG URL NS BITS [ARGS...]: N drivers (drive), their
# pids in $holders; stop_holders PIDS...: SIGTERM to each, then waits for
# each; holders_but PID: $holders without PID (one that is gone)
start_holders () {
  local n=$1 i; shift
  holders=""
  for i in $(seq "$n"); do drive "$@"; holders="$holders $last_pid"; done
}
stop_holders () {
  local p
  for p in "$@"; do kill -TERM "$p"; done
  for p in "$@"; do wait "$p" 2>/dev/null; done
}
holders_but () { echo $holders | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' '; }

count_claims () { local n; n=$(grep -c '^C ' "$1" 2>/dev/null); echo "${n:-0}"; }
has_claims () { [ "$(count_claims "$1")" -ge "$2" ]; }

# distinct slots among the first claim of each pid
distinct_slots () {
  awk '$1 == "C" && !seen[$2]++ { print $3 }' "$1" | sort -n | uniq | wc -l
}

# The uniqueness check.  Intervals of valid events per slot, every holder,
# every generation: take the largest `last` per (pid, slot, gen, first);
# sorted by first, each must begin after every earlier one ends, and after
# its holder's floor.  Prints what overlaps.
intervals_ok () {
  # ns values need 19 digits, more than awk's doubles hold: compare them as
  # strings right-aligned in 20 columns (space sorts before every digit)
  awk 'function p(x) { return sprintf("%20s", x) }
       $1 == "I" {
         k = $2 " " $3 " " $4 " " $5
         if (!(k in last) || p($6) > p(last[k])) last[k] = $6
         fl[k] = $8
       }
       END { for (k in last) { split(k, a, " "); print a[2], a[4], last[k], fl[k], a[1] } }' "$1" |
  LC_ALL=C sort -k1,1n -k2,2 |
  awk 'function p(x) { return sprintf("%20s", x) }
       BEGIN { bad = 0 }
       { if (p($2) <= p($4)) { print "slot " $1 ": pid " $5 " issued " $2 " at or below its floor " $4; bad = 1 }
         if (($1 in end) && p($2) <= p(end[$1])) {
           print "slot " $1 ": pid " $5 " from " $2 " overlaps pid " who[$1] " up to " end[$1]; bad = 1 }
         if (!($1 in end) || p($3) > p(end[$1])) { end[$1] = $3; who[$1] = $5 } }
       END { exit bad }'
}

# events were issued: at least one interval with n > 0
issued () { awk '$1 == "I" && $7 > 0 { f = 1 } END { exit !f }' "$1"; }

# The files of spec/slots/run.lua: their IDs; and, per file and slot run,
# each ID above the one before
ids () { grep -hv -e '^slot ' -e '^refused ' "$@"; }
increasing () {
  local f
  for f in "$@"; do
    # as strings ("" forces it: awk compares numeric text as doubles,
    # which do not hold 19 digits), longer being larger
    awk '/^slot / { last = ""; next } /^refused / { next }
         { id = $0 ""
           if (last != "" && (length(id) < length(last) ||
               (length(id) == length(last) && id <= last))) exit 1
           last = id }' "$f" || { echo "not increasing: $f"; return 1; }
  done
}

# lua_gen OUT SECONDS URL TTL TIMEOUT PAUSE: a leased Lua generator
# (spec/slots/run.lua) in the background, its pid in $last and added to
# $lua_pids; it stops when SECONDS have passed or at lua_stop
lua_pids=""
lua_gen () {
  lua_bg "$(dirname "$0")/run.lua" "$@" "$tmp/lua.stop" 2>>"$tmp/driver.err"
  last=$!
  pids="$pids $last"
  lua_pids="$lua_pids $last"
}
# cli_gen OUT N URL: N FLUIDs from one `idscheme gen` run in the
# background, leased with the caller's $ttl and $timeout (ms), its pid
# added to $pids
cli_gen () {
  "$build/idscheme" gen fluid -n "$2" -e dec -o "slots=$3" \
    -o slot_ttl_ms="$ttl" -o slot_timeout_ms="$timeout" \
    >"$1" 2>>"$tmp/driver.err" &
  pids="$pids $!"
}
# lua_stop: the generators of lua_gen stop at their next batch; waited for
lua_stop () {
  touch "$tmp/lua.stop"
  wait $lua_pids 2>/dev/null
  lua_pids=""
  rm -f "$tmp/lua.stop"
}
# since FILES...: "file count" lines, the IDs each holds now.  grew
# LINES: each of those files holds more IDs now.  grown SECONDS LINES:
# each does within SECONDS (a bound on a wait, not a deadline for the
# generator: a loaded machine may take its time), else says which not
since () { local f; for f; do echo "$f $(ids "$f" | wc -l)"; done; }
grew () {
  local f n
  while read -r f n; do
    [ "$(ids "$f" | wc -l)" -gt "$n" ] || return 1
  done <<<"$1"
}
grown () {
  wait_for "$1" grew "$2" && return 0
  local f n
  while read -r f n; do
    [ "$(ids "$f" | wc -l)" -gt "$n" ] || echo "no ID since: $f"
  done <<<"$2"
  return 1
}
# going N FILES...: each file of spec/slots/run.lua holds more than N IDs
going () {
  local n=$1 f; shift
  for f in "$@"; do
    [ "$(ids "$f" 2>/dev/null | wc -l)" -gt "$n" ] || return 1
  done
}
# verdict NAME FILES...: the files of spec/slots/run.lua (or of the
# command) hold IDs, no duplicate among them, increasing per generator and
# slot; prints how many
verdict () {
  local name=$1 n d; shift
  n=$(ids "$@" | wc -l)
  d=$(ids "$@" | sort | uniq -d | wc -l)
  echo "$name: $n IDs from $# generators, $d duplicates"
  check "$name: IDs were made" [ "$n" -gt 0 ]
  check "$name: no duplicate" [ "$d" = 0 ]
  check "$name: IDs increase per generator and slot" increasing "$@"
}
# stops_in_time LOG: every stop in a slot_driver log (a Z line) came after
# its holder's last valid event, and that event before the holder's lease
# could end on the server (the send of its last successful renewal + the
# TTL, both in the Z line).  Exact in ns: the TTL is whole ms, so the sum
# is made on the ms digits.  Prints each stop that was late.
stops_in_time () {
  awk 'function hi(x) { return substr(x, 1, length(x) - 6) + 0 }
       function lo(x) { return substr(x, length(x) - 5) + 0 }
       BEGIN { bad = 0 }
       $1 == "I" { last[$2] = $6 }
       $1 == "Z" {
         if (!($2 in last)) {
           print "pid " $2 ": a stop with no interval: " $0; bad = 1; next }
         l = last[$2]; eh = hi($5) + $6 / 1000000; el = lo($5)
         if (!(hi(l) < eh || (hi(l) == eh && lo(l) < el))) {
           print "pid " $2 " slot " $3 ": valid at " l ", past its lease end " \
                 $5 " + " $6; bad = 1 }
       }
       END { exit bad }' "$1"
}
