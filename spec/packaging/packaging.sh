#!/usr/bin/env bash
# spec/packaging/packaging.sh: the four ways into other people's builds, as
# a fresh Debian 12 machine (root, offline) takes them.  Builds in temporary
# directories from a copy of the tree; the checkout stays as it was.
#   1 version:  scripts/check-version.sh on the sources
#   2 cmake:    configure with a temporary prefix, build, cmake --install;
#               exports and versions of the installed files; examples/consumer
#               with pkg-config (shared, and static with --static) and with
#               find_package (shared and static); two copies in one process;
#               the slot stores' module: installed beside the library, found
#               by the command, whose NEEDED names none of its libraries
#   3 luarocks: luarocks pack of the versioned rockspec (the release tarball
#               made from the tree), then luarocks build of that source rock
#               for 5.4 and 5.1 from another directory, run as
#               spec/packaging/rockspec.sh runs a rock (luarocks make from the checkout is ctest's
#               rockspec_lua54 and rockspec_luajit)
#   4 debian:   dpkg-buildpackage -us -uc -b, lintian (no error), apt-get
#               install of the packages, then against /usr alone: idscheme new,
#               lua5.4 and luajit require, exports, versions, the consumer,
#               the stores' module as in 2 (and the command alone naming it
#               missing); then purge
# Prints what each check says, the time of each part, and ends
# "N passed, N failed".  SKIP_DEB=1 leaves out part 4.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-pkg.XXXXXX")
debs=(idscheme lua-idscheme libidscheme-dev libidscheme0 postgresql-15-idscheme)
purge () {
  dpkg-query -W "${debs[@]}" >/dev/null 2>&1 &&
    { apt-get purge -y "${debs[@]}" >"$tmp/purge.log" 2>&1 || cat "$tmp/purge.log"; }
}
trap 'purge; rm -rf "$tmp"' EXIT
v=$(sed -n 's/^#define IDS_VERSION *"\([0-9.]*\)".*/\1/p' core/idscheme.h)
jobs=$(nproc)

