#!/usr/bin/env bash
# spec/slots/auth.sh BUILDDIR SERVER: a Redis that asks for a password
# (requirepass) and has an ACL user.  Claims with the password in the URL,
# as an ACL user, or from $IDSCHEME_REDIS_PASSWORD; without it or with a
# wrong one the claim fails naming the server's refusal, and no message,
# log line or lease state ever shows the password.
. "$(dirname "$0")/lib.sh"
store=redis server=$2
free_ports port
. "$(dirname "$0")/server.sh"
start_server --requirepass 'pw-for:default' \
  --user gen on '>g3n!pass' '~*' '+@all'

check_claim "the password in the URL (%3A for ':')" \
  "redis://:pw-for%3Adefault@127.0.0.1:$port/a"
check_claim "an ACL user and its password" \
  "redis://gen:g3n!pass@127.0.0.1:$port/a"
IDSCHEME_REDIS_PASSWORD='pw-for:default' \
  check_claim "the password from IDSCHEME_REDIS_PASSWORD" \
  "redis://127.0.0.1:$port/a"
IDSCHEME_REDIS_USER=gen IDSCHEME_REDIS_PASSWORD='g3n!pass' \
  check_claim "user and password from the environment" \
  "redis://127.0.0.1:$port/a"
check_refused "no password: refused, the server's word quoted" \
  "NOAUTH" "redis://127.0.0.1:$port/a"
check_refused "a wrong password: AUTH refused, naming the user" \
  "AUTH as gen refused: WRONGPASS" "redis://gen:wrong-secret@127.0.0.1:$port/a"
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

stop_server
finish
