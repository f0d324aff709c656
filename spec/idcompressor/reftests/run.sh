#!/usr/bin/env bash
# run.sh BUILDDIR: the test suite of @fluidframework/id-compressor 3.1.0
# (from its npm tarball's source maps) run against the reference and
# against our package in BUILDDIR/wasm (wasm/build.sh): run.mjs.  Installs
# its npm packages with `npm ci` (package-lock.json) when node_modules is
# absent; fails, never skips, when it cannot.  Ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../npm_setup.sh" "${1:?usage: run.sh BUILDDIR}" mocha
exec node "$here/run.mjs" "$build/idc-reftests" "$build/wasm"
