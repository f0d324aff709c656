#!/usr/bin/env bash
# spec/slots/tls_etcd.sh BUILDDIR ETCD ETCDCTL: an etcd that speaks TLS
# only, wants a client certificate and has auth on (a user "gen" allowed
# under idscheme/, simple tokens that die after 1 s unused).  Claims over
# etcds:// as gen, from the URL or IDSCHEME_ETCD_USER/PASSWORD; Lua
# generators, 6 at once, no duplicate; a lease outlives many tokens; every
# wrong setup (password, no user, CA, client certificate, plain etcd://,
# missing file) fails quoting etcd or curl and never shows the password.
. "$(dirname "$0")/lib.sh"
etcd=$2 etcdctl=$3
free_ports port peer

# a CA, etcd's certificate (127.0.0.1 and localhost), client certificates
# and an unrelated CA.  The client's has no CommonName: etcd 3.4's gateway
# refuses one that has (checked below).
cert () {   # cert NAME SUBJECT [EXTFILE]: NAME.pem signed by the CA
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$tmp/$1.key" -out "$tmp/$1.csr" -subj "$2" 2>/dev/null &&
  openssl x509 -req -in "$tmp/$1.csr" -CA "$tmp/ca.pem" -CAkey "$tmp/ca.key" \
    -CAcreateserial -days 1 -out "$tmp/$1.pem" ${3:+-extfile "$3"} 2>/dev/null
}
for ca in ca other; do
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$tmp/$ca.key" -out "$tmp/$ca.pem" -days 1 \
    -subj "/CN=idscheme test $ca" 2>/dev/null || { bad "openssl makes a CA"; finish; }
done
echo "subjectAltName=IP:127.0.0.1,DNS:localhost" >"$tmp/server.ext"
echo "extendedKeyUsage=clientAuth" >"$tmp/client.ext"
cert server /CN=localhost "$tmp/server.ext" &&
cert client /O=idscheme-test "$tmp/client.ext" &&
cert named /CN=gen "$tmp/client.ext" || { bad "openssl makes certificates"; finish; }
cat "$tmp/client.pem" "$tmp/client.key" >"$tmp/both.pem"

# --log-level debug: etcd logs each login, which the token check counts
"$etcd" --name default --data-dir "$tmp/data" \
  --listen-client-urls "https://127.0.0.1:$port" \
  --advertise-client-urls "https://127.0.0.1:$port" \
  --listen-peer-urls "http://127.0.0.1:$peer" \
  --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
  --initial-cluster "default=http://127.0.0.1:$peer" \
  --cert-file "$tmp/server.pem" --key-file "$tmp/server.key" \
  --trusted-ca-file "$tmp/ca.pem" --client-cert-auth \
  --auth-token simple --auth-token-ttl 1 --bcrypt-cost 4 \
  --logger zap --log-level debug >"$tmp/server.log" 2>&1 &
srv_pid=$!
tls="--cacert $tmp/ca.pem --cert $tmp/client.pem --key $tmp/client.key"
up () { curl -s -m 1 $tls "https://127.0.0.1:$port/health" | grep -q true; }
wait_for 20 up || { tail -5 "$tmp/server.log"; bad "etcd starts with TLS"; finish; }
ctl () { "$etcdctl" --endpoints "https://127.0.0.1:$port" $tls "$@" >/dev/null; }
{ ctl user add root:rootpw && ctl role add root && ctl user grant-role root root &&
  ctl user add gen:genpw && ctl role add gen &&
  ctl role grant-permission gen --prefix=true readwrite idscheme/ &&
  ctl user grant-role gen gen && ctl user add holder:holdpw &&
  ctl user grant-role holder gen && ctl user add 'odd:q"b\s' &&
  ctl user grant-role odd gen && ctl auth enable; } ||
  { bad "etcdctl turns auth on"; finish; }

