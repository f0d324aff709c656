// idc.js: @idscheme/id-compressor's API over the WebAssembly module
// (idcompressor.wasm: idscheme's C port, idcompressor/, with glue.c), with
// the public API, results, bytes, errors and telemetry of
// @fluidframework/id-compressor 3.1.0.  It uses no API of node or of a
// browser but WebAssembly, crypto.getRandomValues and TextEncoder: the
// entry points (index.js for node, browser.js for the rest) load the
// module and hand it to setup(), with faster text helpers where they have
// them.
//
// Text crosses into linear memory through one scratch buffer, numbers as
// doubles; a compressor is a pointer, freed by dispose() or by a
// FinalizationRegistry.  A compressor keeps its state in ordinary
// properties (no #private fields), so that it works through a Proxy as
// the reference's does.

let W = null;                   // the module's exports
let heap, dbl, scratch = 0;     // linear memory, the scratch as doubles
// the exports called on hot paths, as module bindings
let w_generate, w_eager, w_generate_n, w_normalize_to_op_space,
    w_normalize_to_session_space, w_try_normalize_without_session,
    w_decompress, w_try_recompress, w_finalize_range, w_finalize_fits,
    w_recompress_words;

// Views of linear memory, made again when it grows (glue.c's module tells
// us: emscripten_notify_memory_growth)
function views() {
  heap = new Uint8Array(W.memory.buffer);
  dbl = new Float64Array(W.memory.buffer, scratch, 8192);
}

// --------------------------------------------------------------- text
// Text in: UTF-8 into the scratch, its byte count out.  Session IDs and
// UUIDs are ASCII, and any other character becomes bytes from 0x80 up,
// which the C port refuses as the reference refuses the character.  Its
// trailing white space is BigInt's too (idc_parse).
const MAXTEXT = 4096;
let encoder = null, putText = null;
function put(s) {
  const n = s.length;
  if (n > MAXTEXT) throw new Error("text too long: " + n + " characters");
  if (putText !== null) return putText(heap, scratch, s);
  const h = heap, p = scratch;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2), d = s.charCodeAt(i + 3);
    if ((a | b | c | d) > 127) return putUtf8(s, i);
    h[p + i] = a; h[p + i + 1] = b; h[p + i + 2] = c; h[p + i + 3] = d;
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return putUtf8(s, i);
    h[p + i] = c;
  }
  return n;
}
function putUtf8(s, from) {
  encoder ??= new TextEncoder();
  return from + encoder.encodeInto(s.slice(from),
                                   heap.subarray(scratch + from, scratch + 3 * s.length)).written;
}
// Text out: a UUID's 36 ASCII characters (the node entry point gives a
// faster one: Buffer#latin1Slice)
let uuidAt = (p) => {
  const h = heap;
  return String.fromCharCode(h[p], h[p + 1], h[p + 2], h[p + 3], h[p + 4], h[p + 5],
    h[p + 6], h[p + 7], h[p + 8], h[p + 9], h[p + 10], h[p + 11], h[p + 12],
    h[p + 13], h[p + 14], h[p + 15], h[p + 16], h[p + 17], h[p + 18], h[p + 19],
    h[p + 20], h[p + 21], h[p + 22], h[p + 23], h[p + 24], h[p + 25], h[p + 26],
    h[p + 27], h[p + 28], h[p + 29], h[p + 30], h[p + 31], h[p + 32], h[p + 33],
    h[p + 34], h[p + 35]);
};
// A UUID in the form uuid(N + off), N a session's number: the last twelve
// digits are N's low 48 bits plus off, the rest N's, unless the sum
// carries past 48 bits.  hex12(x): twelve digits of x < 2^48, by 12-bit
// groups.
let HEX3 = null;
function hex12(x) {
  if (HEX3 === null) {
    HEX3 = [];
    for (let i = 0; i < 4096; i++) HEX3.push((i + 4096).toString(16).slice(1));
  }
  const hi = Math.floor(x / 16777216), lo = x - hi * 16777216;
  return HEX3[hi >>> 12] + HEX3[hi & 4095] + HEX3[lo >>> 12] + HEX3[lo & 4095];
}
// try_recompress of a UUID in its canonical shape (8-4-4-4-12 hex digits,
// either case), read here into the four 32-bit words of its digits, which
// cross as the call's arguments (w_recompress_words): the compressed ID,
// Infinity when not found, NaN for an error; null for any other text, which
// the C port reads as text (it reads this shape the same way: parse36).
// Two digits at a time: PAIR[c1 << 7 | c2] is their byte, or -1.
let PAIR = null;
// node's text in (Buffer#utf8Write) and the C port's parse beat the digits
// read here; where there is no such helper, the digits
let byDigits = true;
function pairs() {
  PAIR = new Int16Array(16384).fill(-1);
  const D = "0123456789abcdef0123456789ABCDEF";
  for (let i = 0; i < 32; i++)
    for (let j = 0; j < 32; j++) PAIR[D.charCodeAt(i) << 7 | D.charCodeAt(j)] = (i & 15) << 4 | (j & 15);
}
function recompressCanonical(h, s) {
  if (s.length !== 36 || s.charCodeAt(8) !== 45 || s.charCodeAt(13) !== 45 ||
      s.charCodeAt(18) !== 45 || s.charCodeAt(23) !== 45) return null;
  if (PAIR === null) pairs();
  const P = PAIR;
  let codes = 0;                        // the codes ORed: past 127, not ASCII
  const pair = (i) => {
    const a = s.charCodeAt(i), b = s.charCodeAt(i + 1);
    codes |= a | b;
    return P[(a << 7 | b) & 16383];
  };
  const b0 = pair(0), b1 = pair(2), b2 = pair(4), b3 = pair(6), b4 = pair(9), b5 = pair(11),
        b6 = pair(14), b7 = pair(16), b8 = pair(19), b9 = pair(21), b10 = pair(24), b11 = pair(26),
        b12 = pair(28), b13 = pair(30), b14 = pair(32), b15 = pair(34);
  // a byte of -1: not hex
  if ((b0 | b1 | b2 | b3 | b4 | b5 | b6 | b7 | b8 | b9 | b10 | b11 | b12 | b13 | b14 | b15) < 0 ||
      codes > 127) return null;
  return w_recompress_words(h, b0 << 24 | b1 << 16 | b2 << 8 | b3, b4 << 24 | b5 << 16 | b6 << 8 | b7,
                            b8 << 24 | b9 << 16 | b10 << 8 | b11, b12 << 24 | b13 << 16 | b14 << 8 | b15);
}
function textAt(p, n) {
  let s = "";
  for (let i = 0; i < n; i += 1024)
    s += String.fromCharCode.apply(null, heap.subarray(p + i, p + Math.min(n, i + 1024)));
  return s;
}

