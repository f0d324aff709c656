// run.mjs WORKDIR PACKAGEDIR: the test suite of @fluidframework/id-compressor
// 3.1.0, from its npm tarball (installed here by npm ci: package-lock.json),
// run against the reference and against @idscheme/id-compressor
// (PACKAGEDIR: wasm/build.sh's output).
//
// The tarball ships its tests compiled away, but their TypeScript sources
// are in the source maps (lib/test/**/*.js.map, sourcesContent).  They are
// extracted into WORKDIR, turned into JavaScript by Debian's TypeScript
// (transpileModule: types dropped, nothing checked) and laid out twice:
//   WORKDIR/ref/lib/test   beside the reference's own lib/*.js (as in the
//                          package: the tests import ../idCompressor.js, ...)
//   WORKDIR/ours/lib/test  beside adapter/*.js, which give the package
//                          under test where the tests import the
//                          reference's modules (see each file)
// and run by mocha.  The helpers that Fluid does not publish
// (@fluid-private/stochastic-test-utils) are written here from their
// documentation (stochastic-test-utils/).
//
// Every test of public behaviour must pass on both, the same tests on
// both; the spec files that test the reference's private parts run on the
// reference only and are listed with the reason.  Prints a line per test
// and "N passed, N failed"; exits non-zero on any failure.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.resolve(process.argv[2] ?? "idc-reftests");
const pkg = path.resolve(process.argv[3] ?? "wasm");
const require = createRequire(path.join(here, "package.json"));
const ref = path.join(here, "node_modules/@fluidframework/id-compressor");
const refVersion = JSON.parse(fs.readFileSync(path.join(ref, "package.json"), "utf8")).version;
const ts = createRequire(import.meta.url)(process.env.IDC_TYPESCRIPT ?? "/usr/share/nodejs/typescript/lib/typescript.js");

// The spec files, and for those that do not apply to another package, why
const PUBLIC = "public";
const SPECS = {
  "idCompressor.spec": PUBLIC,
  "snapshots/summary.spec": PUBLIC,
  "numericUuid.spec": "tests the reference's private stable-ID arithmetic (utilities.ts, " +
    "persistanceUtilities.ts: numericUuidFromStableId, offsetNumericUuid, readNumericUuid...), " +
    "which the package does in C (its tests: spec/idcompressor, the vectors' uuidArithmetic)",
  "appendOnlySortedMap.spec": "tests a private data structure of the reference (appendOnlySortedMap.ts)",
  "sessionSpaceNormalizer.spec": "tests a private data structure of the reference (sessionSpaceNormalizer.ts)",
  "idCompressor.perf.spec": "benchmarks (@fluid-tools/benchmark), no assertions; bench/bench_idc_node.mjs " +
    "times the package beside the reference",
  "appendOnlySortedMap.perf.spec": "benchmarks of a private data structure of the reference",
  "types/validateIdCompressorPrevious.generated": "compile-time checks of the reference's declarations " +
    "against its previous version (2.116.0); the package's are checked by ctest idc_wasm_types",
};

// ---------------------------------------------------------------- extract
fs.rmSync(work, { recursive: true, force: true });
const sources = {};                 // path under src/test -> TypeScript
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) walk(f);
    else if (/\.[cm]?js\.map$/.test(e.name)) {
      const map = JSON.parse(fs.readFileSync(f, "utf8"));
      map.sources.forEach((s, i) => {
        const abs = path.resolve(path.dirname(f), map.sourceRoot ?? "", s);
        const rel = path.relative(path.join(ref, "src/test"), abs);
        if (!rel.startsWith("..") && map.sourcesContent?.[i] != null) sources[rel] = map.sourcesContent[i];
      });
    }
  }
}
walk(path.join(ref, "lib/test"));
const tsFiles = Object.keys(sources).filter((f) => /\.ts$/.test(f)).sort();
console.log(`@fluidframework/id-compressor ${refVersion}: ${tsFiles.length} test sources from its source maps`);
for (const name of Object.keys(SPECS))
  if (!sources[name + ".ts"]) { console.log(`FAIL ${name}.ts is not in the tarball's source maps`); process.exit(1); }
for (const f of tsFiles.filter((f) => f.endsWith(".spec.ts") || f.includes("generated")))
  if (!(f.replace(/\.ts$/, "") in SPECS)) { console.log(`FAIL ${f}: a spec file run.mjs does not know`); process.exit(1); }

