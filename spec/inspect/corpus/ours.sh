#!/usr/bin/env bash
# ours.sh BUILDDIR: are the IDs our library makes accepted, and read back at
# the same time, by the formats' own npm packages?  (issue 24, the other way
# round from corpus.sh)
#
# For each of our schemes whose format has a package in theirs.mjs, makes
# 200 IDs with `BUILDDIR/idscheme new SCHEME -n 200` (with -e for a
# UUID's other forms: short-uuid's, shortuuid's, the URN, ...), checks each with
# theirs.mjs (through run.sh, which installs the pinned packages), and reads
# each with `BUILDDIR/idscheme inspect -s SCHEME --json`.  An ID passes when
# theirs.mjs says ok and the time it reads is the time we give (time_ms), to
# the format's resolution (seconds for objectid and xid, ms otherwise), or
# neither gives a time.  A scheme that `idscheme new` does not know is
# reported MISSING and counts one failure; one it knows but cannot make 200
# IDs of counts one failure too.  Prints a table per scheme, the first
# failures of each, and ends with "N passed, N failed"; exits 1 when anything
# failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: ours.sh BUILDDIR" >&2; exit 2; }
idscheme="$1/idscheme"
[ -x "$idscheme" ] || { echo "ours.sh: no $idscheme (build first)" >&2; exit 2; }
N=200

# our scheme and the format theirs.mjs checks it as; SCHEME@ENCODING:FORMAT
# makes them in that encoding (a UUID's other forms: FORMAT uuidN:FORM)
PAIRS="uuidv1:uuid1 uuidv3:uuid3 uuidv4:uuid4 uuidv5:uuid5 uuidv6:uuid6 uuidv7:uuid7
uuidv8:uuid8 uuidnil:uuid_nil uuidmax:uuid_max objectid:objectid xid:xid tsid:tsid
typeid:typeid nanoid:nanoid pushid:pushid ulid:ulid ksuid:ksuid
uuidv4@flickr58:uuid4:flickr58 uuidv7@flickr58:uuid7:flickr58
uuidv4@base57:uuid4:base57 uuidv7@base57:uuid7:base57 uuidv1@urn:uuid1:urn
uuidv7@braced:uuid7:braced uuidv6@dec:uuid6:decimal uuidv7@hex:uuid7:hex"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/manifest"
: > "$tmp/theirs.in"
i=0
for pair in $PAIRS; do
  i=$((i + 1))
  scheme=${pair%%:*} format=${pair#*:} enc=
  case $scheme in *@*) enc=${scheme#*@} scheme=${scheme%@*};; esac
  f="$tmp/$i"
  if ! "$idscheme" new "$scheme" -n 1 > /dev/null 2> "$f.err" &&
     grep -q "nothing to generate" "$f.err"; then
    # a scheme with nothing to generate (the nil and max UUIDs, v3 and v5:
    # hashes of names): its IDs composed of random values of its hash
    # fields, or its one ID
    "$idscheme" list --json | node -e '
      const [name, n] = process.argv.slice(1);
      const s = JSON.parse(require("fs").readFileSync(0, "utf8")).find((x) => x.name === name);
      const hash = s.fields.filter((f) => f.kind === "hash");
      const rnd = (bits) => { let v = 0n; for (let i = 0; i < bits; i += 8) v = v << 8n | BigInt(Math.floor(Math.random() * 256)); return (v & ((1n << BigInt(bits)) - 1n)).toString(); };
      for (let i = 0; i < (hash.length ? Number(n) : 1); i++)
        console.log(hash.map((f) => `${f.name}=${rnd(f.bits)}`).join(" "));
    ' "$scheme" "$N" > "$f.fields"
    : > "$f.ids"
    while read -r fields; do
      # shellcheck disable=SC2086   # one word per field
      "$idscheme" compose "$scheme" $fields >> "$f.ids" 2>> "$f.err" || break
    done < "$f.fields"
    : > "$f.err"
    "$idscheme" inspect -s "$scheme" --json < "$f.ids" > "$f.ours" 2>> "$f.err"
    sed "s/^/$format\t/" "$f.ids" >> "$tmp/theirs.in"
    printf '%s\t%s\t%s\tmade\t%s\n' "$i" "$scheme" "$format" \
      "$(wc -l < "$f.fields")" >> "$tmp/manifest"
  elif "$idscheme" new "$scheme" -n "$N" ${enc:+-e "$enc"} > "$f.ids" 2> "$f.err"; then
    "$idscheme" inspect -s "$scheme" --json < "$f.ids" > "$f.ours" 2>> "$f.err"
    sed "s/^/$format\t/" "$f.ids" >> "$tmp/theirs.in"
    printf '%s\t%s\t%s\tmade\n' "$i" "$scheme" "$format" >> "$tmp/manifest"
  elif grep -qi "unknown scheme" "$f.err"; then
    printf '%s\t%s\t%s\tMISSING\n' "$i" "$scheme" "$format" >> "$tmp/manifest"
  else
    printf '%s\t%s\t%s\tNEW-FAILED\n' "$i" "$scheme" "$format" >> "$tmp/manifest"
  fi
done

# theirs.mjs answers one line per input; its exit status is 1 when any
# line is refused, which the lines show
if [ -s "$tmp/theirs.in" ]; then
  "$here/run.sh" node "$here/theirs.mjs" < "$tmp/theirs.in" > "$tmp/theirs.out"
  [ $? -le 1 ] || { echo "ours.sh: theirs.mjs failed" >&2; exit 1; }
else
  : > "$tmp/theirs.out"
fi

# node, not exec node: the EXIT trap removes $tmp when it is done
node - "$tmp" "$N" <<'EOF'
const fs = require("node:fs");
const path = require("node:path");
const [dir, nArg] = process.argv.slice(2);
const N = Number(nArg);
const read = (f) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), "utf8") : "");
const nonEmpty = (s) => s.split("\n").filter((l) => l !== "");

