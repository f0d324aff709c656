// vectors.mjs: the reference vectors of spec/vectors through the package,
// as the C tests read them: fluid.json (test_fluid_vectors.c), flax.json,
// snowflake.json and siq.json (test_flax_snowflake_siq.c), kuid.json and
// kuid_node_hash.tsv (test_kuid.c).  The same entries, counts and
// expectations, through the JavaScript API: decode, encode, compose,
// fields, fromBytes, scheme parameters, a generator's nextAt.  What the C
// tests check with a frozen clock (a generator's IDs at a vector's time)
// is not in the package's API: Snowflake's is checked through nextAt
// (the same sequence per time), SIQ's (whose sequence refuses nextAt)
// stays with the C test.
//
// run(ids, t, files): ids the package (loaded), t the tally (harness.mjs),
// files { "fluid.json": text, ... }.  The same in node and in a page.

export default function run(ids, t, files) {
  const J = (f) => JSON.parse(files[f]);
  fluid(ids, t, J("fluid.json"));
  flax(ids, t, J("flax.json"));
  snowflake(ids, t, J("snowflake.json"));
  siq(ids, t, J("siq.json"));
  kuid(ids, t, J("kuid.json"), files["kuid_node_hash.tsv"]);
}

// --------------------------------------------------------------- helpers
const big = (x) => typeof x === "string" ? BigInt(x) : BigInt(x);
const unhex = (h) => {
  const b = new Uint8Array(h.length >> 1);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(h.substr(2 * i, 2), 16);
  return b;
};
const utf8 = (b) => new TextDecoder("utf-8", { fatal: true }).decode(b);

// decode as the C tests' decode(): 0 or the error's code (then its message
// must be there), and the Id
function dec(t, s, codec, text) {
  try {
    return { r: 0, v: s.decode(text, codec ?? undefined) };
  } catch (e) {
    if (!(e instanceof Error) || e.name !== "IdschemeError") throw e;
    t.ok(e.message.length > 0, `${s.name} ${codec ?? "default"} ${JSON.stringify(text)}: a message`);
    return { r: e.code, v: null, e };
  }
}
function fromBytes(s, b) {
  try { return { r: 0, v: s.fromBytes(b) }; } catch (e) { return { r: e.code, v: null, e }; }
}
// compose of every field by name (BigInts), 0 or the code
function compose(s, x) {
  const f = {};
  s.layout.fields.forEach((fd, i) => { if (x[i] !== undefined) f[fd.name] = x[i]; });
  try { return { r: 0, v: s.compose(f) }; } catch (e) {
    if (e.name !== "IdschemeError") throw e;
    return { r: e.code, v: null, e };
  }
}
// the fields as BigInts in layout order (a qualifier's by its value)
function fieldsOf(s, v) {
  const f = v.fields();
  return s.layout.fields.map((fd) => {
    const x = f[fd.name];
    if (typeof x === "string") return fd.qualifiers ? BigInt(qualValue(s, x)) : x;
    return BigInt(x);
  });
}
// a qualifier's value by name (SIQ's types), from the scheme's layout
function qualValue(s, name) {
  const f = s.layout.fields.find((fd) => fd.qualifiers);
  return f.qualifierValues[name] ?? -1;
}

// =================================================================== FLUID
function fluid(ids, t, j) {
  const S = ids.scheme("fluid");
  const codecs = ["f58", "f58_plain", "dec", "hex", "dothex", "words", "emoji"];
  const input = (o) => o.input_bytes_hex ? new TextDecoder().decode(unhex(o.input_bytes_hex)) : o.input;
  // texts whose bytes are no UTF-8 cannot be a JavaScript string as such
  const rawOk = (o) => !o.input_bytes_hex || (() => { try { utf8(unhex(o.input_bytes_hex)); return true; } catch { return false; } })();

  let count = 0;
  for (const o of j.encodings) {
    count++;
    const x = big(o.value), v = S.fromInteger(x);
    t.eq(S.encode(v), o.f58, `fluid ${x}: default encoding is f58`);
    for (const c of codecs) {
      t.eq(S.encode(v, c), o[c], `fluid ${c} of ${x}`);
      const b = dec(t, S, c, o[c]);
      t.ok(b.r === 0 && b.v.toBigInt() === x, `fluid ${c} decode of ${JSON.stringify(o[c])}`);
      const d = dec(t, S, null, o[c]);
      t.ok(d.r === 0 && d.v.toBigInt() === x, `fluid detected decode of ${JSON.stringify(o[c])}`);
    }
  }
  t.eq(count, 93, "fluid: 93 encodings");

  // inputs refused by our strict grammar (test_fluid_vectors.c's table)
  const refused = [
    ["EINVAL", "blank text is an error", [" ", "   \t", "\n"]],
    ["EINVAL", "dec has no sign", ["+5"]],
    ["EINVAL", "dothex: no space inside a group", ["0. 0.0.0"]],
    ["EINVAL", "dothex: no 0x inside a group", ["0x1.0.0.0"]],
    ["EINVAL", "dothex: no sign in a group", ["+1.0.0.0", "-1.0.0.0", "0.0.0.-1", "0.0.-1.0"]],
    ["ERANGE", "f58: 2^64 does not fit", ["fjpXCZedGfVR"]],
    ["ERANGE", "f58: above 2^64-1", ["fzzzzzzzzzzz", "f211111111111"]],
    ["EINVAL", "f58: non-ASCII digit", ["\u0192\u01921", "f\u00e9"]],
    ["ERANGE", "emoji: 2^64 does not fit", ["🚹💗💧👗😷📷📓"]],
    ["ERANGE", "emoji: above 2^64-1", ["🎌🎌🎌🎌🎌🎌🎌"]],
    ["EINVAL", "words: separators other than '-'", ["reform-remote galileo  heart_package+academy"]],
    ["EINVAL", "words: leading separator", ["-reform-remote-galileo--heart-package-academy"]],
    ["EINVAL", "words: trailing separator", ["reform-remote-galileo--heart-package-academy-"]],
    ["EINVAL", "words: junk after six words", ["reform-remote-galileo--heart-package-academy-bogus"]],
    ["EINVAL", "words: digits are not separators", ["reform1remote2galileo3heart4package5academy-"]],
  ];
  const seen = new Map();
  const find = (table, s) => {
    for (const [code, why, texts] of table) if (texts.includes(s)) return { code, why };
    return null;
  };
  count = 0;
  let accepted = 0;
  for (const o of j.decode_valid) {
    count++;
    if (!rawOk(o)) continue;
    const s = input(o), x = find(refused, s), r = dec(t, S, null, s);
    if (o.undefined_behavior_in_reference)
      t.ok(x !== null, `fluid ${JSON.stringify(s)}: flagged undefined_behavior_in_reference, and in the refused table`);
    if (x) {
      seen.set(s, (seen.get(s) ?? 0) + 1);
      t.eq(r.r, x.code, `fluid ${JSON.stringify(s)} must be refused (${x.why})`);
    }
    else {
      accepted++;
      t.ok(r.r === 0 && r.v.toBigInt() === big(o.value), `fluid ${JSON.stringify(s)} decodes to ${o.value}`);
    }
  }
  t.eq(count, 86, "fluid: 86 decode_valid");
  t.eq(accepted, 64, "fluid: 64 of them accepted");
  for (const [, why, texts] of refused)
    for (const s of texts) t.eq(seen.get(s), 1, `fluid refused table: ${JSON.stringify(s)} (${why}) matched one vector`);

  const trimmed = [[0n, ["0.0.0.0 ", "😃 "]], [6731191091817518n, ["\u0192uZZybuNNy "]]];
  count = 0;
  for (const o of j.decode_invalid) {
    count++;
    if (!rawOk(o)) {
      // bytes that are no UTF-8 (a lone 0xc6): what a string can hold of
      // them is a replacement character, refused as well
      const r = dec(t, S, null, new TextDecoder().decode(unhex(o.input_bytes_hex)));
      t.ok(r.r !== 0, `fluid bytes ${o.input_bytes_hex} (as text) refused`);
      continue;
    }
    const s = input(o), r = dec(t, S, null, s);
    const tr = trimmed.find(([, texts]) => texts.includes(s));
    if (tr) t.ok(r.r === 0 && r.v.toBigInt() === tr[0], `fluid ${JSON.stringify(s)}: trailing space trimmed`);
    else if (o.errno === "ERANGE") t.eq(r.r, "ERANGE", `fluid ${JSON.stringify(s)}: ERANGE`);
    else t.ok(r.r !== 0, `fluid ${JSON.stringify(s)} refused (reference: ${o.errno})`);
  }
  t.eq(count, 65, "fluid: 65 decode_invalid");

  count = 0;
  const names = ["timestamp", "generator", "sequence"];
  t.eq(S.layout.fields.map((f) => f.name).join(), names.join(), "fluid fields");
  for (const o of j.layout) {
    count++;
    const x = big(o.value), f = S.fields(S.fromInteger(x));
    for (const n of names) t.eq(BigInt(f[n]), big(o[n]), `fluid ${n} of ${x}`);
    t.eq(S.compose(f).toBigInt(), x, `fluid compose of ${x}`);
  }
  t.eq(count, 93, "fluid: 93 layouts");
}

