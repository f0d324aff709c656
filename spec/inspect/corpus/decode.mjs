// decode.mjs: an independent reading of every format in the corpus, written
// from the formats' published layouts (see README.md), sharing no code with
// the npm packages.  make.mjs uses it to check that what a package wrote, and
// what a document says, agree with the layout; theirs.mjs uses only the small
// helpers that turn bytes a package gave it into a time.
//
// Every decoder takes the text and returns {time_ms, fields} (time_ms is a
// Number of Unix milliseconds, or null when the format carries no time), or
// throws an Error saying why the text is not of that format.

export const GREGORIAN_MS = -12219292800000; // 1582-10-15T00:00:00Z
export const DISCORD_EPOCH = 1420070400000; // 2015-01-01T00:00:00Z
export const TWITTER_EPOCH = 1288834974657; // 2010-11-04T01:42:54.657Z
export const TSID_EPOCH = 1577836800000; // 2020-01-01T00:00:00Z
export const KSUID_EPOCH_S = 1400000000; // 2014-05-13T16:53:20Z

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BASE32HEX = "0123456789abcdefghijklmnopqrstuv";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PUSH64 = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

function fail(why) { throw new Error(why); }

// text in the given alphabet, most significant digit first, as a BigInt
function digits(text, alphabet) {
  const base = BigInt(alphabet.length);
  let n = 0n;
  for (const c of text) {
    const d = alphabet.indexOf(c);
    if (d < 0) fail(`character ${JSON.stringify(c)} is not in the alphabet`);
    n = n * base + BigInt(d);
  }
  return n;
}

function hex(n, width) { return n.toString(16).padStart(width, "0"); }
function mask(bits) { return (1n << BigInt(bits)) - 1n; }

// ------------------------------------------------------------------- UUIDs
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidValue(text) {
  if (!UUID_RE.test(text)) fail("not 8-4-4-4-12 hexadecimal digits");
  return BigInt("0x" + text.replace(/-/g, ""));
}

// The other forms the UUID world writes (Python's uuid.UUID reads the first
// four): 32 hex digits, RFC 9562's URN, Microsoft's registry form in
// braces, the 128-bit number in decimal (ITU-T X.667's single integer
// value, OSSP uuid -F SIV), 22 digits of base 57 (Python's shortuuid since
// 1.0, most significant first) or of Flickr's base58 (npm's short-uuid).
export const SHORTUUID_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
export const FLICKR58_ALPHABET = "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
export const UUID_FORMS = ["lower", "upper", "hex", "urn", "braced", "decimal", "base57", "flickr58"];
const READ_FORMS = UUID_FORMS.filter((f) => f !== "upper");
export function uuidFormValue(text, form) {
  let n;
  switch (form) {
    case "hex":
      if (!/^[0-9a-fA-F]{32}$/.test(text)) fail("not 32 hexadecimal digits");
      return BigInt("0x" + text);
    case "urn":
      if (!/^urn:uuid:/i.test(text)) fail("no urn:uuid:");
      return uuidValue(text.slice(9));
    case "braced":
      if (!/^\{.*\}$/.test(text)) fail("not in braces");
      return uuidValue(text.slice(1, -1));
    case "decimal":
      if (!/^[1-9][0-9]{0,38}$/.test(text)) fail("not a decimal number");
      n = BigInt(text);
      break;
    case "base57": case "flickr58":
      if (text.length !== 22) fail("not 22 characters");
      n = digits(text, form === "base57" ? SHORTUUID_ALPHABET : FLICKR58_ALPHABET);
      break;
    default:
      return uuidValue(text);
  }
  if (n > mask(128)) fail("more than 128 bits");
  return n;
}
export function uuidForms(n) {
  const h = hex(n, 32), u = h.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  const b = (alphabet) => { let s = "", m = n; for (let i = 0; i < 22; i++) { s = alphabet[Number(m % BigInt(alphabet.length))] + s; m /= BigInt(alphabet.length); } return s; };
  return { lower: u, upper: u.toUpperCase(), hex: h, urn: "urn:uuid:" + u, braced: "{" + u.toUpperCase() + "}",
           decimal: n.toString(), base57: b(SHORTUUID_ALPHABET), flickr58: b(FLICKR58_ALPHABET) };
}

