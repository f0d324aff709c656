// bench_idc_node.mjs: the reference, @fluidframework/id-compressor 3.1.0
// (installed by spec/idcompressor/node: npm ci there), and beside it in the
// same process our WebAssembly package (IDC_WASM=DIR, built by
// wasm/build.sh DIR), on the same cases as bench_idc.c and bench_idc.lua:
// generate with eager finals, and in a document of about 4,000 clusters
// from four sessions normalizeToOpSpace of a local id, decompress,
// recompress, serialize and deserialize, then (not --quick) four more of
// the package's calls.  Case by case, the two take turns run by run; the
// last lines give each case's ratio (reference time / ours).
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const req = createRequire(path.join(root, "spec/idcompressor/node/package.json"));
const impls = [["reference", await import(pathToFileURL(req.resolve("@fluidframework/id-compressor")).href)]];
if (process.env.IDC_WASM)
  impls.push(["wasm", await import(pathToFileURL(path.join(path.resolve(process.env.IDC_WASM), "index.js")).href)]);

const quick = process.argv.includes("--quick");
const RUN_MS = quick ? 30 : 300, RUNS = 5, NSAMPLE = 4096;
const SIDS = ["0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b",
              "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1", "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7"];
let sink = 0;

// Each implementation's cases are registered first (time), then measured
// case by case with the implementations taking turns run by run, so that
// the host's drift (a noisy neighbour for a few seconds) falls on both.
const best = {}, plan = [];
const time = (name, f) => plan[plan.length - 1].push({ name, f });
function calibrate(f) {
  let n = 1000, el;
  for (;;) { const t0 = process.hrtime.bigint(); f(n); el = Number(process.hrtime.bigint() - t0); if (el > 20e6 || n > 1e9) break; n *= 2; }
  return Math.ceil(n * RUN_MS * 1e6 / el);
}
function measure() {
  for (let c = 0; c < plan[0].length; c++) {
    const runs = plan.map((cases) => ({ ...cases[c], t: [] }));
    for (const r of runs) { r.n = calibrate(r.f); r.f(r.n); }
    for (let i = 0; i < RUNS; i++)
      for (const r of runs) { const t0 = process.hrtime.bigint(); r.f(r.n); r.t.push(Number(process.hrtime.bigint() - t0) / r.n); }
    for (const { name, t } of runs) {
      t.sort((a, b) => a - b);
      best[name] = t[0];
      console.log(`${name.padEnd(46)} ${t[0].toFixed(1).padStart(8)} ns/op ${(1e3 / t[0]).toFixed(2).padStart(8)} M ops/s   (median ${t[RUNS >> 1].toFixed(1)} ns)`);
    }
  }
}

function cases(who, I) {
  // the document: four sessions take turns generating 20 ids and
  // finalizing them with clusters of 16; client 0 is the local session
  const cs = SIDS.map((s) => { const c = I.createIdCompressor(s); c.nextRequestedClusterSize = 16; return c; });
  const locals = [];
  for (let i = 0; i < 1000; i++)
    for (let k = 0; k < 4; k++) {
      for (let j = 0; j < 20; j++) { const id = cs[k].generateCompressedId(); if (k === 0 && id < 0) locals.push(id); }
      cs[0].finalizeCreationRange(cs[k].takeNextCreationRange());
    }
  const doc = cs[0];
  const L = []; for (let i = 0; i < NSAMPLE; i++) L.push(locals[i % locals.length]);
  const finals = [], uuids = [];
  for (let i = 0; i < NSAMPLE; i++) { const f = Number((BigInt(i) * 2654435761n) % 80000n); finals.push(f); uuids.push(doc.decompress(f)); }
  const blob = doc.serialize(true);
  console.log(`${who}: document of 4 sessions, ${blob.length} bytes serialized (~4,000 clusters)`);

  const g = I.createIdCompressor(SIDS[0]);
  g.nextRequestedClusterSize = 1 << 20;
  g.generateCompressedId();
  g.finalizeCreationRange(g.takeNextCreationRange());
  time(who + " generate (eager finals)", (n) => {
    for (let i = 0; i < n; i++) {
      const id = g.generateCompressedId();
      if (id < 0) g.finalizeCreationRange(g.takeNextCreationRange());
      sink += id;
    }
  });
  time(who + " normalizeToOpSpace (local id)", (n) => { for (let i = 0; i < n; i++) sink += doc.normalizeToOpSpace(L[i & (NSAMPLE - 1)]); });
  time(who + " decompress (final)", (n) => { for (let i = 0; i < n; i++) sink += doc.decompress(finals[i & (NSAMPLE - 1)]).length; });
  time(who + " recompress", (n) => { for (let i = 0; i < n; i++) sink += doc.recompress(uuids[i & (NSAMPLE - 1)]); });
  time(who + " serialize (4,000 clusters)", (n) => { for (let i = 0; i < n; i++) sink += doc.serialize(true).length; });
  time(who + " deserialize (4,000 clusters)", (n) => { for (let i = 0; i < n; i++) { const d = I.deserializeIdCompressor(blob); sink += d.localSessionId.length; d.dispose?.(); } });

  // the package's other calls (node only): an op's local ID from another
  // session into session space; a range of 5 IDs taken and finalized in
  // two compressors; a compressor made and dropped; a document-unique ID
  // before any final (a UUID string)
  if (quick) return;
  const peer = cs[1], ops = [];
  for (let i = 0; i < 20; i++) ops.push(-1 - i);   // peer's first 20 IDs, finalized in doc
  time(who + " normalizeToSessionSpace (remote)", (n) => { for (let i = 0; i < n; i++) sink += doc.normalizeToSessionSpace(ops[i % 20], SIDS[1]); });
  const a = I.createIdCompressor(SIDS[2]), b = I.createIdCompressor(SIDS[3]);
  a.nextRequestedClusterSize = 16;
  time(who + " 5 generates, take, finalize in two", (n) => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < 5; j++) sink += a.generateCompressedId();
      const r = a.takeNextCreationRange();
      a.finalizeCreationRange(r);
      b.finalizeCreationRange(r);
    }
  });
  time(who + " createIdCompressor (and dispose)", (n) => { for (let i = 0; i < n; i++) { const c = I.createIdCompressor(SIDS[i & 3]); sink += c.localSessionId.length; c.dispose?.(); } });
  time(who + " generateDocumentUniqueId (a UUID)", (n) => { for (let i = 0; i < n; i++) { const x = peer.generateDocumentUniqueId(); sink += typeof x === "string" ? x.length : x; } });
}

console.log(`@fluidframework/id-compressor 3.1.0 against ours (node ${process.version}; best of ${RUNS} runs, median in brackets)`);
// each implementation runs its own copy of the loops (a function compiled
// anew), so that no call site has seen the other's classes: shared call
// sites turn polymorphic and slow whichever is measured second
for (const [who, I] of impls) { plan.push([]); eval(`(${cases})`)(who, I); }
measure();
if (impls.length > 1) {
  console.log("reference / wasm (above 1: ours is faster):");
  for (const k of Object.keys(best).filter((k) => k.startsWith("reference ")))
    console.log(`  ${k.slice(10).padEnd(40)} ${(best[k] / best["wasm " + k.slice(10)]).toFixed(2)}x`);
}
if (sink === 42) console.log("");
