// theirs.mjs: reads lines FORMAT<TAB>TEXT on stdin (IDs our library made)
// and checks each with the format's own npm package, as pinned in
// package-lock.json: the package must accept the text as an ID of that
// format, and read the same text back, and the time it carries is read with
// the package where it can (else from bytes or characters the package hands
// over).  One JSON line per input:
//   {"format":..,"text":..,"ok":true|false,"time_ms":..|null,"error":..|null}
// Exit status 0 when every line is ok, 1 otherwise (2 on a malformed line).
//
// Formats: uuid1 uuid3 uuid4 uuid5 uuid6 uuid7 uuid8 uuid_nil uuid_max
// objectid xid tsid typeid nanoid pushid; nanoid:SIZE for nanoid(SIZE).  The others in corpus.tsv
// (mastodon, discord, twitter, ulid, ksuid, timeflake) have no package here,
// and a line of theirs is answered ok:false.

import { createInterface } from "node:readline";
import * as uuid from "uuid";
import { ObjectId } from "bson";
import { Xid } from "xid-ts";
import { TSID } from "tsid-ts";
import { TypeID } from "typeid-js";
import { urlAlphabet } from "nanoid";
import * as firebaseKey from "firebase-key";
import shortUuid from "short-uuid";
import ShortUUID from "shortuuid";
import KSUID from "ksuid";
import { decodeTime, isValid as ulidValid } from "ulid";
import { gregorianToUnixMs, uuidParts } from "./decode.mjs";

class Refused extends Error {}
function need(cond, why) { if (!cond) throw new Refused(why); }

