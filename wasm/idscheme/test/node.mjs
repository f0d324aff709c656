// node.mjs CASE: one test case (cases/CASE.mjs) on the package in
// $IDSCHEME_PKG (its node entry point, index.js), with the data it reads
// from the tree; prints failures and "N passed, N failed".
//   vectors  spec/vectors (fluid, flax, snowflake, siq, kuid)
//   api      the API: errors, define, generators, inspect's shape
//   diff     inspect against the command's `idscheme inspect --json`
//            ($IDSCHEME_CLI) on a corpus made here (corpus.mjs)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tally } from "./harness.mjs";
import { vectorFiles, diffData } from "./data.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const pkg = path.resolve(process.env.IDSCHEME_PKG ?? "build/wasm-idscheme");
const name = process.argv[2];
const ids = await import(pathToFileURL(path.join(pkg, "index.js")));
const { default: run } = await import(`./cases/${name}.mjs`);
const t = tally();
const t0 = Date.now();
if (name === "vectors") run(ids, t, vectorFiles(root));
else if (name === "diff") run(ids, t, diffData(ids, process.env.IDSCHEME_CLI));
else run(ids, t);
console.log(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(t.line());
process.exit(t.failed === 0 && t.passed > 0 ? 0 : 1);
