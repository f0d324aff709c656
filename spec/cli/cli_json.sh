#!/usr/bin/env bash
# spec/cli/cli_json.sh BUILDDIR: --json of new, decode, compose, info and
# convert (issue 40), and inspect's fields, read back with a real JSON
# parser (lua-cjson, lua5.4).  A field's JSON type is its width's, never
# its value's: a field that can hold more than 2^53 is a string (decimal
# digits; hex bytes over 64 bits), a qualifier its name, any other a
# number, whatever the value.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup "${1:-}"

# lua SCRIPT ARGS...: a Lua 5.4 check that prints "ok" or the problem
lua () {
  local out
  out=$(lua5.4 "$@" 2>&1)
  if [ "$out" = ok ]; then ok; else bad "$out"; fi
}

"$ids" list --json > "$tmp/list.json" || bad "list --json"

# The rules, in one Lua file that every check loads (dofile): the layouts
# from list --json, and whether a value has its field's type.
cat > "$tmp/rules.lua" <<'LUA'
cjson = require "cjson"
local list = cjson.decode(io.open(os.getenv("LIST")):read("a"))
schemes = {}
for _, s in ipairs(list) do schemes[s.name] = s end

-- nil if v has field f's JSON type and lies in its range, else why not
function badfield (f, v)
  local bits = math.tointeger(f.bits)
  if f.kind == "qualifier" then
    return type(v) ~= "string" and "a qualifier, not its name" or nil
  elseif bits > 64 then
    if type(v) ~= "string" or #v ~= (bits + 7) // 8 * 2 or v:find("[^0-9a-f]") then
      return "not " .. (bits + 7) // 8 .. " hex bytes"
    end
  elseif bits > 53 then
    if type(v) ~= "string" or not v:match("^%d+$") or (#v > 1 and v:sub(1, 1) == "0") then
      return "not a string of decimal digits"
    end
    local max = bits == 64 and "18446744073709551615" or tostring((1 << bits) - 1)
    if #v > #max or (#v == #max and v > max) then return "past its bits" end
  else
    local x = type(v) == "number" and math.tointeger(v)
    if not x then return "not an integer number" end
    if x < 0 or x >= 1 << bits then return "past its bits" end
  end
end

-- nil if o's fields are s's, each typed and in range, else why not
function badfields (s, o)
  local n = 0
  for _ in pairs(o.fields) do n = n + 1 end
  if n ~= #s.fields then return n .. " fields, the layout has " .. #s.fields end
  for _, f in ipairs(s.fields) do
    local why = badfield(f, o.fields[f.name])
    if why then
      return ("%s %s (%d bits) = %s %s: %s"):format(s.name, f.name,
        math.tointeger(f.bits), type(o.fields[f.name]),
        tostring(o.fields[f.name]), why)
    end
  end
end

function timed (s)
  for _, f in ipairs(s.fields) do if f.kind == "time" then return true end end
  return false
end

-- nil if o's time is as s's layout says: both forms, or both null
function badtime (s, o)
  if not timed(s) then
    if o.time ~= cjson.null or o.time_ms ~= cjson.null then return "a time" end
    return nil
  end
  if type(o.time) ~= "string" or
     not o.time:match("^[-+]?%d%d%d%d+%-%d%d%-%d%dT%d%d:%d%d:%d%d%.%d%d%dZ$") then
    return "time " .. tostring(o.time)
  end
  if not math.tointeger(o.time_ms) then return "time_ms " .. tostring(o.time_ms) end
end
LUA
export LIST=$tmp/list.json

# ------------------------------------------------------------------- new
# Every scheme that generates: JSON Lines, each object's fields typed by
# their widths, its time in both forms, value the hex of its bytes, and
# the fields composed back give the same ID (what new --json says is what
# the ID holds).
cat > "$tmp/new.lua" <<'LUA'
dofile(arg[1])
local name, want, ids = arg[2], tonumber(arg[3]), arg[4]
local s = schemes[name]
local n, seen, first = 0, {}, nil
for line in io.lines() do
  local o = cjson.decode(line)
  n = n + 1
  first = first or o
  if o.scheme ~= name then print(name .. ": scheme " .. tostring(o.scheme)) return end
  if type(o.id) ~= "string" or seen[o.id] then print(name .. ": id " .. tostring(o.id)) return end
  seen[o.id] = true
  if o.encoding ~= s.encodings[1] then print(name .. ": encoding " .. tostring(o.encoding)) return end
  if #o.value ~= 2 * s.bytes or o.value:find("[^0-9a-f]") then print(name .. ": value " .. o.value) return end
  local why = badfields(s, o) or badtime(s, o)
  if why then print(name .. ": " .. why) return end
  if timed(s) and math.abs(o.time_ms - os.time() * 1000) > 86400000 then
    print(name .. ": time_ms " .. o.time_ms .. " is not today") return end
end
if n ~= want then print(name .. ": " .. n .. " lines, want " .. want) return end
local args = {}
for k, v in pairs(first.fields) do
  args[#args + 1] = ("'%s=%s'"):format(k, math.tointeger(v) or v)
end
local p = io.popen(("%q compose %s %s"):format(ids, name, table.concat(args, " ")))
local back = p:read("l")
p:close()
if back ~= first.id then print(name .. ": composed back " .. tostring(back) .. ", not " .. first.id) return end
print "ok"
LUA
generates=$(generating "$tmp/list.json")
[ "$(echo "$generates" | wc -w)" -ge 20 ] && ok || bad "schemes that generate: $generates"
for s in $generates; do
  "$ids" new "$s" -n 500 --json > "$tmp/$s.jsonl" || bad "new $s --json"
  lua "$tmp/new.lua" "$tmp/rules.lua" "$s" 500 "$ids" < "$tmp/$s.jsonl"
done

# --at: the time given, to the scheme's precision (ksuid counts seconds),
# and IDs of one time still distinct
at=1500000000123
for s in ulid:$at uuidv7:$at ksuid:1500000000000 timeflake:$at; do
  "$ids" new "${s%%:*}" --at $at -n 5 --json > "$tmp/at" || bad "new ${s%%:*} --at --json"
  cat > "$tmp/at.lua" <<'LUA'
local cjson, want, seen, n = require "cjson", tonumber(arg[1]), {}, 0
for line in io.lines() do
  local o = cjson.decode(line)
  n = n + 1
  if math.tointeger(o.time_ms) ~= want then print(o.scheme .. ": time_ms " .. o.time_ms .. ", want " .. want) return end
  if seen[o.id] then print(o.scheme .. ": " .. o.id .. " twice") return end
  seen[o.id] = true
end
print(n == 5 and "ok" or n .. " lines")
LUA
  lua "$tmp/at.lua" "${s#*:}" < "$tmp/at"
done

# Streamed: the first lines of a run of 100 million come out (a reader
# that stops is not kept waiting for the rest; the timeout is a hang's
# bound, not a speed check)
timeout 300 "$ids" new ulid -n 100000000 --json 2>/dev/null | head -n 2 > "$tmp/head"
[ "${PIPESTATUS[0]}" != 124 ] && ok || bad "new -n 100000000 --json | head: not streamed"
lua "$tmp/new.lua" "$tmp/rules.lua" ulid 2 "$ids" < "$tmp/head"

# ------------------------------------------- width, not magnitude: compose
# cmp NAME SCHEME LUA-CONDITION FIELD=VALUE...: compose --json's object o
# (and decode --json and inspect -s --json of its ID) make the condition
# true
cmp () {
  local name=$1 s=$2 cond=$3 id; shift 3
  "$ids" compose "$s" --json "$@" > "$tmp/c" 2>&1 || { bad "$name: compose: $(cat "$tmp/c")"; return; }
  id=$(lua5.4 -e 'print(require("cjson").decode(io.read("a")).id)' < "$tmp/c")
  "$ids" decode "$s" --json "$id" >> "$tmp/c" 2>&1 || bad "$name: decode $id"
  "$ids" inspect -s "$s" --json "$id" >> "$tmp/c" 2>&1 || bad "$name: inspect $id"
  cat > "$tmp/cmp.lua" <<'LUA'
dofile(os.getenv("RULES"))
local name, s, cond = arg[1], schemes[arg[2]], load("local o = ... return " .. arg[3])
local n = 0
for line in io.lines() do
  local o = cjson.decode(line)
  n = n + 1
  local why = badfields(s, o) or badtime(s, o)
  if why then print(name .. ": " .. why) return end
  if not cond(o) then print(name .. ": line " .. n .. ": " .. line) return end
end
print(n == 3 and "ok" or name .. ": " .. n .. " lines")
LUA
  lua "$tmp/cmp.lua" "$name" "$s" "$cond" < "$tmp/c"
}
export RULES=$tmp/rules.lua
cmp "snowflake: 42-bit timestamp 0 is a number" snowflake \
  'o.fields.timestamp == 0 and o.fields.sequence == 0 and type(o.time_ms) == "number"' \
  timestamp=0 worker=0 shard=0 sequence=0
cmp "uuidv7: 62-bit random 1 is the string 1" uuidv7 \
  'o.fields.random == "1" and o.fields.timestamp == 0 and o.time_ms == 0' \
  timestamp=0 sequence=0 random=1
cmp "uuidv7: 62-bit random past 2^53 is a string" uuidv7 \
  'o.fields.random == "4611686018427387903"' \
  timestamp=1 sequence=4095 random=4611686018427387903
cmp "ulid: 80-bit random 1 is hex bytes" ulid \
  'o.fields.random == "00000000000000000001"' \
  timestamp=0 random=00000000000000000001
cmp "uuidv1: 60-bit time 5 is the string 5" uuidv1 \
  'o.fields.timestamp == "5" and o.fields.node == 0' \
  timestamp=5 clock_seq=0 node=0
cmp "siq: 56-bit time, a qualifier by name" siq \
  'o.fields.timestamp == "0" and o.fields.qualifier == "content" and o.fields.shard == 0' \
  timestamp=0 shard=0 domain=0 serial=0 qualifier=content
cmp "kuid96: 20- and 32-bit fields are numbers" kuid96 \
  'o.fields.megaseconds == 0 and o.fields.node == 4294967295' \
  megaseconds=0 seconds=0 microseconds=0 node=4294967295 sequence=0
cmp "ksuid: 128-bit payload is hex bytes" ksuid \
  'o.fields.payload == ("0"):rep(31) .. "7"' \
  timestamp=0 payload=00000000000000000000000000000007
cmp "uuidnil: 64-bit constants are the string 0" uuidnil \
  'o.fields.high == "0" and o.fields.low == "0" and o.time == cjson.null' \
  high=0 low=0

# compose --json: every encoding of the ID, the id among them
"$ids" compose ulid --json -e uuid timestamp=1469922850259 random=d6764c61efb99302bd5b > "$tmp/c"
cat > "$tmp/compose.lua" <<'LUA'
local o = require("cjson").decode(io.read("a"))
if o.id ~= "01563e3a-b5d3-d676-4c61-efb99302bd5b" or o.encoding ~= "uuid" or
   o.encodings.uuid ~= o.id or o.encodings.crockford ~= "01ARZ3NDEKTSV4RRFFQ69G5FAV" or
   o.value ~= "01563e3ab5d3d6764c61efb99302bd5b" or o.time ~= "2016-07-30T23:54:10.259Z" then
  print("compose --json -e uuid: " .. require("cjson").encode(o)) return end
print "ok"
LUA
lua "$tmp/compose.lua" < "$tmp/c"

# ---------------------------------------------------------------- decode
# an object a line per text, in order; one that does not decode: its
# object with the error, the message on stderr naming it, exit 1
u=$(head -1 "$tmp/uuidv7.jsonl" | lua5.4 -e 'print(require("cjson").decode(io.read("a")).id)')
"$ids" decode uuidv7 --json "$u" not-an-id "$u" > "$tmp/d" 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -q '"not-an-id"' "$tmp/err" && ok || bad "decode --json of a bad text: exit $rc, $(cat "$tmp/err")"
cat > "$tmp/decode.lua" <<'LUA'
local cjson, u = require "cjson", arg[1]
local l = {}
for line in io.lines() do l[#l + 1] = cjson.decode(line) end
if #l ~= 3 then print(#l .. " lines") return end
if l[1].input ~= u or l[1].encoding ~= "uuid" or l[1].encodings.uuid ~= u or
   type(l[1].fields.random) ~= "string" or l[1].error then
  print("decode --json: " .. cjson.encode(l[1])) return end
if l[2].input ~= "not-an-id" or type(l[2].error) ~= "string" or
   not l[2].error:find("not-an-id", 1, true) then
  print("decode --json, bad text: " .. cjson.encode(l[2])) return end
if cjson.encode(l[3]) ~= cjson.encode(l[1]) then print("decode --json: third line") return end
print "ok"
LUA
lua "$tmp/decode.lua" "$u" < "$tmp/d"
# the encoding that read it, as detection chose it (FLUID's forms)
f=$(head -1 "$tmp/fluid.jsonl" | lua5.4 -e 'print(require("cjson").decode(io.read("a")).id)')
fd=$("$ids" convert -s fluid --to dec "$f")
expect "decode --json: the encoding detected" 0 '"encoding":"dec"' "$ids" decode fluid --json "$fd"

# --------------------------------------------------------------- convert
# the new text and what it holds; the same text as plain convert; a text
# that does not convert: its error object, stderr, exit 1
printf '%s\nnope\n' "$u" | "$ids" convert --to base58 --json > "$tmp/v" 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -q 'line 2: "nope"' "$tmp/err" && ok || bad "convert --json of a bad line: exit $rc, $(cat "$tmp/err")"
b58=$("$ids" convert --to base58 "$u")
cat > "$tmp/convert.lua" <<'LUA'
dofile(os.getenv("RULES"))
local u, b58, l = arg[1], arg[2], {}
for line in io.lines() do l[#l + 1] = cjson.decode(line) end
local o = l[1]
if #l ~= 2 or o.input ~= u or o.from ~= "uuid" or o.id ~= b58 or
   o.encoding ~= "base58" or o.scheme ~= "uuidv7" then
  print("convert --json: " .. cjson.encode(o)) return end
local why = badfields(schemes.uuidv7, o) or badtime(schemes.uuidv7, o)
if why then print("convert --json: " .. why) return end
if l[2].input ~= "nope" or l[2].line ~= 2 or type(l[2].error) ~= "string" then
  print("convert --json, bad line: " .. cjson.encode(l[2])) return end
print "ok"
LUA
lua "$tmp/convert.lua" "$u" "$b58" < "$tmp/v"

# ------------------------------------------------------------------ info
# every scheme: its fields as list's, each field's json_type by the rule
# and its max of that type (all ones of its width); a time's forms; the
# epoch is where a zero time field lies (compose), not a number kept here
cat > "$tmp/info.lua" <<'LUA'
dofile(arg[1])
local o, s = cjson.decode(io.read("a")), schemes[arg[2]]
if o.name ~= s.name or o.bits ~= s.bits or o.bytes ~= s.bytes then print(s.name .. ": name, bits, bytes") return end
if #o.fields ~= #s.fields then print(s.name .. ": " .. #o.fields .. " fields") return end
for i, f in ipairs(o.fields) do
  local g = s.fields[i]
  if f.name ~= g.name or f.bits ~= g.bits or f.kind ~= g.kind then print(s.name .. ": field " .. i) return end
  local want = (f.bits > 53 or f.kind == "qualifier") and "string" or "number"
  if f.json_type ~= want then print(s.name .. " " .. f.name .. ": json_type " .. tostring(f.json_type)) return end
  if f.kind ~= "qualifier" then
    local why = badfield(f, f.max)
    if why then print(s.name .. " " .. f.name .. ": max " .. tostring(f.max) .. ": " .. why) return end
    local bits = math.tointeger(f.bits)
    -- all ones of its width, as the field's values are written
    local ones = bits > 64 and (bits % 8 == 0 and "" or
                   ("%02x"):format((1 << bits % 8) - 1)) .. ("ff"):rep(bits // 8)
                 or bits > 53 and (bits == 64 and "18446744073709551615" or
                   tostring((1 << bits) - 1))
                 or (1 << bits) - 1
    if f.max ~= ones then print(s.name .. " " .. f.name .. ": max " .. tostring(f.max) .. ", want " .. tostring(ones)) return end
  end
  if f.kind == "constant" and badfield(f, f.value) then print(s.name .. " " .. f.name .. ": value") return end
end
if timed(s) ~= (o.time ~= cjson.null) then print(s.name .. ": time " .. tostring(o.time)) return end
if timed(s) and (type(o.time.unit) ~= "string" or badtime({ fields = { { kind = "time" } } },
                 { time = o.time.epoch, time_ms = o.time.epoch_ms })) then
  print(s.name .. ": time " .. cjson.encode(o.time)) return end
if #o.encodings ~= #s.encodings or o.encodings[1] ~= s.encodings[1] then print(s.name .. ": encodings") return end
print "ok"
LUA
for s in $(lua5.4 -e 'for _, s in ipairs(require("cjson").decode(io.read("a"))) do print(s.name) end' < "$tmp/list.json"); do
  "$ids" info "$s" --json > "$tmp/info" || bad "info $s --json"
  lua "$tmp/info.lua" "$tmp/rules.lua" "$s" < "$tmp/info"
done
for s in snowflake ulid uuidv1; do
  z=$("$ids" compose "$s" --json timestamp=0 $([ $s = snowflake ] && echo worker=0 shard=0 sequence=0)$([ $s = ulid ] && echo random=00000000000000000000)$([ $s = uuidv1 ] && echo clock_seq=0 node=0) |
      lua5.4 -e 'print(math.tointeger(require("cjson").decode(io.read("a")).time_ms))')
  e=$("$ids" info "$s" --json | lua5.4 -e 'print(math.tointeger(require("cjson").decode(io.read("a")).time.epoch_ms))')
  [ -n "$z" ] && [ "$z" = "$e" ] && ok || bad "info $s --json: epoch_ms $e, a zero time is $z"
done

# ------------------------------------------------- refusals and the help
refuses "decode --json with -f" 2 "give --json or --format, not both" \
  "$ids" decode ulid --json -f '{time}' 01ARZ3NDEKTSV4RRFFQ69G5FAV
refuses "new --json takes no value" 2 "option --json takes no value" "$ids" new ulid --json=1
refuses "compose --json: a bad field still a usage error" 2 "random" \
  "$ids" compose ulid --json timestamp=0 random=zz
for c in new decode compose info convert inspect; do
  "$ids" help $c > "$tmp/h"
  if grep -q -- "--json" "$tmp/h" && grep -q "by the field's width" "$tmp/h"
  then ok; else bad "help $c: no --json or its types"; cat "$tmp/h"; fi
done

cli_finish
