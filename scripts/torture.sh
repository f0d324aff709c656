#!/usr/bin/env bash
# scripts/torture.sh [BUILDDIR]: spec/c/test_torture.c at a longer scale
# than its ctest run (IDS_TORTURE_SECONDS=1): TORTURE_SECONDS (default 3)
# of 2 threads per scheme, TORTURE_ROUNDS (default 1) times.  Builds the
# test in BUILDDIR (a plain build) if needed.  Ends with the test's "N
# passed, N failed" after its count of IDs checked.
#
# The long run of docs/RELIABILITY.md:
#   TORTURE_SECONDS=5 nice -n 10 scripts/torture.sh build-test | tee torture.log
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-test}
mkdir -p "$dir"
if ! { [ -f "$dir/CMakeCache.txt" ] ||
       cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
             -DBUILD_TESTING=ON >"$dir/configure.log" 2>&1; } ||
   ! cmake --build "$dir" -j"${JOBS:-2}" --target test_torture \
       >"$dir/torture-build.log" 2>&1; then
  tail -40 "$dir/configure.log" "$dir/torture-build.log" 2>/dev/null
  echo "0 passed, 1 failed"
  exit 1
fi
IDS_TORTURE_SECONDS=${TORTURE_SECONDS:-3} \
IDS_TORTURE_ROUNDS=${TORTURE_ROUNDS:-1} "$dir/test_torture"
