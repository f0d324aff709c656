#!/usr/bin/env bash
# bench/compare.sh [-r ROUNDS] [-b BENCH] [-w WORD] REV_A REV_B: one C
# benchmark of two commits, side by side in one run.  Each commit is built
# in a worktree of its own (under $TMPDIR) with the same flags, including
# code alignment (functions and loops on 64-byte lines), so that where a
# hot loop happens to fall in the binary does not pass for a change of the
# code; then the two programs take turns, ROUNDS times (default 5), and
# every line is printed with its commit's name.  Compare medians, round by
# round: a drift of the machine falls on both.
#   bench/compare.sh 810d4fb HEAD                     bench_schemes, all
#   bench/compare.sh -w uuidv7 -r 7 810d4fb HEAD      its uuidv7 cases
#   bench/compare.sh -b bench_fluid -w next main HEAD
set -euo pipefail
rounds=5 bench=bench_schemes word=""
while getopts "r:b:w:" o; do
  case $o in
    r) rounds=$OPTARG ;;
    b) bench=$OPTARG ;;
    w) word=$OPTARG ;;
    *) echo "usage: $0 [-r ROUNDS] [-b BENCH] [-w WORD] REV_A REV_B" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# = 2 ] || { echo "usage: $0 [-r ROUNDS] [-b BENCH] [-w WORD] REV_A REV_B" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-compare.XXXXXX")
cleanup () {
  for w in "$tmp"/src-*; do
    [ -d "$w" ] && git -C "$root" worktree remove --force "$w" >/dev/null 2>&1
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
flags="-falign-functions=64 -falign-loops=64"

build () {   # build NAME REV
  local src="$tmp/src-$1" out="$tmp/build-$1"
  git -C "$root" worktree add --detach "$src" "$2" >/dev/null 2>&1
  cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=Release -DIDS_BENCH=ON \
    -DBUILD_TESTING=OFF -DCMAKE_C_FLAGS="$flags" >"$out.log" 2>&1
  cmake --build "$out" -j"$(nproc)" --target "$bench" >>"$out.log" 2>&1 ||
    { tail -20 "$out.log"; echo "$0: $2 does not build $bench" >&2; exit 1; }
  echo "$out/bench/$bench"
}
a=$(build a "$1")
b=$(build b "$2")
echo "# $bench${word:+ ($word)}: A = $1 ($(git -C "$root" rev-parse --short "$1")), B = $2 ($(git -C "$root" rev-parse --short "$2")), $rounds rounds, CFLAGS $flags"
for r in $(seq "$rounds"); do
  "$a" $word | sed "s/^/A$r  /"
  "$b" $word | sed "s/^/B$r  /"
done
