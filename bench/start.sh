#!/usr/bin/env bash
# start.sh BUILDDIR [RUNS] [OTHER_BUILDDIR]: the idscheme command start to
# finish, one ID or one text a process, beside the tools people compare it
# with (issue 40, item 5: within 1.5x of them):
#
#   idscheme new ulid             uuidgen
#   idscheme new uuidv4           uuidgen
#   idscheme inspect UUID         uuidparse UUID          (uuid-runtime)
#
# The commands of a case take turns, A B A B..., RUNS times each (default
# 200) after 5 rounds not counted, each run timed from bash around its
# fork and exec ($EPOCHREALTIME, so bash's fork is in every figure alike);
# a line gives the best and the median ms and the median of the ratios
# pair by pair (a drift of the machine falls on both).  With
# OTHER_BUILDDIR (a build of another commit, or a directory holding its
# idscheme) its command takes its turn too, after ours.
#
# Then what no other load disturbs: the shared objects each command maps
# (ldd) and the instructions of one whole process, loader included
# (perf stat where the machine has the counter, else valgrind's
# callgrind, which runs it some 50 times slower: a few seconds).
set -eu
build=$(cd "${1:?usage: start.sh BUILDDIR [RUNS] [OTHER_BUILDDIR]}" && pwd)
runs=${2:-200}
other=${3:+$(cd "$3" && pwd)}
for t in uuidgen uuidparse; do
  command -v $t >/dev/null || { echo "start.sh: no $t (apt-get install uuid-runtime)" >&2; exit 2; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-bench-start.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
uuid=$(uuidgen -r)
ours=$build/idscheme
theirs=${other:+$other/idscheme}

us () {   # us CMD...: the run's wall time in us, its output thrown away
  local t0=$EPOCHREALTIME t1
  "$@" >/dev/null 2>&1 || true
  t1=$EPOCHREALTIME
  echo $((10#${t1/./} - 10#${t0/./}))
}

# case LABEL 'A' 'B' ['OTHER']: each a command line (split as words)
case_ () {
  local label=$1 a=$2 b=$3 o=${4:-} i
  : >"$tmp/a"; : >"$tmp/b"; : >"$tmp/o"
  for ((i = 0; i < runs + 5; i++)); do
    if ((i < 5)); then $a >/dev/null 2>&1 || true; $b >/dev/null 2>&1 || true
      [ -n "$o" ] && { $o >/dev/null 2>&1 || true; }
      continue; fi
    us $a >>"$tmp/a"
    [ -n "$o" ] && us $o >>"$tmp/o"
    us $b >>"$tmp/b"
  done
  line "$label" "$tmp/a" "$tmp/b" "${a%% *}"
  [ -n "$o" ] && line "$label" "$tmp/o" "$tmp/b" "other"
  line "$label" "$tmp/b" "$tmp/b" "${b%% *}"
}

line () {   # line LABEL FILE BASEFILE WHO
  local m=$(((runs + 1) / 2)) best med ratio who=$4
  best=$(sort -n "$2" | awk 'NR == 1')
  med=$(sort -n "$2" | awk -v m=$m 'NR == m')
  ratio=$(paste "$2" "$3" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }' | sort -n | awk -v m=$m 'NR == m')
  case $who in */idscheme) who=ours ;; esac
  printf "%-14s %-10s best %6.3f ms  median %6.3f ms  ratio %5.2fx\n" \
         "$1" "$who" "$(bc <<<"scale=3; $best / 1000")" \
         "$(bc <<<"scale=3; $med / 1000")" "$ratio"
}

count () {   # count CMD...: instructions of one whole process
  if perf stat -x, -e instructions:u "$@" >/dev/null 2>"$tmp/perf" &&
     awk -F, '$1 ~ /^[0-9]+$/ { n = $1 } END { exit !n }' "$tmp/perf"; then
    awk -F, '$1 ~ /^[0-9]+$/ { print $1 " (perf, user)" }' "$tmp/perf"
  elif command -v valgrind >/dev/null; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
      >/dev/null 2>"$tmp/vg"
    sed -n 's/.*Collected : \([0-9]*\).*/\1 (callgrind)/p' "$tmp/vg"
  else echo "n/a (no perf counter, no valgrind)"; fi
}

echo "# start.sh: $runs runs a command, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); ours: $ours${theirs:+, other: $theirs}; uuid-runtime $(dpkg-query -W -f '${Version}' uuid-runtime 2>/dev/null || echo '?')"
echo "# ratio: the median of A/B pair by pair, B the uuid-runtime tool"
case_ "new ulid" "$ours new ulid" "uuidgen" "${theirs:+$theirs new ulid}"
case_ "new uuidv4" "$ours new uuidv4" "uuidgen" "${theirs:+$theirs new uuidv4}"
case_ "inspect UUID" "$ours inspect $uuid" "uuidparse $uuid" "${theirs:+$theirs inspect $uuid}"

echo "# shared objects (ldd lines) and instructions of one process"
for c in "$ours new ulid" ${theirs:+"$theirs new ulid"} "uuidgen" \
         "$ours inspect $uuid" ${theirs:+"$theirs inspect $uuid"} "uuidparse $uuid"; do
  set -- $c
  printf "%-70s %3s objects  %s\n" "$c" "$(ldd "$(command -v "$1")" | wc -l)" "$(count "$@")"
done
