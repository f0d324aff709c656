#!/usr/bin/env bash
# One version, one place: IDS_VERSION in core/idscheme.h.  Checks that every
# other place says the same:
#   scripts/check-version.sh            the sources: CMake's project version,
#       the man page, both rockspecs, the PostgreSQL extension's version,
#       debian/changelog and the package names
#   scripts/check-version.sh PREFIX     also an installed tree (cmake --install
#       or the Debian packages with PREFIX=/usr): ids_version(), both Lua
#       modules' _VERSION, idscheme --version, the SONAME and file name,
#       idscheme.pc, the CMake package version
# Prints one line per check and ends "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
prefix=${1:-}
passed=0 failed=0
ok () { echo "ok   $1"; passed=$((passed + 1)); }
bad () { echo "FAIL $1"; shift; printf '     %s\n' "$@"; failed=$((failed + 1)); }
# same WHAT GOT: GOT must be the version
same () { if [ "$2" = "$v" ]; then ok "$1: $2"; else bad "$1" "says '$2', not $v"; fi; }

v=$(sed -n 's/^#define IDS_VERSION *"\([0-9]*\.[0-9]*\.[0-9]*\)".*/\1/p' core/idscheme.h)
[ -n "$v" ] || { bad "IDS_VERSION" "no x.y.z in core/idscheme.h"; echo "0 passed, 1 failed"; exit 1; }
major=${v%%.*}
echo "version $v (core/idscheme.h)"

# ------------------------------------------------------------ sources
# CMake reads the header (CMakeLists.txt): ask it
t=$(mktemp "${TMPDIR:-/tmp}/idscheme-ver.XXXXXX")
{ sed -n '/^file(STRINGS core\/idscheme.h/,/^string(REGEX MATCH/p' CMakeLists.txt
  echo 'message("${IDS_VERSION}")'; } >"$t"
same "CMake project version" "$(cmake -P "$t" 2>&1)"
rm -f "$t"
same "man page (.TH)" "$(sed -n 's/^\.TH .*"idscheme \([^"]*\)".*/\1/p' docs/idscheme.1)"
scm=rockspec/idscheme-scm-1.rockspec rel=rockspec/idscheme-$v-1.rockspec
if [ ! -f "$rel" ]; then
  bad "versioned rockspec" "no $rel (copy $scm, set version and source)"
else
  same "$rel version" "$(sed -n 's/^version = "\(.*\)-1"$/\1/p' "$rel")"
  src=$(sed -n 's/^source = .*file:\/\/idscheme-\([^"]*\)\.tar\.gz".*dir = "idscheme-\([^"]*\)".*/\1 \2/p' "$rel")
  same "$rel source tarball" "${src% *}"
  # the same rock but for its version, source and opening comment
  body () { sed -e '1,/^rockspec_format/{/^--/d}' -e '/^version = /d' -e '/^source = /d' "$1"; }
  if d=$(diff <(body "$scm") <(body "$rel")); then ok "$rel is $scm but for version and source"
  else bad "$rel differs from $scm" "$d"; fi
fi
others=$(ls rockspec/idscheme-*-1.rockspec | grep -vxF -e "$scm" -e "$rel")
[ -z "$others" ] && ok "no rockspec of another version" || bad "old rockspecs" $others
# the extension's SQL version (ALTER EXTENSION ... UPDATE goes by it)
same "pg/idscheme.control default_version" \
  "$(sed -n "s/^default_version = '\(.*\)'$/\1/p" pg/idscheme.control)"
if [ -f "pg/idscheme--$v.sql" ] && grep -qx "DATA = idscheme--$v.sql" pg/Makefile; then
  ok "pg/idscheme--$v.sql is the extension's script"
else bad "extension script" "want pg/idscheme--$v.sql, named in pg/Makefile's DATA"; fi
same "debian/changelog" "$(sed -n '1s/^idscheme (\([^)-]*\)[^)]*).*/\1/p' debian/changelog)"
if grep -qx "Package: libidscheme$major" debian/control &&
   grep -q "^libidscheme.so.$major libidscheme$major " debian/libidscheme$major.symbols; then
  ok "libidscheme$major package and symbols file for SONAME libidscheme.so.$major"
else bad "Debian library package" "want Package: libidscheme$major and debian/libidscheme$major.symbols"; fi

# -------------------------------------------------------- installed tree
if [ -n "$prefix" ]; then
  lib=$(find "$prefix"/lib* -name "libidscheme.so.$major" 2>/dev/null | head -1)
  if [ -z "$lib" ]; then bad "SONAME" "no libidscheme.so.$major under $prefix"
  else
    same "SONAME libidscheme.so.MAJOR" \
      "$v$(readelf -d "$lib" | grep -q "SONAME.*\[libidscheme.so.$major\]" || echo ' (SONAME not libidscheme.so.'$major')')"
    same "library file name" "$(basename "$(readlink -f "$lib")" | sed 's/^libidscheme\.so\.//')"
    libdir=$(dirname "$lib")
    same "idscheme.pc" "$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --modversion idscheme 2>&1)"
    same "CMake package version" \
      "$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$libdir/cmake/idscheme/idschemeConfigVersion.cmake")"
    # ids_version() of the installed library, from a program built against it
    t=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-ver.XXXXXX")
    printf '#include <stdio.h>\n#include <idscheme.h>\nint main(void){puts(ids_version());return 0;}\n' >"$t/v.c"
    if cc -o "$t/v" "$t/v.c" -I"$prefix/include/idscheme" -L"$libdir" -lidscheme 2>"$t/log"; then
      same "ids_version()" "$(LD_LIBRARY_PATH=$libdir "$t/v")"
    else bad "ids_version()" "$(cat "$t/log")"; fi
    rm -rf "$t"
  fi
  for lv in 5.4:lua5.4 5.1:luajit; do
    so=$(find "$prefix"/lib* -path "*/lua/${lv%%:*}/idscheme.so" 2>/dev/null | head -1)
    if [ -z "$so" ]; then bad "Lua ${lv%%:*} module" "none under $prefix"; continue; fi
    same "${lv#*:} idscheme._VERSION" \
      "$(LUA_CPATH="$(dirname "$so")/?.so" LUA_PATH="$prefix/share/lua/${lv%%:*}/?.lua" \
         "${lv#*:}" -e 'io.write(require "idscheme"._VERSION)' 2>&1)"
  done
  same "idscheme --version" "$("$prefix/bin/idscheme" --version 2>&1 | sed 's/^idscheme //')"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
