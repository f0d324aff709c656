// diff.mjs: a lockstep differential of two id-compressor packages in one
// JavaScript host (node or a browser): the reference and ours.  A seeded
// driver plays one document of several clients; every operation runs on
// both packages in the same total order (generate, take ranges, finalize
// everywhere, ghost sessions, normalize, decompress, recompress,
// serialize, deserialize, a client joining from a blob), and each answer
// (result, or error class and message) must be the same.  At checkpoints
// both serialize every client to the same text, and a client is replaced
// on each side by deserializing the other side's text.
//
// differential(R, O, { seed, ops }) -> { checks, failures: [what...], stats }

function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function differential(R, O, { seed = 1, ops = 2000 } = {}) {
  const rnd = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const hex = (n) => { let s = ""; for (let i = 0; i < n; i++) s += "0123456789abcdef"[int(0, 15)]; return s; };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`;
  const sides = [{ P: R, c: [] }, { P: O, c: [] }];
  const clients = [], pending = [], failures = [], stats = {};
  let checks = 0;
  const check = (ok, what) => {
    checks++;
    if (!ok && failures.length < 20) failures.push(what);
    return ok;
  };
  const call = (side, f) => {
    try {
      const r = f(side);
      return { ok: true, result: r === undefined ? null : r };
    } catch (e) {
      return { ok: false, error: `${e?.constructor?.name}: ${e?.message}` };
    }
  };
  // f on both sides: the same answer
  const both = (what, f) => {
    const a = call(sides[0], f), b = call(sides[1], f);
    const key = what.split(" ")[0] + (a.ok ? "" : "!");
    stats[key] = (stats[key] ?? 0) + 1;
    check(JSON.stringify(a) === JSON.stringify(b),
          `seed ${seed} ${what}: reference ${JSON.stringify(a).slice(0, 200)}, ours ${JSON.stringify(b).slice(0, 200)}`);
    return a;
  };
  const everyone = (what, f) => { for (let k = 0; k < clients.length; k++) both(`${what} @${k}`, (s) => f(s.c[k], s)); };

  for (let k = 0; k < 4; k++) {
    const sid = uuid(), size = int(1, 30);
    both("create", (s) => { s.c[k] = s.P.createIdCompressor(sid); s.c[k].nextRequestedClusterSize = size; });
    clients.push({ sid, ids: [] });
  }
  const query = (k, where) => {
    const c = clients[k];
    const id = c.ids.length && rnd() < 0.9 ? c.ids[int(0, c.ids.length - 1)] : int(-40, 300);
    const op = both(`normalizeToOpSpace ${where}`, (s) => s.c[k].normalizeToOpSpace(id));
    const u = both(`decompress ${where}`, (s) => s.c[k].decompress(id));
    if (u.ok) {
      both(`recompress ${where}`, (s) => s.c[k].recompress(u.result));
      const j = int(0, clients.length - 1);
      both(`tryRecompress ${where}`, (s) => s.c[j].tryRecompress(u.result));
      const near = u.result.slice(0, 35) + "0123456789abcdef"[int(0, 15)];
      both(`tryRecompress ${where} near`, (s) => s.c[j].tryRecompress(near));
    }
    const random = uuid();
    both(`tryRecompress ${where} random`, (s) => s.c[k].tryRecompress(random));
    if (op.ok)
      for (let j = 0; j < clients.length; j++) {
        both(`normalizeToSessionSpace ${where}`, (s) => s.c[j].normalizeToSessionSpace(op.result, c.sid));
        if (op.result >= 0)
          both(`tryNormalizeToSessionSpaceWithoutSession ${where}`,
               (s) => s.c[j].tryNormalizeToSessionSpaceWithoutSession(op.result));
      }
  };
  const checkpoint = (where) => {
    for (let k = 0; k < clients.length; k++) {
      both(`serialize(true) ${where}`, (s) => s.c[k].serialize(true));
      both(`serialize(false) ${where}`, (s) => s.c[k].serialize(false));
    }
    // one client replaced on each side by the other side's text
    const k = int(0, clients.length - 1), size = int(1, 30);
    const blobs = sides.map((s) => s.c[k].serialize(true));
    sides.forEach((s, i) => {
      const d = s.P.deserializeIdCompressor(blobs[1 - i]);
      d.nextRequestedClusterSize = size;
      s.c[k].dispose?.();
      s.c[k] = d;
    });
    both(`serialize(true) ${where} after the exchange`, (s) => s.c[k].serialize(true));
    // a new client joins from serialize(false)
    if (clients.length < 7 && rnd() < 0.5) {
      const src = int(0, clients.length - 1), nk = clients.length, sid = uuid();
      both(`deserialize ${where} join`, (s) => {
        s.c[nk] = s.P.deserializeIdCompressor(s.c[src].serialize(false), sid);
        s.c[nk].nextRequestedClusterSize = size;
        return s.c[nk].serialize(false) === s.c[src].serialize(false);
      });
      clients.push({ sid, ids: [] });
    }
  };

  for (let step = 0; step < ops; step++) {
    const k = int(0, clients.length - 1), c = clients[k], r = rnd(), where = `step ${step}`;
    if (r < 0.30) {
      const n = int(1, 6);
      const res = both(`generateCompressedId ${where}`, (s) => { const o = []; for (let i = 0; i < n; i++) o.push(s.c[k].generateCompressedId()); return o; });
      if (res.ok) c.ids.push(...res.result);
    } else if (r < 0.32) {
      both(`generateDocumentUniqueId ${where}`, (s) => s.c[k].generateDocumentUniqueId());
    } else if (r < 0.42) {
      const res = both(`takeNextCreationRange ${where}`, (s) => s.c[k].takeNextCreationRange());
      if (res.ok) pending.push(res.result);
    } else if (r < 0.44 && step % 7) {
      const res = both(`takeUnfinalizedCreationRange ${where}`, (s) => s.c[k].takeUnfinalizedCreationRange());
      if (res.ok) pending.push(res.result);
    } else if (r < 0.56) {
      if (pending.length) {
        const range = pending.shift();
        everyone(`finalizeCreationRange ${where}`, (x) => x.finalizeCreationRange(range));
      }
    } else if (r < 0.58) {
      const size = int(1, 40);
      both(`nextRequestedClusterSize ${where}`, (s) => { s.c[k].nextRequestedClusterSize = size; });
    } else if (r < 0.585) {
      const g = uuid(), n = int(0, 3);
      everyone(`beginGhostSession ${where}`, (x) => { const o = []; x.beginGhostSession(g, () => { for (let i = 0; i < n; i++) o.push(x.generateCompressedId()); }); return o; });
    } else if (r < 0.97) {
      query(k, where);
    } else {
      checkpoint(where);
    }
  }
  while (pending.length) {
    const range = pending.shift();
    everyone("finalizeCreationRange drain", (x) => x.finalizeCreationRange(range));
  }
  checkpoint("end");
  for (const s of sides) for (const c of s.c) c.dispose?.();
  return { checks, failures, stats };
}
