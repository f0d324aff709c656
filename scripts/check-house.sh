#!/usr/bin/env bash
# The house rules that a machine can check, on a built tree:
#   scripts/check-house.sh BUILDDIR
# 1. core/, schemes/, idcompressor/ and inspect/ include no Lua header;
# 2. no include circle among the files of core/, schemes/, idcompressor/ and
#    inspect/,
#    and no circle of symbol references among the objects of core/ and of
#    idcompressor/ (which file calls which);
# 3. libidscheme.so exports exactly the functions and data that the public
#    headers declare, each Lua module exports luaopen_idscheme alone, and
#    the stores' module (idscheme/stores.so) ids_slot_stores alone.
# 4. C requires no Lua module of this project but idscheme.jit: no C source
#    under core/, schemes/, binding/ or cli/ requires idscheme.* (the
#    layers point one way: Lua is above C, never below it).
# 5. lua/ holds Lua modules alone, each one a module name's path: it is
#    what luarocks installs as Lua (the binding's C is in binding/, the
#    LuaLS definitions in types/).
#   scripts/check-house.sh --exports FILE...
# runs check 3 alone on built or installed files: a libidscheme.so* against
# the headers, a stores.so as the stores' module, any other .so as a Lua
# module (the packaging stage uses it).
# Prints one line per check and ends "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0
# the library's rooms, below the binding; and the headers that its users see
rooms="core schemes idcompressor inspect"
said="${rooms// //, }/"
public="core/idscheme.h core/slots.h idcompressor/idcompressor.h inspect/inspect.h"

ok () { echo "ok   $1"; passed=$((passed + 1)); }
bad () { echo "FAIL $1"; shift; printf '     %s\n' "$@"; failed=$((failed + 1)); }

# 3 ------------------------------------------------------------------

