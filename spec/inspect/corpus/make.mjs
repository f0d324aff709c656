// make.mjs: writes corpus.tsv, a corpus of real IDs for `idscheme inspect`,
// each labelled with its format, the time it carries and its fields.
//
// Two kinds of rows:
//  - made here by the formats' own npm packages (pinned in package-lock.json),
//    in every text form the package writes, at times such IDs really have:
//    IDs people paste were made in the past by running systems, so each
//    format's times lie in its life, from its first IDs (LIFE below) to the
//    corpus's fixed "now" (NOW), spread over that life but more of them in
//    recent years, and a few near its start;
//  - the formats' documented examples (RFC 9562, READMEs, API docs), each
//    kept only when an independent decoding (decode.mjs) agrees with what
//    the document says about it; a dropped one is printed, with the reason.
// Every package-made row is read back by decode.mjs too, and its time and
// fields must agree with what the package was asked for and says.
//
// Regenerate (from this folder; installs the pinned packages first):
//   ./run.sh node make.mjs
// The times (a fixed NOW and a seeded generator) and the documented examples
// are the same on every run; the random parts of package-made IDs are fresh,
// so a new run changes those rows: commit the new corpus.tsv with the change
// that needed it.
//
// Columns of corpus.tsv (tab-separated, one header line):
//   text     the ID exactly as written
//   format   one of the format names in README.md
//   time_ms  Unix milliseconds the ID carries, or - when its format has none
//   fields   compact JSON object of the format's fields (README.md)
//   source   package@version and the call, or the document the example is in
//   form     which text form of the format `text` is in (README.md)
//   expect   named: inspect must name the format; refused: a documented
//            example whose time lies outside its format's life (LIFE..NOW:
//            a UUIDv6 of 2011, the largest ULID), which inspect must not
//            take for a confident reading of any format

import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import path from "node:path";
import * as uuid from "uuid";
import { ObjectId } from "bson";
import { Xid } from "xid-ts";
import { TSIDGenerator } from "tsid-ts";
import { TypeID, typeid } from "typeid-js";
import { nanoid } from "nanoid";
import * as firebaseKey from "firebase-key";
import shortUuid from "short-uuid";
import cuid from "cuid";
import { createId as cuid2 } from "@paralleldrive/cuid2";
import KSUID from "ksuid";
import { ulid, monotonicFactory } from "ulid";
import shortid from "shortid";
import { execFileSync } from "node:child_process";
import * as D from "./decode.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const version = (name) =>
  JSON.parse(readFileSync(path.join(here, "node_modules", name, "package.json"), "utf8")).version;
const PKG = Object.fromEntries(
  ["uuid", "bson", "xid-ts", "tsid-ts", "typeid-js", "nanoid", "firebase-key", "short-uuid",
   "cuid", "@paralleldrive/cuid2", "ksuid", "ulid", "shortid"]
    .map((p) => [p, `${p}@${version(p)}`]));

const rows = [];
const seen = new Set();
const dropped = [];

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// add a row; its time and fields come from decode.mjs, and `expect` (what
// the package was asked for or reports) must agree with them
function add(text, format, source, form, expect = {}, outside = false) {
  const got = D.DECODERS[format](text, form);
  if ("time_ms" in expect && expect.time_ms !== got.time_ms)
    throw new Error(`${format} ${text} (${source}): decodes to time ${got.time_ms}, expected ${expect.time_ms}`);
  for (const [k, v] of Object.entries(expect.fields ?? {}))
    if (!same(got.fields[k], v))
      throw new Error(`${format} ${text} (${source}): field ${k} is ${JSON.stringify(got.fields[k])}, expected ${JSON.stringify(v)}`);
  // a package-made row (which says its time) lies in its format's life,
  // unless it is made early on purpose (backfilled, converted)
  if ("time_ms" in expect && !expect.early && !(got.time_ms >= LIFE[format] && got.time_ms <= NOW))
    throw new Error(`${format} ${text} (${source}): time ${iso(got.time_ms)} is outside the format's life`);
  if (seen.has(text)) return;
  seen.add(text);
  rows.push([text, format, got.time_ms === null ? "-" : String(got.time_ms),
             JSON.stringify(got.fields), source, form, outside ? "implausible" : "named"]);
}

// ------------------------------------------------------------------ times
const U = Date.UTC;
const DAY = 86400000;
const iso = (ms) => new Date(ms).toISOString();

// The corpus's "now": fixed, so that every run asks for the same times.
const NOW = U(2026, 10, 1);

// Each format's life starts with its first IDs (its publication, or its
// epoch's first days): no real ID of it is older.
const LIFE = {
  uuid1: U(1995, 0, 1), uuid6: U(2022, 0, 1), uuid7: U(2021, 0, 1),
  objectid: U(2009, 0, 1), xid: U(2015, 0, 1), tsid: U(2020, 0, 2),
  typeid: U(2023, 0, 1), pushid: U(2015, 1, 1), mastodon: U(2017, 8, 1),
  discord: U(2015, 0, 2), twitter: U(2010, 10, 5), ulid: U(2016, 0, 1),
  ksuid: U(2017, 0, 1), timeflake: U(2020, 0, 1), cuid: U(2013, 0, 1),
};

// A few times every format gets: the last ms of a leap day, a new year.
const FIXED = [U(2024, 1, 29, 23, 59, 59, 999), U(2025, 0, 1)];

