// run.mjs PACKAGEDIR WORKDIR: the package's tests in a real browser:
// Debian's chromium, headless, started here (its own process group, a
// fresh profile, no network but 127.0.0.1: a request elsewhere is
// refused and fails the test), driven over the DevTools protocol by
// puppeteer-core (the id-compressor's browser test's install); the page
// comes from a server of this process on 127.0.0.1.  In the page
// (page.mjs): no process and no Buffer; init() fetches the module; then
// the same cases as under node (../cases: vectors, api, and the
// differential against the command, whose corpus and answers are made
// here in node); and a second page with the package bundled by esbuild
// for the browser (a node API would stop the build).  Chromium is
// stopped by its process group's id whatever happens.  Prints a line per
// check and "N passed, N failed".
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { vectorFiles, diffData } from "../data.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../../..");
const pkg = path.resolve(process.argv[2] ?? "build/wasm-idscheme");
const work = path.resolve(process.argv[3] ?? "idscheme-browser");
const CHROMIUM = process.env.IDS_CHROMIUM ?? "/usr/bin/chromium";
// puppeteer-core and esbuild from the id-compressor's browser test
const req = createRequire(path.join(root, "wasm/test/browser/package.json"));
const puppeteer = req("puppeteer-core");
const esbuild = req("esbuild");

let passed = 0, failed = 0;
const ok = (good, what) => {
  if (good) passed++; else failed++;
  console.log(`${good ? "ok  " : "FAIL"} ${what}`);
  return good;
};

// what the cases read, made in node: the vectors, and the corpus with the
// command's answers
const ids = await import(pathToFileURL(path.join(pkg, "index.js")));
const files = vectorFiles(root);
const diff = diffData(ids, process.env.IDSCHEME_CLI);

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
let bundled = false;
try {
  fs.writeFileSync(path.join(work, "entry.mjs"),
    `import { init, inspect } from ${JSON.stringify(path.join(pkg, "browser.js"))};\n` +
    `await init(new URL("./idscheme.wasm", import.meta.url));\n` +
    `window.__bundled = inspect("01ARZ3NDEKTSV4RRFFQ69G5FAV").scheme;\n`);
  await esbuild.build({ entryPoints: [path.join(work, "entry.mjs")], bundle: true, format: "esm",
                        platform: "browser", outfile: path.join(work, "bundle.js"), logLevel: "error" });
  fs.copyFileSync(path.join(pkg, "idscheme.wasm"), path.join(work, "idscheme.wasm"));
  bundled = true;
} catch (e) {
  console.log(String(e.message).split("\n").slice(0, 5).join("\n"));
}
ok(bundled, "esbuild bundles the package for the browser (platform browser: no node API)");

// -------------------------------------------------------------- server
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
const ROUTES = [["/pkg/", pkg], ["/test/", path.join(here, "..")], ["/browser/", here], ["/work/", work]];
const server = http.createServer((rq, res) => {
  const url = new URL(rq.url, "http://127.0.0.1");
  let file = url.pathname === "/" ? path.join(here, "page.html") : null;
  for (const [prefix, dir] of ROUTES)
    if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
  if (url.pathname === "/favicon.ico") { res.writeHead(204); res.end(); return; }
  if (url.pathname === "/bundle.html") {
    res.writeHead(200, { "content-type": "text/html" });
    res.end('<!doctype html><meta charset="utf-8"><script type="module" src="/work/bundle.js"></script>');
    return;
  }
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

// ------------------------------------------------------------ chromium
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-chromium-"));
const chrome = spawn(CHROMIUM, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage", `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank",
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
  const browser = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 600000 });
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
  await page.waitForFunction("window.__ready === true", { timeout: 60000 }).catch(() => {});
  ok(await page.evaluate("window.__ready === true"), `the page imports the package (browser.js)${errors.length ? ": " + errors.join("; ") : ""}`);
  const env = await page.evaluate(() => window.__run("env"));
  console.log(`  ${env.userAgent}; init() in ${env.initMs.toFixed(1)} ms`);
  ok(!env.node && !env.buffer, "no process and no Buffer in the page");
  ok(env.before === "EINVAL" && env.loaded, "a call before init() is refused; init() fetches and loads the module");
  ok(["define", "init", "initSync", "inspect", "scheme", "schemes"].every((n) => env.exports.includes(n)),
     `the exports in the page: ${env.exports.join(", ")}`);

  // the differential before the API's cases, whose defined schemes
  // would be readings the command does not have
  for (const [name, data] of [["vectors", files], ["diff", diff], ["api", null]]) {
    const r = await page.evaluate((n, d) => window.__run(n, d), name, data);
    ok(r.failed === 0 && r.passed > 0, `in Chromium: ${name}: ${r.passed} passed, ${r.failed} failed (${(r.ms / 1000).toFixed(1)} s)` +
       (r.failed ? "\n  " + r.failures.join("\n  ") : ""));
  }
  ok(errors.length === 0, `no error in the page's console${errors.length ? ": " + errors.join("; ") : ""}`);
  await page.close();

  if (bundled) {
    const b = await open(origin + "/bundle.html");
    await b.page.waitForFunction("window.__bundled !== undefined", { timeout: 60000 }).catch(() => {});
    const got = await b.page.evaluate(() => window.__bundled);
    ok(got === "ulid" && b.errors.length === 0, `the package bundled by esbuild runs in Chromium${b.errors.length ? ": " + b.errors.join("; ") : ""}`);
    await b.page.close();
  }
  ok(offsite.length === 0, `no request left 127.0.0.1${offsite.length ? ": " + offsite.join(" ") : ""}`);
  await browser.disconnect();
} catch (e) {
  ok(false, `the browser run: ${e.stack ?? e}`);
} finally {
  server.close();
  stopChromium();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
