// chromium.mjs: Debian's chromium, headless, for the package's browser
// test (run.mjs) and bench/npm: started here in a process group of its
// own with a fresh profile, driven over the DevTools protocol by
// puppeteer-core (wasm/test/browser's install), stopped by that group's
// id whatever happens.  serve(routes) is a server of this process on
// 127.0.0.1 for the pages; open(browser, url, origin) a page that may
// fetch from that origin alone (any other request is aborted and listed).
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const req = createRequire(path.join(root, "wasm/test/browser/package.json"));

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                ".html": "text/html", ".json": "application/json" };

// routes: [[prefix, directory or file]]; pages: { "/path": html }
export async function serve(routes, pages = {}) {
  const server = http.createServer((rq, res) => {
    const url = new URL(rq.url, "http://127.0.0.1");
    if (url.pathname === "/favicon.ico") { res.writeHead(204); res.end(); return; }
    if (pages[url.pathname] !== undefined) {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(pages[url.pathname]);
      return;
    }
    let file = null;
    for (const [prefix, dir] of routes)
      if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

export async function launch(bin = process.env.IDS_CHROMIUM ?? "/usr/bin/chromium") {
  const puppeteer = req("puppeteer-core");
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-chromium-"));
  const chrome = spawn(bin, [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank",
  ], { detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let stopped = false;
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
      chrome.on("exit", (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-500)}`)));
    });
    const browser = await puppeteer.connect({ browserWSEndpoint: ws, defaultViewport: null, protocolTimeout: 1800000 });
    return { browser, stop, pid: chrome.pid };
  } catch (e) {
    stop();
    throw e;
  }
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
