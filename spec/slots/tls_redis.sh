#!/usr/bin/env bash
# spec/slots/tls_redis.sh BUILDDIR SERVER: Redis over TLS (rediss://).  A CA
# made here signs the server's certificate (IP:127.0.0.1, DNS:localhost)
# and a client's; the server asks for both the client certificate and a
# password.  Claims and Lua generators (6 at once, every ID collected) go
# through; a wrong CA, a certificate for another name, no client
# certificate, plain Redis against TLS and the other way round, a silent
# server and a missing CA file fail, each saying why, none past its
# timeout.
. "$(dirname "$0")/lib.sh"
server=$2

# the PKI, in $tmp: ca (ours), rogue (unrelated), their leaves
key () { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
           -out "$tmp/$1.key" 2>/dev/null; }
ca () {
  key "$1" && openssl req -x509 -new -key "$tmp/$1.key" -subj "/CN=$1" \
    -days 2 -out "$tmp/$1.pem" 2>/dev/null
}
leaf () {   # leaf NAME CA EXTENSIONS
  key "$1" &&
  openssl req -new -key "$tmp/$1.key" -subj "/CN=$1" -out "$tmp/$1.csr" &&
  openssl x509 -req -in "$tmp/$1.csr" -CA "$tmp/$2.pem" -CAkey "$tmp/$2.key" \
    -set_serial "$RANDOM$RANDOM" -days 2 -out "$tmp/$1.pem" \
    -extfile <(echo "$3") 2>/dev/null
}
pki () {
  ca ca && ca rogue &&
  leaf server ca "subjectAltName=IP:127.0.0.1,DNS:localhost" &&
  leaf other ca "subjectAltName=DNS:other.example" &&
  leaf client ca "extendedKeyUsage=clientAuth"
}
check "the test's CA, server and client certificates" pki || finish

