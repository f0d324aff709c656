#!/usr/bin/env bash
# spec/packaging/core_minimal.sh SRCDIR BUILDDIR [CC]: the core with both
# networked slot stores off (issue 23).  Configures SRCDIR into
# BUILDDIR/minimal with IDS_WITH_REDIS=OFF and IDS_WITH_ETCD=OFF, builds the
# libraries alone, checks that libidscheme.so needs none of the stores'
# libraries (nor zlib), runs examples/consumer/main.c and spec/c/minimal.c
# against it, and spec/c/test_slots.c (its parts for a build without the
# stores) against libidscheme.a.
# Ends "N passed, N failed".
set -u
src=$1 out=$2/minimal cc=${3:-cc}
passed=0 failed=0
ok () { echo "ok   $1"; passed=$((passed + 1)); }
bad () { echo "FAIL $1"; shift; [ $# -gt 0 ] && printf '     %s\n' "$@"; failed=$((failed + 1)); }
finish () { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

mkdir -p "$out"
if cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     -DCMAKE_C_COMPILER="$cc" -DIDS_WITH_REDIS=OFF -DIDS_WITH_ETCD=OFF \
     >"$out/configure.log" 2>&1 &&
   cmake --build "$out" -j2 --target idscheme_shared idscheme_static \
     >"$out/build.log" 2>&1
then ok "configured and built with both stores off"
else bad "configure or build" "$(tail -20 "$out/configure.log" "$out/build.log")"; finish
fi
lib=$out/libidscheme.so

# what it links: directly (NEEDED) and at all (ldd)
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
loaded=$(ldd "$lib" | awk '{print $1}' | tr '\n' ' ')
banned='lib(hiredis|curl|cjson|ssl|crypto|z)\.so'
if grep -qE "$banned" <<<"$needed $loaded"; then
  bad "libidscheme.so links a store's library or zlib" "NEEDED: $needed" "ldd: $loaded"
else ok "libidscheme.so needs only: $needed"
fi
if grep -q 'libsodium\.so' <<<"$needed"; then ok "libidscheme.so links libsodium"
else bad "libidscheme.so does not link libsodium" "NEEDED: $needed"; fi

# the pc file names only what this build needs
libs=$(sed -n 's/^Libs.private: //p' "$out/idscheme.pc")
if [ "$libs" = "-lsodium -lpthread -lm" ]; then ok "idscheme.pc Libs.private: $libs"
else bad "idscheme.pc Libs.private" "$libs"; fi

# programs against it
slots=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-minimal.XXXXXX")
trap 'rm -rf "$slots"' EXIT
for prog in examples/consumer/main.c spec/c/minimal.c; do
  name=$(basename "$prog" .c)
  if "$cc" -std=c99 -Wall -Werror -o "$out/$name" "$src/$prog" -I"$src/core" \
       -L"$out" -lidscheme -Wl,-rpath,"$out" 2>"$out/$name.log" &&
     "$out/$name" "$slots" >>"$out/$name.log" 2>&1
  then ok "$prog: $(tail -1 "$out/$name.log")"
  else bad "$prog" "$(cat "$out/$name.log")"; fi
done
# the slot unit test, whose store parts follow IDS_HAVE_* (none here)
if "$cc" -std=gnu11 -Wall -Wextra -Werror -o "$out/test_slots" \
     "$src/spec/c/test_slots.c" -I"$src/core" -L"$out" -l:libidscheme.a \
     -lsodium -lpthread -lm >"$out/test_slots.log" 2>&1 &&
   (cd "$out" && ./test_slots) >>"$out/test_slots.log" 2>&1
then ok "test_slots without the stores: $(tail -1 "$out/test_slots.log")"
else bad "test_slots without the stores" "$(tail -30 "$out/test_slots.log")"; fi
finish
