#!/usr/bin/env bash
# wait.sh BUILDDIR: a backend that waits inside the library answers what
# a backend must answer.  The wait: a local slot store whose slot files
# record that their last holder may have issued IDs up to 300 s from now
# (written as slot_local.c writes them, "LIMIT h PID\n"; idscheme.slot_ttl_ms
# 600000 keeps such a record believable), so that a generator's first ID
# waits for the clock to pass that floor.  With idscheme.max_wait_ms at
# its default (30 s) the call fails at once (55P03, naming the wait); with
# it at 600000 the call waits, and pg_cancel_backend ends it (57014, the
# session lives on), pg_terminate_backend ends the session,
# statement_timeout = 1s and lock_timeout = 1s end it after a second; each
# within 5 s (a loaded machine; a second is the aim), and meanwhile
# pg_stat_activity shows the backend waiting (wait_event_type Extension).
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
pg_stage
pg_init one
free_ports port
far=$tmp/far
mkdir -p "$far" && chmod 1777 "$far"
# 16 slot files of namespace snowflake, each held until now + 300 s
limit=$(( ($(date +%s) + 300) * 1000000000 ))
for i in $(seq 0 15); do
  printf '%020d h %10d\n' "$limit" $$ >"$far/snowflake.$(printf %05d "$i")"
done
chmod 666 "$far"/*
check "the records are 34 bytes" [ "$(stat -c %s "$far/snowflake.00000")" = 34 ]
cat >>"$tmp/one/data/postgresql.conf" <<EOF
idscheme.slots = 'local:$far'
idscheme.slot_ttl_ms = 600000
EOF
pg_start one port
pgq "$port" -c "CREATE EXTENSION idscheme" || bad "extension"

now () { date +%s.%N; }
secs () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
under () { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'; }
# session NAME SQL...: psql in the background (verbose errors: the
# SQLSTATE), its output in NAME.out, its pid in spid
session () {
  local name=$1; shift
  "$pgbin/psql" -X -At -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -v VERBOSITY=verbose -c "SET application_name = '$name'" "$@" \
    >"$tmp/$name.out" 2>&1 &
  spid=$!
}
pidof () { pgq "$port" -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$1'"; }
waiting () { [ "$(pgq "$port" -c "SELECT wait_event_type FROM pg_stat_activity
  WHERE application_name = '$1' AND state = 'active'")" = Extension ]; }
gone () { ! kill -0 "$1" 2>/dev/null; }

# 1: the default max_wait_ms: the wait would pass it, so the call fails
# at once
t0=$(now)
out=$("$pgbin/psql" -X -At -h 127.0.0.1 -p "$port" -U postgres -d postgres \
  -v VERBOSITY=verbose -c "SELECT idscheme_next('snowflake')" 2>&1)
t=$(secs "$t0" "$(now)")
echo "  default max_wait_ms: $t s: $(echo "$out" | head -1)"
check "default max_wait_ms: 55P03 at once, naming the floor and max_wait_ms" \
  eval "echo \"\$out\" | grep -q '55P03: snowflake: waiting .* handover floor.* would pass max_wait_ms (30000)'"
check "default max_wait_ms: within 5 s ($t s)" under "$t" 5

# 2: pg_cancel_backend ends the wait; the session lives on
session cancel -c "SET idscheme.max_wait_ms = 600000" \
  -c "SELECT idscheme_next('snowflake')" -c "SELECT 'alive'"
wait_for 20 waiting cancel
check "cancel: the backend waits, wait_event_type Extension" waiting cancel
bpid=$(pidof cancel)
sleep 1
t0=$(now)
pgq "$port" -c "SELECT pg_cancel_backend($bpid)" >/dev/null
wait_for 30 gone "$spid"
t=$(secs "$t0" "$(now)")
echo "  pg_cancel_backend: ended after $t s: $(grep -m1 ERROR "$tmp/cancel.out")"
check "cancel: within 5 s of pg_cancel_backend ($t s)" under "$t" 5
check "cancel: 57014, naming the wait" \
  grep -q "ERROR:  57014: canceling statement due to user request" "$tmp/cancel.out"
check "cancel: the error's context names the wait" \
  grep -q "CONTEXT:  snowflake: interrupted while waiting for the clock to pass the slot's handover floor" "$tmp/cancel.out"
check "cancel: the session lived on" grep -qx alive "$tmp/cancel.out"

# 3: pg_terminate_backend ends the session
session terminate -c "SET idscheme.max_wait_ms = 600000" \
  -c "SELECT idscheme_next('snowflake')"
wait_for 20 waiting terminate
bpid=$(pidof terminate)
sleep 1
t0=$(now)
pgq "$port" -c "SELECT pg_terminate_backend($bpid)" >/dev/null
wait_for 30 eval "gone $spid && ! kill -0 $bpid 2>/dev/null"
t=$(secs "$t0" "$(now)")
echo "  pg_terminate_backend: ended after $t s: $(grep -m1 FATAL "$tmp/terminate.out")"
check "terminate: the backend ended within 5 s ($t s)" under "$t" 5
check "terminate: 57P01" grep -q "FATAL:  57P01: terminating connection due to administrator command" "$tmp/terminate.out"

# 4: statement_timeout ends it after a second (PostgreSQL's own timer)
t0=$(now)
session stmt -c "SET idscheme.max_wait_ms = 600000" -c "SET statement_timeout = '1s'" \
  -c "SELECT idscheme_next('snowflake')"
wait_for 30 gone "$spid"
t=$(secs "$t0" "$(now)")
echo "  statement_timeout = 1s: ended after $t s: $(grep -m1 ERROR "$tmp/stmt.out")"
check "statement_timeout: 57014 statement timeout" \
  grep -q "ERROR:  57014: canceling statement due to statement timeout" "$tmp/stmt.out"
check "statement_timeout: after 1 s, within 5 s ($t s)" eval "under 0.9 $t && under $t 5"

# 5: lock_timeout bounds the wait too (the module's bound)
t0=$(now)
session lockt -c "SET idscheme.max_wait_ms = 600000" -c "SET lock_timeout = '1s'" \
  -c "SELECT idscheme_next('snowflake')"
wait_for 30 gone "$spid"
t=$(secs "$t0" "$(now)")
echo "  lock_timeout = 1s: ended after $t s: $(grep -m1 ERROR "$tmp/lockt.out")"
check "lock_timeout: 55P03 lock timeout" \
  grep -q "ERROR:  55P03: canceling statement due to lock timeout" "$tmp/lockt.out"
check "lock_timeout: after 1 s, within 5 s ($t s)" eval "under 0.9 $t && under $t 5"

# 6: the server never restarted, and no backend is left waiting
check "no backend is left waiting" [ -z "$(pgq "$port" -c "SELECT pid FROM pg_stat_activity
  WHERE wait_event_type = 'Extension'")" ]
check "the server log has no crash" \
  eval "! grep -qE 'terminated by signal|server process .* was terminated' '$tmp/one/server.log'"
finish