// ==================================================== Flax, Snowflake, SIQ
// bigdec: 1 negative, 2 too wide (160 bits), 0 ok; and the value
function bigdec(s) {
  if (s.startsWith("-")) return [1, 0n];
  if (!/^[0-9]+$/.test(s)) return [2, 0n];
  const v = BigInt(s);
  return [v >> 160n ? 2 : 0, v];
}
const fits = (v, bits) => v >> BigInt(bits) === 0n;

function checkForms(t, s, name, v, forms, out) {
  for (const [codec, key, zero] of forms) {
    let want = out[key];
    if (!t.ok(typeof want === "string", `${name}: vector has ${key}`)) continue;
    if (want === "" && zero) {
      t.ok(v.toBigInt() === 0n, `${name}: ${key} empty for a value that is not 0`);
      want = zero;
    }
    t.eq(s.encode(v, codec), want, `${name}: ${codec} of ${v.hex}`);
    const b = dec(t, s, codec, want);
    t.ok(b.r === 0 && b.v.equals(v), `${name}: ${codec} decode of ${JSON.stringify(want)}`);
  }
}
function checkRefused(t, s, name, forms, out, code) {
  for (const [codec, key] of forms) {
    const x = out[key];
    if (typeof x !== "string" || x.startsWith("ERROR") || x === "") continue;
    const r = dec(t, s, codec, x);
    if (code) t.eq(r.r, code, `${name}: ${codec} ${JSON.stringify(x)} refused with ${code}`);
    else t.ok(r.r !== 0, `${name}: ${codec} ${JSON.stringify(x)} refused`);
  }
}
function checkBytes(t, s, name, v, hex) {
  if (!t.ok(typeof hex === "string", `${name}: bytes`)) return;
  const want = unhex(hex);
  if (!t.eq(want.length, s.bytes, `${name}: bytes in the vector`)) return;
  t.eq(v.hex, hex.toLowerCase(), `${name}: bytes of the value`);
  const b = fromBytes(s, want);
  t.ok(b.r === 0 && b.v.equals(v), `${name}: fromBytes ${hex}`);
}
function checkEntry(t, s, name, x, want, forms, out, bytesKey, dflt) {
  const c = compose(s, x);
  if (!t.ok(c.r === 0, `${name}: compose${c.e ? ": " + c.e.message : ""}`)) return null;
  const v = c.v;
  t.eq(v.toBigInt(), want, `${name}: compose gives the value`);
  checkForms(t, s, name, v, forms, out);
  checkBytes(t, s, name, v, out[bytesKey]);
  const back = fieldsOf(s, v);
  s.layout.fields.forEach((fd, i) => t.eq(back[i], BigInt(x[i]), `${name}: field ${fd.name}`));
  for (const k of dflt) {
    const d = dec(t, s, null, out[k]);
    t.ok(d.r === 0 && d.v.equals(v), `${name}: default decode of ${out[k]}`);
  }
  return v;
}

function checkValue(t, k, vec) {
  const { s, bits, forms, fieldsKey, fields, bytesKey, dflt } = k;
  const name = vec.name, out = vec.output, der = vec.derived_not_reference;
  const [b, want] = bigdec(out.format_d);
  const has = der && der[fieldsKey];
  if (b !== 0 || !fits(want, bits)) {
    checkRefused(t, s, name, forms, out, b === 1 ? null : "ERANGE");
    if (b === 0 && has !== undefined && has !== null)
      t.eq(compose(s, fields(der)).r, "ERANGE", `${name}: compose must be ERANGE`);
    t.ok(typeof out[bytesKey] === "string" && out[bytesKey].startsWith("ERROR"), `${name}: has no ${bytesKey}`);
    return null;
  }
  return checkEntry(t, s, name, fields(der), want, forms, out, bytesKey, dflt);
}

