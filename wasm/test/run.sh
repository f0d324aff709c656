#!/usr/bin/env bash
# wasm/test/run.sh BUILDDIR TEST: one test of the WebAssembly package that
# ctest's idc_wasm_build made in BUILDDIR/wasm (wasm/build.sh):
#   vectors    the reference's recorded steps (spec/vectors/idcompressor.json)
#   cross      the differential cross-test against the npm package
#   api        the public-API tests, on the reference and on ours
#   lifecycle  memory freed by dispose and by the collector, flat over cycles
#   helpers    the package's own text helpers (browsers': base64, UUIDs
#              in) against node's
#   pack       npm pack, installed offline in a new project by its name
#              and by the reference's, used there: import and require() of
#              every subpath, test-utils, the exports map's shape
#   browser    the package in headless Chromium (browser/run.mjs): the
#              API tests and a differential in the page, the benchmark
#              printed, the package bundled by esbuild for the browser
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
if [ ! -f "$IDC_WASM/idcompressor.wasm" ]; then
  echo "run.sh: no package in $IDC_WASM (ctest's idc_wasm_build makes it)"
  echo "0 passed, 1 failed"; exit 1
fi
case ${2:-} in cross|api|types|pack)
  if [ ! -d "$ref/node_modules/@fluidframework/id-compressor" ] &&
     ! (cd "$ref" && npm ci --no-audit --no-fund >/dev/null); then
    echo "run.sh: npm ci failed"; echo "0 passed, 1 failed"; exit 1
  fi ;;
esac
case ${2:-} in
  vectors) exec node "$here/vectors.mjs" ;;
  lifecycle) exec node --expose-gc "$here/lifecycle.mjs" ;;
  helpers) exec node "$here/helpers.mjs" ;;
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
    want="package/README.md package/browser.js package/idc.js package/idcompressor.wasm package/index.d.ts package/index.js package/legacy.d.ts package/package.json package/public.d.ts package/test-utils.d.ts package/test-utils.js "
    [ "$files" = "$want" ] &&
      ok "the tarball holds the package's eleven files" || bad "tarball files: $files"
    mkdir -p "$t/app" && (cd "$t/app" && echo '{"name":"app","private":true,"type":"module"}' >package.json)
    # our package under its own name, and under the reference's (an alias:
    # what npm overrides do in an application of Fluid's packages)
    if (cd "$t/app" && npm install --offline --no-audit --no-fund "$tgz" \
          "@fluidframework/id-compressor@file:$tgz" >install.log 2>&1); then
      ok "npm install --offline of the tarball, by its name and by the reference's"
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
    # every subpath of the reference's exports map, imported and required,
    # by both names; the same functions whichever way
    cat >"$t/app/subpaths.mjs" <<'JS'
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const fns = ["createIdCompressor", "deserializeIdCompressor", "serializeIdCompressor", "createSessionId"];
let n = 0;
for (const name of ["@idscheme/id-compressor", "@fluidframework/id-compressor"])
  for (const sub of ["", "/legacy", "/internal"]) {
    const esm = await import(name + sub), cjs = require(name + sub);
    for (const f of [...fns, ...(sub === "/legacy" ? [] : ["toIdCompressorWithCore", "isStableId", "isFinalId"])]) {
      if (typeof esm[f] !== "function" || esm[f] !== cjs[f]) throw new Error(`${name}${sub}: ${f}`);
    }
    const c = cjs.createIdCompressor(cjs.createSessionId());
    c.generateCompressedId();
    c.finalizeCreationRange(c.takeNextCreationRange());
    if (c.decompress(0) !== c.localSessionId) throw new Error(`${name}${sub}: decompress`);
    n++;
  }
console.log(n);
JS
    [ "$(cd "$t/app" && node subpaths.mjs 2>&1)" = 6 ] &&
      ok "import and require() of '.', './legacy' and './internal', by both names" ||
      { (cd "$t/app" && node subpaths.mjs 2>&1 | tail -5); bad "subpaths"; }
    cat >"$t/app/main.cjs" <<'JS'
const { createIdCompressor } = require("@fluidframework/id-compressor/internal");
const c = createIdCompressor("0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a");
console.log(c.decompress(c.generateCompressedId()));
JS
    [ "$(cd "$t/app" && node main.cjs 2>&1)" = 0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a ] &&
      ok "a CommonJS file require()s the package" || { (cd "$t/app" && node main.cjs 2>&1 | tail -3); bad "require() from CommonJS"; }
    cat >"$t/app/testutils.mjs" <<'JS'
