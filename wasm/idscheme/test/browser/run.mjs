// run.mjs PACKAGEDIR WORKDIR: the package's tests in a real browser:
// Debian's chromium, headless (spec/browser/chromium.mjs: its own process
// group, a fresh profile, no network but 127.0.0.1: a request elsewhere is
// refused and fails the test), driven by puppeteer-core (from
// wasm/test/browser's install, as esbuild); the page comes
// from a server of this process on 127.0.0.1.  In the page (page.mjs):
// no process and no Buffer; init() fetches the module; then the same
// cases as under node (../cases: vectors, api, and the differential
// against the command, whose corpus and answers are made here in node);
// and a second page with the package bundled by esbuild for the browser
// (a node API would stop the build).  Prints a line per check and "N
// passed, N failed".
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { vectorFiles, diffData } from "../data.mjs";
import { launch, open, serve } from "../../../../spec/browser/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../../..");
const req = createRequire(path.join(root, "wasm/test/browser/package.json"));
const pkg = path.resolve(process.argv[2] ?? "build/wasm-idscheme");
const work = path.resolve(process.argv[3] ?? "idscheme-browser");
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

const { server, origin } = await serve([["/pkg/", pkg], ["/test/", path.join(here, "..")], ["/browser/", here],
                                         ["/work/", work], ["/index.html", path.join(here, "page.html")]], {
  "/": fs.readFileSync(path.join(here, "page.html"), "utf8"),
  "/bundle.html": '<!doctype html><meta charset="utf-8"><script type="module" src="/work/bundle.js"></script>',
});

let chromium = null;
try {
  chromium = await launch(req("puppeteer-core"));
  const browser = chromium.browser;
  console.log(`chromium ${await browser.version()}, pid ${chromium.pid}; pages from ${origin}`);
  const offsite = [];
  const { page, errors } = await open(browser, origin + "/", origin, offsite);
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
    const b = await open(browser, origin + "/bundle.html", origin, offsite);
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
  chromium?.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
