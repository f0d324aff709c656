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
export function uuid(text, version) {
  const n = uuidValue(text);
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

export const DECODERS = {
  uuid1: (t) => uuid(t, 1), uuid3: (t) => uuid(t, 3), uuid4: (t) => uuid(t, 4),
  uuid5: (t) => uuid(t, 5), uuid6: (t) => uuid(t, 6), uuid7: (t) => uuid(t, 7),
  uuid8: (t) => uuid(t, 8), uuid_nil: (t) => uuid(t, "nil"), uuid_max: (t) => uuid(t, "max"),
  objectid, xid, tsid: (t, form) => tsid(t, form), typeid, nanoid, pushid, mastodon, discord, twitter, ulid, ksuid, timeflake,
};
