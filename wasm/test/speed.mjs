// speed.mjs: the id-compressor packages side by side in one JavaScript
// host (node: bench/bench_idc_node.mjs; Chromium: browser/run.mjs), on the
// same cases as bench_idc.c and bench_idc.lua: generate with eager finals,
// and in a document of about 4,000 clusters from four sessions
// normalizeToOpSpace of a local ID, decompress of finals and of local IDs,
// recompress, serialize and deserialize; then (not quick) four more of the
// package's calls, and a document's life: 10 sessions that generate IDs,
// normalize them to op space, exchange their ranges and normalize every
// other session's IDs to session space (1M IDs made, 100k when quick).
// Case by case, the packages take turns run by run, so that the host's
// drift falls on both; each case's ratio is reference time / ours.
//
// bench(impls, { quick, now, log, only }) -> { best: { "who case": ns }, ratios: { case: x } }
// only: a RegExp of the cases to run
// impls: [[who, package], ...], the reference first.

const SIDS = ["0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b",
              "a1a1a1a1-a1a1-4a1a-aa1a-a1a1a1a1a1a1", "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7"];
const NSAMPLE = 4096;
let sink = 0, plan = [], quick = false;
// each case: n operations of it in a run (calibrated), or, with `once`, one
// run of a fixed workload of `per` operations
const time = (name, f, once) => plan[plan.length - 1].push({ name, f, once });

function cases(who, I) {
  // (first, while the heap holds nothing of the other cases, as an
  // application's would)
  if (!quick) {
    // A document's life: 10 sessions (the default cluster size, 512).  Each
    // round every client generates 1 to 20 IDs, normalizes them to op space
    // and takes its range (its op); then every client finalizes every op's
    // range in order and normalizes each of its IDs to session space, its
    // own as well (the op's echo).  The time is per ID made.
    const IDS = 1000000;
    time(who + " 10 sessions, 1M IDs (per ID)", () => {
      const cl = [];
      for (let k = 0; k < 10; k++) cl.push(I.createIdCompressor(`${(k + 1).toString(16).repeat(8)}-0000-4000-8000-00000000000${k}`));
      let made = 0;
      for (let round = 0; made < IDS; round++) {
        const sent = [];
        for (let k = 0; k < 10; k++) {
          const c = cl[k], n = 1 + ((round * 7 + k * 3) % 20), opIds = [];
          for (let i = 0; i < n; i++) opIds.push(c.normalizeToOpSpace(c.generateCompressedId()));
          made += n;
          sent.push([c.takeNextCreationRange(), opIds]);
        }
        for (let j = 0; j < 10; j++) {
          const c = cl[j];
          for (const [range, opIds] of sent) {
            c.finalizeCreationRange(range);
            for (let i = 0; i < opIds.length; i++) sink += c.normalizeToSessionSpace(opIds[i], range.sessionId);
          }
        }
      }
      for (const c of cl) c.dispose?.();
      return made;
    }, true);
  }

  // the document: four sessions take turns generating 20 IDs and
  // finalizing them with clusters of 16; client 0 is the local session
  const cs = SIDS.map((s) => { const c = I.createIdCompressor(s); c.nextRequestedClusterSize = 16; return c; });
  const locals = [];
  for (let i = 0; i < 1000; i++)
    for (let k = 0; k < 4; k++) {
      for (let j = 0; j < 20; j++) { const id = cs[k].generateCompressedId(); if (k === 0 && id < 0) locals.push(id); }
      cs[0].finalizeCreationRange(cs[k].takeNextCreationRange());
    }
  const doc = cs[0];
  const L = []; for (let i = 0; i < NSAMPLE; i++) L.push(locals[(i * 2654435761) % locals.length]);
  const finals = [], uuids = [];
  for (let i = 0; i < NSAMPLE; i++) { const f = (i * 2654435761) % 80000; finals.push(f); uuids.push(doc.decompress(f)); }
  const blob = doc.serialize(true);

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
  time(who + " decompress (local id)", (n) => { for (let i = 0; i < n; i++) sink += doc.decompress(L[i & (NSAMPLE - 1)]).length; });
  time(who + " recompress", (n) => { for (let i = 0; i < n; i++) sink += doc.recompress(uuids[i & (NSAMPLE - 1)]); });
  time(who + " serialize (4,000 clusters)", (n) => { for (let i = 0; i < n; i++) sink += doc.serialize(true).length; });
  time(who + " deserialize (4,000 clusters)", (n) => { for (let i = 0; i < n; i++) { const d = I.deserializeIdCompressor(blob); sink += d.localSessionId.length; d.dispose?.(); } });
  if (quick) return;

  // the package's other calls: an op's local ID from another session into
  // session space; a range of 5 IDs taken and finalized in two
  // compressors; a compressor made and dropped; a document-unique ID before
  // any final (a UUID string)
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

export function bench(impls, { quick: q = false, now, log = console.log, runMs, runs = 5, only } = {}) {
  quick = q;
  plan = [];
  const RUN_MS = runMs ?? (quick ? 30 : 300), RUNS = runs;
  // each implementation runs its own copy of the loops (a function compiled
  // anew), so that no call site has seen the other's classes: shared call
  // sites turn polymorphic and slow whichever is measured second
  for (const [who, I] of impls) { plan.push([]); eval(`(${cases})`)(who, I); }
  const calibrate = (f) => {
    let n = 1000, el;
    for (;;) { const t0 = now(); f(n); el = now() - t0; if (el > 20 || n > 1e9) break; n *= 2; }
    return Math.ceil(n * RUN_MS / el);
  };
  const best = {};
  for (let c = 0; c < plan[0].length; c++) {
    const rs = plan.map((cs) => ({ ...cs[c], t: [] }));
    if (only && !only.test(rs[0].name)) continue;
    for (const r of rs) {
      if (r.once) r.n = 0;
      else { r.n = calibrate(r.f); r.f(r.n); }
    }
    const rounds = RUNS;
    for (let i = 0; i < rounds; i++)
      for (const r of rs) {
        const t0 = now();
        const made = r.f(r.n);
        r.t.push((now() - t0) * 1e6 / (r.once ? made : r.n));
      }
    for (const { name, t } of rs) {
      t.sort((x, y) => x - y);
      best[name] = t[0];
      log(`${name.padEnd(46)} ${t[0].toFixed(1).padStart(8)} ns/op ${(1e3 / t[0]).toFixed(2).padStart(8)} M ops/s   (median ${t[t.length >> 1].toFixed(1)} ns)`);
    }
  }
  const ratios = {};
  if (impls.length > 1) {
    const [r, o] = impls.map(([who]) => who);
    log(`${r} / ${o} (above 1: ours is faster):`);
    for (const k of Object.keys(best).filter((k) => k.startsWith(r + " "))) {
      const name = k.slice(r.length + 1);
      ratios[name] = best[k] / best[`${o} ${name}`];
      log(`  ${name.padEnd(40)} ${ratios[name].toFixed(2)}x`);
    }
  }
  if (sink === 42) log("");
  return { best, ratios };
}