fails=()
ok () { echo "ok   $1"; passed=$((passed + 1)); }
bad () { echo "FAIL $1"; fails+=("$1"); shift; [ $# -gt 0 ] && printf '     %s\n' "$@"; failed=$((failed + 1)); }
# sub NAME CMD...: a command that ends "N passed, N failed": its counts
# are ours; its output indented (so its last line is not ours)
sub () {
  local name=$1 out line; shift
  out=$("$@" 2>&1); local rc=$?
  sed 's/^/  /' <<<"$out"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -1)
  if [ -n "$line" ]; then
    passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
    failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
    [ "$(cut -d' ' -f3 <<<"$line")" = 0 ] || fails+=("$name")
    [ $rc -ne 0 ] && [ "$(cut -d' ' -f3 <<<"$line")" = 0 ] && bad "$name: exit $rc"
  elif [ $rc -eq 0 ]; then ok "$name"
  else bad "$name: exit $rc"; fi
}
# run NAME LOG CMD...: one check; the log shown on failure
run () {
  local name=$1 log=$2; shift 2
  if "$@" >"$log" 2>&1; then ok "$name"; else tail -30 "$log"; bad "$name"; fi
}
part () { echo "=== $1"; SECONDS=0; }
took () { echo "--- $1: ${SECONDS} s"; }

# the tree as committed or not, without build output (git's own ignores)
git ls-files -co --exclude-standard >"$tmp/files"
copy () { mkdir -p "$1" && tar -cf - -T "$tmp/files" | tar -xf - -C "$1"; }

# consumer PREFIX LIBDIR NAME: examples/consumer built four ways and run
consumer () {
  local prefix=$1 libdir=$2 name=$3 c="$tmp/consumer-$3" libs
  mkdir -p "$c"
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  run "$name: consumer with pkg-config (shared)" "$c/pc.log" \
    bash -c "cc -o '$c/pc' examples/consumer/main.c \$(pkg-config --cflags --libs idscheme) &&
             export LD_LIBRARY_PATH='$libdir' && '$c/pc' &&
             ldd '$c/pc' | grep -q 'libidscheme.so.${v%%.*} => $libdir/'"
  libs=$(pkg-config --static --libs idscheme)
  run "$name: consumer with pkg-config --static" "$c/pcs.log" \
    bash -c "cc -o '$c/pcs' examples/consumer/main.c \$(pkg-config --cflags idscheme) ${libs/-lidscheme/-l:libidscheme.a} &&
             '$c/pcs' && ! readelf -d '$c/pcs' | grep -q 'NEEDED.*libidscheme'"
  unset PKG_CONFIG_PATH
  for kind in shared static; do
    run "$name: consumer with find_package(idscheme 0.3) ($kind)" "$c/cm-$kind.log" \
      bash -c "cmake -S examples/consumer -B '$c/cm-$kind' -DCMAKE_PREFIX_PATH='$prefix' \
                 -DIDS_STATIC=$([ $kind = static ] && echo ON || echo OFF) &&
               cmake --build '$c/cm-$kind' && LD_LIBRARY_PATH='$libdir' '$c/cm-$kind/consumer'"
  done
  grep -h '^ƒ' "$c"/*.log | head -1 | sed 's/^/     prints: /'
}

# twocopies PREFIX LIBDIR NAME: libidscheme.so and a module in one process,
# from C (Lua 5.4 embedded) and from LuaJIT (the library through the FFI)
twocopies () {
  local prefix=$1 libdir=$2 name=$3 d="$tmp/two-$3"
  local path="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua"
  mkdir -p "$d"
  if cc -o "$d/two" spec/packaging/two_copies.c -I"$prefix/include/idscheme" \
        $(pkg-config --cflags lua5.4) -L"$libdir" -lidscheme -llua5.4 2>"$d/cc.log"; then
    sub "$name: two copies, from C" env LD_LIBRARY_PATH="$libdir" \
      LUA_CPATH="$libdir/lua/5.4/?.so" LUA_PATH="$path" "$d/two"
  else cat "$d/cc.log"; bad "$name: two_copies.c builds"; fi
  run "$name: two copies, from LuaJIT" "$d/jit.log" env \
    LUA_CPATH="$libdir/lua/5.1/?.so" LUA_PATH="${path//5.4/5.1}" \
    LIB="$libdir/libidscheme.so.${v%%.*}" luajit -e '
      local ffi = require "ffi"
      local i = require "idscheme"
      ffi.cdef [[ int ids_init (void); const char *ids_version (void);
                  const void *ids_scheme_find (const char *name); ]]
      local lib = ffi.load(os.getenv "LIB")
      assert(lib.ids_init() == 0)
      assert(ffi.string(lib.ids_version()) == i._VERSION)
      assert(#i.scheme("ulid"):generator():next_string() == 26)
      i.define{ name = "twocopies", encodings = { "hex" }, fields = {
        { name = "t", bits = 48, kind = "time" },
        { name = "r", bits = 16, kind = "random" } } }
      assert(lib.ids_scheme_find("twocopies") == nil,
             "the module'"'"'s defined scheme leaked into the library")
      assert(lib.ids_scheme_find("fluid") ~= nil)
      assert(i.scheme("fluid"):decode("ƒuZZybuNNy"):encode("dec") == "6731191091817518")'
}

# stores PREFIX LIBDIR NAME: the command and the library link none of the
# slot stores' libraries, the stores' module beside the library exports
# its table alone, and the installed command finds it with no help: a
# redis and an etcd claim on a closed port fail connecting, not loading
stores () {
  local prefix=$1 libdir=$2 name=$3 f needed out
  for f in "$prefix/bin/idscheme" "$libdir/libidscheme.so.${v%%.*}"; do
    needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    if grep -qE 'lib(hiredis|curl|ssl|crypto|cjson)\.so' <<<"$needed"; then
      bad "$name: $(basename "$f") links a store's library" "NEEDED: $needed"
    else ok "$name: $(basename "$f") needs $needed"; fi
  done
  sub "$name: the stores' module" bash scripts/check-house.sh --exports "$libdir/idscheme/stores.so"
  for url in redis://127.0.0.1:1/x etcd://127.0.0.1:1/x; do
    out=$(cd / && env -u IDSCHEME_STORES_MODULE "$prefix/bin/idscheme" new fluid -p slots=$url 2>&1)
    if grep -q 'onnect' <<<"$out" && ! grep -q 'stores\.so' <<<"$out"; then
      ok "$name: the command finds the stores' module for ${url%%:*}"
    else bad "$name: the command finds the stores' module for ${url%%:*}" "$out"; fi
  done
}

# pg_package DIR: a throwaway server of the system's PostgreSQL 15 (as
# postgres, a free port on 127.0.0.1, data and socket in DIR) loads the
# packaged extension and makes keys with it; stopped by its pid
pg_package () {
  local dir=$1 bin=/usr/lib/postgresql/15/bin port pid rc=0
  mkdir -p "$dir/slots" && chmod 1777 "$dir/slots" && chown postgres: "$dir" &&
    chmod o+x "$tmp" "$tmp/deb" &&           # the way down, for postgres
    runuser -u postgres -- "$bin/initdb" -D "$dir/data" -A trust --no-sync >/dev/null || return 1
  port=$((20000 + RANDOM % 30000))
  runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c idscheme.slots=local:$dir/slots" \
    >/dev/null || { cat "$dir/log"; return 1; }
  pid=$(head -1 "$dir/data/postmaster.pid")
  "$bin/psql" -X -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres -c \
    "CREATE EXTENSION idscheme;
     SELECT count(DISTINCT idscheme_next_bigint('snowflake')) FROM generate_series(1, 1000);
     SELECT idscheme_time('discord', '175928847299117063')" || rc=1
  kill -INT "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  return $rc
}

start=$(date +%s)
# 1 -------------------------------------------------------------------
part "version"
sub "version check (sources)" bash scripts/check-version.sh
took "version"

# 2 -------------------------------------------------------------------
part "cmake --install"
prefix="$tmp/prefix"
b="$tmp/cmake"
if cmake -S . -B "$b" -DCMAKE_INSTALL_PREFIX="$prefix" >"$b.log" 2>&1 &&
   cmake --build "$b" -j"$jobs" >>"$b.log" 2>&1 && cmake --install "$b" >>"$b.log" 2>&1; then
  ok "cmake build and install into $prefix"
  # a plain build is the library, the modules and the command alone
  extra=$(cd "$b" && find . -maxdepth 2 -type f -perm -u+x \
            \( -name 'test_*' -o -name 'bench_*' -o -name 'example_plugin' \) | head -3)
  [ -z "$extra" ] && ok "a plain build has no tests or benchmarks" ||
    bad "a plain build built tests or benchmarks: $extra"
  libdir=$(dirname "$(find "$prefix" -name 'libidscheme.so' | head -1)")
  for f in include/idscheme/idscheme.h bin/idscheme share/man/man1/idscheme.1 \
           share/lua/5.4/idscheme/resty.lua share/lua/5.1/idscheme/jit.lua \
           share/bash-completion/completions/idscheme share/zsh/site-functions/_idscheme \
           share/idscheme/lua-types/idscheme.lua \
           share/idscheme/lua-types/idscheme/resty.lua; do
    [ -f "$prefix/$f" ] || bad "installed $f"
  done
  # the shipped schemes are C data; examples/ is not installed
  for f in share/lua/5.4/idscheme/schemes share/lua/5.1/idscheme/schemes; do
    [ ! -e "$prefix/$f" ] || bad "installed $f (removed: schemes/shipped.c)"
  done
  sub "exports (installed)" bash scripts/check-house.sh --exports \
    "$libdir/libidscheme.so.${v%%.*}" "$libdir"/lua/5.*/idscheme.so
  sub "versions (installed)" bash scripts/check-version.sh "$prefix"
  consumer "$prefix" "$libdir" cmake
  twocopies "$prefix" "$libdir" cmake
  stores "$prefix" "$libdir" cmake
  # the whole tree moved: the command reads no file of ours, ULID is in C
  mv "$prefix" "$tmp/moved"
  run "cmake: the command, moved elsewhere, makes a ULID" "$tmp/moved.log" \
    bash -c "out=\$(cd / && '$tmp/moved/bin/idscheme' new ulid -n 2) && echo \"\$out\" && [ \$(wc -l <<<\"\$out\") = 2 ]"
else
  tail -30 "$b.log"; bad "cmake build and install"
fi
took "cmake --install"

# 3 -------------------------------------------------------------------
part "luarocks pack"
r="$tmp/rock"
mkdir -p "$r/pack" "$r/elsewhere"
# the release tarball, made from the tree; the rockspec names it beside
# itself, which luarocks pack reads from its own temporary directory: the
# copy packed here names it by its full path
tar -cz -T "$tmp/files" --transform "s,^,idscheme-$v/," -f "$r/pack/idscheme-$v.tar.gz"
sed "s|file://idscheme-$v.tar.gz|file://$r/pack/idscheme-$v.tar.gz|" \
  "rockspec/idscheme-$v-1.rockspec" >"$r/pack/idscheme-$v-1.rockspec"
if (cd "$r/pack" && luarocks pack "idscheme-$v-1.rockspec") >"$r/pack.log" 2>&1 &&
   [ -f "$r/pack/idscheme-$v-1.src.rock" ]; then
  ok "luarocks pack: idscheme-$v-1.src.rock"
  # no checkout around it: the rock alone, in another directory
  mv "$r/pack/idscheme-$v-1.src.rock" "$r/elsewhere/" && rm -rf "$r/pack"
  sub "source rock, Lua 5.4" env TMPDIR="$r/elsewhere" bash spec/packaging/rockspec.sh 5.4 lua5.4 "$r/elsewhere/idscheme-$v-1.src.rock"
  sub "source rock, LuaJIT" env TMPDIR="$r/elsewhere" bash spec/packaging/rockspec.sh 5.1 luajit "$r/elsewhere/idscheme-$v-1.src.rock"
else
  cat "$r/pack.log"; bad "luarocks pack"
fi
took "luarocks pack"

# 4 -------------------------------------------------------------------
if [ -z "${SKIP_DEB:-}" ]; then
  part "Debian packages"
  d="$tmp/deb"
  copy "$d/idscheme"
  if (cd "$d/idscheme" && DEB_BUILD_OPTIONS="parallel=$jobs" dpkg-buildpackage -us -uc -b) \
       >"$d/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b ($(cd "$d" && ls ./*.deb | wc -l) packages)"
    grep -E 'tests passed|tests failed' "$d/build.log" | sed 's/^/     dh_auto_test: /'
    # its temporary files (caches it leaves behind) in ours, which goes
    mkdir -p "$d/lintian.tmp"
    TMPDIR="$d/lintian.tmp" lintian --fail-on error "$d"/*.changes >"$d/lintian.log" 2>&1; rc=$?
    grep -v 'root privileges' "$d/lintian.log" | sed 's/^/     /'
    [ $rc -eq 0 ] && ok "lintian: no error" || bad "lintian: errors"
    purge
    # the command alone: it embeds the binding and reads no Lua file of ours
    if (cd "$d" && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
          ./idscheme_"$v"_*.deb) >"$d/alone.log" 2>&1; then
      run "deb: idscheme alone (no lua-idscheme): new ulid, inspect" "$d/alone-run.log" \
        bash -c "! dpkg-query -W lua-idscheme 2>/dev/null | grep -q . && cd / && idscheme new ulid && idscheme inspect 01ARZ3NDEKTSV4RRFFQ69G5FAV"
      # without libidscheme0 (recommended, not installed here) a Redis
      # lease says where the stores' module should be
      run "deb: idscheme alone: a redis lease names the missing stores' module" "$d/alone-stores.log" \
        bash -c "out=\$(cd / && env -u IDSCHEME_STORES_MODULE idscheme new fluid -p slots=redis://127.0.0.1:1/x 2>&1);
                 echo \"\$out\"; grep -qF 'redis needs /usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/idscheme/stores.so: cannot open' <<<\"\$out\""
    else
      tail -30 "$d/alone.log"; bad "apt-get install of idscheme alone"
    fi
    purge
    if (cd "$d" && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
          ./idscheme_"$v"_*.deb ./lua-idscheme_"$v"_*.deb ./libidscheme-dev_"$v"_*.deb \
          ./libidscheme0_"$v"_*.deb ./postgresql-15-idscheme_"$v"_*.deb) \
          >"$d/install.log" 2>&1; then
      ok "apt-get install of the five packages"
      ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
      run "deb: idscheme new fluid -n 3" "$d/new.log" \
        bash -c "out=\$(cd / && idscheme new fluid -n 3) && echo \"\$out\" && [ \$(wc -l <<<\"\$out\") = 3 ]"
      run "deb: idscheme new ulid (a shipped spec)" "$d/ulid.log" bash -c "cd / && idscheme new ulid"
      # the docs the man page's SEE ALSO names, and the upstream changelog
      run "deb: README, API docs and changelog installed" "$d/docs.log" bash -c \
        "ls /usr/share/doc/idscheme/README.md* /usr/share/doc/libidscheme-dev/API.md* \
            /usr/share/doc/lua-idscheme/API.md* /usr/share/doc/libidscheme0/changelog.gz"
      run "deb: bash completion completes a scheme" "$d/bashcomp.log" bash -c \
        "source /usr/share/bash-completion/completions/idscheme && COMP_WORDS=(idscheme new ul) &&
         COMP_CWORD=2 && _idscheme && [ \"\${COMPREPLY[*]}\" = ulid ] &&
         test -f /usr/share/zsh/vendor-completions/_idscheme"
      run "deb: man page's ENVIRONMENT names IDSCHEME_SLOT_DIR" "$d/man.log" bash -c \
        "zcat /usr/share/man/man1/idscheme.1.gz | grep -q '^.B IDSCHEME_SLOT_DIR'"
      # the interpreters' own paths: nothing of the build or the checkout
      run "deb: lua5.4 -e 'require \"idscheme\"'" "$d/lua54.log" bash -c "cd / && env -u LUA_PATH -u LUA_CPATH \
        lua5.4 -e 'local i = require \"idscheme\"; assert(i.scheme\"ulid\"); print(i.scheme\"fluid\":generator():next_string())'"
      run "deb: luajit -e 'require \"idscheme.resty\"'" "$d/jit.log" bash -c "cd / && env -u LUA_PATH -u LUA_CPATH \
        luajit -e 'local i = require \"idscheme\"; assert(i.scheme\"ksuid\"); require \"idscheme.resty\"; print(i.scheme\"fluid\":generator():next_string())'"
      sub "exports (packages)" bash scripts/check-house.sh --exports \
        "/usr/lib/$ma/libidscheme.so.${v%%.*}" "/usr/lib/$ma"/lua/5.*/idscheme.so
      sub "versions (packages)" bash scripts/check-version.sh /usr
      consumer /usr "/usr/lib/$ma" deb
      twocopies /usr "/usr/lib/$ma" deb
      stores /usr "/usr/lib/$ma" deb
      run "deb: CREATE EXTENSION idscheme on PostgreSQL 15 from /usr" "$d/pg.log" \
        pg_package "$d/pg"
    else
      tail -30 "$d/install.log"; bad "apt-get install of the packages"
    fi
    purge
    if dpkg-query -W "${debs[@]}" 2>/dev/null | grep -q .; then bad "purge" "$(dpkg-query -W "${debs[@]}")"
    else ok "packages purged"; fi
  else
    tail -40 "$d/build.log"; bad "dpkg-buildpackage"
  fi
  took "Debian packages"
fi

echo "--- packaging: $(($(date +%s) - start)) s in all"
[ ${#fails[@]} -eq 0 ] || printf 'failed: %s\n' "${fails[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