function checkVectors(t, list, k, total, used, good, generated) {
  let seen = 0, applied = 0, usable = 0, made = 0;
  for (const o of list) {
    seen++;
    if (!k.usable(o)) continue;
    applied++;
    const v = checkValue(t, k, o);
    if (v) usable++;
    made += k.generated(o, v);
  }
  t.eq(seen, total, `${k.s.name}: ${total} vectors`);
  t.eq(applied, used, `${k.s.name}: ${used} of integer time`);
  t.eq(usable, good, `${k.s.name}: ${good} usable values`);
  if (generated !== null) t.eq(made, generated, `${k.s.name}: ${generated} checked against a generator`);
  return made;
}
function checkRepresentations(t, list, k, total, good) {
  let seen = 0, usable = 0;
  for (const o of list) { seen++; if (checkValue(t, k, o)) usable++; }
  t.eq(seen, total, `${k.s.name}: ${total} representations`);
  t.eq(usable, good, `${k.s.name}: ${good} usable representations`);
}

function flax(ids, t, j) {
  const S = ids.scheme("flax");
  const forms = [["flax", "string"], ["hex", "id_num_hex"], ["dec", "id_num_dec"]];
  t.eq(S.layout.fields.map((f) => f.name).join(), "timestamp,random", "flax fields");
  let total = 0, used = 0, inrange = 0, negative = 0;
  for (const o of j.vectors) {
    total++;
    const name = o.name, out = o.output, d = o.derived_not_reference, dec_ = out.id_num_dec;
    const [b, want] = bigdec(dec_);
    if (b === 1) {
      negative++;
      t.eq(dec(t, S, "dec", dec_).r, "EINVAL", `${name}: dec ${dec_} refused`);
      t.eq(dec(t, S, "hex", out.id_num_hex).r, "EINVAL", `${name}: hex ${out.id_num_hex} refused`);
      continue;
    }
    if (o.input.float_math_differs_from_exact !== false) continue;
    used++;
    const x = [big(d.ms_since_flax_epoch), BigInt("0x" + d.random56_hex)];
    t.eq(x[0], big(o.input.ms_exact_decimal_floor), `${name}: derived ms is the exact ms`);
    if (x[0] >> 40n) {
      t.ok(b === 0 && !fits(want, 96), `${name}: past 96 bits`);
      t.eq(compose(S, x).r, "ERANGE", `${name}: compose past 2^40 ms is ERANGE`);
      t.eq(dec(t, S, "dec", dec_).r, "ERANGE", `${name}: dec ${dec_} is ERANGE`);
      t.ok(dec(t, S, "hex", out.id_num_hex).r !== 0, `${name}: hex refused`);
      t.ok(out.bytes12_hex === undefined || out.bytes12_hex === null, `${name}: no 12 bytes`);
      continue;
    }
    inrange++;
    if (checkEntry(t, S, name, x, want, forms, out, "bytes12_hex", ["string"]))
      t.ok(d.string_decodes_back_to_id_num === true, `${name}: string decodes back`);
  }
  t.eq(total, 31, "flax: 31 vectors");
  t.eq(used, 29, "flax: 29 of integer time");
  t.eq(inrange, 26, "flax: 26 in range");
  t.eq(negative, 2, "flax: 2 negative");

  total = 0;
  let ok = 0, wide = 0, neg = 0;
  for (const o of j.encoder_vectors) {
    total++;
    const [b, n] = bigdec(o.input_dec);
    if (b === 1) { neg++; t.eq(dec(t, S, "dec", o.input_dec).r, "EINVAL", `${o.name}: negative`); continue; }
    if (b !== 0 || !fits(n, 96)) { wide++; t.eq(dec(t, S, "dec", o.input_dec).r, "ERANGE", `${o.name}: too wide`); continue; }
    ok++;
    const v = dec(t, S, "dec", o.input_dec);
    if (!t.ok(v.r === 0 && v.v.toBigInt() === n, `${o.name}: dec`)) continue;
    t.eq(S.encode(v.v, "flax"), o.output, `${o.name}: flax of ${o.input_dec}`);
    const back = dec(t, S, "flax", o.output);
    t.ok(back.r === 0 && back.v.equals(v.v), `${o.name}: flax decode`);
  }
  t.eq(total, 14, "flax: 14 encoder vectors");
  t.eq(ok, 9, "flax: 9 encodable");
  t.eq(wide, 3, "flax: 3 too wide");
  t.eq(neg, 2, "flax: 2 negative");

  grammar(ids, t, S, FLAX_BAD, FLAX_GOOD, "1792030988790530007327423937", [11, 13]);
}

