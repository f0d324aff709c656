// page.mjs: the tests that run inside headless Chromium (run.mjs drives
// it): our package as the page imports it (browser.js, unbundled, from the
// package's own files), the reference bundled by esbuild; the public API
// tests (api-cases.mjs) on both, the lockstep differential (diff.mjs), and
// the benchmark cases (speed.mjs) side by side.  window.__run(what, opts)
// answers run.mjs.
import * as O from "/pkg/browser.js";
import { R, TU } from "/ref.js";
import { defineApiTests } from "/test/api-cases.mjs";
import { differential } from "/test/diff.mjs";
import { bench } from "/test/speed.mjs";

// what node:assert/strict does for the API tests, in a few lines
const same = (a, b) => {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
};
const fail = (msg) => { throw new Error(msg); };
const show = (x) => { try { return JSON.stringify(x); } catch { return String(x); } };
const assert = {
  ok: (v, msg) => v || fail(msg ?? `expected a truthy value, got ${show(v)}`),
  equal: (a, b, msg) => Object.is(a, b) || fail(msg ?? `${show(a)} !== ${show(b)}`),
  notEqual: (a, b, msg) => !Object.is(a, b) || fail(msg ?? `${show(a)} === ${show(b)}`),
  deepEqual: (a, b, msg) => same(a, b) || fail(msg ?? `${show(a)} is not deeply ${show(b)}`),
  match: (s, re, msg) => re.test(s) || fail(msg ?? `${show(s)} does not match ${re}`),
  throws: (f, want, msg) => {
    let threw = false, e;
    try { f(); } catch (x) { threw = true; e = x; }
    if (!threw) fail(msg ?? "Missing expected exception.");
    if (typeof want === "function" && want.prototype === undefined && !want(e))
      fail(msg ?? `the exception did not match: ${e?.constructor?.name}: ${e?.message}`);
    if (want instanceof RegExp && !want.test(String(e?.message))) fail(msg ?? `the exception ${e?.message} does not match ${want}`);
  },
};

async function runApi() {
  const tests = [];
  defineApiTests({ test: (name, fn) => tests.push([name, fn]), assert, impls: { reference: R, wasm: O }, TU });
  const out = [];
  for (const [name, fn] of tests) {
    try { await fn(); out.push({ name, ok: true }); }
    catch (e) { out.push({ name, ok: false, error: `${e?.constructor?.name}: ${e?.message}` }); }
  }
  return out;
}

window.__run = async (what, opts = {}) => {
  switch (what) {
    case "env":
      return { userAgent: navigator.userAgent, node: typeof process !== "undefined",
               buffer: typeof Buffer !== "undefined", exports: Object.keys(O).sort() };
    case "api": return runApi();
    case "diff": {
      const out = [];
      for (const seed of opts.seeds) {
        const t0 = performance.now();
        const r = differential(R, O, { seed, ops: opts.ops });
        out.push({ seed, checks: r.checks, failures: r.failures, stats: r.stats, ms: performance.now() - t0 });
      }
      return out;
    }
    case "speed": {
      const lines = [];
      const { ratios } = bench([["reference", R], ["wasm", O]],
                               { quick: opts.quick, runMs: opts.runMs, runs: opts.runs,
                                 now: () => performance.now(), log: (l) => lines.push(l),
                                 only: opts.only ? new RegExp(opts.only) : undefined });
      return { lines, ratios };
    }
    default: throw new Error("unknown " + what);
  }
};
window.__ready = true;
