#!/usr/bin/env bash
# .github/added-sources.sh BASE [FILE]: print, one per line, each url that FILE (default
# network/sources.toml) lists in the working tree but did not list at git revision BASE. The
# pull-request check runs `ashyams inspect` on each. A URL whose entry only moved or whose note
# changed is not printed.
set -euo pipefail
export LC_ALL=C # sort and comm must agree on order

base=${1:?usage: added-sources.sh BASE [FILE]}
file=${2:-network/sources.toml}

# urls FILE-CONTENT: the value of every `url = "..."` line (the layout `ashyams add` writes).
urls() { sed -n 's/^[[:space:]]*url[[:space:]]*=[[:space:]]*"\([^"]*\)"[[:space:]]*\(#.*\)\{0,1\}$/\1/p' | sort -u; }

git rev-parse -q --verify "$base^{commit}" >/dev/null || { echo "added-sources.sh: unknown revision $base" >&2; exit 1; }
[ -f "$file" ] || { echo "added-sources.sh: $file is missing" >&2; exit 1; }
old=$(git show "$base:$file" 2>/dev/null | urls || true)
comm -13 <(printf '%s\n' "$old" | sed '/^$/d') <(urls < "$file")
