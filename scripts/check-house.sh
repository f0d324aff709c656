#!/usr/bin/env bash
# The house rules that a machine can check, on a built tree:
#   scripts/check-house.sh BUILDDIR
# 1. core/, schemes/ and inspect/ include no Lua header;
# 2. no include circle among the files of core/, schemes/ and inspect/, and
#    no circle of symbol references among core/'s objects (which file calls
#    which);
# 3. libidscheme.so exports exactly the functions and data that the public
#    headers declare, and each Lua module exports luaopen_idscheme alone.
#   scripts/check-house.sh --exports FILE...
# runs check 3 alone on built or installed files: a libidscheme.so* against
# the headers, any other .so as a Lua module (the packaging stage uses it).
# Prints one line per check and ends "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0

ok () { echo "ok   $1"; passed=$((passed + 1)); }
bad () { echo "FAIL $1"; shift; printf '     %s\n' "$@"; failed=$((failed + 1)); }

# 3 ------------------------------------------------------------------
# the public headers (cmake/install.cmake installs these)
headers="core/idscheme.h core/slots.h core/idcompressor.h inspect/inspect.h"

# check_lib FILE: exports exactly what the public headers declare (all ids_*)
check_lib () {
  local lib=$1 declared exported extra missing
  # every ids_* name that a public header declares as a function or data
  declared=$(for h in $headers; do
               [ -f "$h" ] && cpp -P -D__GNUC__=12 -I core -I inspect "$h" 2>/dev/null
             done | grep -oE '\bids_[a-z0-9_]+[[:space:]]*(\(|\[|;)' |
             sed -E 's/[[:space:]]*[(\[;]$//' | sort -u |
             grep -vxF -f <(grep -hoE 'static inline [^(]*\bids_[a-z0-9_]+ \(' $headers |
                            grep -oE 'ids_[a-z0-9_]+' ; echo none))
  exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDRBVWiu]/ {print $3}' | sort -u)
  extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
  missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
  # declared names that are types, not symbols, show up as "missing":
  # keep only those that are really declared as functions or objects
  missing=$(for m in $missing; do
              grep -qE "\b(struct|typedef)[^;]*\b$m\b" core/*.h inspect/*.h && continue
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

if [ "${1:-}" = "--exports" ]; then
  shift
  [ $# -gt 0 ] || bad "exports" "no file given"
  for f in "$@"; do
    if [ ! -f "$f" ]; then bad "exports" "no $f"
    elif [[ $(basename "$f") == libidscheme.so* ]]; then check_lib "$f"
    else check_module "$f"; fi
  done
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
fi
build=${1:?usage: $0 BUILDDIR | --exports FILE...}

# 1 ------------------------------------------------------------------
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](lua|lauxlib|lualib|luajit|luaconf)[^>"]*[>"]' core schemes inspect)
if [ -z "$hits" ]; then ok "no Lua header under core/, schemes/ and inspect/"
else bad "Lua headers under core/, schemes/ or inspect/" "$hits"; fi

# 2 ------------------------------------------------------------------
# "a b" pairs for tsort: a includes b (by base name; quoted includes only).
edges=$(for f in $(find core schemes inspect -name '*.[ch]'); do
          sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$f" |
            while read -r inc; do echo "$(basename "$f") $(basename "$inc")"; done
        done)
if out=$(tsort <<<"$edges" 2>&1 >/dev/null) && [ -z "$out" ]; then
  ok "no include circle in core/, schemes/ and inspect/"
else bad "include circle" "$out"; fi

# Which core object uses a symbol that which other defines: a circle there
# is a circle of dependencies whatever the includes say.
objdir=$(find "$build" -path '*ids_objects.dir' -type d | head -1)
if [ -z "$objdir" ]; then
  bad "core objects" "no ids_objects.dir under $build (build it first)"
else
  declare -A owner=()
  objs=$(find "$objdir/core" -name '*.o' | sort)
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
    ok "no circle of references among core/ objects"
  else bad "circle of references among core/ objects" "$out"; fi
fi

# 3 ------------------------------------------------------------------
lib=$(find "$build" -maxdepth 1 -name 'libidscheme.so' | head -1)
if [ -z "$lib" ]; then bad "exports" "no libidscheme.so in $build"
else check_lib "$lib"; fi
for m in "$build"/lua54/idscheme.so "$build"/luajit/idscheme.so; do
  [ -f "$m" ] && check_module "$m"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
