#!/usr/bin/env bash
# spec/cli/cli_inspect.sh BUILDDIR: the idscheme command as an operator's tool
# (issue 13): new, inspect, convert, --json, --help, --version, exit
# status, the man page.  JSON is read with lua-cjson (lua5.4).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
cli_setup "${1:-}"

# usage NAME WANT-SUBSTRING-OF-STDERR COMMAND...: exit 2, nothing on stdout
usage () {
  local name=$1 want=$2; shift 2
  refuses "$name" 2 "$want" "$@"
}

# lua SCRIPT ARGS...: runs a Lua 5.4 check that prints "ok" or the problem
lua () {
  local out
  out=$(lua5.4 "$@" 2>&1)
  if [ "$out" = ok ]; then ok; else bad "$out"; fi
}

"$ids" list --json > "$tmp/list.json" || bad "list --json"
schemes=$(lua5.4 -e '
  local l = require("cjson").decode(io.read("a"))
  for _, s in ipairs(l) do print(s.name) end' < "$tmp/list.json")
[ "$(echo "$schemes" | wc -w)" -ge 12 ] && ok || bad "list --json: $schemes"
# those with something to generate
schemes=$(generating "$tmp/list.json")

# ---------------------------------------------------------------- new
# For every scheme (built-in and scripted): new's IDs pass inspect -s with
# every field in range, the time within a minute of now, and all distinct.
# A Lua check: CHECK.lua LIST.json SCHEME < inspect --json output
cat > "$tmp/fields.lua" <<'LUA'
local cjson = require "cjson"
local list, name, count = cjson.decode(io.open(arg[1]):read("a")), arg[2],
                          tonumber(arg[3])
local s
for _, x in ipairs(list) do if x.name == name then s = x end end
local now, seen, n = os.time() * 1000, {}, 0
for line in io.lines() do
  local o = cjson.decode(line)
  n = n + 1
  if o.scheme ~= name then print(name .. ": scheme " .. tostring(o.scheme)) return end
  if seen[o.value] then print(name .. ": duplicate " .. o.value) return end
  seen[o.value] = true
  if #o.value ~= 2 * s.bytes then print(name .. ": value " .. o.value) return end
  for _, f in ipairs(s.fields) do
    local v = o.fields[f.name]
    local okf
    if f.kind == "qualifier" then okf = type(v) == "string"
    elseif f.bits > 64 then okf = type(v) == "string" and #v == (f.bits + 7) // 8 * 2
    elseif type(v) == "string" then okf = f.bits > 53 and #v <= 20 and v:match("^%d+$")
    else                      -- lua-cjson reads numbers as floats
      v = math.tointeger(v)
      okf = v and v >= 0 and (f.bits >= 63 or v < 1 << f.bits) end
    if not okf then print(name .. ": field " .. f.name .. " = " .. tostring(v)) return end
  end
  local timed = false
  for _, f in ipairs(s.fields) do timed = timed or f.kind == "time" end
  if not timed then                     -- UUIDv4, nanoid: no time to say
    if o.time ~= cjson.null then print(name .. ": a time " .. tostring(o.time)) return end
  else
    if math.abs(o.time_ms - now) > 60000 then print(name .. ": time " .. o.time) return end
    if not o.time:match("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d%.%d%d%dZ$") then
      print(name .. ": time form " .. o.time) return end
  end
end
if n ~= count then print(name .. ": " .. n .. " objects, want " .. count) return end
print "ok"
LUA
for s in $schemes; do
  "$ids" new "$s" -n 3000 > "$tmp/$s.ids" || bad "new $s"
  "$ids" inspect -s "$s" --json < "$tmp/$s.ids" |
    lua "$tmp/fields.lua" "$tmp/list.json" "$s" 3000
done

# gen is new; one -p sets parameters and generator options alike
"$ids" gen fluid -n 2000 -p generator=7 -e dec > "$tmp/g7"
if [ "$(sort -u "$tmp/g7" | wc -l)" = 2000 ] && sort -n -c "$tmp/g7"; then ok
else bad "gen fluid: 2000 distinct increasing"; fi
expect "-p generator option" 0 "generator    7" "$ids" inspect -s fluid -e dec "$(head -1 "$tmp/g7")"
epoch=1288834974657
t=$("$ids" new snowflake -p epoch_ms=$epoch -p worker=3 -p shard=2)
expect "-p parameter and options" 0 '"worker":3' "$ids" inspect --json -s snowflake -p epoch_ms=$epoch "$t"
expect "-p parameter moves the time" 0 "$(date -u +%Y-%m-%d)" "$ids" inspect -s snowflake -p epoch_ms=$epoch "$t"
expect "-o still works" 0 "generator    9" bash -c "\"$ids\" inspect -s fluid \$(\"$ids\" gen fluid -o generator=9)"
expect "kuid96 parameter and option with -p" 0 "node         4" \
  "$ids" inspect -s kuid96 -p interval=5 "$("$ids" new kuid96 -p interval=5 -p node=4)"
"$ids" new kuid64 -n 100000 > "$tmp/k64"
[ "$(sort -u "$tmp/k64" | wc -l)" = 100000 ] && ok || bad "kuid64 100000 distinct"
expect "new -n 0 writes nothing" 0 "" "$ids" new fluid -n 0

# ------------------------------------------------------- inspect (no -s)
# The default form of each scheme names it.  Ambiguous: a bare decimal
# number (the default of snowflake, twitter, instagram and sonyflake; every
# 64-bit scheme writes one) -- there the scheme must be among the
# candidates.  Every other default form is read as its own scheme first.
ambiguous=" snowflake twitter instagram sonyflake "
cat > "$tmp/best.lua" <<'LUA'
local cjson = require "cjson"
local name, mode = arg[1], arg[2]
for line in io.lines() do
  local o = cjson.decode(line)
  if o.error then print(name .. ": " .. o.input .. ": " .. o.error) return end
  local found = o.scheme == name
  for _, c in ipairs(o.candidates) do found = found or c.scheme == name end
  if mode == "best" and o.scheme ~= name then
    print(name .. ": " .. o.input .. " read as " .. o.scheme) return end
  if not found then print(name .. ": " .. o.input .. " not a candidate") return end
end
print "ok"
LUA
for s in $schemes; do
  mode=best
  [[ "$ambiguous" == *" $s "* ]] && mode=among
  head -300 "$tmp/$s.ids" | "$ids" inspect --json | lua "$tmp/best.lua" "$s" $mode
done

# human output: the best, its fields, time with age, other encodings,
# other candidates
u=$(head -1 "$tmp/uuidv7.ids")
"$ids" inspect "$u" > "$tmp/h" 2>&1
if grep -q "^$u: uuidv7 (uuid)$" "$tmp/h" && grep -q "^  version      7$" "$tmp/h" &&
   grep -Eq "^  time         [0-9-]{10}T[0-9:]{8}\.[0-9]{3}Z, (now|[0-9]+ s ago)$" "$tmp/h" &&
   grep -q "^  base58 " "$tmp/h" && grep -Eq "^ +(candidates +)?ulid \(uuid\)" "$tmp/h"
then ok; else bad "inspect human output:"; cat "$tmp/h"; fi
expect "age of an old ID" 0 "2025-01-05T15:26:50.253Z, 1 y ago" "$ids" inspect "ƒuZZybuNNy"
# a Discord snowflake from 2016: a bare number, so a candidate (with its
# time), not necessarily the best
"$ids" inspect --json 175928847299117063 | lua5.4 -e '
  local o = require("cjson").decode(io.read("l"))
  for _, c in ipairs(o.candidates) do
    if c.scheme == "snowflake" and c.encoding == "dec" and
       c.time == "2016-04-30T11:18:25.796Z" then os.exit(0) end
  end
  os.exit(o.scheme == "snowflake" and o.time == "2016-04-30T11:18:25.796Z" and 0 or 1)' &&
  ok || bad "a Discord snowflake among the candidates"
expect "candidates in human output" 0 "snowflake (dec) 2016-04-30T11:18:25.796Z" \
  "$ids" inspect 175928847299117063
# honest about doubt (issue 24): Twitter's documented ID reads as a
# Discord Snowflake as plausibly, so the best is marked a guess; convert
# will not guess; -s (names, aliases, lists) decides
expect "ambiguous, said" 0 "ambiguous    a guess: nothing in the text tells it from" \
  "$ids" inspect 1050118621198921728
"$ids" inspect --json 1050118621198921728 | lua5.4 -e '
  local o = require("cjson").decode(io.read("l"))
  local twitter
  for _, c in ipairs(o.candidates) do
    twitter = twitter or (c.scheme == "twitter" and c.ambiguous and
                          c.time == "2018-10-10T20:19:24.211Z" and c.time_ms == 1539202764211)
  end
  os.exit(o.ambiguous == true and o.plausible == true and twitter and 0 or 1)' &&
  ok || bad "--json: ambiguous, with twitter among the candidates"
refuses "convert refuses a guess" 1 "ambiguous: several schemes read it alike" \
  "$ids" convert --to hex 1050118621198921728
expect "convert with -s" 0 "0e92c5527c95b000" "$ids" convert -s twitter --to hex 1050118621198921728
expect "a nanoid of another size: its size, no value" 0 "size         10 characters" \
  "$ids" inspect eeLB8VAyjq
refuses "convert refuses a nanoid of another size" 1 "it holds no value to convert" \
  "$ids" convert --to hex eeLB8VAyjq
expect "a TypeID of another UUID version says why it has no time" 0 \
  "none: version 5 (only version 7 has a time)" "$ids" inspect prefix_0123456789abcdefghjkmnpqrs
refuses "a TypeID of 26 zeros (its spec's test vector) is no evidence" 1 \
  "no scheme reads it plausibly" "$ids" inspect 00000000000000000000000000
expect "-s a list: twitter alone reads it plausibly" 0 "1050118621198921728: twitter (dec)" \
  "$ids" inspect -s twitter,sonyflake 1050118621198921728
expect "-s an alias" 0 "175928847299117063: snowflake (dec)" "$ids" inspect -s discord 175928847299117063
expect "an alias names the scheme; decode says the time" 0 "time_ms      1462015105796" \
  "$ids" decode discord 175928847299117063
refuses "an unknown name in -s" 2 "unknown scheme 'nope'" "$ids" inspect -s ulid,nope 01ARZ3NDEKTSV4RRFFQ69G5FAV
refuses "junk decodes, but to no time a format had" 1 "no scheme reads it plausibly" \
  "$ids" inspect hello
expect "-s takes the reading as it is" 0 "hello: snowflake (b32l)" "$ids" inspect -s snowflake hello
expect "time in ISO-8601 and Unix ms" 0 "time_ms      1469922850259" "$ids" inspect 01ARZ3NDEKTSV4RRFFQ69G5FAV
# info: the format, its aliases, its time and each field's values and bits
expect "info: aliases" 0 "answers to: mongo bson" "$ids" info objectid
expect "info: unit, epoch, end" 0 \
  "time: seconds since 1970-01-01T00:00:00.000Z, until 2106-02-07T06:28:15.000Z" \
  "$ids" info objectid
expect "info: the format's first IDs" 0 "first IDs: 2009-01-01T00:00:00.000Z" \
  "$ids" info mongo
expect "info: a field's values" 0 "counter       24 bits  counter   0..16777215  bits 23..0" \
  "$ids" info objectid
expect "info: a split field's runs, from its top bits" 0 \
  "timestamp     60 bits  time      0..1152921504606846975  bits 75..64 95..80 127..96" \
  "$ids" info uuidv1
expect "info: a constant" 0 "version        4 bits  constant  = 6  bits 79..76" \
  "$ids" info uuidv6
expect "info: no time, its note" 0 "time: none: name-based (a SHA-1 hash)" \
  "$ids" info uuidv5
expect "info: a 100 ns unit before 1970" 0 \
  "time: ticks of 100 ns since 1582-10-15T00:00:00.000Z" "$ids" info uuidv6
refuses "no generator for v5" 2 "uuidv5: its IDs are hashes of names" \
  "$ids" new uuidv5
# the nil and max UUIDs: recognised, converted, not generated
expect "the nil UUID" 0 "00000000-0000-0000-0000-000000000000: uuidnil (uuid)" \
  "$ids" inspect 00000000-0000-0000-0000-000000000000
expect "the max UUID, any case" 0 "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF: uuidmax (uuid)" \
  "$ids" inspect FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF
expect "the max UUID in hex" 0 "ffffffffffffffffffffffffffffffff" \
  "$ids" convert --to hex ffffffff-ffff-ffff-ffff-ffffffffffff
refuses "the nil UUID is not generated" 2 "uuidnil: every bit is a constant" "$ids" new uuidnil
expect "a UUIDv4 has no time" 0 "time         none: random data only" \
  "$ids" inspect 550e8400-e29b-41d4-a716-446655440000
expect "a KSUID" 0 "0ujtsYcgvSTl8PAuAdqWYSMnLOv: ksuid (base62)" "$ids" inspect 0ujtsYcgvSTl8PAuAdqWYSMnLOv
expect "a ULID" 0 "01ARZ3NDEKTSV4RRFFQ69G5FAV: ulid (crockford)" "$ids" inspect 01ARZ3NDEKTSV4RRFFQ69G5FAV
expect "a lower-case ULID" 0 "01arz3ndektsv4rrffq69g5fav: ulid (crockford)" "$ids" inspect 01arz3ndektsv4rrffq69g5fav
expect "blanks around are trimmed" 0 "01ARZ3NDEKTSV4RRFFQ69G5FAV: ulid (crockford)" "$ids" inspect "  01ARZ3NDEKTSV4RRFFQ69G5FAV "

# ------------------------------------------------- FLUID vectors, every form
# inspect -s fluid of every vector text gives its value; without -s, each
# form RFC 19 marks (all but dec) is read as FLUID with that value, or
# refused (a vector of a few digits, 1 ms past the epoch, with only a plain
# mark, 'f', dots or hyphens, is no evidence of FLUID), or better as
# another with FLUID's reading beside it ("0x1d99cecad69" is a lower-case
# TSID of 2020 too, a FLUID of the epoch's first minute).
cat > "$tmp/vectors.lua" <<'LUA'
local cjson = require "cjson"
local v = cjson.decode(io.open(arg[1]):read("a"))
local ids, forms = arg[2], { "dec", "f58", "f58_plain", "hex", "dothex", "words", "emoji" }
local function run (opts, texts)
  local f = io.open(arg[3], "w")
  f:write(table.concat(texts, "\n"), "\n")
  f:close()
  local p = io.popen(ids .. " inspect --json " .. opts .. " < " .. arg[3] .. " 2>/dev/null")
  local out = {}
  for l in p:lines() do out[#out + 1] = cjson.decode(l) end
  p:close()
  return out
end
local texts, want, marked, mwant = {}, {}, {}, {}
for _, e in ipairs(v.encodings) do
  for _, form in ipairs(forms) do
    texts[#texts + 1], want[#want + 1] = e[form], e.value
    if form ~= "dec" then marked[#marked + 1], mwant[#mwant + 1] = e[form], e.value end
  end
end
local named = 0
for pass, t in ipairs{ { "-s fluid", texts, want }, { "", marked, mwant } } do
  local out = run(t[1], t[2])
  if #out ~= #t[2] then print(#out .. " objects for " .. #t[2] .. " texts") return end
  for i, o in ipairs(out) do
    if pass == 2 and o.error and o.input == t[2][i] then goto next end
    if pass == 2 and o.scheme ~= "fluid" then      -- read better as another
      for _, c in ipairs(o.candidates) do          -- (a lower-case TSID):
        if c.scheme == "fluid" then goto next end  -- FLUID's beside it
      end
    end
    if pass == 2 then named = named + 1 end
    if o.scheme ~= "fluid" or o.encodings.dec ~= t[3][i] or o.input ~= t[2][i] then
      print(string.format("%s %q: %s %s, want %s", t[1], t[2][i], tostring(o.scheme),
            tostring(o.encodings and o.encodings.dec), t[3][i])) return end
    ::next::
  end
end
if named < #marked / 2 then print("only " .. named .. " of " .. #marked .. " marked texts named") return end
print "ok"
LUA
lua "$tmp/vectors.lua" "$src/spec/vectors/fluid.json" "$ids" "$tmp/vtexts"

# streamed: a line is answered while standard input stays open
(echo 01ARZ3NDEKTSV4RRFFQ69G5FAV; sleep 4) | timeout 2 "$ids" inspect > "$tmp/stream"
grep -q "^01ARZ3NDEKTSV4RRFFQ69G5FAV: ulid (crockford)$" "$tmp/stream" && ok ||
  bad "inspect holds its answer until standard input ends"

# ------------------------------------------------------------ bad inputs
good1=$(head -1 "$tmp/ulid.ids") good2=$(head -1 "$tmp/ksuid.ids")
printf '%s\nflux!\n%s\n' "$good1" "$good2" | "$ids" inspect > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc = 1 ] && [ "$(grep -c ': ulid (crockford)$\|: ksuid (base62)$' "$tmp/out")" = 2 ] &&
   [ "$(grep -n "ksuid (base62)" "$tmp/out" | cut -d: -f1)" -gt "$(grep -n "ulid (crockford)" "$tmp/out" | cut -d: -f1)" ] &&
   grep -q 'line 2: "flux!": no scheme decodes it' "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ]
then ok; else bad "bad line among good: exit $rc"; cat "$tmp/out" "$tmp/err"; fi
"$ids" inspect "$good1" "not an id" "$good2" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "ulid" "$tmp/out" && grep -q "ksuid" "$tmp/out" &&
   grep -q '"not an id": no scheme decodes it' "$tmp/err"
then ok; else bad "bad argument among good: exit $rc"; cat "$tmp/out" "$tmp/err"; fi
printf '%s\n\n' "$good1" | "$ids" inspect --json > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$tmp/out")" = 2 ] && grep -q '"line":2,"error":"empty"' "$tmp/out" &&
   grep -q 'line 2: "": empty' "$tmp/err"
then ok; else bad "--json: one object per line, the bad one too"; cat "$tmp/out" "$tmp/err"; fi
expect "-s names the scheme's reason" 1 'fluid f58 "ƒ0"' "$ids" inspect -s fluid "ƒ0"
# bytes that are not UTF-8 (and control bytes) still make JSON that parses
printf 'a\xff\x01\n' | "$ids" inspect --json 2>/dev/null |
  lua5.4 -e 'local o = require("cjson").decode(io.read("l"))
    assert(o.input == "a\u{fffd}\1" and o.error == "no scheme decodes it" and o.line == 1)' &&
  ok || bad "not UTF-8: JSON parses"
# a surrogate, an overlong form and a cut sequence are not UTF-8 either;
# good UTF-8 (a FLUID's emoji) stays as it is
printf '\xed\xa0\x80 \xe0\x80\x80 \xf0\x9f\n\xf0\x9f\x98\x83\n' | "$ids" inspect --json 2>/dev/null |
  lua5.4 -e 'local cj = require "cjson"
    local a, b = cj.decode(io.read("l")), cj.decode(io.read("l"))
    local r = "\u{fffd}"
    assert(a.input == r:rep(3) .. " " .. r:rep(3) .. " " .. r:rep(2), a.input)
    assert(b.input == "\u{1f603}" and b.scheme == "fluid" and b.encodings.dec == "0")' &&
  ok || bad "JSON strings: bad UTF-8 replaced, good kept"

# ---------------------------------------------------------------- convert
# Every encoding of every scheme round-trips: default -> E -> default.
# Through standard input, since some forms begin with '-'.
for s in $schemes; do
  encs=$(lua5.4 -e "name = '$s'" -e '
    for _, x in ipairs(require("cjson").decode(io.read("a"))) do
      if x.name == name then print(table.concat(x.encodings, " ")) end
    end' < "$tmp/list.json")
  def=${encs%% *}
  head -200 "$tmp/$s.ids" > "$tmp/c0"
  for e in $encs; do
    "$ids" convert -s "$s" --to "$e" < "$tmp/c0" > "$tmp/c1" &&
    "$ids" convert -s "$s" -e "$e" --to "$def" < "$tmp/c1" > "$tmp/c2" &&
    cmp -s "$tmp/c0" "$tmp/c2" && [ "$(sort -u "$tmp/c1" | wc -l)" = 200 ] ||
      { bad "convert $s $def -> $e -> $def"; continue; }
    ok
  done
done
expect "convert without -s" 0 "01563e3a-b5d3-d676-4c61-efb99302bd5b" \
  "$ids" convert --to uuid 01ARZ3NDEKTSV4RRFFQ69G5FAV
expect "convert words to f58" 0 "ƒuZZybuNNy" \
  "$ids" convert --to f58 reform-remote-galileo--heart-package-academy
printf '%s\nnope\n' "$good1" | "$ids" convert --to uuid > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$tmp/out")" = 1 ] && grep -q 'line 2: "nope"' "$tmp/err"
then ok; else bad "convert: bad line"; cat "$tmp/out" "$tmp/err"; fi
expect "inspect -e across schemes" 0 "01563e3a-b5d3-d676-4c61-efb99302bd5b: ulid (uuid)" "$ids" inspect -e uuid 01563e3a-b5d3-d676-4c61-efb99302bd5b
expect "convert to a form the scheme lacks" 1 "has encoding" "$ids" convert --to emoji 01ARZ3NDEKTSV4RRFFQ69G5FAV

# --------------------------------------------------- info: the layout
expect "info draws the layout: UUIDv1's split time, var, clock_seq, node" 0 \
  "|var|         clock_seq         |             node              |" "$ids" info uuidv1
expect "info: a split field named in each run" 0 \
  "|           timestamp           |version|       timestamp       |" "$ids" info uuidv1
for s in $("$ids" list | cut -d' ' -f1); do
  "$ids" info "$s" > "$tmp/info" 2>&1 || { bad "info $s"; continue; }
  grep -q '^layout' "$tmp/info" || continue        # KUID: placed by its compose
  # a row per 32 bits, every box closed, the last border as wide as its bits
  rows=$(sed -n '/^layout/,/^encodings/p' "$tmp/info" | grep -E '^[|+]')
  bits=$(grep -c '^|' <<<"$rows")
  want=$("$ids" info "$s" | sed -n "s/^$s: \([0-9]*\) bits.*/\1/p")
  last=$(grep '^+' <<<"$rows" | tail -1)
  if [ $(( (want + 31) / 32 )) = "$bits" ] && [ $(( ${#last} / 2 )) = $(( want - (want - 1) / 32 * 32 )) ] &&
     ! grep -qvE '^(\+(-\+)+|\|.*\|)$' <<<"$rows"; then ok
  else bad "info $s: the layout's rows ($bits for $want bits; last border ${#last} wide)"; cat "$tmp/info"; fi
done

# ------------------------------------------- --format TEMPLATE (issue 25)
want=$(printf '01ARZ3NDEKTSV4RRFFQ69G5FAV\tulid\t2016-07-30T23:54:10.259Z\t1469922850259\tfalse\t01563e3a-b5d3-d676-4c61-efb99302bd5b\n175928847299117063\tsonyflake\t2017-12-27T16:16:04.490Z\t10486176449\ttrue\t-\neeLB8VAyjq\tnanoid\t-\t-\tfalse\t-')
got=$("$ids" inspect -f '{input}\t{scheme}\t{time}\t{timestamp}\t{ambiguous}\t{uuid}' \
        01ARZ3NDEKTSV4RRFFQ69G5FAV 175928847299117063 eeLB8VAyjq)
[ "$got" = "$want" ] && ok || bad "inspect -f: columns"$'\n'"$got"$'\n'"want"$'\n'"$want"
expect "decode -f: fields, braces, time_ms" 0 "1 {x} 1462015105796" \
  "$ids" decode snowflake -f '{worker} {{x}} {time_ms}' 175928847299117063
expect "--format, the long name; hex and title" 0 "0669f7efb5a1cd34b5f99d1154fb6853345c9735 KSUID (Segment)" \
  "$ids" inspect --format '{hex} {title}' 0ujtsYcgvSTl8PAuAdqWYSMnLOv
usage "-f: an unknown key, with the keys" "unknown key '{nope}' (keys: input, scheme," "$ids" inspect -f '{nope}' x
usage "-f: an unclosed brace" "'{' without '}'" "$ids" inspect -f '{oops' x
usage "--json and -f" "give --json or --format, not both" "$ids" inspect --json -f '{input}' x
expect "-f: a bad line is still an error" 1 'no scheme' "$ids" inspect -f '{scheme}' hello

# ------------------------------------- a terminal: colour and progress
# script(1) (util-linux) runs the command on a pseudo-terminal
esc=$'\033['
out=$(script -qec "env -u NO_COLOR TERM=xterm '$ids' inspect 175928847299117063" /dev/null)
[[ "$out" == *"${esc}1msonyflake${esc}0m"* && "$out" == *"${esc}33ma guess"* ]] && ok ||
  bad "inspect on a terminal: the scheme bold, a guess in yellow: $(cat -v <<<"$out" | head -3)"
out=$(script -qec "NO_COLOR=1 TERM=xterm '$ids' inspect 175928847299117063" /dev/null)
[[ "$out" != *"$esc"* ]] && ok || bad "NO_COLOR: no colour on a terminal"
out=$(script -qec "env -u NO_COLOR TERM=dumb '$ids' inspect 175928847299117063" /dev/null)
[[ "$out" != *"$esc"* ]] && ok || bad "TERM=dumb: no colour"
out=$(env -u NO_COLOR TERM=xterm "$ids" inspect 175928847299117063)
[[ "$out" != *"$esc"* ]] && ok || bad "a pipe: no colour"
out=$(script -qec "'$ids' new fluid -n 1000000 > '$tmp/million'" /dev/null | tr '\r' '\n')
# the last line: the rate and the time it took (issue 40); before it, the
# time left
grep -qxE 'idscheme: 1000000 of 1000000 IDs \(100%\), [0-9]+\.[0-9]{2} M IDs/s, took [0-9.]+ s *' <<<"$out" && [ "$(wc -l < "$tmp/million")" = 1000000 ] && ok ||
  bad "new -n 1000000 to a file from a terminal: progress on stderr: $out"
if grep -q ' of 1000000 IDs ([0-9]%\|([1-9][0-9]%' <<<"$out"; then
  grep -qE ', left ([0-9.]+ s|[0-9]+ min [0-9]{2} s) *$' <<<"$(grep -v '(100%)' <<<"$out" | tail -1)" && ok ||
    bad "new -n 1000000: a line before the end says the time left: $out"
fi
"$ids" new fluid -n 1000000 2> "$tmp/err" > /dev/null
[ ! -s "$tmp/err" ] && ok || bad "no progress when stderr is no terminal"
out=$(script -qec "'$ids' new fluid -n 999999 > /dev/null" /dev/null)
[ -z "$out" ] && ok || bad "no progress under a million IDs: $out"

# ------------------------------------------- the scheme path (issue 25)
mkdir -p "$tmp/path1" "$tmp/home/.config/idscheme/schemes" "$tmp/xdg/idscheme/schemes"
myflake "$tmp/path1/myflake.lua" dec hex
sed 's/myflake/homeflake/' "$tmp/path1/myflake.lua" > "$tmp/home/.config/idscheme/schemes/home.lua"
sed 's/myflake/xdgflake/' "$tmp/path1/myflake.lua" > "$tmp/xdg/idscheme/schemes/x.lua"
expect "IDSCHEME_PATH: a user scheme without -l" 0 "myflake" \
  env IDSCHEME_PATH="/nonexistent:$tmp/path1" HOME="$tmp/nohome" "$ids" list
expect "IDSCHEME_PATH: new of a user scheme" 0 "" \
  env IDSCHEME_PATH="$tmp/path1" HOME="$tmp/nohome" "$ids" new myflake -p node=3
expect "~/.config/idscheme/schemes too" 0 "homeflake" env -u XDG_CONFIG_HOME HOME="$tmp/home" "$ids" list
expect "\$XDG_CONFIG_HOME/idscheme/schemes before ~/.config" 0 "xdgflake" \
  env XDG_CONFIG_HOME="$tmp/xdg" HOME="$tmp/home" "$ids" list
env XDG_CONFIG_HOME="$tmp/xdg" HOME="$tmp/home" "$ids" list | grep -q homeflake &&
  bad "XDG_CONFIG_HOME set: ~/.config is not read" || ok
usage "without the path: an unknown scheme" "unknown scheme 'myflake'" env HOME="$tmp/nohome" "$ids" new myflake
echo 'error("broken on purpose")' > "$tmp/path1/zz.lua"
usage "a scheme file that fails names itself" "$tmp/path1/zz.lua:1: broken on purpose" \
  env IDSCHEME_PATH="$tmp/path1" HOME="$tmp/nohome" "$ids" list
rm "$tmp/path1/zz.lua"
sed 's/myflake/fluid/' "$tmp/path1/myflake.lua" > "$tmp/path1/taken.lua"
usage "the path adds: a shipped name is refused" "taken.lua" \
  env IDSCHEME_PATH="$tmp/path1" HOME="$tmp/nohome" "$ids" list
rm "$tmp/path1/taken.lua"

# ----------------------------------------------------- files and stdin
printf '01ARZ3NDEKTSV4RRFFQ69G5FAV\nnope\n0ujtsYcgvSTl8PAuAdqWYSMnLOv\n' > "$tmp/ids.txt"
"$ids" inspect "$tmp/ids.txt" > "$tmp/out" 2> "$tmp/err"; rc=$?
if [ $rc = 1 ] && grep -q '^01ARZ3NDEKTSV4RRFFQ69G5FAV: ulid' "$tmp/out" &&
   grep -q '^0ujtsYcgvSTl8PAuAdqWYSMnLOv: ksuid' "$tmp/out" &&
   grep -qF "$tmp/ids.txt: line 2: \"nope\"" "$tmp/err"; then ok
else bad "inspect FILE: its lines, the bad one named by file and line"; cat "$tmp/out" "$tmp/err"; fi
echo 0ujtsYcgvSTl8PAuAdqWYSMnLOv | "$ids" inspect --json - 01ARZ3NDEKTSV4RRFFQ69G5FAV "$tmp/ids.txt" \
  > "$tmp/out" 2> /dev/null
if [ "$(sed -n 's/^{"input":"\([^"]*\)".*/\1/p' "$tmp/out" | tr '\n' ' ')" = \
     "0ujtsYcgvSTl8PAuAdqWYSMnLOv 01ARZ3NDEKTSV4RRFFQ69G5FAV 01ARZ3NDEKTSV4RRFFQ69G5FAV nope 0ujtsYcgvSTl8PAuAdqWYSMnLOv " ] &&
   grep -qF "\"file\":\"$tmp/ids.txt\",\"line\":2" "$tmp/out"; then ok
else bad "inspect - WORD FILE: in order, the file's error with its name"; cat "$tmp/out"; fi
expect "convert reads a pipe (<(cmd)) as a file" 0 "01563e3a-b5d3-d676-4c61-efb99302bd5b" \
  "$ids" convert --to uuid <(echo 01ARZ3NDEKTSV4RRFFQ69G5FAV)
expect "a directory is no file: a word" 1 "\"$tmp\": no scheme decodes it" "$ids" inspect "$tmp"

# ------------------------------------------------------------ usage errors
usage "unknown command" "unknown command 'nope'" "$ids" nope
usage "no command" "usage:" "$ids"
usage "unknown option" "unknown option -x" "$ids" inspect -x
usage "unknown -p name lists the valid ones" \
  "fluid has no generator option \"nope\" (valid names: generator epoch_ms start_timestamp policy max_ahead_ms max_wait_ms slots slot_namespace slot_ttl_ms ...)" \
  "$ids" new fluid -p nope=1
usage "unknown -p name with parameters" "(valid names: worker shard policy max_ahead_ms max_wait_ms slots slot_namespace slot_ttl_ms slot_timeout_ms ...); parameters: epoch_ms" "$ids" new snowflake -p nope=1
usage "inspect -s: -p takes parameters only" "snowflake has no parameter \"nope\" (valid names: epoch_ms)" \
  "$ids" inspect -s snowflake -p nope=1 x
usage "inspect -s: no generator options" "generator option 'generator' does not apply to inspect" \
  "$ids" inspect -s fluid -p generator=1 x
usage "-p without =" "must be NAME=VALUE" "$ids" new fluid -p generator
usage "-p out of range" "out of range" "$ids" new fluid -p generator=16384
usage "convert needs --to" "--to ENCODING is required" "$ids" convert x
usage "convert to an unknown encoding" "unknown encoding 'nope' for fluid" "$ids" convert -s fluid --to nope x
usage "inspect unknown scheme" "unknown scheme 'nope'" "$ids" inspect -s nope x
usage "inspect unknown encoding" "unknown encoding 'nope' for fluid" "$ids" inspect -s fluid -e nope x
usage "inspect -e of no scheme" "no scheme has encoding 'nope'" "$ids" inspect -e nope x
usage "convert --to of no scheme" "no scheme has encoding 'nope'" "$ids" convert --to nope x
usage "new needs a scheme" "new: missing scheme name" "$ids" new
usage "--to does not apply to new" "option --to does not apply to new" "$ids" new fluid --to hex
usage "-n does not apply to inspect" "option -n does not apply to inspect" "$ids" inspect -n 3 x
usage "-s given twice" "option -s given twice" "$ids" inspect -s fluid -s ulid x
usage "-p needs -s in inspect" "applies only with -s" "$ids" inspect -p generator=1 x
usage "option needs a value" "option --to needs a value" "$ids" convert --to
usage "--json takes no value" "takes no value" "$ids" inspect --json=1 x
usage "-l of a missing file" "nothing.lua" "$ids" inspect -l "$tmp/nothing.lua" x
usage "unknown top-level option" "unknown option --nope" "$ids" --nope list

# ---------------------------------------------------- help and version
expect "--help: a line per command" 0 "  inspect   say what an ID is" "$ids" --help
n=$("$ids" --help | grep -cE '^  (list|info|new|inspect|convert|decode|compose|help) ')
[ "$n" = 8 ] && ok || bad "--help lists 8 commands, a line each: $n"
for c in list info new gen inspect convert decode compose help; do
  expect "$c --help" 0 "usage: idscheme [-l FILE.lua]... " "$ids" "$c" --help
  [ "$c" = gen ] && continue
  "$ids" help "$c" > "$tmp/help" 2>&1 && "$ids" "$c" --help | cmp -s - "$tmp/help" &&
    ok || bad "help $c is $c --help"
done
# the man page's SYNOPSIS says what each command's --help says
man_syn=$(groff -man -Tascii -P-cbou -rLL=400n "$src/docs/idscheme.1" 2>/dev/null |
          sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | tr -s ' ')
for c in list info new inspect convert decode compose help; do
  syn=$("$ids" "$c" --help | sed -n 's/^usage: idscheme \[-l FILE.lua\]\.\.\. //p')
  [[ "$man_syn" == *"idscheme $syn"* ]] && ok || bad "man page SYNOPSIS lacks 'idscheme $syn'"
done
expect "help alone lists the commands" 0 "  convert   write IDs in another encoding" "$ids" help
usage "help of an unknown command" "unknown command 'inspct': did you mean 'inspect'?" "$ids" help inspct
usage "an unknown command: did you mean" "unknown command 'inspct': did you mean 'inspect'? (commands: list, info," \
  "$ids" inspct x
usage "an unknown scheme: did you mean, and the names" \
  "unknown scheme 'ulidd': did you mean 'ulid'? (schemes and aliases: flax, fluid," "$ids" new ulidd
usage "an unknown alias: did you mean" "did you mean 'mongo'?" "$ids" inspect -s mongoo x
usage "no near name: the names alone" "unknown scheme 'zzzzzz' (schemes and aliases: flax," "$ids" new zzzzzz
usage "an unknown encoding: did you mean" \
  "unknown encoding 'hexx' for fluid: did you mean 'hex'? (its encodings: f58, dec, hex," "$ids" new fluid -e hexx
expect "gen --help is new's" 0 "usage: idscheme [-l FILE.lua]... new SCHEME" "$ids" gen -h
want_version=$(sed -n 's/^#define IDS_VERSION *"\([0-9.]*\)".*/\1/p' "$src/core/idscheme.h")
expect "--version" 0 "idscheme $want_version" "$ids" --version
grep -q "^\.TH IDSCHEME 1 .* \"idscheme $want_version\"" "$src/docs/idscheme.1" && ok ||
  bad "the man page names version $want_version"

# ------------------------------------------------------- -l scripted scheme
myflake "$tmp/my.lua" base62 dec hex
for l in -l --scheme-file; do
  t=$("$ids" new $l "$tmp/my.lua" myflake -p node=5)
  expect "$l: inspect -s" 0 "node         5" "$ids" inspect $l "$tmp/my.lua" -s myflake "$t"
  expect "$l: inspect finds it" 0 "$t: myflake (base62)" "$ids" inspect $l "$tmp/my.lua" "$t"
done
expect "-l before the command" 0 "$t: myflake (base62)" "$ids" -l "$tmp/my.lua" inspect "$t"
expect "-l=FILE" 0 "$t: myflake (base62)" "$ids" inspect --scheme-file="$tmp/my.lua" "$t"
expect "-l and convert" 0 "" "$ids" convert -l "$tmp/my.lua" -s myflake --to dec "$t"

# ------------------------------------------------------------- man page
if command -v groff > /dev/null; then
  w=$(groff -man -Tutf8 -ww "$src/docs/idscheme.1" 2>&1 > /dev/null)
  [ -z "$w" ] && ok || bad "groff warnings: $w"
  groff -man -Tutf8 "$src/docs/idscheme.1" 2>/dev/null | grep -q "inspect" && ok || bad "man page names inspect"
else
  bad "groff not installed (scripts/packages has groff-base)"
fi

# Errors in their places where one reader sees both (2>&1: one file), in
# a small block and in one of two threads (2,000 lines); apart (stderr a
# file of its own) the same errors, each once, and the same answers
u=$("$ids" new ulid)
for n in 3 2000; do
  awk -v n=$n -v u="$u" 'BEGIN { for (i = 1; i <= n; i++) print (i % 2 ? u : "word" i) }' >"$tmp/mix"
  "$ids" inspect "$tmp/mix" >"$tmp/both" 2>&1
  if awk -v u="$u" '/^idscheme: / { if ($0 !~ "line " (seen + 1) ": ") bad = 1; seen++; next }
                   index($0, u ":") == 1 { seen++ }
                   END { exit bad || seen == 0 }' "$tmp/both"; then ok
  else bad "inspect 2>&1 of $n lines: an error out of its place"; fi
  "$ids" inspect "$tmp/mix" >"$tmp/out" 2>"$tmp/err"
  if [ "$(wc -l <"$tmp/err")" = $((n / 2)) ] &&
     [ "$(grep -v '^idscheme: ' "$tmp/both")" = "$(cat "$tmp/out")" ] &&
     [ "$(grep '^idscheme: ' "$tmp/both")" = "$(cat "$tmp/err")" ]; then ok
  else bad "inspect 2>FILE of $n lines: not the same answers and errors"; fi
done

cli_finish
