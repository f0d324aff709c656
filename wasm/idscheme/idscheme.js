// idscheme.js: the npm package idscheme's API over the WebAssembly module
// (idscheme.wasm: the library's core, schemes and inspect, with glue.c),
// in JavaScript's idiom, mirroring the Lua module (docs/API.md).
//
// This file is the body of every entry point: build.sh puts it, with a
// loader and an export list, into index.js (node, ESM), index.cjs (node,
// CommonJS) and browser.js (everywhere else).  It uses no API of node or
// of a browser but WebAssembly, crypto.getRandomValues, TextEncoder,
// TextDecoder, Date and performance; it has no import and no export.
//
// Text crosses into linear memory through one scratch buffer (UTF-8), an
// ID's value through another (its big-endian bytes), numbers as doubles
// or as 32-bit halves where 64 bits matter.  A scheme is a pointer into
// the registry (never freed); a generator is a pointer, freed by close()
// or by a FinalizationRegistry.

let W = null;                   // the module's exports, once loaded
let heap, u32, f64;             // views of linear memory
let scratch = 0, valp = 0, recp = 0;
// hot exports, as bindings
let w_decode, w_encode, w_decode_time, w_time, w_gen_next, w_fields, w_inspect, w_best_flags;

function views() {
  heap = new Uint8Array(W.memory.buffer);
  u32 = new Uint32Array(W.memory.buffer);
  f64 = new Float64Array(W.memory.buffer);
}

// ------------------------------------------------------------- errors
const CODES = {
  [-1]: "EINVAL", [-2]: "ERANGE", [-3]: "ECLOCK", [-4]: "EFORK", [-5]: "ENOENT",
  [-6]: "EEXIST", [-7]: "ENOMEM", [-8]: "ELEASE", [-9]: "ETIME", [-10]: "EINTR",
};

/** The library's errors: message as the C library words it (naming the
 *  argument and quoting the input), code its IDS_ code without the
 *  prefix ("EINVAL", "ERANGE", "ENOENT", ...). */
class IdschemeError extends Error {
  constructor(message, code = "EINVAL") {
    super(message);
    this.name = "IdschemeError";
    this.code = code;
  }
}

// The C library's last message, thrown (prefix: who says it)
function fail(code, prefix = "") {
  const p = W.w_error();
  let n = 0;
  while (heap[p + n] !== 0) n++;
  throw new IdschemeError(prefix + textAt(p, n), CODES[code] ?? CODES[W.w_error_code()] ?? "EINVAL");
}

// A value as a message shows it: strings quoted (at most 40 characters,
// as the C library's quotes), the rest by type
function show(x) {
  if (typeof x === "string") return "'" + (x.length > 40 ? x.slice(0, 40) + "..." : x) + "'";
  if (typeof x === "bigint") return x + "n";
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (x instanceof Uint8Array) return "a Uint8Array";
  if (typeof x === "object") return "an object";
  return typeof x === "number" || typeof x === "boolean" ? String(x) : typeof x;
}
function argError(msg, code = "EINVAL") { return new IdschemeError(msg, code); }

function ready() {
  if (W === null) throw new IdschemeError("idscheme: not loaded yet: await init() first (or initSync(bytes))", "EINVAL");
}

// --------------------------------------------------------------- text
// Text in: UTF-8 into the scratch, its byte count out.  IDs are ASCII;
// any other character goes through TextEncoder (FLUID's ƒ and emoji).
// at most 3 bytes of UTF-8 a UTF-16 unit: MAXTEXT units fill the scratch
const SCRATCH = 65536, MAXTEXT = 21844;
let encoder = null, decoder = null;
function put(s, at = 0) {
  if (typeof s !== "string") throw new TypeError("idscheme: a string expected, got " + show(s));
  const n = s.length;
  if (n > MAXTEXT) throw argError(`text of ${n} characters is too long (at most ${MAXTEXT}): ${show(s)}`, "ERANGE");
  const h = heap, p = scratch + at;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) {
      encoder ??= new TextEncoder();
      return i + encoder.encodeInto(s.slice(i), h.subarray(p + i, p + i + 3 * (n - i))).written;
    }
    h[p + i] = c;
  }
  return n;
}
// Text out: n bytes at p, as UTF-8
function textAt(p, n) {
  decoder ??= new TextDecoder();
  return decoder.decode(heap.subarray(p, p + n));
}
// What the glue wrote at the scratch (w_encode, w_gen_next): its length,
// flagged where a byte is not ASCII.  ASCII is read by asciiAt: node's
// Buffer#latin1Slice where there is one (index.js), else by
// String.fromCharCode, eight characters at a time.
const NONASCII = 1 << 20;
function outText(n) {
  return n & NONASCII ? textAt(scratch, n & ~NONASCII) : asciiAt(scratch, n);
}
let asciiAt = (p, n) => {
  const h = heap, C = String.fromCharCode;
  let s = "", i = 0;
  for (; i + 8 <= n; i += 8)
    s += C(h[p + i], h[p + i + 1], h[p + i + 2], h[p + i + 3], h[p + i + 4], h[p + i + 5], h[p + i + 6], h[p + i + 7]);
  for (; i < n; i++) s += C(h[p + i]);
  return s;
};

// 64-bit integers into two 32-bit halves (lo unsigned, hi signed) from a
// number with an integer value or a BigInt; null if it is neither or
// does not fit int64/uint64 (signed: from -2^63; else up to 2^64 - 1).
function halves(x) {
  if (typeof x === "number") {
    if (!Number.isInteger(x) || Math.abs(x) > 18446744073709551615) return null;
    x = BigInt(x);
  }
  else if (typeof x !== "bigint") return null;
  if (x < -9223372036854775808n || x > 18446744073709551615n) return null;
  const u = BigInt.asUintN(64, x);
  return [Number(u & 0xffffffffn), Number(BigInt.asIntN(32, u >> 32n))];
}