function snowflake(ids, t, j) {
  const S = ids.scheme("snowflake");
  const forms = [["dec", "format_d"], ["hex", "to_hex"], ["oct", "to_oct"], ["b64", "to_base64"],
                 ["cb32", "to_cb32"], ["b32l", "to_b32l", "a"]];
  const fields = (der) => [big(der.ms_since_epoch), big(der.local_id5), big(der.shard5), big(der.seq12)];
  t.eq(S.layout.fields.map((f) => f.name).join(), "timestamp,worker,shard,sequence", "snowflake fields");
  const k = {
    s: S, bits: 64, forms, fieldsKey: "ms_since_epoch", fields, bytesKey: "to_bytes_8_hex",
    dflt: ["format_d"],
    usable: (o) => o.generator_state?.float_math_differs_from_exact === false,
    // a generator with the vector's epoch, worker and shard makes the
    // vector's value as its (counter + 1)th ID for the vector's time
    // (nextAt: a sequence of its own per time given); a value past the
    // field is refused
    generated: (o, v) => {
      const der = o.derived_not_reference;
      if (v) t.eq(big(o.generator_state.cur_timestamp_ms), big(der.ms_since_epoch), `${o.name}: ms`);
      else if (der.ms_since_epoch === undefined) return 0;
      const epochS = o.input.epoch;
      if (!t.ok(Number.isInteger(epochS), `${o.name}: epoch`)) return 1;
      const s = ids.scheme("snowflake", { epoch_ms: epochS * 1000 });
      t.eq(s.epoch, epochS * 1000, `${o.name}: epoch_ms parameter`);
      const ms = epochS * 1000 + Number(der.ms_since_epoch);
      // nextAt makes a sequence-only layout's IDs for the past alone (the
      // present is next's): a vector of a time to come is the C test's
      // (its clock frozen there), counted apart
      if (ms >= Date.now()) { future++; return 0; }
      const g = s.generator({ worker: Number(der.local_id5), shard: Number(der.shard5) });
      let got = null, err = null;
      try { for (let i = 0; i <= o.input.counter; i++) got = g.nextIdAt(ms); } catch (e) { err = e; }
      g.close();
      if (!v) t.ok(err !== null && err.code === "ERANGE", `${o.name}: a generator past the time field refuses`);
      else t.ok(err === null && got.equals(s.fromInteger(v.toBigInt())), `${o.name}: generated ${got?.hex}${err ? ": " + err.message : ""}`);
      return 1;
    },
  };
  let future = 0;
  const made = checkVectors(t, j.vectors, k, 26, 21, 19, null);
  t.eq(made + future, 20, `snowflake: 20 vectors for a generator (${made} through nextAt, ${future} of times to come)`);
  checkRepresentations(t, j.representation_vectors, k, 8, 6);
  // Crockford's aliases for 1; parameters out of range
  const a = dec(t, S, "cb32", "00000000000I0"), one = dec(t, S, "cb32", "0000000000010");
  t.ok(a.r === 0 && one.r === 0 && a.v.equals(one.v) && a.v.toBigInt() === 16n, "snowflake cb32: I reads as 1");
  const l = dec(t, S, "cb32", "00000000000l0");
  t.ok(l.r === 0 && l.v.toBigInt() === 16n, "snowflake cb32: l reads as 1");
  for (const e of [-1, 2 ** 60]) {
    let code = null;
    try { ids.scheme("snowflake", { epoch_ms: e }); } catch (x) { code = x.code; }
    t.eq(code, "ERANGE", `snowflake epoch_ms = ${e} refused`);
  }
  grammar(ids, t, S, SNOW_BAD, SNOW_GOOD, "175928847299117063", [9, 7, 14]);
}

function siq(ids, t, j) {
  const S = ids.scheme("siq");
  t.eq(S.layout.fields.map((f) => f.name).join(), "timestamp,shard,domain,serial,qualifier", "siq fields");
  const forms = [["hex", "to_hex"], ["dec", "format_d"], ["oct", "to_oct"], ["b64", "to_base64"],
                 ["cb32", "to_cb32", "0"], ["b32l", "to_b32l"], ["did", "to_did"]];
  // a domain's hash, through compose by domain_name
  const hash = (name) => {
    const id = S.compose({ timestamp: 0, shard: 0, domain_name: name, serial: 0, qualifier: "content" });
    return BigInt(id.fields().domain);
  };
  let total = 0, used = 0, nonascii = 0;
  for (const o of j.domain_hash_vectors) {
    total++;
    if (o.local_id !== null || typeof o.domain !== "string") continue;
    used++;
    const h = hash(o.domain), sha = o.sha256_utf8_hex;
    const tail = sha ? BigInt("0x" + sha.slice(-8)) : null;
    if (o.domain === "0") {
      t.eq(big(o.hash), 0n, "siq domain \"0\": the reference gives 0");
      t.eq(h, 0x27fb57e9n, "siq domain \"0\": ours hashes it");
      continue;
    }
    if (o.error) { nonascii++; t.eq(h, tail, `siq domain ${JSON.stringify(o.domain)}: SHA-256 of its bytes`); continue; }
    t.eq(h, big(o.hash), `siq domain ${JSON.stringify(o.domain)}`);
    if (sha) t.eq(tail, big(o.hash), `siq domain ${JSON.stringify(o.domain)}: sha256 tail`);
  }
  t.eq(total, 24, "siq: 24 domain vectors");
  t.eq(used, 15, "siq: 15 used");
  t.eq(nonascii, 2, "siq: 2 not ASCII");
  t.eq(hash(""), 0n, "siq: \"\" means no domain");

  const qual = (type) => {
    const low = type.toLowerCase(), q = qualValue(S, low);
    t.ok(q > 0, `siq qualifier ${low}`);
    return BigInt(q);
  };
  total = 0;
  for (const o of j.siq_types) {
    total++;
    const q = qual(o.name), max = big(o.max_serial);
    t.eq(q, big(o.value), `siq type ${o.name}: value`);
    t.eq(max, (1n << big(o.serial_bits)) - 1n, `siq type ${o.name}: max serial`);
    const keys = ["prepend(0)", "prepend(1)", "prepend(max)"];
    [0n, 1n, max].forEach((serial, k) => {
      const c = compose(S, [0n, 0n, 0n, serial, q]);
      if (!t.ok(c.r === 0, `siq ${o.name} serial ${serial}`)) return;
      t.eq(c.v.toBigInt(), big(o[keys[k]]), `siq ${o.name} ${keys[k]}`);
      const f = c.v.fields();
      t.eq(BigInt(f.serial), serial, `siq ${o.name} serial back`);
      t.eq(f.qualifier, o.name.toLowerCase(), `siq ${o.name} qualifier back by name`);
    });
    t.eq(compose(S, [0n, 0n, 0n, max + 1n, q]).r, "ERANGE", `siq ${o.name}: serial ${max + 1n} is ERANGE`);
  }
  t.eq(total, 15, "siq: 15 types");
  t.eq(S.layout.fields[4].qualifiers.length, 15, "siq: 15 qualifiers");
  t.ok(compose(S, [0n, 0n, 0n, 0n, 18n]).r !== 0, "siq: qualifier 18 names no type");
  t.ok(compose(S, [0n, 0n, 0n, 0n, 0n]).r !== 0, "siq: qualifier 0 names no type");

  const k = {
    s: S, bits: 112, forms, fieldsKey: "qualifier_type",
    fields: (der) => [BigInt("0x" + der.ts56_hex), big(der.shard8), big(der.domain_hash32), big(der.serial),
                      qual(der.qualifier_type)],
    bytesKey: "to_bytes_default_hex", dflt: ["to_did", "to_hex"],
    usable: (o) => o.generator_state?.float_math_differs_from_exact === false || typeof o.input?.direct_ts56 === "number",
    // the domain's hash; the generator at a frozen tick is the C test's
    generated: (o, v) => {
      if (!v) return 0;
      const dom = o.input.domain;
      if (o.input.local_id === null && typeof dom === "string" && dom !== "0")
        t.eq(hash(dom), big(o.derived_not_reference.domain_hash32), `${o.name}: domain hash`);
      return 1;
    },
  };
  // 48 of the 50 usable values are made by a generator in test_flax_
  // snowflake_siq.c (two ticks lie past the clock); here each gives its hash
  checkVectors(t, j.vectors, k, 55, 53, 50, 50);
  checkRepresentations(t, j.representation_vectors, k, 7, 6);

  const pe = j.scenarios.find((o) => o.name === "parse_errors");
  if (t.ok(pe !== undefined, "siq scenario parse_errors")) {
    const a = dec(t, S, null, pe.did_good), b = dec(t, S, "did", pe.did_good);
    t.ok(a.r === 0 && b.r === 0 && a.v.equals(b.v), "siq: a good DID decodes by default and as did");
    t.eq(dec(t, S, null, pe.did_tampered).r, "EINVAL", "siq: a tampered DID is refused");
    t.eq(dec(t, S, "did", pe.did_tampered).r, "EINVAL", "siq: a tampered DID is refused as did");
    t.eq(fromBytes(S, new Uint8Array(13)).r, "EINVAL", "siq: 13 bytes refused");
  }
  // an unassigned suffix in bytes and in a DID with a good checksum
  const bad5 = 8258376282380787072694709846034n;
  t.eq(bad5 & 31n, 0x12n, "siq: suffix 10010");
  const b14 = new Uint8Array(14);
  for (let i = 13, x = bad5; i >= 0; i--, x >>= 8n) b14[i] = Number(x & 255n);
  t.eq(fromBytes(S, b14).r, "EINVAL", "siq: fromBytes of an unassigned suffix");
  // every type composes and decodes back through every form
  for (const qname of S.layout.fields[4].qualifiers) {
    const c = compose(S, [114607993683968n, 9n, 0xdeadbeefn, 5n, BigInt(qualValue(S, qname))]);
    if (!t.ok(c.r === 0, `siq ${qname}: compose`)) continue;
    for (const [codec] of forms) {
      const text = c.v.encode(codec), d = dec(t, S, codec, text);
      t.ok(d.r === 0 && d.v.equals(c.v), `siq ${qname}: ${codec} ${text}`);
    }
  }
  grammar(ids, t, S, SIQ_BAD, SIQ_GOOD, "8258376282380787072694709846023", [15]);
}