// --------------------------------------------------------------- transpile
const compiled = {};
for (const f of tsFiles) {
  const out = ts.transpileModule(sources[f], {
    fileName: f,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  compiled[f.replace(/\.ts$/, ".js")] = out.outputText;
}
function layout(tree, lib) {
  const root = path.join(work, tree);
  fs.mkdirSync(path.join(root, "lib/test"), { recursive: true });
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module" }));
  for (const f of fs.readdirSync(lib)) if (f.endsWith(".js")) fs.copyFileSync(path.join(lib, f), path.join(root, "lib", f));
  for (const [f, js] of Object.entries(compiled)) {
    fs.mkdirSync(path.dirname(path.join(root, "lib/test", f)), { recursive: true });
    fs.writeFileSync(path.join(root, "lib/test", f), js);
  }
  // the snapshot test's CommonJS helper and its snapshots, as in the package
  fs.copyFileSync(path.join(ref, "lib/test/snapshots/dirname.cjs"), path.join(root, "lib/test/snapshots/dirname.cjs"));
  fs.cpSync(path.join(ref, "src/test/snapshots"), path.join(root, "src/test/snapshots"), { recursive: true });
  return root;
}
const refRoot = layout("ref", path.join(ref, "lib"));
const oursRoot = layout("ours", path.join(here, "adapter"));
fs.symlinkSync(path.join(here, "node_modules"), path.join(work, "node_modules"));
fs.mkdirSync(path.join(oursRoot, "node_modules/@idscheme"), { recursive: true });
fs.symlinkSync(pkg, path.join(oursRoot, "node_modules/@idscheme/id-compressor"));

// --------------------------------------------------------------------- run
const mocha = path.join(path.dirname(require.resolve("mocha/package.json")), "bin/mocha.js");
function run(root, names) {
  const out = path.join(work, path.basename(root) + ".json");
  const files = names.map((n) => `lib/test/${n}.js`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [mocha, "--reporter", "json", "--reporter-option", `output=${out}`,
    "--timeout", "120000", ...files], { cwd: root, encoding: "utf8" });
  if (!fs.existsSync(out)) {
    console.log(r.stdout, r.stderr);
    console.log(`FAIL mocha did not run in ${root}`);
    process.exit(1);
  }
  const res = JSON.parse(fs.readFileSync(out, "utf8"));
  res.seconds = (Date.now() - t0) / 1000;
  return res;
}
const all = Object.keys(SPECS).filter((n) => !/perf|generated/.test(n));
const publicSpecs = Object.keys(SPECS).filter((n) => SPECS[n] === PUBLIC);
const results = { reference: run(refRoot, all), ours: run(oursRoot, publicSpecs) };

let passed = 0, failed = 0;
const ok = (good, what) => {
  if (good) passed++; else failed++;
  console.log(`${good ? "ok  " : "FAIL"} ${what}`);
  return good;
};
const fileOf = (t) => path.relative("lib/test", path.relative(path.join(work, "x"), t.file ?? "")).replace(/\.js$/, "");
for (const [who, res] of Object.entries(results)) {
  for (const t of res.tests) {
    const bad = t.err && Object.keys(t.err).length > 0;
    ok(!bad, `${who.padEnd(9)} ${t.fullTitle}${bad ? `\n       ${String(t.err.message).split("\n")[0]}` : ""}`);
  }
  console.log(`${who}: ${res.stats.passes} passed, ${res.stats.failures} failed, ${res.stats.pending} pending ` +
              `of ${res.stats.tests} (${res.seconds.toFixed(1)} s)`);
}
// the same public tests ran on both, none skipped
const titles = (res, filter) => res.tests.filter(filter).map((t) => t.fullTitle).sort();
const isPublic = (t) => publicSpecs.some((n) => (t.file ?? "").endsWith(`lib/test/${n}.js`));
const refPublic = titles(results.reference, isPublic), oursPublic = titles(results.ours, () => true);
ok(refPublic.length > 0 && JSON.stringify(refPublic) === JSON.stringify(oursPublic),
   `the same ${refPublic.length} tests of public behaviour ran on the reference and on the package`);
ok(results.reference.stats.pending === 0 && results.ours.stats.pending === 0, "no test skipped");
console.log(`tests of public behaviour: the reference ${refPublic.length - results.reference.tests.filter((t) => isPublic(t) && t.err && Object.keys(t.err).length).length}/${refPublic.length}, ` +
            `the package ${results.ours.stats.passes}/${oursPublic.length}`);
console.log("spec files that do not apply to another package (run on the reference only where they run at all):");
for (const [n, why] of Object.entries(SPECS)) if (why !== PUBLIC) console.log(`  ${n}.ts: ${why}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