q="?ca=$tmp/ca.pem&cert=$tmp/client.pem&key=$tmp/client.key"
store=127.0.0.1:$port
claim () {   # claim URL [timeout_ms]: the driver's stderr (exit status kept)
  local rc
  "$driver" "$1" auth 4 "$tmp/d.log" 300 0 0 "${2:-0}" 2>"$tmp/claim.err"
  rc=$?
  cat "$tmp/claim.err" >>"$tmp/driver.err"
  cat "$tmp/claim.err"
  return $rc
}
out=$(claim "etcds://gen:genpw@$store$q"); rc=$?
check "claim over TLS as gen (URL credentials, ca, cert, key)" [ $rc = 0 ]
out=$(IDSCHEME_ETCD_USER=gen IDSCHEME_ETCD_PASSWORD=genpw claim "etcds://$store?ca=$tmp/ca.pem&cert=$tmp/both.pem"); rc=$?
check "claim as gen from the environment (key in the cert file)" [ $rc = 0 ]
out=$(IDSCHEME_ETCD_USER=odd IDSCHEME_ETCD_PASSWORD='q"b\s' claim "etcds://$store$q"); rc=$?
check "a password with a quote and a backslash" [ $rc = 0 ]
out=$(claim "etcds://gen:genpw@$store/elsewhere$q"); rc=$?
check "a prefix gen may not write: etcd's refusal quoted" \
  eval '[ $rc = 2 ] && grep -q "HTTP 403: etcdserver: permission denied as gen" <<<"$out"'
out=$(claim "etcds://gen:wrong-secret@$store$q"); rc=$?
check "a wrong password: etcd's refusal quoted, naming the user" \
  eval '[ $rc = 2 ] && grep -q "login as gen refused: etcdserver: authentication failed, invalid user ID or password" <<<"$out"'
check "the message shows no password" \
  eval '! grep -q "wrong-secret" <<<"$out" && grep -q "gen:\*\*\*@" <<<"$out"'
out=$(claim "etcds://$store$q"); rc=$?
check "no credentials with auth on: refused, saying how to give them" \
  eval '[ $rc = 2 ] && grep -q "user name is empty (auth is on: user:password@ or IDSCHEME_ETCD_USER" <<<"$out"'
out=$(IDSCHEME_ETCD_PASSWORD=genpw claim "etcds://$store$q"); rc=$?
check "a password without a user: refused at open" \
  eval '[ $rc = 2 ] && grep -q "a password without a user" <<<"$out"'
out=$(claim "etcds://gen:genpw@$store?ca=$tmp/other.pem&cert=$tmp/client.pem&key=$tmp/client.key"); rc=$?
check "the wrong CA: the certificate problem named" \
  eval '[ $rc = 2 ] && grep -q "SSL certificate problem: unable to get local issuer certificate" <<<"$out"'
out=$(claim "etcds://gen:genpw@$store?ca=$tmp/ca.pem"); rc=$?
# TLS 1.3: etcd refuses it after the handshake (curl sees a reset or an
# alert, whichever comes first)
check "no client certificate: refused by etcd's TLS, a hint given" \
  eval '[ $rc = 2 ] && grep -q "dropped after the TLS handshake (client certificate missing" <<<"$out"'
out=$(claim "etcds://gen:genpw@$store?ca=$tmp/ca.pem&cert=$tmp/named.pem&key=$tmp/named.key"); rc=$?
check "a client certificate with a CommonName: etcd's gateway refuses it" \
  eval '[ $rc = 2 ] && grep -q "refused: CommonName of client sending a request against gateway" <<<"$out"'
t0=$(date +%s%N)
out=$(claim "etcd://gen:genpw@$store" 1000); rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "plain etcd:// to the TLS port fails within 1 s + 1.5 s ($ms ms)" \
  eval '[ $rc = 2 ] && [ $ms -lt 2500 ] && grep -q "slot store \"etcd://gen:\*\*\*@$store\"" <<<"$out"'
out=$(claim "etcds://gen:genpw@$store?ca=$tmp/no-such-ca.pem"); rc=$?
check "a missing CA file: refused at open, naming it" \
  eval '[ $rc = 2 ] && grep -q "cannot read ca=$tmp/no-such-ca.pem: No such file" <<<"$out"'

