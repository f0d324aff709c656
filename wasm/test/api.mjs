// api.mjs (node --test): the public API tests (api-cases.mjs) run by
// node's test runner against the reference (@fluidframework/id-compressor
// 3.1.0, spec/idcompressor/node) and against this package (IDC_WASM:
// wasm/build.sh OUTDIR) alike: every test must pass on both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { defineApiTests } from "./api-cases.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const req = createRequire(path.join(root, "spec/idcompressor/node/package.json"));
const impls = {
  reference: await import(pathToFileURL(req.resolve("@fluidframework/id-compressor")).href),
  wasm: await import(pathToFileURL(path.join(process.env.IDC_WASM, "index.js")).href),
};
// Fluid's loggers, from the reference's own dependencies
const TU = await import(pathToFileURL(req.resolve("@fluidframework/telemetry-utils/internal")).href);
defineApiTests({ test, assert, impls, TU });
