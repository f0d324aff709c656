#!/usr/bin/env bash
# run.sh BUILDDIR: the test suite of @fluidframework/id-compressor 3.1.0
# (from its npm tarball's source maps) run against the reference and
# against our package in BUILDDIR/wasm (wasm/build.sh): run.mjs.  Installs
# its npm packages with `npm ci` (package-lock.json) when node_modules is
# absent; fails, never skips, when it cannot.  Ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR}" && pwd)
if [ ! -f "$build/wasm/idcompressor.wasm" ]; then
  echo "run.sh: no package in $build/wasm (ctest's idcompressor_wasm makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
if [ ! -d "$here/node_modules/mocha" ] &&
   ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null); then
  echo "run.sh: npm ci failed"; echo "0 passed, 1 failed"; exit 1
fi
exec node "$here/run.mjs" "$build/idc-reftests" "$build/wasm"