// ------------------------------------------------------------- schemes
const PTR = Symbol("idscheme.pointer");
const byPtr = new Map();        // scheme pointer -> Scheme
let defined = 0;                // schemes defined here (the inspector's age)

function describe(p) {
  const n = W.w_describe(p);
  if (n < 0) fail(n);
  return JSON.parse(textAt(scratch, n));
}

// A field value from its two 32-bit words (or bytes): by WIDTH, a number
// up to 53 bits, a BigInt above; a qualifier's name where it has one
function fieldValue(s, f, i, words, bytesAt) {
  const lo = u32[words + 2 * i], hi = u32[words + 2 * i + 1];
  if (f.qualifiers !== undefined) {
    const q = W.w_qualifier_name(s[PTR], lo, hi);
    if (q !== 0) return cstr(q);
  }
  if (f.bits > 64) {
    let x = 0n;
    const p = bytesAt + 24 * i;
    for (let k = 0; k < (f.bits + 7) >> 3; k++) x = x << 8n | BigInt(heap[p + k]);
    return x;
  }
  if (f.bits > 53) return BigInt(hi) << 32n | BigInt(lo);
  return hi * 4294967296 + lo;
}
function cstr(p) {
  let n = 0;
  while (heap[p + n] !== 0) n++;
  return textAt(p, n);
}
// the fields the glue wrote at the scratch (w_fields, w_cand_fields)
function readFields(s) {
  const out = {}, fs = s._desc.fields, words = scratch >> 2;
  for (let i = 0; i < fs.length; i++)
    out[fs[i].name] = fieldValue(s, fs[i], i, words, scratch + 8 * 12);
  return out;
}

// a Date where one holds the time (±8.64e15 ms: 275,000 years); beyond
// it, as for no time, null (the ms are still given)
function dateOf(ms) { return Number.isNaN(ms) || Math.abs(ms) > 8.64e15 ? null : new Date(ms); }

let HEX2 = null;
function hexOf(b) {
  if (HEX2 === null) {
    HEX2 = [];
    for (let i = 0; i < 256; i++) HEX2.push((i + 256).toString(16).slice(1));
  }
  let s = "";
  for (let i = 0; i < b.length; i++) s += HEX2[b[i]];
  return s;
}

/** A scheme: a bit layout plus text codecs, from the registry. */
class Scheme {
  constructor(p, desc) {
    Object.defineProperty(this, PTR, { value: p });
    Object.defineProperty(this, "_desc", { value: desc });
    const about = desc.about ?? {};
    this.name = desc.name;
    this.bits = desc.bits;
    this.bytes = desc.bytes;
    this.encodings = desc.encodings.slice();
    this.defaultEncoding = desc.encodings[0];
    this.ordered = desc.ordered;
    this.title = about.title ?? null;
    this.note = about.note ?? null;
    this.since = about.since ?? null;
    this.aliases = (about.aliases ?? []).slice();
    this.lengths = about.lengths ? about.lengths.slice() : null;
    // the fields (name, kind, bits, shift, parts, unit, epoch, value, ...)
    // and their runs of bits: s.fields(id) gives an ID's values
    this.layout = layoutOf(p, desc);
    // what generator(options) takes: the scheme's own, then every
    // generator's (policy, max_ahead_ms, ...); parameters: scheme(name, params)
    this.options = desc.optionNames.slice();
    this.params = desc.params.map((o) => o.name);
    this.timed = desc.timed > 0;
    const t = desc.fields.find((f) => f.unit !== undefined);
    this.unit = t ? t.unit : null;
    this.epoch = t ? t.epoch : null;
    Object.freeze(this.encodings);
    Object.freeze(this.aliases);
    Object.freeze(this.options);
    Object.freeze(this.params);
  }

  // the codec's index for a name (undefined: the default, -1)
  _codec(encoding) {
    if (encoding === undefined || encoding === null) return -1;
    if (typeof encoding !== "string")
      throw new TypeError(`${this.name}: encoding must be a string, got ${show(encoding)}`);
    let i = this._codecs?.get(encoding);
    if (i === undefined) {
      i = W.w_codec(this[PTR], put(encoding));
      if (i < 0 || encoding.includes("\0"))
        throw argError(`unknown encoding ${show(encoding)} for ${this.name} (its encodings: ${this.encodings.join(", ")})`, "ENOENT");
      (this._codecs ??= new Map()).set(encoding, i);
    }
    return i;
  }

