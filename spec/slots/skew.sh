#!/usr/bin/env bash
# spec/slots/skew.sh BUILDDIR [SERVER]: a slot handed over between `idscheme
# new` runs whose clocks disagree by 3 s (libfaketime; the machine's clock
# is never touched): one run ahead, then one with the true clock; one with
# the true clock, then one behind.  Locally, and with SERVER (redis-server)
# through a Redis lease.  Every ID collected: 0 duplicates, and each run
# starts above the one before on the slot (the successor waits out the
# difference; with the local store only that, the run recorded at close
# what it issued).
. "$(dirname "$0")/lib.sh"
cli=$build/idscheme
# sanitizer builds: libfaketime is preloaded ahead of the ASan runtime
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
command -v faketime >/dev/null || { bad "faketime is installed"; finish; }

# run OUT SLOTS [faketime offset]: 300,000 FLUIDs, dec
run () {
  local out=$1 slots=$2 skew=${3:-}
  if [ -n "$skew" ]; then
    faketime -f "$skew" "$cli" new fluid -n 300000 -e dec -p slots="$slots" >"$out"
  else
    "$cli" new fluid -n 300000 -e dec -p slots="$slots" >"$out"
  fi
}
# strictly above, as numbers of up to 20 digits
above () { [ ${#1} -gt ${#2} ] || { [ ${#1} = ${#2} ] && [[ "$1" > "$2" ]]; }; }

handover () {   # handover NAME SLOTS SKEW_FIRST SKEW_SECOND
  local name=$1 slots=$2 a=$tmp/$1.a b=$tmp/$1.b
  run "$a" "$slots" "$3" && run "$b" "$slots" "$4"
  check "$name: both runs made 300,000 IDs" \
    [ "$(cat "$a" "$b" | wc -l)" = 600000 ]
  check "$name: the second starts above the first's last" \
    above "$(head -1 "$b")" "$(tail -1 "$a")"
  check "$name: no duplicate" [ "$(sort "$a" "$b" | uniq -d | wc -l)" = 0 ]
}

handover "local, first 3 s ahead" "local:$tmp/l1" "+3s" ""
handover "local, second 3 s behind" "local:$tmp/l2" "" "-3s"

if [ -n "${2:-}" ]; then
  store=redis server=$2
  free_ports port
  . "$(dirname "$0")/server.sh"
  start_server
  handover "redis, first 3 s ahead" "redis://127.0.0.1:$port/s1" "+3s" ""
  handover "redis, second 3 s behind" "redis://127.0.0.1:$port/s2" "" "-3s"
  stop_server
fi
finish
