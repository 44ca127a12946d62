#!/usr/bin/env bash
# .github/added-sources.sh BASE [FILE]: print, one per line, each url that FILE (default
# network/sources.toml) lists in the working tree but did not list at git revision BASE. The
# pull-request check runs `ashyams inspect` on each. A URL whose entry only moved or whose note
# changed is not printed.
set -euo pipefail
export LC_ALL=C # sort and comm must agree on order

base=${1:?usage: added-sources.sh BASE [FILE]}
file=${2:-network/sources.toml}

# urls: the url of every [[source]] in the TOML on stdin, read by a TOML parser (Python's
# tomllib), so every spelling TOML allows counts ('...', "url" = ..., inline tables), as refresh
# reads them. A file that is not TOML fails here, and so fails the pull-request check.
urls() { python3 -c 'import sys, tomllib
try:
    doc = tomllib.loads(sys.stdin.read())
except tomllib.TOMLDecodeError as e:
    sys.exit("not valid TOML: %s" % e)
for s in doc.get("source", []):
    if isinstance(s, dict) and isinstance(s.get("url"), str):
        print(s["url"])' | sort -u; }

git rev-parse -q --verify "$base^{commit}" >/dev/null || { echo "added-sources.sh: unknown revision $base" >&2; exit 1; }
[ -f "$file" ] || { echo "added-sources.sh: $file is missing" >&2; exit 1; }
old=$(git show "$base:$file" 2>/dev/null | urls || true)
new=$(urls < "$file") || { echo "added-sources.sh: $file is not a TOML source list" >&2; exit 1; }
comm -13 <(printf '%s\n' "$old" | sed '/^$/d') <(printf '%s\n' "$new" | sed '/^$/d')