  /** The ID that text is (decoded in encoding, or by the scheme's own
   *  detection or default): an Id; an IdschemeError quoting the text
   *  otherwise. */
  decode(text, encoding) {
    const ci = this._codec(encoding);
    const r = w_decode(this[PTR], ci, put(text));
    if (r !== 0) fail(r);
    return new Id(this, valueOut(this.bytes));
  }
  /** Whether text decodes (as decode would). */
  valid(text, encoding) {
    const ci = this._codec(encoding);
    return w_decode(this[PTR], ci, put(text)) === 0;
  }
  /** The ID whose big-endian bytes (the scheme's byte width) these are. */
  fromBytes(bytes) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`${this.name}: fromBytes takes a Uint8Array, got ${show(bytes)}`);
    if (bytes.length > 20) throw argError(`${this.name}: ${bytes.length} bytes, an ID has ${this.bytes}`);
    heap.set(bytes, valp);
    const r = W.w_from_bytes(this[PTR], bytes.length);
    if (r !== 0) fail(r);
    return new Id(this, valueOut(this.bytes));
  }
  /** The ID whose value is x (a BigInt, a safe integer or a decimal
   *  string), any width. */
  fromInteger(x) {
    let v = x;
    if (typeof x === "string" && /^[0-9]+$/.test(x)) v = BigInt(x);
    else if (typeof x === "number" && Number.isSafeInteger(x)) v = BigInt(x);
    if (typeof v !== "bigint" || v < 0n)
      throw argError(`${this.name}: fromInteger takes a non-negative BigInt, safe integer or decimal string, got ${show(x)}`);
    if (v >> BigInt(8 * this.bytes) !== 0n)
      throw argError(`${this.name}: ${x} does not fit in ${this.bits} bits`, "ERANGE");
    const b = new Uint8Array(this.bytes);
    for (let i = this.bytes - 1; i >= 0; i--, v >>= 8n) b[i] = Number(v & 255n);
    return this.fromBytes(b);
  }
  // an Id of this scheme from what a method was given: an Id, or text
  _id(x, encoding) {
    if (x instanceof Id) {
      if (x.scheme !== this) throw argError(`${this.name}: the ID is of ${x.scheme.name}`);
      return x;
    }
    return this.decode(x, encoding);
  }
  // the value of x (an Id or text) into the value buffer
  _load(x, encoding) {
    if (x instanceof Id && x.scheme === this) { heap.set(x._b, valp); return; }
    if (typeof x === "string") {
      const r = w_decode(this[PTR], this._codec(encoding), put(x));
      if (r !== 0) fail(r);
      return;
    }
    heap.set(this._id(x, encoding)._b, valp);
  }
  /** value (an Id of this scheme, or text of it) as text in encoding
   *  (default: the scheme's default encoding). */
  encode(value, encoding) {
    const ci = this._codec(encoding);
    this._load(value);
    return outText(w_encode(this[PTR], ci));
  }
  /** The fields of an ID (text or Id): name -> number (fields up to 53
   *  bits), BigInt (wider), or a qualifier's name. */
  fields(value, encoding) {
    this._load(value, encoding);
    w_fields(this[PTR]);
    return readFields(this);
  }
  /** The time of an ID (text or Id) as a Date, or null if it has none. */
  time(value, encoding) {
    const ms = this.timeMs(value, encoding);
    return ms === null ? null : dateOf(ms);
  }
  /** The same as Unix ms (floored), or null. */
  timeMs(value, encoding) {
    let ms;
    if (typeof value === "string") {
      ms = w_decode_time(this[PTR], this._codec(encoding), put(value));
      if (Number.isNaN(ms) && W.w_error_code() !== 0) fail(W.w_error_code());
    }
    else {
      this._load(value, encoding);
      ms = w_time(this[PTR]);
    }
    return Number.isNaN(ms) ? null : ms;
  }
  /** The ID of the given fields ({name: value}): numbers, BigInts,
   *  a qualifier's or a hashed name's string (SIQ's domain_name), a wide
   *  field's big-endian bytes.  Constants may be left out; every other
   *  field must be given. */
  compose(fields) {
    if (fields === null || typeof fields !== "object" || Array.isArray(fields))
      throw new TypeError(`${this.name}: compose takes an object of fields, got ${show(fields)}`);
    const p = this[PTR];
    W.w_fields_begin(p);
    for (const k of Object.keys(fields)) {
      const v = fields[k], f = this._desc.fields.find((x) => x.name === k);
      const kl = put(k);
      let r;
      if (typeof v === "string") r = W.w_fields_string(kl, put(v, kl) );
      else if (v instanceof Uint8Array) {
        if (v.length > 20) throw argError(`${this.name}: field '${k}': ${v.length} bytes is too many`, "ERANGE");
        heap.set(v, scratch + kl);
        r = W.w_fields_bytes(kl, v.length);
      }
      else if (f && f.bits > 64 && typeof v === "bigint") {
        const n = (f.bits + 7) >> 3;
        if (v < 0n || v >> BigInt(8 * n) !== 0n)
          throw argError(`${this.name}: field '${k}' value ${v} does not fit in ${f.bits} bits`, "ERANGE");
        let x = v;
        for (let i = n - 1; i >= 0; i--, x >>= 8n) heap[scratch + kl + i] = Number(x & 255n);
        r = W.w_fields_bytes(kl, n);
      }
      else {
        const h = halves(v);
        if (h === null)
          throw argError(`${this.name}: field '${k}' must be an integer, got ${show(v)}`);
        const neg = typeof v === "bigint" ? v < 0n : v < 0;
        r = neg ? W.w_fields_int(kl, h[0], h[1]) : W.w_fields_uint(kl, h[0], h[1] >>> 0);
      }
      if (r !== 0) fail(r);
    }
    const r = W.w_compose(p);
    if (r !== 0) fail(r);
    return new Id(this, valueOut(this.bytes));
  }
  /** A generator of this scheme: options by name (the scheme's node
   *  fields such as worker, and every generator's policy, max_ahead_ms,
   *  max_wait_ms, step...).  Node fields are given here: WebAssembly
   *  leases no slots. */
  generator(options) {
    return new Generator(this, options);
  }
  /** inspect(text, { scheme: this }) */
  inspect(text, options) {
    return inspect(text, { ...options, scheme: this });
  }
  toString() { return this.name; }
  toJSON() { return this.name; }
}

function fieldInfo(f) {
  const o = { name: f.name, kind: f.kind, bits: f.bits, shift: f.shift,
              parts: f.parts.map((p) => ({ shift: p.shift, bits: p.bits })) };
  if (f.value !== undefined) o.value = f.bits > 53 ? BigInt(f.value) : Number(f.value);
  if (f.unit !== undefined) { o.unit = f.unit; o.epoch = f.epoch; }
  if (f.variable) o.variable = true;
  if (f.from !== undefined) o.from = f.from;
  if (f.qualifiers !== undefined) {
    o.qualifiers = f.qualifiers.slice();
    o.qualifierValues = Object.fromEntries(Object.entries(f.qualifierValues).map(([k, v]) => [k, Number(v)]));
  }
  return Object.freeze(o);
}