import { createAlwaysFinalizedIdCompressor, modifyClusterSize } from "@fluidframework/id-compressor/internal/test-utils";
const s = "5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5b";
const c = createAlwaysFinalizedIdCompressor(s);
const ids = [c.generateCompressedId(), c.generateCompressedId(), c.generateCompressedId()];
modifyClusterSize(c, 7);
console.log(ids.join(","), c.decompress(ids[2]), c.nextRequestedClusterSize);
JS
    [ "$(cd "$t/app" && node --conditions=allow-ff-test-exports testutils.mjs 2>&1)" = "0,1,2 5b5b5b5b-5b5b-4b5b-9b5b-5b5b5b5b5b5d 7" ] &&
      ok "./internal/test-utils under the allow-ff-test-exports condition" ||
      { (cd "$t/app" && node --conditions=allow-ff-test-exports testutils.mjs 2>&1 | tail -3); bad "test-utils"; }
    # what a browser loads, gzipped: under 30 KB
    if node -e '
      const fs = require("fs"), zlib = require("zlib"), dir = process.argv[1];
      let raw = 0, gz = 0;
      for (const f of ["browser.js", "idc.js", "idcompressor.wasm"]) {
        const b = fs.readFileSync(dir + "/" + f);
        raw += b.length; gz += zlib.gzipSync(b, { level: 9 }).length;
        console.log(`  ${f.padEnd(18)} ${String(b.length).padStart(6)} bytes, ${String(zlib.gzipSync(b, { level: 9 }).length).padStart(6)} gzipped`);
      }
      console.log(`  ${"in all".padEnd(18)} ${String(raw).padStart(6)} bytes, ${String(gz).padStart(6)} gzipped`);
      process.exit(gz < 30 * 1024 ? 0 : 1);' "$IDC_WASM"; then
      ok "what a browser loads (browser.js, idc.js, idcompressor.wasm) is under 30 KB gzipped"
    else bad "what a browser loads is 30 KB gzipped or more"; fi
    # the exports map's subpaths and conditions are the reference's
    if node -e '
      const [a, b] = process.argv.slice(1).map((f) => require(f).exports);
      const shape = (e) => JSON.stringify(Object.fromEntries(Object.entries(e).map(([k, v]) =>
        [k, Object.keys(v).filter((c) => c !== "node" && c !== "internal-entrypoint-generation")])));
      if (shape(a) !== shape(b)) { console.log(shape(a), shape(b)); process.exit(1); }' \
        "$ref/node_modules/@fluidframework/id-compressor/package.json" "$IDC_WASM/package.json"; then
      ok "the exports map has the reference's subpaths and conditions (and node's beside)"
    else bad "exports map"; fi
    echo "$pass passed, $fail failed"
    [ $fail = 0 ] ;;
  types)
    t=$(mktemp -d "${TMPDIR:-/tmp}/idc-types.XXXXXX"); trap 'rm -rf "$t"' EXIT
    pass=0 fail=0
    ref_types=$ref/node_modules/@fluidframework/id-compressor/lib/index.d.ts
    if (cd "$t" && tsc --noEmit --strict "$IDC_WASM"/*.d.ts); then
      pass=$((pass + 1)); echo "ok   index.d.ts, legacy.d.ts, public.d.ts and test-utils.d.ts under tsc --strict"
    else fail=$((fail + 1)); echo "FAIL the declarations under tsc --strict"; fi
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
  browser)
    if [ ! -x "${IDC_CHROMIUM:-/usr/bin/chromium}" ]; then
      echo "run.sh: no chromium (Debian: apt-get install chromium; scripts/packages)"
      echo "0 passed, 1 failed"; exit 1
    fi
    if [ ! -d "$here/browser/node_modules/puppeteer-core" ] &&
       ! (cd "$here/browser" && npm ci --no-audit --no-fund >/dev/null); then
      echo "run.sh: npm ci failed in wasm/test/browser"; echo "0 passed, 1 failed"; exit 1
    fi
    exec node "$here/browser/run.mjs" "$IDC_WASM" "$build/idc-browser" ;;
  *) echo "usage: run.sh BUILDDIR vectors|cross|api|lifecycle|helpers|pack|types|browser" >&2; exit 2 ;;
esac
