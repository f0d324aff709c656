// bundle-page.mjs: our package bundled by esbuild for the browser
// (run.mjs: /bundle/ours.js, with idcompressor.wasm copied beside it), used
import { createIdCompressor, deserializeIdCompressor } from "/bundle/ours.js";
const a = createIdCompressor("0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a");
const ids = [a.generateCompressedId(), a.generateCompressedId()];
a.finalizeCreationRange(a.takeNextCreationRange());
const b = deserializeIdCompressor(a.serialize(false), "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b");
window.__bundled = { ids, uuid: b.decompress(a.normalizeToOpSpace(ids[1])), blob: a.serialize(true) };