// a UUID's 128 bits as a BigInt -> its version, variant and fields
export function uuidParts(n) {
  const version = Number((n >> 76n) & 0xfn);
  const variant = Number((n >> 62n) & 0x3n); // 2 = 0b10, the RFC 9562 variant
  const clock_seq = Number((n >> 48n) & 0x3fffn);
  const node = hex(n & mask(48), 12);
  let ts = null; // 60-bit count of 100 ns since 1582-10-15 (v1, v6)
  if (version === 1) {
    const low = (n >> 96n) & mask(32), mid = (n >> 80n) & mask(16);
    const high = (n >> 64n) & mask(12);
    ts = (high << 48n) | (mid << 32n) | low;
  } else if (version === 6) {
    const high = (n >> 96n) & mask(32), mid = (n >> 80n) & mask(16);
    const low = (n >> 64n) & mask(12);
    ts = (high << 28n) | (mid << 12n) | low;
  }
  return { version, variant, clock_seq, node, ts };
}

export function gregorianToUnixMs(ts) {
  // floor division: ts is never negative
  return Number(ts / 10000n) + GREGORIAN_MS;
}

// a UUID of the given version: checks version and variant, returns fields
export function uuid(text, version, form) {
  const n = uuidFormValue(text, form);
  const p = uuidParts(n);
  if (version === "nil") {
    if (n !== 0n) fail("not the nil UUID");
    return { time_ms: null, fields: {} };
  }
  if (version === "max") {
    if (n !== mask(128)) fail("not the max UUID");
    return { time_ms: null, fields: {} };
  }
  if (p.version !== version) fail(`version nibble is ${p.version}, not ${version}`);
  if (p.variant !== 2) fail(`variant bits are ${p.variant.toString(2).padStart(2, "0")}, not 10`);
  switch (version) {
    case 1: case 6:
      return { time_ms: gregorianToUnixMs(p.ts),
               fields: { timestamp: p.ts.toString(), clock_seq: p.clock_seq, node: p.node } };
    case 7: {
      const ms = Number(n >> 80n);
      return { time_ms: ms,
               fields: { unix_ts_ms: ms, rand_a: Number((n >> 64n) & 0xfffn),
                         rand_b: hex(n & mask(62), 16) } };
    }
    case 8:
      return { time_ms: null,
               fields: { custom_a: hex(n >> 80n, 12), custom_b: Number((n >> 64n) & 0xfffn),
                         custom_c: hex(n & mask(62), 16) } };
    default: { // 3, 4, 5: no time; the rest is hash (3: MD5, 5: SHA-1) or random (4)
      const [a, b, c] = { 3: ["md5_high", "md5_mid", "md5_low"], 4: ["random_a", "random_b", "random_c"],
                          5: ["sha1_high", "sha1_mid", "sha1_low"] }[version];
      return { time_ms: null,
               fields: { [a]: hex(n >> 80n, 12), [b]: Number((n >> 64n) & 0xfffn), [c]: hex(n & mask(62), 16) } };
    }
  }
}

// ---------------------------------------------------------------- ObjectId
export function objectid(text) {
  if (!/^[0-9a-fA-F]{24}$/.test(text)) fail("not 24 hexadecimal digits");
  const n = BigInt("0x" + text);
  const seconds = Number(n >> 64n);
  return { time_ms: seconds * 1000,
           fields: { seconds, random: hex((n >> 24n) & mask(40), 10),
                     counter: Number(n & mask(24)) } };
}

// --------------------------------------------------------------------- xid
export function xid(text) {
  if (text.length !== 20) fail("not 20 characters");
  const n100 = digits(text, BASE32HEX); // 100 bits: 96 of the id, 4 zero
  if ((n100 & 0xfn) !== 0n) fail("last character has bits set past the 96 of an xid");
  const n = n100 >> 4n;
  const seconds = Number(n >> 64n);
  return { time_ms: seconds * 1000,
           fields: { seconds, machine: hex((n >> 40n) & mask(24), 6),
                     pid: Number((n >> 24n) & 0xffffn), counter: Number(n & mask(24)) } };
}

// -------------------------------------------------------------------- TSID
// form "decimal" (toLong / toBigInt) or "canonical" (13 Crockford characters,
// either case); without a form, digits-only text of other than 13 characters
// is read as decimal
export function tsidValue(text, form) {
  if (form === "decimal" || (!form && /^[0-9]+$/.test(text) && text.length !== 13)) {
    if (!/^[0-9]{1,20}$/.test(text)) fail("not a decimal number");
    const n = BigInt(text);
    if (n > mask(64)) fail("more than 64 bits");
    return n;
  }
  if (text.length !== 13) fail("not 13 characters");
  const n = digits(text.toUpperCase(), CROCKFORD);
  if (n > mask(64)) fail("more than 64 bits (first character above F)");
  return n;
}

export function tsid(text, form) {
  const n = tsidValue(text, form);
  const ms = Number(n >> 22n);
  return { time_ms: ms + TSID_EPOCH, fields: { ms, node_counter: Number(n & mask(22)) } };
}

