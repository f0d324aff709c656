// chromium.mjs: Debian's chromium, headless, for every test and benchmark
// that runs in a browser (wasm/test/browser, wasm/idscheme/test/browser,
// web/test, bench/npm, bench/web_inspect.mjs).  launch() starts it in a
// process group of its own with a fresh profile, connects the caller's
// puppeteer-core (each of those folders installs its own, from its lock)
// over the DevTools protocol, and gives stop(), which ends that group by
// its id and removes the profile; it runs at exit and on SIGINT or SIGTERM
// too, whatever happens.  serve() is a server of this process on
// 127.0.0.1 for the pages; open() a page that may fetch from that origin
// alone (any other request is aborted and listed).  No request leaves the
// machine.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

// IDS_CHROMIUM (IDC_CHROMIUM, the id-compressor tests' older name): another
// chromium than Debian's
const CHROMIUM = process.env.IDS_CHROMIUM ?? process.env.IDC_CHROMIUM ?? "/usr/bin/chromium";

// { browser, stop, pid }; protocolTimeout: how long one DevTools call may
// take (ms); viewport: the pages' (null: the window's)
export async function launch(puppeteer, { bin = CHROMIUM, protocolTimeout = 1800000, viewport = null } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-chromium-"));
  // its temporary files too (a folder for its singleton socket, which a
  // stopped Chromium leaves in /tmp), so that stop() removes them
  fs.mkdirSync(path.join(profile, "tmp"));
  const chrome = spawn(bin, [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", `--user-data-dir=${path.join(profile, "data")}`, "--remote-debugging-port=0", "about:blank",
  ], { detached: true, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, TMPDIR: path.join(profile, "tmp") } });
  let stopped = false;
  // synchronous, for process.on("exit"): SIGTERM, up to 3 s for the group
  // to go, then SIGKILL
  const stop = () => {
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
  };
  process.on("exit", stop);
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { stop(); process.exit(1); });
  try {
    const ws = await new Promise((resolve, reject) => {
      let err = "";
      const timer = setTimeout(() => reject(new Error("chromium did not start in 60 s: " + err.slice(-500))), 60000);
      chrome.stderr.on("data", (b) => {
        err += b;
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
      chrome.on("exit", (code) => { clearTimeout(timer); reject(new Error(`chromium exited (${code}): ${err.slice(-500)}`)); });
    });
    const browser = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: viewport, protocolTimeout });
    return { browser, stop, pid: chrome.pid };
  } catch (e) {
    stop();
    throw e;
  }
}

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                ".html": "text/html", ".json": "application/json" };

// routes: [[prefix, directory or file]], the last that matches wins;
// pages: { "/path": html }.  { server, origin, served, missing }: the paths
// asked for, and those that were not there (a 404).
export async function serve(routes, pages = {}) {
  const served = [], missing = [];
  const server = http.createServer((rq, res) => {
    const url = new URL(rq.url, "http://127.0.0.1");
    served.push(url.pathname);
    if (url.pathname === "/favicon.ico") { res.writeHead(204); res.end(); return; }
    if (pages[url.pathname] !== undefined) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(pages[url.pathname]);
      return;
    }
    let file = null;
    for (const [prefix, dir] of routes)
      if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      missing.push(url.pathname);
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, served, missing };
}

// a page that may request its origin (and data:) alone; errors: its
// uncaught errors and console errors; offsite: what it tried elsewhere
export async function open(browser, url, origin, offsite = []) {
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
}
