#!/usr/bin/env bash
# corpus.sh BUILDDIR: does `idscheme inspect` name the IDs of the corpus
# right?  (issue 24)
#
# Feeds the text of every row of corpus.tsv (one per line) to
# `BUILDDIR/idscheme inspect --json` and classifies each row by what the
# command answers:
#   RIGHT            its best scheme is the row's (flagged ambiguous or not),
#                    and where the row has a time, the command's time_ms is
#                    the row's (a RIGHT scheme at another time is WRONG)
#   AMBIGUOUS-RIGHT  its best is another scheme, but flagged ambiguous, and
#                    the row's scheme is among its candidates marked ambiguous
#   WRONG            its best is another scheme, not flagged ambiguous, or the
#                    row's scheme is not among its ambiguous candidates
#   ERROR            an error object (no scheme reads it plausibly)
# A row whose expect column says "refused" (a documented example from
# outside its format's life) is RIGHT when it is an error, else WRONG.
# Prints a table per format and the totals, lists every WRONG and ERROR row
# (text, expected, got), says whether the issue's goal (98% RIGHT) is met,
# and ends with "N passed, N failed": a row passes when RIGHT or
# AMBIGUOUS-RIGHT and fails when WRONG (a confident wrong answer) or ERROR
# (no scheme reads it).  Exits 1 when anything failed.
#
# Needs node (no npm packages: only the corpus is read); the corpus itself is
# made by make.mjs (see README.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: corpus.sh BUILDDIR" >&2; exit 2; }
idscheme="$1/idscheme"
[ -x "$idscheme" ] || { echo "corpus.sh: no $idscheme (build first)" >&2; exit 2; }
command -v node >/dev/null 2>&1 || { echo "corpus.sh: node is not installed; the corpus test needs it" >&2; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
tail -n +2 "$here/corpus.tsv" | cut -f1 > "$tmp/texts"
"$idscheme" inspect --json < "$tmp/texts" > "$tmp/out" 2> "$tmp/err"
status=$?
# exit 1 is what the command gives when some line is an error; anything
# else is a failure of the command itself, which the rows then show
if [ "$status" -gt 1 ]; then
  echo "corpus.sh: idscheme inspect exited $status:" >&2
  head -20 "$tmp/err" >&2
fi

exec node - "$here/corpus.tsv" "$tmp/out" <<'EOF'
const fs = require("node:fs");
const [tsvPath, outPath] = process.argv.slice(2);

// the corpus's format labels and our scheme names
const SCHEME = {
  uuid1: "uuidv1", uuid3: "uuidv3", uuid4: "uuidv4", uuid5: "uuidv5", uuid6: "uuidv6",
  uuid7: "uuidv7", uuid8: "uuidv8", uuid_nil: "uuidnil", uuid_max: "uuidmax",
  objectid: "objectid", xid: "xid", tsid: "tsid", typeid: "typeid", nanoid: "nanoid",
  pushid: "pushid", mastodon: "mastodon", discord: "snowflake", twitter: "twitter",
  ulid: "ulid", ksuid: "ksuid", timeflake: "timeflake",
};

const lines = fs.readFileSync(tsvPath, "utf8").trimEnd().split("\n");
const header = lines.shift().split("\t");
const rows = lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [header[i], v])));
const outLines = fs.readFileSync(outPath, "utf8").split("\n").filter((l) => l !== "");

const KINDS = ["RIGHT", "AMBIGUOUS-RIGHT", "WRONG", "ERROR"];
const per = {};
const bad = [];
let unknownLabel = false;