pw=tls-pass
# tport: TLS, a certificate for 127.0.0.1 and localhost; oport: TLS, one
# for other.example only; pport: plain
free_ports tport oport pport
redis () {   # redis NAME PLAIN_PORT TLS_PORT CERT
  mkdir -p "$tmp/$1"
  "$server" --port "$2" --tls-port "$3" --bind 127.0.0.1 \
    --tls-cert-file "$tmp/$4.pem" --tls-key-file "$tmp/$4.key" \
    --tls-ca-cert-file "$tmp/ca.pem" --tls-auth-clients yes \
    --requirepass "$pw" --save '' --appendonly no --dir "$tmp/$1" \
    >"$tmp/$1.log" 2>&1 &
}
redis main 0 "$tport" server; main_pid=$!
redis other "$pport" "$oport" other; other_pid=$!
up () { (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null; }
wait_for 20 up "$tport" && wait_for 20 up "$oport" &&
  wait_for 20 up "$pport" ||
  { bad "redis starts with TLS"; cat "$tmp"/main.log "$tmp"/other.log; finish; }

files="ca=$tmp/ca.pem&cert=$tmp/client.pem&key=$tmp/client.key"
url="rediss://:$pw@127.0.0.1:$tport/t?$files"
check_claim "a claim over TLS with the CA, a client certificate and the password" \
  "$url"
check_claim "the same by the name localhost" \
  "rediss://:$pw@localhost:$tport/t?$files"

# Lua generators: one, then 6 at once, every ID collected.  gen.lua URL
# OUT N [GO]: claims, writes "slot N", waits for the file GO if given (so
# that all hold their slots at once), writes N IDs
export LUA_CPATH="$build/lua54/?.so;;"
cat >"$tmp/gen.lua" <<'LUA'
local out, n, go = arg[2], tonumber(arg[3]), arg[4]
local g = require("idscheme").scheme("fluid"):generator{
  slots = arg[1], slot_ttl_ms = 2000, slot_timeout_ms = 2000 }
local f = assert(io.open(out, "w"))
f:write("slot ", (g:slot()), "\n")
f:flush()
while go and not io.open(go) do os.execute("sleep 0.05") end
for _ = 1, n do f:write(g:next_string("dec"), "\n") end
f:write("store ", g:lease().store, "\n")
f:close()
g:close()
LUA
lua_run "$tmp/gen.lua" "$url" "$tmp/one.txt" 1000 2>>"$tmp/driver.err"; rc=$?
check "a Lua generator claims over TLS and makes IDs" \
  eval '[ $rc = 0 ] && [ "$(grep -vc "^[a-z]" "$tmp/one.txt")" = 1000 ]'
check "its lease shows the store without the password" \
  eval 'grep -q "^store rediss://:\*\*\*@127.0.0.1:$tport/t?ca=" "$tmp/one.txt" &&
        ! grep -q "$pw" "$tmp/one.txt"'
for i in $(seq 6); do
  lua_run "$tmp/gen.lua" "$url" "$tmp/g$i.txt" 20000 "$tmp/go" \
    2>>"$tmp/driver.err" &
done
all_hold () { [ "$(cat "$tmp"/g*.txt 2>/dev/null | grep -c '^slot ')" = 6 ]; }
check "6 generators at once hold slots over TLS" wait_for 30 all_hold
touch "$tmp/go"
wait $(jobs -p | grep -vx -e "$main_pid" -e "$other_pid")
ids () { cat "$tmp"/g*.txt | grep -v '^[a-z]'; }
check "6 generators at once over TLS wrote 120,000 IDs" [ "$(ids | wc -l)" = 120000 ]
check "6 generators: distinct slots" \
  [ "$(cat "$tmp"/g*.txt | grep '^slot ' | sort -u | wc -l)" = 6 ]
check "6 generators: no duplicate" [ "$(ids | sort | uniq -d | wc -l)" = 0 ]

# refusals, each naming why
rogue="ca=$tmp/rogue.pem&cert=$tmp/client.pem&key=$tmp/client.key"
check_refused "another CA: the certificate is refused" \
  "TLS handshake failed: certificate verify failed (" \
  "rediss://:$pw@127.0.0.1:$tport/t?$rogue"
check_refused "a certificate for other.example at 127.0.0.1: a host mismatch" \
  "certificate verify failed (IP address mismatch)" \
  "rediss://:$pw@127.0.0.1:$oport/t?$files"
check_refused "a certificate for other.example at localhost: a host mismatch" \
  "certificate verify failed (hostname mismatch)" \
  "rediss://:$pw@localhost:$oport/t?$files"
check_refused "no client certificate: the server's alert quoted" \
  "alert certificate required" "rediss://:$pw@127.0.0.1:$tport/t?ca=$tmp/ca.pem" 1000
timed claim "redis://:$pw@127.0.0.1:$tport/t" 1000
check "plain Redis to the TLS port fails within the timeout (${ms} ms)" \
  [ $rc = 2 -a "$ms" -lt 2500 ]
echo "  $out"
timed claim "rediss://:$pw@127.0.0.1:$pport/t?$files" 1000
check "TLS to a plain Redis port fails within the timeout (${ms} ms)" \
  [ $rc = 2 -a "$ms" -lt 2500 ]
echo "  $out"
kill -STOP "$other_pid"
timed claim "rediss://:$pw@127.0.0.1:$pport/t?$files" 1000
kill -CONT "$other_pid"
check "a silent server: the handshake times out (${ms} ms)" \
  eval '[ $rc = 2 ] && [ "$ms" -lt 2500 ] && grep -q "TLS handshake timed out after 1000 ms" <<<"$out"'
echo "  $out"
check_refused "a missing CA file: refused, naming the file" \
  "cannot load the CA file $tmp/missing-ca.pem: No such file" \
  "rediss://127.0.0.1:$tport/t?ca=$tmp/missing-ca.pem"
mixed="ca=$tmp/ca.pem&cert=$tmp/client.pem&key=$tmp/server.key"
check_refused "a key that is not the certificate's: refused, naming it" \
  "cannot load the private key $tmp/server.key: key values mismatch" \
  "rediss://127.0.0.1:$tport/t?$mixed"

kill -KILL "$main_pid" "$other_pid"; wait "$main_pid" "$other_pid" 2>/dev/null
finish
