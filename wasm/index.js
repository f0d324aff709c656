// index.js: @idscheme/id-compressor for node (the package's "node"
// condition): idcompressor.wasm read from beside this file and compiled at
// once, without a top-level await, so that import and require() (node's
// require of ES modules, 20.19 and 22.12 up) both load it; text helpers
// from node's Buffer.  browser.js is the entry point everywhere else.
import { readFileSync } from "node:fs";
import { imports, setup } from "./idc.js";

const bytes = readFileSync(new URL("./idcompressor.wasm", import.meta.url));
const { latin1Slice, utf8Write } = Buffer.prototype;
setup(new WebAssembly.Instance(new WebAssembly.Module(bytes), imports()), {
  // text in and 36 characters out, faster than JavaScript's loops
  putText: utf8Write ? (h, p, s) => utf8Write.call(h, s, p, 3 * s.length) : undefined,
  uuidAt: latin1Slice ? (h, p) => latin1Slice.call(h, p, p + 36) : undefined,
  b64Encode: (h, p, n) => Buffer.from(h.buffer, p, n).toString("base64"),
  b64Length: (s) => Buffer.byteLength(s, "base64"),
  b64Decode: (s, h, p, max) => Buffer.from(h.buffer).write(s, p, max, "base64"),
});

export {
  IdCompressor, createIdCompressor, deserializeIdCompressor, serializeIdCompressor,
  toIdCompressorWithCore, isFinalId, createSessionId, generateStableId, isStableId,
  assertIsStableId, assertIsSessionId, wasmHeapInUse,
} from "./idc.js";
