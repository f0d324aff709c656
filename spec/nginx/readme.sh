#!/usr/bin/env bash
# spec/nginx/readme.sh BUILDDIR: the README's "OpenResty in five minutes"
# nginx.conf, served as written by a real nginx (issue 25).  The block
# between <!-- readme:nginx.conf --> and <!-- /readme:nginx.conf --> is
# taken from README.md and only its site-specific parts are replaced: the
# ports (free ones on 127.0.0.1), /var/log/nginx (a temporary prefix) and
# the luarocks tree's paths (this checkout and BUILDDIR's LuaJIT module).
# The slot directory is made as the README says.  Checks: a response and
# a `return 500` both carry X-Request-Id, the application sees the same
# ID, the access log has it, an upstream ID of the scheme is kept and a
# foreign one is not, error.log says which slot each worker holds.
# nginx is always stopped by its pid.
set -u
PATH=$PATH:/usr/sbin
build=$(cd "${1:?usage: readme.sh BUILDDIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
passed=0 failed=0
ok () { passed=$((passed + 1)); }
bad () { failed=$((failed + 1)); echo "FAIL $*"; }
for tool in nginx curl lua5.4; do
  command -v "$tool" >/dev/null || { echo "$tool not installed"; echo "0 passed, 1 failed"; exit 1; }
done

prefix=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-readme.XXXXXX")
mkdir -p "$prefix/logs"
chmod 755 "$prefix"
# Debian's modules-enabled names modules/ under nginx's prefix, which is
# /usr/share/nginx, where modules links to /usr/lib/nginx/modules
ln -s "$(readlink -f /usr/share/nginx/modules 2>/dev/null || echo /usr/lib/nginx/modules)" \
  "$prefix/modules"
stop () {
  local pid
  pid=$(cat "$prefix/logs/nginx.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] || return 0
  kill -QUIT "$pid" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
}
trap 'stop; rm -rf "$prefix"' EXIT

# two free ports
read -r port port2 < <(python3 - <<'PY'
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])
PY
)

sed -n '/^<!-- readme:nginx.conf -->$/,/^<!-- \/readme:nginx.conf -->$/p' "$root/README.md" |
  grep -v -e '^<!--' -e '^```' |
  sed -e "s|listen 8080;|listen 127.0.0.1:$port;|" \
      -e "s|127\.0\.0\.1:8081|127.0.0.1:$port2|g" \
      -e "s|/var/log/nginx/|$prefix/logs/|g" \
      -e "s|/usr/local/share/lua/5\.1/?\.lua|$root/lua/?.lua|" \
      -e "s|/usr/local/lib/lua/5\.1/?\.so|$build/luajit/?.so|" > "$prefix/nginx.conf"
grep -q 'add_header X-Request-Id $request_id_ids always;' "$prefix/nginx.conf" &&
  grep -q "listen 127.0.0.1:$port;" "$prefix/nginx.conf" && ok ||
  { bad "the README's nginx.conf was not found whole"; cat "$prefix/nginx.conf"; }

install -d -m 1777 /tmp/idscheme-slots      # the README's step (as root)
if ! nginx -p "$prefix" -c "$prefix/nginx.conf" -g "pid $prefix/logs/nginx.pid;" \
     2> "$prefix/start.err"; then
  cat "$prefix/start.err" "$prefix/logs/error.log" 2>/dev/null
  echo "$passed passed, $((failed + 1)) failed"; exit 1
fi
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

# get PATH [HEADER]: "status id body" of one request
get () {
  local out hdr=()
  [ -n "${2:-}" ] && hdr=(-H "$2")
  out=$(curl -s -D "$prefix/h" "${hdr[@]}" "http://127.0.0.1:$port$1")
  printf '%s %s %s\n' "$(sed -n '1s/^HTTP\/[0-9.]* \([0-9]*\).*/\1/p' "$prefix/h")" \
    "$(tr -d '\r' < "$prefix/h" | sed -n 's/^X-Request-Id: //Ip')" "$out"
}
valid () {   # TEXT: a FLUID ID in f58_plain, as the module reads it
  ID=$1 LUA_CPATH="$build/lua54/?.so;;" lua5.4 -e \
    'os.exit(require("idscheme").valid(os.getenv("ID"), "fluid", "f58_plain") and 0 or 1)'
}

read -r st1 id1 body1 < <(get /)
[ "$st1" = 200 ] && [ -n "$id1" ] && [ "$body1" = "app saw $id1" ] && valid "$id1" && ok ||
  bad "GET /: status $st1, X-Request-Id '$id1', body '$body1' (the app must see the same FLUID ID)"
read -r st2 id2 _ < <(get /fail)
[ "$st2" = 500 ] && [ -n "$id2" ] && [ "$id2" != "$id1" ] && valid "$id2" && ok ||
  bad "GET /fail: status $st2, X-Request-Id '$id2' (a 500 carries its own ID)"
mine=$(LUA_CPATH="$build/lua54/?.so;;" lua5.4 -e 'print(require("idscheme").new("fluid", "f58_plain"))')
read -r st3 id3 body3 < <(get / "X-Request-Id: $mine")
[ "$st3" = 200 ] && [ "$id3" = "$mine" ] && [ "$body3" = "app saw $mine" ] && ok ||
  bad "an upstream FLUID ID is kept: sent '$mine', got '$id3' ($body3)"
read -r st4 id4 _ < <(get / "X-Request-Id: given-by-someone-else")
[ "$st4" = 200 ] && [ "$id4" != "given-by-someone-else" ] && valid "$id4" && ok ||
  bad "a foreign ID is replaced: got '$id4'"

stop
for pair in "200 $id1" "500 $id2" "200 $mine" "200 $id4"; do
  grep -q " ${pair% *} id=${pair#* }\$" "$prefix/logs/access.log" && ok ||
    bad "access.log lacks '${pair% *} id=${pair#* }'"
done
grep -q 'idscheme: worker [0-9]* holds slot [0-9]* of local (fluid)' "$prefix/logs/error.log" && ok ||
  bad "error.log does not say which slot a worker holds"
if grep -q -E '\[(alert|emerg|crit|error)\]' "$prefix/logs/error.log"; then
  grep -E '\[(alert|emerg|crit|error)\]' "$prefix/logs/error.log" | head -5
  bad "nginx logged errors"
else ok; fi
echo "--- served: $id1 (200), $id2 (500)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
