// selfcheck.mjs: checks the corpus against itself and theirs.mjs against
// the corpus, with no idscheme build needed (run it as `run.sh node
// selfcheck.mjs`):
//  1. every row of corpus.tsv decodes (decode.mjs) to its time and fields;
//  2. theirs.mjs accepts every package-made row of a format it has a
//     package for (a UUID's other forms too), and reads the same time as
//     the corpus;
//  3. theirs.mjs refuses corrupted copies of some of them: a version nibble
//     flipped, a character dropped, a bad TypeID prefix, a character from
//     outside the alphabet, a TSID over 64 bits.
// Prints "N passed, N failed"; exits non-zero on any failure.

import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { DECODERS } from "./decode.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const lines = readFileSync(path.join(here, "corpus.tsv"), "utf8").trimEnd().split("\n");
const header = lines.shift().split("\t");
const rows = lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [header[i], v])));

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; if (failed <= 30) console.error("FAIL " + what); }
}

// 1. the corpus agrees with decode.mjs
for (const r of rows) {
  let got;
  try { got = DECODERS[r.format](r.text, r.form); } catch (e) { check(false, `${r.format} ${r.text}: ${e.message}`); continue; }
  check((got.time_ms === null ? "-" : String(got.time_ms)) === r.time_ms && JSON.stringify(got.fields) === r.fields,
        `${r.format} ${r.text}: decodes to ${got.time_ms} ${JSON.stringify(got.fields)}`);
}

// 2. and 3. through theirs.mjs
const PACKAGE_MADE = /^(uuid|bson|xid-ts|tsid-ts|typeid-js|nanoid|firebase-key|ulid|ksuid|short-uuid|shortuuid)@\S+ (?!README)/;
const made = rows.filter((r) => PACKAGE_MADE.test(r.source) || /^shortuuid /.test(r.source));
const UUID_OTHER = new Set(["hex", "urn", "braced", "decimal", "base57", "flickr58"]);
const tag = (r) => (r.format === "nanoid" && r.form === "sized" ? `nanoid:${r.text.length}` :
                    /^uuid[1-8]$/.test(r.format) && UUID_OTHER.has(r.form) ? `${r.format}:${r.form}` : r.format);

const flipVersion = (t) => t.slice(0, 14) + (t[14] === "4" ? "5" : "4") + t.slice(15);
const pick = (format, n = 3) => made.filter((r) => r.format === format).slice(0, n).map((r) => r.text);
const corrupt = [
  ...["uuid1", "uuid3", "uuid4", "uuid5", "uuid6", "uuid7"].flatMap((f) => pick(f, 2).map((t) => [f, flipVersion(t), "version nibble"])),
  ...pick("uuid4", 2).map((t) => ["uuid4", t.slice(0, 19) + "c" + t.slice(20), "variant bits 11"]),
  ...pick("uuid7", 2).map((t) => ["uuid7", t.slice(0, -1), "one character short"]),
  ...pick("objectid").map((t) => ["objectid", t.slice(1), "23 digits"]),
  ...pick("objectid", 1).map((t) => ["objectid", "g" + t.slice(1), "not hexadecimal"]),
  ...pick("xid").map((t) => ["xid", t.slice(0, 19) + "w", "w is outside base32hex"]),
  ...pick("xid", 1).map((t) => ["xid", t + "0", "21 characters"]),
  ...pick("tsid").map((t) => ["tsid", t.slice(0, 12), "12 characters"]),
  ["tsid", "G000000000000", "over 64 bits"],
  ["tsid", "0123456789ABU", "U is not Crockford base32"],
  ...pick("typeid").map((t) => ["typeid", "User_" + t.slice(t.lastIndexOf("_") + 1), "upper-case prefix"]),
  ...pick("typeid", 1).map((t) => ["typeid", "_" + t.slice(t.lastIndexOf("_") + 1), "separator without prefix"]),
  ...pick("typeid", 1).map((t) => ["typeid", "abc_" + "8" + t.slice(t.lastIndexOf("_") + 2), "suffix above 7"]),
  ...pick("typeid", 1).map((t) => ["typeid", "user1_" + t.slice(t.lastIndexOf("_") + 1), "digit in prefix"]),
  ...pick("nanoid").map((t) => ["nanoid", t.slice(1), "20 characters"]),
  ...pick("nanoid", 1).map((t) => ["nanoid", t.slice(1) + "=", "= is outside the alphabet"]),
  ...pick("pushid").map((t) => ["pushid", t.slice(0, 19), "19 characters"]),
  ...pick("pushid", 1).map((t) => ["pushid", t.slice(0, 10) + "!" + t.slice(11), "! is outside the alphabet"]),
  ["uuid_nil", "00000000-0000-0000-0000-000000000001", "not nil"],
  ...pick("ulid", 2).map((t) => ["ulid", t.slice(1), "25 characters"]),
  ...pick("ulid", 1).map((t) => ["ulid", "8" + t.slice(1), "first character above 7"]),
  ...pick("ksuid", 2).map((t) => ["ksuid", t.slice(1), "26 characters"]),
  ...rows.filter((r) => r.form === "flickr58").slice(0, 2).map((r) => [`${r.format}:flickr58`, r.text.slice(0, 21) + "0", "0 is not Flickr's"]),
  ...rows.filter((r) => r.form === "base57").slice(0, 2).map((r) => [`${r.format}:base57`, r.text.slice(0, 21) + "1", "1 is not base 57's"]),
];

const input = [...made.map((r) => `${tag(r)}\t${r.text}`), ...corrupt.map(([f, t]) => `${f}\t${t}`)].join("\n") + "\n";
const run = spawnSync(process.execPath, [path.join(here, "theirs.mjs")], { input, encoding: "utf8" });
if (run.error || run.stderr) console.error(run.error ?? run.stderr);
const out = run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
check(out.length === made.length + corrupt.length, `theirs.mjs answered ${out.length} lines of ${made.length + corrupt.length}`);
made.forEach((r, i) => {
  const o = out[i] ?? {};
  const want = r.time_ms === "-" ? null : Number(r.time_ms);
  check(o.ok === true && o.time_ms === want, `theirs ${r.format} ${r.text}: ${JSON.stringify(o)} (corpus time ${r.time_ms})`);
});
corrupt.forEach(([f, t, what], i) => {
  const o = out[made.length + i] ?? {};
  check(o.ok === false, `theirs accepted a corrupted ${f} (${what}): ${t}`);
});
check(run.status === 1, `theirs.mjs exit status ${run.status} with refused lines (want 1)`);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