// Each scheme's texts refused and accepted, and byte lengths refused; no
// text or white space alone is an ID (test_flax_snowflake_siq.c's tables)
function grammar(ids, t, S, bad, good, value, lengths) {
  for (const [codec, text, code, why] of bad)
    t.eq(dec(t, S, codec, text).r, code, `${S.name} ${codec ?? "default"} ${JSON.stringify(text)} (${why})`);
  for (const b of ["", "  ", " \n", " \t\n"])
    t.eq(dec(t, S, null, b).r, "EINVAL", `${S.name}: ${JSON.stringify(b)} is no ID`);
  for (const [codec, text] of good) {
    const d = dec(t, S, codec, text);
    t.ok(d.r === 0 && d.v.toBigInt() === BigInt(value), `${S.name} ${codec ?? "default"} ${JSON.stringify(text)}`);
  }
  for (const n of lengths) t.eq(fromBytes(S, new Uint8Array(n)).r, "EINVAL", `${S.name}: fromBytes of ${n} bytes`);
}

const FLAX_BAD = [
  ["flax", "0RdKJcxqVBiAiQr", "EINVAL", "15 digits"],
  ["flax", "0RdKJcxqVBiAiQr00", "EINVAL", "17 digits"],
  ["flax", "0RdKJcxqVBiAiQr+", "EINVAL", "'+' is not a digit"],
  ["flax", "0RdKJcxqVBiAiQr=", "EINVAL", "'=' is not a digit"],
  ["flax", "0RdKJcxqVB iAiQr", "EINVAL", "space inside"],
  ["hex", "5ca55528f7680cb8bb9bdc1", "EINVAL", "23 digits"],
  ["hex", "005ca55528f7680cb8bb9bdc1", "EINVAL", "25 digits"],
  ["hex", "0x5ca55528f7680cb8bb9bdc", "EINVAL", "0x prefix"],
  ["hex", "05ca55528f7680cb8bb9bdcg", "EINVAL", "'g'"],
  ["dec", "+1", "EINVAL", "sign"],
  ["dec", "1e5", "EINVAL", "exponent"],
  ["dec", "79228162514264337593543950336", "ERANGE", "2^96"],
  ["dec", "1461501637330902918203684832716283019655932542976", "ERANGE", "2^160"],
  ["dec", "99999999999999999999999999999999999999999999999999999", "ERANGE", "far past 2^160"],
];
const FLAX_GOOD = [[null, " \t0RdKJcxqVBiAiQr0\r\n"], ["hex", "05CA55528F7680CB8BB9BDC1"],
                   ["dec", "0001792030988790530007327423937"]];
const SNOW_BAD = [
  ["dec", "-5", "EINVAL", "sign"], ["dec", "18446744073709551616", "ERANGE", "2^64"],
  ["dec", "99999999999999999999999", "ERANGE", "far past 2^64"], ["hex", "-5", "EINVAL", "sign"],
  ["hex", "0x271065ac1020007", "EINVAL", "0x prefix"], ["hex", "271065ac102000g", "EINVAL", "'g'"],
  ["hex", "10000000000000000", "ERANGE", "2^64"], ["oct", "11610145530100400008", "EINVAL", "'8'"],
  ["oct", "2000000000000000000000", "ERANGE", "2^64"], ["b64", "AAJxBlrBAgA", "EINVAL", "11 digits"],
  ["b64", "AAJxBlrBAgAHA", "EINVAL", "13 digits"], ["b64", "AAJxBlrBAg+H", "EINVAL", "'+' (not URL-safe)"],
  ["b64", "AAJxBlrBAgA=", "EINVAL", "padding"], ["b64", "AQAAAAAAAAAA", "ERANGE", "2^64"],
  ["b64", "________________", "EINVAL", "16 digits"], ["cb32", "09RGCPP10800", "EINVAL", "12 digits"],
  ["cb32", "09RGCPP10800EE", "EINVAL", "14 digits"], ["cb32", "09RGCPP10800F", "EINVAL", "pad bit set"],
  ["cb32", "09RGCPP1080UE", "EINVAL", "'U' is not Crockford"], ["b32l", "_f", "EINVAL", "SUOU's negative form"],
  ["b32l", "e4igllaqeaa1", "EINVAL", "'1'"], ["b32l", "e4igllaqeaa8", "EINVAL", "'8'"],
  ["b32l", "qaaaaaaaaaaaa", "ERANGE", "2^64"],
];
const SNOW_GOOD = [["cb32", "09rgcpp10800e"], ["cb32", "O9RGCPP1O8OOE"], ["hex", "271065AC1020007"],
                   ["hex", "000271065ac1020007"], ["b32l", "E4IGLLAQEAAH"], ["b32l", "aaaae4igllaqeaah"],
                   ["dec", " 175928847299117063\n"]];
