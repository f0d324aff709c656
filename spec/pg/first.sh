#!/usr/bin/env bash
# first.sh BUILDDIR: what a backend's first call costs on a redis slot
# store, and that the settings users expect bound it.  A store new to a
# namespace makes its first holders wait one TTL (docs/SLOTS.md, rule 7:
# 10 s by default) before their first ID:
#   - idscheme.max_wait_ms = 2000: the first call fails at once (55P03);
#   - statement_timeout = 2s: it is cancelled after 2 s (57014);
#   - by default it waits and succeeds, after about the TTL (measured);
# then each new connection's first call (the library loaded, a slot
# claimed, its first ID) is measured, with the library loaded by each
# backend and with it in shared_preload_libraries.  A fresh store for each
# case: its own key prefix.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
store=redis
server=$(command -v redis-server) || { bad "redis-server is installed"; finish; }
free_ports port pgport
. "$dir/../slots/server.sh"
start_server
pg_stage
pg_init one
pg_start one pgport
pgq "$pgport" -c "CREATE EXTENSION idscheme" || bad "extension"

now () { date +%s.%N; }
secs () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
under () { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'; }
# first PREFIX SETTINGS...: a new session's first call on the store
# redis://.../PREFIX after the settings; its output in $out, seconds in $t
first () {
  local prefix=$1 t0; shift
  t0=$(now)
  out=$("$pgbin/psql" -X -At -h 127.0.0.1 -p "$pgport" -U postgres \
    -d postgres -v VERBOSITY=verbose \
    -c "SET idscheme.slots = 'redis://127.0.0.1:$port/$prefix'" "$@" \
    -c "SELECT idscheme_next('snowflake')" 2>&1)
  t=$(secs "$t0" "$(now)")
}

first fresh1 -c "SET idscheme.max_wait_ms = 2000"
echo "  max_wait_ms = 2000: $t s: $(echo "$out" | grep -m1 ERROR)"
check "a fresh store, max_wait_ms 2000: 55P03, the wait named" \
  eval "echo \"\$out\" | grep -q '55P03: snowflake: waiting .* handover floor.* would pass max_wait_ms (2000)'"
check "a fresh store, max_wait_ms 2000: fails at once, within 2 s ($t s)" under "$t" 2

first fresh2 -c "SET statement_timeout = '2s'"
echo "  statement_timeout = 2s: $t s: $(echo "$out" | grep -m1 ERROR)"
check "a fresh store, statement_timeout 2s: 57014" \
  eval "echo \"\$out\" | grep -q '57014: canceling statement due to statement timeout'"
check "a fresh store, statement_timeout 2s: ends after 2 s, within 5 s ($t s)" \
  eval "under 1.9 $t && under $t 5"

first fresh3
echo "  by default: $t s: $out"
first_call=$t
check "a fresh store, by default: the first call succeeds" \
  eval "echo \"\$out\" | grep -qE '^[0-9]+$'"
check "a fresh store, by default: it waits about the TTL, 10 s ($t s)" \
  eval "under 8 $t && under $t 20"

# each new connection's first call on a store that has history: \timing
# of the call alone (the session is open), 20 connections one after the
# other, each once the backend before it has gone (a backend that comes
# while its predecessor still holds slot 0 claims slot 1, which the store
# has no record of: it waits a TTL, as a fresh store's first holder)
# per_connection NAME: the median, the mean and the largest in ms
others () { pgq "$pgport" -c "SELECT count(*) FROM pg_stat_activity
  WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"; }
per_connection () {
  local name=$1 i ms
  : >"$tmp/$name.ms"
  for i in $(seq 1 20); do
    wait_for 10 eval '[ "$(others)" = 0 ]'
    ms=$("$pgbin/psql" -X -h 127.0.0.1 -p "$pgport" -U postgres -d postgres \
      -c "SET idscheme.slots = 'redis://127.0.0.1:$port/fresh3'" \
      -c '\timing on' -c "SELECT idscheme_next('snowflake')" 2>&1 |
      sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    echo "$ms" >>"$tmp/$name.ms"
  done
  sort -n "$tmp/$name.ms" | awk '{ a[NR] = $1; s += $1 }
    END { printf "median %.1f ms, mean %.1f ms, max %.1f ms", a[int((NR + 1) / 2)], s / NR, a[NR] }'
}
each=$(per_connection loaded)
echo "  a new connection's first call, the library loaded by the backend: $each"
check "20 new connections each made their first ID" \
  [ "$(grep -c . "$tmp/loaded.ms")" = 20 ]
check "no first call took a second" \
  [ "$(awk '$1 >= 1000' "$tmp/loaded.ms" | wc -l)" = 0 ]

echo "shared_preload_libraries = 'idscheme'" >>"$tmp/one/data/postgresql.conf"
pg_stop one
pg_start one pgport
check "preloaded" [ "$(pgq "$pgport" -c "SHOW shared_preload_libraries")" = idscheme ]
pre=$(per_connection preloaded)
echo "  a new connection's first call, the library preloaded: $pre"
check "preloaded: 20 new connections each made their first ID" \
  [ "$(grep -c . "$tmp/preloaded.ms")" = 20 ]
echo "  (first call on a fresh store: $first_call s)"
finish