# check_lib FILE: exports exactly what the public headers declare (all ids_*)
check_lib () {
  local lib=$1 declared exported extra missing
  # every ids_* name that a public header declares as a function or data
  declared=$(for h in $public; do
               [ -f "$h" ] && cpp -P -D__GNUC__=12 -I core "$h" 2>/dev/null
             done | grep -oE '\bids_[a-z0-9_]+[[:space:]]*(\(|\[|;)' |
             sed -E 's/[[:space:]]*[(\[;]$//' | sort -u |
             grep -vxF -f <(grep -hoE 'static inline [^(]*\bids_[a-z0-9_]+ \(' core/*.h idcompressor/*.h inspect/*.h |
                            grep -oE 'ids_[a-z0-9_]+' ; echo none))
  exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDRBVWiu]/ {print $3}' | sort -u)
  extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
  missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
  # declared names that are types, not symbols, show up as "missing":
  # keep only those that are really declared as functions or objects
  missing=$(for m in $missing; do
              grep -qE "\b(struct|typedef)[^;]*\b$m\b" core/*.h idcompressor/*.h inspect/*.h && continue
              echo "$m"
            done)
  if [ -z "$extra" ] && [ -z "$missing" ]; then
    ok "$lib exports exactly the public headers' $(wc -w <<<"$exported") symbols"
  else
    bad "$lib exports" "exported but not public: $(echo $extra)" \
        "public but not exported: $(echo $missing)"
  fi
}

# check_module FILE: a Lua module exports luaopen_idscheme and nothing else
check_module () {
  local syms
  syms=$(nm -D --defined-only "$1" | awk '$2 ~ /[TDRBVWiu]/ {print $3}' | sort -u | tr '\n' ' ')
  if [ "$syms" = "luaopen_idscheme " ]; then ok "$1 exports luaopen_idscheme alone"
  else bad "$1 exports more than luaopen_idscheme" "$syms"; fi
}

# check_stores FILE: the stores' module exports its table alone (the name
# core/slot/module.c looks up: IDS_SLOT_MODULE_SYMBOL)
check_stores () {
  local syms
  syms=$(nm -D --defined-only "$1" | awk '$2 ~ /[TDRBVWiu]/ {print $3}' | sort -u | tr '\n' ' ')
  if [ "$syms" = "ids_slot_stores " ]; then ok "$1 exports ids_slot_stores alone"
  else bad "$1 exports more than ids_slot_stores" "$syms"; fi
}

if [ "${1:-}" = "--exports" ]; then
  shift
  [ $# -gt 0 ] || bad "exports" "no file given"
  for f in "$@"; do
    if [ ! -f "$f" ]; then bad "exports" "no $f"
    elif [[ $(basename "$f") == libidscheme.so* ]]; then check_lib "$f"
    elif [ "$(basename "$f")" = stores.so ]; then check_stores "$f"
    else check_module "$f"; fi
  done
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi
build=${1:?usage: $0 BUILDDIR | --exports FILE...}

# 1 ------------------------------------------------------------------
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](lua|lauxlib|lualib|luajit|luaconf)[^>"]*[>"]' $rooms)
if [ -z "$hits" ]; then ok "no Lua header under $said"
else bad "Lua headers under $said" "$hits"; fi

# 2 ------------------------------------------------------------------
# "a b" pairs for tsort: a includes b (by base name; quoted includes only).
edges=$(for f in $(find $rooms -name '*.[ch]'); do
          sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$f" |
            while read -r inc; do echo "$(basename "$f") $(basename "$inc")"; done
        done)
if out=$(tsort <<<"$edges" 2>&1 >/dev/null) && [ -z "$out" ]; then
  ok "no include circle in $said"
else bad "include circle" "$out"; fi

# Which object of core/ or idcompressor/ uses a symbol that which other
# defines: a circle there is a circle of dependencies whatever the includes
# say.
objdir=$(find "$build" -path '*ids_objects.dir' -type d | head -1)
if [ -z "$objdir" ]; then
  bad "core objects" "no ids_objects.dir under $build (build it first)"
else
  declare -A owner=()
  objs=$(find "$objdir/core" "$objdir/idcompressor" -name '*.o' | sort)
  for o in $objs; do
    for sym in $(nm --defined-only -g "$o" | awk '{print $3}'); do
      owner[$sym]=${o#"$objdir"/}
    done
  done
  edges=$(for o in $objs; do
            for sym in $(nm -u "$o" | awk '{print $2}'); do
              t=${owner[$sym]:-}
              [ -n "$t" ] && [ "$t" != "${o#"$objdir"/}" ] && echo "${o#"$objdir"/} $t"
            done
          done | sort -u)
  if out=$(tsort <<<"$edges" 2>&1 >/dev/null) && [ -z "$out" ]; then
    ok "no circle of references among core/, idcompressor/ objects"
  else bad "circle of references among core/, idcompressor/ objects" "$out"; fi
fi

# 3 ------------------------------------------------------------------
lib=$(find "$build" -maxdepth 1 -name 'libidscheme.so' | head -1)
if [ -z "$lib" ]; then bad "exports" "no libidscheme.so in $build"
else check_lib "$lib"; fi
for m in "$build"/lua54/idscheme.so "$build"/luajit/idscheme.so; do
  [ -f "$m" ] && check_module "$m"
done
[ -f "$build/lib/idscheme/stores.so" ] && check_stores "$build/lib/idscheme/stores.so"

# 4 ------------------------------------------------------------------
# Every module a C file requires, as FILE:LINE: NAME: the string pushed
# after lua_getglobal(L, "require") (within 3 lines), luaL_requiref's name,
# and `require 'NAME'`, `require(\"NAME\")` in Lua text held in a C string.
c_requires () {
  find "$@" -name '*.[ch]' | sort | xargs awk '
    function say (m) { print FILENAME ":" FNR ": " m }
    FNR == 1 { pend = 0 }
    {
      line = $0
      if (pend && match(line, /"[^"]*"/)) {
        say(substr(line, RSTART + 1, RLENGTH - 2)); pend = 0
      } else if (pend) pend--
      if (match(line, /luaL_requiref[ \t]*\([^,]*,[ \t]*"[^"]*"/)) {
        m = substr(line, RSTART, RLENGTH); sub(/^[^"]*"/, "", m)
        say(substr(m, 1, length(m) - 1))
      }
      if (match(line, /"require"/)) {
        rest = substr(line, RSTART + RLENGTH); pend = 3
        if (match(rest, /"[^"]*"/)) {
          say(substr(rest, RSTART + 1, RLENGTH - 2)); pend = 0
        }
      }
      while (match(line, /require[ \t]*\(?[ \t]*(\\"|\047)[A-Za-z0-9_.]+/)) {
        m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
        sub(/^require[ \t]*\(?[ \t]*(\\"|\047)/, "", m); say(m)
      }
    }'
}
hits=$(c_requires core schemes binding cli | grep -E ': idscheme\.' | grep -vE ': idscheme\.jit$')
if [ -z "$hits" ]; then ok "C requires no Lua module of ours but idscheme.jit"
else bad "C requires a Lua module of ours (only idscheme.jit may be)" "$hits"; fi

# 5 ------------------------------------------------------------------
hits=$(git ls-files lua 2>/dev/null | grep -vE '^lua/idscheme(/[a-z_]+)*\.lua$')
if [ -z "$hits" ]; then ok "lua/ holds Lua modules of idscheme.* alone"
else bad "lua/ holds what is no Lua module of ours (luarocks installs it all)" "$hits"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