// a generator of numbers in [0, 1), seeded by a string (mulberry32 of its
// FNV-1a hash): the same times on every run
function seeded(seed) {
  let a = 2166136261;
  for (const c of seed) a = Math.imul(a ^ c.charCodeAt(0), 16777619);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// n times (ascending) in the life of `format`: two near its start (its
// first day, its first month), FIXED, and the rest NOW - span * u^2 for u
// uniform in [0, 1), so that half of them lie in the last quarter of its
// life; in whole seconds for a format that keeps seconds
function lifeTimes(format, n, { seconds = false } = {}) {
  const r = seeded(format);
  const start = LIFE[format], span = NOW - start;
  const set = new Set();
  const put = (t) => set.add(seconds ? Math.floor(t / 1000) * 1000 : t);
  put(start + Math.floor(r() * DAY));
  put(start + DAY + Math.floor(r() * 30 * DAY));
  for (const t of FIXED) put(t);
  while (set.size < n) { const u = r(); put(NOW - 1 - Math.floor(span * u * u)); }
  const out = [...set].sort((a, b) => a - b);
  for (const t of out) if (t < start || t > NOW) throw new Error(`${format}: ${iso(t)} outside its life`);
  return out;
}

// a clock stopped at `ms` while fn runs, for calls that take no time but
// read the clock (as a running system's calls do): tsid-ts's TSIDGenerator,
// and uuid's v1()/v6()/v7(), new ObjectId(), new Xid(),
// typeid(prefix), key() read Date.now() or new Date()
function atTime(ms, fn) {
  const Real = globalThis.Date;
  class Stopped extends Real {
    constructor(...a) { if (a.length) super(...a); else super(ms); }
    static now() { return ms; }
  }
  globalThis.Date = Stopped;
  try { return fn(); } finally { globalThis.Date = Real; }
}

// How many of the latest times of a format are made by the package's
// call that reads the clock (at a stopped clock) rather than by its call
// that takes a time.
const BY_CLOCK = 3;

// ---------------------------------------------------------- uuid package
{
  const P = PKG.uuid;
  const node = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab];
  // v1 and v6: Gregorian 100-ns ticks
  for (const [v, fmt, make] of [[1, "uuid1", uuid.v1], [6, "uuid6", uuid.v6]]) {
    const times = lifeTimes(fmt, 24);
    times.forEach((msecs, i) => {
      const byClock = i >= times.length - BY_CLOCK;
      const opts = { msecs };
      const expect = { time_ms: msecs };
      if (i % 2 === 0 && !byClock) { // every other one with node and clock sequence given
        opts.node = Uint8Array.from(node.map((b) => (b + i) & 0xff));
        opts.clockseq = (i * 997) & 0x3fff;
        expect.fields = { clock_seq: opts.clockseq,
                          node: Buffer.from(opts.node).toString("hex") };
      }
      if (i % 5 === 3) opts.nsecs = 9999; // the last 100-ns tick of the ms
      const call = byClock ? `v${v}() at a clock stopped at ${iso(msecs)}`
        : `v${v}({msecs: ${msecs}${opts.nsecs ? ", nsecs: 9999" : ""}}) ${iso(msecs)}`;
      const text = byClock ? atTime(msecs, () => make()) : make(opts);
      add(text, fmt, `${P} ${call}`, "lower", expect);
      if (i % 2 === 1) add(text.toUpperCase(), fmt, `${P} ${call}, upper-cased`, "upper", expect);
    });
  }
  // v7: Unix milliseconds in 48 bits
  {
    const times = lifeTimes("uuid7", 24);
    times.forEach((msecs, i) => {
      const byClock = i >= times.length - BY_CLOCK;
      const text = byClock ? atTime(msecs, () => uuid.v7()) : uuid.v7({ msecs });
      const call = byClock ? `v7() at a clock stopped at ${iso(msecs)}` : `v7({msecs: ${msecs}}) ${iso(msecs)}`;
      const expect = { time_ms: msecs, fields: { unix_ts_ms: msecs } };
      add(text, "uuid7", `${P} ${call}`, "lower", expect);
      if (i % 2 === 1) add(text.toUpperCase(), "uuid7", `${P} ${call}, upper-cased`, "upper", expect);
    });
  }
  // v3 and v5: name-based
  const spaces = [["DNS", uuid.v5.DNS], ["URL", uuid.v5.URL], ["OID", "6ba7b812-9dad-11d1-80b4-00c04fd430c8"],
                  ["X500", "6ba7b814-9dad-11d1-80b4-00c04fd430c8"], ["custom", "1b671a64-40d5-491e-99b0-da01ff1f3341"]];
  const names = ["www.example.com", "https://www.w3.org/", "1.3.6.1.4.1", "cn=John Smith, o=Example",
                 "", "idscheme", "Hello, World!", "h\u00e9llo w\u00f6rld \u2603"];
  for (const [v, fmt, make, hash] of [[3, "uuid3", uuid.v3, "md5"], [5, "uuid5", uuid.v5, "sha1"]]) {
    let i = 0;
    for (const [j, name] of names.entries()) for (const [nsName, ns] of [spaces[j % 5], spaces[(j + 2) % 5]]) {
      i++;
      const text = make(name, ns);
      // the same UUID computed here from the RFC's recipe, not by the package
      if (text !== nameBased(hash, v, ns, name)) throw new Error(`${fmt} ${text}: not the RFC's ${hash} of ${nsName}/${name}`);
      const call = `v${v}(${JSON.stringify(name)}, ${nsName})`;
      add(text, fmt, `${P} ${call}`, "lower");
      if (i % 3 === 0) add(text.toUpperCase(), fmt, `${P} ${call}, upper-cased`, "upper");
    }
    for (const [name, nsName, ns] of [["python.org", "DNS", uuid.v5.DNS], ["http://python.org/", "URL", uuid.v5.URL],
                                      ["urn:isbn:0-486-27557-4", "URL", uuid.v5.URL]]) {
      const text = make(name, ns);
      if (text !== nameBased(hash, v, ns, name)) throw new Error(`${fmt} ${text}: not the RFC's ${hash}`);
      add(text, fmt, `${P} v${v}(${JSON.stringify(name)}, ${nsName})`, "lower");
    }
  }
  for (let i = 0; i < 20; i++) {
    const text = uuid.v4();
    add(i % 4 === 3 ? text.toUpperCase() : text, "uuid4", `${P} v4()${i % 4 === 3 ? ", upper-cased" : ""}`,
        i % 4 === 3 ? "upper" : "lower");
  }
  add(uuid.NIL, "uuid_nil", `${P} NIL`, "lower");
  add(uuid.MAX, "uuid_max", `${P} MAX`, "lower");
  // v1ToV6 and v6ToV1 keep the time, clock sequence and node (times in
  // the life of both: from 2022)
  [U(2022, 5, 14, 9, 26, 53, 589), U(2024, 1, 29), U(2026, 3, 30, 17, 45, 12, 7)].forEach((msecs) => {
    const one = uuid.v1({ msecs });
    const six = uuid.v1ToV6(one);
    const o = D.uuid(one, 1), s = D.uuid(six, 6);
    if (!same(o, s)) throw new Error(`v1ToV6(${one}) = ${six} changed the fields`);
    add(six, "uuid6", `${P} v1ToV6(v1({msecs: ${msecs}})) ${iso(msecs)}`, "lower", { time_ms: msecs });
    const back = uuid.v6ToV1(uuid.v6({ msecs }));
    add(back, "uuid1", `${P} v6ToV1(v6({msecs: ${msecs}})) ${iso(msecs)}`, "lower", { time_ms: msecs });
  });
}

// the name-based UUID of RFC 9562 5.3 / 5.5 / B.2, computed with node:crypto
function nameBased(hash, version, ns, name) {
  const h = createHash(hash).update(Buffer.from(ns.replace(/-/g, ""), "hex"))
    .update(Buffer.from(name, "utf8")).digest().subarray(0, 16);
  h[6] = (h[6] & 0x0f) | (version << 4);
  h[8] = (h[8] & 0x3f) | 0x80;
  return h.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}

// ------------------------------------------------------------------ bson
{
  const P = PKG.bson;
  const times = lifeTimes("objectid", 24, { seconds: true });
  times.forEach((ms, i) => {
    const s = ms / 1000;
    const byClock = i >= times.length - BY_CLOCK;
    const id = byClock ? atTime(ms, () => new ObjectId()) : new ObjectId(ObjectId.generate(s));
    if (id.getTimestamp().getTime() !== ms) throw new Error(`ObjectId ${id}: getTimestamp disagrees`);
    const call = byClock ? `new ObjectId() at a clock stopped at ${iso(ms)}` : `new ObjectId(ObjectId.generate(${s})) ${iso(ms)}`;
    add(id.toHexString(), "objectid", `${P} ${call}`, "hex", { time_ms: ms });
  });
  for (const s of [Math.floor(U(2012, 9, 15) / 1000), Math.floor(U(2023, 5, 15, 8, 30) / 1000)])
    add(ObjectId.createFromTime(s).toHexString(), "objectid", `${P} ObjectId.createFromTime(${s}) ${iso(s * 1000)}`,
        "hex", { time_ms: s * 1000, fields: { random: "0000000000", counter: 0 } });
}

