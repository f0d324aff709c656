#!/usr/bin/env bash
# run.sh BUILDDIR: a Fluid application (SharedTree on test-runtime-utils'
# mocks, app.mjs) on the reference and on our package in BUILDDIR/wasm,
# swapped in by npm overrides (run.mjs).  Installs the reference's side
# with `npm ci` (package-lock.json) when node_modules is absent; fails,
# never skips, when it cannot.  Ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../npm_setup.sh" "${1:?usage: run.sh BUILDDIR}" @fluidframework/tree
exec node "$here/run.mjs" "$build/idc-fluidapp" "$build/wasm"
