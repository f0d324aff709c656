#!/usr/bin/env bash
# web/test/run.sh BUILDDIR: the "What is this ID?" page (BUILDDIR/web,
# cmake's web_page target) in headless Chromium (run.mjs).  Its npm
# packages (puppeteer-core, and the formats' own packages that make the
# IDs it reads) come from web/test/package-lock.json (npm ci, once).
# Ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR}" && pwd)
if [ ! -f "$build/web/index.html" ]; then
  echo "run.sh: no page in $build/web (cmake's web_page target makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
if [ ! -x "${IDS_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "run.sh: no chromium (Debian: apt-get install chromium; scripts/packages)"
  echo "0 passed, 1 failed"; exit 1
fi
# npm ci again when the lock file changed since the last one
if ! cmp -s "$here/package-lock.json" "$here/node_modules/.package-lock.json.ci" 2>/dev/null; then
  if ! (cd "$here" && npm ci --no-audit --no-fund >/dev/null &&
        cp package-lock.json node_modules/.package-lock.json.ci); then
    echo "run.sh: npm ci failed in web/test"; echo "0 passed, 1 failed"; exit 1
  fi
fi
exec node "$here/run.mjs" "$build"
