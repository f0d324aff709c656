#!/usr/bin/env bash
# admin.sh BUILDDIR: what an administrator does with the extension, as
# docs/POSTGRESQL.md says it (issues 39 and 40):
#   1. builds: out of the tree after an in-tree build left its objects in
#      the sources; against a build tree, the module finding its library;
#   2. ALTER EXTENSION idscheme UPDATE from the last packaged version
#      (0.2.0, installed from its own script, objects made with it): the
#      updated extension has exactly the objects of a new install;
#   3. ALTER SYSTEM SET idscheme.* in a fresh session (LOAD first, or the
#      library preloaded);
#   4. the store's password: idscheme.slots is read by superusers and
#      pg_read_all_settings only (a plain role by no SHOW, current_setting
#      or pg_settings), and a Redis password kept in the server's
#      environment ($IDSCHEME_REDIS_PASSWORD) instead (with redis-server).
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
pgconfig=$pgbin/pg_config
mk () { make -s PG_CONFIG="$pgconfig" IDSCHEME_BUILD="$build" "$@"; }

# ---------------------------------------------------------------- builds
# a copy of the sources (pg/ beside the headers it includes) where `make
# -C pg` ran in the tree, then the out-of-tree build docs/POSTGRESQL.md
# gives: it builds its own objects and installs
src=$tmp/src
mkdir -p "$src/pg" "$tmp/out1" "$tmp/dest1"
cp "$root"/pg/Makefile "$root"/pg/*.c "$root"/pg/*.h "$root"/pg/*.sql \
   "$root"/pg/*.control "$src/pg/"
ln -s "$root/core" "$src/core"
ln -s "$root/inspect" "$src/inspect"
check "an in-tree build (make -C pg) leaves its objects in the sources" \
  eval 'mk -C "$src/pg" >"$tmp/intree.log" 2>&1 && [ -f "$src/pg/module.bc" ]'
if mk -C "$tmp/out1" -f "$src/pg/Makefile" >"$tmp/out1.log" 2>&1 &&
   mk -C "$tmp/out1" -f "$src/pg/Makefile" DESTDIR="$tmp/dest1" install \
     >>"$tmp/out1.log" 2>&1; then
  ok "then an out-of-tree build builds and installs"
else
  tail -5 "$tmp/out1.log"; bad "then an out-of-tree build builds and installs"
fi
check "it compiled its own objects (not the tree's)" \
  eval '[ -f "$tmp/out1/module.o" ] && [ -f "$tmp/out1/module.bc" ]'

# against the build tree, as the docs say: the module finds the build's
# libidscheme.so.0 (without IDSCHEME_RPATH it would look in the system's
# library path only)
mkdir -p "$tmp/out2"
mk -C "$tmp/out2" -f "$root/pg/Makefile" IDSCHEME_RPATH="$build" \
  >"$tmp/out2.log" 2>&1 || { tail -5 "$tmp/out2.log"; bad "the build against the build tree"; }
found=$(ldd "$tmp/out2/idscheme.so" | sed -n 's/^[[:space:]]*libidscheme\.so\.[0-9]* => \([^ ]*\).*/\1/p')
check "a build against the build tree finds $build/libidscheme.so.0 (${found:-not found})" \
  [ "$found" = "$build/libidscheme.so.0" ]

# ----------------------------------------------------------- the server
pg_stage
ext=$stage/usr/share/postgresql/15/extension
v=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$root/pg/idscheme.control")
# 0.2.0, the last packaged version, from its own script (not installed by
# the Makefile: an update starts from the version a database has)
cp "$root/pg/idscheme--0.2.0.sql" "$ext/"
chmod a+r "$ext/idscheme--0.2.0.sql"
pg_init one
free_ports pgport
export IDSCHEME_SLOT_DIR=$tmp/slots
mkdir -p "$IDSCHEME_SLOT_DIR" && chmod 1777 "$IDSCHEME_SLOT_DIR"
pg_start one pgport

# --------------------------------------------------------------- update
echo "# ALTER EXTENSION idscheme UPDATE: 0.2.0 to $v"
pgq "$pgport" -c "CREATE DATABASE updated" -c "CREATE DATABASE fresh" ||
  bad "databases"
