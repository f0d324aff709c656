# redis.sh: a throwaway redis-server for the nginx test and bench, sourced.
# redis_start PREFIX BUILD ROOT NS: starts it on 127.0.0.1 with its data in
# PREFIX/redis, sets redis_pid (the caller's EXIT trap kills it by pid) and
# slots (a redis:// store with namespace prefix NS), and passes the
# handover floor of a namespace new to the store (its first holders wait
# one lease TTL) once, here, not in an nginx worker.  Fails if it cannot.
redis_start () {
  local prefix=$1 build=$2 root=$3 ns=$4 rport
  command -v redis-server >/dev/null || { echo "redis-server not installed"; return 1; }
  rport=$((20000 + RANDOM % 20000))
  mkdir -p "$prefix/redis"
  redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize no --dir "$prefix/redis" >"$prefix/logs/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 50); do
    (exec 3<>/dev/tcp/127.0.0.1/$rport) 2>/dev/null && break
    sleep 0.1
  done
  slots="redis://127.0.0.1:$rport/$ns"
  LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua;;" LUA_CPATH="$build/lua54/?.so;;" \
    lua5.4 -e "local g = require('idscheme').scheme('fluid'):generator{ slots = '$slots' }
               g:next(); g:close()"
}