export function tsidCanonical(n) { // the 13-character upper-case form
  let s = "";
  for (let i = 12; i >= 0; i--) s += CROCKFORD[Number((n >> BigInt(5 * i)) & 31n)];
  return s;
}

// ------------------------------------------------------------------ TypeID
const TYPEID_PREFIX = /^([a-z]([a-z_]{0,61}[a-z])?)?$/;
export function typeid(text) {
  const cut = text.lastIndexOf("_");
  const prefix = cut < 0 ? "" : text.slice(0, cut);
  const suffix = cut < 0 ? text : text.slice(cut + 1);
  if (cut === 0) fail("separator without a prefix");
  if (!TYPEID_PREFIX.test(prefix)) fail(`prefix ${JSON.stringify(prefix)} breaks the spec's rules`);
  if (suffix.length !== 26) fail("suffix is not 26 characters");
  if (!/^[0-7]/.test(suffix)) fail("suffix's first character is above 7");
  const n = digits(suffix, CROCKFORD.toLowerCase());
  const u = hex(n, 32).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  const p = uuidParts(n);
  // the time is that of a UUIDv7 suffix; a suffix of another kind carries none
  const ms = p.version === 7 && p.variant === 2 ? Number(n >> 80n) : null;
  const fields = { prefix, uuid: u };
  if (ms !== null) fields.unix_ts_ms = ms;
  return { time_ms: ms, fields };
}

// ------------------------------------------------------------------ nanoid
export const NANOID_ALPHABET =
  "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict";
export function nanoid(text) {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) fail("a character outside A-Za-z0-9_-");
  return { time_ms: null, fields: { size: text.length } };
}

// ----------------------------------------------------------------- push ID
export function pushid(text) {
  if (text.length !== 20) fail("not 20 characters");
  for (const c of text) if (!PUSH64.includes(c)) fail(`character ${JSON.stringify(c)} is not in the push-ID alphabet`);
  const ms = Number(digits(text.slice(0, 8), PUSH64));
  if (ms > Number(mask(48))) fail("time above 48 bits");
  return { time_ms: ms, fields: { ms, random: text.slice(8) } };
}
export function pushidTime(text) { return Number(digits(text.slice(0, 8), PUSH64)); }

// --------------------------------------------- Snowflakes: decimal 64-bit
function decimal64(text) {
  if (!/^[0-9]{1,20}$/.test(text)) fail("not a decimal number");
  const n = BigInt(text);
  if (n >= 1n << 63n) fail("does not fit a signed 64-bit integer");
  return n;
}
export function discord(text) {
  const n = decimal64(text);
  const timestamp = Number(n >> 22n);
  return { time_ms: timestamp + DISCORD_EPOCH,
           fields: { timestamp, worker: Number((n >> 17n) & 31n),
                     process: Number((n >> 12n) & 31n), increment: Number(n & 0xfffn) } };
}
export function twitter(text) {
  const n = decimal64(text);
  const timestamp = Number(n >> 22n);
  return { time_ms: timestamp + TWITTER_EPOCH,
           fields: { timestamp, datacenter: Number((n >> 17n) & 31n),
                     worker: Number((n >> 12n) & 31n), sequence: Number(n & 0xfffn) } };
}
export function mastodon(text) {
  const n = decimal64(text);
  const ms = Number(n >> 16n);
  return { time_ms: ms, fields: { ms, sequence: Number(n & 0xffffn) } };
}

// -------------------------------------------------------------------- ULID
export function ulid(text) {
  if (text.length !== 26) fail("not 26 characters");
  const n = digits(text.toUpperCase(), CROCKFORD);
  if (n > mask(128)) fail("more than 128 bits (first character above 7)");
  const ms = Number(n >> 80n);
  return { time_ms: ms, fields: { ms, random: hex(n & mask(80), 20) } };
}

// ------------------------------------------------------------------- KSUID
export function ksuid(text) {
  let n;
  if (/^[0-9A-Fa-f]{40}$/.test(text)) n = BigInt("0x" + text); // the "Raw" form
  else {
    if (text.length !== 27) fail("not 27 characters");
    n = digits(text, BASE62);
    if (n > mask(160)) fail("more than 160 bits");
  }
  const timestamp = Number(n >> 128n);
  return { time_ms: (timestamp + KSUID_EPOCH_S) * 1000,
           fields: { timestamp, payload: hex(n & mask(128), 32).toUpperCase() } };
}

