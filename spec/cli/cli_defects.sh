#!/usr/bin/env bash
# spec/cli/cli_defects.sh BUILDDIR: the idscheme command refuses what it used
# to take silently (usage errors exit 2, on stderr, naming the argument).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup "${1:-}"

# works NAME WANT-SUBSTRING-OF-STDOUT COMMAND...: exit 0, the text on stdout
works () {
  local name=$1 want=$2; shift 2
  local out rc
  out=$("$@" 2>"$tmp/err"); rc=$?
  if [ "$rc" = 0 ] && [[ "$out" == *"$want"* ]]; then ok
  else
    bad "$name: exit $rc, output:"
    printf '%s\n%s\n' "$out" "$(cat "$tmp/err")"
  fi
}

SNOW="timestamp=5 worker=1 shard=1"
refuses "negative count" 2 "-n: '-5' is negative" "$ids" gen snowflake -n -5
refuses "huge count" 2 "'99999999999999999999' is too large" \
  "$ids" gen snowflake -n 99999999999999999999
refuses "count given twice" 2 "option -n given twice" \
  "$ids" gen snowflake -n 2 -n 3
refuses "encoding given twice" 2 "option -e given twice" \
  "$ids" gen snowflake -e hex -e dec
refuses "option given twice" 2 "generator option 'worker' given twice" \
  "$ids" gen snowflake -o worker=1 -o worker=2
refuses "parameter given twice" 2 "parameter 'epoch_ms' given twice" \
  "$ids" gen snowflake -p epoch_ms=1 -p epoch_ms=2
refuses "field given twice" 2 "field 'sequence' given twice" \
  "$ids" compose snowflake $SNOW sequence=3 sequence=4
refuses "negative field" 2 "timestamp: '-1' is negative" \
  "$ids" compose snowflake timestamp=-1 worker=1 shard=1 sequence=0
refuses "field too large for 64 bits" 2 "'99999999999999999999' is too large" \
  "$ids" compose snowflake timestamp=99999999999999999999 worker=1 shard=1 sequence=0
refuses "field not an integer" 2 "sequence: '1x' is not an integer" \
  "$ids" compose snowflake $SNOW sequence=1x
refuses "stray argument to info" 2 "info takes no argument 'extra'" \
  "$ids" info snowflake extra
refuses "stray argument to gen" 2 "gen takes no argument 'extra'" \
  "$ids" gen snowflake extra
refuses "stray argument to list" 2 "list takes no argument 'extra'" \
  "$ids" list extra
refuses "count to decode" 2 "option -n does not apply to decode" \
  "$ids" decode snowflake -n 3 123
refuses "generator option to decode" 2 "option -o does not apply to decode" \
  "$ids" decode snowflake -o worker=1 123
refuses "count to info" 2 "option -n does not apply to info" \
  "$ids" info snowflake -n 2
refuses "generator option to compose" 2 "option -o does not apply to compose" \
  "$ids" compose snowflake -o worker=1 $SNOW sequence=0
# issue 10: a field and the name hashed into it, in either order
for order in "domain=5 domain_name=example.com" "domain_name=example.com domain=5"; do
  refuses "siq domain and domain_name ($order)" 2 \
    "give field 'domain' or 'domain_name', not both" \
    "$ids" compose siq timestamp=114607993683968 shard=42 $order serial=0 qualifier=multi
done
refuses "kuid96 node and node_name" 2 "give field 'node' or 'node_name', not both" \
  "$ids" compose kuid96 megaseconds=1539 seconds=625275 microseconds=432128 \
  sequence=1 node_name=uid@127.0.0.1 node=3

works "count 0 is nothing" "" "$ids" gen snowflake -n 0
works "compose still works" "21106689" "$ids" compose snowflake $SNOW sequence=1
works "siq domain alone" "683c40c080002a86ce19470003" \
  "$ids" compose siq timestamp=114607993683968 shard=42 domain_name=example.com serial=0 qualifier=multi

# item 16: past 64 schemes the registry grows; list names them all and the
# shipped scripts still load
cat > "$tmp/many.lua" <<'LUA'
local idscheme = require "idscheme"
for i = 1, 500 do
  idscheme.define{ name = string.format("many%03d", i), fields = {
    { name = "t", bits = 48, kind = "time" },
    { name = "r", bits = 16, kind = "random" } }, encodings = { "hex" } }
end
LUA
"$ids" -l "$tmp/many.lua" list > "$tmp/list" 2>&1
if [ "$(grep -c '^many[0-9]' "$tmp/list")" = 500 ] && grep -q '^ulid ' "$tmp/list"; then
  ok
