#!/usr/bin/env bash
# wasm/build.sh OUTDIR: the npm package @idscheme/id-compressor in OUTDIR:
# the id-compressor's C sources (idcompressor/) and glue.c
# built with Debian's emscripten into idcompressor.wasm, a standalone
# module (no emscripten JavaScript runtime: idc.js loads it), beside the
# JavaScript (idc.js, index.js for node, browser.js for the rest,
# test-utils.js), the TypeScript declarations, package.json and README.md.
# `npm pack OUTDIR` makes the tarball.
#
# Size: emmalloc, no names, no base64 (the package's JavaScript does it),
# ids_fail formatted by glue.c (musl's printf with floats was a third of
# the module), 64 KB of stack: 37 KB, 16 KB gzipped at -O3.  -Oz makes 27
# KB (13 KB gzipped), but decompress and serialize a third slower
# (IDC_WASM_OPT=-Oz to choose it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:?usage: wasm/build.sh OUTDIR}
mkdir -p "$out"
# Debian's emcc runs its JS optimizer with node, which finds Debian's acorn
# through NODE_PATH
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
# glue.c's imports, which idc.js gives: emcc wants each in a JavaScript
# library, whose code a standalone module does not use
lib=$(mktemp "${TMPDIR:-/tmp}/idc-imports.XXXXXX.js")
trap 'rm -f "$lib"' EXIT
echo 'mergeInto(LibraryManager.library, { js_random: function () {},
  js_ghost: function () {}, js_fmt_g: function () {} });' >"$lib"
emcc ${IDC_WASM_OPT:--O3} -DNDEBUG -I"$root/core" -I"$root/idcompressor" \
  "$here/glue.c" "$root"/idcompressor/*.c \
  -o "$out/idcompressor.wasm" --no-entry --js-library "$lib" \
  -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH -sMALLOC=emmalloc \
  -sTOTAL_STACK=65536 -sINITIAL_MEMORY=262144
for f in index.js browser.js test-utils.js index.d.ts legacy.d.ts \
         public.d.ts test-utils.d.ts package.json README.md; do
  cp "$here/$f" "$out/"
done
# idc.js without its whole-line comments and indentation (11.2 KB gzipped
# becomes 7.9): the package's payload in browsers stays under 30 KB
# gzipped.  The file has no multi-line strings; node checks the result.
{
  echo "// idc.js of @idscheme/id-compressor, its comments stripped: the source is wasm/idc.js in idscheme"
  sed -e '/^[[:space:]]*\/\//d' -e 's/^[[:space:]]*//' "$here/idc.js"
} >"$out/idc.js"
node --check "$out/idc.js"
