// index.mjs: @idscheme/id-compressor, the id-compressor of idscheme's C
// port (idcompressor/) built to WebAssembly (glue.c, build.sh), with the
// public API, results, bytes and errors of @fluidframework/id-compressor
// 3.1.0: an application swaps one import for the other.  Node.js 20+.
//
// Text crosses into linear memory through one scratch buffer (latin1:
// session IDs and UUIDs are ASCII), numbers as doubles; a compressor is a
// pointer, freed by dispose() or by a FinalizationRegistry.
import { createRequire } from "node:module";

const Factory = createRequire(import.meta.url)("./idcompressor-wasm.cjs");

const M = await Factory();
const scratch = M._w_scratch();
let heap = M.HEAPU8, heapBuf = Buffer.from(heap.buffer),
    dbl = new Float64Array(heap.buffer, scratch, 8192);
// the views of linear memory, made again when it has grown (growing
// detaches the old buffer: its views' length drops to 0, a cheap test)
function mem() {
  if (heap.length === 0) {
    heap = M.HEAPU8;
    heapBuf = Buffer.from(heap.buffer);
    dbl = new Float64Array(heap.buffer, scratch, 8192);
  }
  return heap;
}

// text in: UTF-8 into the scratch, its byte count out.  Session IDs and
// UUIDs are ASCII, and any other character becomes bytes from 0x80 up,
// which the C port refuses as the package refuses the character (latin1,
// 5-10 ns faster, kept only each character's low byte: "\u0130" read as
// "0").  Its trailing white space is BigInt's too (idc_parse).
function put(s) {
  const n = s.length;
  if (n > 4096) throw new Error("text too long: " + n + " characters");
  mem();
  return heapBuf.utf8Write(s, scratch, 3 * n);
}
// Session IDs that calls name again and again (a range's, an op's origin
// session), each copied once into linear memory, NUL-terminated, and kept
// by its text: a document's few sessions recur on every op, and the copy
// in was most of such a call.  At most KEPT are kept (of at most 4096
// characters: put's texts); past that all are dropped and made again as
// they recur.
const KEPT = 256, kept = new Map();
function keep(s) {
  const p = kept.get(s);
  return p !== undefined ? p : keepNew(s);
}
function keepNew(s) {
  const n = put(s);                     // the text read as every text is
  if (kept.size === KEPT) {
    for (const q of kept.values()) M._w_release(q);
    kept.clear();
  }
  const p = M._w_keep(n);
  if (p === 0) throw new Error("out of memory");
  kept.set(s, p);
  return p;
}
// text out: a UUID's 36 characters.  Buffer#latin1Slice made them in
// 30-45 ns, String.fromCharCode with 36 arguments in 42-52 (the builtin
// alone, with constant arguments, took 42): measured side by side in one
// run, node 20
function uuidAt(p) {
  if (heap.length === 0) mem();
  return heapBuf.latin1Slice(p, p + 36);
}
function textAt(p, n) {
  mem();
  return heapBuf.latin1Slice(p, p + n);
}
// The package's errors.  A failed assert's message is its code ("0x75a"),
// which the C port's message carries in parentheses; the others are the
// package's errors, matched here to the condition the C port names: the
// class, and the message (a function of the C message's match and of the
// call's text argument where the package quotes it).
class LoggingError extends Error {
  constructor(message, props) {
    super(message);
    this.name = "LoggingError";
    Object.assign(this, props);
    this.telemetryProps = props;
  }
}
const ERRORS = [
  [/: unknown ID$/, Error, () => "Unknown ID"],
  [/: unknown op space ID$/, Error, () => "Unknown op space ID."],
  [/: no IDs have ever been finalized by session/, Error,
   () => "No IDs have ever been finalized by the supplied session."],
  [/: invalid ID to normalize$/, Error, () => "Invalid ID to normalize."],
  [/^recompress: could not recompress/, Error, () => "Could not recompress."],
  [/^deserialize: version 1 is no longer supported/, Error,
   () => "IdCompressor version 1.0 is no longer supported."],
  [/^deserialize: unknown version/, Error, () => "Unknown IdCompressor serialized version."],
  [/^deserialize: cannot resume existing session/, Error, () => "Cannot resume existing session."],
  [/^deserialize: [0-9]+ bytes is not a whole number of 8-byte words/, RangeError,
   () => "byte length of Float64Array should be a multiple of 8"],
  [/is not hexadecimal$/, SyntaxError,
   (m, text) => `Cannot convert 0x${text.replace(/-/g, "")} to a BigInt`],
];
// the call's text argument, for the messages that quote it
function fail(text) {
  const p = M._w_error(), msg = textAt(p, mem().indexOf(0, p) - p);
  const code = /[(, ](0x[0-9a-f]{3,4})\)$/.exec(msg);
  if (code) throw new Error(code[1]);
  const order = /: ranges finalized out of order \(expected start (-?[0-9]+), actual start (-?[0-9]+)\)$/.exec(msg);
  if (order)
    throw new LoggingError("Ranges finalized out of order",
                           { expectedStart: Number(order[1]), actualStart: Number(order[2]) });
  for (const [re, Class, sentence] of ERRORS) {
    const m = re.exec(msg);
    if (m) throw new Class(sentence(m, text ?? ""));
  }
  throw new Error(msg);
}

