#!/usr/bin/env bash
# node.sh BUILDDIR: idscheme.node given to many backends at once, by each
# way docs/POSTGRESQL.md names (ALTER SYSTEM and a reload, which is
# postgresql.conf; ALTER DATABASE; ALTER ROLE; SET): 16 pgbench clients
# insert with DEFAULT idscheme_next_bigint('snowflake') into a table with
# no unique key, so that every ID is kept and a repeated one is counted.
# One backend holds the node; the 15 others get the documented error
# (naming the node and the holder's pid) and no ID.  Then nodes handed
# over between backends (a connection per transaction), a node of its own
# per session (no error at all), and a backend that remakes its node's
# generator 2000 times in a row (each new one starts above the last).
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
pg_stage
pg_init one
free_ports port
slots=$tmp/slots
mkdir -p "$slots" && chmod 1777 "$slots"
echo "idscheme.slots = 'local:$slots'" >>"$tmp/one/data/postgresql.conf"
pg_start one port

pgq "$port" <<'SQL' || bad "schema"
CREATE ROLE app LOGIN;
CREATE DATABASE app;
SQL
PGDB=app pgq "$port" <<'SQL' || bad "schema in app"
CREATE EXTENSION idscheme;
-- no unique key: every ID is kept, a repeated one is counted
CREATE TABLE k (id bigint DEFAULT idscheme_next_bigint('snowflake'),
                pid int DEFAULT pg_backend_pid(), way int);
GRANT INSERT, SELECT ON k TO app;
SQL
printf 'INSERT INTO k (way) VALUES (:way);\n' >"$tmp/insert.sql"
printf 'SET idscheme.node = 8;\nINSERT INTO k (way) VALUES (:way);\n' \
  >"$tmp/set.sql"
# (pgbench's :client_id, 0..15, is the client's node)
printf 'SET idscheme.node = :client_id;\nINSERT INTO k (way) VALUES (:way);\n' \
  >"$tmp/own.sql"

# bench WAY USER SCRIPT [pgbench options]: 16 clients on database app for
# 3 seconds; the log in bench$WAY.log
bench () {
  local way=$1 user=$2 script=$3; shift 3
  "$pgbin/pgbench" -n -h 127.0.0.1 -p "$port" -U "$user" -c 16 -j 2 -T 3 \
    -D way="$way" "$@" -f "$script" app >"$tmp/bench$way.log" 2>&1
}
q () { PGDB=app pgq "$port" -c "$1"; }
# the node a new session of USER on database app has (-1 also while the
# library is not loaded and nothing set it)
node_of () { PGDB=app "$pgbin/psql" -X -At -h 127.0.0.1 -p "$port" -U "$1" \
  -d app -c "SELECT coalesce(nullif(current_setting('idscheme.node', true), ''), '-1')"; }