// Session IDs that calls name again and again (a range's, an op's origin
// session), each copied once into linear memory, NUL-terminated, and kept
// by its text: a document's few sessions recur on every op, and the copy
// in was most of such a call.  At most KEPT are kept; past that all are
// dropped and made again as they recur.
const KEPT = 256, kept = new Map();
function keep(s) {
  const p = kept.get(s);
  return p !== undefined ? p : keepNew(s);
}
function keepNew(s) {
  const n = put(s);                     // the text read as every text is
  if (kept.size === KEPT) {
    for (const q of kept.values()) W.w_release(q);
    kept.clear();
  }
  const p = W.w_keep(n);
  if (p === 0) throw new Error("out of memory");
  kept.set(s, p);
  return p;
}

// --------------------------------------------------------------- base64
// The blob's base64: standard, padded.  Decoding is node's Buffer's,
// lenient as the reference's (node's Buffer; in browsers its client-utils
// copies node's rules): characters that are not base64 are skipped, '-'
// and '_' read as '+' and '/', a '=' ends the text, a character's low byte
// is what is read; at most b64Length(text) bytes.  The node entry point
// uses Buffer itself; in browsers with Uint8Array's own base64 (Chrome
// 140, Firefox 133, Safari 18.2) that does text in the standard form.
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const UNB64 = new Uint8Array(256).fill(255);
for (let i = 0; i < 64; i++) UNB64[B64.charCodeAt(i)] = i;
UNB64[45] = 62; UNB64[95] = 63;         // '-', '_'
const NATIVE64 = typeof Uint8Array.prototype.toBase64 === "function" &&
                 typeof Uint8Array.prototype.setFromBase64 === "function";
