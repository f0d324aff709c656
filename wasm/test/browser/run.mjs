// run.mjs PACKAGEDIR WORKDIR: our package in a real browser.  Debian's
// chromium, headless (spec/browser/chromium.mjs: its own process group, a
// fresh profile, no network but 127.0.0.1: requests elsewhere are refused
// and fail the test), driven over the DevTools protocol by puppeteer-core;
// the pages come from a server of this process on 127.0.0.1.  In the page
// (page.mjs):
//   - the environment: no process, no Buffer; our package's exports;
//   - the public API tests (api-cases.mjs) on the reference (bundled for
//     the browser by esbuild) and on ours (browser.js, unbundled);
//   - the lockstep differential (diff.mjs), a few seeds;
//   - the benchmark cases (speed.mjs) side by side, quick, printed (the
//     host is shared: times are reported, not asserted);
// and a second page with our package bundled by esbuild for the browser
// (platform browser: a node API would stop the build).  Chromium is
// stopped by its process group's id whatever happens.
// IDC_BROWSER_SPEED=full: the benchmark with full runs (slow);
// IDC_BROWSER_ONLY=REGEXP: only the benchmark cases it matches.
// Prints a line per check and "N passed, N failed".
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import puppeteer from "puppeteer-core";
import { launch, open, serve } from "../../../spec/browser/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(process.argv[2] ?? "wasm");
const work = path.resolve(process.argv[3] ?? "idc-browser");

let passed = 0, failed = 0;
const ok = (good, what) => {
  if (good) passed++; else failed++;
  console.log(`${good ? "ok  " : "FAIL"} ${what}`);
  return good;
};

// ------------------------------------------------------------- bundles
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(path.join(work, "bundle"), { recursive: true });
await esbuild.build({
  entryPoints: [path.join(here, "ref-entry.mjs")], bundle: true, format: "esm",
  platform: "browser", outfile: path.join(work, "ref.js"), logLevel: "error",
});
let bundled = false;
try {
  await esbuild.build({
    entryPoints: [path.join(pkg, "browser.js")], bundle: true, format: "esm",
    platform: "browser", outfile: path.join(work, "bundle/ours.js"), logLevel: "error",
  });
  fs.copyFileSync(path.join(pkg, "idcompressor.wasm"), path.join(work, "bundle/idcompressor.wasm"));
  bundled = true;
} catch (e) {
  console.log(String(e.message).split("\n").slice(0, 5).join("\n"));
}
ok(bundled, "esbuild bundles our package for the browser (platform browser, no node API)");

// -------------------------------------------------------------- server
const ROUTES = [
  ["/pkg/", pkg], ["/test/", path.join(here, "..")], ["/browser/", here],
  ["/bundle/", path.join(work, "bundle")], ["/ref.js", path.join(work, "ref.js")],
];
const { server, origin, served, missing } = await serve(ROUTES, {
  "/": fs.readFileSync(path.join(here, "page.html"), "utf8"),
  "/bundle.html": '<!doctype html><script type="module" src="/browser/bundle-page.mjs"></script>',
});