// ---------------------------------------------------------------- xid-ts
{
  const P = PKG["xid-ts"];
  const times = lifeTimes("xid", 24, { seconds: true });
  times.forEach((ms, i) => {
    const s = ms / 1000;
    const byClock = i >= times.length - BY_CLOCK;
    const x = byClock ? atTime(ms, () => new Xid()) : Xid.newWithTime(s);
    const expect = { time_ms: ms,
                     fields: { seconds: x.timestamp(), machine: Buffer.from(x.machine()).toString("hex"),
                               pid: x.pid(), counter: x.counter() } };
    const call = byClock ? `new Xid() at a clock stopped at ${iso(ms)}` : `Xid.newWithTime(${s}) ${iso(ms)}`;
    add(x.toString(), "xid", `${P} ${call}`, "base32hex", expect);
  });
}

// --------------------------------------------------------------- tsid-ts
// tsid-ts 0.0.9 writes its hexadecimal, decimal and base62 forms through a
// Number and so gets their low digits wrong for real TSIDs; only its
// canonical forms (toString, 's') are used, and the decimal form is the
// exact toBigInt() the package documents ("Create a TSID as bigint").  A
// TSID's canonical text is the 13-character string: one made row is in
// decimal, beside the few decimal documented examples.
{
  const P = PKG["tsid-ts"];
  const times = lifeTimes("tsid", 24);
  const nodeBits = [10, 0, 8, 12, 20];
  let running = null;
  times.forEach((ms, i) => {
    const byClock = i >= times.length - BY_CLOCK;
    const bits = nodeBits[i % nodeBits.length];
    const node = bits ? (i * 37) % (1 << bits) : 0;
    // the latest ones from one generator with the defaults (getTsid's),
    // made at the first of them and running on; getTsid itself cannot be
    // used, its generator was made at import with the real clock
    // A generator is made 1 ms before its first create(): made in the same
    // ms, it would count on from its random start and may carry into the
    // next ms.
    if (byClock && !running) running = atTime(ms - 1, () => new TSIDGenerator());
    const gen = byClock ? running : atTime(ms - 1, () => new TSIDGenerator(node, bits));
    const t = atTime(ms, () => gen.create());
    const carried = t.timestamp;
    if (carried !== ms) throw new Error(`tsid at ${ms} carries ${carried}`);
    const expect = { time_ms: carried, fields: { ms: carried - D.TSID_EPOCH, node_counter: t.random } };
    const call = byClock ? `new TSIDGenerator() (getTsid's defaults) running, create() at ${iso(ms)}`
      : `new TSIDGenerator(${node}, ${bits}).create() at ${iso(ms)}`;
    add(t.toString(), "tsid", `${P} ${call}`, "canonical", expect);
    if (i % 3 === 1) add(t.toStringWithFormat("s"), "tsid", `${P} ${call}, toStringWithFormat('s')`, "lower", expect);
    if (i === 14) add(t.toBigInt().toString(), "tsid", `${P} ${call}, toBigInt()`, "decimal", expect);
  });
}

// ------------------------------------------------------------- typeid-js
{
  const P = PKG["typeid-js"];
  const prefixes = ["user", "", "user_account", "a", "org_member_role", "a__b", "invoice_line_item",
                    "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk" /* 63 */];
  // the latest 8 by typeid(prefix), which reads the clock; the others from
  // a UUIDv7 made at the time
  const times = lifeTimes("typeid", 32);
  const byClockFrom = times.length - prefixes.length;
  times.forEach((msecs, i) => {
    if (i >= byClockFrom) {
      const prefix = prefixes[i - byClockFrom];
      const t = atTime(msecs, () => typeid(prefix));
      add(t.toString(), "typeid", `${P} typeid(${JSON.stringify(prefix)}) at a clock stopped at ${iso(msecs)}`,
          prefix ? "prefixed" : "bare", { time_ms: msecs, fields: { prefix, uuid: t.toUUID(), unix_ts_ms: msecs } });
      return;
    }
    const prefix = prefixes[i % prefixes.length];
    const u = uuid.v7({ msecs });
    const t = TypeID.fromUUID(prefix, u);
    add(t.toString(), "typeid", `${P} TypeID.fromUUID(${JSON.stringify(prefix)}, ${PKG.uuid} v7({msecs: ${msecs}})) ${iso(msecs)}`,
        prefix ? "prefixed" : "bare", { time_ms: msecs, fields: { prefix, uuid: u, unix_ts_ms: msecs } });
  });
}

// ---------------------------------------------------------------- nanoid
{
  const P = PKG.nanoid;
  for (let i = 0; i < 16; i++) add(nanoid(), "nanoid", `${P} nanoid()`, "default", { fields: { size: 21 } });
  for (const size of [10, 16, 32, 36]) add(nanoid(size), "nanoid", `${P} nanoid(${size})`, "sized", { fields: { size } });
}

// ---------------------------------------------------------- firebase-key
{
  const P = PKG["firebase-key"];
  const times = lifeTimes("pushid", 24);
  times.forEach((ms, i) => {
    const byClock = i >= times.length - BY_CLOCK;
    const k = byClock ? atTime(ms, () => firebaseKey.key()) : firebaseKey.key(ms);
    if (firebaseKey.milliseconds(k) !== ms) throw new Error(`push ID ${k}: milliseconds() disagrees`);
    add(k, "pushid", `${P} ${byClock ? `key() at a clock stopped at ${iso(ms)}` : `key(${ms}) ${iso(ms)}`}`,
        "canonical", { time_ms: ms });
  });
  for (const ms of [U(2015, 1, 2, 10), U(2025, 5, 1)])
    for (const as of ["min", "max"])
      add(firebaseKey.key(ms, as), "pushid", `${P} key(${ms}, "${as}") ${iso(ms)}`, "canonical", { time_ms: ms });
}

// ----------------------------------------------------------- ulid, ksuid
// ULIDs and KSUIDs made by their own packages, in their life; and KSUIDs
// of 2016, before KSUID's first release (issue 37: they were read as
// nanoids)
{
  const P = PKG.ulid;
  const times = lifeTimes("ulid", 12);
  times.forEach((ms, i) => {
    const text = i === times.length - 1 ? atTime(ms, () => ulid()) : ulid(ms);
    add(text, "ulid", `${P} ${i === times.length - 1 ? `ulid() at a clock stopped at ${iso(ms)}` : `ulid(${ms}) ${iso(ms)}`}`,
        "canonical", { time_ms: ms });
  });
  const mono = monotonicFactory();
  const at = U(2024, 5, 1, 12);
  for (let i = 0; i < 3; i++)
    add(mono(at), "ulid", `${P} monotonicFactory()(${at}) ${iso(at)}, call ${i + 1}`, "canonical", { time_ms: at });
  const K = PKG.ksuid;
  lifeTimes("ksuid", 12, { seconds: true }).forEach((ms) =>
    add(KSUID.randomSync(new Date(ms)).string, "ksuid", `${K} KSUID.randomSync(new Date(${ms})) ${iso(ms)}`,
        "base62", { time_ms: ms }));
  for (const ms of [U(2016, 1, 3, 4, 5, 6), U(2016, 5, 1), U(2016, 8, 20, 13), U(2016, 11, 30, 23, 59, 59)])
    add(KSUID.randomSync(new Date(ms)).string, "ksuid", `${K} KSUID.randomSync(new Date(${ms})) ${iso(ms)} (2016: before KSUID's release)`,
        "base62", { time_ms: ms, early: true });
}

