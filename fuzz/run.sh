#!/usr/bin/env bash
# run.sh [SECONDS] [BUILD_DIR]: build the libFuzzer harnesses with clang and
# run each for SECONDS (default $FUZZ_SECONDS, else 30) on a copy of its seed
# corpus plus fuzz/regressions/.  BUILD_DIR defaults to build-fuzz in the
# repository; corpora, logs and crash files stay under BUILD_DIR/fuzz.
# Exits non-zero if a build fails or any fuzzer finds a crash.  To fuzz past
# a known bug, see IDS_FUZZ_SKIP in fuzz_decode.c; FUZZ_MAX_LEN (256).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
secs=${1:-${FUZZ_SECONDS:-30}}
build=${2:-$root/build-fuzz}
maxlen=${FUZZ_MAX_LEN:-256}

case $secs in ''|*[!0-9]*) echo "run.sh: bad seconds '$secs'" >&2; exit 2;; esac

echo "== building fuzzers in $build"
mkdir -p "$build" || exit 1
if ! CC=clang cmake -S "$root" -B "$build" -DIDS_FUZZ=ON \
     >"$build/cmake.log" 2>&1; then
  cat "$build/cmake.log" >&2
  echo "run.sh: cmake configure failed"; echo "0 passed, 1 failed"; exit 1
fi
if ! cmake --build "$build" --target fuzzers -j "$(nproc 2>/dev/null || echo 2)" \
     >"$build/fuzz-build.log" 2>&1; then
  cat "$build/fuzz-build.log" >&2
  echo "run.sh: build failed"; echo "0 passed, 1 failed"; exit 1
fi

pass=0 fail=0
for src in "$here"/fuzz_*.c; do
  name=$(basename "$src" .c)
  bin=$build/fuzz/$name
  work=$build/fuzz/corpus/$name
  art=$build/fuzz/artifacts/$name
  log=$build/fuzz/$name.log
  rm -rf "$work" "$art"
  mkdir -p "$work" "$art"
  [ -d "$here/corpus/$name" ] && cp -R "$here/corpus/$name/." "$work/"
  dirs=("$work")
  [ -d "$here/regressions" ] && dirs+=("$here/regressions")
  echo "== $name: ${secs}s, log $log"
  "$bin" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$art/" "${dirs[@]}" >"$log" 2>&1
  rc=$?
  # the last status line: "#N DONE cov: C ft: F corp: K/B ... exec/s: E"
  st=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(echo "$st" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$st" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  corp=$(echo "$st" | sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p')
  info="runs ${runs:-?}, ${eps:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}"
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1))
    echo "PASS $name ($info)"
  else
    fail=$((fail + 1))
    crash=$(ls "$art" 2>/dev/null | head -n 1)
    echo "FAIL $name (exit $rc, $info) reproducer: ${crash:+$art/$crash}"
    grep -E 'ERROR: |runtime error|invariant broken|SUMMARY' "$log" | head -n 5
  fi
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
