# bash completion for idscheme.  The command answers itself
# (`idscheme __complete WORD...`: the words up to the one being completed),
# so that its commands, options, schemes, encodings and -p names are never
# listed twice.  Installed as share/bash-completion/completions/idscheme.
_idscheme() {
  local cur=${COMP_WORDS[COMP_CWORD]} out
  local IFS=$'\n'
  out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
  if [[ $out == @files ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
    return
  fi
  COMPREPLY=($(compgen -W "$out" -- "$cur"))
  # a -p name or a field: NAME= takes its value next, without a space
  [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
  return 0
}
complete -F _idscheme idscheme