// --------------------------------------- UUIDs made early (issue 37, 3)
// UUIDv7s backfilled to 2016-2018 (their version and variant say v7, their
// time is before the format), and UUIDv6s of 2016 as v1ToV6 makes them of
// old v1s
{
  const P = PKG.uuid;
  for (const ms of [U(2016, 2, 1, 9), U(2016, 10, 11, 17, 3), U(2017, 3, 4, 5, 6, 7), U(2017, 11, 31, 23),
                    U(2018, 6, 1), U(2018, 10, 9, 8, 7, 6, 5)])
    add(uuid.v7({ msecs: ms }), "uuid7", `${P} v7({msecs: ${ms}}) ${iso(ms)} (backfilled: before v7's first draft)`,
        "lower", { time_ms: ms, early: true });
  for (const ms of [U(2016, 0, 15, 10), U(2016, 4, 5, 6, 7, 8), U(2016, 7, 30), U(2016, 11, 24, 18, 30)])
    add(uuid.v1ToV6(uuid.v1({ msecs: ms })), "uuid6", `${P} v1ToV6(v1({msecs: ${ms}})) ${iso(ms)} (an old v1 converted)`,
        "lower", { time_ms: ms, early: true });
}

// ------------------------------------------- the forms of a UUID (issue 37, 1)
// Package-made UUIDs written in the other forms the UUID world writes: 32
// hex digits (Python's uuid.hex, PostgreSQL's input), RFC 9562's URN,
// Microsoft's registry form (upper case in braces), the 128-bit decimal
// (OSSP uuid -F SIV), Python shortuuid's base 57 (by the Python package,
// as Debian's python3-shortuuid installs it) and npm short-uuid's Flickr
// base58 (by the package).
{
  const translator = shortUuid.createTranslator();
  const picked = [];
  for (const f of ["uuid1", "uuid3", "uuid4", "uuid5", "uuid6", "uuid7"])
    picked.push(...rows.filter((r) => r[1] === f && r[5] === "lower" && !/early|before/.test(r[4])).slice(0, 3));
  const py = execFileSync("/usr/bin/python3", ["-c",
    "import sys, uuid, shortuuid\nprint(shortuuid.__version__)\nfor u in sys.argv[1:]: print(shortuuid.encode(uuid.UUID(u)))",
    ...picked.map((r) => r[0])], { encoding: "utf8" }).trim().split("\n");
  const PY = `shortuuid@${py.shift()} (Python)`;
  picked.forEach((r, i) => {
    const [text, format, time_ms, , source] = r;
    const n = D.uuidFormValue(text, "lower"), f = D.uuidForms(n);
    const expect = time_ms === "-" ? {} : { time_ms: Number(time_ms) };
    const of = source.replace(/^(\S+) /, "");
    add(f.hex, format, `${source}, written as 32 hex digits`, "hex", expect);
    add(f.urn, format, `${source}, written as RFC 9562's URN`, "urn", expect);
    add(f.braced, format, `${source}, written in Microsoft's registry form`, "braced", expect);
    if (i % 3 === 0) add(f.braced.toLowerCase(), format, `${source}, written in braces (lower case, .NET's "B")`, "braced", expect);
    add(f.decimal, format, `${source}, written as its 128-bit decimal (OSSP uuid -F SIV)`, "decimal", expect);
    if (py[i] !== f.base57) throw new Error(`shortuuid writes ${py[i]} for ${text}, decode.mjs ${f.base57}`);
    add(py[i], format, `${PY} encode(UUID('${text}')) of ${of}`, "base57", expect);
    const s58 = translator.fromUUID(text);
    if (s58 !== f.flickr58) throw new Error(`short-uuid writes ${s58} for ${text}, decode.mjs ${f.flickr58}`);
    add(s58, format, `${PKG["short-uuid"]} createTranslator().fromUUID('${text}') of ${of}`, "flickr58", expect);
  });
  // their own generators: a fresh v4 each
  for (let i = 0; i < 6; i++)
    add(translator.generate(), "uuid4", `${PKG["short-uuid"]} createTranslator().generate()`, "flickr58");
  const fresh = execFileSync("/usr/bin/python3", ["-c", "import shortuuid\nfor _ in range(6): print(shortuuid.uuid())"],
                             { encoding: "utf8" }).trim().split("\n");
  for (const t of fresh) add(t, "uuid4", `${"shortuuid"} (Python) uuid()`, "base57");
}

// ------------------------------ formats the catalogue lacks (issue 37, 4)
// Named as nothing else: refused, or at most flagged.  cuid has a time
// (its package reads the clock, stopped here in cuid's life); cuid2 is a
// hash; shortid is a random text; Stripe's object IDs are a type prefix
// and letters that Stripe keeps to itself.
{
  const times = [U(2017, 3, 1, 10), U(2019, 6, 7, 8), U(2021, 1, 2, 3), U(2023, 9, 9), U(2025, 4, 30, 23), U(2026, 6, 1)];
  times.forEach((ms) => add(atTime(ms, () => cuid()), "cuid", `${PKG.cuid} cuid() at a clock stopped at ${iso(ms)}`,
                            "default", { time_ms: ms }));
  for (let i = 0; i < 6; i++) add(cuid2(), "cuid2", `${PKG["@paralleldrive/cuid2"]} createId()`, "default");
  for (let i = 0; i < 6; i++) add(shortid.generate(), "shortid", `${PKG.shortid} generate()`, "default");
  // as printed in Stripe's API reference (its example objects)
  for (const [t, what] of [["cus_NffrFeUfNV2Hib", "Customer"], ["pi_3MtwBwLkdIwHu7ix28a3tqPa", "PaymentIntent"],
                           ["ch_3MmlLrLkdIwHu7ix0snN0B15", "Charge"], ["prod_NWjs8kKbJWmuuc", "Product"],
                           ["price_1MoBy5LkdIwHu7ixZhnattbh", "Price"], ["sub_1MowQVLkdIwHu7ixeRlqHVzs", "Subscription"],
                           ["in_1MtHbELkdIwHu7ixl4OzzPMv", "Invoice"], ["evt_1NG8Du2eZvKYlo2CUI79vXWy", "Event"]])
    add(t, "stripe", `Stripe API reference, the ${what} object example`, "prefixed");
}

