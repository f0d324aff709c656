#!/usr/bin/env bash
# spec/slots/auth.sh BUILDDIR SERVER: a Redis that asks for a password
# (requirepass) and has an ACL user.  Claims with the password in the URL,
# as an ACL user, or from $IDSCHEME_REDIS_PASSWORD; without it or with a
# wrong one the claim fails naming the server's refusal, and no message,
# log line or lease state ever shows the password.
. "$(dirname "$0")/lib.sh"
server=$2
free_ports port
"$server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
  --dir "$tmp" --requirepass 'pw-for:default' \
  --user gen on '>g3n!pass' '~*' '+@all' >"$tmp/server.log" 2>&1 &
srv_pid=$!
up () { (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; }
wait_for 20 up || { bad "redis starts"; finish; }

claim () {   # claim URL: the driver's output (exit status kept)
  "$driver" "$1" auth 4 "$tmp/d.log" 300 2>&1
}
out=$(claim "redis://:pw-for%3Adefault@127.0.0.1:$port/a"); rc=$?
check "the password in the URL (%3A for ':')" [ $rc = 0 ]
out=$(claim "redis://gen:g3n!pass@127.0.0.1:$port/a"); rc=$?
check "an ACL user and its password" [ $rc = 0 ]
out=$(IDSCHEME_REDIS_PASSWORD='pw-for:default' claim "redis://127.0.0.1:$port/a"); rc=$?
check "the password from IDSCHEME_REDIS_PASSWORD" [ $rc = 0 ]
out=$(IDSCHEME_REDIS_USER=gen IDSCHEME_REDIS_PASSWORD='g3n!pass' claim "redis://127.0.0.1:$port/a"); rc=$?
check "user and password from the environment" [ $rc = 0 ]
out=$(claim "redis://127.0.0.1:$port/a"); rc=$?
check "no password: refused, the server's word quoted" \
  eval '[ $rc = 2 ] && grep -q "NOAUTH" <<<"$out"'
out=$(claim "redis://gen:wrong-secret@127.0.0.1:$port/a"); rc=$?
check "a wrong password: AUTH refused, naming the user" \
  eval '[ $rc = 2 ] && grep -q "AUTH as gen refused: WRONGPASS" <<<"$out"'
check "the message shows no password" \
  eval '! grep -q "wrong-secret" <<<"$out" && grep -q "gen:\*\*\*@" <<<"$out"'

# a generator through the Lua module: its lease shows the URL redacted
export LUA_CPATH="$build/lua54/?.so;;"
cat >"$tmp/gen.lua" <<'LUA'
local g = require("idscheme").scheme("fluid"):generator{
  slots = arg[1], slot_timeout_ms = 1000 }
io.write(g:next_string("dec"), " ", g:lease().store, "\n")
g:close()
LUA
out=$(lua_run "$tmp/gen.lua" "redis://gen:g3n!pass@127.0.0.1:$port/a" 2>&1); rc=$?
check "a Lua generator claims as the ACL user" [ $rc = 0 ]
check "its lease shows the store without the password" \
  eval 'grep -q "redis://gen:\*\*\*@127.0.0.1:$port/a" <<<"$out" && ! grep -q "g3n" <<<"$out"'

kill -KILL "$srv_pid"; wait "$srv_pid" 2>/dev/null
finish
