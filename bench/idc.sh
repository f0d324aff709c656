#!/usr/bin/env bash
# idc.sh BUILDDIR [--quick]: the id-compressor side by side -- ours in C
# (bench_idc), ours from Lua 5.4 and from LuaJIT (bench_idc.lua; LuaJIT's
# generate through the FFI) and the reference npm package in node
# (bench_idc_node.mjs, installed by `npm ci` in spec/idcompressor/node when
# absent), and beside it in the same node process our WebAssembly package
# (BUILDDIR/wasm, when built with -DIDS_WASM=ON).  Same document, same cases.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: idc.sh BUILDDIR [--quick]}" && pwd)
shift
if [ ! -d "$here/../spec/idcompressor/node/node_modules/@fluidframework/id-compressor" ]; then
  (cd "$here/../spec/idcompressor/node" && npm ci --no-audit --no-fund)
fi
"$build/bench/bench_idc" "$@"
echo
lua5.4 "$here/bench_idc.lua" "$build" "$@"
echo
if [ -f "$build/luajit/idscheme.so" ] && command -v luajit >/dev/null; then
  luajit "$here/bench_idc.lua" "$build" "$@"
  echo
fi
# beside the reference, our WebAssembly package when built (-DIDS_WASM=ON)
if [ -f "$build/wasm/idcompressor.wasm" ]; then export IDC_WASM=$build/wasm; fi
node "$here/bench_idc_node.mjs" "$@"
