// cases.mjs: the benchmark's cases, the same in node and in a page
// (run.mjs): the package idscheme against the npm libraries people use
// for each format, making IDs and reading them (decode, time), and the
// floor: one empty call into WebAssembly.
//
// cases(ids, peers, nop): ids the package (loaded); peers { uuid, ulid,
// ulidx, nanoid, sapphire }; nop an export of the package's module that
// does nothing (w_nop, from an instance of its own), for the floor.
// Each case: { group, who, fn(i) } (fn makes or reads one ID).
export function cases(ids, peers, nop) {
  const { uuid, ulid, ulidx, nanoid, sapphire } = peers;
  const out = [];
  const add = (group, who, fn) => out.push({ group, who, fn });
  const empty = () => 0;

  add("floor", "one empty call into WebAssembly", () => nop());
  add("floor", "one empty JavaScript call", (i) => empty(i));

  // ------------------------------------------------------------- making
  const g4 = ids.scheme("uuidv4").generator();
  add("uuidv4: make", "idscheme", () => g4.next());
  add("uuidv4: make", "uuid v4()", () => uuid.v4());
  add("uuidv4: make", "crypto.randomUUID() (the platform's)", () => crypto.randomUUID());
  const g7 = ids.scheme("uuidv7").generator();
  add("uuidv7: make", "idscheme", () => g7.next());
  add("uuidv7: make", "uuid v7()", () => uuid.v7());
  const gu = ids.scheme("ulid").generator();
  add("ulid: make", "idscheme (monotonic)", () => gu.next());
  const um = ulid.monotonicFactory(), xm = ulidx.monotonicFactory();
  add("ulid: make", "ulid monotonicFactory()()", () => um());
  add("ulid: make", "ulid ulid()", () => ulid.ulid());
  add("ulid: make", "ulidx monotonicFactory()()", () => xm());
  add("ulid: make", "ulidx ulid()", () => ulidx.ulid());
  const gn = ids.scheme("nanoid").generator();
  add("nanoid: make", "idscheme", () => gn.next());
  add("nanoid: make", "nanoid nanoid()", () => nanoid.nanoid());
  // Discord's layout and epoch on both sides: worker 1, process (shard) 2
  const gs = ids.scheme("snowflake").generator({ worker: 1, shard: 2 });
  const sf = new sapphire.Snowflake(1420070400000n);
  add("snowflake: make", "idscheme (decimal text)", () => gs.next());
  add("snowflake: make", "@sapphire/snowflake generate() (a BigInt)", () => sf.generate({ workerId: 1n, processId: 2n }));
  add("snowflake: make", "@sapphire/snowflake generate() as text", () => sf.generate({ workerId: 1n, processId: 2n }).toString());

  // ------------------------------------------------------------ reading
  const N = 1024;
  const v4s = g4.nextN(N), v7s = g7.nextN(N), uls = gu.nextN(N), sfs = gs.nextN(N);
  const s4 = ids.scheme("uuidv4"), s7 = ids.scheme("uuidv7"), su = ids.scheme("ulid"), ss = ids.scheme("snowflake");
  add("uuid: parse", "idscheme decode() (an Id: its bytes)", (i) => s4.decode(v4s[i & 1023]));
  add("uuid: parse", "uuid parse() (its bytes)", (i) => uuid.parse(v4s[i & 1023]));
  add("uuid: validate", "idscheme valid()", (i) => s4.valid(v4s[i & 1023]));
  add("uuid: validate", "uuid validate()", (i) => uuid.validate(v4s[i & 1023]));
  add("uuidv7: time", "idscheme timeMs()", (i) => s7.timeMs(v7s[i & 1023]));
  add("uuidv7: time", "uuid (none: parse(), then 6 bytes read by hand)", (i) => {
    const b = uuid.parse(v7s[i & 1023]);
    return ((b[0] * 256 + b[1]) * 256 + b[2]) * 16777216 + ((b[3] << 16 | b[4] << 8 | b[5]) >>> 0);
  });
  add("ulid: time", "idscheme timeMs()", (i) => su.timeMs(uls[i & 1023]));
  add("ulid: time", "ulid decodeTime()", (i) => ulid.decodeTime(uls[i & 1023]));
  add("ulid: time", "ulidx decodeTime()", (i) => ulidx.decodeTime(uls[i & 1023]));
  add("snowflake: time", "idscheme timeMs()", (i) => ss.timeMs(sfs[i & 1023]));
  add("snowflake: time", "@sapphire/snowflake timestampFrom()", (i) => sf.timestampFrom(sfs[i & 1023]));
  add("snowflake: fields", "idscheme fields()", (i) => ss.fields(sfs[i & 1023]));
  add("snowflake: fields", "@sapphire/snowflake deconstruct()", (i) => sf.deconstruct(sfs[i & 1023]));

  // -------------------------------------------------------------- inspect
  // a mix of the formats above and a bare decimal: what a page is pasted
  const mix = [];
  for (let k = 0; k < N; k++) mix.push([v4s, v7s, uls, sfs][k & 3][k]);
  add("inspect", "idscheme inspect() (a mix: UUIDv4, v7, ULID, Snowflake)", (i) => ids.inspect(mix[i & 1023]));
  return out;
}