rows.forEach((r, i) => {
  const want = SCHEME[r.format];
  if (!want) { unknownLabel = true; console.error(`corpus.sh: format ${r.format} has no scheme in the table`); }
  let o = null, kind, got;
  try { o = outLines[i] === undefined ? null : JSON.parse(outLines[i]); } catch (e) { o = null; }
  if (o === null) { kind = "ERROR"; got = `no answer (line ${i + 1} of the output: ${JSON.stringify(outLines[i] ?? null)})`; }
  else if (o.input !== r.text) { kind = "ERROR"; got = `answer out of step: ${JSON.stringify(o.input)}`; }
  else if (r.expect === "refused") {
    // a documented example from outside its format's life: right when no
    // scheme reads it plausibly (an error), wrong when one is named
    kind = "error" in o ? "RIGHT" : "WRONG";
    got = "error" in o ? `error: ${o.error}` : `${o.scheme}${o.plausible ? "" : " (not plausible)"}, not refused`;
  }
  else if ("error" in o) { kind = "ERROR"; got = `error: ${o.error}`; }
  else {
    const cands = (o.candidates ?? []).filter((c) => c.ambiguous).map((c) => c.scheme);
    got = `${o.scheme}${o.ambiguous ? " (ambiguous" + (cands.length ? ": " + cands.join(", ") : "") + ")" : ""}` +
          `${o.plausible ? "" : " (not plausible)"}`;
    if (o.scheme === want) {
      kind = "RIGHT";
      if (r.time_ms !== "-" && String(o.time_ms) !== r.time_ms) {
        kind = "WRONG";
        got += ` at time_ms ${o.time_ms ?? "none"} (${o.time ?? "-"}), not ${r.time_ms} (${new Date(Number(r.time_ms)).toISOString()})`;
      }
    } else if (o.ambiguous === true && cands.includes(want)) kind = "AMBIGUOUS-RIGHT";
    else kind = "WRONG";
  }
  const p = (per[r.format] ??= { rows: 0, "RIGHT": 0, "AMBIGUOUS-RIGHT": 0, "WRONG": 0, "ERROR": 0 });
  p.rows++; p[kind]++;
  if (kind === "WRONG" || kind === "ERROR") bad.push({ kind, text: r.text, format: r.format, want, got });
});
if (outLines.length > rows.length)
  bad.push({ kind: "ERROR", text: "-", format: "-", want: "-", got: `${outLines.length - rows.length} answers more than rows` });

// the table
const order = [...Object.keys(SCHEME).filter((f) => per[f]), ...Object.keys(per).filter((f) => !(f in SCHEME))];
const total = { rows: 0, "RIGHT": 0, "AMBIGUOUS-RIGHT": 0, "WRONG": 0, "ERROR": 0 };
const pad = (s, n) => String(s).padStart(n);
console.log(`${"format".padEnd(9)} ${"scheme".padEnd(9)} ${pad("rows", 5)} ${pad("right", 6)} ${pad("ambiguous-right", 15)} ${pad("wrong", 6)} ${pad("error", 6)}`);
for (const f of order) {
  const p = per[f];
  for (const k of ["rows", ...KINDS]) total[k] += p[k];
  console.log(`${f.padEnd(9)} ${(SCHEME[f] ?? "?").padEnd(9)} ${pad(p.rows, 5)} ${pad(p.RIGHT, 6)} ${pad(p["AMBIGUOUS-RIGHT"], 15)} ${pad(p.WRONG, 6)} ${pad(p.ERROR, 6)}`);
}
console.log(`${"total".padEnd(9)} ${"".padEnd(9)} ${pad(total.rows, 5)} ${pad(total.RIGHT, 6)} ${pad(total["AMBIGUOUS-RIGHT"], 15)} ${pad(total.WRONG, 6)} ${pad(total.ERROR, 6)}`);
const share = total.rows ? (100 * total.RIGHT) / total.rows : 0;
console.log(`right: ${total.RIGHT} of ${total.rows} (${share.toFixed(1)}%; at least 98% needed)`);

if (bad.length) {
  console.log("");
  for (const b of bad) console.log(`${b.kind.padEnd(5)} ${b.text}\texpected ${b.want} (${b.format})\tgot ${b.got}`);
}

// What fails: a row named confidently as another format (WRONG), a row no
// scheme reads (ERROR), an answer out of step.  The issue's 98% goal is
// reported beside the share: a bare decimal snowflake or TSID is flagged
// ambiguous, as it must be, and counts against it.
const enough = total.rows > 0 && total.RIGHT * 100 >= total.rows * 98;
console.log(`goal: at least 98% named right: ${enough ? "met" : "not met"}; ${total.ERROR} rows read by no scheme`);
const passed = total.RIGHT + total["AMBIGUOUS-RIGHT"];
const failed = total.WRONG + total.ERROR + (outLines.length > rows.length ? 1 : 0) + (unknownLabel ? 1 : 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
EOF
