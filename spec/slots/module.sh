#!/usr/bin/env bash
# spec/slots/module.sh BUILDDIR SERVER: the slot stores' module (issue 40,
# item 5; core/slot/module.c).  The command, libidscheme.so and the Lua
# modules need none of the stores' libraries (readelf NEEDED, and ldd: nor
# through another), and a process that claims no redis or etcd slot loads
# none (LD_DEBUG); a Redis lease works through the module, from the
# command and from Lua, loading them then; with IDSCHEME_STORES_MODULE
# pointed at nowhere, at a file that is no stores module, or at a module
# of another ABI, a redis or etcd claim fails naming the store, the path
# and why, while `idscheme new ulid` and a local slot work as before.
. "$(dirname "$0")/lib.sh"
store=redis server=$2
build=$(cd "$build" && pwd)
ids=$build/idscheme
module=$IDSCHEME_STORES_MODULE      # the build's (lib.sh)
banned='lib(hiredis|curl|ssl|crypto|cjson)\.so'
export LUA_CPATH="$build/lua54/?.so;;"

# 1 -- what the core links, and loads
for f in "$ids" "$build/libidscheme.so" "$build/lua54/idscheme.so" \
         "$build/luajit/idscheme.so"; do
  [ -f "$f" ] || continue
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  check "${f#"$build"/} needs none of the stores' libraries (NEEDED: $needed)" \
    eval '! grep -qE "$banned" <<<"$needed" && ! ldd "$f" | grep -qE "$banned"'
done
check "the module needs them: $(readelf -d "$module" | grep -cE "NEEDED.*$banned") of 5" \
  eval '[ "$(readelf -d "$module" | grep -cE "NEEDED.*$banned")" = 5 ]'
# LD_DEBUG=libs says "calling init: PATH" for each object a process loads
loads () { LD_DEBUG=libs "$@" 2>&1 >/dev/null | grep 'calling init:'; }
check "idscheme new ulid loads none of them" \
  eval '! loads "$ids" new ulid | grep -qE "$banned|stores\.so"'
mkdir -p "$tmp/slots"
check "idscheme new fluid on a local slot loads none of them" \
  eval '! loads "$ids" new fluid -p slots="local:$tmp/slots" | grep -qE "$banned|stores\.so"'

# 2 -- a Redis lease, through the module
free_ports port
. "$(dirname "$0")/server.sh"
start_server
url="redis://127.0.0.1:$port/mod"
out=$("$ids" new fluid -n 3 -p slots="$url" -p slot_ttl_ms=1000 2>&1); rc=$?
check "idscheme new fluid -n 3 on a Redis lease" eval '[ $rc = 0 ] && [ "$(wc -l <<<"$out")" = 3 ]'
[ $rc = 0 ] || echo "  $out"
check "... loads the module, and hiredis, for it" \
  eval 'loads "$ids" new fluid -p slots="$url" -p slot_ttl_ms=1000 >"$tmp/ld" &&
        grep -qF "$module" "$tmp/ld" && grep -q libhiredis "$tmp/ld"'
cat >"$tmp/gen.lua" <<'LUA'
local i = require "idscheme"
local ok, g = pcall(i.scheme("fluid").generator, i.scheme("fluid"),
                    { slots = arg[1], slot_ttl_ms = 1000, slot_timeout_ms = 1000 })
if not ok then io.write(tostring(g), "\n") os.exit(2) end
io.write(g:next_string(), " ", g:lease().backend, "\n")
g:close()
io.write(i.scheme("ulid"):generator():next_string(), "\n")
LUA
out=$(lua_run "$tmp/gen.lua" "$url" 2>&1); rc=$?
check "a Lua generator on a Redis lease" eval '[ $rc = 0 ] && grep -q " redis$" <<<"$out"'
[ $rc = 0 ] || echo "  $out"

# 3 -- the module where it is not, not ours, or of another ABI
refused () {   # refused NAME MODULE URL TEXT: the command and Lua say TEXT
  local name=$1 where=$2 u=$3 text=$4
  out=$(IDSCHEME_STORES_MODULE=$where "$ids" new fluid -p slots="$u" 2>&1); rc=$?
  check "$name: the command refuses $u" \
    eval '[ $rc != 0 ] && grep -qF -- "$text" <<<"$out"'
  echo "  $out"
  out=$(IDSCHEME_STORES_MODULE=$where lua_run "$tmp/gen.lua" "$u" 2>&1); rc=$?
  check "$name: Lua refuses it alike" eval '[ $rc = 2 ] && grep -qF -- "$text" <<<"$out"'
}
nowhere=$tmp/nowhere/stores.so
refused "nowhere" "$nowhere" "$url" \
  "slot store \"$url\": redis needs $nowhere: cannot open shared object file: No such file or directory"
refused "nowhere" "$nowhere" "etcd://127.0.0.1:1/x" \
  "slot store \"etcd://127.0.0.1:1/x\": etcd needs $nowhere: cannot open"
refused "no stores module" "$build/libidscheme.so" "$url" \
  "redis needs $build/libidscheme.so: undefined symbol: ids_slot_stores"
# a module of ABI 999: the table's first two fields never move
printf '%s\n' 'struct m { unsigned abi; const char *version; const void *b; };' \
  '__attribute__((visibility("default")))' \
  'const struct m ids_slot_stores = { 999, "9.9.9", 0 };' >"$tmp/other.c"
if cc -shared -fPIC -o "$tmp/other.so" "$tmp/other.c"; then
  refused "another ABI" "$tmp/other.so" "$url" \
    "redis needs $tmp/other.so: it is idscheme 9.9.9's (ABI 999), this library"
else bad "cc makes a module of another ABI"; fi
out=$(IDSCHEME_STORES_MODULE=$nowhere "$ids" new ulid 2>&1); rc=$?
check "... while idscheme new ulid works ($out)" eval '[ $rc = 0 ] && [ ${#out} = 26 ]'
out=$(IDSCHEME_STORES_MODULE=$nowhere "$ids" new fluid -p slots="local:$tmp/slots" 2>&1); rc=$?
check "... and a local slot ($out)" [ $rc = 0 ]
out=$(IDSCHEME_STORES_MODULE=$nowhere lua_run "$tmp/gen.lua" "local:$tmp/slots" 2>&1); rc=$?
check "... and in Lua" eval '[ $rc = 0 ] && grep -q " local$" <<<"$out"'

stop_server
finish
