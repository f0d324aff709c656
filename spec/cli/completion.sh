#!/usr/bin/env bash
# spec/cli/completion.sh BUILDDIR: the bash and zsh completion scripts
# (completions/) loaded by the real shells, completing as a user would,
# with BUILDDIR's idscheme first in PATH (issue 25).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup "${1:-}"
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v zsh >/dev/null || { bad "zsh is not installed (scripts/packages has it)"; cli_finish; }
export PATH="$(cd "$1" && pwd):$PATH"

# bash: COMP_WORDS as bash sets them, then the function complete -F names
comp () {
  local want=$1; shift
  local got
  got=$(bash -c 'source "$1"; shift
                 [ "$(complete -p idscheme)" = "complete -F _idscheme idscheme" ] || exit 3
                 COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _idscheme
                 printf "%s\n" "${COMPREPLY[@]}"' _ "$src/completions/idscheme.bash" "$@")
  if grep -qxF -- "$want" <<<"$got"; then ok
  else bad "bash: '$*' does not offer '$want': $(tr '\n' ' ' <<<"$got")"; fi
}
comp inspect   idscheme ins
comp help      idscheme he
comp ulid      idscheme new ul
comp mongo     idscheme inspect -s mon
comp hex       idscheme new fluid -e he
comp base32hex idscheme inspect -e base32h
comp generator= idscheme new fluid -p gen
comp policy=   idscheme -l x.lua new fluid -p pol
comp worker=   idscheme compose snowflake wor
comp --encoding idscheme new fluid --enc
comp compose   idscheme help comp
mkdir -p "$tmp/path"
printf '%s\n' 'require("idscheme").define{ name = "pathflake", fields = {' \
  '{ name = "t", bits = 41, kind = "time" }, { name = "s", bits = 22, kind = "sequence" } } }' \
  > "$tmp/path/p.lua"
IDSCHEME_PATH="$tmp/path" comp pathflake idscheme new pathf
mkdir -p "$tmp/dir" && : > "$tmp/dir/ids.txt"
comp "$tmp/dir/ids.txt" idscheme inspect "$tmp/dir/i"
comp "$tmp/dir/ids.txt" idscheme -l "$tmp/dir/i"
# nothing where nothing fits
got=$(bash -c 'source "$1"; COMP_WORDS=(idscheme list ""); COMP_CWORD=2; _idscheme; echo "${#COMPREPLY[@]}"' _ "$src/completions/idscheme.bash")
[ "$got" = 0 ] && ok || bad "bash: list takes no word, offered $got"

# zsh: the function body with compadd and _files recorded, as compsys
# would call it for words[] and CURRENT
zcomp () {
  local want=$1; shift
  local got
  got=$(zsh -f -c 'compadd () { print -r -- "compadd $*" }; _files () { print -r -- "_files" }
                   words=("${@:2}"); CURRENT=$#words; source "$1"' _ "$src/completions/_idscheme" "$@")
  if grep -qF -- "$want" <<<"$got"; then ok
  else bad "zsh: '$*' does not give '$want': $got"; fi
}
zsh -n "$src/completions/_idscheme" && ok || bad "zsh -n completions/_idscheme"
zcomp "compadd -Q -- list info new gen inspect" idscheme ""
zcomp " ulid " idscheme new ul
zcomp "compadd -Q -S = -- generator epoch_ms" idscheme new fluid -p ""
zcomp "_files" idscheme inspect ""
cli_finish
