# lib.sh: shared by the PostgreSQL tests (spec/pg/*.sh), sourced after
# spec/slots/lib.sh (its tmp, check, free_ports, wait_for, finish).
#
# The server is Debian's PostgreSQL 15, run from a copy of its binaries and
# share files in the test's tmp (as PostgreSQL's own `make check` runs a
# temporary installation) with the extension installed into that copy by
# PGXS (DESTDIR): nothing is installed into the system.  initdb and the
# server run as the `postgres` user when the test runs as root (the server
# refuses root), on 127.0.0.1 on a free port, with the socket and the data
# in tmp; every server is stopped by its pid at exit, even when a test fails.
pgbin=${PG_BINDIR:-/usr/lib/postgresql/15/bin}
pgshare=${PG_SHAREDIR:-/usr/share/postgresql/15}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "$build" && pwd)
stage=$tmp/stage
chmod 755 "$tmp"
pg_pids=""

as_pg () {   # as_pg COMMAND...: as postgres when we are root
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# pg_stage: the copy of the server with the extension built against the
# build's library (linked with rpath $ORIGIN, the library beside it)
pg_stage () {
  local lib=$stage/usr/lib/postgresql/15
  mkdir -p "$lib/bin" "$lib/lib" "$stage/usr/share/postgresql"
  cp "$pgbin/postgres" "$pgbin/initdb" "$pgbin/pg_ctl" "$lib/bin/"
  cp "$pgbin"/../lib/*.so "$lib/lib/"
  cp -r "$pgshare" "$stage/usr/share/postgresql/15"
  cp -P "$build"/libidscheme.so* "$lib/lib/"
  # the extension's objects go to tmp (the source tree stays clean)
  # (a VPATH build: make -f the source's Makefile in another directory)
  mkdir -p "$tmp/pgbuild"
  if ! make -s -C "$tmp/pgbuild" -f "$root/pg/Makefile" \
         PG_CONFIG="$pgbin/pg_config" \
         IDSCHEME_BUILD="$build" IDSCHEME_RPATH='$$ORIGIN' \
         >"$tmp/pgbuild.log" 2>&1 ||
     ! make -s -C "$tmp/pgbuild" -f "$root/pg/Makefile" \
         PG_CONFIG="$pgbin/pg_config" \
         IDSCHEME_BUILD="$build" DESTDIR="$stage" install \
         >>"$tmp/pgbuild.log" 2>&1; then
    tail -30 "$tmp/pgbuild.log"
    bad "the extension builds and installs (PGXS)"
    finish
  fi
  # PGXS installs under the configured paths, in DESTDIR
  chmod -R a+rX "$stage"
}

# pg_init NAME: a new data directory $tmp/NAME
pg_init () {
  mkdir -p "$tmp/$1" && chown postgres: "$tmp/$1" 2>/dev/null
  chmod 700 "$tmp/$1"
  if ! as_pg "$stage/usr/lib/postgresql/15/bin/initdb" -D "$tmp/$1/data" \
         -U postgres -A trust --no-sync -E UTF8 --locale=C \
         >"$tmp/$1/initdb.log" 2>&1; then
    tail -20 "$tmp/$1/initdb.log"; bad "initdb $1"; finish
  fi
}

# pg_start NAME PORTVAR [postgres -c options...]: starts it on the port in
# the variable PORTVAR and waits until it takes connections; its pid in
# pg_pid_NAME.  A port that another test took meanwhile ("Address already
# in use") is traded for a new one in PORTVAR, up to 5 times.
pg_start () {
  local name=$1 portvar=$2 pid opts="" try seen
  shift 2
  for o in "$@"; do opts="$opts -c $o"; done
  for try in 1 2 3 4 5; do
    seen=$(cat "$tmp/$name/server.log" 2>/dev/null | wc -l)
    if as_pg "$stage/usr/lib/postgresql/15/bin/pg_ctl" -D "$tmp/$name/data" \
         -l "$tmp/$name/server.log" -w -t 60 start \
         -o "-p ${!portvar} -k $tmp/$name -c listen_addresses=127.0.0.1 -c fsync=off $opts" \
         >/dev/null 2>&1; then
      pid=$(head -1 "$tmp/$name/data/postmaster.pid")
      printf -v "pg_pid_$name" %s "$pid"
      pg_pids="$pg_pids $pid"
      return 0
    fi
    tail -n +$((seen + 1)) "$tmp/$name/server.log" |
      grep -q "Address already in use" || break
    echo "# port ${!portvar} was taken meanwhile: another"
    free_ports "$portvar"
  done
  tail -20 "$tmp/$name/server.log"; bad "server $name starts"; finish
}

# pg_stop NAME: a fast shutdown by pid (SIGINT), waited for
pg_stop () {
  local v=pg_pid_$1
  local pid=${!v}
  kill -INT "$pid" 2>/dev/null
  wait_for 60 eval "! kill -0 $pid 2>/dev/null" || kill -KILL "$pid"
}

# psql on server PORT, database postgres, as postgres: -X (no psqlrc),
# unaligned tuples only, stop at the first error
pgq () {
  local port=$1; shift
  "$pgbin/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" \
    -U postgres -d "${PGDB:-postgres}" "$@"
}

pg_cleanup () {
  local p
  for p in $pg_pids; do kill -INT "$p" 2>/dev/null; done
  for p in $pg_pids; do
    wait_for 30 eval "! kill -0 $p 2>/dev/null" || kill -KILL "$p" 2>/dev/null
  done
}
trap 'pg_cleanup; cleanup' EXIT
