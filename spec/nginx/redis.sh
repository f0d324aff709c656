# redis.sh: a throwaway redis-server for the nginx test and bench, sourced.
# redis_start PREFIX BUILD ROOT NS: starts it on 127.0.0.1 with its data in
# PREFIX/redis, sets redis_pid (the caller's EXIT trap kills it by pid) and
# slots (a redis:// store with namespace prefix NS), and passes the
# handover floor of a namespace new to the store (its first holders wait
# one lease TTL) once, here, not in an nginx worker.  Fails if it cannot.
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

# redis_pass_floor BUILD ROOT SLOTS: one claim of a FLUID slot that waits
# out the floor of a namespace new to the store, then gives the slot back.
redis_pass_floor () {
  local build=$1 root=$2 slots=$3
  LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua;;" LUA_CPATH="$build/lua54/?.so;;" \
    lua5.4 -e "local g = require('idscheme').scheme('fluid'):generator{ slots = '$slots' }
               g:next(); g:close()"
}
