# npm_setup.sh BUILDDIR PACKAGE, sourced by fluidapp/run.sh and
# reftests/run.sh: sets $build; fails (never skips) unless our package is
# in BUILDDIR/wasm (wasm/build.sh) and the test's npm packages are in
# $here/node_modules (PACKAGE among them), installed with `npm ci` from
# its package-lock.json when absent.
build=$(cd "$1" && pwd) || exit 1
if [ ! -f "$build/wasm/idcompressor.wasm" ]; then
  echo "run.sh: no package in $build/wasm (ctest's idcompressor_wasm makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
if [ ! -d "$here/node_modules/$2" ] &&
   ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null); then
  echo "run.sh: npm ci failed"; echo "0 passed, 1 failed"; exit 1
fi