// the scratch as doubles (ranges, lengths): 8-aligned, 64 KB
const doubles = () => (mem(), dbl);
// a range the local session took (its ID is the compressor's)
function readRange(rc, sessionId) {
  if (rc < 0) fail();
  const d = doubles(), nl = d[4];
  if (!d[0]) return { sessionId };
  const localIdRanges = [];
  for (let i = 0; i < nl; i++) localIdRanges.push([d[5 + 2 * i], d[6 + 2 * i]]);
  return { sessionId, ids: { firstGenCount: d[1], count: d[2],
    requestedClusterSize: d[3], localIdRanges } };
}

const live = new FinalizationRegistry((h) => M._w_free(h));
let ghostCallback = null, ghostError = null;
M.ghost = () => {
  try { ghostCallback(); return 0; } catch (e) { ghostError = e; return 1; }
};

export class IdCompressor {
  static maxClusterSize = 2 ** 20;
  #h;
  /** @internal */
  constructor(h, sessionId) {
    this.#h = h;
    // the text it was made with, else (resumed from a blob) the C port's
    this.localSessionId = sessionId ?? textAt(scratch, M._w_session(h));
    live.register(this, h, this);
  }
  // Eager finals handed out here, without a call: #next up to #end, those
  // from #applied not yet applied to the C state (each changes only the
  // count of IDs made: ids_idc_eager).  Every other method applies them
  // first (#sync), so that the C state is as if each had been a call.
  #next = 0;
  #end = 0;
  #applied = 0;
  #handle() {
    if (this.#h === 0) throw new Error("IdCompressor: disposed");
    return this.#h;
  }
  // Before a call that reads the state: the eager finals handed out are
  // applied (the room stays: reading changes nothing)
  #read() {
    const h = this.#h;
    if (this.#next === this.#applied && h !== 0) return h;
    if (h === 0) throw new Error("IdCompressor: disposed");
    if (M._w_generate_n(h, this.#next - this.#applied) !== 0) fail();
    this.#applied = this.#next;
    return h;
  }
  // Before a call that may change the clusters: the room is asked again
  #sync() {
    const h = this.#read();
    this.#end = this.#next;
    return h;
  }
  // the slow path of a generate: the C call, then the eager room after it
  #generate() {
    const h = this.#sync();
    const room = M._w_eager(h);
    if (room > 0) {
      // kept as small integers where they are (V8 then adds without boxing)
      const first = doubles()[0], f = first <= 0x3fffffff ? first | 0 : first;
      this.#applied = f;
      this.#next = f + 1;
      this.#end = f + room;
      return f;
    }
    const id = M._w_generate(h);
    if (id !== id) fail();
    return id;
  }
  /** Frees the compressor's memory now (else when it is collected). */
  dispose() {
    if (this.#h === 0) return;
    live.unregister(this);
    M._w_free(this.#h);
    this.#h = 0;
    this.#next = this.#end = this.#applied = 0;   // no eager final after it
  }
  get nextRequestedClusterSize() { return M._w_cluster_size(this.#handle()); }
  set nextRequestedClusterSize(n) {
    if (M._w_set_cluster_size(this.#sync(), n) !== 0) fail();
  }
  generateCompressedId() {
    const n = this.#next;
    if (n < this.#end) {
      this.#next = n + 1;
      return n;
    }
    return this.#generate();
  }
  generateDocumentUniqueId() {
    const n = this.#next;
    if (n < this.#end) {
      this.#next = n + 1;
      return n;
    }
    const id = M._w_generate_unique(this.#sync());
    if (id !== id) fail();
    return mem()[scratch] ? uuidAt(scratch + 1) : id;
  }
  takeNextCreationRange() {
    return readRange(M._w_take_next_range(this.#sync()), this.localSessionId);
  }
  takeUnfinalizedCreationRange() {
    return readRange(M._w_take_unfinalized_range(this.#sync()),
                     this.localSessionId);
  }
  resetUnfinalizedCreationRange() {
    if (M._w_reset_unfinalized_range(this.#sync()) !== 0) fail();
  }
  finalizeCreationRange(range) {
    const h = this.#sync(), sid = keep(range.sessionId), ids = range.ids;
    const d = doubles();                // after keep, which may grow memory
    d[0] = ids === undefined ? 0 : 1;
    d[1] = ids ? ids.firstGenCount : 0;
    d[2] = ids ? ids.count : 0;
    d[3] = ids ? ids.requestedClusterSize : 0;
    if (M._w_finalize_range(h, sid) !== 0) fail(range.sessionId);
  }
  beginGhostSession(ghostSessionId, callback) {
    const h = this.#sync(), prev = ghostCallback;
    ghostCallback = callback;
    ghostError = null;
    try {
      if (M._w_ghost_session(h, put(ghostSessionId)) !== 0) {
        if (ghostError !== null) throw ghostError;
        fail(ghostSessionId);
      }
    } finally { ghostCallback = prev; }
  }
  normalizeToOpSpace(id) {
    const r = M._w_normalize_to_op_space(this.#read(), id);
    if (r !== r) fail();
    return r;
  }
  normalizeToSessionSpace(id, originSessionId) {
    const h = this.#read();
    const r = M._w_normalize_to_session_space(h, id, keep(originSessionId));
    if (r !== r) fail(originSessionId);
    return r;
  }
  tryNormalizeToSessionSpaceWithoutSession(id) {
    const r = M._w_try_normalize_without_session(this.#read(), id);
    if (r !== r) fail();
    return mem()[scratch] ? r : undefined;
  }
  decompress(id) {
    if (M._w_decompress(this.#read(), id) < 0) fail();
    return uuidAt(scratch);
  }
  recompress(uuid) {
    const h = this.#read();
    const r = M._w_recompress(h, put(uuid));
    if (r !== r) fail(uuid);
    return r;
  }
  tryRecompress(uuid) {
    const h = this.#read();
    const r = M._w_try_recompress(h, put(uuid));
    if (r !== r) fail(uuid);
    return mem()[scratch] ? r : undefined;
  }
  serializeToBytes(withSession) {
    const p = M._w_serialize_bytes(this.#read(), withSession ? 1 : 0);
    if (p === 0) fail();
    const n = doubles()[0], out = mem().slice(p, p + n);
    M._w_release(p);
    return out;
  }
  // The bytes, base64 by node's own encoder (faster than the C port's in
  // WebAssembly): the same text as the C port's serialize
  serialize(withSession) {
    const p = M._w_serialize_bytes(this.#read(), withSession ? 1 : 0);
    if (p === 0) fail();
    const n = doubles()[0];
    const s = heapBuf.toString("base64", p, p + n);
    M._w_release(p);
    return s;
  }
}

// A random version 4 UUID: a new session's ID, or a stable ID.
export function createSessionId() { return crypto.randomUUID(); }
export function generateStableId() { return crypto.randomUUID(); }
export function isStableId(str) {
  return str.length === 36 && M._w_is_stable_id(put(str)) === 1;
}
export function assertIsStableId(str) {
  if (!isStableId(str)) throw new Error("0x4a3");    // the package's assert
  return str;
}
export function assertIsSessionId(str) { return assertIsStableId(str); }

function make(sessionId) {
  const h = M._w_new(sessionId === undefined ? -1 : put(sessionId));
  if (h === 0) fail(sessionId);
  return new IdCompressor(h, sessionId);
}

// createIdCompressor(logger?) | createIdCompressor(sessionId, logger?):
// a logger is accepted and not used (telemetry-free)
export function createIdCompressor(sessionIdOrLogger) {
  return make(typeof sessionIdOrLogger === "string" ? sessionIdOrLogger
                                                    : createSessionId());
}

// The text decoded by node's base64 decoder, as the package decodes it
// (it skips what is not base64), then read by the C port.
export function deserializeIdCompressor(serialized, sessionIdOrLogger) {
  const max = Buffer.byteLength(serialized, "base64");
  const p = M._w_alloc(max + 8);
  if (p === 0) throw new Error("out of memory");
  mem();
  const n = heapBuf.write(serialized, p, max, "base64");
  const sid = typeof sessionIdOrLogger === "string" ? sessionIdOrLogger : undefined;
  const h = M._w_deserialize_bytes(p, n, sid === undefined ? -1 : put(sid));
  M._w_release(p);
  if (h === 0) fail(sid);
  return new IdCompressor(h, sid);
}

export function serializeIdCompressor(compressor, withSession) {
  return compressor.serialize(withSession);
}
export function toIdCompressorWithCore(compressor) { return compressor; }
export function isFinalId(id) { return id >= 0; }

/** Bytes of WebAssembly heap that live compressors hold (for monitoring and
 *  the lifecycle test): flat when compressors are disposed or collected. */
export function wasmHeapInUse() { return M._w_heap_in_use(); }