PGDB=updated pgq "$pgport" <<'SQL' >/dev/null || bad "0.2.0 and objects made with it"
CREATE EXTENSION idscheme VERSION '0.2.0';
SET idscheme.slots = 'none';
SET idscheme.node = 4;
CREATE TABLE k (id bigint PRIMARY KEY DEFAULT idscheme_next_bigint('snowflake'),
                u uuid DEFAULT idscheme_next_uuid('uuidv7'), x int);
INSERT INTO k (x) SELECT generate_series(1, 100);
CREATE VIEW k_made AS SELECT id, idscheme_time('snowflake', id) AS made FROM k;
INSERT INTO idscheme_defined VALUES ('upd48', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 32, "unit": "s", "epoch": 1600000000000},
  {"name": "node", "kind": "node", "bits": 4},
  {"name": "sequence", "kind": "sequence", "bits": 12}]}');
CREATE TABLE d (id bigint DEFAULT idscheme_next_bigint('upd48'));
INSERT INTO d SELECT FROM generate_series(1, 10);
SQL
check "0.2.0 is installed from its script" \
  [ "$(PGDB=updated pgq "$pgport" -c "SELECT extversion FROM pg_extension WHERE extname = 'idscheme'")" = 0.2.0 ]
check "0.2.0 has no IMMUTABLE function to update from" \
  [ "$(PGDB=updated pgq "$pgport" -c "SELECT count(*) FROM pg_proc WHERE proname LIKE 'idscheme%' AND provolatile = 'i'")" = 0 ]
path=$(PGDB=updated pgq "$pgport" -c "SELECT path FROM pg_extension_update_paths('idscheme') WHERE source = '0.2.0' AND target = '$v'")
check "an update path from 0.2.0 to $v: $path" [ "$path" = "0.2.0--$v" ]
PGDB=updated pgq "$pgport" -c "ALTER EXTENSION idscheme UPDATE" >/dev/null
check "ALTER EXTENSION idscheme UPDATE" [ $? = 0 ]
PGDB=fresh pgq "$pgport" -c "CREATE EXTENSION idscheme" >/dev/null || bad "fresh install"
q="SELECT extversion FROM pg_extension WHERE extname = 'idscheme'"
check "the updated database is at $v, as a new one" \
  [ "$(PGDB=updated pgq "$pgport" -c "$q")/$(PGDB=fresh pgq "$pgport" -c "$q")" = "$v/$v" ]
# every object of the extension, as the catalogs say it: functions with
# their arguments, defaults, result, volatility, strictness, parallel
# safety and C symbol; tables, their columns and triggers; what pg_dump
# keeps (extconfig)
members="
SELECT 'function ' || p.oid::regprocedure || ' ' ||
       pg_get_function_arguments(p.oid) || ' -> ' ||
       pg_get_function_result(p.oid) || ' ' || p.provolatile::text ||
       p.proisstrict::text || p.proparallel::text || ' ' || p.prosrc || ' ' ||
       coalesce(p.probin, '') || ' ' || p.prorows
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass
  AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idscheme'
UNION ALL
SELECT 'relation ' || c.relname || ' ' || c.relkind::text || ' ' ||
       (SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod) ||
                          ':' || a.attnotnull, ',' ORDER BY a.attnum)
        FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0)
FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass
  AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idscheme'
UNION ALL
SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t
WHERE t.tgrelid = 'idscheme_defined'::regclass AND NOT t.tgisinternal
UNION ALL
SELECT 'index ' || pg_get_indexdef(i.indexrelid) FROM pg_index i
WHERE i.indrelid = 'idscheme_defined'::regclass
UNION ALL
SELECT 'config ' || e.extconfig::regclass[]::text || ' ' ||
       coalesce(array_to_string(e.extcondition, ','), '')
