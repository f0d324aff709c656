#!/usr/bin/env bash
# corpus.sh BUILDDIR: does `idscheme inspect` name the texts of the corpus
# right, and refuse what is no ID?  (issues 24 and 37)
#
# Feeds the text of every row of corpus.tsv (one per line) to
# `BUILDDIR/idscheme inspect --json` and judges each row by its expect
# column (make.mjs works it out from the formats' own layouts in
# decode.mjs, not from idscheme):
#   named        its format alone reads it as any character can tell:
#                right when the best reading is its format at its time
#                (flagged weak or not)
#   ambiguous    another format reads it as well and no character tells
#                them apart: right when the answer is flagged ambiguous
#                with its format among the readings so flagged
#   implausible  a time far from its format's life, or a test vector of a
#                tiny value: right unless read confidently as another
#   foreign      a format the catalogue lacks (cuid, cuid2, shortid,
#                Stripe's): right when refused or only flagged
#   none         no ID at all: refused, or (at most 5 in 100) flagged
# A confident reading (neither weak nor ambiguous) of another format is
# wrong whatever the row.  Then 10,000 random lowercase words of 6 to 12
# letters (a fixed seed): at most 1 in 100 read without a flag.
# Prints the rows per format and class, each count apart, issue 37's
# goals, every row that fails (text, expected, got), and "N passed, N
# failed"; exits 1 when anything failed.
#
# Needs node (no npm packages: only the corpus is read).
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
# the random words: a seeded generator (mulberry32), the same every run
node -e '
  let a = 37;
  const r = () => { a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  for (let i = 0; i < 10000; i++) {
    const n = 6 + Math.floor(r() * 7);
    let w = ""; for (let j = 0; j < n; j++) w += String.fromCharCode(97 + Math.floor(r() * 26));
    console.log(w);
  }' > "$tmp/words"
"$idscheme" inspect --json < "$tmp/words" > "$tmp/words.out" 2> /dev/null

# node, not exec node: the EXIT trap removes $tmp when it is done
node - "$here/corpus.tsv" "$tmp/out" "$tmp/words.out" <<'EOF'
const fs = require("node:fs");
const [tsvPath, outPath, wordsPath] = process.argv.slice(2);

// the corpus's format labels and our scheme names (null: not in the
// catalogue, or no ID)
const SCHEME = {
  uuid1: "uuidv1", uuid3: "uuidv3", uuid4: "uuidv4", uuid5: "uuidv5", uuid6: "uuidv6",
  uuid7: "uuidv7", uuid8: "uuidv8", uuid_nil: "uuidnil", uuid_max: "uuidmax",
  objectid: "objectid", xid: "xid", tsid: "tsid", typeid: "typeid", nanoid: "nanoid",
  pushid: "pushid", mastodon: "mastodon", discord: "snowflake", twitter: "twitter",
  ulid: "ulid", ksuid: "ksuid", timeflake: "timeflake",
  cuid: null, cuid2: null, shortid: null, stripe: null, none: null,
};

const lines = fs.readFileSync(tsvPath, "utf8").trimEnd().split("\n");
const header = lines.shift().split("\t");
const rows = lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [header[i], v])));
const outLines = fs.readFileSync(outPath, "utf8").split("\n").filter((l) => l !== "");
const parse = (l) => { try { return l === undefined ? null : JSON.parse(l); } catch (e) { return null; } };

// an answer is refused (an error), or a reading sure or flagged
const flags = (o) => (o.ambiguous ? "ambiguous" : o.weak ? "weak" : "sure");
const KINDS = ["named", "ambiguous", "implausible", "foreign", "none"];
const per = {}, bad = [], count = {};
const fresh = () => ({ rows: 0, right: 0, flagged: 0, refused: 0, wrong: 0 });
for (const k of KINDS) count[k] = fresh();
let unknownLabel = false;

