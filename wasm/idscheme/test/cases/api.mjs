// api.mjs: the package's API as a user meets it, in node and in a page:
// the registry's schemes and their layouts, every scheme's IDs through
// every encoding and back, fields by width, times, generators (unique
// and increasing, counted over real runs), nextAt, compose, define (round
// trips, the same spec twice, refused specs), inspect's verdicts and
// options, and errors: IdschemeErrors with a code, quoting the input,
// unknown keys refused by name.
//
// run(ids, t)

export default function run(ids, t) {
  const { scheme, schemes, list, define, inspect, verdict, IdschemeError } = ids;
  t.ok(ids.loaded(), "loaded");
  t.ok(/^\d+\.\d+\.\d+$/.test(ids.version()), `version ${ids.version()}`);

  // ------------------------------------------------------------ registry
  const names = list();
  t.eq(names.join(), [...names].sort().join(), "list() is sorted");
  t.ok(names.length >= 28 && ["fluid", "snowflake", "ulid", "uuidv7", "ksuid", "nanoid"].every((n) => names.includes(n)),
       `list() names the shipped schemes (${names.length})`);
  const all = schemes();
  t.eq(all.map((s) => s.name).join(), names.join(), "schemes() in list()'s order");
  for (const s of all) {
    t.ok(s === scheme(s.name), `${s.name}: one object per scheme`);
    t.eq(String(s), s.name, `${s.name}: its string is its name`);
    t.eq(s.defaultEncoding, s.encodings[0], `${s.name}: default encoding first`);
    t.ok(s.bytes * 8 >= s.bits && s.bytes <= 20, `${s.name}: ${s.bits} bits in ${s.bytes} bytes`);
    for (const a of s.aliases) {
      // an alias names the scheme, unless several answer to it ("uuid")
      const many = all.filter((x) => x.aliases.includes(a));
      if (many.length === 1) t.ok(scheme(a) === s, `${s.name}: alias ${a}`);
      else t.throws(() => scheme(a), "ENOENT", `'${a}' names several schemes`, `alias ${a} names ${many.length} schemes`);
    }
    // the runs cover every bit once (where widths are fixed), most
    // significant first, each offset its shift's mirror
    const runs = s.layout.runs;
    const variable = s.layout.fields.some((f) => f.variable);
    t.ok(runs.every((r, i) => i === 0 || (variable ? runs[i - 1].shift >= r.shift : runs[i - 1].shift > r.shift)),
         `${s.name}: runs most significant first`);
    t.ok(runs.every((r) => r.offset === s.bits - r.shift - r.bits), `${s.name}: offsets from the top bit`);
    if (!variable) {
      const covered = new Array(s.bits).fill(0);
      for (const r of runs) for (let b = r.shift; b < r.shift + r.bits; b++) covered[b]++;
      t.ok(covered.every((c) => c === 1), `${s.name}: the runs cover each of its ${s.bits} bits once`);
      for (const f of s.layout.fields)
        // at most its value's width: kuid's microseconds are stored in 10
        // of their 20 bits
        t.ok(runs.filter((r) => r.field === f.name).reduce((n, r) => n + r.bits, 0) <= f.bits, `${s.name}.${f.name}: its runs' bits`);
    }
    t.eq(s.timed, s.layout.fields.some((f) => f.kind === "time"), `${s.name}: timed`);
  }
  t.ok(scheme("discord") === scheme("snowflake"), "the alias discord is snowflake");
  t.throws(() => scheme("nope"), "ENOENT", "unknown scheme 'nope'", "an unknown scheme is refused, quoted");
  t.throws(() => scheme("fluid\0junk"), "ENOENT", "fluid", "a name with a NUL names nothing");
  t.throws(() => scheme("uuid"), "ENOENT", /'uuid' names several schemes \(uuid.*\): name one/, "uuid names several");
  let err = null;
  try { scheme("nope"); } catch (e) { err = e; }
  t.ok(err instanceof Error && err instanceof IdschemeError && err.name === "IdschemeError",
       "errors are Errors of class IdschemeError");
  t.throws(() => scheme(42), null, null, "a scheme name must be a string");

  // parameters
  const tw = scheme("snowflake", { epoch_ms: 1288834974657 });
  t.ok(tw !== scheme("snowflake") && tw.epoch === 1288834974657, "snowflake with Twitter's epoch");
  t.ok(scheme("snowflake", { epoch_ms: 1288834974657 }) === tw, "the same parameters, the same scheme");
  t.ok(scheme("snowflake", { epoch_ms: 1420070400000 }) === scheme("snowflake"), "the default parameters are the default scheme");
  t.throws(() => scheme("snowflake", { epoch: 1 }), "ENOENT", '"epoch"', "an unknown parameter is refused by name");
  t.throws(() => scheme("snowflake", { epoch_ms: "x" }), null, "epoch_ms", "a parameter of the wrong type is refused by name");
  t.throws(() => scheme("snowflake", { epoch_ms: 1.5 }), "EINVAL", "epoch_ms", "a fraction is no integer");

  // ------------------------------------------------- every scheme's IDs
  const made = {};
  for (const s of all) {
    const nodes = Object.fromEntries(s.layout.fields.filter((f) => f.kind === "node").map((f) => [f.name, 1]));
    let g;
    try { g = s.generator(nodes); } catch (e) {
      // the nil and max UUIDs are constants: one ID; UUIDv3 and v5 are
      // hashes of names: nothing to generate them from
      t.ok(s.layout.fields.every((f) => f.kind === "constant") || s.layout.fields.some((f) => f.kind === "hash"),
           `${s.name}: a generator (${e.message})`);
      continue;
    }
    const before = Date.now(), texts = [g.next(), g.next(), g.next()], after = Date.now();
    const id = g.nextId();
    g.close();
    made[s.name] = texts;
    for (const text of texts) {
      const v = s.decode(text);
      t.eq(v.encode(), text, `${s.name}: ${text} decodes and encodes back`);
      for (const e of s.encodings) {
        const other = s.encode(v, e);
        t.ok(s.decode(other, e).equals(v), `${s.name}: ${e} ${other} reads back`);
        t.ok(s.valid(other, e), `${s.name}: ${other} is valid ${e}`);
      }
      t.ok(s.fromBytes(v.bytes).equals(v) && s.fromInteger(v.toBigInt()).equals(v), `${s.name}: bytes and integer round trip`);
      t.eq(v.hex, v.toBigInt().toString(16).padStart(2 * s.bytes, "0"), `${s.name}: hex is the value's`);
      // fields by width: a number up to 53 bits, a BigInt above, a name
      const f = s.fields(text);
      for (const fd of s.layout.fields) {
        const x = f[fd.name];
        const want = fd.qualifiers ? "string" : fd.bits > 53 ? "bigint" : "number";
        t.eq(typeof x, want, `${s.name}.${fd.name} (${fd.bits} bits) is a ${want}`);
      }
      t.eq(JSON.stringify(s.fields(v), (k, x) => typeof x === "bigint" ? x + "n" : x),
           JSON.stringify(f, (k, x) => typeof x === "bigint" ? x + "n" : x), `${s.name}: fields of the text and of the Id`);
      t.ok(s.compose(f).equals(v), `${s.name}: its fields compose it again`);
      // time: now, to the scheme's unit (a 10 ms or 1 s unit floors; so
      // does kuid96's tick of 1/1024 s, which has no unit here: up to
      // 0.98 ms, then its ms floors again)
      const ms = s.timeMs(text);
      if (s.timed && s.name !== "kuid64" && s.name !== "kuid96" || ms !== null) {
        const slack = s.unit === "s" ? 1000 : s.unit === "10ms" ? 10 : s.unit === null ? 2 : 1;
        t.ok(ms !== null && ms >= before - slack && ms <= after + 1, `${s.name}: its time ${ms} is now (${before}..${after})`);
        t.eq(s.time(text).getTime(), ms, `${s.name}: time() is timeMs()'s Date`);
        t.eq(v.timeNs() / 1000000n, BigInt(ms), `${s.name}: timeNs() in the same ms`);
      }
      else t.ok(ms === null && s.time(text) === null && v.timeNs() === null, `${s.name}: no time`);
    }
    t.ok(id instanceof Object && id.scheme === s, `${s.name}: nextId() is an Id of it`);
  }

  // ---------------------------------------------------- errors quote input
  for (const s of all) {
    const bad = "!?bad text?!";
    t.throws(() => s.decode(bad), null, bad, `${s.name}: decode of bad text quotes it`);
    t.ok(!s.valid(bad), `${s.name}: bad text is not valid`);
    t.throws(() => s.decode("x", "nosuch"), "ENOENT", "'nosuch'", `${s.name}: an unknown encoding is refused, quoted`);
  }
  t.throws(() => scheme("uuidv7").decode("xyz"), "EINVAL", 'uuidv7 uuid "xyz": 3 characters, a UUID has 36', "uuidv7's words");
  t.throws(() => scheme("ulid").fromBytes(new Uint8Array(3)), "EINVAL", null, "3 bytes are no ULID");
  t.throws(() => scheme("fluid").fromInteger(-1), "EINVAL", "-1", "no negative integer");
  t.throws(() => scheme("fluid").fromInteger(1n << 64n), "ERANGE", "64 bits", "2^64 is no FLUID");

  // ------------------------------------------------------------ generators
  // uniqueness and order over real runs: every ID kept, duplicates counted
  for (const [name, opts, n] of [["uuidv7", {}, 100000], ["ulid", {}, 100000], ["snowflake", { worker: 3, shard: 1 }, 50000],
                                  ["fluid", { generator: 9 }, 50000], ["ksuid", {}, 20000], ["uuidv4", {}, 50000],
                                  ["nanoid", {}, 20000], ["typeid", {}, 20000]]) {
    const s = scheme(name), g = s.generator(opts), seen = new Set();
    let last = null, ordered = true;
    const batch = g.nextN(n);
    for (const text of batch) {
      seen.add(text);
      if (s.ordered) {
        const v = s.decode(text);
        if (last && v.compare(last) <= 0) ordered = false;
        last = v;
      }
    }
    t.eq(seen.size, n, `${name}: ${n} IDs, ${n - seen.size} duplicates`);
    if (s.ordered) t.ok(ordered, `${name}: its IDs increase`);
    g.close();
  }
  // a generator that waits for its clock, one call at a time, past 2.1 s
  // of clock: 60,000 Sonyflakes (256 a 10 ms tick) take 2.3 s.  The wait
  // was emscripten's nanosleep, which spins on clock() in ms in a 32-bit
  // long: past 2,147 ms of it the spin never ended (core/generator.c nap)
  {
    const g = scheme("sonyflake").generator({ machine: 5 }), seen = new Set(), t0 = Date.now();
    for (let i = 0; i < 60000; i++) seen.add(g.next());
    t.eq(seen.size, 60000, `sonyflake: 60,000 IDs one by one in ${Date.now() - t0} ms, ${60000 - seen.size} duplicates`);
    g.close();
  }
  const g7 = scheme("uuidv7").generator();
  t.eq(scheme("uuidv7").timeMs(g7.nextAt(1500000000000)), 1500000000000, "uuidv7: nextAt gives that time");
  t.eq(scheme("uuidv7").timeMs(g7.nextAt(new Date(1600000000000))), 1600000000000, "nextAt takes a Date");
  t.throws(() => g7.nextAt(1.5), "EINVAL", "1.5", "nextAt refuses a fraction of a ms");
  g7.close();
  t.ok(g7.closed, "closed");
  t.throws(() => g7.next(), "EINVAL", "closed", "a closed generator refuses");
  const sf = scheme("snowflake").generator({ worker: 2, shard: 2 });
  const past = [sf.nextAt(1600000000000), sf.nextAt(1600000000000)];
  t.ok(past[0] !== past[1] && scheme("snowflake").fields(past[1]).sequence === 1, "snowflake: nextAt counts a time's sequence");
  t.throws(() => sf.nextAt(Date.now() + 86400000), "EINVAL", "before the generator was made", "snowflake: nextAt of a time to come refused");
  sf[Symbol.dispose ?? Symbol.for("Symbol.dispose")]();
  t.ok(sf.closed, "[Symbol.dispose] closes");
  t.throws(() => scheme("nanoid").generator().nextAt(1600000000000), "EINVAL", "nanoid", "nanoid has no time for nextAt");
  t.throws(() => scheme("snowflake").generator(), "EINVAL", "worker", "snowflake's node fields are needed, named");
  t.throws(() => scheme("snowflake").generator({ worker: 1, shard: 1, wroker: 2 }), "ENOENT", '"wroker"', "an unknown option is refused by name");
  t.throws(() => scheme("snowflake").generator({ worker: 32, shard: 1 }), "ERANGE", "worker", "worker 32 is out of range");
  t.throws(() => scheme("snowflake").generator({ worker: [1], shard: 1 }), "EINVAL", "worker", "an option of the wrong type, by name");
  t.throws(() => scheme("ulid").generator({ policy: "sometimes" }), null, "sometimes", "a bad policy is quoted");
  const siq = scheme("siq"), sg = siq.generator({ shard: 3, domain_name: "example.com" });
  const su = sg.nextId("user");
  t.eq(su.fields().qualifier, "user", "siq: nextId(qualifier) makes that type");
  t.eq(siq.fields(sg.next()).qualifier, "content", "siq: the default type");
  t.throws(() => sg.nextId("robot"), "ENOENT", "'robot'", "an unknown qualifier is refused, quoted");
  sg.close();
  const fl = scheme("fluid"), f = fl.generator({ generator: 5 }).next("emoji");
  t.ok(/[^\x00-\x7f]/.test(f) && fl.decode(f, "emoji").encode("emoji") === f, `fluid's emoji text round trips (${f})`);

  // --------------------------------------------------------------- compose
  const sn = scheme("snowflake");
  const c = sn.compose({ timestamp: 1000, worker: 1, shard: 2, sequence: 3 });
  t.eq(c.toBigInt(), (1000n << 22n) | (1n << 17n) | (2n << 12n) | 3n, "snowflake compose");
  t.throws(() => sn.compose({ timestamp: 1, worker: 1, shard: 2 }), "EINVAL", "sequence", "a missing field is named");
  t.throws(() => sn.compose({ timestamp: 1, worker: 32, shard: 2, sequence: 0 }), "ERANGE", "worker", "out of range");
  t.throws(() => sn.compose({ timestamp: 1.5, worker: 1, shard: 2, sequence: 0 }), "EINVAL", "'timestamp'", "a fraction");
  t.throws(() => sn.compose({ timestamp: 1, worker: 1, shard: 2, sequence: 0, bogus: 1 }), null, "bogus", "an unknown field");
  const ul = scheme("ulid"), r80 = (1n << 80n) - 12345n;
  const u1 = ul.compose({ timestamp: 1469922850259, random: r80 });
  t.eq(u1.fields().random, r80, "ulid: an 80-bit field as a BigInt");
  const rb = new Uint8Array(10).fill(0xab);
  t.eq(ul.compose({ timestamp: 1, random: rb }).fields().random, BigInt("0x" + "ab".repeat(10)), "ulid: a wide field as bytes");
  t.throws(() => ul.compose({ timestamp: 1, random: 1n << 80n }), "ERANGE", "random", "81 bits do not fit 80");
  const sq = siq.compose({ timestamp: 1, shard: 7, domain_name: "example.com", serial: 42, qualifier: "user" });
  t.eq(sq.fields().qualifier, "user", "siq compose by type name");
  t.eq(siq.decode(sq.encode("did")).equals(sq), true, "siq's did form round trips");

  // ---------------------------------------------------------------- define
  const spec = {
    name: "jsflake", fields: [
      { name: "timestamp", bits: 41, kind: "time", unit: "ms", epoch: 1600000000000 },
      { name: "node", bits: 10, kind: "node" },
      { name: "sequence", bits: 12, kind: "sequence" },
    ],
    encodings: ["dec", "hex", "base58"], default_encoding: "dec",
    about: { title: "A test flake", aliases: ["jsf"], since: 1600000000000 },
  };
  const my = define(spec);
  t.ok(my.name === "jsflake" && my.bits === 63 && my.bytes === 8 && my.title === "A test flake", "define: the scheme");
  t.ok(define(spec) === my, "define: the same spec again gives the same scheme");
  t.ok(scheme("jsf") === my && list().includes("jsflake"), "define: its alias and its place in list()");
  const mg = my.generator({ node: 7 }), mt = mg.next(), mf = my.fields(mt);
  t.ok(mf.node === 7 && Math.abs(my.timeMs(mt) - Date.now()) < 5000, "define: its generator's IDs carry node and time");
  t.ok(my.decode(my.encode(mt, "base58"), "base58").equals(my.decode(mt)), "define: its encodings round trip");
  t.eq(inspect(mt, { scheme: "jsflake" }).scheme, "jsflake", "define: inspect reads it");
  t.ok(inspect(mt).candidates.some((x) => x.scheme === "jsflake"), "define: the inspector of every scheme has it");
  mg.close();
  t.throws(() => define({ ...spec, encodings: ["dec"] }), "EEXIST", "jsflake", "define: the name with another spec is refused");
  t.throws(() => define({ ...spec, name: "x1", units: "ms" }), "EINVAL", "unknown key 'units'", "define: an unknown key is refused by name");
  t.throws(() => define({ name: "x2", fields: [{ name: "a", bits: 8, kind: "random", units: "ms" }] }), "EINVAL",
           "field 1: unknown key 'units'", "define: an unknown field key is refused by name");
  t.throws(() => define({ name: "x3", fields: [{ name: "a", bits: 8, kind: "random" }], about: { tilte: "x" } }), "EINVAL",
           "about: unknown key 'tilte'", "define: an unknown about key");
  t.throws(() => define({ name: "x4", fields: [{ name: "a", bits: 8, kind: "sideways" }] }), "EINVAL", "sideways",
           "define: an unknown kind is quoted");
  t.throws(() => define({ name: "x5", fields: [{ name: "a", bits: 8.5, kind: "random" }] }), "EINVAL", "'bits' must be an integer",
           "define: bits must be an integer");
  t.throws(() => define({ name: "x\0y", fields: [{ name: "a", bits: 8, kind: "random" }] }), "EINVAL", "holds a NUL",
           "define: a NUL in a name");
  t.throws(() => define({ name: "x6", fields: [{ name: "seq", bits: 8, kind: "sequence" }, { name: "t", bits: 40, kind: "time" }] }),
           "EINVAL", null, "define: a time below the sequence is refused");
  const v4 = define({ name: "my4", fields: [{ name: "random", kind: "random", bits: 120 }, { name: "tag", kind: "constant", bits: 8, value: 0xa5n }] });
  const v4g = v4.generator(), v4t = v4g.next();
  t.eq(v4.fields(v4t).tag, 0xa5, "define: a constant (given as a BigInt) in every ID");
  t.eq(typeof v4.fields(v4t).random, "bigint", "define: a 120-bit field is a BigInt");
  t.ok(v4.timeMs(v4t) === null, "define: no time field, no time");
  t.throws(() => v4g.nextAt(1), "EINVAL", null, "define: nextAt refused without time");
  v4g.close();
  // UUIDv1's way: the time's low 32 bits first, a version, its high 12
  const sp1 = define({ name: "splitj", fields: [
    { name: "t", bits: 32, kind: "time", order: "low first" }, { name: "v", bits: 4, kind: "constant", value: 1 },
    { name: "t", bits: 12 }, { name: "r", bits: 16, kind: "random" }] });
  const tr = sp1.layout.runs.filter((r) => r.field === "t");
  t.ok(tr.length === 2 && tr[0].bits === 32 && tr[1].bits === 12 && tr[0].offset === 0 && tr[1].offset === 36 && !sp1.ordered,
       "define: a split field has two runs");
  const sg1 = sp1.generator(), st = sg1.next();
  t.ok(Math.abs(sp1.timeMs(st) - Date.now()) < 5000 && sp1.fields(st).v === 1, "define: the split time reads back");
  sg1.close();

  // --------------------------------------------------------------- inspect
  const u = inspect("01ARZ3NDEKTSV4RRFFQ69G5FAV");
  t.ok(u.verdict === "named" && u.scheme === "ulid" && u.why === "" && u.ms === 1469922850259 &&
       u.time.toISOString() === "2016-07-30T23:54:10.259Z" && u.fields.timestamp === 1469922850259 &&
       u.encodings.uuid === "01563e3a-b5d3-d676-4c61-efb99302bd5b" && u.candidates[0].scheme === "ulid",
       "inspect: a ULID is named, with its time, fields and encodings");
  const d = inspect("1234567890123456789");
  t.ok(d.verdict === "ambiguous" && d.ambiguousWith.length > 0 && d.ambiguousWith.every((n) => d.candidates.some((x) => x.scheme === n && x.ambiguous)),
       `inspect: a bare decimal snowflake is ambiguous (${d.scheme}, ${d.ambiguousWith.join(", ")})`);
  const h = inspect("hello");
  t.ok(h.verdict === "unknown" && h.scheme === null && h.candidates.length === 0 && /no scheme/.test(h.why), "inspect: a word is unknown, why given");
  const rf = inspect("abcdefghij");
  t.ok(rf.verdict === "refused" && rf.scheme === null && rf.candidates.length > 0 && rf.candidates[0].refused && rf.why === rf.candidates[0].why,
       "inspect: a reading refused, its why");
  t.eq(inspect("").why, "empty", "inspect: no text is empty");
  t.eq(inspect("   ").verdict, "unknown", "inspect: blanks are no ID");
  t.eq(inspect("  01ARZ3NDEKTSV4RRFFQ69G5FAV\n").input, "01ARZ3NDEKTSV4RRFFQ69G5FAV", "inspect: blanks trimmed");
  // what a result makes when first read (fields, time, encodings, why,
  // value) is its own reading's, whatever was inspected since
  const texts = ["1234567890123456789", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "abcdefghij", "507f1f77bcf86cd799439011"];
  const early = texts.map((x) => inspect(x));
  const show = (r) => JSON.stringify(r, (k, x) => typeof x === "bigint" ? x + "n" : x);
  // (evidence weighs the time against now: compared, what does not move)
  const lazy = (r) => show([r.fields, r.value, r.time, r.encodings, r.why,
                            r.candidates.map((c) => [c.scheme, c.fields, c.value, c.time, c.why, c.encodings])]);
  texts.forEach((x, k) => t.eq(lazy(early[k]), lazy(inspect(x)), `inspect: ${x}'s answer read late is its own`));
  const j = JSON.parse(show(u));
  t.ok(j.fields.timestamp === 1469922850259 && j.encodings.hex === "01563e3ab5d3d6764c61efb99302bd5b" &&
       j.candidates[0].value === "01563e3ab5d3d6764c61efb99302bd5b" && j.time === "2016-07-30T23:54:10.259Z",
       "inspect: JSON of an answer holds what is made when read");
  const only = inspect("abcdefghij", { scheme: "nanoid" });
  t.ok(only.candidates.every((x) => x.scheme === "nanoid"), "inspect: {scheme} reads that scheme alone");
  t.eq(inspect("01563e3a-b5d3-d676-4c61-efb99302bd5b", { encoding: "uuid" }).encoding, "uuid", "inspect: {encoding}");
  t.throws(() => inspect("x", { schema: "ulid" }), "EINVAL", "unknown option 'schema'", "inspect: an unknown option by name");
  t.throws(() => inspect("x", { encoding: "nosuch" }), "ENOENT", "nosuch", "inspect: an unknown encoding, named");
  t.throws(() => inspect("x", { scheme: "nosuch" }), "ENOENT", "'nosuch'", "inspect: an unknown scheme, named");
  t.throws(() => inspect(42), null, null, "inspect: text must be a string");
  // verdict(): inspect's verdict, with its options and errors
  for (const [x, o] of [["01ARZ3NDEKTSV4RRFFQ69G5FAV"], ["1234567890123456789"], ["hello"], ["abcdefghij"], [""],
                        ["abcdefghij", { scheme: "nanoid" }], ["abcdefghij", { scheme: "ulid" }],
                        ["01563e3a-b5d3-d676-4c61-efb99302bd5b", { encoding: "uuid" }], [mt, { scheme: "jsflake" }]])
    t.eq(verdict(x, o), inspect(x, o).verdict, `verdict(${JSON.stringify(x)}${o ? ", " + JSON.stringify(o) : ""}): inspect's`);
  t.throws(() => verdict("x", { schema: "ulid" }), "EINVAL", "idscheme.verdict: unknown option 'schema'", "verdict: an unknown option by name");
  t.throws(() => verdict("x", { encoding: "nosuch" }), "ENOENT", "nosuch", "verdict: an unknown encoding, named");
  t.throws(() => verdict("x", { scheme: "nosuch" }), "ENOENT", "'nosuch'", "verdict: an unknown scheme, named");
  t.throws(() => verdict(42), null, null, "verdict: text must be a string");
  const long = inspect("a".repeat(100000));
  t.ok(long.verdict === "unknown" && long.why === inspect("a".repeat(200)).why, "inspect: a text of 100,000 characters is no ID, said so");
  t.throws(() => scheme("ulid").decode("a".repeat(100000)), "ERANGE", "100000 characters", "decode: a text past the scratch is refused, its length said");
}
