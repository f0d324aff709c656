#!/usr/bin/env bash
# idc.sh BUILDDIR [--quick]: the id-compressor side by side -- ours in C
# (bench_idc), ours from Lua 5.4 (bench_idc.lua) and the reference npm
# package in node (bench_idc_node.mjs, installed by `npm ci` in
# spec/idcompressor/node when absent).  Same document, same cases.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: idc.sh BUILDDIR [--quick]}" && pwd)
shift
if [ ! -d "$here/../spec/idcompressor/node/node_modules/@fluidframework/id-compressor" ]; then
  (cd "$here/../spec/idcompressor/node" && npm ci --no-audit --no-fund)
fi
"$build/bench/bench_idc" "$@"
echo
"${LUA:-lua5.4}" "$here/bench_idc.lua" "$build" "$@"
echo
node "$here/bench_idc_node.mjs" "$@"
