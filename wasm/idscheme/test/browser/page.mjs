// page.mjs: the package's tests in a page (browser/run.mjs serves it): the
// package's browser entry point (browser.js, unbundled, as a bundler
// would take it), init() fetching idscheme.wasm from beside it, then each
// case of ../cases with what run.mjs hands over (window.__run).
import * as ids from "/pkg/browser.js";
import { tally } from "/test/harness.mjs";

const cases = {
  vectors: () => import("/test/cases/vectors.mjs"),
  api: () => import("/test/cases/api.mjs"),
  diff: () => import("/test/cases/diff.mjs"),
};

window.__run = async (name, data) => {
  if (name === "env") {
    let before = null;
    try { ids.list(); } catch (e) { before = e.code; }
    const t0 = performance.now();
    await ids.init();
    return { node: typeof process !== "undefined", buffer: typeof Buffer !== "undefined",
             before, initMs: performance.now() - t0, userAgent: navigator.userAgent,
             exports: Object.keys(ids).sort(), loaded: ids.loaded() };
  }
  const run = (await cases[name]()).default;
  const t = tally(() => {});
  const t0 = performance.now();
  if (name === "vectors") run(ids, t, data);
  else if (name === "diff") run(ids, t, data);
  else run(ids, t);
  return { passed: t.passed, failed: t.failed, failures: t.failures.slice(0, 20), ms: performance.now() - t0 };
};
window.__ready = true;