const STANDARD64 = /^[A-Za-z0-9+/]*={0,2}$/;
let PAIRS = null;                       // 12 bits -> 2 characters
let b64Encode = NATIVE64 ? (h, p, n) => h.subarray(p, p + n).toBase64() : (h, p, n) => {
  if (PAIRS === null) {
    PAIRS = [];
    for (let i = 0; i < 4096; i++) PAIRS.push(B64[i >> 6] + B64[i & 63]);
  }
  const parts = [];
  let chunk = "", i = 0;
  for (; i + 3 <= n; i += 3) {
    const a = h[p + i], b = h[p + i + 1], c = h[p + i + 2];
    chunk += PAIRS[a << 4 | b >> 4] + PAIRS[(b & 15) << 8 | c];
    if (chunk.length >= 8192) { parts.push(chunk); chunk = ""; }
  }
  if (i < n) {
    const a = h[p + i], b = i + 1 < n ? h[p + i + 1] : 0;
    chunk += B64[a >> 2] + B64[(a & 3) << 4 | b >> 4] + (i + 1 < n ? B64[(b & 15) << 2] : "=") + "=";
  }
  parts.push(chunk);
  return parts.join("");
};
// node's Buffer.byteLength(text, "base64")
let b64Length = (s) => {
  let n = s.length;
  if (n > 0 && s.charCodeAt(n - 1) === 61) n--;
  if (n > 1 && s.charCodeAt(n - 1) === 61) n--;
  return (n * 3) >>> 2;
};
// node 20's base64 decoder (src/base64-inl.h): the bytes written at p, at
// most max.  Text in the standard form decodes as everywhere (natively
// where there is Uint8Array#setFromBase64); any other, by node's rules.
let b64Decode = (s, h, p, max) => {
  const len = s.length;
  if (len % 4 === 0 && STANDARD64.test(s)) {
    if (NATIVE64) return h.subarray(p, p + max).setFromBase64(s).written;
    let k = 0;
    const body = len - (s.endsWith("==") ? 4 : s.endsWith("=") ? 4 : 0);
    for (let i = 0; i < body; i += 4) {
      const v = UNB64[s.charCodeAt(i)] << 18 | UNB64[s.charCodeAt(i + 1)] << 12 |
                UNB64[s.charCodeAt(i + 2)] << 6 | UNB64[s.charCodeAt(i + 3)];
      h[p + k] = v >> 16; h[p + k + 1] = v >> 8; h[p + k + 2] = v;
      k += 3;
    }
    if (body < len) return k + b64Slow(s.slice(body), h, p + k, max - k);
    return k;
  }
  return b64Slow(s, h, p, max);
};
function b64Slow(s, h, p, max) {
  const len = s.length;
  let size = len;
  if (size < 2) return 0;
  if (s.charCodeAt(size - 1) === 61) { size--; if (s.charCodeAt(size - 1) === 61) size--; }
  const decoded = size > 1 ? ((size / 4) | 0) * 3 + (((size % 4) + 1) >> 1) : 0;
  const avail = Math.min(max, decoded);
  let i = 0, k = 0;
  for (;;) {
    // one group of four legal characters, skipping the rest
    let hi = 0, lo = 0, c;
    for (let j = 0; j < 4; j++) {
      for (;;) {
        if (i >= len) return k;
        c = s.charCodeAt(i) & 255;
        lo = UNB64[c];
        i++;
        if (lo < 64) break;
        if (c === 61 || i >= len) return k;
      }
      if (j === 1) { if (k >= avail) return k; h[p + k++] = (hi & 0x3f) << 2 | (lo & 0x30) >> 4; }
      else if (j === 2) { if (k >= avail) return k; h[p + k++] = (hi & 0x0f) << 4 | (lo & 0x3c) >> 2; }
      else if (j === 3) { if (k >= avail) return k; h[p + k++] = (hi & 0x03) << 6 | lo; }
      if (i >= len) return k;
      hi = lo;
    }
  }
}

// --------------------------------------------------------------- errors
// The reference's errors.  A failed assert's message is its code ("0x75a"),
// which the C port's message carries in parentheses; the others are the
// reference's errors, matched here to the condition the C port names: the
// class, and the message (a function of the C message's match and of the
// call's text argument where the reference quotes it).
function uuid4() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = b[6] & 0x0f | 0x40;
  b[8] = b[8] & 0x3f | 0x80;
  let s = "";
  for (let i = 0; i < 16; i++) {
    s += (b[i] + 256).toString(16).slice(1);
    if (i === 3 || i === 5 || i === 7 || i === 9) s += "-";
  }
  return s;
}
// a property value as Fluid's telemetry takes it (convertToBasePropertyType)
function baseProperty(x) {
  if (x !== null && typeof x === "object" && "value" in x && "tag" in x && typeof x.tag === "string")
    return { value: baseProperty(x.value), tag: x.tag };
  switch (typeof x) {
    case "string": case "number": case "boolean": case "undefined": return x;
    case "object": return JSON.stringify(x);
    default: return `INVALID PROPERTY (typed as ${typeof x})`;
  }
}
/** The reference's LoggingError (@fluidframework/telemetry-utils): an
 *  Error with telemetry properties, which Fluid's loggers read. */
