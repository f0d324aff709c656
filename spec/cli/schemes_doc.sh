#!/usr/bin/env bash
# spec/cli/schemes_doc.sh BUILDDIR: docs/SCHEMES.md is what
# scripts/schemes-doc.sh writes from the registry (every shipped scheme,
# none left out, none stale).
root=$(cd "$(dirname "$0")/../.." && pwd)
got=$(bash "$root/scripts/schemes-doc.sh" "${1:?usage: $0 BUILDDIR}") || {
  echo "scripts/schemes-doc.sh failed"; echo "0 passed, 1 failed"; exit 1; }
if diff -u "$root/docs/SCHEMES.md" - <<<"$got"; then
  echo "ok   docs/SCHEMES.md is the registry's"; echo "1 passed, 0 failed"
else
  echo "FAIL docs/SCHEMES.md is stale: bash scripts/schemes-doc.sh BUILDDIR > docs/SCHEMES.md"
  echo "0 passed, 1 failed"; exit 1
fi
