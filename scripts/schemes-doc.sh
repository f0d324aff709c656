#!/usr/bin/env bash
# scripts/schemes-doc.sh BUILDDIR: docs/SCHEMES.md, every registered scheme
# as `idscheme info` shows it (format, aliases, time, fields, the bit
# layout, encodings, options), written from the registry so that it can
# never leave one out.  The test schemes_doc checks that the committed file
# is what this writes:
#   bash scripts/schemes-doc.sh build-test > docs/SCHEMES.md
set -euo pipefail
bin=${1:?usage: $0 BUILDDIR}/idscheme
# the shipped schemes alone: no scheme path of the user's
empty=$(mktemp -d); trap 'rmdir "$empty"' EXIT
ids () { env -u IDSCHEME_PATH XDG_CONFIG_HOME="$empty" HOME="$empty" "$bin" "$@"; }
names=$(ids list | awk '{ print $1 }')
cat <<HEAD
# The schemes

Every scheme that idscheme ships, as \`idscheme info NAME\` shows it: its
format, the names it answers to, its time (unit, epoch, range), its fields
and their bits, the layout drawn, its text forms (the default first) and
the options its generators take.  Written from the registry by
\`scripts/schemes-doc.sh\` (the test \`schemes_doc\` keeps it current);
\`docs/COMPAT.md\` says where each differs from its format's own spec.

$(for n in $names; do printf -- '- [%s](#%s)\n' "$n" "$n"; done)
HEAD
for n in $names; do
  printf '\n## %s\n\n```\n' "$n"
  ids info "$n"
  printf '```\n'
done
