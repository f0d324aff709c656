// bench_idc_node.mjs: the reference, @fluidframework/id-compressor 3.1.0
// (installed by spec/idcompressor/node: npm ci there), and beside it in the
// same process our WebAssembly package (IDC_WASM=DIR, built by
// wasm/build.sh DIR), on the cases of wasm/test/speed.mjs (those of
// bench_idc.c and bench_idc.lua, a few more of the package's calls, and a
// document's life: 10 sessions exchanging ranges while 1M IDs are made and
// normalized at every client).  Case by case, the two take turns run by
// run; the last lines give each case's ratio (reference time / ours).
// The same cases run in headless Chromium: wasm/test/browser/run.mjs.
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { bench } from "../wasm/test/speed.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const req = createRequire(path.join(root, "spec/idcompressor/node/package.json"));
const impls = [["reference", await import(pathToFileURL(req.resolve("@fluidframework/id-compressor")).href)]];
if (process.env.IDC_WASM)
  impls.push(["wasm", await import(pathToFileURL(path.join(path.resolve(process.env.IDC_WASM), "index.js")).href)]);

const quick = process.argv.includes("--quick");
console.log(`@fluidframework/id-compressor 3.1.0 against ours (node ${process.version}; best of 5 runs, median in brackets)`);
const only = process.argv.find((a) => a.startsWith("--only="));
bench(impls, { quick, now: () => performance.now(), only: only && new RegExp(only.slice(7)) });
