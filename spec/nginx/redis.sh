# redis.sh: a throwaway redis-server for the nginx test and bench, sourced
# once $build is set.  It exports IDSCHEME_STORES_MODULE, the build's
# stores' module (core/slot/module.c), unless set: the claims here and
# nginx's workers (their nginx.conf says env IDSCHEME_STORES_MODULE) open
# that one, not an installed one.
export IDSCHEME_STORES_MODULE=${IDSCHEME_STORES_MODULE:-${build:?}/lib/idscheme/stores.so}

# redis_start PREFIX BUILD ROOT NS: starts it on 127.0.0.1 with its data in
# PREFIX/redis, sets redis_pid (the caller's EXIT trap kills it by pid) and
# slots (a redis:// store with namespace prefix NS), and passes the
# handover floors of slots new to the store (a slot's first holder waits
# one lease TTL) once, here, not in an nginx worker: slots 0..7, those of
# 4 workers and of 4 more during a reload.  Fails if it cannot.
redis_start () {
  local prefix=$1 build=$2 root=$3 ns=$4 rport
  rport=$((20000 + RANDOM % 20000))
  redis_run "$prefix" "$rport" || return 1
  slots="redis://127.0.0.1:$rport/$ns"
  redis_pass_floor "$build" "$root" "$slots"
}

# redis_run PREFIX PORT: a redis-server on 127.0.0.1:PORT, empty (no
# snapshot, no AOF: a restart is a store that lost its history), logging
# to PREFIX/logs/redis.log; sets redis_pid and returns once it answers.
redis_run () {
  local prefix=$1 rport=$2
  command -v redis-server >/dev/null || { echo "redis-server not installed"; return 1; }
  mkdir -p "$prefix/redis"
  redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize no --dir "$prefix/redis" >>"$prefix/logs/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$rport") 2>/dev/null && return 0
    kill -0 "$redis_pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "redis-server did not start on port $rport"; tail -5 "$prefix/logs/redis.log"
  return 1
}

# redis_pass_floor BUILD ROOT SLOTS [N]: N (default 8) claims of FLUID
# slots at once (slots 0..N-1 of a namespace new to the store), each of
# which waits out its floor (one TTL), then gives its slot back, having
# recorded what it issued: their next holders wait for nothing.
redis_pass_floor () {
  local build=$1 root=$2 slots=$3 n=${4:-8}
  LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua;;" LUA_CPATH="$build/lua54/?.so;;" \
    lua5.4 -e "local s, gs = require('idscheme').scheme('fluid'), {}
               for i = 1, $n do gs[i] = s:generator{ slots = '$slots' } end
               for _, g in ipairs(gs) do g:next() end
               for _, g in ipairs(gs) do g:close() end"
}