FROM pg_extension e WHERE e.extname = 'idscheme'
ORDER BY 1"
PGDB=updated pgq "$pgport" -c "$members" >"$tmp/members.updated"
PGDB=fresh pgq "$pgport" -c "$members" >"$tmp/members.fresh"
if [ -s "$tmp/members.fresh" ] &&
   diff "$tmp/members.fresh" "$tmp/members.updated" >"$tmp/members.diff"; then
  ok "the updated extension has exactly a new install's objects ($(wc -l <"$tmp/members.fresh"))"
else
  sed 's/^/  /' "$tmp/members.diff" 2>/dev/null; bad "the updated extension has exactly a new install's objects"
fi
out=$(PGDB=updated pgq "$pgport" <<'SQL' 2>&1
SET idscheme.slots = 'none';
SET idscheme.node = 5;
SET timezone = 'UTC';
INSERT INTO k (x) SELECT generate_series(101, 200);
INSERT INTO d SELECT FROM generate_series(1, 10);
SELECT count(*) || ' ' || count(DISTINCT id) FROM k;
SELECT count(*) FROM k_made WHERE made > now() - interval '1 hour';
SELECT count(DISTINCT id) FROM d;
ALTER TABLE k ADD COLUMN made timestamptz
  GENERATED ALWAYS AS (idscheme_time_shipped('snowflake', id)) STORED;
CREATE INDEX k_u_made ON k (idscheme_time_shipped('uuidv7', u));
SELECT count(*) FROM k WHERE made = idscheme_time_shipped('uuidv7', u)
                          OR made <= idscheme_time_shipped('uuidv7', u);
SQL
)
check "after the update: the old objects work and the new functions index them" \
  [ "$(echo $out)" = "200 200 200 20 200" ]
[ "$(echo $out)" = "200 200 200 20 200" ] || echo "  $out"

# ----------------------------------------------------------- ALTER SYSTEM
echo "# ALTER SYSTEM SET idscheme.* in a fresh session"
out=$(pgq "$pgport" -c "ALTER SYSTEM SET idscheme.policy = 'error'" 2>&1)
check "without the library loaded: refused (42704), as the docs say" \
  eval 'grep -q "unrecognized configuration parameter \"idscheme.policy\"" <<<"$out"'
pgq "$pgport" -c "LOAD 'idscheme'" -c "ALTER SYSTEM SET idscheme.policy = 'error'" \
  -c "SELECT pg_reload_conf()" >/dev/null
check "after LOAD 'idscheme' in the session: set" [ $? = 0 ]
policy () { pgq "$pgport" -c "SHOW idscheme.policy" 2>/dev/null; }
check "and the new sessions have it" wait_for 5 eval '[ "$(policy)" = error ]'
pgq "$pgport" -c "ALTER SYSTEM SET session_preload_libraries = 'idscheme'" \
  -c "SELECT pg_reload_conf()" >/dev/null || bad "session_preload_libraries"
preloaded () { pgq "$pgport" -c "SHOW session_preload_libraries"; }
wait_for 5 eval '[ "$(preloaded)" = idscheme ]'
pgq "$pgport" -c "ALTER SYSTEM RESET idscheme.policy" -c "SELECT pg_reload_conf()" >/dev/null
check "with session_preload_libraries = 'idscheme': set in a fresh session" [ $? = 0 ]
pgq "$pgport" -c "ALTER SYSTEM RESET session_preload_libraries" \
  -c "SELECT pg_reload_conf()" >/dev/null
wait_for 5 eval '[ -z "$(preloaded)" ]'

# ------------------------------------------------------------ the secret
echo "# idscheme.slots holding a password, read by a plain role"
pgq "$pgport" -c "CREATE ROLE plain LOGIN" -c "CREATE ROLE monitor LOGIN IN ROLE pg_monitor" \
  -c "CREATE DATABASE app" \
  -c "ALTER DATABASE app SET idscheme.slots = 'redis://admin:s3cret@127.0.0.1:1/pg'" \
  >/dev/null || bad "roles"
PGDB=app pgq "$pgport" -c "CREATE EXTENSION idscheme" >/dev/null
# as ROLE, in a fresh session of database app: what each way shows
as_role () {
  "$pgbin/psql" -X -At -h 127.0.0.1 -p "$pgport" -U "$1" -d app -c "$2" 2>&1
}
ways=("SHOW idscheme.slots" "SELECT current_setting('idscheme.slots')"
      "SELECT current_setting('idscheme.slots', true)"
      "SELECT setting || reset_val || boot_val FROM pg_settings WHERE name = 'idscheme.slots'"
      "SELECT string_agg(name || setting || reset_val, ' ') FROM pg_settings WHERE name LIKE 'idscheme%'")
