#!/usr/bin/env bash
# spec/rockspec.sh LUAVERSION INTERPRETER: the rockspec builds offline into a
# temporary tree, exports only luaopen_idscheme, and the module works.
set -u
ver=${1:?usage: rockspec.sh 5.4|5.1 lua5.4|luajit}
lua=${2:?}
root=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-rock.XXXXXX")
trap 'rm -rf "$tree"' EXIT
cd "$root" || exit 1
if ! luarocks --lua-version="$ver" make --tree="$tree" rockspec/idscheme-scm-1.rockspec >"$tree/build.log" 2>&1; then
  cat "$tree/build.log"; echo "0 passed, 1 failed"; exit 1
fi
so=$(find "$tree" -name idscheme.so | head -1)
exports=$(nm -D --defined-only "$so" | awk '$2 == "T" {print $3}')
fail=0
[ "$exports" = "luaopen_idscheme" ] || { echo "exports: $exports"; fail=1; }
LUA_CPATH="$(dirname "$so")/?.so" \
LUA_PATH="$tree/share/lua/$ver/?.lua;$tree/share/lua/$ver/?/init.lua" \
"$lua" -e '
  local i = require "idscheme"
  local u = i.scheme("ulid"):generator():next_string()
  assert(#u == 26 and i.scheme("ulid"):decode(u), u)
  assert(i.scheme("fluid"):decode("ƒuZZybuNNy"):encode("dec") == "6731191091817518")
  assert(#i.list() >= 12)' || fail=1
echo "$((1 - fail)) passed, $fail failed"
exit $fail
