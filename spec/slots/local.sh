#!/usr/bin/env bash
# spec/slots/local.sh BUILDDIR: the local backend (flock files), end to end
# with slot_driver processes.
. "$(dirname "$0")/lib.sh"

dir=$tmp/slots
url=local:$dir
log=$tmp/local.log

# 16 processes on a 4-bit namespace: all get a slot, all distinct
start_holders 16 "$log" "$url" fluid 4
check "16 holders claimed" wait_for 10 has_claims "$log" 16
check "16 distinct slots" [ "$(distinct_slots "$log")" = 16 ]
check "slot files are 0666" [ "$(stat -c %a "$dir/fluid.00000")" = 666 ]
check "slot directory is 1777" [ "$(stat -c %a "$dir")" = 1777 ]

# the 17th finds every slot taken, and says so naming the store
out=$("$driver" "$url" fluid 4 "$tmp/17.log" 2>&1); rc=$?
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
check "32 holders claimed" wait_for 10 has_claims "$tmp/32.log" 32
check "32 distinct slots" [ "$(distinct_slots "$tmp/32.log")" = 32 ]
check "IDSCHEME_SLOT_DIR used" [ -e "$tmp/envdir/snow.00031" ]
out=$("$driver" local snow 5 "$tmp/33.log" 2>&1); rc=$?
check "33rd claim fails naming the store" \
  eval '[ $rc = 2 ] && grep -q "slot store \"local\": every slot" <<<"$out"'
stop_holders $holders
check "no overlap in the 5-bit run" intervals_ok "$tmp/32.log"

# bad URLs fail before anything happens, quoting the input
out=$("$driver" "local:relative" x 4 "$tmp/bad.log" 2>&1)
check "relative local dir refused" grep -q 'slot store "local:relative": local directory must be absolute' <<<"$out"
out=$("$driver" "lokal" x 4 "$tmp/bad.log" 2>&1)
check "unknown store refused" grep -q 'slot store "lokal"' <<<"$out"

finish
