#!/usr/bin/env bash
# regress.sh BUILDDIR: the extension's regression tests (pg/sql, expected
# outputs in pg/expected, run by PostgreSQL's pg_regress) on a real server,
# then every SQL entry point fed generated bad text: each call is an error
# of an expected SQLSTATE or a result, and the backend lives on.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
pg_stage
pg_init one
free_ports port
export IDSCHEME_SLOT_DIR=$tmp/slots      # the local store's, for settings
mkdir -p "$IDSCHEME_SLOT_DIR" && chmod 1777 "$IDSCHEME_SLOT_DIR"
pg_start one port

regress=$pgbin/../lib/pgxs/src/test/regress/pg_regress
tests=$(sed -n 's/^REGRESS = //p' "$root/pg/Makefile")
if "$regress" --bindir="$pgbin" --host=127.0.0.1 --port="$port" \
     --user=postgres --inputdir="$root/pg" --outputdir="$tmp/regress" \
     --load-extension=idscheme --dbname=idscheme_regress $tests \
     >"$tmp/regress.out" 2>&1; then
  ok "pg_regress: $(echo $tests)"
else
  cat "$tmp/regress.out"
  head -c 6000 "$tmp/regress/regression.diffs" 2>/dev/null
  bad "pg_regress: $(echo $tests)"
fi

# bad text: 3000 generated strings (random bytes of the ID alphabets and
# beyond, truncations and extensions of real IDs, huge and empty) through
# every function that reads text (the IMMUTABLE ones too), each in its own
# subtransaction
pgq "$port" -c "CREATE DATABASE fuzz" && PGDB=fuzz pgq "$port" \
  -c "CREATE EXTENSION idscheme" || bad "fuzz database"
before=$(pgq "$port" -c "SELECT pg_postmaster_start_time()")
out=$(PGDB=fuzz pgq "$port" -v ON_ERROR_STOP=1 <<'SQL' 2>&1
SET idscheme.slots = 'none';
SET idscheme.node = 1;
CREATE TEMP TABLE seen (state text, n int);
DO $$
DECLARE
  alphabet text := '0123456789abcdefABCDEF-_xyz~!ƒ.:/ _ZZzz' || chr(233) || chr(8364);
  schemes text[] := ARRAY(SELECT name FROM idscheme_schemes());
  encs text[] := ARRAY['dec', 'hex', 'uuid', 'crockford', 'base62', 'nosuch', ''];
  real text[] := ARRAY['175928847299117063', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '507f1f77bcf86cd799439011',
    'user_01h455vb4pex5vsknk084sn02q', '0ujtsYcgvSTl8PAuAdqWYSMnLOv'];
  t text; s text; e text; st text; k int;
BEGIN
  PERFORM setseed(0.42);
  FOR i IN 1..3000 LOOP
    k := i % 6;
    IF k = 0 THEN        -- random characters, 0..40 of them
      t := '';
      FOR j IN 1..floor(random() * 41)::int LOOP
        t := t || substr(alphabet, 1 + floor(random() * length(alphabet))::int, 1);
      END LOOP;
    ELSIF k = 1 THEN     -- a real ID cut short
      t := real[1 + i % 6];
      t := substr(t, 1, floor(random() * length(t))::int);
    ELSIF k = 2 THEN     -- a real ID with a character changed
      t := real[1 + i % 6];
      t := overlay(t placing substr(alphabet, 1 + floor(random() * length(alphabet))::int, 1)
                   from 1 + floor(random() * length(t))::int for 1);
    ELSIF k = 3 THEN     -- a real ID made longer
      t := real[1 + i % 6] || repeat('0', 1 + floor(random() * 30)::int);
    ELSIF k = 4 THEN     -- huge
      t := repeat(substr(alphabet, 1 + i % 20, 1), 100 + floor(random() * 100000)::int);
    ELSE
      t := real[1 + i % 6];
    END IF;
    s := schemes[1 + floor(random() * array_length(schemes, 1))::int];
    e := encs[1 + floor(random() * array_length(encs, 1))::int];
    FOR f IN 1..11 LOOP
      BEGIN
        CASE f
          WHEN 1 THEN PERFORM idscheme_time(s, t);
          WHEN 2 THEN PERFORM idscheme_fields(s, t, e);
          WHEN 3 THEN PERFORM idscheme_convert(s, t, e);
          WHEN 4 THEN PERFORM idscheme_bigint(s, t);
          WHEN 5 THEN PERFORM idscheme_uuid(s, t, e);
          WHEN 6 THEN PERFORM * FROM idscheme_inspect(t);
          WHEN 7 THEN PERFORM idscheme_next(t);
          WHEN 8 THEN PERFORM * FROM idscheme_inspect(s, t);
          WHEN 9 THEN PERFORM idscheme_time(t, 1::bigint);
          WHEN 10 THEN PERFORM idscheme_time_shipped(s, t, e);
          ELSE PERFORM idscheme_convert_shipped(s, t, e);
        END CASE;
        st := 'ok';
      EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
      END;
      INSERT INTO seen VALUES (st, 1);
    END LOOP;
  END LOOP;
END $$;
SELECT state || ' ' || sum(n) FROM seen GROUP BY state ORDER BY state;
SQL
)
rc=$?
echo "$out" | sed 's/^/  /'
check "the fuzz session ends normally" [ $rc = 0 ]
# the SQLSTATEs a bad input may give: malformed text, a bad parameter, out
# of range, no such object, an ambiguous name, a time out of range
unexpected=$(echo "$out" | grep -vE '^(ok|22P02|22023|22003|42704|42P08|22008) [0-9]+$')
check "every error has an expected SQLSTATE" [ -z "$unexpected" ]
check "some calls succeed and some are refused" \
  eval "echo \"\$out\" | grep -q '^ok ' && echo \"\$out\" | grep -q '^22P02 '"
