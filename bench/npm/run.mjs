// run.mjs BUILDDIR [--quick] [REGEXP]: the npm package idscheme
// (BUILDDIR/wasm-idscheme) against the npm libraries people use for each
// format (this folder's package.json, installed from its lock file),
// side by side in node and in headless Chromium (Debian's, driven by
// puppeteer-core from wasm/test/browser's install; the page bundled by
// esbuild as an application's would be).  A table of ns per operation
// (best of 5 runs, median in brackets), each case's ratio to the fastest
// of its group.  A benchmark, not a test: it fails only if something
// does not run.  --quick: short runs; REGEXP: the cases it matches.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cases } from "./cases.mjs";
import { nopOf, runAll } from "./timing.mjs";
import { launch, open, serve } from "../../spec/browser/chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const req = createRequire(path.join(here, "../../wasm/test/browser/package.json"));
const args = process.argv.slice(2);
const build = path.resolve(args.find((a) => !a.startsWith("-")) ?? "build");
const quick = args.includes("--quick");
const onlyText = args.filter((a) => !a.startsWith("-"))[1] ?? null;
const only = onlyText ? new RegExp(onlyText) : null;
const pkg = path.join(build, "wasm-idscheme");
const opts = quick ? { runMs: 30, runs: 3 } : { runMs: 200, runs: 5 };

if (!fs.existsSync(path.join(here, "node_modules/uuid"))) {
  console.error("bench/npm: npm ci first (the peers, from package-lock.json)");
  process.exit(1);
}
const peers = {
  uuid: await import("uuid"), ulid: await import("ulid"), ulidx: await import("ulidx"),
  nanoid: await import("nanoid"), sapphire: await import("@sapphire/snowflake"),
};
const ids = await import(pathToFileURL(path.join(pkg, "index.js")));
const nop = nopOf(fs.readFileSync(path.join(pkg, "idscheme.wasm")));

console.log(`bench/npm: idscheme ${ids.version()} (WebAssembly) against uuid, ulid, ulidx, nanoid and ` +
            `@sapphire/snowflake; ${quick ? "quick runs" : "runs of 0.2 s, best of 5"}`);
console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}`);
const inNode = await runAll(cases(ids, peers, nop), opts, only);

// Chromium: the page's module bundled with the peers and the package
const work = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-bench-"));
const esbuild = req("esbuild");
// esbuild finds "idscheme" beside the peers: a link to the built package
// for the bundle's while (an earlier run's left behind is replaced)
fs.rmSync(path.join(here, "node_modules/idscheme"), { force: true });
fs.symlinkSync(pkg, path.join(here, "node_modules/idscheme"), "dir");
let inChrome = [], version = "?";
try {
  await esbuild.build({ entryPoints: [path.join(here, "page.mjs")], bundle: true, format: "esm", platform: "browser",
                        outfile: path.join(work, "page.js"), logLevel: "error", nodePaths: [path.join(here, "node_modules")] });
} finally {
  fs.unlinkSync(path.join(here, "node_modules/idscheme"));
}
fs.copyFileSync(path.join(pkg, "idscheme.wasm"), path.join(work, "idscheme.wasm"));
const { server, origin } = await serve([["/b/", work]], {
  "/": '<!doctype html><meta charset="utf-8"><script type="module" src="/b/page.js"></script>' });
let chromium = null;
try {
  chromium = await launch(req("puppeteer-core"));
  version = (await chromium.browser.version()).replace(/^HeadlessChrome\//, "");
  const { page, errors } = await open(chromium.browser, origin + "/", origin);
  await page.waitForFunction("window.__ready === true", { timeout: 60000 });
  inChrome = await page.evaluate((o, w) => window.__bench(o, w), opts, onlyText);
  if (errors.length) console.log("page errors: " + errors.join("; "));
} finally {
  server.close();
  chromium?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------- table
const fmt = (r) => r ? `${r.best.toFixed(r.best < 10 ? 1 : 0)} (${r.median.toFixed(r.median < 10 ? 1 : 0)})` : "-";
const ratio = (r, list) => {
  const best = Math.min(...list.filter((x) => x.group === r.group && !x.who.startsWith("crypto.")).map((x) => x.best));
  return r.group === "floor" ? "" : r.best === best ? "fastest" : `${(r.best / best).toFixed(1)}x`;
};
console.log(`\n${"case".padEnd(62)} ${"node ns/op".padStart(16)} ${"".padEnd(8)} ${("chromium " + version.split(".")[0] + " ns/op").padStart(19)}`);
let group = null;
for (const r of inNode) {
  if (r.group !== group) { console.log(`${r.group}:`); group = r.group; }
  const c = inChrome.find((x) => x.group === r.group && x.who === r.who);
  console.log(`  ${r.who.padEnd(60)} ${fmt(r).padStart(16)} ${ratio(r, inNode).padEnd(8)} ${fmt(c).padStart(19)} ${c ? ratio(c, inChrome) : ""}`);
}
const ins = (l) => l.find((x) => x.group === "inspect");
if (ins(inNode) && ins(inChrome))
  console.log(`\ninspect of 1M IDs at the best run's rate: ${(ins(inNode).best / 1000).toFixed(2)} s in node, ` +
              `${(ins(inChrome).best / 1000).toFixed(2)} s in Chromium`);
console.log(`load at the end: ${os.loadavg()[0].toFixed(2)} (2 cores: other work on them moves every figure)`);
