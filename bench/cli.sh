#!/usr/bin/env bash
# cli.sh BUILDDIR [RUNS]: the idscheme command against issue 13's targets.
# Each case runs RUNS times (default 5); the line gives the best and the
# median wall time, and the median CPU time (user + sys) -- a wall time
# far above the CPU time means other load took the core (see README.md).
#
#   new flax -n 10000000 > /dev/null          target <= 1.0 s
#   new kuid64 -n 10000000 > /dev/null        target <= 1.0 s
#   new fluid -n 1000000 > /dev/null          RFC 19's cap: 0.977 s (+- 2%)
#   inspect < 1 million mixed IDs             target <= 1.5 s (issue 24)
#   inspect < 1 million ULIDs, beside decode ulid of the same
#   inspect -s fluid < 1 million FLUIDs       target <= 0.5 s
#
# The inputs are made by the command itself: a million IDs, as many of
# each scheme that generates (the whole catalogue), shuffled.
set -eu
build=$(cd "${1:?usage: cli.sh BUILDDIR [RUNS]}" && pwd)
runs=${2:-5}
ids="$build/idscheme"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-bench-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

schemes=$("$ids" list --json | node -e '
  const l = JSON.parse(require("fs").readFileSync(0, "utf8"));
  for (const s of l)
    if (s.fields.some((f) => !["constant", "hash"].includes(f.kind)))
      console.log(s.name);')
set -- $schemes
n=$((1000000 / $# + 1))
for s in $schemes; do
  "$ids" new "$s" -n "$n"
done | head -1000000 | shuf --random-source=<(yes) > "$tmp/mixed"
"$ids" new ulid -n 1000000 > "$tmp/ulid"
"$ids" new fluid -n 1000000 > "$tmp/fluid"

# one CASE: LABEL then the command (a bash string, output to /dev/null)
bench () {
  local label=$1 cmd=$2 i
  : > "$tmp/times"
  for ((i = 0; i < runs; i++)); do
    # wall, user and system seconds
    { TIMEFORMAT='%R %U %S'; time bash -c "$cmd" > /dev/null; } 2>> "$tmp/times"
  done
  local m=$(((runs + 1) / 2)) best med cpu
  best=$(sort -n "$tmp/times" | awk 'NR == 1 { print $1 }')
  med=$(sort -n "$tmp/times" | awk -v m=$m 'NR == m { print $1 }')
  cpu=$(awk '{ print $2 + $3 }' "$tmp/times" | sort -n | awk -v m=$m 'NR == m')
  printf "%-36s best %.3f s  median %.3f s  (cpu median %.3f s)\n" \
         "$label" "$best" "$med" "$cpu"
}

echo "idscheme $("$ids" --version | cut -d' ' -f2), $runs runs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
bench "new flax -n 10000000" "'$ids' new flax -n 10000000"
bench "new kuid64 -n 10000000" "'$ids' new kuid64 -n 10000000"
bench "new fluid -n 1000000" "'$ids' new fluid -n 1000000"
bench "inspect < 1M mixed IDs ($# schemes)" "'$ids' inspect < '$tmp/mixed'"
bench "inspect --json < 1M mixed IDs" "'$ids' inspect --json < '$tmp/mixed'"
bench "inspect -s fluid < 1M FLUIDs" "'$ids' inspect -s fluid < '$tmp/fluid'"
bench "inspect < 1M ULIDs" "'$ids' inspect < '$tmp/ulid'"
bench "decode ulid < 1M ULIDs" "xargs -n 20000 '$ids' decode ulid < '$tmp/ulid'"
bench "convert --to words < 1M FLUIDs" "'$ids' convert -s fluid --to words < '$tmp/fluid'"
