#!/usr/bin/env bash
# spec/busted.sh: run the busted specs against one build of the Lua module.
#
#   spec/busted.sh BUILDDIR [busted options] [spec files or dirs]
#
# Loads idscheme.so from BUILDDIR/lua54 (BUILDDIR/luajit when LUA is a
# LuaJIT), runs busted from the project root, and ends with a plain
# "N passed, N failed" line (errors count as failed).  Exits non-zero when
# anything failed or errored, or when no test ran.
#
# Environment: LUA (default lua5.4), BUSTED (default /usr/bin/busted),
# IDS_LUA_SUBDIR (default: lua54, or luajit when LUA names luajit),
# IDSCHEME_SLOT_DIR (default: a directory of this run's own).

set -u

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 BUILDDIR [busted options] [specs...]" >&2
  exit 2
fi

build=$(cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
lua=${LUA:-lua5.4}
busted=${BUSTED:-/usr/bin/busted}
case "$lua" in
  *luajit*) subdir=${IDS_LUA_SUBDIR:-luajit} ;;
  *) subdir=${IDS_LUA_SUBDIR:-lua54} ;;
esac

if [ ! -f "$build/$subdir/idscheme.so" ]; then
  echo "$0: no module at $build/$subdir/idscheme.so (build it first)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

# Default: every *_spec.lua under spec/.
has_spec=0
for a in "$@"; do
  case "$a" in -*) ;; *) has_spec=1 ;; esac
done
if [ $has_spec -eq 0 ]; then set -- "$@" spec; fi

log=$(mktemp "${TMPDIR:-/tmp}/idscheme-busted.XXXXXX")
# generators with no node value given claim local slots: each run its own
# slot directory, so that specs run side by side (ctest -j, valgrind) or
# another program on this machine never hold the slot a spec expects
slots=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-busted-slots.XXXXXX")
export IDSCHEME_SLOT_DIR=${IDSCHEME_SLOT_DIR:-$slots}
trap 'rm -f "$log"; rm -rf "$slots"' EXIT

cd "$root" || exit 2
"$lua" "$busted" --output=plainTerminal \
  --cpath="$build/$subdir/?.so" \
  --lpath="$root/?.lua;$root/lua/?.lua;$root/lua/?/init.lua" \
  "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

# busted's summary: "S successes / F failures / E errors / P pending : T
# seconds" (singular forms for 1); the last one counts, summed over --repeat
# runs.
read -r passed failed < <(awk '
  /^[0-9]+ success(es)? \/ [0-9]+ failures? \/ [0-9]+ errors? \/ [0-9]+ pending/ {
    p += $1; f += $4 + $7; seen = 1
  }
  END { if (seen) print p, f; else print "0 -1" }' "$log")

if [ "$failed" -lt 0 ]; then
  echo "$0: busted printed no summary (exit status $rc)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$passed passed, $failed failed"
if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
exit 0
