// lifecycle.mjs (node --expose-gc): compressors free their WebAssembly
// memory when disposed and when collected; memory stays flat over a
// million create/dispose cycles; the session IDs kept are bounded; a
// disposed compressor refuses calls.
// Prints "N passed, N failed".
import { pathToFileURL } from "node:url";
import path from "node:path";

// the package: IDC_WASM (wasm/build.sh OUTDIR)
const idc = await import(pathToFileURL(path.join(process.env.IDC_WASM ?? "", "index.js")).href);

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) { passed++; console.log("ok   " + what); }
  else { failed++; console.log("FAIL " + what); }
}
const MB = (n) => (n / 1048576).toFixed(1) + " MB";
const sid = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a";
function busy(c) {            // a compressor with a cluster and some IDs
  for (let i = 0; i < 20; i++) c.generateCompressedId();
  c.finalizeCreationRange(c.takeNextCreationRange());
  return c;
}

// The baseline after one cycle: the package keeps the session IDs that
// calls name (finalizeCreationRange's, normalizeToSessionSpace's origin),
// a bounded cache checked below.
busy(idc.createIdCompressor(sid)).dispose();
const base = idc.wasmHeapInUse();
const N = Number(process.env.IDC_LIFECYCLE_CYCLES ?? 1000000);
let heapAt10k = 0, rssAt10k = 0;
for (let i = 0; i < N; i++) {
  busy(idc.createIdCompressor(sid)).dispose();
  if (i === Math.min(10000, N >> 2)) { heapAt10k = idc.wasmHeapInUse(); rssAt10k = process.memoryUsage().rss; }
}
const heapEnd = idc.wasmHeapInUse(), rssEnd = process.memoryUsage().rss;
check(heapEnd === base && heapAt10k === base,
      `${N} create/dispose cycles: heap in use ${heapEnd} bytes, as before (${base})`);
check(rssEnd - rssAt10k < 32 * 1048576,
      `RSS flat over the cycles: ${MB(rssAt10k)} after ${Math.min(10000, N >> 2)}, ${MB(rssEnd)} after ${N}`);

// collected: no dispose, the references dropped, the collector run
let held = [];
for (let i = 0; i < 20000; i++) held.push(busy(idc.createIdCompressor(sid)));
const heapHeld = idc.wasmHeapInUse();
held = null;
for (let round = 0; round < 20 && idc.wasmHeapInUse() > base; round++) {
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 20));    // finalizers run later
}
check(heapHeld > base && idc.wasmHeapInUse() === base,
      `20,000 compressors collected without dispose: heap ${heapHeld - base} bytes, then ${idc.wasmHeapInUse() - base}`);

// the session IDs kept are bounded (256 texts): the ranges of 2,000
// sessions finalized, every compressor disposed, and little is left
{
  const doc = idc.createIdCompressor(sid);
  for (let i = 0; i < 2000; i++) {
    const c = idc.createIdCompressor();
    c.generateCompressedId();
    doc.finalizeCreationRange(c.takeNextCreationRange());
    c.dispose();
  }
  doc.dispose();
  const left = idc.wasmHeapInUse() - base;
  check(left <= 256 * 128, `2,000 sessions' ranges finalized: ${left} bytes kept after, at most 256 session IDs`);
}

// a disposed compressor refuses calls; dispose twice is harmless
const c = busy(idc.createIdCompressor(sid));
c.generateCompressedId();                         // eager finals in hand
c.dispose();
c.dispose();
let threw = null;
try { c.generateCompressedId(); c.decompress(0); } catch (e) { threw = e; }
check(threw !== null && /disposed/.test(threw.message), `a call after dispose throws: ${threw && threw.message}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