// ----------------------------------------------- texts that are no ID
// At least 100, of the kinds people paste beside IDs: words and names,
// hashes (MD5, SHA-1, SHA-256 hex of seeded strings), IPv4 and IPv6
// addresses, dates, Unix times, phone numbers, e-mail addresses, ISBNs
// (their check digits right), base64 tokens (RFC 4648 of seeded bytes).
{
  const none = (t, kind) => add(t, "none", `a text that is no ID: ${kind}`, kind);
  for (const w of ["hello", "world", "password", "identifier", "database", "example", "kubernetes", "postgres",
                   "transaction", "application", "Hello", "Welcome", "Configuration", "Monday", "September"])
    none(w, "word");
  for (const w of ["Kubernetes", "JavaScript", "PostgreSQL", "McDonald", "Christopher", "Alexandria", "Elizabeth",
                   "Washington", "Amsterdam", "Bartholomew", "MongoDB", "GitHub", "iPhone", "O'Brien", "Jean-Luc"])
    none(w, "name");
  for (let i = 0; i < 10; i++) {
    const b = Buffer.from(`a text that is no ID, number ${i}`);
    none(createHash("md5").update(b).digest("hex")[i % 4 === 3 ? "toUpperCase" : "toString"](), "md5");
    none(createHash("sha1").update(b).digest("hex"), "sha1");
    none(createHash("sha256").update(b).digest("hex"), "sha256");
  }
  for (const t of ["192.168.1.1", "10.0.0.1", "8.8.8.8", "127.0.0.1", "255.255.255.0", "172.16.254.1",
                   "203.0.113.7", "1.1.1.1"])
    none(t, "ipv4");
  for (const t of ["2001:db8::1", "::1", "fe80::1ff:fe23:4567:890a", "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
                   "2606:4700:4700::1111", "ff02::1"])
    none(t, "ipv6");
  for (const t of ["2024-01-05", "2024-02-29T23:59:59Z", "2025-01-01T00:00:00.000Z", "05/01/2024", "2024/01/05",
                   "20240105", "1999-12-31", "2026-11-01T12:34:56+01:00"])
    none(t, "date");
  for (const t of ["1700000000", "1700000000000", "1704412800", "1735689600000", "86400", "1609459200123",
                   "4102444800", "1714521600"])
    none(t, "unix time");
  for (const t of ["+14155552671", "4155552671", "+442071838750", "(415)555-2671", "415-555-2671", "+33142685300",
                   "07911123456", "+4915112345678"])
    none(t, "phone");
  for (const t of ["alice@example.com", "bob.smith@example.org", "first.last+tag@sub.example.co.uk",
                   "admin@localhost", "x@y.io", "support@github.com"])
    none(t, "e-mail");
  for (const t of ["0306406152", "9780306406157", "978-0-306-40615-7", "0-306-40615-2", "9781492052203",
                   "978-1-4920-5220-3", "080442957X", "9780262033848"])
    none(t, "isbn");
  const r = seeded("base64 tokens");
  for (const n of [12, 15, 16, 18, 20, 24, 30, 32, 33, 48, 64, 96])
    none(Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256))).toString("base64"), "base64");
}

// ------------------------------------------------------ documented examples
// doc(text, format, source, form, says): `says` is what the document states:
// time_ms (exact), time_s (a time given to the second), fields, or a check
// function over the decoded row (for facts that are not a time).  An example
// whose document states no time is kept with the time it decodes to, unless
// `within` is given and the time falls outside it.
function doc(text, format, source, form, says = {}) {
  let got;
  try { got = D.DECODERS[format](text, form); }
  catch (e) { dropped.push([text, format, source, `does not decode: ${e.message}` + (says.note ? ` (${says.note})` : "")]); return; }
  const why = [];
  if ("time_ms" in says && got.time_ms !== says.time_ms)
    why.push(`decodes to ${got.time_ms} (${got.time_ms === null ? "-" : iso(got.time_ms)}), the document says ${says.time_ms} (${iso(says.time_ms)})`);
  if ("near" in says && !(got.time_ms <= says.near[0] && got.time_ms >= says.near[0] - says.near[1]))
    why.push(`decodes to ${iso(got.time_ms)}, not within ${says.near[1]} ms before the document's ${iso(says.near[0])}`);
  if ("time_s" in says && Math.floor(got.time_ms / 1000) !== says.time_s)
    why.push(`decodes to ${iso(got.time_ms)}, the document says ${iso(says.time_s * 1000)}`);
  for (const [k, v] of Object.entries(says.fields ?? {}))
    if (!same(got.fields[k], v)) why.push(`field ${k} decodes to ${JSON.stringify(got.fields[k])}, the document says ${JSON.stringify(v)}`);
  if (says.within && !(got.time_ms >= says.within[0] && got.time_ms <= says.within[1]))
    why.push(`decodes to ${iso(got.time_ms)}, outside ${iso(says.within[0])}..${iso(says.within[1])}`);
  if (says.check) { const m = says.check(got); if (m) why.push(m); }
  if (why.length) { dropped.push([text, format, source, why.join("; ") + (says.note ? ` (${says.note})` : "")]); return; }
  // its time outside the format's life: it shows the layout, but no
  // format wrote it then
  const outside = got.time_ms !== null && (got.time_ms < LIFE[format] || got.time_ms > NOW);
  add(text, format, source, form, {}, outside);
}

const RFC = "RFC 9562";
const RFC_TIME = U(2022, 1, 22, 19, 22, 22); // "Tuesday, February 22, 2022 2:22:22.00 PM GMT-05:00"
const DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
const URLNS = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
function nameCheck(hash, v, ns, name) {
  return (text) => (text.toLowerCase() === nameBased(hash, v, ns, name) ? {} :
    { check: () => `is not the ${hash} name-based UUID of ${JSON.stringify(name)}` });
}
// v8 name-based (B.2): SHA-256 of namespace+name, version 8, variant 10
function sha256Name(ns, name) {
  const h = createHash("sha256").update(Buffer.from(ns.replace(/-/g, ""), "hex")).update(name).digest().subarray(0, 16);
  h[6] = (h[6] & 0x0f) | 0x80; h[8] = (h[8] & 0x3f) | 0x80;
  return h.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}

doc("C232AB00-9414-11EC-B3C8-9F6BDECED846", "uuid1", `${RFC} Appendix A.1`, "upper",
    { time_ms: RFC_TIME, fields: { timestamp: "138648505420000000", clock_seq: 0x33c8, node: "9f6bdeced846" } });
doc("5df41881-3aed-3515-88a7-2f4a814cf09e", "uuid3", `${RFC} Appendix A.2 (DNS, "www.example.com")`, "lower",
    nameCheck("md5", 3, DNS, "www.example.com")("5df41881-3aed-3515-88a7-2f4a814cf09e"));
doc("919108f7-52d1-4320-9bac-f847db4148a8", "uuid4", `${RFC} Appendix A.3`, "lower");
doc("2ed6657d-e927-568b-95e1-2665a8aea6a2", "uuid5", `${RFC} Appendix A.4 (DNS, "www.example.com")`, "lower",
    nameCheck("sha1", 5, DNS, "www.example.com")("2ed6657d-e927-568b-95e1-2665a8aea6a2"));
doc("1EC9414C-232A-6B00-B3C8-9F6BDECED846", "uuid6", `${RFC} Appendix A.5`, "upper",
    { time_ms: RFC_TIME, fields: { timestamp: "138648505420000000", clock_seq: 0x33c8, node: "9f6bdeced846" } });
doc("017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "uuid7", `${RFC} Appendix A.6`, "upper",
    { time_ms: RFC_TIME, fields: { unix_ts_ms: 0x17f22e279b0, rand_a: 0xcc3, rand_b: "18c4dc0c0c07398f" } });
doc("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0", "uuid8", `${RFC} Appendix B.1 (time-based example layout)`, "upper",
    { check: (g) => {
      // B.1's layout: a 60-bit count of 10 ns since the Unix epoch in custom_a and custom_b
      const ticks = (BigInt("0x" + g.fields.custom_a) << 12n) | BigInt(g.fields.custom_b);
      return ticks === BigInt(RFC_TIME) * 100000n ? null : `B.1 ticks ${ticks} are not ${iso(RFC_TIME)}`;
    } });
doc("5c146b14-3c52-8afd-938a-375d0df1fbf6", "uuid8", `${RFC} Appendix B.2 (SHA-256 of DNS, "www.example.com")`, "lower",
    { check: () => (sha256Name(DNS, "www.example.com") === "5c146b14-3c52-8afd-938a-375d0df1fbf6" ? null : "not the SHA-256 name-based UUID") });
