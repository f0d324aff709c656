// helpers.mjs: the package's own text helpers (idc.js's, which browsers
// use) against node's (Buffer, which the node entry point uses, and the
// reference decodes with): a second copy of idc.js is set up here without
// node's helpers.
//   - base64: both copies serialize the same compressors to the same text
//     and deserialize the same texts (valid blobs, and blobs spoilt with
//     white space, characters that are not base64, the URL-safe alphabet,
//     missing or extra padding, text after the padding, characters beyond
//     Latin-1, cuts) to the same compressor or the same error;
//   - UUIDs in: recompress and tryRecompress of UUIDs in either case and
//     spoilt (a character that is not hex, beyond ASCII, a dash moved,
//     white space, no dashes) give the same answer or the same error.
// Prints "N passed, N failed".
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = path.resolve(process.env.IDC_WASM ?? "");
const N = await import(pathToFileURL(path.join(dir, "index.js")).href);
const J = await import(pathToFileURL(path.join(dir, "idc.js")).href + "?own-base64");
J.setup(new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(path.join(dir, "idcompressor.wasm"))),
                                 J.imports()));

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; if (failed <= 20) console.log("FAIL " + what); }
}
let seed = 7;
const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const pick = (n) => Math.floor(rnd() * n);
const S = ["0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b",
           "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1"];

// the same documents built in both copies: their texts must be the same
function build(P, size) {
  const cs = S.map((s) => { const c = P.createIdCompressor(s); c.nextRequestedClusterSize = 1 + (size % 7); return c; });
  for (let i = 0; i < size; i++) {
    const c = cs[i % 3];
    for (let j = 0; j < 1 + (i * 7) % 5; j++) c.generateCompressedId();
    const r = c.takeNextCreationRange();
    for (const d of cs) d.finalizeCreationRange(r);
  }
  return cs[0];
}
const blobs = [];
for (const size of [0, 1, 2, 3, 5, 8, 40, 300]) {
  const a = build(N, size), b = build(J, size);
  for (const withSession of [true, false]) {
    const t = a.serialize(withSession);
    check(t === b.serialize(withSession), `size ${size} serialize(${withSession}): the same text`);
    check(t === Buffer.from(b.serializeToBytes(withSession)).toString("base64"), `size ${size}: the text is the bytes' base64`);
    blobs.push([t, withSession]);
  }
}

const outcome = (P, text, withSession) => {
  try {
    const c = withSession ? P.deserializeIdCompressor(text) : P.deserializeIdCompressor(text, "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7");
    return "ok " + c.serialize(true);
  } catch (e) {
    return `${e.constructor.name}: ${e.message}`;
  }
};
const JUNK = [" ", "\n", "\t", "\r\n", "$", "!", ".", ",", "~", "\u00e9", "\u0141", "\u0100", "\u4e00", "\ud83d\ude00", "\u00a0", "="];
const spoil = (t) => {
  let s = t;
  for (let n = 1 + pick(3); n > 0; n--) {
    const at = pick(s.length + 1), r = rnd();
    if (r < 0.35) s = s.slice(0, at) + JUNK[pick(JUNK.length)] + s.slice(at);
    else if (r < 0.5) s = s.replace(/\+/g, "-").replace(/\//g, "_");
    else if (r < 0.6) s = s.replace(/=+$/, "");
    else if (r < 0.7) s = s + "=" + "QUJD".slice(0, pick(5));
    else if (r < 0.8) s = s.slice(0, at);
    else if (r < 0.9) s = s.slice(0, at) + "====" + s.slice(at);
    else s = s.slice(0, at) + String.fromCharCode(pick(0x3000)) + s.slice(at);
  }
  return s;
};
let valid = 0, same = 0;
for (const [t, withSession] of blobs) {
  const tries = [t, ...Array.from({ length: 120 }, () => spoil(t))];
  for (const text of tries) {
    const a = outcome(N, text, withSession), b = outcome(J, text, withSession);
    check(a === b, `${JSON.stringify(text.slice(0, 80))}...: node's Buffer ${a.slice(0, 80)}, ours ${b.slice(0, 80)}`);
    if (a === b) same++;
    if (a.startsWith("ok")) valid++;
  }
}
// texts of base64's alphabet and its neighbours, any length
for (let i = 0; i < 3000; i++) {
  let s = "";
  for (let n = pick(40); n > 0; n--) s += "ABCDQUJDRA+/-_=  $\u0141"[pick(21)];
  check(outcome(N, s, false) === outcome(J, s, false), `${JSON.stringify(s)}: a different outcome`);
}
console.log(`${blobs.length} blobs and ${blobs.length * 120} spoilt ones: ${same} the same outcome, ${valid} of them compressors`);

// UUIDs in
const a = build(N, 40), b = build(J, 40);
const tryBoth = (f) => {
  const run = (c) => { try { return "ok " + f(c); } catch (e) { return `${e.constructor.name}: ${e.message}`; } };
  return [run(a), run(b)];
};
const CH = ["g", "G", "-", " ", "\u00e1", "\u0130", "\0", "A", "f", "0"];
let uuids = 0;
for (let f = 0; f < 400; f++) {
  let u;
  try { u = a.decompress(f); } catch { continue; }      // not a final of the document
  const forms = [u, u.toUpperCase(), u.replace(/[a-f]/g, (x) => (pick(2) ? x.toUpperCase() : x)), u.replace(/-/g, ""),
                 u + " ", " " + u, u.slice(0, 35), u + "0"];
  for (let k = 0; k < 6; k++) {
    const at = pick(36);
    forms.push(u.slice(0, at) + CH[pick(CH.length)] + u.slice(at + 1));
  }
  for (const t of forms) {
    uuids++;
    const [x, y] = tryBoth((c) => c.recompress(t));
    check(x === y, `recompress ${JSON.stringify(t)}: node's helpers ${x}, ours ${y}`);
    const [p, q] = tryBoth((c) => c.tryRecompress(t));
    check(p === q, `tryRecompress ${JSON.stringify(t)}: node's helpers ${p}, ours ${q}`);
  }
}
console.log(`${uuids} UUIDs in, recompressed by both copies`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
