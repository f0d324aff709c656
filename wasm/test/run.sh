#!/usr/bin/env bash
# wasm/test/run.sh BUILDDIR TEST: one test of the WebAssembly package that
# ctest's idc_wasm_build made in BUILDDIR/wasm (wasm/build.sh):
#   vectors    the reference's recorded steps (spec/vectors/idcompressor.json)
#   cross      the differential cross-test against the npm package
#   api        the public-API tests, on the reference and on ours
#   lifecycle  memory freed by dispose and by the collector, flat over cycles
#   pack       npm pack, installed offline in a new project, used there
#   types      index.d.ts under tsc --strict, and an application
#              (test/types/app.ts) type-checked against the package's
#              declarations and against ours; the two packages' types are
#              one another's (test/types/brands.ts)
# The reference comes from spec/idcompressor/node (npm ci from its lock
# file, as the Lua cross-test installs it).  Ends "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR TEST}" && pwd)
export IDC_WASM=$build/wasm
ref=$root/spec/idcompressor/node
if [ ! -f "$IDC_WASM/idcompressor-wasm.cjs" ]; then
  echo "run.sh: no package in $IDC_WASM (ctest's idc_wasm_build makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
case ${2:-} in cross|api|types)
  if [ ! -d "$ref/node_modules/@fluidframework/id-compressor" ] &&
     ! (cd "$ref" && npm ci --no-audit --no-fund >/dev/null); then
    echo "run.sh: npm ci failed"; echo "0 passed, 1 failed"; exit 1
  fi ;;
esac
case ${2:-} in
  vectors) exec node "$here/vectors.mjs" ;;
  lifecycle) exec node --expose-gc "$here/lifecycle.mjs" ;;
  cross) exec node "$ref/cross.mjs" "$build" ${IDC_CROSS_SEEDS:-1 2 3 4 5} ;;
  api)
    out=$(node --test "$here/api.mjs" 2>&1); rc=$?
    grep -E '^not ok|^# (pass|fail)' <<<"$out"
    [ $rc = 0 ] || grep -A12 '^not ok' <<<"$out" | head -60
    p=$(sed -n 's/^# pass //p' <<<"$out"); f=$(sed -n 's/^# fail //p' <<<"$out")
    echo "${p:-0} passed, ${f:-1} failed"
    exit $rc ;;
  pack)
    t=$(mktemp -d "${TMPDIR:-/tmp}/idc-pack.XXXXXX"); trap 'rm -rf "$t"' EXIT
    pass=0 fail=0
    ok () { pass=$((pass + 1)); echo "ok   $1"; }
    bad () { fail=$((fail + 1)); echo "FAIL $1"; }
    if (cd "$t" && npm pack "$IDC_WASM" >pack.log 2>&1); then ok "npm pack"
    else cat "$t/pack.log"; bad "npm pack"; fi
    tgz=$(ls "$t"/*.tgz 2>/dev/null | head -1)
    files=$(tar -tzf "$tgz" 2>/dev/null | sort | tr '\n' ' ')
    [ "$files" = "package/README.md package/idcompressor-wasm.cjs package/index.d.ts package/index.mjs package/package.json " ] &&
      ok "the tarball holds the package's five files" || bad "tarball files: $files"
    mkdir -p "$t/app" && (cd "$t/app" && echo '{"name":"app","private":true,"type":"module"}' >package.json)
    if (cd "$t/app" && npm install --offline --no-audit --no-fund "$tgz" >install.log 2>&1); then
      ok "npm install --offline of the tarball"
    else cat "$t/app/install.log"; bad "npm install --offline"; fi
    cat >"$t/app/main.mjs" <<'JS'
import { createIdCompressor, deserializeIdCompressor, isStableId } from "@idscheme/id-compressor";
const c = createIdCompressor();
const ids = [c.generateCompressedId(), c.generateCompressedId()];
c.finalizeCreationRange(c.takeNextCreationRange());
const d = deserializeIdCompressor(c.serialize(true));
if (!isStableId(d.decompress(d.normalizeToOpSpace(ids[1])))) throw new Error("decompress");
if (Buffer.from(c.serializeToBytes(false)).toString("base64") !== c.serialize(false)) throw new Error("bytes");
c.dispose(); d.dispose();
console.log("used");
JS
    [ "$(cd "$t/app" && node main.mjs 2>&1)" = used ] &&
      ok "node $(node --version) imports the installed package and uses it" || bad "the installed package in use"
    echo "$pass passed, $fail failed"
    [ $fail = 0 ] ;;
  types)
    t=$(mktemp -d "${TMPDIR:-/tmp}/idc-types.XXXXXX"); trap 'rm -rf "$t"' EXIT
    pass=0 fail=0
    ref_types=$ref/node_modules/@fluidframework/id-compressor/lib/index.d.ts
    if (cd "$t" && tsc --noEmit --strict "$IDC_WASM/index.d.ts"); then
      pass=$((pass + 1)); echo "ok   index.d.ts under tsc --strict"
    else fail=$((fail + 1)); echo "FAIL index.d.ts under tsc --strict"; fi
    # the package's own declarations need a newer TypeScript than Debian's
    # to check inside (skipLibCheck); what they declare is used in full
    for idc in "$ref_types" "$IDC_WASM/index.d.ts"; do
      cat >"$t/tsconfig.json" <<JSON
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022",
    "module": "node16", "moduleResolution": "node16", "skipLibCheck": true,
    "types": [], "baseUrl": "/",
    "paths": { "idc": ["$idc"], "ref": ["$ref_types"],
               "ours": ["$IDC_WASM/index.d.ts"] } },
  "files": ["$here/types/app.ts", "$here/types/brands.ts"] }
JSON
      what="app.ts and brands.ts against $( [ "$idc" = "$ref_types" ] && echo "the package's" || echo our) declarations"
      if tsc -p "$t/tsconfig.json"; then pass=$((pass + 1)); echo "ok   $what"
      else fail=$((fail + 1)); echo "FAIL $what"; fi
    done
    echo "$pass passed, $fail failed"
    [ $fail = 0 ] ;;
  *) echo "usage: run.sh BUILDDIR vectors|cross|api|lifecycle|pack|types" >&2; exit 2 ;;
esac
