// web/build.mjs BUILDDIR: the "What is this ID?" page as one file,
// BUILDDIR/web/index.html, from web/index.html, style.css and app.js and
// the idscheme package in BUILDDIR/wasm-idscheme (cmake's target web_page
// runs it when IDS_WASM is on).
//
// One self-contained HTML file, because the page must work from a file://
// URL: Chromium gives a file:// page an opaque origin and refuses it both
// a module script by src and a fetch of the .wasm beside it.  So esbuild
// (Debian's; IDS_ESBUILD=PATH for another) bundles app.js with the
// package into one minified ES module, with the WebAssembly inside it as
// base64 (decoded in the page and handed to init), and the module and the
// style go into the HTML inline.  The page then makes no request at all;
// the same file serves from any static host.
//
// The page's Content-Security-Policy names that script and that style by
// their SHA-256 and allows nothing else: no connection, no image but
// data:, no frame, no form sent anywhere ('wasm-unsafe-eval' lets the
// script compile WebAssembly).  A page that tried to send what is pasted
// would be refused by the browser itself.
//
// Prints the page's size, raw and gzipped (gzip -9, as a static host
// serves it); the build fails at 200 KB gzipped or more.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const build = path.resolve(process.argv[2] ?? "build");
const pkg = path.join(build, "wasm-idscheme");
const out = path.join(build, "web");
const esbuild = process.env.IDS_ESBUILD ?? "esbuild";
const LIMIT = 200 * 1024;

const fail = (msg) => { console.error(`web/build.mjs: ${msg}`); process.exit(1); };
if (!fs.existsSync(path.join(pkg, "package.json"))) fail(`no package in ${pkg} (the idscheme_wasm target makes it)`);
fs.mkdirSync(out, { recursive: true });

// esbuild finds "idscheme" through NODE_PATH: a folder of our own holding
// a link to the built package, resolved through its exports map under the
// "browser" condition, as a bundler of an application does
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-web-"));
try {
  fs.symlinkSync(pkg, path.join(tmp, "idscheme"));
  const run = (args) => execFileSync(esbuild, args, {
    env: { ...process.env, NODE_PATH: tmp }, stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20,
  }).toString();
  // the page's helpers (worker.js) bundled with the package but not its
  // WebAssembly (the page posts them its compiled module), as the text of
  // a module the page's bundle imports: a file:// page may start a worker
  // from a blob: URL alone
  const worker = run([path.join(here, "worker.js"), "--bundle", "--format=iife", "--platform=browser",
                      "--minify", "--target=es2022", "--legal-comments=none", "--charset=utf8",
                      "--log-level=warning"]);
  fs.mkdirSync(path.join(tmp, "idscheme-page-worker"));
  fs.writeFileSync(path.join(tmp, "idscheme-page-worker", "index.js"), `export default ${JSON.stringify(worker)};\n`);
  const script = run([path.join(here, "app.js"), "--bundle", "--format=esm", "--platform=browser",
                      "--minify", "--target=es2022", "--legal-comments=none", "--charset=utf8",
                      "--loader:.wasm=binary", "--log-level=warning"]);
  const style = run([path.join(here, "style.css"), "--minify", "--log-level=warning"]);

  // inline, the script and the style must not end their element early
  if (/<\/script|<!--/i.test(script)) fail("the bundle holds </script or <!--: it cannot be inlined");
  if (/<\/style/i.test(style)) fail("the style holds </style");
  const sha = (s) => `'sha256-${crypto.createHash("sha256").update(s, "utf8").digest("base64")}'`;
  const csp = [
    "default-src 'none'", `script-src ${sha(script)} 'wasm-unsafe-eval'`, `style-src ${sha(style)}`,
    "img-src data:", "connect-src 'none'", "form-action 'none'", "base-uri 'none'",
    // the helpers, started from their text: they inherit this policy
    "worker-src blob:",
  ].join("; ");

  let html = fs.readFileSync(path.join(here, "index.html"), "utf8");
  const swap = (re, what) => {
    if (!re.test(html)) fail(`web/index.html has no ${re}`);
    html = html.replace(re, () => what);
  };
  swap(/<link rel="stylesheet" href="style.css">/, `<style>${style}</style>`);
  swap(/<script type="module" src="app.js"><\/script>/, `<script type="module">${script}</script>`);
  swap(/@CSP@/, csp);
  // the template's own comments are for its readers, not the page's
  html = html.replace(/<!--[\s\S]*?-->\n?/g, "");
  fs.writeFileSync(path.join(out, "index.html"), html);

  const gz = zlib.gzipSync(html, { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`web: ${path.join(out, "index.html")}: ${kb(html.length)}, ${kb(gz)} gzipped ` +
              `(script ${kb(script.length)}, of which the helpers' ${kb(worker.length)}; style ${kb(style.length)})`);
  if (gz >= LIMIT) fail(`the page is ${kb(gz)} gzipped: the limit is ${kb(LIMIT)}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
