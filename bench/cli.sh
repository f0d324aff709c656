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
#   inspect < 1 million lines of a hard mix   target <= 1.5 s (issue 37):
#     a third IDs of every scheme, and TypeIDs with prefixes, UUIDs in
#     their other forms, texts that are no ID (words, hashes, addresses,
#     Unix times: refused) and IDs of formats the catalogue lacks (cuid,
#     cuid2, Stripe's, shortid: refused or flagged), a sixth each
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
# the hard mix (issue 37): the texts besides the IDs drawn from a seeded
# generator, the same on every run
h=$((1000000 / 6))
{
  head -$((2 * h)) "$tmp/mixed"
  "$ids" new typeid -n $((h / 2)) | sed 's/^/user_/'
  "$ids" new typeid -n $((h / 2)) | sed 's/^/account_session_/'
  "$ids" new uuidv4 -n $((h / 4)) -e urn
  "$ids" new uuidv7 -n $((h / 4)) -e braced
  "$ids" new uuidv4 -n $((h / 4)) -e base57
  "$ids" new uuidv4 -n $((h / 4)) -e dec
  node -e '
    let a = 37;
    const r = () => { a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
    const pick = (s, n) => { let o = ""; for (let i = 0; i < n; i++) o += s[Math.floor(r() * s.length)]; return o; };
    const L = "abcdefghijklmnopqrstuvwxyz", D = "0123456789", H = D + "abcdef",
          B36 = D + L, B62 = D + L.toUpperCase() + L;
    const h = Number(process.argv[1]), out = [];
    for (let i = 0; i < h; i++) {
      switch (i % 6) {                   // no ID: refused
        case 0: out.push(pick(L, 6 + Math.floor(r() * 7))); break;
        case 1: out.push(pick(H, [32, 40, 64][i % 3])); break;
        case 2: out.push([0, 0, 0, 0].map(() => Math.floor(r() * 256)).join(".")); break;
        case 3: out.push(String(1500000000000 + Math.floor(r() * 2e11))); break;
        case 4: out.push(pick(L, 1) + pick(L, 8) + "@example.com"); break;
        case 5: out.push("978" + pick(D, 10)); break;
      }
      switch (i % 4) {                   // not in the catalogue
        case 0: out.push("c" + pick(B36, 24)); break;
        case 1: out.push(pick(L, 1) + pick(B36, 23)); break;
        case 2: out.push(["cus_", "pi_", "sub_", "evt_"][i % 4] + pick(B62, 14 + Math.floor(r() * 11))); break;
        case 3: out.push(pick(B62 + "-_", 7 + Math.floor(r() * 8))); break;
      }
    }
    console.log(out.join("\n"));' $h
} | head -1000000 | shuf --random-source=<(yes) > "$tmp/hard"
"$ids" new fluid -n 1000000 > "$tmp/fluid"

# one CASE: LABEL then the command (a bash string, output to /dev/null)
bench () {
  local label=$1 cmd=$2 i
  : > "$tmp/times"
  for ((i = 0; i < runs; i++)); do
    # wall, user and system seconds
    # (inspect exits 1 when a line is refused: the hard mix has many)
    { TIMEFORMAT='%R %U %S'; time bash -c "{ $cmd; } 2> /dev/null || [ \$? = 1 ]" > /dev/null; } 2>> "$tmp/times"
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
bench "inspect < 1M lines, the hard mix" "'$ids' inspect < '$tmp/hard' 2> /dev/null"
bench "inspect -s fluid < 1M FLUIDs" "'$ids' inspect -s fluid < '$tmp/fluid'"
bench "inspect < 1M ULIDs" "'$ids' inspect < '$tmp/ulid'"
bench "decode ulid < 1M ULIDs" "xargs -n 20000 '$ids' decode ulid < '$tmp/ulid'"
bench "convert --to words < 1M FLUIDs" "'$ids' convert -s fluid --to words < '$tmp/fluid'"
