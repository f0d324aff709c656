// worker.js: a helper of the page, which counts the verdicts of its share
// of a long input on another core (count.js), as the page counts its own.
// web/build.mjs bundles it with the package (without the WebAssembly: the
// page posts its compiled module) into the page as text, which the page
// starts as a worker from a blob: URL (a file:// page may start no other).
// Messages: { module } first, then { job, text, as }, each answered by {
// job, n, counts } or { job, error }.
import * as idscheme from "idscheme";
import { countLines } from "./count.js";

onmessage = ({ data }) => {
  if (data.module) {
    idscheme.initSync(data.module);
    return;
  }
  try {
    const counts = {};
    const n = countLines(data.text, 0, data.text.length, data.as, counts);
    postMessage({ job: data.job, n, counts });
  } catch (e) {
    postMessage({ job: data.job, error: String(e?.message ?? e) });
  }
};