const SECONDS = new Set(["objectid", "xid"]); // formats that keep seconds
const theirs = nonEmpty(read("theirs.out")).map((l) => JSON.parse(l));
let at = 0; // where this scheme's answers begin in theirs.out
let passed = 0, failed = 0;
const table = [], notes = [];

for (const line of nonEmpty(read("manifest"))) {
  const [i, scheme, format, status, count] = line.split("\t");
  const want = count === undefined ? N : Number(count);   /* composed: its own */
  const row = { scheme, format, made: 0, theirsOk: 0, timeOk: 0, failed: 0, status };
  table.push(row);
  if (status !== "made") {
    failed++; row.failed = 1;
    const err = read(`${i}.err`).trim().split("\n")[0];
    notes.push(`${status.padEnd(8)} ${scheme}: ${err}`);
    continue;
  }
  const ids = nonEmpty(read(`${i}.ids`));
  const ours = nonEmpty(read(`${i}.ours`)).map((l) => { try { return JSON.parse(l); } catch { return { error: `not JSON: ${l}` }; } });
  row.made = ids.length;
  let shown = 0;
  const fail = (msg) => { failed++; row.failed++; if (shown++ < 5) notes.push(`FAIL     ${scheme} ${msg}`); };
  if (ids.length !== want) fail(`made ${ids.length} IDs of ${want}`);
  ids.forEach((text, i) => {
    const t = theirs[at + i] ?? {};
    const o = ours[i] ?? { error: "no answer" };
    if (t.text !== text) return fail(`${text}: theirs.mjs answered out of step (${JSON.stringify(t.text)})`);
    if (!t.ok) return fail(`${text}: the ${format} package refuses it: ${t.error}`);
    row.theirsOk++;
    if (o.input !== undefined && o.input !== text) return fail(`${text}: inspect answered out of step (${JSON.stringify(o.input)})`);
    if ("error" in o) return fail(`${text}: idscheme inspect -s ${scheme}: ${o.error}`);
    const mine = o.time_ms ?? null, theirsMs = t.time_ms ?? null;
    if (mine === null || theirsMs === null) {
      if (mine !== theirsMs) return fail(`${text}: time_ms ours ${mine}, theirs ${theirsMs}`);
    } else {
      const q = SECONDS.has(format) ? 1000 : 1;
      if (Math.floor(mine / q) !== Math.floor(theirsMs / q))
        return fail(`${text}: time_ms ours ${mine} (${o.time}), theirs ${theirsMs} (${new Date(theirsMs).toISOString()})`);
    }
    row.timeOk++;
    passed++;
  });
  at += ids.length;
}

const pad = (s, n) => String(s).padStart(n);
console.log(`${"scheme".padEnd(9)} ${"format".padEnd(9)} ${"status".padEnd(10)} ${pad("made", 5)} ${pad("theirs-ok", 9)} ${pad("time-ok", 7)} ${pad("failed", 6)}`);
for (const r of table)
  console.log(`${r.scheme.padEnd(9)} ${r.format.padEnd(9)} ${r.status.padEnd(10)} ${pad(r.made, 5)} ${pad(r.theirsOk, 9)} ${pad(r.timeOk, 7)} ${pad(r.failed, 6)}`);
if (notes.length) { console.log(""); for (const n of notes) console.log(n); }
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
EOF
