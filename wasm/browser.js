// browser.js: @idscheme/id-compressor for browsers, and wherever node's
// entry point (index.js) is not the one (the package's "default"
// condition).  It uses no node API: idcompressor.wasm is fetched from
// beside this file (a bundler that knows new URL(..., import.meta.url)
// copies it), compiled while it streams in, and instantiated before the
// module's importers run (a top-level await).
import { imports, setup } from "./idc.js";

const url = new URL("./idcompressor.wasm", import.meta.url);
async function load() {
  if (typeof WebAssembly.instantiateStreaming === "function") {
    try {
      return (await WebAssembly.instantiateStreaming(fetch(url), imports())).instance;
    } catch (e) {
      // served as another MIME type than application/wasm: the bytes
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`@idscheme/id-compressor: ${url}: ${response.status} ${response.statusText}`);
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports())).instance;
}
setup(await load());

export {
  IdCompressor, createIdCompressor, deserializeIdCompressor, serializeIdCompressor,
  toIdCompressorWithCore, isFinalId, createSessionId, generateStableId, isStableId,
  assertIsStableId, assertIsSessionId, wasmHeapInUse,
} from "./idc.js";