// ------------------------------------------------------------ chromium
let chromium = null;
try {
  chromium = await launch(puppeteer);
  const browser = chromium.browser;
  console.log(`chromium ${await browser.version()}, pid ${chromium.pid}; pages from ${origin}`);
  const offsite = [];
  const { page, errors } = await open(browser, origin + "/", origin, offsite);
  await page.waitForFunction("window.__ready === true || window.__failed", { timeout: 60000 }).catch(() => {});
  ok(errors.length === 0 && await page.evaluate("window.__ready === true"),
     `the page imports our package (browser.js) and the reference's bundle${errors.length ? ": " + errors.join("; ") : ""}`);

  const env = await page.evaluate(() => window.__run("env"));
  console.log(`  ${env.userAgent}`);
  ok(!env.node && !env.buffer, "no process and no Buffer in the page");
  ok(env.exports.includes("createIdCompressor") && env.exports.includes("deserializeIdCompressor"),
     `our exports in the page: ${env.exports.join(", ")}`);

  const api = await page.evaluate(() => window.__run("api"));
  for (const t of api) ok(t.ok, `in Chromium: ${t.name}${t.ok ? "" : ": " + t.error}`);
  const apiByImpl = (w) => api.filter((t) => t.name.startsWith(w + ":")).length;
  ok(api.length > 0 && apiByImpl("reference") === apiByImpl("wasm"),
     `the API tests ran on both packages in the page (${apiByImpl("reference")} each, ${api.length} in all)`);

  const seeds = (process.env.IDC_BROWSER_SEEDS ?? "1 2 3").split(" ").map(Number);
  const diff = await page.evaluate((s) => window.__run("diff", { seeds: s, ops: 2000 }), seeds);
  for (const d of diff)
    ok(d.failures.length === 0, `differential in Chromium, seed ${d.seed}: ${d.checks} checks, ` +
       `${d.failures.length} differences (${(d.ms / 1000).toFixed(1)} s)${d.failures.length ? "\n  " + d.failures.join("\n  ") : ""}`);
  ok(diff.every((d) => d.checks > 10000), "each differential seed made over 10,000 checks");

  await page.close();

  // the benchmark in a page of its own: the API tests' Proxies and loggers
  // leave both packages' code with type feedback an application's would
  // not have
  const sp = await open(browser, origin + "/", origin, offsite);
  await sp.page.waitForFunction("window.__ready === true", { timeout: 60000 });
  const full = process.env.IDC_BROWSER_SPEED === "full";
  const only = process.env.IDC_BROWSER_ONLY;        // a RegExp of cases
  const speed = await sp.page.evaluate((o) => window.__run("speed", o),
                                    full ? { quick: false, only } : { quick: true, runMs: 30, runs: 3, only });
  console.log(`speed in ${env.userAgent.match(/Chrome\/[0-9.]+/)?.[0]} (${full ? "full" : "quick"}; reported, not asserted):`);
  for (const l of speed.lines) console.log("  " + l);
  // ran on both: each case has its line for each package (a ratio may be
  // 0/0 or x/0 where a quick run on a loaded machine is under the page's
  // timer resolution: reported, not asserted)
  const ran = (k) => ["reference", "wasm"].every((w) =>
    speed.lines.some((l) => l.trim().startsWith(`${w} ${k} `)));
  ok(Object.keys(speed.ratios).length > 0 && Object.keys(speed.ratios).every(ran),
     "the benchmark cases ran on both packages in the page");
  await sp.page.close();

  if (bundled) {
    const b = await open(browser, origin + "/bundle.html", origin, offsite);
    await b.page.waitForFunction("window.__bundled !== undefined", { timeout: 60000 }).catch(() => {});
    const got = await b.page.evaluate(() => window.__bundled);
    ok(got && got.ids.join() === "-1,-2" && got.uuid === "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0b" &&
       b.errors.length === 0, `our package bundled by esbuild runs in Chromium${b.errors.length ? ": " + b.errors.join("; ") : ""}`);
    await b.page.close();
  }
  ok(offsite.length === 0, `no request left 127.0.0.1${offsite.length ? ": " + offsite.join(", ") : ""}`);
  ok(missing.length === 0, `every file the pages asked for was there${missing.length ? ": not " + missing.join(", ") : ""}`);
  ok(served.includes("/pkg/idcompressor.wasm") && served.includes("/pkg/browser.js") && served.includes("/pkg/idc.js"),
     "the page fetched our package's own files (browser.js, idc.js, idcompressor.wasm)");
} catch (e) {
  ok(false, `the browser run: ${e.stack ?? e}`);
} finally {
  try { await chromium?.browser.disconnect(); } catch { /* gone */ }
  chromium?.stop();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
