#!/usr/bin/env bash
# scripts/tsan.sh [BUILDDIR]: the C tests that share generators (or an
# inspector, which learns as it goes) between threads, in a
# ThreadSanitizer build (-DIDS_TSAN=ON), at a reduced scale.
# Any report fails the test (halt_on_error).  Ends "N passed, N failed".
#
# clang, not gcc: gcc 12's runtime (libtsan2) aborts a forked child of a
# threaded parent as soon as the child starts a thread ("dup thread with
# used id"), which test_gen_defects does on purpose; clang 14's does not.
# die_after_fork=0: those children are meant to run threads.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-tsan}
tests="test_generator test_generators2 test_gen_defects test_bulk test_torture test_slot_faults test_inspect"
mkdir -p "$dir"
if ! CC=${TSAN_CC:-clang} cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       -DIDS_TSAN=ON -DBUILD_TESTING=ON >"$dir/configure.log" 2>&1 ||
   ! cmake --build "$dir" -j"${JOBS:-2}" --target $tests >"$dir/build.log" 2>&1; then
  tail -40 "$dir/configure.log" "$dir/build.log"
  echo "0 passed, 1 failed"
  exit 1
fi
export TSAN_OPTIONS="halt_on_error=1 abort_on_error=0 die_after_fork=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export IDS_TEST_SCALE=${IDS_TEST_SCALE:-0.05}
export IDS_TORTURE_SECONDS=${IDS_TORTURE_SECONDS:-0.5}
export IDS_TEST_SLOW=${IDS_TEST_SLOW:-5}    # watchdogs: TSan is slow
out=$(cd "$dir" && ctest --output-on-failure -R "^($(tr ' ' '|' <<<"$tests"))\$" 2>&1)
rc=$?
echo "$out"
line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' <<<"$out" | tail -1)
if [ -z "$line" ]; then echo "0 passed, 1 failed"; exit 1; fi
nfail=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
# a report that did not fail its test still fails the stage
if grep -q "WARNING: ThreadSanitizer" <<<"$out"; then
  nfail=$((nfail + 1))
fi
echo "$((total - nfail)) passed, $nfail failed"
[ "$nfail" -eq 0 ] && [ $rc -eq 0 ]