else
  bad "list after 500 defines:"; tail -3 "$tmp/list"
fi
works "ulid after 500 defines" "timestamp" \
  "$ids" -l "$tmp/many.lua" decode ulid 01ARZ3NDEKTSV4RRFFQ69G5FAV

# issue 22: a script's error that is not a string is said, not "(null)"
echo 'error({})' >"$tmp/err_table.lua"
refuses "-l: error({}) is said as a table" 2 "table: 0x" \
  "$ids" -l "$tmp/err_table.lua" list
cat >"$tmp/err_obj.lua" <<'LUA'
error(setmetatable({}, { __tostring = function () return "custom failure" end }))
LUA
refuses "-l: an error object is said by its __tostring" 2 "custom failure" \
  "$ids" -l "$tmp/err_obj.lua" list
# inspect tells the true time, however far off (it clamped at 9e14 ms)
works "inspect: SIQ's largest value has its true time" \
  '"time_ms":1099511627775999' \
  "$ids" inspect -s siq --json ffffffffffffffffffffffffffff
# a script that defines a scheme twice with one spec (reloaded) is fine;
# with another spec it is refused
cat >"$tmp/twice.lua" <<'LUA'
local i = require "idscheme"
for _ = 1, 2 do
  i.define{ name = "twice", fields = {
    { name = "t", bits = 48, kind = "time" },
    { name = "r", bits = 16, kind = "random" } }, encodings = { "hex" } }
end
LUA
works "-l: the same define twice" "twice" "$ids" -l "$tmp/twice.lua" list
sed 's/bits = 16/bits = 15/' "$tmp/twice.lua" >"$tmp/twice2.lua"
printf 'dofile("%s")\n' "$tmp/twice.lua" | cat - "$tmp/twice2.lua" >"$tmp/both.lua"
refuses "-l: another spec under a taken name" 2 "exists already, with another spec" \
  "$ids" -l "$tmp/both.lua" list

# issue 36: a lease asked for beside a node given whole is refused, never
# silently dropped (it issued IDs and claimed nothing)
refuses "new: slots= beside a given node" 2 "asks for a lease, but every node field is given" \
  "$ids" new fluid -p generator=5 -p slots=redis://127.0.0.1:9/x

# issue 39: more than 64 schemes (28 shipped, 40 from -l): the did-you-mean,
# the format check and completion read every name (they crashed past 64)
cat >"$tmp/many.lua" <<'LUA'
local i = require "idscheme"
for k = 1, 40 do
  i.define{ name = "many" .. k, fields = {
    { name = "t", bits = 48, kind = "time" },
    { name = "r", bits = 16, kind = "random" } }, encodings = { "hex" } }
end
LUA
works "-l: 40 more schemes are listed" "many40" "$ids" -l "$tmp/many.lua" list
refuses "-l: new of an unknown scheme past 64 says so" 2 "unknown scheme 'nosuch'" \
  "$ids" -l "$tmp/many.lua" new nosuch
refuses "-l: a format key unknown to 68 schemes" 2 "nosuchkey" \
  "$ids" -l "$tmp/many.lua" inspect -f '{nosuchkey}' 01ARZ3NDEKTSV4RRFFQ69G5FAV
mkdir -p "$tmp/many.d" && cp "$tmp/many.lua" "$tmp/many.d/"
works "\$IDSCHEME_PATH: completion of -s offers the 68th scheme" "many40" \
  env IDSCHEME_PATH="$tmp/many.d" "$ids" __complete new -s ''
works "-l: a format key of the 68th scheme" "many" \
  "$ids" -l "$tmp/many.lua" inspect -s many40 -f '{scheme} {r}' 0000000000000001

# issue 40: IDs for a given time (new --at)
works "new --at: a ULID of that time" "ulid 2017-01-01T00:00:00.123Z" \
  sh -c "'$ids' new ulid --at 2017-01-01T00:00:00.123Z | '$ids' inspect -s ulid -f '{scheme} {time}'"
works "new --at Unix ms: three twitter IDs of one past ms, a sequence of their own" \
  "815346799211450370" "$ids" new twitter -p worker=1 --at 1483228800000 -n 3
refuses "new --at: a leased node is refused" 2 "its node is leased" \
  "$ids" new twitter --at 1483228800000 -p slots=local:$tmp/at-slots
refuses "new --at: a time that is no time" 2 "--at: 'yesterday' is neither Unix ms" \
  "$ids" new ulid --at yesterday
refuses "new --at: a zone other than Z" 2 "only Z, no other zone" \
  "$ids" new ulid --at 2017-01-01T00:00:00+02:00

cli_finish
