#!/usr/bin/env bash
# load.sh BUILDDIR: 16 concurrent pgbench clients insert rows keyed by
# DEFAULT idscheme_next_bigint('snowflake'), each backend with a slot of
# the local store: not one unique violation, every key distinct, through a
# server restart and a pg_ctl reload that remakes every generator (its
# slot released, then claimed again above the last time it issued).
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
pg_stage
pg_init one
free_ports port
slots=$tmp/slots
mkdir -p "$slots" && chmod 1777 "$slots"
conf=$tmp/one/data/postgresql.conf
echo "idscheme.slots = 'local:$slots'" >>"$conf"
pg_start one port

pgq "$port" <<'SQL' || bad "schema"
CREATE EXTENSION idscheme;
CREATE TABLE k (id bigint PRIMARY KEY DEFAULT idscheme_next_bigint('snowflake'),
                pid int DEFAULT pg_backend_pid(), run int,
                policy text DEFAULT current_setting('idscheme.policy'));
SQL
printf 'INSERT INTO k (run) VALUES (:run);\n' >"$tmp/insert.sql"

# bench RUN [INSERTS]: 16 clients, 2 threads, INSERTS (400) each
bench () {
  local run=$1
  "$pgbin/pgbench" -n -h 127.0.0.1 -p "$port" -U postgres -c 16 -j 2 \
    -t "${2:-400}" \
    -D run="$run" -f "$tmp/insert.sql" postgres >"$tmp/bench$run.log" 2>&1
}
rows () { pgq "$port" -c "SELECT count(*) || ' ' || count(DISTINCT id) FROM k WHERE run = $1"; }
run3 () { pgq "$port" -c "SELECT count(*) FROM k WHERE run = 3"; }

bench 1; rc=$?
check "run 1: pgbench ends without an error" [ $rc = 0 ]
check "run 1: 6400 rows, 6400 distinct keys" [ "$(rows 1)" = "6400 6400" ]
check "run 1: 16 backends, each with its own node" [ "$(pgq "$port" -c \
  "SELECT count(DISTINCT pid) || ' ' || count(DISTINCT idscheme_fields('snowflake', id) - 'timestamp' - 'sequence')
   FROM k WHERE run = 1")" = "16 16" ]

# a restart: the new backends' slots are the old ones', claimed again
pg_stop one
pg_start one port
bench 2; rc=$?
check "after a restart: pgbench ends without an error" [ $rc = 0 ]
check "after a restart: 6400 rows, 6400 distinct keys" [ "$(rows 2)" = "6400 6400" ]

# a reload in the middle of a run: policy hold -> error remakes every
# backend's generator at its next call (the slot released and claimed
# again); pgbench's 16 clients go on inserting
bench 3 2500 & bpid=$!
wait_for 60 eval '[ "$(run3)" -gt 2000 ]'

echo "idscheme.policy = 'error'" >>"$conf"
as_pg "$stage/usr/lib/postgresql/15/bin/pg_ctl" -D "$tmp/one/data" reload >/dev/null
wait "$bpid"; rc=$?
check "a reload during a run: pgbench ends without an error" [ $rc = 0 ]
check "a reload during a run: 40000 rows, 40000 distinct keys" [ "$(rows 3)" = "40000 40000" ]
hold_error=$(pgq "$port" -c "SELECT count(*) FROM (SELECT pid FROM k WHERE run = 3
  GROUP BY pid HAVING count(DISTINCT policy) = 2) s")
echo "  backends that made IDs before and after the reload: $hold_error of 16"
check "the reload landed during the run (some backend made IDs under both)" \
  [ "$hold_error" -gt 0 ]
check "the reload reached the backends" [ "$(pgq "$port" -c 'SHOW idscheme.policy')" = error ]
check "no key repeats across the three runs" [ "$(pgq "$port" -c \
  "SELECT count(*) - count(DISTINCT id) FROM k")" = 0 ]
if grep -q 'duplicate key' "$tmp"/bench*.log "$tmp/one/server.log"; then
  grep -m3 'duplicate key' "$tmp"/bench*.log "$tmp/one/server.log"
  bad "no unique violation in any log"
else
  ok "no unique violation in any log"
fi
for r in 1 2 3; do grep -E 'tps|failed' "$tmp/bench$r.log" | head -2 | sed "s/^/  run $r: /"; done
finish