// The runs of bits, most significant first: what a bit diagram draws (a
// field split around others, UUIDv1's time, is several runs of one
// field).  Where each bit's owner is fixed, the runs are read from the
// layout itself (w_owners: kuid's microseconds take 10 bits, not the 20
// its value has); a layout with variable fields (SIQ's serial and type)
// draws each field's widest runs, flagged variable.
function layoutOf(p, desc) {
  const runs = [], n = W.w_owners(p);
  const push = (f, i, shift, bits, part, parts) =>
    // offset: the run's first bit counted from the most significant (0),
    // as `idscheme info` numbers them; shift: its lowest bit's from the
    // least significant
    runs.push({ field: f.name, index: i, kind: f.kind, offset: desc.bits - shift - bits, shift,
                bits, part, parts, ...(f.variable ? { variable: true } : {}) });
  if (n > 0) {
    const own = heap.slice(scratch, scratch + n), spans = [];
    for (let b = n - 1; b >= 0;) {
      let e = b;
      while (e > 0 && own[e - 1] === own[b]) e--;
      if (own[b] !== 255) spans.push([own[b], e, b - e + 1]);
      b = e - 1;
    }
    for (const [i, shift, bits] of spans) {
      const mine = spans.filter((x) => x[0] === i);
      push(desc.fields[i], i, shift, bits, mine.findIndex((x) => x[1] === shift), mine.length);
    }
  }
  else
    desc.fields.forEach((f, i) => f.parts.forEach((q, k) => push(f, i, q.shift, q.bits, k, f.parts.length)));
  runs.sort((a, b) => b.shift - a.shift || a.index - b.index);
  return Object.freeze({ bits: desc.bits, bytes: desc.bytes,
                         fields: Object.freeze(desc.fields.map(fieldInfo)),
                         runs: Object.freeze(runs.map(Object.freeze)) });
}

function schemeAt(p) {
  let s = byPtr.get(p);
  if (s === undefined) {
    s = new Scheme(p, describe(p));
    byPtr.set(p, s);
  }
  return s;
}

/** A scheme by name or alias ("discord"), with parameters (snowflake's
 *  epoch_ms, kuid96's interval and hash) or its defaults. */
function scheme(name, params) {
  ready();
  if (name instanceof Scheme && params === undefined) return name;
  if (typeof name !== "string")
    throw new TypeError("idscheme.scheme: a scheme name expected, got " + show(name));
  const n = name.length <= 64 ? put(name) : 0;
  const d = n > 0 ? W.w_find(n) : 0;
  if (d === 0) {
    if (W.w_error_code() === -5 && textAt(W.w_error(), 5) === "unkno")
      throw argError(`unknown scheme ${show(name)}`, "ENOENT");
    fail(-5);
  }
  let p;
  if (params === undefined || params === null) p = W.w_open_default(d);
  else {
    W.w_opts_begin(d, 1);
    setOptions(params, "parameter", name);
    p = W.w_open(d);
  }
  if (p === 0) fail(W.w_error_code());
  return schemeAt(p);
}

// options or parameters by name into the glue's set (w_opts_begin first)
function setOptions(o, what, who) {
  if (o === null || typeof o !== "object" || Array.isArray(o))
    throw new TypeError(`${who}: ${what}s must be an object, got ${show(o)}`);
  for (const k of Object.keys(o)) {
    const v = o[k];
    let r;
    const kl = put(k);
    if (typeof v === "string") r = W.w_opts_str(kl, put(v, kl));
    else {
      const h = halves(v);
      if (h === null) throw argError(`${who}: ${what} '${k}' must be an integer or a string, got ${show(v)}`);
      r = W.w_opts_int(kl, h[0], h[1]);
    }
    if (r !== 0) fail(r);
  }
}

/** Every registered scheme's name, sorted. */
function list() {
  ready();
  const n = W.w_list(), out = [];
  let p = scratch;
  for (let i = 0; i < n; i++) {
    let k = 0;
    while (heap[p + k] !== 0) k++;
    out.push(textAt(p, k));
    p += k + 1;
  }
  return out;
}

/** Every registered scheme (its default parameters), sorted by name. */
function schemes() {
  return list().map((name) => scheme(name));
}

// ----------------------------------------------------------------- IDs
// The value buffer's n bytes as a plain array: an Id's value (a typed
// array's allocation cost more than a decode)
function valueOut(n) {
  const b = new Array(n), h = heap, p = valp;
  for (let i = 0; i < n; i++) b[i] = h[p + i];
  return b;
}

/** One ID of a scheme: its value as bytes, with its text forms, fields
 *  and time. */