const SIQ_BAD = [
  ["hex", "683c40c080002a86ce19470012", "EINVAL", "suffix 10010"],
  ["hex", "683c40c080002a86ce1947001a", "EINVAL", "suffix 11010"],
  ["hex", "683c40c080002a86ce1947001c", "EINVAL", "suffix 11100"],
  ["hex", "683c40c080002a86ce1947fff2", "EINVAL", "suffix 10010"],
  ["dec", "18", "EINVAL", "suffix 10010"], ["dec", "26", "EINVAL", "suffix 11010"],
  ["dec", "28", "EINVAL", "suffix 11100"], ["cb32", "J", "EINVAL", "suffix 10010"],
  ["b64", "AAAAAAAAAAAAAAAAAAAc", "EINVAL", "suffix 11100"],
  ["did", "did:siq:g626nfyagqpcaycaaakugzymuoaag", "EINVAL", "last digit changed"],
  ["did", "did:siq:h626nfyagqpcaycaaakugzymuoaah", "EINVAL", "checksum digit changed"],
  [null, "did:siq:g626nfyagqpcaycaaakugzymuoaag", "EINVAL", "last digit changed"],
  ["did", "did:siq:626nfyagqpcaycaaakugzymuoaah", "EINVAL", "28 digits"],
  ["did", "did:siq:ag626nfyagqpcaycaaakugzymuoaah", "EINVAL", "30 digits"],
  ["did", "did:siq:", "EINVAL", "no digits"], ["did", "g626nfyagqpcaycaaakugzymuoaah", "EINVAL", "no prefix"],
  ["did", "did:siQ:g626nfyagqpcaycaaakugzymuoaah", "EINVAL", "prefix case"],
  ["did", "did:siq:g626nfyagqpcaycaaakugzymuoaa1", "EINVAL", "'1'"],
  ["b64", "AABoPEDAgAAqhs4ZRwA", "EINVAL", "19 digits"], ["b64", "AABoPEDAgAAqhs4ZRwAHA", "EINVAL", "21 digits"],
  ["b64", "AABoPEDAgAAqhs4ZRw+H", "EINVAL", "'+'"], ["b64", "AQAAAAAAAAAAAAAAAAAA", "ERANGE", "2^112"],
  ["b32l", "aaagqpcaycaaakugzymuoaa", "EINVAL", "23 digits"], ["b32l", "aaagqpcaycaaakugzymuoaahh", "EINVAL", "25 digits"],
  ["b32l", "aaagqpcaycaaakugzymuoaa8", "EINVAL", "'8'"], ["b32l", "aeaaaaaaaaaaaaaaaaaaaaaa", "ERANGE", "2^112"],
  ["cb32", "40000000000000000000000", "ERANGE", "2^112"], ["cb32", "6GF20R2000AM6SRCME00U", "EINVAL", "'U'"],
  ["hex", "10000000000000000000000000000", "ERANGE", "2^112"], ["hex", "683c40c080002a86ce1947000g", "EINVAL", "'g'"],
  ["hex", "0x683c40c080002a86ce19470007", "EINVAL", "0x"], ["oct", "15017040300400000524154703121600008", "EINVAL", "'8'"],
  ["dec", "-1", "EINVAL", "sign"], ["dec", "5192296858534827628530496329220096", "ERANGE", "2^112"],
  [null, "did:siq", "EINVAL", "hex with ':'"],
];
const SIQ_GOOD = [["cb32", "6gf20r2000am6srcme007"], ["cb32", "6GF2OR2OOOAM6SRCMEOO7"], ["cb32", "06GF20R2000AM6SRCME007"],
                  ["hex", "683C40C080002A86CE19470007"], ["hex", "00683c40c080002a86ce19470007"],
                  ["b32l", "AAAGQPCAYCAAAKUGZYMUOAAH"], ["did", "did:siq:G626NFYAGQPCAYCAAAKUGZYMUOAAH"],
                  [null, "  did:siq:g626nfyagqpcaycaaakugzymuoaah\t"], [null, "683c40c080002a86ce19470007\n"]];