doc("00000000-0000-0000-0000-000000000000", "uuid_nil", `${RFC} Section 5.9`, "lower");
doc("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "uuid_max", `${RFC} Section 5.10`, "upper");
// the uuid package's README
const README_UUID = `${PKG.uuid} README`;
const NOV2011 = U(2011, 10, 1);
doc("710b962e-041c-11e1-9234-0123456789ab", "uuid1", `${README_UUID} v1(options) example`, "lower",
    { time_ms: NOV2011, fields: { timestamp: String((BigInt(NOV2011 - D.GREGORIAN_MS) * 10000n) + 5678n), clock_seq: 0x1234, node: "0123456789ab" } });
doc("1e1041c7-10b9-662e-9234-0123456789ab", "uuid6", `${README_UUID} v6(options) example`, "lower",
    { time_ms: NOV2011, fields: { timestamp: String((BigInt(NOV2011 - D.GREGORIAN_MS) * 10000n) + 5678n), clock_seq: 0x1234, node: "0123456789ab" } });
{
  const one = "92f62d9e-22c4-11ef-97e9-325096b39f47", six = "1ef22c49-2f62-6d9e-97e9-325096b39f47";
  const same16 = () => (same(D.uuid(one, 1), D.uuid(six, 6)) ? null : "v1ToV6 pair differs");
  doc(one, "uuid1", `${README_UUID} v1ToV6 example`, "lower", { check: same16 });
  doc(six, "uuid6", `${README_UUID} v1ToV6 example`, "lower", { check: same16 });
}
doc("57fd0000-c7d3-11ef-841d-514d2167fc5b", "uuid1", `${README_UUID} v1() example`, "lower");
doc("1efc7d35-7fd0-6000-841d-504d2167fc5b", "uuid6", `${README_UUID} v6() example`, "lower");
doc("01941f29-7c00-73e4-a310-744d2167fc5b", "uuid7", `${README_UUID} v7() example`, "lower");
doc("b18794e8-5d0d-417c-b361-ba38e78411b4", "uuid4", `${README_UUID} v4() example`, "lower");
doc("109156be-c4fb-41ea-b1b4-efe1671c5836", "uuid4", `${README_UUID} v4({random}) example`, "lower");
doc("6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b", "uuid4", `${README_UUID} parse() example`, "lower");
doc("630eb68f-e0fa-5ecc-887a-7c7a62614681", "uuid5", `${README_UUID} v5("Hello, World!", MY_NAMESPACE) example`, "lower",
    nameCheck("sha1", 5, "1b671a64-40d5-491e-99b0-da01ff1f3341", "Hello, World!")("630eb68f-e0fa-5ecc-887a-7c7a62614681"));
doc("c106a26a-21bb-5538-8bf2-57095d1976c1", "uuid5", `${README_UUID} v5("https://www.w3.org/", URL) example`, "lower",
    nameCheck("sha1", 5, URLNS, "https://www.w3.org/")("c106a26a-21bb-5538-8bf2-57095d1976c1"));

// MongoDB manual
doc("507c7f79bcf86cd7994f6c0e", "objectid", "MongoDB manual, ObjectId.getTimestamp() example", "hex",
    { time_ms: U(2012, 9, 15, 21, 26, 17) });
doc("507f1f77bcf86cd799439011", "objectid", "MongoDB manual, ObjectId() example", "hex");
doc("507f191e810c19729de860ea", "objectid", "MongoDB manual, ObjectId.toString() example", "hex");

// xid: rs/xid README; its time, counter and bytes are stated in xid-ts's README
doc("9m4e2mr0ui3e8a215n4g", "xid", "rs/xid README; xid-ts README (timestamp 1300816219, counter 4271561)", "base32hex",
    { time_ms: 1300816219000,
      fields: { seconds: 1300816219, counter: 4271561, machine: "60f486", pid: 0xe428 } });

// TSID: tsid-ts README, tsid-ts doc comments, tsid-creator README
{
  const big = (t) => D.tsidValue(t);
  const equal = (a, b, what) => ({ check: () => (big(a) === big(b) ? null : `${a} and ${b} differ (${what})`) });
  doc("0DXBQ9H279R05", "tsid", "tsid-ts README toString() example", "canonical", equal("0DXBQ9H279R05", "501438102971408389", "README's bigint"));
  doc("501438102971408389", "tsid", "tsid-ts README toBigInt() example", "decimal", equal("0DXBQ9H279R05", "501438102971408389", "README's string"));
  doc("0AWE5HZP3SKTK", "tsid", "tsid-ts TSID.fromString() doc comment", "canonical");
  doc("0AXFXR5W7VBX0", "tsid", "tsid-ts toStringWithFormat() doc comment (= hex 0575FDC1787DAFA0)", "canonical",
      { check: () => (big("0AXFXR5W7VBX0") === 0x0575fdc1787dafa0n ? null : "not 0x0575FDC1787DAFA0") });
  doc("437283649808777971", "tsid", "tsid-ts toStringWithFormat() doc comment", "decimal");
  // tsid-creator README: two runs of 8, the millisecond changing between them
  const strs = ["01226N0640J7K", "01226N0640J7M", "01226N0640J7N", "01226N0640J7P", "01226N0640J7Q",
                "01226N0640J7R", "01226N0640J7S", "01226N0640J7T", "01226N0693HDA", "01226N0693HDB",
                "01226N0693HDC", "01226N0693HDD", "01226N0693HDE", "01226N0693HDF", "01226N0693HDG", "01226N0693HDH"];
  const nums = ["38352658567418867", "38352658567418868", "38352658567418869", "38352658567418870",
                "38352658567418871", "38352658567418872", "38352658567418873", "38352658567418874",
                "38352658573940759", "38352658573940760", "38352658573940761", "38352658573940762",
                "38352658573940763", "38352658573940764", "38352658573940765", "38352658573940766"];
  const run = (list) => (i) => () => {
    const a = D.tsid(list[i]), b = D.tsid(list[i === 0 ? 1 : i - 1]);
    const sameMs = (i === 8) !== (a.time_ms === b.time_ms) || i === 0; // the ms changes only at the 9th
    const step = i === 0 || i === 8 || big(list[i]) === big(list[i - 1]) + 1n;
    return sameMs && step ? null : "the README's sequence does not step as it says";
  };
  strs.forEach((s, i) => doc(s, "tsid", "tsid-creator README, sequence of TSID strings", "canonical", { check: run(strs)(i), within: [D.TSID_EPOCH, U(2021, 0, 1)] }));
  // a TSID's canonical text is the 13 characters: of the decimal sequence
  // only the first of each millisecond is kept
  [0, 8].forEach((i) => doc(nums[i], "tsid", "tsid-creator README, sequence of TSIDs", "decimal", { check: run(nums)(i), within: [D.TSID_EPOCH, U(2021, 0, 1)] }));
  // getTime() 9153062458, getRandom() 305516, getInstant() 2020-04-15T22:31:02.458Z: one TSID
  const n = (9153062458n << 22n) | 305516n;
  doc(D.tsidCanonical(n), "tsid", "tsid-creator README getTime()/getRandom()/getInstant() example (text made from those fields)", "canonical",
      { time_ms: U(2020, 3, 15, 22, 31, 2, 458), fields: { ms: 9153062458, node_counter: 305516 } });
}

// TypeID spec (valid.yml, README) and typeid-js README
{
  const SPEC = "TypeID spec v0.3.0";
  const is = (u) => ({ fields: { uuid: u } });
  doc("00000000000000000000000000", "typeid", `${SPEC} valid.yml "nil"`, "bare", is("00000000-0000-0000-0000-000000000000"));
  doc("00000000000000000000000001", "typeid", `${SPEC} valid.yml "one"`, "bare", is("00000000-0000-0000-0000-000000000001"));
  doc("0000000000000000000000000a", "typeid", `${SPEC} valid.yml "ten"`, "bare", is("00000000-0000-0000-0000-00000000000a"));
  doc("0000000000000000000000000g", "typeid", `${SPEC} valid.yml "sixteen"`, "bare", is("00000000-0000-0000-0000-000000000010"));
  doc("00000000000000000000000010", "typeid", `${SPEC} valid.yml "thirty-two"`, "bare", is("00000000-0000-0000-0000-000000000020"));
  doc("7zzzzzzzzzzzzzzzzzzzzzzzzz", "typeid", `${SPEC} valid.yml "max-valid"`, "bare", is("ffffffff-ffff-ffff-ffff-ffffffffffff"));
  doc("prefix_0123456789abcdefghjkmnpqrs", "typeid", `${SPEC} valid.yml "valid-alphabet"`, "prefixed", is("0110c853-1d09-52d8-d73e-1194e95b5f19"));
  doc("prefix_01h455vb4pex5vsknk084sn02q", "typeid", `${SPEC} valid.yml "valid-uuidv7"`, "prefixed", is("01890a5d-ac96-774b-bcce-b302099a8057"));
  doc("pre_fix_00000000000000000000000000", "typeid", `${SPEC} valid.yml "prefix-underscore"`, "prefixed", is("00000000-0000-0000-0000-000000000000"));
  doc("user_2x4y6z8a0b1c2d3e4f5g6h7j8k", "typeid", `${SPEC} README example`, "prefixed");
  doc("prefix_00041061050r3gg28a1c60t3gf", "typeid", `${PKG["typeid-js"]} README fromString() example`, "prefixed");
}

// Firebase blog, "The 2^120 Ways to Ensure Unique Identifiers" (2015-02): no
// times are stated; the post is from February 2015
for (const k of ["-JhLeOlGIEjaIOFHR0xd", "-JhQ76OEK_848CkIFhAq", "-JhQ7APk0UtyRTFO9-TS"])
  doc(k, "pushid", "Firebase blog, The 2^120 Ways to Ensure Unique Identifiers (2015)", "canonical",
      { within: [U(2014, 0, 1), U(2015, 2, 1)] });

// Snowflakes
doc("175928847299117063", "discord", "Discord API docs, Reference: Snowflakes (2016-04-30T11:18:25.796Z)", "decimal",
    { time_ms: U(2016, 3, 30, 11, 18, 25, 796), fields: { worker: 1, process: 0, increment: 7 } });
doc("1050118621198921728", "twitter", "Twitter API docs, Tweet object (created_at Wed Oct 10 20:19:24 +0000 2018)", "decimal",
    { time_s: U(2018, 9, 10, 20, 19, 24) / 1000 });
doc("1307025659294674945", "twitter", "Twitter API v2 docs, example payloads (created_at 2020-09-18T18:36:15.000Z)", "decimal",
    { time_s: U(2020, 8, 18, 18, 36, 15) / 1000 });
doc("80351110224678912", "discord", "Discord API docs, example User object (no time stated)", "decimal",
    { within: [D.DISCORD_EPOCH, NOW] });
doc("1212092628029698048", "twitter", "Twitter API v2 docs, Tweet lookup example (created_at 2019-12-31T19:26:16.000Z)", "decimal",
    { time_s: U(2019, 11, 31, 19, 26, 16) / 1000 });
doc("1212092627178287104", "twitter", "Twitter API v2 docs, Tweet lookup example, the referenced (replied-to) Tweet", "decimal",
    { within: [U(2019, 11, 1), U(2019, 11, 31, 19, 26, 17)] }); // by the end of the reply's second
doc("1304102743196356610", "twitter", "Twitter API v2 docs, example payloads, conversation_id of the 2020-09-18 Tweet", "decimal",
    { within: [U(2020, 7, 1), U(2020, 8, 18, 18, 36, 15)] });
// A Mastodon status ID and its created_at are two readings of the clock: in
// the docs' examples the ID's time is a few ms before created_at, so the
// check is "at most 1000 ms before" rather than equality.
doc("103270115826048975", "mastodon", "Mastodon docs, Status entity example (created_at 2019-12-08T03:48:33.901Z)", "decimal",
    { near: [U(2019, 11, 8, 3, 48, 33, 901), 1000] });
doc("103186126728896492", "mastodon", "Mastodon docs, Notification entity, mention example status (created_at 2019-11-23T07:49:01.940Z)", "decimal",
    { near: [U(2019, 10, 23, 7, 49, 1, 940), 1000] });
doc("103186046267791694", "mastodon", "Mastodon docs, Notification entity, favourite example status (created_at 2019-11-23T07:28:34.210Z)", "decimal",
    { near: [U(2019, 10, 23, 7, 28, 34, 210), 1000] });
doc("103186038209478945", "mastodon", "Mastodon docs, Notification entity, mention example in_reply_to_id (no time stated)", "decimal",
    { within: [U(2019, 10, 1), U(2019, 10, 23, 7, 49, 1, 940)] });

// ULID
{
  const SPEC = "ULID spec README";
  doc("01ARZ3NDEKTSV4RRFFQ69G5FAV", "ulid", `${SPEC} ulid() example`, "canonical");
  doc("01arz3ndektsv4rrffq69g5fav", "ulid", `${SPEC} ulid() example, lower-cased (the spec: case insensitive)`, "lower");
  doc("01ARYZ6S41TSV4RRFFQ69G5FAV", "ulid", "ulid/javascript README, ulid(1469918176385) example", "canonical",
      { time_ms: 1469918176385 });
  doc("01AN4Z07BY79KA1307SR9X4MV3", "ulid", `${SPEC} layout example`, "canonical");
  doc("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "ulid", `${SPEC} largest valid ULID (time 281474976710655)`, "canonical",
      { time_ms: 281474976710655 });
  const mono = ["01BX5ZZKBKACTAV9WEVGEMMVRY", "01BX5ZZKBKACTAV9WEVGEMMVRZ", "01BX5ZZKBKACTAV9WEVGEMMVS0",
                "01BX5ZZKBKACTAV9WEVGEMMVS1", "01BX5ZZKBKZZZZZZZZZZZZZZZX", "01BX5ZZKBKZZZZZZZZZZZZZZZY",
                "01BX5ZZKBKZZZZZZZZZZZZZZZZ"];
  const ms0 = D.ulid(mono[0]).time_ms;
  for (const m of mono)
    doc(m, "ulid", `${SPEC} monotonicity example`, "canonical", { time_ms: ms0 });
}

// KSUID README (segmentio/ksuid)
{
  const K = "segmentio/ksuid README";
  doc("0ujtsYcgvSTl8PAuAdqWYSMnLOv", "ksuid", `${K} inspect example (2017-10-09 21:00:47 -0700)`, "base62",
      { time_ms: U(2017, 9, 10, 4, 0, 47), fields: { timestamp: 107608047, payload: "B5A1CD34B5F99D1154FB6853345C9735" } });
  doc("0669F7EFB5A1CD34B5F99D1154FB6853345C9735", "ksuid", `${K} inspect example, Raw`, "hex",
      { time_ms: U(2017, 9, 10, 4, 0, 47), fields: { timestamp: 107608047, payload: "B5A1CD34B5F99D1154FB6853345C9735" } });
  doc("0ujzPyRiIAffKhBux4PvQdDqMHY", "ksuid", `${K} generate-and-inspect example (2017-10-09 21:46:20 -0700)`, "base62",
      { time_ms: U(2017, 9, 10, 4, 46, 20), fields: { timestamp: 107610780, payload: "73FC1AA3B2446246D6E89FCD909E8FE8" } });
  for (const [k, p] of [["0uk1Hbc9dQ9pxyTqJ93IUrfhdGq", "9850EEEC191BF4FF26F99315CE43B0C8"],
                        ["0uk1HdCJ6hUZKDgcxhpJwUl5ZEI", "CC55072555316F45B8CA2D2979D3ED0A"],
                        ["0uk1HcdvF0p8C20KtTfdRSB9XIm", "BA1C205D6177F0992D15EE606AE32238"],
                        ["0uk1Ha7hGJ1Q9Xbnkt0yZgNwg3g", "67517BA309EA62AE7991B27BB6F2FCAC"]])
    doc(k, "ksuid", `${K} template JSON example (timestamp 107611700)`, "base62",
        { time_ms: (107611700 + D.KSUID_EPOCH_S) * 1000, fields: { timestamp: 107611700, payload: p } });
  for (const k of ["0ujsswThIGTUYm2K8FjOOfXtY1K", "0ujsszwN8NRY24YaXiTIE2VWDTS", "0ujssxh0cECutqzMgbtXSGnjorm",
                   "0ujsszgFvbiEr7CDgE3z8MAUPFt"])
    doc(k, "ksuid", `${K} generate example`, "base62", { within: [U(2017, 9, 9), U(2017, 9, 11)] });
}

// Timeflake README (anthonynsimon/timeflake)
{
  const T = "anthonynsimon/timeflake README";
  const a = { time_ms: 1579275030563, fields: { timestamp: 1579275030563, random: "851298578153087956398315" } };
  doc("02i2XhN7hAuaFh3MwztcMd", "timeflake", `${T} Components / Alphabets example, base62`, "base62", a);
  doc("016fb4209023b444fd07590f81b7b0eb", "timeflake", `${T} Alphabets example, hex`, "hex", a);
  doc("1909226360721144613344160656901255403", "timeflake", `${T} Alphabets example, int`, "decimal", a);
  const b = { time_ms: 1579091935216, fields: { timestamp: 1579091935216, random: "724773312193627487660233" } };
  doc("016fa936bff0997a0a3c428548fee8c9", "timeflake", `${T} Usage example, hex`, "hex", b);
  doc("016fa936-bff0-997a-0a3c-428548fee8c9", "timeflake", `${T} Usage example, uuid`, "uuid", b);
  doc("1909005012028578488143182045514754249", "timeflake", `${T} Usage example, int`, "decimal", b);
  // two base62 examples in the README's Usage block are 23 characters long;
  // the README's Alphabets section (and the format) say 22
  doc("00mx79Rjxvfgr8qat2CeQDs", "timeflake", `${T} Usage example, base62`, "base62",
      { ...b, note: "23 characters; read as base62 it is not the hex 016fa936... printed beside it either" });
  doc("0002HCZffkHWhKPVdXxs0YH", "timeflake", `${T} parse(from_base62=...) example`, "base62",
      { note: "23 characters; its value, 0004fbc6872f70fc9e27355a499e8b6d, is kept in hex" });
  doc("0004fbc6872f70fc9e27355a499e8b6d", "timeflake", `${T} parse() example result, hex`, "hex");
}

// ------------------------------------------------------------ expectations
// named: its format alone reads it as any character can tell (corpus.sh:
// named right first); ambiguous: another format of the catalogue reads it
// as well, in that format's default form or in the row's own, with a time
// in that format's life (or none by nature) and as many fixed bits: no
// character tells them apart (flagged ambiguous, the row's among them);
// implausible: a time more than 20 years before its format's first IDs or
// after now, or a test vector of a tiny value (TypeID's "nil", "one"):
// never confidently another; foreign: a format the catalogue lacks; none:
// no ID at all (refused, or at most flagged).
const FOREIGN = new Set(["cuid", "cuid2", "stripe", "shortid"]);
const UNTIMED = new Set(["uuid3", "uuid4", "uuid5", "uuid8", "uuid_nil", "uuid_max", "nanoid"]);
const YEAR = 365.25 * DAY;
for (const r of rows) {
  const [text, format, time, fields] = r;
  if (FOREIGN.has(format)) { r[6] = "foreign"; continue; }
  if (format === "none") { r[6] = "none"; continue; }
  const t = time === "-" ? null : Number(time);
  const f = JSON.parse(fields);
  const tiny = f.uuid !== undefined && BigInt("0x" + f.uuid.replace(/-/g, "")) < (1n << 64n);
  if (tiny || (t !== null && (t > NOW + DAY || t < (D.FIRST[format] ?? LIFE[format]) - 20 * YEAR))) {
    r[6] = "implausible"; continue;
  }
  const reads = D.readings(text);
  const own = reads.filter((x) => x.format === format);
  const forms = new Set(own.map((x) => x.form));
  const marks = Math.max(0, ...own.map((x) => x.constbits));
  // short-uuid's base58 and shortuuid's base 57 share 56 digits: a text of
  // one is as often a text of the other (one shape)
  const shape = (f) => (f === "flickr58" ? "base57" : f);
  const shapes = new Set([...forms].map(shape));
  // (in another form a rival with no time is no rival of a time in life)
  const timed = own.some((x) => x.time_ms !== null);
  const rivals = reads.filter((x) => x.format !== format &&
    (x.default || forms.has(x.form) || (shapes.has(shape(x.form)) && (x.time_ms !== null || !timed))) &&
    x.constbits >= marks &&
    (x.time_ms === null ? UNTIMED.has(x.format)
                        : x.time_ms >= D.FIRST[x.format] && x.time_ms <= NOW + 27 * DAY));
  r[6] = rivals.length ? "ambiguous" : "named";
}

// -------------------------------------------------------------- write out
const header = ["text", "format", "time_ms", "fields", "source", "form", "expect"];
for (const r of rows) for (const c of r) if (/[\t\n]/.test(c)) throw new Error(`tab or newline in ${JSON.stringify(r)}`);
writeFileSync(path.join(here, "corpus.tsv"), [header, ...rows].map((r) => r.join("\t")).join("\n") + "\n");

const count = {}, kinds = {};
for (const r of rows) count[r[1]] = (count[r[1]] ?? 0) + 1;
for (const r of rows) kinds[r[6]] = (kinds[r[6]] ?? 0) + 1;
console.log(`corpus.tsv: ${rows.length} rows`);
for (const [f, n] of Object.entries(count).sort()) console.log(`  ${f.padEnd(9)} ${n}`);
for (const [k, n] of Object.entries(kinds).sort()) console.log(`  expect ${k.padEnd(11)} ${n}`);
for (const [text, format, source, why] of dropped)
  console.log(`dropped ${format} ${text} (${source}): ${why}`);
