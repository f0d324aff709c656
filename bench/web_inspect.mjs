// web_inspect.mjs BUILDDIR [RUNS]: the "What is this ID?" page (BUILDDIR/
// web/index.html, cmake's web_page target) inspecting a million IDs in
// headless Chromium, against issue 41's goal: 1M IDs in under 2 s.  Not a
// test: it prints figures (best and median of RUNS, default 5) and fails
// only if the page does.
//
// The inputs are made by the idscheme command (BUILDDIR/idscheme): a
// million IDs, as many of each scheme that generates (the whole
// catalogue, as bench/cli.sh's mixed case), shuffled; and a million
// ULIDs.  The cases:
//   inspect()    the package's inspect, once per line, in the page's
//                JavaScript (window.idscheme, as the page exposes it):
//                what the library costs per text (the package makes the
//                best reading at once, the rest when read)
//   the page     a file of a million lines opened in the page's file
//                input: the page reads and draws the first 200 lines and
//                counts the verdicts of the rest, in shares on every core
//                (its helpers: web/worker.js); timed from the input's
//                change to the counts written (#results' data-run)
//   a paste      once, the ULIDs set in the textarea and laid out by
//                Chromium (two frames): the browser's cost of a paste of
//                a million lines, before the page reads any
// puppeteer-core comes from web/test (npm ci there: web/test/run.sh);
// Chromium is started and stopped by spec/browser/chromium.mjs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launch } from "../spec/browser/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = path.resolve(process.argv[2] ?? "build");
const runs = Number(process.argv[3] ?? 5);
// IDS_BENCH_N: fewer lines, for a quick look (the goal is of a million)
const N = Number(process.env.IDS_BENCH_N ?? 1e6);
const page = path.join(build, "web", "index.html");
if (!fs.existsSync(page)) { console.error(`web_inspect.mjs: no ${page} (cmake --build ${build} --target web_page)`); process.exit(1); }
const req = createRequire(path.join(root, "web/test/package.json"));
const puppeteer = (await import(pathToFileURL(req.resolve("puppeteer-core")).href)).default;

