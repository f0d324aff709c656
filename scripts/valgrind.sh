#!/usr/bin/env bash
# scripts/valgrind.sh [BUILDDIR]: every C test and every busted spec (Lua
# 5.4) under valgrind memcheck: no error and no definitely lost byte
# (--errors-for-leak-kinds=definite), at a reduced scale (IDS_TEST_SCALE,
# IDS_TORTURE_SECONDS) so that the stage fits some 15 minutes on 2 cores.
# Ends "N passed, N failed", one per test or spec.
#
# Left out: the tests that start servers or other programs (slots_* shell
# tests with redis-server and etcd, nginx_*, idc_node_cross with node,
# cli*.sh, rockspec_*): what they add over the tests here is the servers'
# and the shell's, and the library code they run is run here.  LuaJIT is
# left out too: its own allocator and hand-written VM give memcheck
# thousands of false errors unless LuaJIT is built with
# LUAJIT_USE_VALGRIND and LUAJIT_USE_SYSMALLOC, which Debian's is not.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=${1:-build-valgrind}
mkdir -p "$dir"
if ! cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON \
       >"$dir/configure.log" 2>&1 ||
   ! cmake --build "$dir" -j"${JOBS:-2}" >"$dir/build.log" 2>&1; then
  tail -40 "$dir/configure.log" "$dir/build.log"
  echo "0 passed, 1 failed"
  exit 1
fi
dir=$(cd "$dir" && pwd)
export IDS_TEST_SCALE=${IDS_TEST_SCALE:-0.01}
export IDS_TORTURE_SECONDS=${IDS_TORTURE_SECONDS:-0.1}
export IDS_TEST_SLOW=${IDS_TEST_SLOW:-20}    # watchdogs: memcheck is slow
# the tests run here, not through ctest, which names the build's stores'
# module to each (CMakeLists.txt, IDS_STORES_BUILT): the same module
export IDSCHEME_STORES_MODULE=$dir/lib/idscheme/stores.so
# --track-origins only where asked (VALGRIND_ORIGINS=1): it finds no
# error that memcheck would not, it only says where an uninitialised value
# came from, and it makes every test about half again as slow
vg="valgrind --quiet --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite --show-leak-kinds=definite
    --track-origins=$([ "${VALGRIND_ORIGINS:-0}" = 1 ] && echo yes || echo no)
    --child-silent-after-fork=yes
    --suppressions=$root/scripts/valgrind.supp"
# busted.sh takes one word as its interpreter: this one runs lua5.4 under
# valgrind.  The module is preloaded so that lua_close's dlclose does not
# unmap it: the registry and the schemes opened live as long as the process
# (docs/API.md), and with the module's statics unmapped memcheck would call
# them definitely lost.
cat >"$dir/lua5.4-valgrind" <<WRAP
#!/bin/sh
LD_PRELOAD=$dir/lua54/idscheme.so exec $(tr '\n' ' ' <<<"$vg") lua5.4 "\$@"
WRAP
chmod +x "$dir/lua5.4-valgrind"
export IDS_RUN_LUA="$dir/lua5.4-valgrind"   # specs' subprocesses (helper.run_lua)

logs="$dir/valgrind-logs"
rm -rf "$logs" && mkdir -p "$logs"
# test_torture first: under memcheck it is the longest by far (its
# exhaustion fills whole ticks, its forks start 16 children each), and
# started last it would run alone at the end while the other core idles
{
  for t in "$dir"/test_torture "$dir"/test_* "$dir"/example_plugin; do
    [ -x "$t" ] && echo "c $(basename "$t")"
  done | awk '!seen[$0]++'
  # the specs ctest runs (spec/lua.cmake): every *_spec.lua under spec/
  # but spec/resty (LuaJIT's ffi) and spec/nginx
  find spec -name '*_spec.lua' -not -path 'spec/resty/*' \
       -not -path 'spec/nginx/*' | sort |
    while read -r s; do echo "lua $(basename "$s" .lua) $s"; done
} >"$logs/list"

# one test: its log in $logs/NAME.log, its status in $logs/NAME.rc
one() {
  local kind=$1 name=$2 file=$3 t0=$SECONDS rc
  if [ "$kind" = c ]; then
    (cd "$dir" && $vg "./$name" "$root/spec/vectors") >"$logs/$name.log" 2>&1
  else
    LUA="$dir/lua5.4-valgrind" IDS_LUA_SUBDIR=lua54 \
      spec/busted.sh "$dir" "$file" >"$logs/$name.log" 2>&1
  fi
  rc=$?
  echo "$rc $((SECONDS - t0))" >"$logs/$name.rc"
}
export -f one
export vg dir root logs
xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$0" "$1" "${2:-}"' <"$logs/list"

passed=0 failed=0
while read -r kind name _; do
  # no status file: the run never finished (killed, or xargs gave up)
  rc=unfinished secs=?
  [ -r "$logs/$name.rc" ] && read -r rc secs <"$logs/$name.rc"
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    echo "ok    $name (${secs} s)"
  else
    failed=$((failed + 1))
    echo "FAIL  $name (exit $rc, ${secs} s)"
    tail -40 "$logs/$name.log"
  fi
done <"$logs/list"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
