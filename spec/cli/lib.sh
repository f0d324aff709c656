# spec/cli/lib.sh: what the idscheme command's tests (spec/cli/*.sh
# BUILDDIR) share.  Sourced, after `set -u`:
#   . "$(dirname "$0")/lib.sh"
#   cli_setup "${1:-}"          ids (the command), tmp (removed at exit)
#   ...checks...
#   cli_finish                  "N passed, N failed"; the exit status

# cli_setup BUILDDIR: ids=BUILDDIR/idscheme, a temporary directory $tmp
# removed at exit, the counters at 0
cli_setup () {
  local me
  me=$(basename "$0" .sh)
  if [ -z "${1:-}" ]; then
    echo "usage: $me.sh BUILDDIR" >&2
    exit 2
  fi
  ids=$1/idscheme
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/idscheme-${me//_/-}.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  pass=0 fail=0
}

# generating FILE: the names, a line each, of the schemes in FILE
# (`idscheme list --json`) with something to generate: a field that is
# neither a constant nor a hash (the nil and max UUIDs are one ID each,
# v3's and v5's hashes of names)
generating () {
  lua5.4 -e '
    for _, s in ipairs(require("cjson").decode(io.read("a"))) do
      local gen = false
      for _, f in ipairs(s.fields) do
        gen = gen or (f.kind ~= "constant" and f.kind ~= "hash")
      end
      if gen then print(s.name) end
    end' < "$1"
}

ok () { pass=$((pass + 1)); }
bad () { fail=$((fail + 1)); printf 'FAIL %s\n' "$*"; }

# expect NAME WANT-EXIT WANT-SUBSTRING-OF-OUTPUT COMMAND...: the exit
# status, and the text in stdout and stderr together
expect () {
  local name=$1 code=$2 want=$3; shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" = "$code" ] && [[ "$out" == *"$want"* ]]; then ok
  else bad "$name: exit $rc (want $code), output:"; printf '%s\n' "$out"; fi
}

# refuses NAME WANT-EXIT WANT-SUBSTRING-OF-STDERR COMMAND...: nothing on
# stdout, the message on stderr.
refuses () {
  local name=$1 code=$2 want=$3; shift 3
  local rc
  "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ "$rc" = "$code" ] && [ ! -s "$tmp/out" ] &&
     grep -qF -- "$want" "$tmp/err"; then ok
  else
    bad "$name: exit $rc (want $code), stdout:"
    printf '%s\nstderr:\n%s\n' "$(cat "$tmp/out")" "$(cat "$tmp/err")"
  fi
}

# myflake FILE ENCODING...: FILE defines the scheme myflake (timestamp
# 41, node 10, sequence 12) with those encodings, the first the default
myflake () {
  local file=$1 encs; shift
  encs=$(printf '"%s", ' "$@")
  cat > "$file" <<LUA
require("idscheme").define{ name = "myflake", fields = {
  { name = "timestamp", bits = 41, kind = "time", unit = "ms", epoch = 1600000000000 },
  { name = "node", bits = 10, kind = "node" },
  { name = "sequence", bits = 12, kind = "sequence" } },
  encodings = { ${encs%, } } }
LUA
}

# cli_finish: the tally; non-zero when anything failed
cli_finish () {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
