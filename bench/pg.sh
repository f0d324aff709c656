#!/usr/bin/env bash
# pg.sh BUILDDIR [SECONDS] [ROWS]: the PostgreSQL extension side by side
# with PostgreSQL's own keys, in one run on one server (a temporary copy
# of Debian's PostgreSQL 15, as the tests start it; spec/pg/lib.sh):
#   1. insert throughput of a one-column-key table, 16 pgbench clients,
#      SECONDS (10) a run, the kinds taking turns for 3 rounds (each round
#      on emptied tables), best round: DEFAULT idscheme_next_bigint(
#      'snowflake') against bigserial, gen_random_uuid() and a PL/pgSQL
#      UUIDv7 (and idscheme's uuidv7 as uuid, for the record)
#   2. the primary key's index size after ROWS (5000000) rows inserted one
#      a transaction by 16 clients (each backend's IDs with a node of its
#      own: IDs of one ms from several nodes interleave)
#   3. the cost of one call in a generate_series loop of 2 M calls:
#      idscheme_next_bigint against nextval on a cached sequence, of
#      snowflake (whose 12-bit sequence caps a generator at 4096 IDs a
#      ms, 244 ns an ID), and of a layout with room (17 bits of
#      sequence), where the call is timed.  Each expression's run and a
#      run of the loop alone take turns, 5 pairs: the cost is the median
#      of the 5 differences, printed beside the raw times (best and
#      median of each), so that a machine busy with other work shows as
#      spread, not as a negative cost
# Not a test: it prints figures and the ratios the issue asks for
# (spec/pg/pg.cmake runs it once, small, to see that it runs).
# PG_BENCH_PARTS (default "1 2 3") runs some of the parts alone;
# PG_BENCH_CALLS (default 2000000) is part 3's loop.
set -u
dir=$(cd "$(dirname "$0")/../spec/pg" && pwd)
secs=${2:-10} rows=${3:-5000000} calls=${PG_BENCH_CALLS:-2000000}
set -- "$1"
. "$dir/../slots/lib.sh"
. "$dir/lib.sh"
pg_stage
pg_init b
free_ports port
mkdir -p "$tmp/slots" && chmod 1777 "$tmp/slots"
echo "idscheme.slots = 'local:$tmp/slots'" >>"$tmp/b/data/postgresql.conf"
pg_start b port shared_buffers=1GB synchronous_commit=off \
  max_wal_size=8GB checkpoint_timeout=30min autovacuum=off
pgq "$port" <<'SQL' >/dev/null
CREATE EXTENSION idscheme;
-- a UUIDv7 in PL/pgSQL, as people write it without an extension: the
-- Unix ms in the first 48 bits of a random UUID, version 7
CREATE FUNCTION uuidv7_plpgsql() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  b bytea := uuid_send(gen_random_uuid());
  ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
BEGIN
  FOR i IN 0..5 LOOP
    b := set_byte(b, i, ((ms >> (8 * (5 - i))) & 255)::int);
  END LOOP;
  b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
  RETURN encode(b, 'hex')::uuid;
END $$;
CREATE TABLE k_snowflake (id bigint PRIMARY KEY DEFAULT idscheme_next_bigint('snowflake'));
CREATE TABLE k_bigserial (id bigserial PRIMARY KEY);
CREATE TABLE k_uuid4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE k_uuidv7_plpgsql (id uuid PRIMARY KEY DEFAULT uuidv7_plpgsql());
CREATE TABLE k_uuidv7_idscheme (id uuid PRIMARY KEY DEFAULT idscheme_next_uuid('uuidv7'));
CREATE SEQUENCE cached CACHE 1000;
-- snowflake's layout makes at most 4096 IDs a ms per generator (244 ns an
-- ID in a loop): the cost of the call itself is timed on this layout too,
-- a node from a slot as snowflake's and 131072 IDs a ms
INSERT INTO idscheme_defined VALUES ('wide', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 41, "epoch": 1420070400000},
  {"name": "node", "kind": "node", "bits": 6},
  {"name": "sequence", "kind": "sequence", "bits": 17}]}');
SQL
kinds="snowflake bigserial uuid4 uuidv7_plpgsql uuidv7_idscheme"
bench () {   # bench SCRIPT CLIENTS ARGS...: tps
  local f=$1 c=$2; shift 2
  "$pgbin/pgbench" -n -h 127.0.0.1 -p "$port" -U postgres -c "$c" -j 2 \
    -f "$f" "$@" postgres 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}

