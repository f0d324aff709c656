// api.mjs (node --test): the public API as an application uses it,
// written from the package's documented behaviour, run against the
// reference (@fluidframework/id-compressor 3.1.0, spec/idcompressor/node)
// and against this package (IDC_WASM: wasm/build.sh OUTDIR) alike: every
// test must pass on both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const req = createRequire(path.join(root, "spec/idcompressor/node/package.json"));
const impls = {
  reference: await import(pathToFileURL(req.resolve("@fluidframework/id-compressor")).href),
  wasm: await import(pathToFileURL(path.join(process.env.IDC_WASM, "index.mjs")).href),
};
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

  test(`${name}: stable IDs`, () => {
    assert.ok(P.isStableId(A));
    assert.ok(!P.isStableId("0a0a0a0a-0a0a-5a0a-8a0a-0a0a0a0a0a0a"));
    assert.ok(!P.isStableId("nope"));
    assert.equal(P.toIdCompressorWithCore(make(A)).localSessionId, A);
  });
}
