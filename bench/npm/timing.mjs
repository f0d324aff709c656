// timing.mjs: how the benchmark times a case, the same in node and in a
// page: calibrated so that a run takes about runMs, warmed up, then
// `runs` runs; the best and the median ns per operation.  A result is
// kept (sink) so that no engine drops the work.
export let sink = 0;
export function measure(fn, { runMs = 200, runs = 5 } = {}) {
  // warm up for about a run (the engines compile hot code on the way),
  // then size a run from the warm rate: a run far longer than the timer's
  // resolution (a page's performance.now() is coarsened)
  // (at least 0.2 s: a shorter warm-up measures code the engines have
  // not optimized yet, inspect's at 5 to 7 times its cost)
  let n = 0, i = 0;
  const t0 = performance.now(), warm = Math.max(runMs, 200);
  while (performance.now() - t0 < warm) {
    for (let k = 0; k < 64; k++, i++) if (fn(i)) sink++;
    n += 64;
  }
  n = Math.max(1, Math.round(n * runMs / (performance.now() - t0)));
  // a run that the clock says took a tenth of its size or less is not a
  // measurement (a page's clock once said 0 for a run of 0.2 s): it is
  // run again, up to `runs` times more
  const ns = [];
  for (let r = 0, bad = 0; r < runs;) {
    const t = performance.now();
    for (let k = 0; k < n; k++) if (fn(k)) sink++;
    const el = performance.now() - t;
    if (el <= runMs / 10 && bad++ < runs) continue;
    ns.push(el * 1e6 / n);
    r++;
  }
  ns.sort((a, b) => a - b);
  return { best: ns[0], median: ns[ns.length >> 1], n };
}

// the package's module instantiated once more, bare, for its w_nop: the
// floor of a call from JavaScript into WebAssembly
export function nopOf(bytes) {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
    env: { js_random: () => {}, emscripten_notify_memory_growth: () => {} },
    wasi_snapshot_preview1: { clock_time_get: () => 0 },
  });
  return inst.exports.w_nop;
}

export async function runAll(list, opts, only) {
  const out = [];
  for (const c of list) {
    if (only && !only.test(`${c.group} ${c.who}`)) continue;
    out.push({ group: c.group, who: c.who, ...measure(c.fn, opts) });
    await new Promise((r) => setTimeout(r, 0));   // let a page breathe
  }
  return out;
}