export class LoggingError extends Error {
  constructor(message, props, omitPropsFromLogging = new Set()) {
    super(message);
    this.omitPropsFromLogging = omitPropsFromLogging;
    this.cause = undefined;
    this._errorInstanceId = uuid4();
    omitPropsFromLogging.add("omitPropsFromLogging");
    omitPropsFromLogging.add("_errorInstanceId");
    omitPropsFromLogging.add("cause");
    if (props) this.addTelemetryProperties(props);
  }
  get errorInstanceId() { return this._errorInstanceId; }
  overwriteErrorInstanceId(id) { this._errorInstanceId = id; }
  static typeCheck(o) {
    return typeof o === "object" && o !== null && typeof o.addTelemetryProperties === "function" &&
      typeof o.getTelemetryProperties === "function" && typeof o.errorInstanceId === "string";
  }
  addTelemetryProperties(props) {
    for (const [k, v] of Object.entries(props)) if (this[k] === undefined) this[k] = v;
  }
  getTelemetryProperties() {
    const out = {};
    for (const k of Object.keys(this)) {
      if (this.omitPropsFromLogging.has(k)) continue;
      out[k] = baseProperty(this[k]);
    }
    return { ...out, stack: this.stack, message: this.message, errorInstanceId: this._errorInstanceId };
  }
}
const ERRORS = [
  [/: unknown ID$/, Error, () => "Unknown ID"],
  [/: unknown op space ID$/, Error, () => "Unknown op space ID."],
  [/: no IDs have ever been finalized by session/, Error,
   () => "No IDs have ever been finalized by the supplied session."],
  [/: invalid ID to normalize$/, Error, () => "Invalid ID to normalize."],
  [/^deserialize: version 1 is no longer supported/, Error,
   () => "IdCompressor version 1.0 is no longer supported."],
  [/^deserialize: unknown version/, Error, () => "Unknown IdCompressor serialized version."],
  [/^deserialize: cannot resume existing session/, Error, () => "Cannot resume existing session."],
  [/^deserialize: [0-9]+ bytes is not a whole number of 8-byte words/, RangeError,
   () => "byte length of Float64Array should be a multiple of 8"],
  [/is not hexadecimal$/, SyntaxError,
   (m, text) => `Cannot convert 0x${text.replace(/-/g, "")} to a BigInt`],
];
// throws the error of the failed call; text: the call's text argument,
// for the messages that quote it
function fail(text) {
  const p = W.w_error();
  const msg = textAt(p, heap.indexOf(0, p) - p);
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
function check(ok, code) {               // the reference's assert
  if (!ok) throw new Error(code);
}

// C's %.<prec>g of x (glue.c's messages)
function fmtG(x, prec) {
  if (x !== x) return "nan";
  if (x === Infinity || x === -Infinity) return x < 0 ? "-inf" : "inf";
  if (x === 0) return 1 / x < 0 ? "-0" : "0";
  const P = prec === 0 ? 1 : prec;
  const [m, ex] = x.toExponential(P - 1).split("e"), X = Number(ex);
  const trim = (t) => t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t;
  if (X < -4 || X >= P)
    return trim(m) + "e" + (X < 0 ? "-" : "+") + (Math.abs(X) < 10 ? "0" : "") + Math.abs(X);
  return trim(x.toFixed(P - 1 - X));
}

// --------------------------------------------------------------- telemetry
// The reference wraps a logger given to createIdCompressor in a child
// logger (createChildLogger({ logger })), whose events reach the logger's
// send as { category: "generic", eventName, ...properties } at
// LogLevel.essential (30), unless the logger's minLogLevel is above it;
// a logger given to deserializeIdCompressor is a telemetry-utils logger,
// whose sendTelemetryEvent it calls with { eventName, ...properties }.
const ESSENTIAL = 30;
function baseSender(logger) {
  return (event) => {
    if (ESSENTIAL < (logger.minLogLevel ?? 20)) return;
    const out = { category: "generic", eventName: event.eventName };
    for (const k of Object.keys(event)) if (k !== "eventName") out[k] = baseProperty(event[k]);
    logger.send(out, ESSENTIAL);
  };
}
function extSender(logger) {
  if (typeof logger.sendTelemetryEvent === "function") return (event) => logger.sendTelemetryEvent(event);
  return baseSender(logger);
}

// --------------------------------------------------------------- the class
let ghostCallback = null, ghostError = null;
const live = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry((h) => W.w_free(h)) : null;

// a range the local session took (its ID is the compressor's)
function readRange(rc, sessionId) {
  if (rc < 0) fail();
  const d = dbl, nl = d[4];
  if (!d[0]) return { sessionId };
  const localIdRanges = [];
  for (let i = 0; i < nl; i++) localIdRanges.push([d[5 + 2 * i], d[6 + 2 * i]]);
  return { sessionId, ids: { firstGenCount: d[1], count: d[2],
    requestedClusterSize: d[3], localIdRanges } };
}

export class IdCompressor {
  static maxClusterSize = 2 ** 20;
  /** @internal use createIdCompressor or deserializeIdCompressor */
  constructor(h, sessionId, send) {
    // the compressor's WebAssembly state (0 once disposed)
    this._h = h;
    // Eager finals handed out here, without a call: _next up to _end, those
    // from _applied not yet applied to the C state (each changes only the
    // count of IDs made: ids_idc_eager).  Every other method applies them
    // first (_sync), so that the C state is as if each had been a call.
    this._next = 0;
    this._end = 0;
    this._applied = 0;
    // telemetry: the logger's sender, the local IDs made and the IDs made
    // in all at the last IdCompressorStatus event
    this._send = send;
    this._locals = 0;
    this._gens = 0;
    // A view of the finals, for normalizing a final to session space
    // without a call (_view): the finalized limit, and the finals of the
    // local session's clusters ([_lb[i], _le[i]) each, in order).  A final
    // below the limit and in no local cluster is its own session-space
    // form.  A view stays true as the compressor changes: the limit only
    // grows, and new local finals (a new cluster, an expansion) are never
    // below an older limit.
    this._fin = 0;
    this._lb = null;        // made at the first _view (a compressor made
    this._le = null;        // and dropped at once makes none of these)
    this._stale = true;     // the local clusters may have changed since
    // the end of the last local cluster in the view: a final in
    // [_top, _fin) is plain whatever happened since (a local cluster only
    // grows or starts at the allocated limit, which was at or above _fin)
    this._top = Infinity;
    // each session's UUID (by its index in the C port): its first 24
    // characters and its low 48 bits, for UUIDs made here (_uuid)
    this._pre = null;
    this._low = null;
    // the C port's index of each session text that ranges came with
    this._sid = null;
    // the text it was made with, else (resumed from a blob) the C port's
    this.localSessionId = sessionId ?? textAt(scratch, W.w_session(h));
    if (send !== undefined) this._gens = this._state()[3];
    if (live !== null) live.register(this, h, this);
  }
  _handle() {
    if (this._h === 0) throw new Error("IdCompressor: disposed");
    return this._h;
  }
  // Before a call that reads the state: the eager finals handed out are
  // applied (the room stays: reading changes nothing)
  _read() {
    const h = this._h;
    if (this._next === this._applied && h !== 0) return h;
    if (h === 0) throw new Error("IdCompressor: disposed");
    if (w_generate_n(h, this._next - this._applied) !== 0) fail();
    this._applied = this._next;
    return h;
  }
  // Before a call that may change the clusters: the room is asked again
  _sync() {
    const h = this._read();
    this._end = this._next;
    return h;
  }
  // the slow path of a generate: the C call, then the eager room after it
  _generate() {
    const h = this._sync();
    const room = w_eager(h);
    if (room > 0) {
      // kept as small integers where they are (V8 then adds without boxing)
      const first = dbl[0], f = first <= 0x3fffffff ? first | 0 : first;
      this._applied = f;
      this._next = f + 1;
      this._end = f + room;
      return f;
    }
    const id = w_generate(h);
    if (id !== id) fail();
    if (id < 0) this._locals++;
    return id;
  }
  // the local session's cluster count, last capacity and count, IDs made
  _state() {
    W.w_local_state(this._h);
    return [dbl[0], dbl[1], dbl[2], dbl[3]];
  }
  /** Frees the compressor's memory now (else when it is collected). */
  dispose() {
    if (this._h === 0) return;
    if (live !== null) live.unregister(this);
    W.w_free(this._h);
    this._h = 0;
    this._next = this._end = this._applied = 0;   // no eager final after it
  }
  get nextRequestedClusterSize() { return W.w_cluster_size(this._handle()); }
  set nextRequestedClusterSize(n) {
    if (W.w_set_cluster_size(this._sync(), n) !== 0) fail();
  }
  generateCompressedId() {
    const n = this._next;
    if (n < this._end) {
      this._next = n + 1;
      return n;
    }
    return this._generate();
  }
  generateDocumentUniqueId() {
    const n = this._next;
    if (n < this._end) {
      this._next = n + 1;
      return n;
    }
    const id = W.w_generate_unique(this._sync());
    if (id !== id) fail();
    if (heap[scratch] === 0) return id;
    this._locals++;
    return this._uuid(0, -id - 1);
  }
  takeNextCreationRange() {
    return readRange(W.w_take_next_range(this._sync()), this.localSessionId);
  }
  takeUnfinalizedCreationRange() {
    return readRange(W.w_take_unfinalized_range(this._sync()), this.localSessionId);
  }
  resetUnfinalizedCreationRange() {
    if (W.w_reset_unfinalized_range(this._sync()) !== 0) fail();
  }
  finalizeCreationRange(range) {
    const ids = range.ids;
    if (ids !== undefined) {
      // a session seen before, its range in its room: no text crosses, and
      // the local session's room for eager finals stays as it was
      const si = this._sid === null ? undefined : this._sid.get(range.sessionId);
      if (si !== undefined && (si !== 0 || this._send === undefined)) {
        const fin = w_finalize_fits(this._read(), si, ids.firstGenCount, ids.count,
                                    ids.requestedClusterSize);
        if (fin >= 0) {
          if (!this._stale) this._fin = fin;  // no cluster changed its room
          return;
        }
      }
    }
    const h = this._sync(), sid = keep(range.sessionId);
    const send = this._send;
    if (send !== undefined && ids !== undefined && range.sessionId === this.localSessionId)
      return this._finalizeLogged(h, sid, range);
    const d = dbl;                      // after keep, which may grow memory
    d[0] = ids === undefined ? 0 : 1;
    d[1] = ids ? ids.firstGenCount : 0;
    d[2] = ids ? ids.count : 0;
    d[3] = ids ? ids.requestedClusterSize : 0;
    if (w_finalize_range(h, sid) !== 0) fail(range.sessionId);
    if (dbl[5] >= 0) (this._sid ??= new Map()).set(range.sessionId, dbl[5]);
    // another session's range leaves the local clusters as they were: the
    // view of the finals takes the new finalized limit as it is
    if (range.sessionId !== this.localSessionId) { if (!this._stale) this._fin = dbl[4]; }
    else this._stale = true;
  }
  // a local range finalized with a logger: the reference's events
  _finalizeLogged(h, sid, range) {
    const ids = range.ids, before = this._state(), d = dbl;
    d[0] = 1;
    d[1] = ids.firstGenCount;
    d[2] = ids.count;
    d[3] = ids.requestedClusterSize;
    if (w_finalize_range(h, sid) !== 0) fail(range.sessionId);
    if (dbl[5] >= 0) (this._sid ??= new Map()).set(range.sessionId, dbl[5]);
    this._stale = true;
    const after = this._state(), send = this._send, sessionId = this.localSessionId;
    if (before[0] === 0)
      send({ eventName: "RuntimeIdCompressor:FirstCluster", sessionId });
    else if (after[0] > before[0])
      send({ eventName: "RuntimeIdCompressor:NewCluster", sessionId });
    else if (after[1] > before[1])
      send({ eventName: "RuntimeIdCompressor:ClusterExpansion", sessionId,
             previousCapacity: before[1], newCapacity: after[1],
             overflow: ids.count - (before[1] - before[2]) });
    const made = after[3] - this._gens;
    send({ eventName: "RuntimeIdCompressor:IdCompressorStatus",
           eagerFinalIdCount: made - this._locals, localIdCount: this._locals, sessionId });
    this._gens = after[3];
    this._locals = 0;
  }
  beginGhostSession(ghostSessionId, callback) {
    const h = this._sync(), prev = ghostCallback;
    ghostCallback = callback;
    ghostError = null;
    try {
      if (W.w_ghost_session(h, put(ghostSessionId)) !== 0) {
        if (ghostError !== null) throw ghostError;
        fail(ghostSessionId);
      }
    } finally { ghostCallback = prev; }
  }
  /** The reference's IdCompressor#startGhostSession (its test utilities'):
   *  a ghost session that no call ends. */
  startGhostSession(ghostSessionId) {
    if (W.w_ghost_start(this._sync(), put(ghostSessionId)) !== 0) fail(ghostSessionId);
  }
  // the view of the finals brought up to date
  _view() {
    const h = this._handle(), CHUNK = 4000;
    this._stale = false;
    if (this._lb === null) { this._lb = []; this._le = []; }
    for (;;) {
      const from = Math.max(0, this._lb.length - 1);
      W.w_final_view(h, from, CHUNK);
      const d = dbl, n = Math.min(d[1] - from, CHUNK);
      this._fin = d[0];
      this._lb.length = this._le.length = from;
      for (let i = 0; i < n; i++) {
        this._lb.push(d[2 + 2 * i]);
        this._le.push(d[2 + 2 * i] + d[3 + 2 * i]);
      }
      if (this._lb.length === d[1]) {
        this._top = this._le.length ? this._le[this._le.length - 1] : 0;
        return;
      }
    }
  }
  // whether final id (>= 0) is its own session-space form by the view
  _plainFinal(id) {
    if (id >= this._fin || this._stale) {
      if (this._h === 0) return false;
      this._view();
      if (id >= this._fin) return false;
    }
    const lb = this._lb, n = lb.length;
    if (n === 0 || id >= this._le[n - 1]) return true;   // above them all
    let lo = 0, hi = n;                  // the first local cluster above id
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lb[mid] <= id) lo = mid + 1; else hi = mid;
    }
    return lo === 0 || id >= this._le[lo - 1];
  }
  normalizeToOpSpace(id) {
    // a final is its own op-space form, unchecked (as the reference)
    if (id >= 0 && this._h !== 0) return id;
    const r = w_normalize_to_op_space(this._read(), id);
    if (r !== r) fail();
    return r;
  }
  normalizeToSessionSpace(id, originSessionId) {
    if (id >= this._top && id < this._fin && this._h !== 0) return id;
    if (id >= 0 && this._plainFinal(id) && this._h !== 0) return id;
    const h = this._read();
    // a final needs no origin: the session's text is not looked up
    const r = id >= 0 ? w_try_normalize_without_session(h, id)
                      : w_normalize_to_session_space(h, id, keep(originSessionId));
    if (r !== r) fail(originSessionId);
    return r;
  }
  tryNormalizeToSessionSpaceWithoutSession(id) {
    if (id >= this._top && id < this._fin && this._h !== 0) return id;
    if (id >= 0 && this._plainFinal(id) && this._h !== 0) return id;
    const r = w_try_normalize_without_session(this._read(), id);
    if (r !== r) fail();
    return heap[scratch] ? r : undefined;
  }
  decompress(id) {
    const si = w_decompress(this._read(), id);
    if (si < 0) fail();
    return this._uuid(si, dbl[5]);
  }
  // the UUID of session si plus off: made from the session's UUID (asked
  // of the C port once), or on a carry past the last group by the C port
  _uuid(si, off) {
    if (this._low === null) { this._pre = []; this._low = []; }
    const low = this._low[si];
    if (low !== undefined) {
      const x = low + off;
      if (x < 281474976710656) return this._pre[si] + hex12(x);
    } else {
      W.w_uuid_at(this._h, si, 0);
      const own = uuidAt(scratch);
      this._pre[si] = own.slice(0, 24);
      this._low[si] = parseInt(own.slice(24), 16);
      if (off === 0) return own;
    }
    W.w_uuid_at(this._h, si, off);
    return uuidAt(scratch);
  }
  recompress(uuid) {
    const r = this._recompress(uuid);
    if (r === Infinity) throw new Error("Could not recompress.");
    return r;
  }
  tryRecompress(uuid) {
    const r = this._recompress(uuid);
    return r === Infinity ? undefined : r;
  }
  // the compressed ID, or Infinity when not found
  _recompress(uuid) {
    const h = this._read();
    let r = byDigits ? recompressCanonical(h, uuid) : null;
    if (r === null) r = w_try_recompress(h, put(uuid));
    if (r !== r) fail(uuid);
    return r;
  }
  // the serialized bytes at a pointer (released by the caller): pointer,
  // length; the reference's SerializedIdCompressorSize event
  _serialized(withSession) {
    const p = W.w_serialize_bytes(this._read(), withSession ? 1 : 0);
    if (p === 0) fail();
    const n = dbl[0];
    if (this._send !== undefined) {
      const words = new Float64Array(heap.buffer, p, 4);
      this._send({ eventName: "RuntimeIdCompressor:SerializedIdCompressorSize",
                   size: n, clusterCount: words[3], sessionCount: words[2] });
    }
    return p;
  }
  /** The serialized bytes (the string form is their base64). */
  serializeToBytes(withSession) {
    const p = this._serialized(withSession), n = dbl[0];
    const out = heap.slice(p, p + n);
    W.w_release(p);
    return out;
  }
  serialize(withSession) {
    const p = this._serialized(withSession), n = dbl[0];
    const s = b64Encode(heap, p, n);
    W.w_release(p);
    return s;
  }
  /** The reference's IdCompressor#equals: the same sessions and clusters,
   *  and with includeLocalState the same local session and local state. */
  equals(other, includeLocalState) {
    if (includeLocalState && this.localSessionId !== other.localSessionId) return false;
    return W.w_equals(this._read(), other._read(), includeLocalState ? 1 : 0) === 1;
  }
  /** The reference's IdCompressor.deserialize({ serialized, newSessionId?,
   *  logger? }) */
  static deserialize({ serialized, newSessionId, logger }) {
    return newSessionId === undefined ? deserializeIdCompressor(serialized, logger)
                                      : deserializeIdCompressor(serialized, newSessionId, logger);
  }
}

