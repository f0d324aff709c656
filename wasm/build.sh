#!/usr/bin/env bash
# wasm/build.sh OUTDIR: the npm package @idscheme/id-compressor in OUTDIR:
# the id-compressor's C sources (idcompressor/, and the two core files it
# needs) built with Debian's emscripten into idcompressor-wasm.cjs (the
# .wasm inlined), beside index.mjs, index.d.ts, package.json and
# README.md.  `npm pack OUTDIR` makes the tarball.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:?usage: wasm/build.sh OUTDIR}
mkdir -p "$out"
# Debian's emcc runs its JS optimizer with node, which finds Debian's acorn
# through NODE_PATH
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
emcc -O3 -I"$root/core" -I"$root/idcompressor" \
  "$here/glue.c" "$root"/idcompressor/*.c "$root/core/error.c" "$root/core/b64.c" \
  -o "$out/idcompressor-wasm.cjs" \
  -sMODULARIZE -sALLOW_MEMORY_GROWTH -sENVIRONMENT=node \
  -sEXPORTED_RUNTIME_METHODS=HEAPU8 -sSINGLE_FILE \
  -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
cp "$here/index.mjs" "$here/index.d.ts" "$here/package.json" "$here/README.md" "$out/"
