// diff.mjs: inspect through the package against the command's
// `idscheme inspect --json` (the same C engine, run natively) on a corpus
// made at test time (corpus.mjs): for each text the same verdict, scheme,
// encoding, flags, evidence (the command's tenth),
// title, note, doubt, value, fields, time, every encoding, and the same
// other candidates in the same order, and verdict() the same verdict;
// for a text no scheme reads, the
// same message (the command words a refused reading in a sentence of its
// own, made here from the package's candidate and why).
//
// run(ids, t, { inputs, lines }): lines the command's JSON objects.

// a field's value as the command writes it: by width, a number, a string
// of decimal digits (over 2^53), hex bytes (over 64 bits) or a name
function fieldText(v, f) {
  if (typeof v === "string") return v;
  if (f.bits > 64) return BigInt(v).toString(16).padStart(2 * ((f.bits + 7) >> 3), "0");
  return String(v);
}
// a Date as the command writes its time: a year past 9999 with its sign
// and no leading zeros (+10107-...), where JavaScript writes six digits
const iso = (d) => d === null ? null : d.toISOString().replace(/^([+-])0*(\d{5,})/, "$1$2");
const cut = (s, n) => {            // a C buffer of n bytes: n - 1 of them
  const b = new TextEncoder().encode(s);
  return b.length < n ? s : new TextDecoder().decode(b.subarray(0, n - 1));
};

export default function run(ids, t, { inputs, lines }) {
  let same = 0, named = 0, errors = 0;
  const schemes = new Map(ids.schemes().map((s) => [s.name, s]));
  inputs.forEach((text, i) => {
    const want = lines[i], got = ids.inspect(text), what = `inspect ${JSON.stringify(text)}`;
    const bad = [];
    const cmp = (a, b, k) => { if (a !== b) bad.push(`${k}: got ${JSON.stringify(a)}, the command ${JSON.stringify(b)}`); };
    // verdict(), which makes no reading, says what inspect() does
    cmp(ids.verdict(text), got.verdict, "verdict()");
    // evidence weighs the time against now, which moves between the
    // command's run and this one: the command's tenth, within its rounding
    const near = (a, b, k) => {
      if (!(Math.abs(a - b) <= 0.0501)) bad.push(`${k}: got ${a}, the command ${b}`);
    };
    if (want.error !== undefined) {
      errors++;
      const c0 = got.candidates[0];
      const msg = got.verdict === "unknown" ? got.why
        : got.verdict === "refused" ? cut(`no scheme reads it plausibly (the best, ${c0.scheme} in ${c0.encoding}: ${cut(got.why, 80)}; -s names the scheme)`, 160)
        : `(verdict ${got.verdict})`;
      cmp(msg, want.error, "error");
    }
    else {
      named++;
      cmp(got.input, want.input, "input");
      cmp(got.scheme, want.scheme, "scheme");
      cmp(got.encoding, want.encoding, "encoding");
      cmp(got.plausible, want.plausible, "plausible");
      cmp(got.ambiguous, want.ambiguous, "ambiguous");
      cmp(got.weak, want.weak, "weak");
      cmp(got.verdict, want.ambiguous ? "ambiguous" : want.weak ? "weak" : "named", "verdict");
      near(got.evidence, want.evidence, "evidence");
      cmp(got.doubt, want.doubt ?? null, "doubt");
      cmp(got.title, want.title ?? null, "title");
      cmp(got.note, want.note ?? null, "note");
      cmp(got.length, want.length ?? null, "length");
      cmp(got.value, want.value, "value");
      cmp(iso(got.time), want.time, "time");
      cmp(got.ms, want.time_ms ?? null, "time_ms");
      const s = schemes.get(got.scheme);
      if (s && got.fields) {
        const gf = Object.fromEntries(s.layout.fields.map((f) => [f.name, fieldText(got.fields[f.name], f)]));
        const wf = Object.fromEntries(Object.entries(want.fields).map(([k, v]) => [k, String(v)]));
        cmp(JSON.stringify(gf), JSON.stringify(wf), "fields");
      }
      else cmp(JSON.stringify(want.fields), "{}", "fields");
      cmp(JSON.stringify(got.encodings ?? {}), JSON.stringify(want.encodings), "encodings");
      const others = got.candidates.slice(1);
      cmp(others.length, want.candidates.length, "candidates");
      others.forEach((c, k) => {
        const w = want.candidates[k];
        if (!w) return;
        const p = `candidate ${k + 1} `;
        cmp(c.scheme, w.scheme, p + "scheme");
        cmp(c.encoding, w.encoding, p + "encoding");
        cmp(c.value, w.value, p + "value");
        cmp(iso(c.time), w.time, p + "time");
        cmp(c.ms, w.time_ms ?? null, p + "time_ms");
        cmp(c.plausible, w.plausible, p + "plausible");
        cmp(c.ambiguous, w.ambiguous, p + "ambiguous");
        cmp(c.refused, w.refused, p + "refused");
        near(c.evidence, w.evidence, p + "evidence");
      });
      // ambiguousWith names the other ambiguous readings
      cmp(got.ambiguousWith.join(), want.ambiguous ? want.candidates.filter((c) => c.ambiguous).map((c) => c.scheme).join() : "",
          "ambiguousWith");
    }
    if (t.ok(bad.length === 0, `${what}: ${bad.slice(0, 4).join("; ")}`)) same++;
  });
  t.ok(named > 100 && errors > 10, `the corpus has readings (${named}) and refusals (${errors})`);
  t.ok(true, `diff: ${inputs.length} texts, ${same} alike`);
}