// --------------------------------------------------------------- functions
/** A random version 4 UUID: a new session's ID. */
export function createSessionId() { return uuid4(); }
/** A random version 4 UUID. */
export function generateStableId() { return uuid4(); }
export function isStableId(str) {
  return str.length === 36 && W.w_is_stable_id(put(str)) === 1;
}
export function assertIsStableId(str) {
  check(isStableId(str), "0x4a3");       // the reference's assert
  return str;
}
export function assertIsSessionId(str) { return assertIsStableId(str); }

function make(sessionId, send) {
  const h = W.w_new(put(sessionId));
  if (h === 0) fail(sessionId);
  return new IdCompressor(h, sessionId, send);
}

/** createIdCompressor(logger?) | createIdCompressor(sessionId, logger?) */
export function createIdCompressor(sessionIdOrLogger, loggerOrUndefined) {
  let sessionId, logger;
  if (sessionIdOrLogger === undefined) sessionId = createSessionId();
  else if (typeof sessionIdOrLogger === "string") {
    sessionId = sessionIdOrLogger;
    logger = loggerOrUndefined;
  } else {
    sessionId = createSessionId();
    logger = sessionIdOrLogger;
  }
  return make(sessionId, logger === undefined ? undefined : baseSender(logger));
}

/** deserializeIdCompressor(withSession, logger?) |
 *  deserializeIdCompressor(noSession, newSessionId, logger?) */
