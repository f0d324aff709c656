# server.sh: start and stop a throwaway redis or etcd on 127.0.0.1,
# sourced after lib.sh by the tests that need one.  Uses $store (redis or
# etcd), $server (its binary), $port, $peer (etcd), $tmp; sets $srv_pid
# and $srv_log.  $etcd_tls, if set, is the curl options (CA, client
# certificate and key) of an etcd that takes clients over TLS only.
gen=${gen:-0}
etcd_tls=${etcd_tls:-}

server_up () {
  if [ "$store" = redis ]; then
    (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null
  else
    curl -s -m 1 $etcd_tls "http${etcd_tls:+s}://127.0.0.1:$port/health" \
      2>/dev/null | grep -q true
  fi
}

start_server () {   # start_server [ARGS...]: a new, empty server on the same port
  local client=http${etcd_tls:+s}://127.0.0.1:$port
  gen=$((gen + 1))
  srv_log=$tmp/server$gen.log
  mkdir -p "$tmp/data$gen"
  if [ "$store" = redis ]; then
    "$server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
      --daemonize no --dir "$tmp/data$gen" "$@" >"$srv_log" 2>&1 &
  else
    "$server" --name default --data-dir "$tmp/data$gen" \
      --listen-client-urls "$client" --advertise-client-urls "$client" \
      --listen-peer-urls "http://127.0.0.1:$peer" \
      --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
      --initial-cluster "default=http://127.0.0.1:$peer" \
      "$@" >"$srv_log" 2>&1 &
  fi
  srv_pid=$!
  pids="$pids $srv_pid"
  if ! wait_for 20 server_up; then
    echo "$store server did not start on 127.0.0.1:$port:"; tail -5 "$srv_log"
    bad "server starts"; finish
  fi
}

stop_server () { kill -KILL "$srv_pid" 2>/dev/null; wait "$srv_pid" 2>/dev/null; }
