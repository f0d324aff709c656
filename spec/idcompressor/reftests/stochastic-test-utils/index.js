// @fluid-private/stochastic-test-utils, the part the id-compressor's own
// tests use (its idCompressorTestUtilities.ts and idCompressor.spec.ts):
// generators, performFuzzActions and makeRandom.  The package is private to
// the FluidFramework repository (not on npm); this is written here from its
// README and its documented types (Generator, Weights, IRandom), not from
// its code.  The tests' assertions hold for any sequence of operations, so
// the pseudorandom sequences need not be Fluid's (they are not).

/** What a generator returns when it has no more operations. */
export const done = Symbol("GeneratorDone");

/** A generator of values chosen with the given weights: each entry is a
 *  value or a generator (called with the state), a weight, and optionally
 *  a condition on the state under which it may be chosen. */
export function createWeightedGenerator(weights) {
  const entries = weights.filter(([, w]) => w > 0);
  const total = entries.reduce((s, [, w]) => s + w, 0);
  if (!(total > 0)) throw new Error("createWeightedGenerator must have some positive weight");
  return (state) => {
    for (;;) {
      let x = state.random.real(0, total), i = 0;
      while (i < entries.length - 1 && x >= entries[i][1]) x -= entries[i++][1];
      const [what, , accept] = entries[i];
      if (accept !== undefined && !accept(state)) continue;
      return typeof what === "function" ? what(state) : what;
    }
  };
}

/** The first n values of a generator. */
export function take(n, generator) {
  let given = 0;
  return (state) => (given++ < n ? generator(state) : done);
}

/** A generator of t, forever. */
export function repeat(t) {
  return () => t;
}

/** The values of the generators one after another. */
export function chain(...generators) {
  let i = 0;
  return (state) => {
    for (; i < generators.length; i++) {
      const v = generators[i](state);
      if (v !== done) return v;
    }
    return done;
  };
}

export const ExitBehavior = { OnBothExhausted: 0, OnEitherExhausted: 1 };

/** n1 values of the first generator, then n2 of the second, and so on;
 *  a generator that has ended gives its turns to the other, and the whole
 *  ends when both have (or, OnEitherExhausted, when either has). */
export function interleave(g1, g2, n1 = 1, n2 = 1, exit = ExitBehavior.OnBothExhausted) {
  const gens = [g1, g2], turns = [n1, n2], over = [false, false];
  let which = 0, left = n1;
  return (state) => {
    for (;;) {
      if (exit === ExitBehavior.OnEitherExhausted ? over[0] || over[1] : over[0] && over[1]) return done;
      if (left > 0 && !over[which]) {
        const v = gens[which](state);
        if (v !== done) { left--; return v; }
        over[which] = true;
        if (exit === ExitBehavior.OnEitherExhausted) return done;
      }
      which ^= 1;
      left = turns[which];
    }
  };
}

/** Applies the generator's operations in turn, each by the reducer named by
 *  its type (which returns the next state, or changes the state and returns
 *  nothing), until the generator is done; returns the last state.  saveInfo
 *  (writing the operations to a file) is not supported. */
export function performFuzzActions(generator, reducers, initialState, saveInfo) {
  let state = initialState;
  const apply = typeof reducers === "function" ? reducers : (s, op) => {
    const r = reducers[op.type];
    if (r === undefined) throw new Error(`no reducer for operation type ${op.type}`);
    return r(s, op);
  };
  for (let op = generator(state); op !== done; op = generator(state))
    state = apply(state, op) ?? state;
  void saveInfo;
  return state;
}

// xoshiro128** seeded by splitmix32 of the seed's bits (any number, as
// Math.PI; random when none is given)
function seeded(seed) {
  const words = new Uint32Array(new Float64Array([seed]).buffer);
  let x = (words[0] ^ Math.imul(words[1], 0x9e3779b9)) >>> 0;
  const splitmix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = [splitmix(), splitmix(), splitmix(), splitmix()];
  return () => {
    const r = Math.imul(((Math.imul(s[1], 5) << 7) | (Math.imul(s[1], 5) >>> 25)), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >>> 21);
    return r;
  };
}

/** An IRandom: bool, integer, normal, pick, real, shuffle, string, uuid4. */
export function makeRandom(seed = Math.random() * 2 ** 52) {
  const u32 = seeded(seed);
  const unit = () => (u32() * 2 ** 21 + (u32() >>> 11)) / 2 ** 53;   // [0, 1)
  const random = {
    bool: (p = 0.5) => unit() < p,
    real: (min = 0, max = 1) => min + (max - min) * unit(),
    integer: (min, max) => min + Math.floor(unit() * (max - min + 1)),
    normal: (mean = 0, sd = 1) => {
      const u = 1 - unit(), v = unit();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    pick: (items) => items[random.integer(0, items.length - 1)],
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = random.integer(0, i);
        [items[i], items[j]] = [items[j], items[i]];
      }
    },
    string: (length, alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz") => {
      let s = "";
      for (let i = 0; i < length; i++) s += alphabet[random.integer(0, alphabet.length - 1)];
      return s;
    },
    uuid4: () => {
      let h = "";
      for (let i = 0; i < 4; i++) h += u32().toString(16).padStart(8, "0");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-` +
        `${"89ab"[u32() & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
  };
  return random;
}