// the 128 bits of a UUID the uuid package parsed, as a BigInt
function uuidBits(text) {
  const bytes = uuid.parse(text); // throws TypeError on an invalid UUID
  return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

// time of a v1/v6/v7 UUID from the bytes uuid.parse() returns
function uuidTime(text, v) {
  const n = uuidBits(text);
  if (v === 7) return Number(n >> 80n);
  return gregorianToUnixMs(uuidParts(n).ts);
}

// A UUID in another form, as the 8-4-4-4-12 text the uuid package reads:
// flickr58 by npm's short-uuid (toUUID); base57 by npm's shortuuid 0.1.0,
// a port of Python's shortuuid 0.x that writes the digits least
// significant first (Python's since 1.0 writes them most significant
// first: the same digits reversed); hex, urn, braced and decimal by the
// form's own rule (no package here reads them).
const flickr = shortUuid.createTranslator();
const base57 = new ShortUUID();
function asUuid(text, form) {
  const dashed = (h) => h.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  switch (form) {
    case undefined: return text;
    case "flickr58": {
      need(/^[1-9a-km-zA-HJ-NP-Z]{22}$/.test(text), "not 22 digits of Flickr's base58");
      const u = flickr.toUUID(text);
      need(flickr.fromUUID(u) === text, "short-uuid's fromUUID(toUUID()) does not give it back");
      return u;
    }
    case "base57": {
      need(/^[2-9A-HJ-NP-Za-km-z]{22}$/.test(text), "not 22 digits of shortuuid's base 57");
      const back = [...text].reverse().join("");
      const u = base57.decode(back);
      need(base57.encode(u).split("").reverse().join("") === text, "shortuuid's encode(decode()) does not give it back");
      return u;
    }
    case "hex": need(/^[0-9a-fA-F]{32}$/.test(text), "not 32 hex digits"); return dashed(text);
    case "urn": need(/^urn:uuid:/i.test(text), "no urn:uuid:"); return text.slice(9);
    case "braced": need(/^\{.*\}$/.test(text), "not in braces"); return text.slice(1, -1);
    case "decimal": {
      need(/^[1-9][0-9]{0,38}$/.test(text) && BigInt(text) < 1n << 128n, "not a 128-bit decimal");
      return dashed(BigInt(text).toString(16).padStart(32, "0"));
    }
    default: throw new Refused(`no form ${JSON.stringify(form)} of a UUID`);
  }
}

function checkUuid(text0, v, form) {
  const text = asUuid(text0, form);
  need(uuid.validate(text), "uuid.validate() refuses it");
  need(uuid.version(text) === v, `uuid.version() says ${uuid.version(text)}, not ${v}`);
  need(uuid.stringify(uuid.parse(text)) === text.toLowerCase(), "uuid.parse()/stringify() do not give it back");
  if (v === 1) need(uuid.v6ToV1(uuid.v1ToV6(text)) === text.toLowerCase(), "v1ToV6/v6ToV1 do not give it back");
  if (v === 6) need(uuid.v1ToV6(uuid.v6ToV1(text)) === text.toLowerCase(), "v6ToV1/v1ToV6 do not give it back");
  return v === 1 || v === 6 || v === 7 ? uuidTime(text, v) : null;
}

const PUSH_ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{13}$/i;

const CHECKS = {
  uuid1: (t, f) => checkUuid(t, 1, f), uuid3: (t, f) => checkUuid(t, 3, f), uuid4: (t, f) => checkUuid(t, 4, f),
  uuid5: (t, f) => checkUuid(t, 5, f), uuid6: (t, f) => checkUuid(t, 6, f), uuid7: (t, f) => checkUuid(t, 7, f),
  uuid8: (t, f) => checkUuid(t, 8, f),
  uuid_nil: (t) => { need(uuid.validate(t) && t.toLowerCase() === uuid.NIL, "is not uuid.NIL"); return null; },
  uuid_max: (t) => { need(uuid.validate(t) && t.toLowerCase() === uuid.MAX, "is not uuid.MAX"); return null; },

  objectid: (t) => {
    // ObjectId.isValid also takes any 12-character string as 12 raw bytes
    need(t.length === 24 && ObjectId.isValid(t), "ObjectId.isValid() refuses it (or it is not 24 characters)");
    const id = ObjectId.createFromHexString(t);
    need(id.toHexString() === t.toLowerCase(), "toHexString() does not give it back");
    return id.getTimestamp().getTime();
  },

  xid: (t) => {
    const x = Xid.parse(t); // throws on anything not an xid
    need(x.toString() === t, "toString() does not give it back");
    return x.timestamp() * 1000;
  },

  tsid: (t) => {
    let id;
    if (/^[0-9]+$/.test(t) && t.length !== 13) { // decimal: the package's bigint
      id = new TSID(BigInt(t));
      need(id.toBigInt().toString() === t && id.toBigInt() < 1n << 64n, "not a 64-bit number");
    } else {
      // tsid-ts 0.0.9 does not check characters (an unknown one reads as -1)
      // nor size: both are checked here, then the package reads it
      need(CROCKFORD.test(t), "not 13 Crockford base32 characters");
      need(/^[0-9A-F]/i.test(t), "first character above F: more than 64 bits");
      id = TSID.fromString(t.toUpperCase(), "S");
      need(id.toString() === t.toUpperCase(), "toString() does not give it back");
    }
    return id.timestamp;
  },

  typeid: (t) => {
    const id = TypeID.fromString(t); // throws on a bad prefix or suffix
    need(id.toString() === t, "toString() does not give it back");
    const prefix = id.getType();
    need((prefix ? `${prefix}_` : "") + id.getSuffix() === t, "getType()/getSuffix() do not make it");
    const u = id.toUUID();
    need(uuid.version(u) === 7, `its suffix is a version ${uuid.version(u)} UUID; a new TypeID's must be 7`);
    return uuidTime(u, 7);
  },

  nanoid: (t, size) => {
    const want = size ?? 21;
    need(t.length === want, `${t.length} characters, not ${size ? `nanoid(${size})` : "nanoid()"}'s ${want}`);
    for (const c of t) need(urlAlphabet.includes(c), `character ${JSON.stringify(c)} is not in nanoid's urlAlphabet`);
    return null;
  },

  ulid: (t) => {
    need(ulidValid(t), "ulid's isValid() refuses it");
    return decodeTime(t);
  },

  ksuid: (t) => {
    const k = /^[0-9A-Fa-f]{40}$/.test(t) ? new KSUID(Buffer.from(t, "hex")) : KSUID.parse(t);
    need(/^[0-9A-Fa-f]{40}$/.test(t) ? k.raw.toString("hex") === t.toLowerCase() : k.string === t,
         "ksuid does not give it back");
    return k.date.getTime();
  },

  pushid: (t) => {
    need(t.length === 20, `${t.length} characters, not 20`);
    for (const c of t) need(PUSH_ALPHABET.includes(c), `character ${JSON.stringify(c)} is not in the push-ID alphabet`);
    const ms = firebaseKey.milliseconds(t);
    need(firebaseKey.key(ms, "min").slice(0, 8) === t.slice(0, 8), "key(milliseconds(id)) has other time characters");
    return ms;
  },
};

let all = true;
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (line.trim() === "") continue;
  const tab = line.indexOf("\t");
  if (tab < 0) { console.error(`theirs.mjs: not FORMAT<TAB>TEXT: ${JSON.stringify(line)}`); process.exit(2); }
  const format = line.slice(0, tab), text = line.slice(tab + 1);
  const out = { format, text, ok: false, time_ms: null, error: null };
  // nanoid:SIZE, and a UUID in another form: uuid4:flickr58
  const [name, param] = format.split(":");
  const check = CHECKS[name];
  const uuidForm = /^uuid[1-8]$/.test(name) && ["flickr58", "base57", "hex", "urn", "braced", "decimal"].includes(param);
  if (!check || (param !== undefined && !uuidForm && !(name === "nanoid" && /^[1-9][0-9]*$/.test(param))))
    out.error = `no package for format ${JSON.stringify(format)} here`;
  else {
    try { out.time_ms = check(text, param === undefined ? undefined : uuidForm ? param : Number(param)); out.ok = true; }
    catch (e) { out.error = e.message || String(e); }
  }
  if (!out.ok) all = false;
  console.log(JSON.stringify(out));
}
process.exit(all ? 0 : 1);
