#!/usr/bin/env bash
# bench/nginx_bench.sh BUILDDIR: requests/s of an nginx that sets an
# idscheme request ID (OpenResty's Lua module, LuaJIT build of the module,
# FLUID through idscheme.resty) against the same nginx setting its own
# $request_id.  A benchmark, not a test: it prints figures and fails only
# if nginx or wrk does.
#
#   /ids     set_by_lua_block $rid { return require("idscheme.resty")
#              .request_id{ response_header = false } }
#            add_header X-Request-Id $rid; return 200;
#   /native  add_header X-Request-Id $request_id; return 200;
#
# One nginx (a temporary prefix, 127.0.0.1, access logs off) serves both;
# wrk drives each in turn, A B A B ..., after a short warm-up of each.
# Settings (environment): NGINX_BENCH_WORKERS (2), NGINX_BENCH_ROUNDS (3),
# NGINX_BENCH_SECONDS (5), NGINX_BENCH_THREADS (2), NGINX_BENCH_CONNECTIONS
# (64), NGINX_BENCH_SLOTS (local; "redis": the workers' slots are leased
# from a redis-server this script starts on 127.0.0.1).  Never leaves nginx
# or redis running.
set -u
PATH=$PATH:/usr/sbin
build=$(cd "${1:?usage: nginx_bench.sh BUILDDIR}" && pwd) || exit 1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
workers=${NGINX_BENCH_WORKERS:-2}
rounds=${NGINX_BENCH_ROUNDS:-3}
secs=${NGINX_BENCH_SECONDS:-5}
threads=${NGINX_BENCH_THREADS:-2}
conns=${NGINX_BENCH_CONNECTIONS:-64}
moddir=/usr/lib/nginx/modules

for tool in nginx wrk curl; do
  command -v "$tool" >/dev/null || { echo "nginx_bench: $tool not installed"; exit 1; }
done
for m in ndk_http_module.so ngx_http_lua_module.so; do
  [ -f "$moddir/$m" ] || { echo "nginx_bench: no $moddir/$m"; exit 1; }
done
[ -f "$build/luajit/idscheme.so" ] || { echo "nginx_bench: no $build/luajit/idscheme.so"; exit 1; }

prefix=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-nginx-bench.XXXXXX") || exit 1
mkdir -p "$prefix/logs" "$prefix/locks"
chmod 755 "$prefix"; chmod 1777 "$prefix/locks"   # workers may run as nobody
master=

# Stops the nginx this script started (by its pid, and its workers by
# theirs), then removes the prefix.
stop () {
  [ -n "$master" ] || return 0
  local kids
  kids=$(ps -o pid= --ppid "$master" 2>/dev/null)
  if kill -0 "$master" 2>/dev/null; then
    kill -QUIT "$master" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$master" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$master" 2>/dev/null
  fi
  for k in $kids; do kill -KILL "$k" 2>/dev/null; done
  wait "$master" 2>/dev/null
  master=
}
redis_pid=
trap 'stop; [ -n "$redis_pid" ] && kill -KILL "$redis_pid" 2>/dev/null; rm -rf "$prefix"' EXIT
trap 'exit 130' INT TERM HUP

slots="local:$prefix/locks"
if [ "${NGINX_BENCH_SLOTS:-local}" = redis ]; then
  . "$root/spec/nginx/redis.sh"
  redis_start "$prefix" "$build" "$root" bench || exit 1
fi

port=$((20000 + RANDOM % 20000))
cat > "$prefix/nginx.conf" <<CONF
worker_processes $workers;
daemon off;
error_log logs/error.log warn;
env IDSCHEME_STORES_MODULE;
pid logs/nginx.pid;
load_module $moddir/ndk_http_module.so;
load_module $moddir/ngx_http_lua_module.so;
events { worker_connections 1024; }
http {
  access_log off;
  lua_package_path "$root/lua/?.lua;$root/lua/?/init.lua;;";
  lua_package_cpath "$build/luajit/?.so;;";
  init_by_lua_block { require "idscheme"; require "idscheme.resty" }
  init_worker_by_lua_block {
    require("idscheme.resty").init{ scheme = "fluid", slots = "$slots" }
  }
  server {
    listen 127.0.0.1:$port;
    location = /ids {
      set_by_lua_block \$rid { return require("idscheme.resty").request_id{ response_header = false } }
      add_header X-Request-Id \$rid;
      return 200;
    }
    location = /native {
      add_header X-Request-Id \$request_id;
      return 200;
    }
  }
}
CONF

nginx -p "$prefix" -c "$prefix/nginx.conf" &
master=$!
up=
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && { up=1; break; }
  kill -0 "$master" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$up" ]; then
  echo "nginx_bench: nginx did not start"; cat "$prefix/logs/error.log"; exit 1
fi

# Both locations must answer 200 with an X-Request-Id.
for loc in ids native; do
  h=$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/$loc")
  rid=$(printf '%s' "$h" | tr -d '\r' | sed -n 's/^X-Request-Id: //Ip')
  case $h in
    "HTTP/1.1 200"*) ;;
    *) echo "nginx_bench: /$loc did not answer 200:"; printf '%s\n' "$h"
       cat "$prefix/logs/error.log"; exit 1 ;;
  esac
  [ -n "$rid" ] || { echo "nginx_bench: /$loc sent no X-Request-Id"; exit 1; }
  printf '  /%-7s X-Request-Id: %s\n' "$loc" "$rid"
