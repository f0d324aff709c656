#!/usr/bin/env bash
# run.sh [SECONDS | -runs=N | -seed] [BUILD_DIR]: build the libFuzzer
# harnesses with clang and run each one (BUILD_DIR/fuzz/harnesses.txt,
# written by fuzz.cmake) on a copy of its seed corpus plus fuzz/regressions/,
# then the Lua harness (fuzz/lua_fuzz.lua) against the ASan + UBSan build of
# the module under lua5.4 and luajit.
#   SECONDS   each harness for that long (default $FUZZ_SECONDS, else 30);
#             scripts/test passes 14: with two at a time the whole stage,
#             build included, takes some 5 minutes on 2 cores
#   -runs=N   each C harness for N executions (the long run; the Lua
#             harness for $FUZZ_LUA_SECONDS, default 60), with the time it
#             took and its executions a second
#   -seed     fuzz/corpus/<harness>/ again from spec/vectors (fuzz/seed.py,
#             then libFuzzer -merge=1 keeps the inputs that add coverage)
# BUILD_DIR defaults to build-fuzz in the repository; corpora, logs and
# crash files stay under BUILD_DIR/fuzz.  FUZZ_JOBS harnesses run at once
# (2); FUZZ_ONLY, a regular expression, picks harnesses by name;
# FUZZ_MAX_LEN (256).  The ASan module is built in $IDS_ASAN_BUILD if set,
# else BUILD_DIR/asan.  Ends with "N passed, N failed"; exits non-zero if a
# build fails or any harness finds anything.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
arg=${1:-${FUZZ_SECONDS:-30}}
build=${2:-$root/build-fuzz}
maxlen=${FUZZ_MAX_LEN:-256}
jobs=${FUZZ_JOBS:-2}
only=${FUZZ_ONLY:-.}
mode=time secs=$arg runs=
case $arg in
  -seed) mode=seed secs=0;;
  -runs=*) mode=runs runs=${arg#-runs=}; secs=${FUZZ_LUA_SECONDS:-60};;
esac
case $secs$runs in ''|*[!0-9]*) echo "run.sh: bad argument '$arg'" >&2; exit 2;; esac

echo "== building fuzzers in $build"
mkdir -p "$build" || exit 1
start=$(date +%s)
if ! CC=clang cmake -S "$root" -B "$build" -DIDS_FUZZ=ON \
     >"$build/cmake.log" 2>&1; then
  cat "$build/cmake.log" >&2
  echo "run.sh: cmake configure failed"; echo "0 passed, 1 failed"; exit 1
fi
if ! cmake --build "$build" --target fuzzers -j 2 \
     >"$build/fuzz-build.log" 2>&1; then
  cat "$build/fuzz-build.log" >&2
  echo "run.sh: build failed"; echo "0 passed, 1 failed"; exit 1
fi
harnesses=$(grep -E -- "$only" "$build/fuzz/harnesses.txt")

if [ $mode = seed ]; then
  raw=$build/fuzz/seeds
  rm -rf "$raw"
  python3 "$here/seed.py" "$build" "$raw" || exit 1
  for name in $harnesses; do
    [ -d "$raw/$name" ] || continue
    rm -rf "$here/corpus/$name"
    mkdir -p "$here/corpus/$name"
    "$build/fuzz/$name" -merge=1 -max_len="$maxlen" "$here/corpus/$name" \
      "$raw/$name" >"$build/fuzz/$name.merge.log" 2>&1 || {
      tail -n 5 "$build/fuzz/$name.merge.log"; exit 1; }
    echo "$name: $(ls "$here/corpus/$name" | wc -l) seeds"
  done
  exit 0
fi

