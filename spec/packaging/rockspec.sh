#!/usr/bin/env bash
# spec/packaging/rockspec.sh LUAVERSION INTERPRETER [ROCKSPEC|SRC.ROCK]: the
# rock builds offline into a temporary tree (luarocks make from the
# checkout, or luarocks build of a packed source rock), its module exports
# only luaopen_idscheme (scripts/check-house.sh --exports), and the
# interpreter, given that tree's paths alone, loads it, makes an ID, uses a
# shipped defined scheme and (LuaJIT) idscheme.resty; the stores' module
# sits beside it (idscheme/stores.so), exports ids_slot_stores alone, and
# is found there with no help: a redis and an etcd claim on a closed port
# fail connecting, not loading.  Without ROCKSPEC: both rockspecs in
# rockspec/.
set -u
ver=${1:?usage: rockspec.sh 5.4|5.1 lua5.4|luajit [ROCKSPEC|SRC.ROCK]}
lua=${2:?}
root=$(cd "$(dirname "$0")/../.." && pwd)
want=$(sed -n 's/^#define IDS_VERSION *"\([0-9.]*\)".*/\1/p' "$root/core/idscheme.h")
passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-rock.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# luarocks make compiles next to the sources: in a copy of the checkout
# (its files, no build output), so that the 5.4 and 5.1 tests may run at
# once and the checkout stays clean
mkdir "$tmp/src"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$root" && git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$tmp/src")
else cp -a "$root/." "$tmp/src"; fi

# one ROCK (a rockspec path relative to the checkout, or a .src.rock)
try () {
  local rock=$1 tree="$tmp/tree$((passed + failed))" so
  if [[ $rock == *.src.rock ]]; then
    (cd "$tmp" && luarocks --lua-version="$ver" build --tree="$tree" "$rock")
  else
    (cd "$tmp/src" && luarocks --lua-version="$ver" make --tree="$tree" "$rock")
  fi >"$tree.log" 2>&1 || {
    cat "$tree.log"; echo "FAIL $rock: luarocks $ver"; failed=$((failed + 1)); return; }
  so=$(find "$tree" -name idscheme.so | head -1)
  # only Lua modules under share/lua (issue 39: luarocks copied the whole
  # lua/ folder, the binding's C, headers and objects and a module
  # types.idscheme among them)
  extra=$(find "$tree/share/lua" -type f ! -path "*/share/lua/$ver/idscheme/*.lua")
  if [ -n "$extra" ] || [ -z "$(find "$tree/share/lua" -name resty.lua)" ]; then
    echo "extra: $extra"; echo "FAIL $rock: share/lua holds Lua modules alone"
    failed=$((failed + 1)); return
  fi
  if ! out=$(bash "$root/scripts/check-house.sh" --exports "$so" \
                "$(dirname "$so")/idscheme/stores.so"); then
    echo "$out"; echo "FAIL $rock: exports"; failed=$((failed + 1)); return
  fi
  # LUA_PATH and LUA_CPATH without ";;": nothing but this tree; and not
  # the build's stores module that ctest names
  if env -u IDSCHEME_STORES_MODULE \
     WANT=$want TREE=$tree LUA_CPATH="$(dirname "$so")/?.so" \
     LUA_PATH="$tree/share/lua/$ver/?.lua;$tree/share/lua/$ver/?/init.lua" \
     "$lua" -e '
    local i = require "idscheme"
    assert(i._VERSION == os.getenv "WANT", "_VERSION " .. tostring(i._VERSION))
    assert(package.searchpath("idscheme", package.cpath):find(os.getenv "TREE", 1, true))
    local u = i.scheme("ulid"):generator():next_string()    -- shipped spec
    assert(#u == 26 and i.scheme("ulid"):decode(u), u)
    assert(i.scheme("fluid"):decode("ƒuZZybuNNy"):encode("dec") == "6731191091817518")
    assert(#i.list() >= 12)
    if jit then
      local resty = require "idscheme.resty"
      assert(type(resty.request_id) == "function")
    end
    for _, url in ipairs { "redis://127.0.0.1:1/x", "etcd://127.0.0.1:1/x" } do
      local ok, err = pcall(i.scheme("fluid").generator, i.scheme("fluid"),
                            { slots = url, slot_timeout_ms = 500 })
      err = tostring(err)
      assert(not ok and not err:find("stores.so", 1, true) and
             (err:find("connect", 1, true) or err:find("onnection", 1, true)), err)
    end'; then
    echo "ok   $rock: $lua in its tree"; passed=$((passed + 1))
  else
    echo "FAIL $rock: $lua in its tree"; failed=$((failed + 1))
  fi
}

if [ $# -ge 3 ]; then try "$3"
else
  try rockspec/idscheme-scm-1.rockspec
  try "rockspec/idscheme-$want-1.rockspec"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
