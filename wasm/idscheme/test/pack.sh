#!/usr/bin/env bash
# pack.sh PKGDIR: the package as a user gets it: `npm pack`, installed
# offline into a fresh project, and used there from ESM, from CommonJS,
# from TypeScript (tsc --strict, Debian's, against the package's own
# declarations through its exports map, both module kinds), and through
# its browser entry point (no node API in it; initSync with the bytes).
# The tarball's size, gzipped as npm makes it, is printed.  Ends "N
# passed, N failed".
set -u
pkg=$(cd "${1:?usage: pack.sh PKGDIR}" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-pack.XXXXXX")
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok () { pass=$((pass + 1)); echo "ok   $1"; }
bad () { fail=$((fail + 1)); echo "FAIL $1"; }
# run WHAT WANT CMD...: the command's output is WANT
run () {
  local what=$1 want=$2 got; shift 2
  got=$("$@" 2>&1)
  if [ "$got" = "$want" ]; then ok "$what"; else bad "$what: got '$got', want '$want'"; fi
}

if (cd "$t" && npm pack "$pkg" >pack.log 2>&1); then ok "npm pack"
else cat "$t/pack.log"; bad "npm pack"; fi
tgz=$(ls "$t"/*.tgz 2>/dev/null | head -1)
files=$(tar -tzf "$tgz" 2>/dev/null | sort | tr '\n' ' ')
want="package/README.md package/browser.js package/idscheme.wasm package/index.cjs package/index.d.cts package/index.d.ts package/index.js package/package.json "
[ "$files" = "$want" ] && ok "the tarball holds the package's eight files" || bad "tarball files: $files"
size=$(stat -c %s "$tgz" 2>/dev/null || echo 0)
echo "  the tarball: $size bytes (gzipped, as npm packs it)"
[ "$size" -gt 0 ] && [ "$size" -lt $((150 * 1024)) ] &&
  ok "the tarball is under 150 KB ($((size / 1024)) KB)" || bad "the tarball is $size bytes"

app=$t/app
mkdir -p "$app" && echo '{"name":"app","private":true,"type":"module"}' >"$app/package.json"
if (cd "$app" && npm install --offline --no-audit --no-fund "$tgz" >install.log 2>&1); then
  ok "npm install --offline of the tarball into a fresh project"
else cat "$app/install.log"; bad "npm install --offline"; fi

cat >"$app/main.mjs" <<'JS'
import { init, inspect, scheme, IdschemeError } from "idscheme";
await init();
const u = scheme("uuidv7"), id = u.generator().next();
const r = inspect("01ARZ3NDEKTSV4RRFFQ69G5FAV");
let e = null;
try { scheme("nope"); } catch (x) { e = x; }
console.log(u.decode(id).encode() === id, r.scheme, r.time.toISOString(), e instanceof IdschemeError && e.message);
JS
run "ESM: import of the installed package, used" \
  "true ulid 2016-07-30T23:54:10.259Z unknown scheme 'nope'" node "$app/main.mjs"

cat >"$app/main.cjs" <<'JS'
const ids = require("idscheme");
const s = ids.scheme("snowflake"), g = s.generator({ worker: 1, shard: 2 });
const f = s.fields(g.next());
g.close();
console.log(typeof ids.init, f.worker, f.shard, ids.inspect("1234567890123456789").verdict,
            ids.schemes().length === ids.list().length);
JS
run "CommonJS: require() of the installed package (index.cjs), used" \
  "function 1 2 ambiguous true" node "$app/main.cjs"

# both entry points of node export the same names
cat >"$app/names.mjs" <<'JS'
import { createRequire } from "node:module";
const esm = await import("idscheme"), cjs = createRequire(import.meta.url)("idscheme");
const a = Object.keys(esm).filter((k) => k !== "default").sort().join(), b = Object.keys(cjs).sort().join();
console.log(a === b ? a : `${a} | ${b}`);
JS
names=$(node "$app/names.mjs" 2>&1)
case $names in
  *IdschemeError*define*inspect*scheme*schemes*) ok "import and require() give the same names: $names" ;;
  *) bad "export names: $names" ;;
esac

# the browser entry point, in node: no node API, loaded with initSync
cat >"$app/browser.mjs" <<'JS'
import fs from "node:fs";
import { createRequire } from "node:module";
import * as b from "idscheme/browser";
const dir = createRequire(import.meta.url).resolve("idscheme/package.json").replace(/package\.json$/, "");
const src = fs.readFileSync(dir + "browser.js", "utf8");
let before = null;
try { b.scheme("ulid"); } catch (e) { before = e.code; }
b.initSync(fs.readFileSync(dir + "idscheme.wasm"));
console.log(/node:|require\(|process\.|\bBuffer\b/.test(src) ? "node API" : "no node API", before,
            b.loaded(), b.scheme("ulid").timeMs("01ARZ3NDEKTSV4RRFFQ69G5FAV"));
JS
run "browser.js: no node API; refuses before init; initSync with the bytes" \
  "no node API EINVAL true 1469922850259" node "$app/browser.mjs"

# TypeScript: an application of each module kind against the package's
# declarations, through its exports map (tsc --strict), then run
cat >"$app/app.ts" <<'TS'
declare const console: { log(...a: unknown[]): void };
import { inspect, scheme, define, IdschemeError, type InspectResult, type Scheme, type FieldValue } from "idscheme";
const s: Scheme = scheme("ulid");
const id: string = s.generator().next();
const f: Record<string, FieldValue> = s.fields(id);
const t: Date | null = s.time(id);
const r: InspectResult = inspect(id);
const mine = define({ name: "tsflake", fields: [{ name: "t", kind: "time", bits: 41 }, { name: "s", kind: "sequence", bits: 22 }] });
const wide: bigint = f.random as bigint;
let code = "";
try { scheme("nope"); } catch (e) { if (e instanceof IdschemeError) code = e.code; }
console.log(r.scheme, typeof wide, t instanceof Date, mine.layout.runs.length, code);
TS
cat >"$app/app.cts" <<'TS'
declare const console: { log(...a: unknown[]): void };
import ids = require("idscheme");
const g = ids.scheme("fluid").generator({ generator: 1 });
const n: number | null = ids.scheme("fluid").timeMs(g.next());
g.close();
console.log(typeof n);
TS
cat >"$app/tsconfig.json" <<'JSON'
{ "compilerOptions": { "strict": true, "target": "es2022", "module": "node16",
    "moduleResolution": "node16", "types": [], "lib": ["es2022"], "outDir": "out" },
  "files": ["app.ts", "app.cts"] }
JSON
if (cd "$app" && tsc -p tsconfig.json >tsc.log 2>&1); then
  ok "tsc --strict: an ESM and a CommonJS application against index.d.ts and index.d.cts"
else cat "$app/tsc.log"; bad "tsc --strict"; fi
# the package's declarations themselves
if (cd "$app" && tsc --noEmit --strict --lib es2022 node_modules/idscheme/index.d.ts >tsc2.log 2>&1); then
  ok "index.d.ts under tsc --strict"
else cat "$app/tsc2.log"; bad "index.d.ts under tsc --strict"; fi
run "the TypeScript application runs (ESM)" "ulid bigint true 2 ENOENT" node "$app/out/app.js"
run "the TypeScript application runs (CommonJS)" "number" node "$app/out/app.cjs"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