done

# CPU time (clock ticks, user + system) of nginx's workers so far.
hz=$(getconf CLK_TCK)
workercpu () {
  local t=0 k
  for k in $(ps -o pid= --ppid "$master"); do
    t=$((t + $(awk '{ print $14 + $15 }' "/proc/$k/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}

# One wrk run on location $1 for $2 seconds: "requests/s  worker-us/request".
# The second figure (the workers' CPU time per request) depends less on
# other load than requests/s does.
run () {
  local out rps n c0 c1
  c0=$(workercpu)
  out=$(wrk -t "$threads" -c "$conns" -d "${2}s" "http://127.0.0.1:$port/$1" 2>&1)
  c1=$(workercpu)
  rps=$(printf '%s\n' "$out" | sed -n 's/^Requests\/sec: *//p')
  n=$(printf '%s\n' "$out" | sed -n 's/^ *\([0-9][0-9]*\) requests in.*/\1/p')
  if [ -z "$rps" ] || printf '%s\n' "$out" | grep -q -E 'Non-2xx|Socket errors'; then
    echo "nginx_bench: wrk on /$1:" >&2; printf '%s\n' "$out" >&2
    [ -n "$rps" ] || exit 1
  fi
  awk -v r="$rps" -v n="${n:-0}" -v c="$((c1 - c0))" -v hz="$hz" \
    'BEGIN { printf "%s %.2f\n", r, (n > 0 ? c / hz * 1e6 / n : 0) }'
}

echo "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), $workers workers, wrk -t$threads -c$conns -d${secs}s, $rounds rounds A/B; $(uptime | sed 's/.*load/load/')"
run ids 1 >/dev/null; run native 1 >/dev/null          # warm-up (JIT, caches)
: > "$prefix/a"; : > "$prefix/b"; : > "$prefix/r"; : > "$prefix/ca"; : > "$prefix/cb"
for r in $(seq "$rounds"); do
  read -r x cx <<< "$(run ids "$secs")" || exit 1
  [ -n "$x" ] || exit 1
  printf '  round %d  /ids     %10.0f requests/s  %6.2f us worker CPU/request\n' "$r" "$x" "$cx"
  read -r y cy <<< "$(run native "$secs")" || exit 1
  [ -n "$y" ] || exit 1
  printf '  round %d  /native  %10.0f requests/s  %6.2f us worker CPU/request   /ids / /native %.1f%%\n' \
         "$r" "$y" "$cy" "$(awk -v a="$x" -v b="$y" 'BEGIN { print 100 * a / b }')"
  echo "$x" >> "$prefix/a"; echo "$y" >> "$prefix/b"; echo "$cx" >> "$prefix/ca"; echo "$cy" >> "$prefix/cb"
  awk -v a="$x" -v b="$y" 'BEGIN { print 100 * a / b }' >> "$prefix/r"
done
if grep -q -E '\[(alert|emerg|crit|error)\]' "$prefix/logs/error.log"; then
  grep -E '\[(alert|emerg|crit|error)\]' "$prefix/logs/error.log" | head -5
  echo "nginx_bench: nginx logged errors"; exit 1
fi

# Medians, means and ranges; the ratio is the median of the rounds' own
# ratios (each round's two runs saw about the same load), with the ratio of
# the medians beside it.  Target: >= 95%.
summ () { sort -g "$1" | awk '{ v[NR] = $1; s += $1 } END { printf "%.2f %.2f %.2f %.2f", v[int((NR + 1) / 2)], s / NR, v[1], v[NR] }'; }
read -r am amean amin amax <<< "$(summ "$prefix/a")"
read -r bm bmean bmin bmax <<< "$(summ "$prefix/b")"
read -r cam _ _ _ <<< "$(summ "$prefix/ca")"
read -r cbm _ _ _ <<< "$(summ "$prefix/cb")"
read -r rm _ rmin rmax <<< "$(summ "$prefix/r")"
printf 'nginx /ids    (idscheme.resty request_id) %10.0f requests/s median (mean %.0f, %.0f..%.0f); %.2f us worker CPU/request\n' "$am" "$amean" "$amin" "$amax" "$cam"
printf 'nginx /native ($request_id)               %10.0f requests/s median (mean %.0f, %.0f..%.0f); %.2f us worker CPU/request\n' "$bm" "$bmean" "$bmin" "$bmax" "$cbm"
awk -v r="$rm" -v lo="$rmin" -v hi="$rmax" -v a="$am" -v b="$bm" -v ca="$cam" -v cb="$cbm" 'BEGIN {
  printf "ratio /ids / /native: %.1f%% (median of the rounds, %.1f..%.1f%%; %.1f%% of the medians); worker CPU/request %+.2f us (%.1f%%)\n",
         r, lo, hi, 100 * a / b, ca - cb, (cb > 0 ? 100 * ca / cb : 0)
  printf "target >= 95%%: %s\n", (r >= 95 ? "met" : "MISSED") }'
echo "load after: $(uptime | sed 's/.*load/load/')"
