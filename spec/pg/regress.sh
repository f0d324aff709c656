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
pg_start one "$port"

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
# every function that reads text, each in its own subtransaction
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
    FOR f IN 1..9 LOOP
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
          ELSE PERFORM idscheme_time(t, 1::bigint);
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
finish
