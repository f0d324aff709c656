// run.mjs WORKDIR PACKAGEDIR: a Fluid application (app.mjs: SharedTree on
// test-runtime-utils' mocks, four clients, one of them loaded from a
// summary) run twice: on the reference, as npm installs it here from
// package-lock.json, and on our package (PACKAGEDIR, wasm/build.sh's
// output) swapped in by npm overrides under the reference's name, in
// WORKDIR: the same package.json and lock file, with the id-compressor
// dependency pointed at PACKAGEDIR and every other copy of it overridden
// to that one.  Checks: the application resolved the package it was meant
// to (every copy of @fluidframework/id-compressor in the ours install is
// ours); within each run every client converged on one document; and the
// two runs gave the same document, the same identifiers, the same
// summary and the same serialized compressors.
// Prints a line per check and "N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.resolve(process.argv[2] ?? "idc-fluidapp");
const pkg = fs.realpathSync(path.resolve(process.argv[3] ?? "wasm"));
const ARGS = (process.env.IDC_FLUIDAPP_ARGS ?? "3 80").split(" ");

let passed = 0, failed = 0;
const ok = (good, what) => {
  if (good) passed++; else failed++;
  console.log(`${good ? "ok  " : "FAIL"} ${what}`);
  return good;
};
const done = () => { console.log(`${passed} passed, ${failed} failed`); process.exit(failed ? 1 : 0); };

// the ours install: the same dependencies, ours under the reference's name
fs.mkdirSync(work, { recursive: true });
const manifest = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
manifest.name = "idscheme-idc-fluidapp-ours";
manifest.dependencies["@fluidframework/id-compressor"] = `file:${pkg}`;
manifest.overrides = { "@fluidframework/id-compressor": "$@fluidframework/id-compressor" };
const text = JSON.stringify(manifest, null, 2) + "\n";
const stamp = path.join(work, ".installed");
if (!fs.existsSync(stamp) || fs.readFileSync(stamp, "utf8") !== text + fs.readFileSync(path.join(here, "package-lock.json"), "utf8")) {
  fs.writeFileSync(path.join(work, "package.json"), text);
  // the reference's lock file, less its copies of the id-compressor (npm
  // keeps a locked copy where an override would replace it)
  const lock = JSON.parse(fs.readFileSync(path.join(here, "package-lock.json"), "utf8"));
  for (const k of Object.keys(lock.packages))
    if (k.endsWith("node_modules/@fluidframework/id-compressor")) delete lock.packages[k];
  fs.writeFileSync(path.join(work, "package-lock.json"), JSON.stringify(lock, null, 2));
  const t0 = Date.now();
  const r = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: work, encoding: "utf8" });
  if (!ok(r.status === 0, `npm install with overrides (${((Date.now() - t0) / 1000).toFixed(0)} s)`)) {
    console.log(r.stdout, r.stderr);
    done();
  }
  fs.writeFileSync(stamp, text + fs.readFileSync(path.join(here, "package-lock.json"), "utf8"));
}
fs.copyFileSync(path.join(here, "app.mjs"), path.join(work, "app.mjs"));

// every copy of the id-compressor in the ours install is ours
const copies = [];
(function scan(dir) {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir)) {
    const p = path.join(dir, e);
    if (e === "@fluidframework" && fs.existsSync(path.join(p, "id-compressor"))) copies.push(path.join(p, "id-compressor"));
    if (e.startsWith("@")) { for (const s of fs.readdirSync(p)) scan(path.join(p, s, "node_modules")); }
    else scan(path.join(p, "node_modules"));
  }
})(path.join(work, "node_modules"));
ok(copies.length > 0 && copies.every((c) => fs.realpathSync(c) === pkg),
   `every copy of @fluidframework/id-compressor in the ours install is our package (${copies.length}: ${copies.map((c) => path.relative(work, c)).join(", ")})`);

function run(dir, who) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [path.join(dir, "app.mjs"), ...ARGS], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
  const s = (Date.now() - t0) / 1000;
  if (!ok(r.status === 0, `${who}: the application ran (${s.toFixed(1)} s)`)) {
    console.log(r.stderr.split("\n").slice(0, 30).join("\n"));
    return null;
  }
  return JSON.parse(r.stdout.trim().split("\n").pop());
}
const ref = run(here, "reference"), ours = run(work, "ours");
if (!ref || !ours) done();

ok(ref.package === "@fluidframework/id-compressor@3.1.0", `the reference run used ${ref.package}`);
ok(ours.package.startsWith("@idscheme/id-compressor@") && ours.resolved === pkg,
   `the ours run used ${ours.package} from ${ours.resolved}, under the name @fluidframework/id-compressor`);
for (const [who, r] of [["reference", ref], ["ours", ours]]) {
  ok(r.documents.length === 4 && new Set(r.documents).size === 1 && r.items.every((n) => n === r.items[0]),
     `${who}: the four clients converged on one document (${r.items[0]} items after ${r.edits} edits)`);
  ok(r.ids.every((ids) => ids.length === r.items[0] && ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))),
     `${who}: every item has an identifier the compressor made (a UUID)`);
}
ok(ours.documents[0] === ref.documents[0], "the same document on both packages");
ok(JSON.stringify(ours.ids) === JSON.stringify(ref.ids), "the same identifiers, client by client");
ok(ours.summary === ref.summary, `the same summary of the tree (${ref.summary.length} characters)`);
ok(JSON.stringify(ours.compressors) === JSON.stringify(ref.compressors),
   "the same serialized compressors, with and without local state, client by client");
done();
