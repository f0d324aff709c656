// run.mjs PACKAGEDIR WORKDIR: our package in a real browser.  Debian's
// chromium, headless, started here (its own process group, a fresh
// profile, no network but 127.0.0.1: requests elsewhere are refused and
// fail the test) and driven over the DevTools protocol by puppeteer-core;
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
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import puppeteer from "puppeteer-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(process.argv[2] ?? "wasm");
const work = path.resolve(process.argv[3] ?? "idc-browser");
const CHROMIUM = process.env.IDC_CHROMIUM ?? "/usr/bin/chromium";

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
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                ".html": "text/html" };
const ROUTES = [
  ["/pkg/", pkg], ["/test/", path.join(here, "..")], ["/browser/", here],
  ["/bundle/", path.join(work, "bundle")], ["/ref.js", path.join(work, "ref.js")],
];
const served = [], missing = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  let file = null;
  if (url.pathname === "/") file = path.join(here, "page.html");
  for (const [prefix, dir] of ROUTES)
    if (url.pathname === prefix || (prefix.endsWith("/") && url.pathname.startsWith(prefix)))
      file = prefix.endsWith("/") ? path.join(dir, url.pathname.slice(prefix.length)) : dir;
  served.push(url.pathname);
  if (url.pathname === "/favicon.ico") { res.writeHead(204); res.end(); return; }
  if (url.pathname === "/bundle.html") {
    res.writeHead(200, { "content-type": "text/html" });
    res.end('<!doctype html><script type="module" src="/browser/bundle-page.mjs"></script>');
    return;
  }
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    missing.push(url.pathname);
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
                       "cache-control": "no-store" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

// ------------------------------------------------------------ chromium
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "idc-chromium-"));
const chrome = spawn(CHROMIUM, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage", `--user-data-dir=${profile}`, "--remote-debugging-port=0",
  "about:blank",
], { detached: true, stdio: ["ignore", "ignore", "pipe"] });
let stopped = false;
function stopChromium() {
  if (stopped) return;
  stopped = true;
  try { process.kill(-chrome.pid, "SIGTERM"); } catch { /* gone */ }
  const t = Date.now();
  while (Date.now() - t < 3000) {
    try { process.kill(-chrome.pid, 0); } catch { break; }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  try { process.kill(-chrome.pid, "SIGKILL"); } catch { /* gone */ }
  fs.rmSync(profile, { recursive: true, force: true });
}
process.on("exit", stopChromium);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { stopChromium(); process.exit(1); });

let browser;
try {
  const ws = await new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error("chromium did not start in 60 s: " + err.slice(-500))), 60000);
    chrome.stderr.on("data", (b) => {
      err += b;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    chrome.on("exit", (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-500)}`)));
  });
  browser = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 1800000 });
  console.log(`chromium ${await browser.version()}, pid ${chrome.pid}; pages from ${origin}`);
  const offsite = [];
  const open = async (url) => {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.protocol === "data:" || u.origin === origin) r.continue();
      else { offsite.push(r.url()); r.abort(); }
    });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    await page.goto(url);
    return { page, errors };
  };

  const { page, errors } = await open(origin + "/");
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
  const sp = await open(origin + "/");
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
    const b = await open(origin + "/bundle.html");
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
  try { await browser?.disconnect(); } catch { /* gone */ }
  stopChromium();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
