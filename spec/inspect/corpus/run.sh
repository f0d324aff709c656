#!/usr/bin/env bash
# run.sh COMMAND [ARGS...]: runs COMMAND with the npm packages of the
# inspect corpus (package.json, pinned exactly by package-lock.json) in
# node_modules beside this script, e.g.
#   spec/inspect/corpus/run.sh node spec/inspect/corpus/theirs.mjs < lines
#   spec/inspect/corpus/run.sh node spec/inspect/corpus/make.mjs
# Installs them with `npm ci` when node_modules is absent or was installed
# from another package-lock.json (a stamp in node_modules records the lock's
# hash).  Fails (never skips) when node or npm is missing or too old: what it
# runs is only worth anything when it runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || { echo "usage: run.sh COMMAND [ARGS...]" >&2; exit 2; }

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "run.sh: $tool is not installed; the inspect corpus needs it" >&2
    exit 1
  fi
done
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  echo "run.sh: node $(node --version) is too old; the pinned packages need Node 20 or later" >&2
  exit 1
fi

stamp="$here/node_modules/.idscheme-lock.sha256"
want=$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  if ! (cd "$here" && npm ci --no-audit --no-fund >&2); then
    echo "run.sh: npm ci failed" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
exec "$@"