rows.forEach((r, i) => {
  const want = SCHEME[r.format];
  if (want === undefined) { unknownLabel = true; console.error(`corpus.sh: format ${r.format} has no scheme in the table`); }
  const c = count[r.expect] ?? (count[r.expect] = fresh());
  const o = parse(outLines[i]);
  let verdict, got, fails = false;
  c.rows++;
  if (o === null || o.input !== r.text) {
    verdict = "ERROR"; fails = true; got = `no answer in step (line ${i + 1}: ${JSON.stringify(outLines[i] ?? null)})`;
  } else if ("error" in o) {
    verdict = "REFUSED"; got = `refused: ${o.error}`; c.refused++;
    fails = r.expect === "named" || r.expect === "ambiguous";
  } else {
    const amb = [o.scheme, ...(o.candidates ?? []).filter((x) => x.ambiguous).map((x) => x.scheme)];
    const f = flags(o);
    const timeOk = r.time_ms === "-" || String(o.time_ms) === r.time_ms;
    got = `${o.scheme} (${o.encoding}, ${f}${o.ambiguous ? ": " + amb.join(", ") : ""})` +
          (o.scheme === want && !timeOk ? ` at ${o.time_ms}, not ${r.time_ms}` : "");
    const right = o.scheme === want && timeOk;
    if (f !== "sure") c.flagged++;
    if (f === "sure" && !right) { verdict = "WRONG"; c.wrong++; fails = true; }
    else if (r.expect === "named") { verdict = right ? "right" : "NOT FIRST"; fails = !right; if (right) c.right++; }
    else if (r.expect === "ambiguous") {
      const ok = o.ambiguous && amb.includes(want) && (o.scheme !== want || timeOk);
      verdict = ok ? "right" : "NOT FLAGGED AMONG"; fails = !ok; if (ok) c.right++;
    }
    else { verdict = right ? "right" : f; if (right) c.right++; }
  }
  if (fails) bad.push({ kind: verdict, text: r.text, format: r.format, expect: r.expect, got });
  const p = (per[r.format] ??= {});
  p[r.expect] ??= { rows: 0, ok: 0 };
  p[r.expect].rows++;
  if (!fails) p[r.expect].ok++;
});
if (outLines.length > rows.length)
  bad.push({ kind: "ERROR", text: "-", format: "-", expect: "-", got: `${outLines.length - rows.length} answers more than rows` });

// rows per format and class: passed/rows
const pad = (s, n) => String(s).padStart(n);
console.log(`${"format".padEnd(10)} ${KINDS.map((k) => k.padStart(11)).join(" ")}`);
for (const f of Object.keys(per).sort())
  console.log(`${f.padEnd(10)} ${KINDS.map((k) => pad(per[f][k] ? `${per[f][k].ok}/${per[f][k].rows}` : "", 11)).join(" ")}`);

// the random words
const words = fs.readFileSync(wordsPath, "utf8").split("\n").filter((l) => l !== "").map(parse);
const wordsRead = words.filter((o) => o && !("error" in o)).length;
const wordsSure = words.filter((o) => o && !("error" in o) && flags(o) === "sure").length;

const pc = (a, b) => (b ? (100 * a / b).toFixed(1) : "-") + "%";
const N = count.named, A = count.ambiguous, I = count.implausible, F = count.foreign, X = count.none;
const wrong = KINDS.reduce((s, k) => s + count[k].wrong, 0);
console.log("");
console.log(`decidable (named):          ${N.right} of ${N.rows} named right first (${pc(N.right, N.rows)}), ${N.flagged} of them flagged weak or ambiguous`);
console.log(`undecidable (ambiguous):    ${A.right} of ${A.rows} flagged ambiguous with the right one among them (${pc(A.right, A.rows)})`);
console.log(`implausible (far off life): ${I.rows} rows: ${I.right} named right, ${I.refused} refused, ${I.flagged} flagged`);
console.log(`foreign (not catalogued):   ${F.rows} rows: ${F.refused} refused, ${F.flagged} flagged`);
console.log(`no ID (negatives):          ${X.refused} of ${X.rows} refused (${pc(X.refused, X.rows)}), ${X.flagged} flagged`);
console.log(`confidently wrong:          ${wrong}`);
console.log(`random words, 6-12 letters: ${wordsSure} of ${words.length} read without a flag (${pc(wordsSure, words.length)}), ${wordsRead} read at all`);
const goals = [
  ["decidable rows named right first: 100%", N.rows > 0 && N.right === N.rows],
  ["undecidable rows flagged ambiguous with the right one among: 100%", A.right === A.rows],
  ["confidently wrong: 0", wrong === 0],
  ["negatives refused: at least 95%, the rest flagged", X.rows >= 100 && X.refused * 100 >= X.rows * 95 && X.wrong === 0],
  ["random words read without a flag: at most 1%", words.length === 10000 && wordsSure * 100 <= words.length],
];
for (const [g, ok] of goals) console.log(`goal: ${g}: ${ok ? "met" : "NOT MET"}`);

if (bad.length) {
  console.log("");
  for (const b of bad) console.log(`${b.kind.padEnd(17)} ${b.text}\texpected ${b.format} (${b.expect})\tgot ${b.got}`);
}
const passed = rows.length - bad.length + goals.filter((g) => g[1]).length;
const failed = bad.length + goals.filter((g) => !g[1]).length + (unknownLabel ? 1 : 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
EOF