// the input files, in a folder that goes at exit
const work = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-bench-web-"));
process.on("exit", () => fs.rmSync(work, { recursive: true, force: true }));
let failed = false, chromium = null;
try {
  chromium = await launch(puppeteer, { viewport: { width: 1100, height: 900 } });
  const browser = chromium.browser;
  // a page that crashes (out of memory) ends the run, not hangs it
  browser.on("disconnected", () => { console.error("chromium went away"); process.exit(1); });
  const p = await browser.newPage();
  p.on("error", (e) => { console.error(`the page crashed: ${e.message}`); process.exit(1); });
  await p.goto(pathToFileURL(page).href);
  await p.waitForFunction(() => document.documentElement.dataset.ready === "yes", { timeout: 60000 });
  console.log(`${await browser.version()}; the page ${page} (${(fs.statSync(page).size / 1024).toFixed(0)} KB)`);

  // the inputs, made by the command (BUILDDIR/idscheme) as bench/cli.sh
  // makes its own: the package's generators are not this benchmark's
  // subject
  const cli = path.join(build, "idscheme");
  const run = (...a) => execFileSync(cli, a, { maxBuffer: 256 << 20 }).toString();
  const gen = JSON.parse(run("list", "--json"))
    .filter((s) => s.fields.some((f) => !["constant", "hash"].includes(f.kind))).map((s) => s.name);
  const mixed = [];
  for (const name of gen) mixed.push(...run("new", name, "-n", String(Math.ceil(N / gen.length))).trim().split("\n"));
  mixed.length = N;
  let a = 41;                       // a seeded shuffle: the same order each run
  const rnd = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let i = mixed.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [mixed[i], mixed[j]] = [mixed[j], mixed[i]]; }
  const ulid = run("new", "ulid", "-n", String(N)).trim().split("\n");
  await p.evaluate((k) => { window.__bench = { mixed: [], ulid: [], schemes: k }; }, gen.length);
  for (const [name, list] of [["mixed", mixed], ["ulid", ulid]])
    for (let i = 0; i < list.length; i += 100000)
      // as one string: an array argument is serialized element by element
      await p.evaluate((w, part) => { window.__bench[w].push(...part.split("\n")); }, name,
                       list.slice(i, i + 100000).join("\n"));
  const schemes = await p.evaluate(() => window.__bench.schemes);
  console.log(`inputs: ${N.toLocaleString("en")} IDs of ${schemes} schemes, shuffled; as many ULIDs (made by the command); ${runs} runs a case`);

  const report = (name, times, n) => {
    const s = [...times].sort((x, y) => x - y), med = s[Math.floor(s.length / 2)];
    console.log(`  ${name.padEnd(34)} ${(s[0] / 1000).toFixed(2)} s  [${(med / 1000).toFixed(2)}]` +
                `  ${(s[0] * 1e6 / n).toFixed(0)} ns/ID  (1M at this rate: ${(s[0] * 1e6 / n / 1000).toFixed(1)} s; the goal: 2 s)`);
  };
  for (const which of ["mixed", "ulid"]) {
    const times = [];
    for (let i = 0; i < runs; i++)
      times.push(await p.evaluate((w) => {
        const ids = window.idscheme, list = window.__bench[w];
        const t = performance.now();
        let named = 0;
        for (const x of list) if (ids.inspect(x).scheme !== null) named++;
        const ms = performance.now() - t;
        if (named === 0) throw new Error("nothing named");
        return ms;
      }, which));
    report(`inspect(), ${which === "mixed" ? "mixed IDs" : "ULIDs"}`, times, N);
  }
  // the page: each input as a file opened in its file input (the way for
  // a million lines), timed from the input's change to the counts written
  // (#results' data-run, set once every line is counted: its helpers count
  // on other cores), the file's reading included
  const files = { mixed, ulid };
  for (const which of ["mixed", "ulid"]) {
    const file = path.join(work, `${which}.txt`);
    fs.writeFileSync(file, files[which].join("\n") + "\n");
    const input = await p.$("#ids-file");
    const times = [];
    let said = "", shares = "";
    for (let i = 0; i < runs; i++) {
      await p.evaluate(() => {
        const results = document.querySelector("#results"), before = results.dataset.run;
        const f = document.querySelector("#ids-file");
        f.value = "";
        let t1 = 0;
        f.addEventListener("change", () => { t1 = performance.now(); }, { once: true, capture: true });
        window.__done = new Promise((resolve) => {
          const o = new MutationObserver(() => {
            if (results.dataset.run === before) return;
            o.disconnect();
            resolve({ page: performance.now() - t1, summary: document.querySelector("#summary").textContent,
                      shares: results.dataset.shares });
          });
          o.observe(results, { attributes: true, attributeFilter: ["data-run"] });
        });
      });
      await input.uploadFile(file);
      const r = await p.evaluate(() => window.__done);
      times.push(r.page); said = r.summary; shares = r.shares;
    }
    report(`the page, a file of ${which === "mixed" ? "mixed IDs" : "ULIDs"}`, times, N);
    console.log(`    (in ${shares} shares; it said "${said}")`);
  }
  // the other way in, a paste: the textarea set, then laid out (two
  // frames), once: the browser's own cost, before the page reads a line
  {
    const t = await p.evaluate(async () => {
      const ids = document.querySelector("#ids");
      const t0 = performance.now();
      ids.value = window.__bench.ulid.join("\n");
      const t1 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const t2 = performance.now();
      ids.value = "";
      return { set: t1 - t0, laid: t2 - t1 };
    });
    console.log(`  a paste of the ULIDs into the box: ${(t.set / 1000).toFixed(2)} s to set, ` +
                `${(t.laid / 1000).toFixed(2)} s for Chromium to lay it out (once; not the page's reading)`);
  }
  browser.removeAllListeners("disconnected");
  await browser.disconnect();
} catch (e) {
  console.error(e.stack ?? e);
  failed = true;
}
chromium?.stop();
process.exit(failed ? 1 : 0);