parts=" ${PG_BENCH_PARTS:-1 2 3} "
if [[ $parts == *" 1 "* ]]; then
echo "== insert throughput: 16 clients, $secs s a run, 3 rounds (best) after a warm-up round"
declare -A best
for round in warm-up 1 2 3; do
  for k in $kinds; do
    pgq "$port" -c "TRUNCATE k_$k; CHECKPOINT" >/dev/null
    echo "INSERT INTO k_$k DEFAULT VALUES;" >"$tmp/ins_$k.sql"
    t=$(bench "$tmp/ins_$k.sql" 16 -T "$secs")
    echo "  round $round  $k: $t tps"
    [ "$round" = warm-up ] && continue
    if [ -z "${best[$k]:-}" ] || awk "BEGIN{exit !($t > ${best[$k]})}"; then best[$k]=$t; fi
  done
done
for k in $kinds; do
  printf '  %-18s %10.0f tps  %5.1f%% of bigserial\n' "$k" "${best[$k]}" \
    "$(awk "BEGIN{print 100 * ${best[$k]} / ${best[bigserial]}}")"
done

fi

if [[ $parts == *" 2 "* ]]; then
echo "== primary-key index size after $rows rows (16 clients, a row a transaction)"
per=$((rows / 16))
for k in snowflake bigserial uuid4 uuidv7_plpgsql; do
  pgq "$port" -c "TRUNCATE k_$k" >/dev/null
  bench "$tmp/ins_$k.sql" 16 -t "$per" >/dev/null
  sz=$(pgq "$port" -c "SELECT pg_relation_size('k_${k}_pkey')")
  n=$(pgq "$port" -c "SELECT count(*) FROM k_$k")
  eval "size_$k=$sz"
  printf '  %-18s %10d rows  index %8.1f MB\n' "$k" "$n" "$(awk "BEGIN{print $sz / 1048576}")"
done
printf '  snowflake index: %.1f%% of gen_random_uuid()'"'"'s, %.1f%% of bigserial'"'"'s\n' \
  "$(awk "BEGIN{print 100 * $size_snowflake / $size_uuid4}")" \
  "$(awk "BEGIN{print 100 * $size_snowflake / $size_bigserial}")"

fi

if [[ $parts == *" 3 "* ]]; then
echo "== one call in a loop of $calls: 5 runs of each expression, each beside a run of the loop alone"
once () {   # once EXPR: ms of one run
  pgq "$port" -c '\timing on' \
    -c "SELECT count($1) FROM generate_series(1, $calls) AS i" |
    sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p'
}
# median of its arguments; best: the least
median () { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
best () { printf '%s\n' "$@" | sort -g | head -1; }
# pairs EXPR: the loop alone and EXPR, 5 times in turn (the order
# alternating); sets $lbest $lmed (the loop's ms), $ebest $emed (the
# expression's) and $cost (ns a call: the median of the 5 differences)
pairs () {
  local l=() e=() d=() i a b
  for i in 1 2 3 4 5; do
    if [ $((i % 2)) = 1 ]; then a=$(once i); b=$(once "$1")
    else b=$(once "$1"); a=$(once i); fi
    if [ -z "$a" ] || [ -z "$b" ]; then bad "timing $1"; finish; fi
    l+=("$a"); e+=("$b"); d+=("$(awk "BEGIN{print $b - $a}")")
  done
  lbest=$(best "${l[@]}") lmed=$(median "${l[@]}")
  ebest=$(best "${e[@]}") emed=$(median "${e[@]}")
  cost=$(awk "BEGIN{print $(median "${d[@]}") * 1e6 / $calls}")
}
once i >/dev/null                       # a warm-up
printf '  %-24s %21s %21s %14s\n' "" "loop alone ms" "with the call ms" "ns a call"
printf '  %-24s %10s %10s %10s %10s %14s\n' "" best median best median "(median diff)"
for x in "snowflake (capped):idscheme_next_bigint('snowflake')" \
         "wide (with a slot):idscheme_next_bigint('wide')" \
         "mastodon (no node):idscheme_next_bigint('mastodon')" \
         "nextval (CACHE 1000):nextval('cached')" \
         "gen_random_uuid:gen_random_uuid()"; do
  n=${x%%:*}
  pairs "${x#*:}"
  printf '  %-24s %10.1f %10.1f %10.1f %10.1f %14.1f\n' "$n" "$lbest" "$lmed" \
    "$ebest" "$emed" "$cost"
  case $n in snowflake*) ours=$cost ;; wide*) wide=$cost ;; nextval*) seq=$cost ;; esac
done
printf '  idscheme_next_bigint / nextval: %.2fx (snowflake, at its cap), %.2fx (the call)\n' \
  "$(awk "BEGIN{print ($seq > 0) ? $ours / $seq : \"nan\"}")" \
  "$(awk "BEGIN{print ($seq > 0) ? $wide / $seq : \"nan\"}")"
fi
finish >/dev/null