export function deserializeIdCompressor(serialized, sessionIdOrLogger, loggerOrUndefined) {
  let sid, logger;
  if (typeof sessionIdOrLogger === "string") {
    sid = sessionIdOrLogger;
    logger = loggerOrUndefined;
  } else {
    check(loggerOrUndefined === undefined, "0xc2d");
    logger = sessionIdOrLogger;
  }
  if (typeof serialized !== "string")
    throw new TypeError("deserializeIdCompressor: the serialized compressor must be a string");
  const text = serialized;
  const max = b64Length(text);
  const p = W.w_alloc(max + 8);
  if (p === 0) throw new Error("out of memory");
  let h;
  try {
    const n = b64Decode(text, heap, p, max);
    h = W.w_deserialize_bytes(p, n, sid === undefined ? -1 : put(sid));
  } finally {
    W.w_release(p);
  }
  if (h === 0) fail(sid);
  return new IdCompressor(h, sid, logger === undefined ? undefined : extSender(logger));
}

export function serializeIdCompressor(compressor, withSession) {
  const core = toIdCompressorWithCore(compressor);
  return withSession ? core.serialize(true) : core.serialize(false);
}
export function toIdCompressorWithCore(compressor) {
  check("serialize" in compressor, "0xced");
  return compressor;
}
export function isFinalId(id) { return id >= 0; }

