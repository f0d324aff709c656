#!/usr/bin/env bash
# spec/cli/cli.sh BUILDDIR: the idscheme command, end to end.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup "${1:-}"

expect "list names built-ins and scripts" 0 "uuidv7" "$ids" list
expect "list has fluid" 0 "fluid" "$ids" list
expect "decode f58" 0 "6731191091817518" "$ids" decode fluid "ƒuZZybuNNy"
expect "decode words" 0 "0017.e9fb.8df1.6c2e" "$ids" decode fluid reform-remote-galileo--heart-package-academy
expect "compose fluid" 0 "ƒuZZybuNNy" "$ids" compose fluid timestamp=401210253 generator=15451 sequence=46
expect "compose siq by domain name" 0 "683c40c080002a86ce19470003" \
  "$ids" compose siq timestamp=114607993683968 shard=42 domain_name=example.com serial=0 qualifier=multi
expect "compose kuid96 by node name" 0 ".5.tXVEf8n4vPN.0" \
  "$ids" compose kuid96 megaseconds=1539 seconds=625275 microseconds=432128 sequence=1 node_name=uid@127.0.0.1
expect "kuid96 interval parameter" 0 "006e1394407d64e627d99092" \
  "$ids" compose kuid96 -p interval=5 -e hex megaseconds=1761 seconds=234567 microseconds=890880 sequence=4242 node_name=uid@127.0.0.1
expect "decode ksuid wide payload" 0 "b5a1cd34b5f99d1154fb6853345c9735" "$ids" decode ksuid 0ujtsYcgvSTl8PAuAdqWYSMnLOv
expect "compose ksuid wide payload" 0 "0ujtsYcgvSTl8PAuAdqWYSMnLOv" \
  "$ids" compose ksuid timestamp=107608047 payload=b5a1cd34b5f99d1154fb6853345c9735
expect "bad text exits 1 naming it" 1 '"flux"' "$ids" decode fluid flux
expect "out-of-range option exits 2" 2 "out of range" "$ids" gen fluid -o generator=16384
expect "unknown scheme exits 2" 2 "unknown scheme 'nope'" "$ids" gen nope
expect "unknown encoding exits 2" 2 "unknown encoding" "$ids" gen fluid -e nope
expect "missing field exits 2" 2 "field 'sequence' missing" "$ids" compose fluid timestamp=1 generator=2

"$ids" gen fluid -n 5000 -o generator=3 -e dec > "$tmp/ids"
if [ "$(sort -u "$tmp/ids" | wc -l)" = 5000 ] && sort -n -c "$tmp/ids" 2>/dev/null; then
  ok
else
  bad "gen: 5000 distinct increasing ids"
fi
expect "generated ids decode" 0 "generator    3" "$ids" decode fluid -e dec $(head -3 "$tmp/ids")

myflake "$tmp/my.lua" dec hex base58
expect "-l defines a scheme" 0 "node         5" \
  "$ids" -l "$tmp/my.lua" decode myflake "$("$ids" -l "$tmp/my.lua" gen myflake -o node=5)"
expect "-l with a broken file exits 2" 2 "my2.lua" bash -c "echo 'error(\"boom\")' > \"$tmp/my2.lua\"; \"$ids\" -l \"$tmp/my2.lua\" list"

cli_finish
