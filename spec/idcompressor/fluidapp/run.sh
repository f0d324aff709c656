#!/usr/bin/env bash
# run.sh BUILDDIR: a Fluid application (SharedTree on test-runtime-utils'
# mocks, app.mjs) on the reference and on our package in BUILDDIR/wasm,
# swapped in by npm overrides (run.mjs).  Installs the reference's side
# with `npm ci` (package-lock.json) when node_modules is absent; fails,
# never skips, when it cannot.  Ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR}" && pwd)
if [ ! -f "$build/wasm/idcompressor.wasm" ]; then
  echo "run.sh: no package in $build/wasm (ctest's idcompressor_wasm makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
if [ ! -d "$here/node_modules/@fluidframework/tree" ] &&
   ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null); then
  echo "run.sh: npm ci failed"; echo "0 passed, 1 failed"; exit 1
fi
exec node "$here/run.mjs" "$build/idc-fluidapp" "$build/wasm"