/** Bytes of WebAssembly heap that live compressors hold (for monitoring and
 *  the lifecycle test): flat when compressors are disposed or collected. */
export function wasmHeapInUse() { return W.w_heap_in_use(); }

// --------------------------------------------------------------- loading
/** The module's imports (glue.c's) */
export function imports() {
  return {
    env: {
      js_random: (p, n) => { crypto.getRandomValues(heap.subarray(p, p + n)); },
      js_ghost: () => {
        try { ghostCallback(); return 0; } catch (e) { ghostError = e; return 1; }
      },
      js_fmt_g: (x, prec, out, cap) => {
        const s = fmtG(x, prec), n = Math.min(s.length, cap - 1);
        for (let i = 0; i < n; i++) heap[out + i] = s.charCodeAt(i);
        return n;
      },
      emscripten_notify_memory_growth: () => views(),
    },
  };
}

/** Binds the package to an instance of idcompressor.wasm made with
 *  imports(); hooks: faster text helpers (putText(heap, p, text): its
 *  UTF-8 at p, at most 3 bytes a character, and their count; uuidAt(heap,
 *  p); b64Encode(heap, p, n); b64Length(text); b64Decode(text, heap, p,
 *  max)) */
export function setup(instance, hooks = {}) {
  W = instance.exports;
  W._initialize?.();
  scratch = W.w_scratch();
  views();
  ({ w_generate, w_eager, w_generate_n, w_normalize_to_op_space,
     w_normalize_to_session_space, w_try_normalize_without_session,
     w_decompress, w_try_recompress, w_finalize_range, w_finalize_fits,
     w_recompress_words } = W);
  if (hooks.putText) { putText = hooks.putText; byDigits = false; }
  if (hooks.uuidAt) { const f = hooks.uuidAt; uuidAt = (p) => f(heap, p); }
  if (hooks.b64Encode) b64Encode = hooks.b64Encode;
  if (hooks.b64Length) b64Length = hooks.b64Length;
  if (hooks.b64Decode) b64Decode = hooks.b64Decode;
}
