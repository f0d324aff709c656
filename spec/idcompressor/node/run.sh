#!/usr/bin/env bash
# run.sh BUILDDIR: the id-compressor cross-test against the real npm
# package (@fluidframework/id-compressor 3.1.0, pinned by package-lock.json).
# Installs it with `npm ci` when node_modules is absent, then runs
# cross.mjs on several seeds.  Fails (never skips) when node or npm is
# missing: the test is only worth anything when it runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR}" && pwd)

for tool in node npm "${LUA:-lua5.4}"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "run.sh: $tool is not installed; this test needs it"
    echo "0 passed, 1 failed"
    exit 1
  fi
done
if [ ! -d "$here/node_modules/@fluidframework/id-compressor" ]; then
  if ! (cd "$here" && npm ci --no-audit --no-fund); then
    echo "run.sh: npm ci failed"
    echo "0 passed, 1 failed"
    exit 1
  fi
fi
exec node "$here/cross.mjs" "$build" ${IDC_CROSS_SEEDS:-1 2 3 4 5}
