// vectors.mjs: the WebAssembly package against every step recorded from
// @fluidframework/id-compressor 3.1.0 (spec/vectors/idcompressor.json):
// scenario, errorCases, fuzz and fuzz2, with the same results, the same
// serialized bytes and the same error messages.  A step that fails must
// leave the compressor as it was (serialize before == after).  One
// recorded step shows the reference's partial state after a failed call;
// ours is the state from before the call (spec/vectors/README.md).
// Prints "N passed, N failed".
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
// the package: IDC_WASM (wasm/build.sh OUTDIR)
const idc = await import(pathToFileURL(path.join(process.env.IDC_WASM ?? "", "index.js")).href);

const here = path.dirname(fileURLToPath(import.meta.url));
const V = JSON.parse(readFileSync(path.join(here, "../../spec/vectors/idcompressor.json"), "utf8"));
const NONNORMATIVE = { "finalize first range with firstGenCount != 1": new Set([3]) };
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; if (failed <= 20) console.error("FAIL " + what); }
  return ok;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// the recorded name is the error's class (the reference's LoggingError has
// the name "Error", as ours)
const nameOf = (e) => e.constructor?.name ?? e.name;

const METHOD = {
  generateCompressedId: (c) => c.generateCompressedId(),
  generateDocumentUniqueId: (c) => c.generateDocumentUniqueId(),
  normalizeToOpSpace: (c, s) => c.normalizeToOpSpace(s.id),
  normalizeToSessionSpace: (c, s) => c.normalizeToSessionSpace(s.id, s.originSessionId),
  tryNormalizeToSessionSpaceWithoutSession: (c, s) => c.tryNormalizeToSessionSpaceWithoutSession(s.id),
  decompress: (c, s) => c.decompress(s.id),
  recompress: (c, s) => c.recompress(s.stableId),
  tryRecompress: (c, s) => c.tryRecompress(s.stableId),
  resetUnfinalizedCreationRange: (c) => c.resetUnfinalizedCreationRange(),
  finalizeCreationRange: (c, s) => c.finalizeCreationRange(s.range),
  takeNextCreationRange: (c) => c.takeNextCreationRange(),
  takeUnfinalizedCreationRange: (c) => c.takeUnfinalizedCreationRange(),
  setClusterSize: (c, s) => { c.nextRequestedClusterSize = s.size; },
  serialize: (c, s) => c.serialize(s.withSession),
  beginGhostSession: (c, s) => {
    const got = [];
    c.beginGhostSession(s.ghostSessionId, () => {
      for (let i = 0; i < s.generateCount; i++) got.push(c.generateCompressedId());
    });
    return got;
  },
  "beginGhostSession(takeNextCreationRange inside)": (c) => {
    c.beginGhostSession("99999999-9999-4999-9999-999999999999",
                        () => c.takeNextCreationRange());
  },
};

function replay(name, steps) {
  const comps = {};
  let prefail = null;
  steps.forEach((s, i) => {
    const where = `${name} step ${i} ${s.op}`;
    if (s.op === "comment" || s.op === "checkpoint") return;
    if (s.op === "create" || s.op === "deserialize") {
      let c, err = null;
      try {
        c = s.op === "create"
          ? idc.createIdCompressor(s.sessionId)
          : (s.newSessionId == null ? idc.deserializeIdCompressor(s.serialized)
                                    : idc.deserializeIdCompressor(s.serialized, s.newSessionId));
        if (s.op === "create" && s.clusterSize != null) c.nextRequestedClusterSize = s.clusterSize;
      } catch (e) { err = e; }
      if (s.error) {
        check(err !== null, `${where}: must fail with ${s.error.message}`) &&
          check(err.message === s.error.message && nameOf(err) === s.error.name,
                `${where}: ${nameOf(err)} '${err.message}', want ${s.error.name} '${s.error.message}'`);
      } else if (check(err === null, `${where}: ${err}`)) {
        check(c.localSessionId === s.result, `${where}: session ${c.localSessionId}`);
        comps[s.compressor] = c;
      }
      return;
    }
    const c = comps[s.compressor];
    if (!check(c !== undefined, `${where}: no compressor`)) return;
    const before = s.error ? [c.serialize(true), c.serialize(false)] : null;
    let got, err = null;
    try { got = METHOD[s.op](c, s); } catch (e) { err = e; }
    if (s.error) {
      if (check(err !== null, `${where}: must fail with ${s.error.message}`))
        check(err.message === s.error.message && nameOf(err) === s.error.name,
                `${where}: ${nameOf(err)} '${err.message}', want ${s.error.name} '${s.error.message}'`);
      check(c.serialize(true) === before[0] && c.serialize(false) === before[1],
            `${where}: a failed call changed the compressor`);
      prefail = before[0];
      return;
    }
    if (!check(err === null, `${where}: ${err && err.message}`)) return;
    let want = s.result;
    if (s.op === "serialize" && NONNORMATIVE[name]?.has(i)) want = prefail;
    if (want === undefined || want === null) check(got === undefined, `${where}: want nothing, got ${JSON.stringify(got)}`);
    else check(same(got, want), `${where}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  });
  for (const c of Object.values(comps)) c.dispose();
}

replay("scenario", V.scenario.steps);
for (const e of V.errorCases) replay(e.name, e.steps);
for (const f of ["fuzz", "fuzz2"]) {
  const traces = Array.isArray(V[f]) ? V[f] : [V[f]];
  traces.forEach((t, k) => replay(`${f} ${t.name ?? k}`, t.steps ?? t));
}
for (const t of V.isStableId) check(idc.isStableId(t.input) === t.isStableId, `isStableId ${t.input}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
