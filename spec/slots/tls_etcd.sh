#!/usr/bin/env bash
# spec/slots/tls_etcd.sh BUILDDIR ETCD ETCDCTL: an etcd that speaks TLS
# only, wants a client certificate and has auth on (a user "gen" allowed
# under idscheme/, simple tokens that die after 1 s unused).  Claims over
# etcds:// as gen, from the URL or IDSCHEME_ETCD_USER/PASSWORD; Lua
# generators, 6 at once, no duplicate; a lease outlives many tokens; every
# wrong setup (password, no user, CA, client certificate, plain etcd://,
# missing file) fails quoting etcd or curl and never shows the password.
. "$(dirname "$0")/lib.sh"
store=etcd server=$2 etcdctl=$3
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
etcd_tls="--cacert $tmp/ca.pem --cert $tmp/client.pem --key $tmp/client.key"
. "$(dirname "$0")/server.sh"
start_server --cert-file "$tmp/server.pem" --key-file "$tmp/server.key" \
  --trusted-ca-file "$tmp/ca.pem" --client-cert-auth \
  --auth-token simple --auth-token-ttl 1 --bcrypt-cost 4 \
  --logger zap --log-level debug
ctl () { "$etcdctl" --endpoints "https://127.0.0.1:$port" $etcd_tls "$@" >/dev/null; }
{ ctl user add root:rootpw && ctl role add root && ctl user grant-role root root &&
  ctl user add gen:genpw && ctl role add gen &&
  ctl role grant-permission gen --prefix=true readwrite idscheme/ &&
  ctl user grant-role gen gen && ctl user add holder:holdpw &&
  ctl user grant-role holder gen && ctl user add 'odd:q"b\s' &&
  ctl user grant-role odd gen && ctl auth enable; } ||
  { bad "etcdctl turns auth on"; finish; }

q="?ca=$tmp/ca.pem&cert=$tmp/client.pem&key=$tmp/client.key"
addr=127.0.0.1:$port
check_claim "claim over TLS as gen (URL credentials, ca, cert, key)" \
  "etcds://gen:genpw@$addr$q"
IDSCHEME_ETCD_USER=gen IDSCHEME_ETCD_PASSWORD=genpw \
  check_claim "claim as gen from the environment (key in the cert file)" \
  "etcds://$addr?ca=$tmp/ca.pem&cert=$tmp/both.pem"
IDSCHEME_ETCD_USER=odd IDSCHEME_ETCD_PASSWORD='q"b\s' \
  check_claim "a password with a quote and a backslash" "etcds://$addr$q"
check_refused "a prefix gen may not write: etcd's refusal quoted" \
  "HTTP 403: etcdserver: permission denied as gen" \
  "etcds://gen:genpw@$addr/elsewhere$q"
check_refused "a wrong password: etcd's refusal quoted, naming the user" \
  "login as gen refused: etcdserver: authentication failed, invalid user ID or password" \
  "etcds://gen:wrong-secret@$addr$q"
check "the message shows no password" \
  eval '! grep -q "wrong-secret" <<<"$out" && grep -q "gen:\*\*\*@" <<<"$out"'
check_refused "no credentials with auth on: refused, saying how to give them" \
  "user name is empty (auth is on: user:password@ or IDSCHEME_ETCD_USER" \
  "etcds://$addr$q"
IDSCHEME_ETCD_PASSWORD=genpw \
  check_refused "a password without a user: refused at open" \
  "a password without a user" "etcds://$addr$q"
check_refused "the wrong CA: the certificate problem named" \
  "SSL certificate problem: unable to get local issuer certificate" \
  "etcds://gen:genpw@$addr?ca=$tmp/other.pem&cert=$tmp/client.pem&key=$tmp/client.key"
# TLS 1.3: etcd refuses it after the handshake (curl sees a reset or an
# alert, whichever comes first)
check_refused "no client certificate: refused by etcd's TLS, a hint given" \
  "dropped after the TLS handshake (client certificate missing" \
  "etcds://gen:genpw@$addr?ca=$tmp/ca.pem"
check_refused "a client certificate with a CommonName: etcd's gateway refuses it" \
  "refused: CommonName of client sending a request against gateway" \
  "etcds://gen:genpw@$addr?ca=$tmp/ca.pem&cert=$tmp/named.pem&key=$tmp/named.key"
timed claim "etcd://gen:genpw@$addr" 1000
check "plain etcd:// to the TLS port fails within 1 s + 1.5 s ($ms ms)" \
  eval '[ $rc = 2 ] && [ $ms -lt 2500 ] && grep -q "slot store \"etcd://gen:\*\*\*@$addr\"" <<<"$out"'
check_refused "a missing CA file: refused at open, naming it" \
  "cannot read ca=$tmp/no-such-ca.pem: No such file" \
  "etcds://gen:genpw@$addr?ca=$tmp/no-such-ca.pem"

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
url="etcds://gen:genpw@$addr$q"
lua_run "$tmp/gen.lua" "$url" 3000 "$tmp/one.txt" 1 2>>"$tmp/driver.err"; rc=$?
check "a Lua generator makes an ID over TLS as gen" \
  eval '[ $rc = 0 ] && [ "$(grep -vc "^slot " "$tmp/one.txt")" = 1 ]'
check "its lease shows the store without the password" \
  eval 'grep -qF "etcds://gen:***@$addr?ca=" "$tmp/one.txt" && ! grep -q genpw "$tmp/one.txt"'

# the holder: a 9 s TTL renews every 3 s, each time with a dead token
# (the first IDs of a namespace would wait one TTL: it makes none)
lua_run "$tmp/gen.lua" "etcds://holder:holdpw@$addr$q" 9000 "$tmp/hold.txt" 0 8 \
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
# renewals go on past dead tokens and the slot is never lost; a renewal
# that a loaded machine made late (a failure, then a retry) is no fault of
# the logins, so failures are said, not counted against it
check "a lease held 8 s past 1 s tokens renewed ${renewed:-0} times (${failures:-?} failed), never lost" \
  eval '[ "${renewed:-0}" -ge 2 ] && [ "$losses" = 0 ]'
logins=$(grep "authenticated a user" "$srv_log" | grep -c '"holder"')
check "its renewals logged in again ($logins logins)" [ "$logins" -ge 3 ]

stop_server
finish
