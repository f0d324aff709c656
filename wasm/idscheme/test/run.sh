#!/usr/bin/env bash
# wasm/idscheme/test/run.sh BUILDDIR TEST: one test of the npm package
# idscheme that wasm/idscheme/build.sh made in BUILDDIR/wasm-idscheme:
#   vectors  spec/vectors through the package, as the C tests read them
#   diff     inspect against the build's `idscheme inspect --json` on a
#            corpus made at test time (corpus.mjs)
#   api      the API: registry, every scheme's IDs, generators, compose,
#            define, inspect, errors
#   pack     npm pack, installed offline in a new project, used there
#            from ESM, CommonJS and TypeScript (tsc --strict), the
#            browser entry point too; the tarball's size
#   browser  the same tests in headless Chromium (browser/run.mjs)
# Each ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR TEST}" && pwd)
export IDSCHEME_PKG=$build/wasm-idscheme IDSCHEME_CLI=$build/idscheme
if [ ! -f "$IDSCHEME_PKG/idscheme.wasm" ]; then
  echo "run.sh: no package in $IDSCHEME_PKG (the idscheme_wasm target makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
case ${2:-} in
  vectors|api) exec node "$here/node.mjs" "$2" ;;
  diff)
    if [ ! -x "$IDSCHEME_CLI" ]; then
      echo "run.sh: no command $IDSCHEME_CLI"; echo "0 passed, 1 failed"; exit 1
    fi
    exec node "$here/node.mjs" diff ;;
  pack) exec bash "$here/pack.sh" "$IDSCHEME_PKG" ;;
  browser)
    if [ ! -x "${IDS_CHROMIUM:-/usr/bin/chromium}" ]; then
      echo "run.sh: no chromium (Debian: apt-get install chromium; scripts/packages)"
      echo "0 passed, 1 failed"; exit 1
    fi
    # puppeteer-core from the id-compressor's browser test (its lock file)
    b=$root/wasm/test/browser
    if [ ! -d "$b/node_modules/puppeteer-core" ] &&
       ! (cd "$b" && npm ci --no-audit --no-fund >/dev/null); then
      echo "run.sh: npm ci failed in wasm/test/browser"; echo "0 passed, 1 failed"; exit 1
    fi
    exec node "$here/browser/run.mjs" "$IDSCHEME_PKG" "$build/idscheme-browser" ;;
  *) echo "usage: run.sh BUILDDIR vectors|diff|api|pack|browser" >&2; exit 2 ;;
esac