# a session that has not loaded the library sees a placeholder, which
# PostgreSQL shows to anyone: loaded by a call, or preloaded, it hides it
out=$(as_role plain "SHOW idscheme.slots")
echo "  (a session that has not loaded the library: SHOW says '$out')"
for way in "${ways[@]}"; do
  out=$("$pgbin/psql" -X -At -h 127.0.0.1 -p "$pgport" -U plain -d app \
          -c "SELECT idscheme_time('snowflake', 1::bigint) IS NOT NULL" -c "$way" 2>&1)
  check "a plain role, the library loaded by a call: $way reads no password ($(echo $out | cut -c1-50))" \
    eval '! grep -q s3cret <<<"$out"'
done
pgq "$pgport" -c "ALTER SYSTEM SET session_preload_libraries = 'idscheme'" \
  -c "SELECT pg_reload_conf()" >/dev/null
wait_for 5 eval '[ "$(preloaded)" = idscheme ]'
for way in "${ways[@]}"; do
  out=$(as_role plain "$way")
  check "a plain role, the library preloaded: $way first reads no password ($(echo $out | cut -c1-50))" \
    eval '! grep -q s3cret <<<"$out"'
done
out=$(as_role plain "SHOW idscheme.slots")
check "SHOW says why" eval 'grep -q "must be superuser or have privileges of pg_read_all_settings" <<<"$out"'
check "pg_read_all_settings (here through pg_monitor) reads it" \
  eval '[ "$(as_role monitor "SHOW idscheme.slots")" = "redis://admin:s3cret@127.0.0.1:1/pg" ]'
check "a superuser reads it" \
  eval '[ "$(PGDB=app pgq "$pgport" -c "SHOW idscheme.slots")" = "redis://admin:s3cret@127.0.0.1:1/pg" ]'
out=$(as_role plain "SELECT setconfig FROM pg_db_role_setting")
echo "  (PostgreSQL's pg_db_role_setting shows ALTER DATABASE/ROLE values to every role: $out)"
out=$(as_role plain "SELECT idscheme_next('snowflake')")
check "the store's errors mask the password ($(echo $out | cut -c1-70))" \
  eval '! grep -q s3cret <<<"$out" && grep -q "admin:\*\*\*@" <<<"$out"'
pgq "$pgport" -c "ALTER DATABASE app RESET idscheme.slots" >/dev/null

if server=$(command -v redis-server); then
  # the password in the server's environment only: a Redis that asks for
  # it, a URL without it
  store=redis
  free_ports rport
  . "$dir/../slots/server.sh"
  port=$rport
  start_server --requirepass s3cret
  pgq "$pgport" -c "ALTER DATABASE app SET idscheme.slots = 'redis://127.0.0.1:$rport/pg'" \
    -c "ALTER DATABASE app SET idscheme.slot_ttl_ms = 1000" >/dev/null
  out=$(as_role plain "SELECT idscheme_next('snowflake')")
  check "without the password: the store refuses ($(echo $out | cut -c1-70))" \
    eval '! grep -qE "^[0-9]+$" <<<"$out"'
  pg_stop one
  export IDSCHEME_REDIS_PASSWORD=s3cret
  pg_start one pgport
  unset IDSCHEME_REDIS_PASSWORD
  out=$(as_role plain "SELECT idscheme_next('snowflake') ~ '^[0-9]+\$', (idscheme_generator('snowflake')).backend")
  check "with \$IDSCHEME_REDIS_PASSWORD in the server's environment: a plain role's IDs ($out)" \
    [ "$out" = "t|redis" ]
  check "and the setting holds no secret" \
    eval '! as_role plain "SELECT setconfig FROM pg_db_role_setting" | grep -q s3cret'
else
  echo "# no redis-server: the environment's password is not tried"
fi
finish