after=$(pgq "$port" -c "SELECT pg_postmaster_start_time()")
check "no backend crashed (the server never restarted)" [ "$before" = "$after" ]
check "the server log has no crash" \
  eval "! grep -qE 'terminated by signal|server process .* was terminated' '$tmp/one/server.log'"
# pg_dump and restore keep the defined schemes (idscheme_defined is dumped
# through pg_extension_config_dump, and its rows are checked again as
# they are restored)
pgq "$port" -c "CREATE DATABASE dumped" && PGDB=dumped pgq "$port" <<'SQL' || bad "dumped"
CREATE EXTENSION idscheme;
INSERT INTO idscheme_defined VALUES ('tick48', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 32, "unit": "s", "epoch": 1600000000000},
  {"name": "node", "kind": "node", "bits": 4},
  {"name": "sequence", "kind": "sequence", "bits": 12}], "encodings": ["dec", "hex"]}');
SQL
"$pgbin/pg_dump" -Fc -h 127.0.0.1 -p "$port" -U postgres -d dumped -f "$tmp/dumped.dump"
check "pg_dump" [ $? = 0 ]
pgq "$port" -c "CREATE DATABASE restored"
"$pgbin/pg_restore" -h 127.0.0.1 -p "$port" -U postgres -d restored \
  --exit-on-error "$tmp/dumped.dump" >"$tmp/restore.log" 2>&1
check "pg_restore" [ $? = 0 ] || cat "$tmp/restore.log"
q="SELECT name || ' ' || spec::text FROM idscheme_defined"
check "the defined rows are restored as they were" \
  [ "$(PGDB=restored pgq "$port" -c "$q")" = "$(PGDB=dumped pgq "$port" -c "$q")" ]
q="SELECT idscheme_time('tick48', 123456789012345::bigint) || ' ' ||
          idscheme_convert('tick48', '123456789012345', 'hex')"
check "the restored scheme reads an ID as the original does" \
  [ "$(PGDB=restored pgq "$port" -c "$q")" = "$(PGDB=dumped pgq "$port" -c "$q")" ]

# define in SQL refuses what idscheme.define refuses in Lua, with the
# library's message (the binding's own shape messages say "array" or
# "object" for JSON where Lua says "table")
specs=$tmp/specs.txt
cat >"$specs" <<'SPECS'
bad4	{"fields": [{"name": "t", "kind": "clock", "bits": 32}]}
bad5	{"fields": [{"name": "t", "kind": "time", "bits": 32}, {"name": "s", "kind": "sequence", "bits": 200}]}
bad7	{"fields": [{"name": "t", "kind": "time", "bits": 48}], "encodings": ["base99"]}
bad11	{"fields": [{"name": "t", "kind": "time", "bits": 32}]}
bad12	{"fields": [{"name": "t", "kind": "time", "bits": 48, "unit": "fortnight"}]}
bad13	{"fields": [{"name": "t", "kind": "time", "bits": 48}, {"name": "t", "kind": "node", "bits": 8}]}
bad14	{"fields": [{"name": "policy", "kind": "node", "bits": 8}, {"name": "t", "kind": "time", "bits": 48}]}
bad15	{"fields": [{"name": "t", "kind": "time", "bits": 48}], "default_encoding": "hex", "encodings": ["dec"]}
bad16	{"fields": [{"name": "t", "kind": "time", "bits": 48}], "color": 1}
bad17	{"fields": [{"name": "t", "kind": "time", "bits": 48, "colour": 1}]}
snowflake	{"fields": [{"name": "t", "kind": "time", "bits": 48}]}
SPECS
cat >"$tmp/define.lua" <<'LUA'
package.cpath = arg[1] .. "/lua54/?.so;" .. package.cpath
local ids, cjson = require "idscheme", require "cjson"
local spec = cjson.decode(arg[3]); spec.name = arg[2]
local ok, err = pcall(ids.define, spec)
print(ok and "accepted" or (tostring(err):gsub("^idscheme.define: ", "")))
LUA
same=0 differ=0
while IFS=$'\t' read -r name spec; do
  # (psql quotes the variables: they are read from stdin, not -c)
  sqlmsg=$(echo "INSERT INTO idscheme_defined VALUES (:'name', :'spec')" |
    "$pgbin/psql" -X -q -At -h 127.0.0.1 -p "$port" -U postgres -d fuzz \
      -v name="$name" -v spec="$spec" 2>&1 | sed -n 's/^ERROR:  //p')
  luamsg=$(lua_run "$tmp/define.lua" \
    "$build" "$name" "$spec" 2>&1)
  if [ "$sqlmsg" = "$luamsg" ] && [ -n "$sqlmsg" ]; then same=$((same + 1))
  else differ=$((differ + 1)); echo "  $name: SQL '$sqlmsg', Lua '$luamsg'"; fi
done <"$specs"
check "SQL and Lua refuse $((same + differ)) bad specs with the same message" \
  [ "$differ" = 0 ]
finish