# Lua generators: one shows its store; 6 at once take distinct slots and
# make no duplicate; one holds its lease for 8 s, past many 1 s tokens
export LUA_CPATH="$build/lua54/?.so;;"
cat >"$tmp/gen.lua" <<'LUA'
-- gen.lua URL TTL_MS OUT N [HOLD_S]: "slot S store", N IDs, then after
-- HOLD_S seconds "renewals failures losses valid" of the lease
local url, ttl, out, n, hold = arg[1], tonumber(arg[2]), arg[3],
                               tonumber(arg[4]), tonumber(arg[5] or 0)
local g = require("idscheme").scheme("fluid"):generator{
  slots = url, slot_ttl_ms = ttl, slot_timeout_ms = 2000 }
local f = assert(io.open(out, "w"))
local l = g:lease()
f:write("slot ", l.slot, " ", l.store, "\n")
f:flush()
-- $GO: wait until every generator holds its slot (one that finished
-- first would hand its slot over, rightly, to one that claims late)
local go = os.getenv("GO")
while go and not io.open(go) do os.execute("sleep 0.05") end
for i = 1, n do f:write(g:next_string("dec"), "\n") end
if hold > 0 then
  local r0 = g:lease().renewals
  os.execute("sleep " .. hold)
  l = g:lease()
  f:write("lease ", l.renewals - r0, " ", l.failures, " ", l.losses, " ",
          tostring(l.valid), "\n")
end
f:close()
g:close()
LUA
url="etcds://gen:genpw@$store$q"
lua_run "$tmp/gen.lua" "$url" 3000 "$tmp/one.txt" 1 2>>"$tmp/driver.err"; rc=$?
check "a Lua generator makes an ID over TLS as gen" \
  eval '[ $rc = 0 ] && [ "$(grep -vc "^slot " "$tmp/one.txt")" = 1 ]'
check "its lease shows the store without the password" \
  eval 'grep -qF "etcds://gen:***@$store?ca=" "$tmp/one.txt" && ! grep -q genpw "$tmp/one.txt"'

# the holder: a 9 s TTL renews every 3 s, each time with a dead token
# (the first IDs of a namespace would wait one TTL: it makes none)
lua_run "$tmp/gen.lua" "etcds://holder:holdpw@$store$q" 9000 "$tmp/hold.txt" 0 8 \
  2>>"$tmp/driver.err" &
for i in $(seq 6); do
  GO=$tmp/go lua_run "$tmp/gen.lua" "$url" 3000 "$tmp/g$i.txt" 20000 \
    2>>"$tmp/driver.err" &
done
claimed () { [ "$(cat "$tmp"/g*.txt 2>/dev/null | grep -c '^slot ')" = 6 ]; }
wait_for 60 claimed
touch "$tmp/go"
wait $(jobs -p | grep -v "^$srv_pid\$")
check "6 generators over TLS and auth wrote 120,000 IDs" \
  [ "$(cat "$tmp"/g*.txt | grep -vc '^slot ')" = 120000 ]
check "6 generators: distinct slots" \
  [ "$(cat "$tmp"/g*.txt | awk '/^slot / { print $2 }' | sort -u | wc -l)" = 6 ]
check "6 generators: no duplicate" \
  [ "$(cat "$tmp"/g*.txt | grep -v '^slot ' | sort | uniq -d | wc -l)" = 0 ]
read -r _ renewed failures losses valid < <(grep '^lease ' "$tmp/hold.txt")
check "a lease held 8 s past 1 s tokens renewed ${renewed:-0} times, no failure" \
  eval '[ "${renewed:-0}" -ge 2 ] && [ "$failures" = 0 ] && [ "$losses" = 0 ] && [ "$valid" = true ]'
logins=$(grep "authenticated a user" "$tmp/server.log" | grep -c '"holder"')
check "its renewals logged in again ($logins logins)" [ "$logins" -ge 3 ]

kill -KILL "$srv_pid"; wait "$srv_pid" 2>/dev/null
finish
