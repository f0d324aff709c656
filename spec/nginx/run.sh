#!/usr/bin/env bash
# spec/nginx/run.sh BUILDDIR [MODE]: request IDs in a real nginx.
#
# Starts nginx (4 workers, 127.0.0.1, a temporary prefix) with the LuaJIT
# build of the module, drives it with wrk from several connections, sends
# HUP halfway so that old and new workers overlap, then checks every ID
# from the responses and the access log (check.lua).  MODE "resty": FLUID
# through idscheme.resty (local slots per worker); "redis": the same with
# slots leased from a redis-server this script starts on 127.0.0.1;
# "master": a Flax generator created in init_by_lua, before the workers
# fork.  Never leaves nginx or redis running.
set -u
PATH=$PATH:/usr/sbin
build=$(cd "${1:?usage: run.sh BUILDDIR [resty|redis|master]}" && pwd)
mode=${2:-resty}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in nginx wrk luajit lua5.4; do
  command -v "$tool" >/dev/null || { echo "$tool not installed"; echo "0 passed, 1 failed"; exit 1; }
done
[ -f "$build/luajit/idscheme.so" ] || { echo "no $build/luajit/idscheme.so"; echo "0 passed, 1 failed"; exit 1; }

prefix=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-nginx.XXXXXX")
mkdir -p "$prefix/logs" "$prefix/locks"
chmod 755 "$prefix"; chmod 1777 "$prefix/locks"   # workers run as nobody
stop () {
  if [ -f "$prefix/logs/nginx.pid" ]; then
    local pid workers; pid=$(cat "$prefix/logs/nginx.pid" 2>/dev/null)
    if [ -n "$pid" ]; then
      # its workers by pid too (its children, read before it goes: a
      # worker whose master was killed is nobody's child any more)
      workers=$(pgrep -P "$pid" 2>/dev/null)
      kill -QUIT "$pid" 2>/dev/null
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" $workers 2>/dev/null
    fi
  fi
}
redis_pid=""
stop_redis () { [ -n "$redis_pid" ] && kill -KILL "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; redis_pid=""; }
trap 'stop; stop_redis; rm -rf "$prefix"' EXIT

port=$((20000 + RANDOM % 20000))
slots="local:$prefix/locks"
if [ "$mode" = redis ]; then
  . "$here/redis.sh"
  redis_start "$prefix" "$build" "$root" ngx || { echo "0 passed, 1 failed"; exit 1; }
  mode=resty
fi
case $mode in
  resty)
    scheme=fluid
    init='init_by_lua_block { require "idscheme" }'
    initw="init_worker_by_lua_block { require('idscheme.resty').init{ scheme = 'fluid', slots = '$slots' } }"
    setid='set_by_lua_block $ids_id { return require("idscheme.resty").request_id{ response_header = false } }'
    # request_id in the access phase: header set once, incoming reused on request
    extra='location /reuse/ {
      access_by_lua_block {
        local r = require("idscheme.resty")
        local how = ngx.var.uri:match("/reuse/(%w+)")
        local opts = { reuse = how == "any" or (how == "scheme" and "scheme") or nil }
        local id = r.request_id(opts)
        assert(r.request_id(opts) == id, "request_id changed within a request")
        ngx.say(id)
      }
    }'
    ;;
  master)
    scheme=flax
    init='init_by_lua_block { MASTER_GEN = require("idscheme").scheme("flax"):generator() }'
    initw=''
    setid='set_by_lua_block $ids_id { return MASTER_GEN:next_string() }'
    extra=''
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac

cat > "$prefix/nginx.conf" <<CONF
worker_processes 4;
error_log logs/error.log notice;
env IDSCHEME_STORES_MODULE;
pid logs/nginx.pid;
load_module /usr/lib/nginx/modules/ndk_http_module.so;
load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;
events { worker_connections 1024; }
http {
  lua_package_path "$root/lua/?.lua;$root/lua/?/init.lua;;";
  lua_package_cpath "$build/luajit/?.so;;";
  log_format ids escape=none '\$pid \$ids_id';
  $init
  $initw
  server {
    listen 127.0.0.1:$port;
    access_log off;
    location = /id {
      access_log logs/ids.log ids;
      $setid
      add_header X-Request-Id \$ids_id;
      return 200 "\$ids_id\n";
    }
    $extra
  }
}
CONF

nginx -p "$prefix" -c "$prefix/nginx.conf" || { cat "$prefix/logs/error.log"; echo "0 passed, 1 failed"; exit 1; }
for _ in $(seq 50); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  sleep 0.1
done

# request_id: reuses an incoming X-Request-Id only when asked to
if [ "$mode" = resty ]; then
  url="http://127.0.0.1:$port/reuse"
  got_any=$(curl -s -H 'X-Request-Id: given-123' "$url/any")
  got_no=$(curl -s -H 'X-Request-Id: given-123' "$url/no")
  got_bad=$(curl -s -H 'X-Request-Id: given-123' "$url/scheme")
  hdr=$(curl -s -D - -o /dev/null "$url/no" | tr -d '\r' | sed -n 's/^X-Request-Id: //Ip')
  if [ "$got_any" != given-123 ] || [ "$got_no" = given-123 ] || [ -z "$got_no" ] ||
     [ "$got_bad" = given-123 ] || [ -z "$hdr" ]; then
    echo "request_id reuse: any=$got_any no=$got_no scheme=$got_bad header=$hdr"
    echo "0 passed, 1 failed"; exit 1
  fi
fi

wrk -t 4 -c 32 -d 6s -s "$here/collect.lua" "http://127.0.0.1:$port/id" \
    > "$prefix/responses.raw" 2> "$prefix/wrk.err" &
wrkpid=$!
sleep 2.5
kill -HUP "$(cat "$prefix/logs/nginx.pid")"   # reload: old and new workers overlap
wait $wrkpid
stop
# wrk appends its own report after the bodies: keep the ID lines only
grep -v -E '^(Running|  |Requests/sec|Transfer/sec|$)' "$prefix/responses.raw" > "$prefix/responses"
tail -8 "$prefix/responses.raw" | grep -E 'requests in|Requests/sec|Socket errors|Non-2xx'
if [ "$mode" = resty ] && ! grep -q 'idscheme: worker [0-9]* holds slot [0-9]* of ' "$prefix/logs/error.log"; then
  echo "error.log does not say which slot a worker holds"; echo "0 passed, 1 failed"; exit 1
fi
if grep -q -E '\[(alert|emerg|crit|error)\]' "$prefix/logs/error.log"; then
  grep -E '\[(alert|emerg|crit|error)\]' "$prefix/logs/error.log" | head -5
  echo "nginx logged errors"; echo "0 passed, 1 failed"; exit 1
fi
LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua;;" LUA_CPATH="$build/lua54/?.so;;" \
  lua5.4 "$here/check.lua" "$scheme" "$prefix/responses" "$prefix/logs/ids.log" 50000