// ==================================================================== kuid
function kuid(ids, t, j, tsv) {
  const K64 = ids.scheme("kuid64"), K96 = ids.scheme("kuid96");
  t.eq(K64.layout.fields.map((f) => f.name).join(), "megaseconds,seconds,microseconds,sequence", "kuid64 fields");
  t.eq(K96.layout.fields.map((f) => f.name).join(), "megaseconds,seconds,microseconds,node,sequence", "kuid96 fields");
  const open96 = (I, hash) => {
    try { return { s: ids.scheme("kuid96", hash !== undefined ? { interval: I, hash } : { interval: I }), code: 0 }; }
    catch (e) { return { s: null, code: e.code }; }
  };
  // a node name's fingerprint: compose by node_name, read node back
  const fingerprint = (s, name) =>
    BigInt(s.compose({ megaseconds: 0, seconds: 0, microseconds: 0, node_name: name, sequence: 0 }).fields().node);
  const parseTerm = (text) => {
    const m = /^\{uid,(?:'([^']*)',|<<([0-9,]*)>>,|([a-z][^,]*),)?\{(-?\d+),(-?\d+),(-?\d+)\},(-?\d+)\}$/.exec(text);
    if (!m) return null;
    return { atom: m[1] ?? m[3] ?? null, bin: m[2] !== undefined ? m[2].split(",").filter((x) => x).map(Number) : null,
             a: BigInt(m[4]), b: BigInt(m[5]), c: BigInt(m[6]), seq: BigInt(m[7]) };
  };
  const termOf = (o) => {
    const n = o.node;
    const t_ = { a: big(o.A), b: big(o.B), c: big(o.C), seq: big(o.Seq), atom: null, bin: null };
    if (n && n.binary_hex) t_.bin = [...unhex(n.binary_hex)];
    else if (n && n.utf8_hex) t_.atom = utf8(unhex(n.utf8_hex));
    return t_;
  };
  const termNode = (s, tm) => {
    if (tm.atom !== null) return fingerprint(s, tm.atom);
    if (tm.bin && tm.bin.length === 4) return BigInt(((tm.bin[0] << 24) >>> 0) + (tm.bin[1] << 16) + (tm.bin[2] << 8) + tm.bin[3]);
    return -1n;
  };
  const termFields = (s, tm) => s.layout.fields.length === 5 ? [tm.a, tm.b, tm.c, termNode(s, tm), tm.seq]
                                                             : [tm.a, tm.b, tm.c, tm.seq];
  const exact = (tm) => tm.a >= 0n && tm.a < 1n << 20n && tm.b >= 0n && tm.b < 1n << 20n && tm.c >= 0n &&
                        tm.c < 1n << 20n && tm.c % 1024n === 0n && tm.seq >= 0n && tm.seq < 1n << 14n;
  // compose that may be handed values no field holds (negative)
  const tryCompose = (s, x) => x.some((v) => v < 0n) ? { r: "ERANGE" } : compose(s, x);
  const checkFields = (s, what, v, tm) => {
    const got = fieldsOf(s, v), want = termFields(s, tm);
    s.layout.fields.forEach((f, i) => t.eq(got[i], want[i], `${s.name}: ${what} ${f.name}`));
  };
  const roundtrip = (s, what, x, hex, text, t64, decTerm) => {
    const c = compose(s, x);
    if (!t.ok(c.r === 0, `${what}: compose${c.e ? ": " + c.e.message : ""}`)) return;
    const v = c.v;
    t.eq(v.encode("hex"), hex, `${what}: hex`);
    t.eq(v.encode(text), t64, `${what}: ${text}`);
    const a = dec(t, s, "hex", hex), b = dec(t, s, text, t64);
    t.ok(a.r === 0 && a.v.equals(v), `${what}: decode ${hex}`);
    t.ok(b.r === 0 && b.v.equals(v), `${what}: decode ${t64}`);
    t.eq(v.hex, hex, `${what}: bytes`);
    const fb = fromBytes(s, unhex(hex));
    t.ok(fb.r === 0 && fb.v.equals(v), `${what}: fromBytes`);
    checkFields(s, what, v, decTerm);
    const other = text === "b64" ? "b64url" : "b64", ot = v.encode(other), od = dec(t, s, other, ot);
    t.ok(od.r === 0 && od.v.equals(v), `${what}: ${other} ${ot} reads back`);
  };

  let total = 0, lossy = 0;
  for (const o of j.local) {
    total++;
    const what = o.input_term, inT = termOf(o.input), decT = termOf(o.decode), parsed = parseTerm(o.decode_term);
    t.ok(parsed && parsed.atom === null && parsed.bin === null && parsed.a === decT.a && parsed.b === decT.b &&
         parsed.c === decT.c && parsed.seq === decT.seq, `${what}: decode_term`);
    t.ok(exact(decT), `${what}: decode exact`);
    if (o.roundtrip_identity === true) t.ok(exact(inT), `${what}: marked exact`);
    else {
      lossy++;
      t.ok(!exact(inT), `${what}: marked lossy`);
      t.eq(tryCompose(K64, termFields(K64, inT)).r, "ERANGE", `${what}: compose must be ERANGE`);
    }
    roundtrip(K64, what, termFields(K64, decT), o.encode_hex, "b64", o.encode64, decT);
  }
  t.eq(total, 32, "kuid: 32 local");
  t.eq(lossy, 21, "kuid: 21 lossy");

  total = 0;
  let done = 0, refused = 0;
  lossy = 0;
  for (const o of j.global) {
    total++;
    const I = o.I, what = o.input_term;
    if (I < 5 || I > 10) {
      t.ok(o.encode_result && o.encode_result.outcome === "timeout", `${what} I=${I}: the reference hangs`);
      const r = open96(I);
      t.ok(r.s === null && r.code === "ERANGE", `${what}: interval ${I} refused`);
      refused++;
      continue;
    }
    const { s } = open96(I);
    if (!t.ok(s !== null, `open I=${I}`)) continue;
    t.ok(s.layout.fields.length === 5 && s.bits === 96 && s.bytes === 12, `kuid96 I=${I}: layout`);
    const inT = termOf(o.input);
    const views = Object.keys(o).filter((k) => k.startsWith("decode_as_")).map((k) => termOf(o[k].decode));
    if (!t.eq(views.length, 2, `${what}: 2 decode views`)) continue;
    for (const d of views)
      t.ok(termNode(s, d) === termNode(s, views[0]) && termNode(s, d) === termNode(s, inT), `${what}: node`);
    if (!exact(inT)) {
      lossy++;
      t.eq(tryCompose(s, termFields(s, inT)).r, "ERANGE", `${what}: compose must be ERANGE`);
    }
    roundtrip(s, `${what} I=${I}`, termFields(s, views[0]), o.encode_hex, "b64", o.encode64, views[0]);
    done++;
  }
  t.eq(total, 62, "kuid: 62 global");
  t.eq(done, 56, "kuid: 56 done");
  t.eq(refused, 6, "kuid: 6 refused intervals");
  t.ok(lossy > 0, "kuid: some global lossy");

  const d = j.decode_with_I;
  t.eq(d.encoded_with_I, 8, "kuid decode_with_I: encoded with I = 8");
  total = 0;
  let ok = 0;
  for (const o of d.decodes) {
    total++;
    const r = open96(o.I);
    if (o.I < 5 || o.I > 10) { t.ok(r.s === null && r.code === "ERANGE", `decode with I=${o.I} refused`); continue; }
    if (!t.ok(r.s !== null, `I=${o.I}`)) continue;
    ok++;
    t.eq(o.result.outcome, "ok", `I=${o.I}: outcome`);
    const want = parseTerm(o.result.value);
    if (!t.ok(want && want.bin !== null, `term ${o.result.value}`)) continue;
    const v = dec(t, r.s, "hex", d.encode_hex);
    if (t.ok(v.r === 0, `I=${o.I}: decode ${d.encode_hex}`)) checkFields(r.s, o.result.value, v.v, want);
  }
  t.eq(total, 11, "kuid: 11 decodes with I");
  t.eq(ok, 5, "kuid: 5 valid I");

  const ph = open96(8, "phash").s, p2 = open96(8, "phash2").s;
  total = 0;
  for (const o of j.node_hash) {
    total++;
    const bytes = unhex(o.utf8_hex), name = utf8(bytes);
    const h2 = big(o.phash2_2pow32), h1 = big(o.phash_2pow32);
    t.eq(bytes.length, o.name_len_bytes, `node ${o.node}: length`);
    if (bytes.every((c) => c < 0x80)) t.eq(name, o.node, `node ${o.node}: the name`);
    t.eq(fingerprint(K96, name), h2, `node ${o.node}: default fingerprint`);
    t.eq(fingerprint(p2, name), h2, `node ${o.node}: phash2`);
    t.eq(fingerprint(ph, name), h1, `node ${o.node}: phash`);
    t.eq(h2, BigInt("0x" + o.fingerprint_hex_v135), `node ${o.node}: v1.3.5 hex`);
    t.eq(h1, BigInt("0x" + o.fingerprint_hex_v134_and_older), `node ${o.node}: v1.3.4 hex`);
    const c = compose(K96, [1761n, 234567n, 890880n, h2, 4242n]);
    if (t.ok(c.r === 0, `node ${o.node}: compose`)) t.eq(c.v.encode("hex"), o.encode_I8_hex, `node ${o.node}: encode`);
  }
  t.eq(total, 27, "kuid: 27 node hashes");

  // kuid_node_hash.tsv: every row whose name is UTF-8 (a JavaScript string
  // holds no other bytes), by compose's node_name
  let rows = 0, bad = 0, notUtf8 = 0;
  for (const line of tsv.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [hexname, text, p2s, p1s] = line.replace(/\r$/, "").split("\t");
    rows++;
    let name;
    try { name = utf8(unhex(hexname)); } catch { notUtf8++; continue; }
    const g2 = fingerprint(K96, name), g1 = fingerprint(ph, name);
    if (g2 !== BigInt(p2s) || g1 !== BigInt(p1s)) {
      if (bad++ < 10) t.ok(false, `node ${text}: phash2 ${g2} (want ${p2s}), phash ${g1} (want ${p1s})`);
    }
    else t.ok(true, "");
  }
  t.eq(bad, 0, `kuid_node_hash.tsv: ${bad} of ${rows} rows differ`);
  t.eq(rows, 2000, "kuid_node_hash.tsv: 2000 rows");
  t.ok(notUtf8 < rows / 10, `kuid_node_hash.tsv: ${notUtf8} names that are no UTF-8 skipped`);

  for (const [key, codec, n] of [["1.3.4_phash_d64", "b64", 7], ["1.3.3_phash_rfc4648_urlsafe_nopad", "b64url", 7]]) {
    total = 0;
    for (const o of j.legacy[key]) {
      total++;
      const inT = parseTerm(o.input_term), decT = parseTerm(o.decode64_roundtrip);
      if (!t.ok(inT && decT, `terms of ${o.input_term}`)) continue;
      const s = inT.atom !== null || inT.bin !== null ? ph : K64, label = `${key} ${o.input_term}`;
      if (!exact(inT)) t.eq(tryCompose(s, termFields(s, inT)).r, "ERANGE", `${label}: compose`);
      roundtrip(s, label, termFields(s, decT), o.encode_hex, codec, o.encode64, decT);
    }
    t.eq(total, n, `kuid legacy ${key}: ${n}`);
  }

  // parameters kuid96 refuses, and its generator's node
  for (const h of ["md5", "PHASH2", "phash22", "", "phas"]) {
    const r = open96(8, h);
    t.ok(r.s === null && r.code === "EINVAL", `kuid96 hash ${JSON.stringify(h)} refused`);
  }
  for (let I = 5; I <= 10; I++) t.ok(open96(I).s !== null, `kuid96 interval ${I}`);
  t.ok(open96(-1).code === "ERANGE" && open96(2 ** 53).code === "ERANGE", "kuid96 intervals -1 and 2^53 refused");
  t.eq(fingerprint(K96, "uid@127.0.0.1"), 0x03eb2731n, "kuid96 default: I = 8 with phash2");
  const gen = (o) => { try { K96.generator(o).close(); return 0; } catch (e) { return e.code; } };
  t.eq(gen({ node_name: "a@b", node: 7 }), "EINVAL", "kuid96: node_name and node both refused");
  t.eq(gen({ node: 2 ** 32 }), "ERANGE", "kuid96: node 2^32 refused");
  t.eq(gen({ node: -1 }), "ERANGE", "kuid96: node -1 refused");
  t.eq(gen({ node: 7 }), 0, "kuid96: node given");
  t.eq(gen({ node_name: "a@b" }), 0, "kuid96: node_name given");
  t.eq(gen({}), "EINVAL", "kuid96: no node (and no slot store here) refused");
  t.eq(gen({ slots: "none" }), "EINVAL", "kuid96: no node, slots none, refused");
  t.ok((() => { try { K64.generator().close(); return true; } catch { return false; } })(), "kuid64: a generator needs nothing");

  const badText = [[K64, "hex", "0060398a7b69800"], [K64, "hex", "0060398a7b69800100"], [K64, "hex", "0060398a7b69800g"],
                   [K96, "hex", "0060398a03eb27317b69800"], [K96, "hex", "0060398a03eb27317b6980010"],
                   [K64, "b64", ".5.tXbhdV.0"], [K64, "b64url", "AGA5intpgAF"], [K64, "b64url", "AGA5intpgA="],
                   [K64, "b64url", "AGA5intpgA."], [K96, "b64url", "AGA5igPrJzJ7aYA"], [K96, "b64", ".5.tXVEf8n4vPN."],
                   [K96, "b64", ".5.tXVEf8n4vPN.0."], [K96, null, "AGA5igPrJzJ7aYA+"]];
  for (const [s, c, text] of badText) t.eq(dec(t, s, c, text).r, "EINVAL", `${s.name} ${c ?? "default"} ${text} refused`);
  const h = dec(t, K64, "hex", "0060398A7B698001"), w = dec(t, K64, null, " .5.tXbhdV.3\n");
  t.ok(h.r === 0 && w.r === 0 && h.v.equals(w.v), "kuid64: hex either case, b64 default, trimmed");
  t.eq(K64.defaultEncoding, "b64", "kuid64 default b64");
  t.eq(K96.defaultEncoding, "b64", "kuid96 default b64");
  const z = compose(K64, [1048575n, 1048575n, 1047552n, 16383n]);
  t.ok(z.r === 0 && z.v.encode() === "zzzzzzzzzzw", "kuid64: every width composes");
  t.eq(compose(K64, [1048575n, 1048575n, 1048576n, 16383n]).r, "ERANGE", "kuid64: microseconds 2^20 refused");
  t.eq(compose(K64, [1048575n, 1048575n, 1024n, 16384n]).r, "ERANGE", "kuid64: sequence 2^14 refused");
}
