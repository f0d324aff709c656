#!/usr/bin/env bash
# two.sh BUILDDIR: two PostgreSQL servers (two data directories, two
# ports) whose backends lease their nodes from one redis-server; 8
# pgbench clients on each insert with DEFAULT idscheme_next_bigint(...)
# at once: 0 duplicate keys across both servers, and every backend of
# either server holds a node of its own.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
store=redis
server=$(command -v redis-server) || { bad "redis-server is installed"; finish; }
free_ports port pa pb
. "$dir/../slots/server.sh"
start_server
pg_stage
for s in a b; do
  pg_init $s
  echo "idscheme.slots = 'redis://127.0.0.1:$port/pg'" >>"$tmp/$s/data/postgresql.conf"
done
pg_start a pa
pg_start b pb
for p in "$pa" "$pb"; do
  pgq "$p" <<'SQL' || bad "schema on $p"
CREATE EXTENSION idscheme;
CREATE TABLE k (id bigint PRIMARY KEY DEFAULT idscheme_next_bigint('snowflake'),
                pid int DEFAULT pg_backend_pid());
SQL
done
printf 'INSERT INTO k DEFAULT VALUES;\n' >"$tmp/insert.sql"
for p in "$pa" "$pb"; do
  "$pgbin/pgbench" -n -h 127.0.0.1 -p "$p" -U postgres -c 8 -j 1 -t 1000 \
    -f "$tmp/insert.sql" postgres >"$tmp/bench$p.log" 2>&1 &
  eval "b$p=\$!"
done
wait "$(eval echo \$b$pa)"; ra=$?
wait "$(eval echo \$b$pb)"; rb=$?
check "server a: pgbench ends without an error" [ $ra = 0 ]
check "server b: pgbench ends without an error" [ $rb = 0 ]

# b's rows into a table of a, then both together
pgq "$pa" -c "CREATE TABLE kb (id bigint, pid int)" || bad "kb"
"$pgbin/psql" -X -q -h 127.0.0.1 -p "$pb" -U postgres -d postgres \
    -c "COPY k TO STDOUT" |
  "$pgbin/psql" -X -q -h 127.0.0.1 -p "$pa" -U postgres -d postgres \
    -c "COPY kb FROM STDIN"
res=$(pgq "$pa" -c "WITH everyone AS (
    SELECT 'a' AS server, pid, id FROM k UNION ALL SELECT 'b', pid, id FROM kb)
  SELECT count(*) || ' ' || count(DISTINCT id) || ' ' ||
         count(DISTINCT (server, pid)) || ' ' ||
         count(DISTINCT idscheme_fields('snowflake', id) - 'timestamp' - 'sequence') || ' ' ||
         count(DISTINCT (server, pid, idscheme_fields('snowflake', id) - 'timestamp' - 'sequence'))
  FROM everyone")
echo "  rows, distinct keys, backends, nodes, (backend, node) pairs: $res"
set -- $res
check "16000 keys made on two servers, 0 duplicates" [ "$1 $2" = "16000 16000" ]
check "16 backends hold 16 distinct nodes, one each" [ "$3 $4 $5" = "16 16 16" ]
check "the nodes came from redis (the store's keys)" \
  [ "$(pgq "$pa" -c "SELECT (idscheme_generator('snowflake')).backend")" = redis ]
finish