# shared WAY NODE NAME: one backend made every ID of the way, and each of
# the 15 others got the error naming the node and that backend
shared () {
  local way=$1 node=$2 name=$3 res holder errors others
  res=$(q "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' ||
             count(DISTINCT pid) || ' ' || coalesce(min(pid), 0) || ' ' ||
             count(DISTINCT idscheme_fields('snowflake', id) - 'timestamp' - 'sequence')
           FROM k WHERE way = $way")
  set -- $res
  holder=$4
  check "$name: every ID has one node" [ "$5" = 1 ]
  errors=$(grep -c "aborted.*idscheme.node = $node is in use by another backend (pid $holder)" \
             "$tmp/bench$way.log")
  others=$(grep -E 'ERROR|FATAL' "$tmp/bench$way.log" |
           grep -vc "idscheme.node = $node is in use by another backend")
  echo "  $name: $1 IDs, $2 distinct, made by $3 backend(s); $errors clients refused"
  check "$name: $1 IDs, 0 duplicates" [ "$1" -gt 0 ] && [ "$1" = "$2" ]
  check "$name: one backend held node $node and made every ID" [ "$3" = 1 ]
  check "$name: the 15 others got the error naming the node and the holder" \
    [ "$errors" = 15 ]
  check "$name: no other error" [ "$others" = 0 ] ||
    grep -m3 -E 'ERROR|FATAL' "$tmp/bench$way.log"
}

# 1: postgresql.conf, written by ALTER SYSTEM, read at a reload (ALTER
# SYSTEM knows the setting once the library is loaded)
pgq "$port" -c "LOAD 'idscheme'" -c "ALTER SYSTEM SET idscheme.node = 5" \
  -c "SELECT pg_reload_conf()" >/dev/null
wait_for 10 eval '[ "$(node_of postgres)" = 5 ]' || bad "the reload reached new sessions"
bench 1 postgres "$tmp/insert.sql"
shared 1 5 "ALTER SYSTEM + reload"
pgq "$port" -c "LOAD 'idscheme'" -c "ALTER SYSTEM RESET idscheme.node" \
  -c "SELECT pg_reload_conf()" >/dev/null
wait_for 10 eval '[ "$(node_of postgres)" = -1 ]' || bad "the reset reached new sessions"

# 2: ALTER DATABASE
pgq "$port" -c "ALTER DATABASE app SET idscheme.node = 6"
bench 2 postgres "$tmp/insert.sql"
shared 2 6 "ALTER DATABASE"
pgq "$port" -c "ALTER DATABASE app RESET idscheme.node"

# 3: ALTER ROLE (the issue's case: 8,672 duplicates in 197,600 keys), a
# role that is no superuser
pgq "$port" -c "ALTER ROLE app SET idscheme.node = 7"
check "ALTER ROLE: the role's sessions have the node" [ "$(node_of app)" = 7 ]
bench 3 app "$tmp/insert.sql"
shared 3 7 "ALTER ROLE"

# 4: SET, in every transaction of every client
bench 4 postgres "$tmp/set.sql"
shared 4 8 "SET"

# 5: ALTER ROLE again, a new connection per transaction: the node goes
# from backend to backend (an exiting backend lets it go once the clock
# has passed its last ID; the next waits up to a second for it)
bench 5 app "$tmp/insert.sql" -C
res=$(q "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT pid)
         FROM k WHERE way = 5")
set -- $res
others=$(grep -E 'ERROR|FATAL' "$tmp/bench5.log" |
         grep -vc "idscheme.node = 7 is in use by another backend")
echo "  handed over: $1 IDs, $2 distinct, by $3 backends in turn;" \
  "$(grep -c 'is in use' "$tmp/bench5.log") clients refused"
check "handed over: $1 IDs, 0 duplicates" [ "$1" -gt 0 ] && [ "$1" = "$2" ]
check "handed over: the node went from backend to backend" [ "$3" -gt 1 ]
check "handed over: no other error" [ "$others" = 0 ] ||
  grep -m3 -E 'ERROR|FATAL' "$tmp/bench5.log"
pgq "$port" -c "ALTER ROLE app RESET idscheme.node"

# 6: a node of its own per session: nobody is refused
bench 7 postgres "$tmp/own.sql"
res=$(q "SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(DISTINCT pid) || ' ' ||
           count(DISTINCT idscheme_fields('snowflake', id) - 'timestamp' - 'sequence')
         FROM k WHERE way = 7")
set -- $res
echo "  own nodes: $1 IDs, $2 distinct, $3 backends, $4 nodes"
check "own nodes: 16 backends, 16 nodes, $1 IDs, 0 duplicates" \
  [ "$1" = "$2" ] && [ "$3 $4" = "16 16" ]
check "own nodes: no error" eval "! grep -qE 'ERROR|FATAL' '$tmp/bench7.log'"

# 7: one backend remakes its node's generator at every call (a setting
# changes): each new generator starts above the last ID of the one before
out=$(PGDB=app pgq "$port" <<'SQL'
SET idscheme.node = 9;
CREATE TEMP TABLE r (id bigint);
DO $$
BEGIN
  FOR i IN 1..2000 LOOP
    PERFORM set_config('idscheme.policy', CASE WHEN i % 2 = 0 THEN 'hold' ELSE 'error' END, false);
    INSERT INTO r VALUES (idscheme_next_bigint('snowflake'));
  END LOOP;
END $$;
SELECT count(*) || ' ' || count(DISTINCT id) FROM r;
SQL
)
echo "  remade 2000 times: $out"
check "a generator remade 2000 times: 2000 IDs, 0 duplicates" [ "$out" = "2000 2000" ]

check "no key repeats across all the runs" [ "$(q "SELECT count(*) - count(DISTINCT id) FROM k")" = 0 ]
check "the server log has no crash" \
  eval "! grep -qE 'terminated by signal|server process .* was terminated' '$tmp/one/server.log'"
finish