// --------------------------------------------------------------- Timeflake
export function timeflakeValue(text) {
  if (UUID_RE.test(text)) return uuidValue(text);
  if (/^[0-9a-f]{32}$/.test(text)) return BigInt("0x" + text);
  if (/^[0-9]{30,39}$/.test(text)) { const n = BigInt(text); if (n > mask(128)) fail("more than 128 bits"); return n; }
  if (text.length !== 22) fail("not 22 base62 characters, 32 hex digits, a UUID or a decimal");
  const n = digits(text, BASE62);
  if (n > mask(128)) fail("more than 128 bits");
  return n;
}
export function timeflake(text) {
  const n = timeflakeValue(text);
  const ms = Number(n >> 80n);
  return { time_ms: ms, fields: { timestamp: ms, random: (n & mask(80)).toString() } };
}
export function timeflakeForms(n) {
  let b62 = "", m = n;
  for (let i = 0; i < 22; i++) { b62 = BASE62[Number(m % 62n)] + b62; m /= 62n; }
  const h = hex(n, 32);
  return { base62: b62, hex: h, decimal: n.toString(),
           uuid: h.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5") };
}

// ------------------------------------------ formats the catalogue lacks
// cuid (v1): 'c', then base 36: 8 digits of Unix ms, 4 of a counter, 4 of a
// fingerprint, 8 random (the npm cuid README's layout)
export function cuid(text) {
  if (!/^c[0-9a-z]{24}$/.test(text)) fail("not c and 24 of 0-9a-z");
  const ms = parseInt(text.slice(1, 9), 36);
  return { time_ms: ms, fields: { timestamp: ms, counter: parseInt(text.slice(9, 13), 36),
                                  fingerprint: text.slice(13, 17), random: text.slice(17) } };
}
// cuid2: a letter, then 0-9a-z, 24 in all by default: a hash, no time
export function cuid2(text) {
  if (!/^[a-z][0-9a-z]{1,31}$/.test(text)) fail("not a letter and 0-9a-z");
  return { time_ms: null, fields: { size: text.length } };
}
// Stripe's object IDs: a type prefix, '_', letters and digits it keeps to
// itself
export function stripe(text) {
  const m = /^([a-z]+(?:_[a-z]+)*)_([A-Za-z0-9]{8,})$/.exec(text);
  if (!m) fail("not a prefix, '_' and letters and digits");
  return { time_ms: null, fields: { prefix: m[1] } };
}
// shortid: 7 to 14 of A-Za-z0-9_-
export function shortid(text) {
  if (!/^[A-Za-z0-9_-]{7,14}$/.test(text)) fail("not 7 to 14 of A-Za-z0-9_-");
  return { time_ms: null, fields: { size: text.length } };
}
// a text that is no ID: any text, its kind in the form column
export function none() { return { time_ms: null, fields: {} }; }

export const DECODERS = {
  uuid1: (t, f) => uuid(t, 1, f), uuid3: (t, f) => uuid(t, 3, f), uuid4: (t, f) => uuid(t, 4, f),
  uuid5: (t, f) => uuid(t, 5, f), uuid6: (t, f) => uuid(t, 6, f), uuid7: (t, f) => uuid(t, 7, f),
  uuid8: (t, f) => uuid(t, 8, f), uuid_nil: (t, f) => uuid(t, "nil", f), uuid_max: (t, f) => uuid(t, "max", f),
  objectid, xid, tsid: (t, form) => tsid(t, form), typeid, nanoid, pushid, mastodon, discord, twitter, ulid, ksuid, timeflake,
  cuid, cuid2, stripe, shortid, none,
};

// ------------------------------------------------ who else reads a text
// Each format of idscheme's catalogue, as the forms it is written in: for a
// text, every reading {format, form, default, time_ms, constbits}, where
// form is the name of the encoding that reads it (as idscheme names it),
// default whether it is the format's default form, and constbits the fixed
// bits that hold (a UUID's version and variant).  A row whose text another
// format reads in its default form, or in the row's own form, with a time
// in that format's life (or no time) and at least as many fixed bits,
// cannot be told from it by any character: corpus.sh wants such a row
// flagged ambiguous.  A format read by its alphabet alone (nanoid at
// another size) has no marks to rival anything.  Instagram, Sonyflake and
// FLUID have no rows here, but read bare decimals.
const INSTAGRAM_EPOCH = 1293840000000, SONYFLAKE_EPOCH = 1409529600000, FLUID_EPOCH = 1735689600000;
const FLAX_EPOCH = 1420070400000;
// each format's first IDs (its release, or the day after its epoch), for
// a rival's time: as the formats' histories say (README.md)
const D_ = Date.UTC;
export const FIRST = {
  uuid1: D_(1990, 0, 1), uuid6: D_(2020, 0, 1), uuid7: D_(2021, 0, 1), objectid: D_(2009, 0, 1),
  xid: D_(2015, 0, 1), tsid: D_(2020, 0, 2), typeid: D_(2023, 0, 1), pushid: D_(2015, 1, 1),
  mastodon: D_(2017, 8, 1), discord: D_(2015, 0, 2), twitter: D_(2010, 10, 5), ulid: D_(2016, 0, 1),
  ksuid: D_(2017, 0, 1), timeflake: D_(2020, 0, 1), instagram: D_(2011, 0, 2),
  sonyflake: D_(2014, 8, 2), fluid: D_(2025, 0, 2), flax: D_(2015, 0, 2),
};
const tryRead = (f) => { try { return f(); } catch { return null; } };
export function readings(text) {
  const out = [];
  const put = (format, form, dflt, time_ms, constbits = 0) => out.push({ format, form, default: dflt, time_ms, constbits });
  const dec = tryRead(() => { const n = BigInt(text); return /^[1-9][0-9]*$/.test(text) ? n : null; });
  if (dec !== null && dec < (1n << 64n)) {
    if (dec < (1n << 63n)) {
      put("discord", "dec", true, Number(dec >> 22n) + DISCORD_EPOCH);
      put("twitter", "dec", true, Number(dec >> 22n) + TWITTER_EPOCH);
      put("mastodon", "dec", true, Number(dec >> 16n));
      put("sonyflake", "dec", true, Number(dec >> 24n) * 10 + SONYFLAKE_EPOCH);
    }
    put("instagram", "dec", true, Number(dec >> 23n) + INSTAGRAM_EPOCH);
    put("tsid", "dec", false, Number(dec >> 22n) + TSID_EPOCH);
    put("fluid", "dec", false, Number(dec >> 24n) + FLUID_EPOCH);
  }
  for (const form of READ_FORMS) {
    const n = tryRead(() => uuidFormValue(text, form));
    if (n === null) continue;
    const name = { lower: "uuid", upper: "uuid", decimal: "dec" }[form] ?? form;
    if (form === "decimal" && n < (1n << 64n)) continue;          // leading zeros: no
    const p = uuidParts(n);
    if (n === 0n) put("uuid_nil", name, name === "uuid", null, 128);
    else if (n === mask(128)) put("uuid_max", name, name === "uuid", null, 128);
    else if (p.variant === 2 && p.version >= 1 && p.version <= 8 && p.version !== 2)
      put(`uuid${p.version}`, name, name === "uuid",
          p.version === 1 || p.version === 6 ? gregorianToUnixMs(p.ts) : p.version === 7 ? Number(n >> 80n) : null, 6);
    if (["uuid", "hex"].includes(name)) put("ulid", name, false, Number(n >> 80n));
    if (["uuid", "hex", "dec"].includes(name)) put("timeflake", name, false, Number(n >> 80n));
  }
  const t = tryRead(() => timeflake(text));
  if (t && text.length === 22) put("timeflake", "base62", true, t.time_ms);
  const u = tryRead(() => ulid(text));
  if (u) put("ulid", "crockford", true, u.time_ms);
  const ty = tryRead(() => typeid(text));
  if (ty) put("typeid", "typeid", true, ty.time_ms, ty.time_ms === null ? 0 : 6);
  const k = tryRead(() => ksuid(text));
  if (k) put("ksuid", /^[0-9A-Fa-f]{40}$/.test(text) ? "hex" : "base62", !/^[0-9A-Fa-f]{40}$/.test(text), k.time_ms);
  const ts = /^[0-9]+$/.test(text) && text.length !== 13 ? null : tryRead(() => tsid(text, "canonical"));
  if (ts) put("tsid", "crockford", true, ts.time_ms);
  const o = tryRead(() => objectid(text));
  if (o) put("objectid", "hex", true, o.time_ms);
  const x = tryRead(() => xid(text));
  if (x) put("xid", "base32hex", true, x.time_ms);
  const pu = tryRead(() => pushid(text));
  if (pu) put("pushid", "b64sort", true, pu.time_ms);
  if (/^[A-Za-z0-9_-]{21}$/.test(text)) put("nanoid", "nanoid", true, null);
  // Flax: 40 bits of ms since 2015-01-01, 56 random, 16 characters of the
  // push-ID alphabet
  if (/^[A-Za-z0-9_-]{16}$/.test(text))
    put("flax", "flax", true, Number(digits(text, PUSH64) >> 56n) + FLAX_EPOCH);
  return out;
}