class Id {
  constructor(s, bytes) {
    this.scheme = s;
    // a plain property (defineProperty made each Id cost a third more)
    this._b = bytes;
  }
  /** Its big-endian bytes (a copy), the scheme's byte width. */
  get bytes() { return Uint8Array.from(this._b); }
  get hex() { return hexOf(this._b); }
  encode(encoding) { return this.scheme.encode(this, encoding); }
  fields() { return this.scheme.fields(this); }
  time() { return this.scheme.time(this); }
  timeMs() { return this.scheme.timeMs(this); }
  /** ns since 1970 as a BigInt, to the scheme's finest unit (UUIDv1's
   *  100 ns), or null */
  timeNs() {
    heap.set(this._b, valp);
    const ms = w_time(this.scheme[PTR]);
    return Number.isNaN(ms) ? null : BigInt(ms) * 1000000n + BigInt(W.w_time_ns());
  }
  /** its value as a BigInt */
  toBigInt() {
    let x = 0n;
    for (const c of this._b) x = x << 8n | BigInt(c);
    return x;
  }
  equals(other) {
    return other instanceof Id && other.scheme === this.scheme && compareBytes(this._b, other._b) === 0;
  }
  /** -1, 0 or 1: the order of the values (IDs of one scheme) */
  compare(other) {
    if (!(other instanceof Id) || other.scheme !== this.scheme)
      throw argError(`cannot order a ${this.scheme.name} ID and ${other instanceof Id ? "a " + other.scheme.name + " ID" : show(other)}`);
    return compareBytes(this._b, other._b);
  }
  toString() { return this.encode(); }
  toJSON() { return this.encode(); }
}
function compareBytes(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// ----------------------------------------------------------- generators
const gens = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry((p) => { if (W !== null) W.w_gen_free(p); }) : null;

/** A generator: IDs distinct from every other it makes, increasing where
 *  the scheme orders them. */
class Generator {
  constructor(s, options) {
    ready();
    if (!(s instanceof Scheme)) throw new TypeError("idscheme: a scheme expected");
    W.w_opts_begin(s[PTR], 0);
    if (options !== undefined && options !== null) setOptions(options, "generator option", s.name);
    const p = W.w_gen_new(s[PTR]);
    if (p === 0) fail(W.w_error_code());
    this.scheme = s;
    Object.defineProperty(this, "_p", { value: p, writable: true });
    gens?.register(this, p, this);
  }
  _live() {
    if (this._p === 0) throw argError(`${this.scheme.name}: the generator is closed`);
    return this._p;
  }
  /** The next ID's text (encoding: the scheme's default). */
  next(encoding) {
    const ci = encoding === undefined ? -1 : this.scheme._codec(encoding);
    const n = w_gen_next(this._live(), ci);
    if (n < 0) fail(n);
    return outText(n);
  }
  /** The next ID as an Id (qualifier: SIQ's type for this one ID). */
  nextId(qualifier) {
    let q = -1;
    if (qualifier !== undefined) {
      q = typeof qualifier === "string" ? W.w_qualifier(this.scheme[PTR], put(qualifier)) : -1;
      if (q < 0) throw argError(`unknown ${this.scheme.name} qualifier ${show(qualifier)}`, "ENOENT");
    }
    const r = W.w_gen_next_value(this._live(), q);
    if (r !== 0) fail(r);
    return new Id(this.scheme, valueOut(this.scheme.bytes));
  }
  /** The next n IDs' texts, as n calls of next() would give them. */
  nextN(n, encoding) {
    if (!Number.isSafeInteger(n) || n < 0) throw argError(`${this.scheme.name}: nextN: n must be a count, got ${show(n)}`);
    const ci = encoding === undefined ? -1 : this.scheme._codec(encoding), out = [];
    while (out.length < n) {
      const k = Math.min(256, n - out.length), len = W.w_gen_next_n(this._live(), ci, k);
      if (len < 0) fail(len);
      let p = scratch;
      for (let i = 0; i < k; i++) {
        let e = p, high = 0;
        for (let c; (c = heap[e]) !== 0; e++) high |= c;
        out.push(high & 128 ? textAt(p, e - p) : asciiAt(p, e - p));
        p = e + 1;
      }
    }
    return out;
  }
  /** An ID whose time is unixMs (ids_generator_next_at: backfills,
   *  tests, range keys), as text. */
  nextAt(unixMs, encoding) {
    return this.nextIdAt(unixMs).encode(encoding);
  }
  /** The same as an Id. */
  nextIdAt(unixMs) {
    const ms = unixMs instanceof Date ? unixMs.getTime() : unixMs;
    if (typeof ms !== "number" || !Number.isInteger(ms))
      throw argError(`${this.scheme.name}: nextAt takes Unix ms (an integer) or a Date, got ${show(unixMs)}`);
    const r = W.w_gen_next_at(this._live(), ms);
    if (r !== 0) fail(r);
    return new Id(this.scheme, valueOut(this.scheme.bytes));
  }
  /** Frees the generator; it makes no more IDs. */
  close() {
    if (this._p !== 0) {
      gens?.unregister(this);
      W.w_gen_free(this._p);
      this._p = 0;
    }
  }
  [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() { this.close(); }
  get closed() { return this._p === 0; }
}

// --------------------------------------------------------------- define
let KEYS = null;
function keys() {
  if (KEYS === null) {
    const n = W.w_define_keys();
    KEYS = JSON.parse(textAt(scratch, n));
  }
  return KEYS;
}

/** A new scheme from a spec, as Lua's idscheme.define takes it:
 *  { name, fields: [{ name, kind, bits, unit, epoch, value, order }],
 *    encodings, default_encoding, bytes, about: { title, note, since,
 *    aliases, lengths } }. */
function define(spec) {
  ready();
  const K = keys(), D = "idscheme.define: ";
  if (spec === null || typeof spec !== "object" || Array.isArray(spec))
    throw new TypeError(D + "the spec must be an object, got " + show(spec));
  const only = (o, allowed, what) => {
    for (const k of Object.keys(o))
      if (!allowed.includes(k)) throw argError(`${D}${what}: unknown key ${show(k)}`);
  };
  only(spec, K.spec, "spec");
  // each key read once; what was read is what is used
  const get = (o, k) => o[k];
  const str = (f, k, v, what) => {
    if (v === undefined || v === null) return;
    if (typeof v !== "string") throw argError(`${D}${what} '${k}' must be a string, got ${show(v)}`);
    if (v.includes("\0")) throw argError(`${D}${what} '${k}' holds a NUL: ${show(v)}`);
    const kl = put(k);
    if (W.w_def_str(f, kl, put(v, kl)) < 0) fail(-2, D);
  };
  const int = (f, k, v, what) => {
    if (v === undefined || v === null) return;
    const h = halves(v);
    if (h === null) throw argError(`${D}${what} '${k}' must be an integer, got ${show(v)}`);
    W.w_def_int(f, put(k), h[0], h[1]);
  };
  W.w_def_begin();
  const name = get(spec, "name");
  const who = `scheme ${show(typeof name === "string" ? name : "?")}`;
  str(-1, "name", name, "spec");
  str(-1, "default_encoding", get(spec, "default_encoding"), "spec");
  int(-1, "bytes", get(spec, "bytes"), "spec");
  const about = get(spec, "about");
  if (about !== undefined && about !== null) {
    if (typeof about !== "object" || Array.isArray(about))
      throw argError(`${D}spec 'about' must be an object, got ${show(about)}`);
    only(about, K.about, "about");
    str(-2, "title", get(about, "title"), "about");
    str(-2, "note", get(about, "note"), "about");
    int(-2, "since", get(about, "since"), "about");
    const lengths = get(about, "lengths");
    if (lengths !== undefined && lengths !== null) {
      if (!Array.isArray(lengths) || lengths.length !== 2 ||
          !lengths.every((x) => Number.isInteger(x) && x >= 1 && x < K.textmax))
        throw argError(`${D}about.lengths must be [min, max], integers 1..${K.textmax - 1}, got ${show(lengths)}`);
      W.w_def_lengths(lengths[0], lengths[1]);
    }
    const aliases = get(about, "aliases");
    if (aliases !== undefined && aliases !== null) {
      if (!Array.isArray(aliases) || aliases.length > K.maxaliases)
        throw argError(`${D}about.aliases must be a list of at most ${K.maxaliases} names`);
      aliases.forEach((a, i) => {
        if (typeof a !== "string" || a.includes("\0"))
          throw argError(`${D}about.aliases[${i + 1}] must be a name, got ${show(a)}`);
        if (W.w_def_alias(i, put(a)) < 0) fail(-2, D);
      });
    }
  }
  const fields = get(spec, "fields");
  if (!Array.isArray(fields)) throw argError(`${D}${who}: 'fields' must be an array`);
  if (fields.length > K.maxfields) throw argError(`${D}${who}: more than ${K.maxfields} fields`);
  fields.forEach((f, i) => {
    const what = `field ${i + 1}`;
    if (f === null || typeof f !== "object" || Array.isArray(f))
      throw argError(`${D}field ${i + 1} must be an object, got ${show(f)}`);
    only(f, K.field, what);
    for (const k of ["name", "kind", "unit", "order"]) str(i, k, get(f, k), what);
    for (const k of ["bits", "epoch", "value"]) int(i, k, get(f, k), what);
  });
  const encs = get(spec, "encodings");
  if (encs !== undefined && encs !== null) {
    if (!Array.isArray(encs)) throw argError(`${D}${who}: 'encodings' must be an array`);
    if (encs.length > K.maxcodecs) throw argError(`${D}more than ${K.maxcodecs} encodings`);
    encs.forEach((e, i) => {
      if (typeof e !== "string") throw argError(`${D}encodings[${i + 1}] must be a string, got ${show(e)}`);
      if (e.includes("\0")) throw argError(`${D}encodings[${i + 1}] holds a NUL: ${show(e)}`);
      if (W.w_def_encoding(i, put(e)) < 0) fail(-2, D);
    });
  }
  const p = W.w_def_end(fields.length);
  if (p === 0) fail(W.w_error_code(), D);
  defined++;
  return schemeAt(p);
}

// -------------------------------------------------------------- inspect
let everyIns = 0, everyAge = -1;
const oneIns = new Map();       // scheme pointer -> its own inspector
const inspectKeys = ["scheme", "encoding"];


// The inspector an inspect names (every scheme's, or options.scheme's
// own), with the text (and options.encoding) put in the scratch: the
// inspector; the text's bytes, the encoding's and whether a scheme was
// named are left in tn, tel, tnamed (no array made per call: this is the
// path of every inspected text).
let tn = 0, tel = 0, tnamed = false;
function target(text, options, who) {
  ready();
  let ins, named = false, enc = null;
  if (options !== undefined && options !== null) {
    if (typeof options !== "object") throw new TypeError(`idscheme.${who}: options must be an object, got ` + show(options));
    for (const k of Object.keys(options))
      if (!inspectKeys.includes(k)) throw argError(`idscheme.${who}: unknown option ${show(k)}`);
    if (options.encoding !== undefined && options.encoding !== null) {
      if (typeof options.encoding !== "string") throw argError(`idscheme.${who}: encoding must be a string, got ` + show(options.encoding));
      enc = options.encoding;
    }
    if (options.scheme !== undefined && options.scheme !== null) {
      const s = options.scheme instanceof Scheme ? options.scheme : scheme(options.scheme);
      ins = oneIns.get(s[PTR]);
      if (ins === undefined) {
        ins = W.w_inspector_new(s[PTR]);
        if (ins === 0) fail(W.w_error_code(), `idscheme.${who}: `);
        oneIns.set(s[PTR], ins);
      }
      named = true;
    }
  }
  if (!named) {
    if (everyAge !== defined) {
      if (everyIns !== 0) W.w_inspector_free(everyIns);
      everyIns = W.w_inspector_new(0);
      if (everyIns === 0) fail(W.w_error_code(), `idscheme.${who}: `);
      everyAge = defined;
    }
    ins = everyIns;
  }
  if (typeof text !== "string") throw new TypeError(`idscheme.${who}: a string expected, got ` + show(text));
  // a text longer than the scratch is no ID: its head is read (the engine
  // answers as it would for the whole, which no form's length takes)
  const n = put(text.length > MAXTEXT ? text.slice(0, MAXTEXT) : text);
  let el = 0;
  if (enc !== null) {
    el = put(enc, n);
    if (enc.includes("\0")) throw argError(`idscheme.${who}: unknown encoding ${show(enc)}`, "ENOENT");
    if (W.w_inspector_encoding(ins, n, el) !== 0) fail(W.w_error_code(), `idscheme.${who}: `);
  }
  tn = n;
  tel = el;
  tnamed = named;
  return ins;
}

/**
 * Which scheme wrote text?  The inspect engine's readings (inspect.h),
 * best first, with a verdict:
 *   "named"      the best reading stands, sure
 *   "weak"       it stands, on too little evidence: a guess (why says so)
 *   "ambiguous"  another scheme reads it as well: nothing in the text
 *                decides (ambiguousWith names them)
 *   "refused"    readings exist, none stands (why: the best one's words)
 *   "unknown"    no scheme decodes it (why: the engine's message)
 * options: { scheme: a name or Scheme (that one alone: its reading stands
 * as the command's -s), encoding: that encoding only }.
 */
function inspect(text, options) {
  const ins = target(text, options, "inspect"), named = tnamed;
  const nc = w_inspect(ins, tn, tel, Date.now());
  // the text as the engine read it: blanks at both ends trimmed
  const input = text.length && (blank(text.charCodeAt(0)) || blank(text.charCodeAt(text.length - 1)))
    ? text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "") : text;
  if (nc === 0) return new Inspection(input, "unknown", null, null, 0, cstr(W.w_error()), NONE);
  // the records copied out once: the best reading is made now (the
  // verdict is its), the others when the candidates are first read
  const words = new Array(20 * nc), r0 = recp >> 2;
  for (let k = 0; k < words.length; k++) words[k] = u32[r0 + k];
  const c0 = new Reading(schemeAt(words[0]), words, 0);
  const said = verdictOf(words[10], named);
  let also = NONE;
  if (said === "ambiguous") {
    also = [];
    for (let i = 1; i < nc; i++)
      if (u32[(recp + 80 * i + 40) >> 2] & 16) also.push(schemeAt(u32[(recp + 80 * i) >> 2]).name);
  }
  return new Inspection(input, said, c0, words, nc, null, also);
}
// The verdict of a best reading's flags (its record's; -1: none read
// it); a scheme named, its reading stands refused or not
function verdictOf(flags, named) {
  return flags < 0 ? "unknown" : flags & 32 && !named ? "refused" : flags & 16 ? "ambiguous"
       : flags & 64 ? "weak" : "named";
}

/**
 * inspect(text, options).verdict, and no more: nothing of the readings is
 * made (for counting the verdicts of many texts, as the page does past
 * the ones it shows).  The same options and errors as inspect.
 */
function verdict(text, options) {
  const ins = target(text, options, "verdict");
  return verdictOf(w_best_flags(ins, tn, tel, Date.now()), tnamed);
}
const NONE = Object.freeze([]);
const blank = (c) => c === 32 || (c >= 9 && c <= 13);

// the engine's notes are static strings: read once each
const notes = new Map();
function noteAt(p) {
  let s = notes.get(p);
  if (s === undefined) notes.set(p, s = cstr(p));
  return s;
}

// What is kept of a reading is its record's data and its value's bytes;
// what is made from them (its fields, its time as a Date, its value's
// hex, its why) is made when first read, and kept: a page that inspects
// a million texts and shows a few pays for what it shows.  The value's
// fields are decomposed again from its bytes (what the engine did).
const LAZY = ["value", "fields", "time", "why"];

/** One reading of a text (inspect.h's ids_candidate), best first. */
class Reading {
  #s; #w; #k; #note; #ev; #fields; #time; #why; #hex;
  // w: the records as 32-bit words (a plain array: a typed array's copy
  // cost more than the engine's whole reading), k: this record's first
  // word there; its value's bytes are at word k + 14
  constructor(s, w, k) {
    const ci = w[k + 1] | 0, ms = f64w(w, k + 2), flags = w[k + 10];
    const length = w[k + 12] | 0, notep = w[k + 13];
    this.#s = s;
    this.#w = length ? null : w;
    this.#k = k + 14;
    this.#note = notep;
    this.#ev = f64w(w, k + 4);
    this.scheme = s.name;
    this.encoding = s.encodings[ci];
    this.ms = Number.isNaN(ms) ? null : ms;
    this.length = length || null;
    this.evidence = this.#ev;
    this.marks = f64w(w, k + 6);
    this.rank = f64w(w, k + 8);
    this.constbits = w[k + 11] | 0;
    this.marked = (flags & 1) !== 0;
    this.plausible = (flags & 2) !== 0;
    this.confirmed = (flags & 4) !== 0;
    this.unique = (flags & 8) !== 0;
    this.ambiguous = (flags & 16) !== 0;
    this.refused = (flags & 32) !== 0;
    this.weak = (flags & 64) !== 0;
    this.note = notep ? noteAt(notep) : null;
  }
  // the value's bytes into the value buffer (the words as they were)
  #load() {
    const w = this.#w, k = this.#k, v = valp >> 2;
    for (let j = 0; j < 5; j++) u32[v + j] = w[k + j];
  }
  get bytes() {
    if (this.#w === null) return null;
    this.#load();
    return heap.slice(valp, valp + this.#s.bytes);
  }
  /** the value's hex, or null for a text read by its alphabet alone */
  get value() {
    if (this.#w === null) return null;
    if (this.#hex === undefined) {
      this.#load();
      this.#hex = hexOf(heap.subarray(valp, valp + this.#s.bytes));
    }
    return this.#hex;
  }
  get fields() {
    if (this.#w === null) return null;
    if (this.#fields === undefined) {
      this.#load();
      w_fields(this.#s[PTR]);
      this.#fields = readFields(this.#s);
    }
    return this.#fields;
  }
  get time() { return this.ms === null ? null : (this.#time ??= dateOf(this.ms)); }
  /** ids_inspect_why's words where it is refused, weak or noted, else null */
  get why() {
    if (this.#why === undefined)
      this.#why = this.refused || this.weak || this.#note
        ? outText(W.w_why_of((this.refused ? 1 : 0) | (this.weak ? 2 : 0), this.#note, this.#ev)) : null;
    return this.#why;
  }
  /** every text form of the value (null without one) */
  get encodings() {
    if (this.#w === null) return null;
    const s = this.#s, out = {};
    this.#load();
    for (let k = 0; k < s.encodings.length; k++) out[s.encodings[k]] = outText(w_encode(s[PTR], k));
    return out;
  }
  get _scheme() { return this.#s; }
  toJSON() {
    const o = { ...this };
    for (const k of LAZY) o[k] = this[k];
    return o;
  }
}
// a double from two 32-bit words (low first)
const W2 = new Uint32Array(2), D1 = new Float64Array(W2.buffer);
function f64w(w, i) {
  W2[0] = w[i];
  W2[1] = w[i + 1];
  return D1[0];
}

/** inspect()'s answer: a verdict, the best reading's scheme and what it
 *  reads (fields, time, encodings: made when first read), and every
 *  reading. */
class Inspection {
  #best; #enc; #recs; #nc; #cands; #why;
  // why: the engine's message where nothing decodes the text; else made
  // from the best reading when first read
  constructor(input, verdict, c0, recs, nc, why, also) {
    const best = verdict === "refused" ? null : c0, s = best?._scheme;
    this.#best = best;
    this.#recs = recs;
    this.#nc = nc;
    this.#cands = nc ? null : NONE;
    if (nc) this.#c0 = c0;
    this.input = input;
    this.verdict = verdict;
    this.scheme = best ? best.scheme : null;
    this.encoding = best ? best.encoding : null;
    this.title = best ? s.title : null;
    this.note = best ? s.note : null;
    this.doubt = best ? best.note : null;
    this.#why = why;
    this.ms = best ? best.ms : null;
    this.length = best ? best.length : null;
    this.plausible = best ? best.plausible : false;
    this.ambiguous = verdict === "ambiguous";
    this.weak = best ? best.weak : false;
    this.evidence = c0 ? c0.evidence : null;
    this.ambiguousWith = also;
  }
  #c0 = null;
  /** why it is a guess, refused or unknown (the engine's words); "" when
   *  sure */
  get why() { return this.#why ??= this.#c0.why ?? ""; }
  get time() { return this.#best ? this.#best.time : null; }
  get fields() { return this.#best ? this.#best.fields : null; }
  get value() { return this.#best ? this.#best.value : null; }
  /** every text form of the value (the command's) */
  get encodings() { return this.#best ? (this.#enc ??= this.#best.encodings) : null; }
  /** every reading, best first (made when first read) */
  get candidates() {
    if (this.#cands === null) {
      const w = this.#recs, out = [this.#c0];
      for (let i = 1; i < this.#nc; i++) out.push(new Reading(schemeAt(w[20 * i]), w, 20 * i));
      this.#cands = out;
    }
    return this.#cands;
  }
  toJSON() {
    const o = { ...this };
    for (const k of ["why", "time", "fields", "value", "encodings", "candidates"]) o[k] = this[k];
    return o;
  }
}

// -------------------------------------------------------------- loading
// WASI's clock_time_get (glue.c's generators read the clocks through
// libc): realtime is Date.now() (ms, as every JavaScript clock of the
// wall; the library counts sub-ms ticks in its sequences), monotonic is
// performance.now().  ns written exactly as two 32-bit words.
function clockTimeGet(id, precision, out) {
  let lo, hi;
  if (id === 0 || typeof performance === "undefined") {
    const ms = Date.now();
    const mh = Math.floor(ms / 65536), ml = ms - mh * 65536;
    const y = mh * 1000000, yh = Math.floor(y / 65536), yl = y - yh * 65536;
    let l = yl * 65536 + ml * 1000000;
    const carry = Math.floor(l / 4294967296);
    lo = l - carry * 4294967296;
    hi = yh + carry;
  }
  else {
    const ns = Math.floor(performance.now() * 1e6);
    hi = Math.floor(ns / 4294967296);
    lo = ns - hi * 4294967296;
  }
  u32[out >> 2] = lo;
  u32[(out >> 2) + 1] = hi;
  return 0;
}

function imports() {
  return {
    env: {
      js_random: (p, n) => { crypto.getRandomValues(heap.subarray(p, p + n)); },
      emscripten_notify_memory_growth: () => views(),
    },
    wasi_snapshot_preview1: { clock_time_get: clockTimeGet },
  };
}

// Binds the package to an instance of idscheme.wasm made with imports();
// hooks: a faster asciiAt(heap, p, n) (node's)
function setup(instance, hooks = {}) {
  if (hooks.asciiAt) { const f = hooks.asciiAt; asciiAt = (p, n) => f(heap, p, n); }
  if (W !== null) return;
  W = instance.exports;
  W._initialize?.();
  views();
  scratch = W.w_scratch();
  valp = W.w_val();
  recp = W.w_recs();
  ({ w_decode, w_encode, w_decode_time, w_time, w_gen_next, w_fields, w_inspect, w_best_flags } = W);
  const r = W.w_init();
  if (r !== 0) { const e = cstr(W.w_error()); W = null; throw new IdschemeError("idscheme: " + e, CODES[r]); }
}

// What init and initSync take: a WebAssembly.Module, the module's bytes
// (ArrayBuffer, typed array), a Response or its promise, or a URL
function instantiateSync(source) {
  const m = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  return new WebAssembly.Instance(m, imports());
}
async function instantiate(source) {
  if (source instanceof WebAssembly.Module) return new WebAssembly.Instance(source, imports());
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source))
    return (await WebAssembly.instantiate(source, imports())).instance;
  if (typeof source === "string" || source instanceof URL) source = fetch(source);
  const response = await source;
  if (typeof WebAssembly.instantiateStreaming === "function" &&
      response.headers?.get?.("content-type")?.startsWith("application/wasm")) {
    try {
      return (await WebAssembly.instantiateStreaming(response.clone(), imports())).instance;
    } catch (e) { /* the bytes, below */ }
  }
  if (!response.ok) throw new IdschemeError(`idscheme: ${response.url}: ${response.status} ${response.statusText}`, "ENOENT");
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports())).instance;
}

/** Loaded yet? */
function loaded() { return W !== null; }

/** The library's version (IDS_VERSION) */
function version() { ready(); return keys().version; }
