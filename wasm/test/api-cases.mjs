// api-cases.mjs: the public API as an application uses it, written from
// the package's documented behaviour, for any test runner and any
// JavaScript host: node (api.mjs: node:test) and Chromium
// (browser/page.mjs).  defineApiTests registers each test for each
// package in impls (the reference, @fluidframework/id-compressor 3.1.0,
// and ours): every test must pass on both.  TU: the reference's
// telemetry-utils (MockLogger, createChildLogger, LoggingError,
// isILoggingError), for the telemetry tests.
export function defineApiTests({ test, assert, impls, TU }) {
  const A = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a";
  const B = "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b";
  const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const throwsMsg = (f, msg) => assert.throws(f, (e) => e instanceof Error && e.message === msg);

  for (const [name, P] of Object.entries(impls)) {
    const make = (sid) => P.createIdCompressor(sid);

    test(`${name}: a new compressor has a session, random unless given`, () => {
      const c = make(A);
      assert.equal(c.localSessionId, A);
      const r = P.createIdCompressor();
      assert.match(r.localSessionId, uuidRe);
      assert.notEqual(r.localSessionId, P.createIdCompressor().localSessionId);
      assert.ok(P.isStableId(P.createSessionId()));
    });

    test(`${name}: local IDs until a range is finalized, then finals`, () => {
      const c = make(A);
      const ids = [c.generateCompressedId(), c.generateCompressedId(), c.generateCompressedId()];
      assert.deepEqual(ids, [-1, -2, -3]);
      assert.equal(c.normalizeToOpSpace(-2), -2);     // not finalized: still local
      const range = c.takeNextCreationRange();
      assert.equal(range.sessionId, A);
      assert.equal(range.ids.firstGenCount, 1);
      assert.equal(range.ids.count, 3);
      c.finalizeCreationRange(range);
      assert.deepEqual(ids.map((id) => c.normalizeToOpSpace(id)), [0, 1, 2]);
      // the rest of the cluster: eager finals
      const next = c.generateCompressedId();
      assert.ok(next >= 0);
    });

    test(`${name}: a local ID decompresses to its session's UUID plus its offset`, () => {
      const c = make(A);
      const first = c.generateCompressedId(), second = c.generateCompressedId();
      assert.equal(c.decompress(first), A);
      assert.equal(c.decompress(second), "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0b");
      assert.equal(c.recompress(c.decompress(second)), second);
      c.finalizeCreationRange(c.takeNextCreationRange());
      assert.equal(c.decompress(second), "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0b");
      assert.equal(c.recompress("0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0b"), second);
    });

    test(`${name}: two clients agree through their ranges, in one total order`, () => {
      const a = make(A), b = make(B);
      const ia = a.generateCompressedId(), ib = b.generateCompressedId();
      const ra = a.takeNextCreationRange(), rb = b.takeNextCreationRange();
      for (const c of [a, b]) { c.finalizeCreationRange(ra); c.finalizeCreationRange(rb); }
      const opA = a.normalizeToOpSpace(ia), opB = b.normalizeToOpSpace(ib);
      assert.ok(opA >= 0 && opB >= 0 && opA !== opB);
      // each reads the other's op-space ID back into its own session space
      assert.equal(b.normalizeToSessionSpace(opA, A), opA);
      assert.equal(a.normalizeToSessionSpace(opB, B), opB);
      assert.equal(a.decompress(opB), B);
      assert.equal(b.decompress(opA), A);
      // an unfinalized local ID of another session, as sent in an op
      const late = b.generateCompressedId();
      assert.ok(late < 0 || late >= 0);
    });

    test(`${name}: unknown IDs and UUIDs are refused with the documented errors`, () => {
      const c = make(A);
      throwsMsg(() => c.decompress(5), "Unknown ID");
      throwsMsg(() => c.normalizeToOpSpace(-5), "Invalid ID to normalize.");
      throwsMsg(() => c.recompress(B), "Could not recompress.");
      assert.equal(c.tryRecompress(B), undefined);
      throwsMsg(() => c.normalizeToSessionSpace(3, B), "Unknown op space ID.");
      throwsMsg(() => c.normalizeToSessionSpace(-1, B),
                "No IDs have ever been finalized by the supplied session.");
    });

    test(`${name}: generateDocumentUniqueId gives a UUID until finals are eager`, () => {
      const c = make(A);
      const u = c.generateDocumentUniqueId();
      assert.equal(u, A);                      // the first local ID's UUID
      c.finalizeCreationRange(c.takeNextCreationRange());
      const f = c.generateDocumentUniqueId();
      assert.equal(typeof f, "number");
      assert.ok(f >= 0);
    });

    test(`${name}: a range without new IDs has no ids`, () => {
      const c = make(A);
      assert.deepEqual(c.takeNextCreationRange(), { sessionId: A });
    });

    test(`${name}: the cluster size of later ranges`, () => {
      const c = make(A);
      c.nextRequestedClusterSize = 3;
      c.generateCompressedId();
      const r = c.takeNextCreationRange();
      assert.equal(r.ids.requestedClusterSize, 3);
    });

    test(`${name}: an unfinalized range taken again, or reset`, () => {
      const c = make(A);
      c.generateCompressedId(); c.generateCompressedId();
      const first = c.takeNextCreationRange();
      c.generateCompressedId();
      const all = c.takeUnfinalizedCreationRange();
      assert.equal(all.ids.firstGenCount, 1);
      assert.equal(all.ids.count, 3);
      assert.equal(first.ids.count, 2);
      c.resetUnfinalizedCreationRange();
      assert.equal(c.takeNextCreationRange().ids.count, 3);
    });

    test(`${name}: serialize and deserialize, resuming or as a new session`, () => {
      const c = make(A);
      for (let i = 0; i < 5; i++) c.generateCompressedId();
      c.finalizeCreationRange(c.takeNextCreationRange());
      const withSession = c.serialize(true), without = P.serializeIdCompressor(c, false);
      const resumed = P.deserializeIdCompressor(withSession);
      assert.equal(resumed.localSessionId, A);
      assert.equal(resumed.serialize(true), withSession);
      assert.equal(resumed.decompress(2), c.decompress(2));
      const other = P.deserializeIdCompressor(without, B);
      assert.equal(other.localSessionId, B);
      assert.equal(other.decompress(4), c.decompress(4));
      assert.equal(other.serialize(false), without);
      throwsMsg(() => P.deserializeIdCompressor(withSession, B), "0x75e");
      throwsMsg(() => P.deserializeIdCompressor(without), "0x75d");
    });

    test(`${name}: a ghost session mints finals for another session`, () => {
      const c = make(A), ghost = "e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7";
      const got = [];
      c.beginGhostSession(ghost, () => { got.push(c.generateCompressedId(), c.generateCompressedId()); });
      assert.deepEqual(got, [0, 1]);
      assert.equal(c.decompress(0), ghost);
      throwsMsg(() => c.beginGhostSession(ghost, () => c.takeNextCreationRange()), "0x8a6");
      // the compressor goes on normally afterwards
      assert.equal(c.generateCompressedId(), -1);
    });

    test(`${name}: text beyond ASCII is read as BigInt reads it`, () => {
      // U+0130's low byte is "0": a UUID with it is not one
      const odd = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0\u0130";
      const big = (t) => `Cannot convert 0x${t.replace(/-/g, "")} to a BigInt`;
      const syntax = (f, t) => assert.throws(f, (e) => e instanceof SyntaxError && e.message === big(t));
      syntax(() => make(odd), odd);
      assert.equal(P.isStableId(odd), false);
      const c = make(A);
      c.generateCompressedId();
      const second = c.generateCompressedId(), u = c.decompress(second);
      syntax(() => c.recompress(odd), odd);
      syntax(() => c.tryRecompress(odd), odd);
      syntax(() => c.recompress(u + "\u200b"), u + "\u200b");   // not white space
      for (const t of [u + "\0", "\0" + u.slice(1), u.slice(0, 35) + "\0", u.slice(0, 30) + "\0" + u.slice(31)])
        syntax(() => c.recompress(t), t);              // a NUL anywhere
      syntax(() => c.recompress("\u00a0" + u), "\u00a0" + u);
      // white space after the digits is trimmed, JavaScript's set
      for (const ws of [" ", "\n", "\u00a0", "\u2003", "\u2028", "\u3000", "\ufeff"])
        assert.equal(c.recompress(u + ws), second);
      throwsMsg(() => c.normalizeToSessionSpace(-1, odd),
                "No IDs have ever been finalized by the supplied session.");
      const r = make(B);
      r.generateCompressedId();
      const range = r.takeNextCreationRange();
      syntax(() => c.finalizeCreationRange({ ...range, sessionId: odd }), odd);
      c.finalizeCreationRange(range);                  // unchanged by the failure
      assert.equal(c.normalizeToSessionSpace(-1, B), 0);   // the first final
    });

    test(`${name}: finals in session space as the compressor grows (expansion, new clusters, ghosts)`, () => {
      const a = make(A), b = make(B);
      a.nextRequestedClusterSize = 2;
      b.nextRequestedClusterSize = 2;
      const both = (r) => { a.finalizeCreationRange(r); b.finalizeCreationRange(r); };
      assert.equal(a.generateCompressedId(), -1);
      both(a.takeNextCreationRange());             // a: finals 0..2, 0 finalized
      assert.equal(a.normalizeToSessionSpace(0, B), -1);
      throwsMsg(() => a.normalizeToSessionSpace(1, B), "Unknown op space ID.");
      assert.deepEqual([a.generateCompressedId(), a.generateCompressedId(),
                        a.generateCompressedId(), a.generateCompressedId()], [1, 2, -4, -5]);
      both(a.takeNextCreationRange());             // expanded: finals 0..6
      assert.deepEqual([0, 1, 2, 3, 4].map((f) => a.normalizeToSessionSpace(f, B)), [-1, 1, 2, -4, -5]);
      assert.deepEqual([0, 1, 2, 3, 4].map((f) => b.normalizeToSessionSpace(f, A)), [0, 1, 2, 3, 4]);
      assert.equal(a.tryNormalizeToSessionSpaceWithoutSession(3), -4);
      b.generateCompressedId();
      both(b.takeNextCreationRange());             // b: finals 7..9
      a.generateCompressedId(); a.generateCompressedId(); a.generateCompressedId();
      both(a.takeNextCreationRange());             // a: a new cluster, 10..
      assert.equal(a.normalizeToSessionSpace(7, B), 7);
      assert.equal(b.normalizeToSessionSpace(7, A), -1);
      assert.equal(a.normalizeToSessionSpace(10, B), -8);
      assert.equal(a.tryNormalizeToSessionSpaceWithoutSession(7), 7);
      // b's final 8, allocated but not finalized, is below the last
      // cluster's finalized limit: the reference takes it (its quirk)
      assert.equal(a.normalizeToSessionSpace(8, B), 8);
      throwsMsg(() => a.normalizeToSessionSpace(13, B), "Unknown op space ID.");
      const g = [];
      a.beginGhostSession("e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7", () => {
        g.push(a.generateCompressedId(), a.generateCompressedId());
        assert.deepEqual(g.map((f) => a.normalizeToSessionSpace(f, B)), g);
      });
      throwsMsg(() => a.normalizeToSessionSpace(g[1] + 1, B), "Unknown op space ID.");
    });

    test(`${name}: UUIDs whose last twelve digits carry into the group before`, () => {
      const S = "0a0a0a0a-0a0a-4a0a-8a0a-fffffffffffe", R = "5b5b5b5b-5b5b-4b5b-bfff-ffffffffffff";
      const want = ["0a0a0a0a-0a0a-4a0a-8a0a-fffffffffffe", "0a0a0a0a-0a0a-4a0a-8a0a-ffffffffffff",
                    "0a0a0a0a-0a0a-4a0a-8a0b-000000000000", "0a0a0a0a-0a0a-4a0a-8a0b-000000000001"];
      const c = make(S), r = make(R);
      assert.equal(c.generateDocumentUniqueId(), want[0]);
      assert.equal(c.generateDocumentUniqueId(), want[1]);
      assert.equal(c.generateDocumentUniqueId(), want[2]);
      for (let round = 0; round < 2; round++)      // made, then made again
        assert.deepEqual([-1, -2, -3].map((id) => c.decompress(id)), want.slice(0, 3));
      c.generateCompressedId();
      assert.equal(c.decompress(-4), want[3]);
      r.generateCompressedId(); r.generateCompressedId();
      const range = c.takeNextCreationRange(), rr = r.takeNextCreationRange();
      for (const x of [c, r]) { x.finalizeCreationRange(range); x.finalizeCreationRange(rr); }
      const base = c.normalizeToSessionSpace(-1, R);     // r's first final
      for (const x of [c, r]) {
        assert.deepEqual([0, 1, 2, 3].map((f) => x.decompress(f)), want);
        assert.deepEqual([x.decompress(base), x.decompress(base + 1)],
                         [R, "5b5b5b5b-5b5b-4b5c-8000-000000000000"]);
      }
      assert.equal(c.recompress(want[2]), -3);
      assert.equal(r.recompress(want[2]), 2);
    });

    test(`${name}: recompress reads UUIDs in either case, and refuses what is not hex`, () => {
      const c = make(A);
      const ids = [c.generateCompressedId(), c.generateCompressedId()];
      c.finalizeCreationRange(c.takeNextCreationRange());
      const u = c.decompress(ids[1]);
      assert.equal(c.recompress(u.toUpperCase()), ids[1]);
      assert.equal(c.tryRecompress(u.slice(0, 20) + u.slice(20).toUpperCase()), ids[1]);
      assert.equal(c.recompress(u.replace(/-/g, "")), ids[1]);         // not the canonical shape
      assert.equal(c.tryRecompress("0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0fff"), undefined);
      throwsMsg(() => c.recompress("0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0fff"), "Could not recompress.");
      for (const bad of ["0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0g", "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0\u00e1", "0a0a0a0a-0a0a-4a0a-8a0a+0a0a0a0a0a0b"])
        assert.throws(() => c.recompress(bad), (e) => e instanceof SyntaxError &&
                      e.message === `Cannot convert 0x${bad.replace(/-/g, "")} to a BigInt`);
    });

    test(`${name}: every member works through a Proxy`, () => {
      // a plain Proxy, and one that forwards to a compressor held elsewhere
      // (the reference's test utilities' kind)
      const c = make(A);
      const p = new Proxy(c, {});
      const held = make(B);
      const q = new Proxy({}, {
        get: (_, k) => held[k],
        set: (_, k, v) => { held[k] = v; return true; },
      });
      for (const x of [p, q]) {
        x.nextRequestedClusterSize = 3;
        assert.equal(x.nextRequestedClusterSize, 3);
        const ids = [x.generateCompressedId(), x.generateCompressedId()];
        assert.deepEqual(ids, [-1, -2]);
        const r = x.takeNextCreationRange();
        x.finalizeCreationRange(r);
        assert.deepEqual([x.generateCompressedId(), x.generateCompressedId()], [2, 3]);
        assert.equal(x.normalizeToOpSpace(-2), 1);
        assert.equal(x.normalizeToSessionSpace(1, x.localSessionId), -2);
        assert.equal(x.tryNormalizeToSessionSpaceWithoutSession(1), -2);
        assert.equal(x.recompress(x.decompress(-2)), -2);
        assert.equal(x.tryRecompress(x.decompress(3)), 3);
        assert.equal(typeof x.generateDocumentUniqueId(), "number");
        x.resetUnfinalizedCreationRange();
        assert.equal(x.takeUnfinalizedCreationRange().ids.count, 3);
        const blob = x.serialize(true);
        if (x === p) {               // q's target has no "serialize": 0xced
          assert.equal(P.serializeIdCompressor(x, true), blob);
          assert.equal(P.toIdCompressorWithCore(x), x);
        } else throwsMsg(() => P.toIdCompressorWithCore(x), "0xced");
        assert.equal(P.deserializeIdCompressor(blob).serialize(true), blob);
        x.beginGhostSession("e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7", () => x.generateCompressedId());
      }
    });

    test(`${name}: a blob of an unknown version`, () => {
      const blob = (v) => btoa(String.fromCharCode(...new Uint8Array(new Float64Array([v, 0, 0, 0]).buffer)));
      for (const v of [-1, 0, 2.5, 3, NaN, Infinity, -Infinity, 1e20])
        throwsMsg(() => P.deserializeIdCompressor(blob(v), B), "Unknown IdCompressor serialized version.");
      throwsMsg(() => P.deserializeIdCompressor(blob(1), B), "IdCompressor version 1.0 is no longer supported.");
    });

    test(`${name}: toIdCompressorWithCore and deserialize assert as the reference`, () => {
      throwsMsg(() => P.toIdCompressorWithCore({}), "0xced");
      const c = make(A);
      const blob = c.serialize(true);
      throwsMsg(() => P.deserializeIdCompressor(blob, undefined, new TU.MockLogger()), "0xc2d");
    });

    test(`${name}: the out-of-order error is a LoggingError with telemetry properties`, () => {
      const c = make(A);
      c.generateCompressedId();
      c.takeNextCreationRange();
      c.generateCompressedId();
      const r = c.takeNextCreationRange();
      let e;
      try { c.finalizeCreationRange(r); } catch (x) { e = x; }
      assert.ok(e instanceof Error);
      assert.equal(e.name, "Error");
      assert.equal(e.constructor.name, "LoggingError");
      assert.equal(e.message, "Ranges finalized out of order");
      assert.equal(e.expectedStart, -1);
      assert.equal(e.actualStart, -2);
      assert.ok(TU.LoggingError.typeCheck(e) && TU.isILoggingError(e));
      const props = e.getTelemetryProperties();
      assert.deepEqual(Object.keys(props), ["expectedStart", "actualStart", "stack", "message", "errorInstanceId"]);
      assert.equal(props.expectedStart, -1);
      assert.equal(props.message, "Ranges finalized out of order");
      assert.match(props.errorInstanceId, uuidRe);
      assert.deepEqual(Object.keys(e), ["omitPropsFromLogging", "cause", "_errorInstanceId", "expectedStart", "actualStart"]);
      // Fluid's loggers read it as they read the reference's
      const mock = new TU.MockLogger();
      TU.createChildLogger({ logger: mock, namespace: "App" }).sendErrorEvent({ eventName: "Failed" }, e);
      const [ev] = mock.events;
      assert.equal(ev.eventName, "App:Failed");
      assert.equal(ev.expectedStart, -1);
      assert.equal(ev.actualStart, -2);
      assert.equal(ev.error, "Ranges finalized out of order");
    });

    test(`${name}: stable IDs`, () => {
      assert.ok(P.isStableId(A));
      assert.ok(!P.isStableId("0a0a0a0a-0a0a-5a0a-8a0a-0a0a0a0a0a0a"));
      assert.ok(!P.isStableId("nope"));
      assert.equal(P.toIdCompressorWithCore(make(A)).localSessionId, A);
    });
  }

  // Telemetry: the same script on the reference and on ours, with the same
  // loggers; the events each logger received must be the same, property by
  // property and in order (errorInstanceId and stack aside)
  function script(P, logger, deserializeLogger) {
    const a = P.createIdCompressor(A, logger), b = P.createIdCompressor(B);
    a.nextRequestedClusterSize = 2;
    b.nextRequestedClusterSize = 1;
    const both = (r) => { a.finalizeCreationRange(r); b.finalizeCreationRange(r); };
    a.serialize(false);                          // empty
    a.generateCompressedId();
    both(a.takeNextCreationRange());             // first cluster, status 0/1
    for (let i = 0; i < 3; i++) a.generateCompressedId();   // 2 eager, 1 local
    a.generateDocumentUniqueId();                // a local's UUID
    both(a.takeNextCreationRange());             // expansion, status 2/2
    b.generateCompressedId();
    both(b.takeNextCreationRange());             // b's cluster after a's
    for (let i = 0; i < 9; i++) a.generateCompressedId();
    both(a.takeNextCreationRange());             // a new cluster
    a.beginGhostSession("e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7", () => {});
    a.serialize(false);
    a.beginGhostSession("e7e7e7e7-e7e7-4e7e-be7e-e7e7e7e7e7e7", () => a.generateCompressedId());
    a.serialize(true);
    a.serialize(false);
    b.generateCompressedId();
    a.finalizeCreationRange(b.takeNextCreationRange());   // remote: no event
    a.generateCompressedId();
    const taken = a.takeNextCreationRange();
    a.finalizeCreationRange({ sessionId: A });   // no ids: no event
    try { a.finalizeCreationRange({ ...taken, ids: { ...taken.ids, firstGenCount: 99 } }); } catch { /* no event */ }
    a.finalizeCreationRange(taken);
    const d = P.deserializeIdCompressor(a.serialize(true), deserializeLogger);
    d.generateCompressedId();
    d.finalizeCreationRange(d.takeNextCreationRange());
    d.serialize(false);
    const j = P.deserializeIdCompressor(a.serialize(false), "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5c", deserializeLogger);
    j.serialize(false);
  }
  const strip = (events) => events.map(([e, level]) => {
    const { errorInstanceId, stack, ...rest } = e;
    return [rest, level];
  });
  class Recorder {
    constructor(minLogLevel) { this.events = []; this.minLogLevel = minLogLevel; }
    send(e, level) { this.events.push([{ ...e }, level]); }
  }

  test("telemetry: the reference's events, names and properties, reach a base logger", () => {
    const got = {};
    for (const [name, P] of Object.entries(impls)) {
      const base = new Recorder(), ext = new Recorder();
      script(P, base, TU.createChildLogger({ logger: ext }));
      got[name] = [strip(base.events), strip(ext.events)];
    }
    assert.ok(got.reference[0].length >= 10, `the reference sent ${got.reference[0].length} events`);
    const names = new Set(got.reference[0].map(([e]) => e.eventName));
    for (const n of ["FirstCluster", "NewCluster", "ClusterExpansion", "IdCompressorStatus", "SerializedIdCompressorSize"])
      assert.ok(names.has("RuntimeIdCompressor:" + n), n);
    assert.deepEqual(got.wasm[0], got.reference[0]);
    assert.ok(got.reference[1].length >= 3);
    assert.deepEqual(got.wasm[1], got.reference[1]);
  });

  test("telemetry: Fluid's child loggers (namespace, properties) and MockLogger", () => {
    const got = {};
    for (const [name, P] of Object.entries(impls)) {
      const mock = new TU.MockLogger(), ext = new TU.MockLogger();
      const child = TU.createChildLogger({ logger: mock, namespace: "Runtime", properties: { all: { docId: "d1" } } });
      script(P, child, TU.createChildLogger({ logger: ext, namespace: "Loader" }));
      got[name] = [mock.events, ext.events].map((ev) => ev.map(({ errorInstanceId, ...e }) => e));
    }
    assert.ok(got.reference[0].every((e) => e.eventName.startsWith("Runtime:RuntimeIdCompressor:") && e.docId === "d1"));
    assert.deepEqual(got.wasm, got.reference);
  });

  test("telemetry: a logger's minLogLevel above essential hears nothing, as the reference's", () => {
    for (const [name, P] of Object.entries(impls)) {
      const quiet = new Recorder(40);
      script(P, quiet, TU.createChildLogger({ logger: new Recorder() }));
      assert.equal(quiet.events.length, 0, name);
    }
  });
}
