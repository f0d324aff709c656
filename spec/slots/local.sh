#!/usr/bin/env bash
# spec/slots/local.sh BUILDDIR: the local backend (flock files), end to end
# with slot_driver processes.
. "$(dirname "$0")/lib.sh"

dir=$tmp/slots
url=local:$dir
log=$tmp/local.log

# 16 processes on a 4-bit namespace: all get a slot, all distinct
start_holders 16 "$log" "$url" fluid 4
check "16 holders claimed" wait_for 60 has_claims "$log" 16
check "16 distinct slots" [ "$(distinct_slots "$log")" = 16 ]
check "slot files are 0666" [ "$(stat -c %a "$dir/fluid.00000")" = 666 ]
check "slot directory is 1777" [ "$(stat -c %a "$dir")" = 1777 ]

# the 17th finds every slot taken, and says so naming the store
out=$("$driver" "$url" fluid 4 "$tmp/17.log" 100 2>&1); rc=$?
check "17th claim fails" [ $rc = 2 ]
check "17th error names the store and the cause" \
  grep -q "slot store \"$url\": every slot of namespace 'fluid' (16) is taken" <<<"$out"

# a holder killed with SIGKILL: its slot is free at once
victim=$(echo $holders | cut -d' ' -f5)
vslot=$(awk -v p="$victim" '$1 == "C" && $2 == p { print $3; exit }' "$log")
kill -KILL "$victim"; wait "$victim" 2>/dev/null
out=$("$driver" "$url" fluid 4 "$tmp/next.log" 50 2>&1); rc=$?
check "claim after SIGKILL succeeds" [ $rc = 0 ]
check "it gets the killed holder's slot $vslot" \
  [ "$(awk '$1 == "C" { print $3; exit }' "$tmp/next.log")" = "$vslot" ]

# a clean exit frees the slot too (release, not only the kernel); the
# holders of a new namespace issue from one ttl (2 s) after their claims
sleep 2.5
stop_holders $(holders_but "$victim")
check "every holder exited cleanly" [ "$(grep -c '^R ' "$log")" = 15 ]
check "events were issued" issued "$log"
check "no two holders on one slot at once" intervals_ok "$log"

# 5-bit namespace: 32 fit, the 33rd does not; the default directory comes
# from IDSCHEME_SLOT_DIR
export IDSCHEME_SLOT_DIR=$tmp/envdir
start_holders 32 "$tmp/32.log" local snow 5 0 0 0 0 0
check "32 holders claimed" wait_for 60 has_claims "$tmp/32.log" 32
check "32 distinct slots" [ "$(distinct_slots "$tmp/32.log")" = 32 ]
check "IDSCHEME_SLOT_DIR used" [ -e "$tmp/envdir/snow.00031" ]
out=$("$driver" local snow 5 "$tmp/33.log" 100 2>&1); rc=$?
check "33rd claim fails naming the store" \
  eval '[ $rc = 2 ] && grep -q "slot store \"local\": every slot" <<<"$out"'
stop_holders $holders
check "no overlap in the 5-bit run" intervals_ok "$tmp/32.log"

# a group's directory (docs/SLOTS.md, "What a shared directory trusts"):
# root makes it 2770 for group 65534; users of the group share its slots in
# 0660 files, a user outside the group is refused
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  chmod 711 "$tmp"
  mkdir -m 2770 "$tmp/grp" && chgrp 65534 "$tmp/grp"
  mkdir -m 777 "$tmp/glogs"
  as () { local u=$1 g=$2; shift 2; setpriv --reuid="$u" --regid="$g" --clear-groups "$@"; }
  as 65534 65534 "$driver" "local:$tmp/grp" g 4 "$tmp/glogs/a.log" 300 >/dev/null 2>&1; ra=$?
  as 65534 65534 "$driver" "local:$tmp/grp" g 4 "$tmp/glogs/b.log" 300 >/dev/null 2>&1 &
  gb=$!
  "$driver" "local:$tmp/grp" g 4 "$tmp/glogs/r.log" 300 >/dev/null 2>&1; rr=$?
  wait "$gb"; rb=$?
  check "a group member claims in the group's directory" [ $ra = 0 ] && [ $rb = 0 ]
  check "root shares it" [ $rr = 0 ]
  check "its slot files are 0660, the group's" \
    [ "$(stat -c '%a %g' "$tmp/grp/g.00000")" = "660 65534" ]
  out=$(as 65533 65533 "$driver" "local:$tmp/grp" g 4 "$tmp/glogs/c.log" 100 2>&1); rc=$?
  check "a user outside the group is refused" \
    eval '[ $rc = 2 ] && grep -q "Permission denied" <<<"$out"'
  cat "$tmp"/glogs/[abr].log >"$tmp/glogs/all.log"
  check "no two holders of the group's directory on one slot at once" \
    intervals_ok "$tmp/glogs/all.log"
else
  bad "the group directory test needs root and setpriv (util-linux)"
fi

# bad URLs fail before anything happens, quoting the input
out=$("$driver" "local:relative" x 4 "$tmp/bad.log" 2>&1)
check "relative local dir refused" grep -q 'slot store "local:relative": local directory must be absolute' <<<"$out"
out=$("$driver" "lokal" x 4 "$tmp/bad.log" 2>&1)
check "unknown store refused" grep -q 'slot store "lokal"' <<<"$out"

finish