# one NAME: runs it, and leaves its verdict line in BUILD_DIR/fuzz/NAME.res
one() {
  local name=$1 bin=$build/fuzz/$1 work=$build/fuzz/corpus/$1
  local art=$build/fuzz/artifacts/$1 log=$build/fuzz/$1.log t0 t1 rc
  rm -rf "$work" "$art"
  mkdir -p "$work" "$art"
  [ -d "$here/corpus/$name" ] && cp -R "$here/corpus/$name/." "$work/"
  local limit=(-max_total_time="$secs")
  [ $mode = runs ] && limit=(-runs="$runs")
  # fuzz_define keeps every scheme it defines (some 50 MB a second at
  # full speed; the registry never frees one), so that libFuzzer's
  # -rss_limit_mb (2 GB) would end a long run: at most 30 s
  if [ "$name" = fuzz_define ] && { [ $mode = runs ] || [ "$secs" -gt 30 ]; }
  then limit=(-max_total_time=30); fi
  t0=$(date +%s.%N)
  "$bin" "${limit[@]}" -max_len="$maxlen" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$art/" "$work" "$here/regressions" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  # the last status line: "#N DONE cov: C ft: F corp: K/B ... exec/s: E"
  local st n eps cov ft corp took info crash
  st=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  took=$(echo "$t0 $t1" | awk '{printf "%.0f", $2 - $1}')
  eps=$(echo "${n:-0} $t0 $t1" | awk '{printf "%.0f", $1 / ($3 - $2)}')
  cov=$(echo "$st" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$st" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  corp=$(echo "$st" | sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p')
  info="runs ${n:-?} in ${took}s, $eps exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}"
  if [ $rc -eq 0 ]; then
    echo "PASS $name ($info)" >"$build/fuzz/$name.res"
  else
    crash=$(ls "$art" 2>/dev/null | head -n 1)
    { echo "FAIL $name (exit $rc, $info) reproducer: ${crash:+$art/$crash}"
      grep -E 'ERROR: |runtime error|invariant broken|SUMMARY' "$log" |
        head -n 5; } >"$build/fuzz/$name.res"
  fi
}

# lua NAME INTERPRETER: the Lua harness under the ASan build of the module
lua_one() {
  local name=$1 lua=$2 log=$build/fuzz/$1.log asan=${IDS_ASAN_BUILD:-$build/asan}
  local lib so=$asan/lua54/idscheme.so
  [ "$lua" = luajit ] && so=$asan/luajit/idscheme.so
  if ! command -v "$lua" >/dev/null; then
    echo "FAIL $name ($lua not found)" >"$build/fuzz/$name.res"; return
  fi
  lib=$(cc -print-file-name=libasan.so)
  mkdir -p "$build/fuzz/slots"           # local slots of its generators
  IDSCHEME_SLOT_DIR=$build/fuzz/slots LD_PRELOAD=$lib ASAN_OPTIONS=detect_leaks=0 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$lua" "$here/lua_fuzz.lua" "$secs" "$(dirname "$so")" "$root/lua" \
    >"$log" 2>&1
  local rc=$? line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ $rc -eq 0 ] && [ -n "$line" ] && [ "$(cut -d' ' -f3 <<<"$line")" = 0 ]
  then echo "PASS $name ($(tail -n 2 "$log" | head -n 1); $line)"
  else echo "FAIL $name (exit $rc${line:+, $line}), log $log"
       grep -E 'ERROR: |runtime error|FAIL|error' "$log" | head -n 5
  fi >"$build/fuzz/$name.res"
}

# The ASan module for the Lua harness builds while the first harnesses run.
luas=""
if echo lua_fuzz_lua54 lua_fuzz_luajit | grep -qE -- "$only"; then
  asan=${IDS_ASAN_BUILD:-$build/asan}
  ( cmake -S "$root" -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DIDS_SANITIZE=ON \
      -DBUILD_TESTING=ON \
      >"$build/asan-configure.log" 2>&1 &&
    nice cmake --build "$asan" -j 1 --target idscheme_lua54 idscheme_luajit \
      >"$build/asan-build.log" 2>&1
    echo $? >"$build/asan.rc" ) &
  asanjob=$!
  luas="lua_fuzz_lua54 lua_fuzz_luajit"
fi

# Waits while FUZZ_JOBS harnesses run (the ASan build is not counted).
throttle() {
  while [ "$(jobs -rp | grep -cvx "${asanjob:-none}")" -ge "$jobs" ]; do
    wait -n
  done
}

rm -f "$build"/fuzz/*.res
for name in $harnesses; do
  throttle
  echo "== $name: $([ $mode = runs ] && echo "$runs runs" || echo "${secs}s"), log $build/fuzz/$name.log"
  one "$name" &
done
if [ -n "$luas" ]; then
  wait "$asanjob" 2>/dev/null
  if [ "$(cat "$build/asan.rc")" != 0 ]; then
    tail -n 30 "$build/asan-build.log" >&2
    for name in $luas; do
      echo "FAIL $name (the ASan build failed)" >"$build/fuzz/$name.res"
    done
  else
    throttle
    echo "== lua_fuzz_lua54: ${secs}s, log $build/fuzz/lua_fuzz_lua54.log"
    lua_one lua_fuzz_lua54 lua5.4 &
    throttle
    echo "== lua_fuzz_luajit: ${secs}s, log $build/fuzz/lua_fuzz_luajit.log"
    lua_one lua_fuzz_luajit luajit &
  fi
fi
wait

pass=0 fail=0
for name in $harnesses $luas; do
  cat "$build/fuzz/$name.res"
  if grep -q '^PASS' "$build/fuzz/$name.res"; then pass=$((pass + 1))
  else fail=$((fail + 1)); fi
done
echo "fuzz stage: $(( $(date +%s) - start ))s"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
