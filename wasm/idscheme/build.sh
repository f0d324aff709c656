#!/usr/bin/env bash
# wasm/idscheme/build.sh OUTDIR: the npm package idscheme in OUTDIR: the
# library's C sources (core/ without its entropy pool and slot stores,
# core/codec/, schemes/, inspect/) and glue.c built with Debian's
# emscripten into idscheme.wasm, a standalone module (no emscripten
# JavaScript runtime), beside its entry points, made here from one body
# (idscheme.js) and a loader each:
#   index.js    node, ESM: the module read from beside it at import
#   index.cjs   node, CommonJS: the same, for require()
#   browser.js  everywhere else, ESM, no node API: init() fetches it
# the TypeScript declarations (index.d.ts, and index.d.cts for
# require()), package.json and README.md.  `npm pack OUTDIR` makes the
# tarball.
#
# No libsodium: randomness is the environment's crypto.getRandomValues
# (glue.c's pool), SHA-256 for SIQ's domain names musl's from emscripten's
# sysroot (sha256.c), sodium_init nothing (shim/sodium.h).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: wasm/idscheme/build.sh OUTDIR}
mkdir -p "$out"
# Debian's emcc runs its JS optimizer with node, which finds Debian's acorn
# through NODE_PATH
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
# musl's SHA-256, in the sysroot's libc sources
emroot=$(em-config EMSCRIPTEN_ROOT 2>/dev/null || echo /usr/share/emscripten)
sha=$emroot/system/lib/libc/musl/src/crypt/crypt_sha256.c
if [ ! -f "$sha" ]; then
  echo "build.sh: no $sha (emscripten's musl sources)" >&2; exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-wasm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# glue.c's import, which idscheme.js gives: emcc wants it in a JavaScript
# library, whose code a standalone module does not use
echo 'mergeInto(LibraryManager.library, { js_random: function () {} });' >"$tmp/lib.js"
srcs=$(ls "$root"/core/*.c "$root"/core/codec/*.c "$root"/schemes/*.c \
          "$root"/inspect/*.c | grep -v '/core/entropy\.c$')
# shellcheck disable=SC2086
emcc ${IDS_WASM_OPT:--O3} -DNDEBUG -I"$here/shim" -I"$root/core" \
  -I"$root/inspect" -DIDS_MUSL_SHA256="\"$sha\"" \
  "$here/glue.c" "$here/sha256.c" $srcs \
  -o "$out/idscheme.wasm" --no-entry --js-library "$tmp/lib.js" \
  -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH -sMALLOC=emmalloc \
  -sTOTAL_STACK=65536 -sINITIAL_MEMORY=1048576

# The body, without its whole-line comments (// lines, and /* ... */
# blocks that begin a line) and indentation: the source is
# wasm/idscheme/idscheme.js; it has no multi-line strings, and node
# --check reads each entry point made of it
body() {
  awk '
    incomment { if (index($0, "*/")) incomment = 0; next }
    /^[[:space:]]*\/\*/ { if (!index($0, "*/")) incomment = 1; next }
    /^[[:space:]]*\/\// { next }
    { sub(/^[[:space:]]+/, ""); print }
  ' "$here/idscheme.js"
}
# One list of what the package exports, for every entry point
names="IdschemeError, Scheme, Id, Generator, init, initSync, loaded, version, list, schemes, scheme, define, inspect, verdict"
head="// idscheme $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$here/package.json"): the source is wasm/idscheme/idscheme.js in idscheme"

# node's text helper: Buffer#latin1Slice reads ASCII out faster than
# JavaScript's String.fromCharCode
hooks='function nodeHooks() { const f = Buffer.prototype.latin1Slice; return f ? { asciiAt: (h, p, n) => f.call(h, p, p + n) } : {}; }'
{
  echo "$head (this is its node entry point, ESM)"
  echo 'import { readFileSync } from "node:fs";'
  body
  # read and compiled at import, without a top-level await, so that
  # import and node's require() of ES modules both load it
  echo "$hooks"
  echo 'setup(instantiateSync(readFileSync(new URL("./idscheme.wasm", import.meta.url))), nodeHooks());'
  echo 'async function init() {}'
  echo 'function initSync() {}'
  echo "export { $names };"
} >"$out/index.js"

{
  echo "$head (this is its node entry point, CommonJS)"
  echo '"use strict";'
  echo 'const { readFileSync } = require("node:fs");'
  echo 'const { join } = require("node:path");'
  body
  echo "$hooks"
  echo 'setup(instantiateSync(readFileSync(join(__dirname, "idscheme.wasm"))), nodeHooks());'
  echo 'async function init() {}'
  echo 'function initSync() {}'
  echo "module.exports = { $names };"
} >"$out/index.cjs"

{
  echo "$head (this is its entry point for browsers and the rest, ESM)"
  body
  # init(source?): idscheme.wasm fetched from beside this file (a bundler
  # that knows new URL(..., import.meta.url) copies it), or the bytes, a
  # Response or a compiled module given; initSync(bytes or module) where
  # there is nothing to fetch (a page opened from a file)
  echo 'async function init(source) { if (W === null) { const i = await instantiate(source ?? new URL("./idscheme.wasm", import.meta.url)); setup(i); } }'
  echo 'function initSync(source) { if (W === null) setup(instantiateSync(source)); }'
  echo "export { $names };"
} >"$out/browser.js"

for f in index.js index.cjs browser.js; do node --check "$out/$f"; done
cp "$here/index.d.ts" "$out/index.d.ts"
cp "$here/index.d.ts" "$out/index.d.cts"
cp "$here/package.json" "$here/README.md" "$out/"
